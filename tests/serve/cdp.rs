//! A small Chrome DevTools Protocol driver for headless Chromium over
//! `--remote-debugging-pipe` (JSON messages ending in a NUL byte, commands
//! on the browser's fd 3, answers and events on its fd 4).
//!
//! Why not a CDP crate: chromiumoxide and headless_chrome generate types for
//! the whole protocol (thousands of serde-derived structs, minutes of build
//! on a 2-core CI machine, and proc-macros that the static build this
//! project had when the tests were written could not compile); a test needs
//! six commands. The pipe needs no WebSocket, so the driver is this file and
//! serde_json.
//!
//! The browser is Debian's `chromium` (`$CHROMIUM`, else `chromium` or
//! `chromium-browser` on the PATH); nothing is downloaded.

#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long one protocol command may take before the test fails.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// The browser executable: `$CHROMIUM`, else the first of `chromium`,
/// `chromium-browser` found on the PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Whether the environment says this is a CI run (`CI` set to anything
/// but empty, `0` or `false`, as CI services and `.ci/run` set it).
fn running_under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// One headless Chromium with one page, driven over the pipe.
pub struct Browser {
    child: Child,
    commands: std::io::PipeWriter,
    messages: Receiver<Value>,
    events: VecDeque<Value>,
    next_id: u64,
    session: String,
    profile: PathBuf,
}

/// Says on the terminal that the running test skips its checks, and why:
/// written to stderr directly, which `cargo test` does not capture (it
/// captures `println!`), so a newcomer sees what did not run.
fn skipped(reason: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {reason}");
}

impl Browser {
    /// [`Browser::launch`] when Chromium is found; otherwise `None` after
    /// printing one `skipped:` line, so that `cargo test` passes on a
    /// machine without it. Under CI (`CI=true`, which `.ci/run` sets and
    /// where it installs Chromium) a missing browser fails the test instead:
    /// CI must never skip the browser tests silently.
    ///
    /// # Panics
    /// Under CI if Chromium is missing; anywhere if it does not start.
    pub fn launch_or_skip(width: u32, height: u32) -> Option<Browser> {
        if chromium().is_none() {
            assert!(
                !running_under_ci(),
                "CI is set but no chromium or chromium-browser is on the PATH (and \
                 $CHROMIUM is unset): the browser tests must run under CI; \
                 apt-get install chromium (.ci/run does)"
            );
            skipped(
                "no chromium found (install Debian's chromium, or set \
                 CHROMIUM=/path/to/chromium, to run the browser tests)",
            );
            return None;
        }
        Some(Browser::launch(width, height))
    }

    /// Starts the browser with a fresh profile and a `width` x `height`
    /// page, attached to that page.
    ///
    /// # Panics
    /// If Chromium is missing or does not start.
    pub fn launch(width: u32, height: u32) -> Browser {
        let exe = chromium().expect(
            "headless Chromium is needed for the browser tests: apt-get install chromium \
             (.ci/run does), or set CHROMIUM=/path/to/chromium",
        );
        let profile = std::env::temp_dir().join(format!(
            "reversi-serve-chromium-{}-{:x}",
            std::process::id(),
            rand_seed()
        ));
        let (cmd_read, cmd_write) = std::io::pipe().expect("pipe");
        let (msg_read, msg_write) = std::io::pipe().expect("pipe");
        let cmd_fd: OwnedFd = cmd_read.into();
        let msg_fd: OwnedFd = msg_write.into();
        let (in_fd, out_fd) = (cmd_fd.as_raw_fd(), msg_fd.as_raw_fd());
        let mut command = Command::new(&exe);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--window-size={width},{height}"))
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec only async-signal-safe calls (fcntl,
        // dup2) on descriptors that stay open in the parent until spawn returns.
        unsafe {
            command.pre_exec(move || {
                // Move both ends above 4 first, so that dup2 onto 3 and 4
                // never aliases them; dup2 clears close-on-exec.
                let a = libc::fcntl(in_fd, libc::F_DUPFD, 10);
                let b = libc::fcntl(out_fd, libc::F_DUPFD, 10);
                if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        // Its own process group, so that all of Chromium's processes end
        // together and none writes into the profile after it is removed.
        command.process_group(0);
        // Chromium's own temporary folders (org.chromium.Chromium.*) go
        // inside the profile, removed with it.
        let temporary = profile.join("tmp");
        let _ = std::fs::create_dir_all(&temporary);
        command.env("TMPDIR", &temporary);
        let child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
        drop(cmd_fd);
        drop(msg_fd);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(msg_read);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf) {
                            if tx.send(v).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        });
        let mut browser = Browser {
            child,
            commands: cmd_write,
            messages: rx,
            events: VecDeque::new(),
            next_id: 0,
            session: String::new(),
            profile,
        };
        let target = browser.send(None, "Target.createTarget", json!({ "url": "about:blank" }));
        let target_id = target["targetId"].as_str().expect("targetId").to_string();
        let attached = browser.send(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target_id, "flatten": true }),
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_string();
        browser.call("Page.enable", json!({}));
        browser.call("Runtime.enable", json!({}));
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
        );
        browser
    }

    fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).expect("json");
        bytes.push(0);
        self.commands.write_all(&bytes).expect("write to chromium");
        let deadline = Instant::now() + COMMAND_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(m) if m["id"] == json!(id) => {
                    if let Some(e) = m.get("error") {
                        panic!("{method} failed: {e}");
                    }
                    return m["result"].clone();
                }
                Ok(m) => self.events.push_back(m),
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no answer from chromium"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: chromium exited"),
            }
        }
    }

    /// Sends a command to the page and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    /// Waits for the page event `method` (dropping others seen before it).
    pub fn wait_event(&mut self, method: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            while let Some(e) = self.events.pop_front() {
                if e["method"] == json!(method) {
                    return e["params"].clone();
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(m) => self.events.push_back(m),
                Err(_) => panic!("no {method} event"),
            }
        }
    }

    /// Opens `url` and waits until the page has loaded.
    pub fn open(&mut self, url: &str) {
        self.events.clear();
        let nav = self.call("Page.navigate", json!({ "url": url }));
        if let Some(e) = nav.get("errorText") {
            panic!("cannot open {url}: {e}");
        }
        self.wait_event("Page.loadEventFired", COMMAND_TIMEOUT);
    }

    /// Evaluates `expression` in the page (awaiting a promise) and returns its value.
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{expression}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Polls `expression` until it is truthy (returning its value) or
    /// `timeout` passes (failing the test with `what`).
    pub fn wait_for(&mut self, expression: &str, timeout: Duration, what: &str) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let v = self.eval(expression);
            let truthy = !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0));
            if truthy {
                return v;
            }
            if Instant::now() >= deadline {
                panic!("timed out waiting for {what} ({expression})");
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Clicks the centre of the element `selector` with real mouse events.
    pub fn click(&mut self, selector: &str) {
        let sel = serde_json::to_string(selector).expect("json");
        // Scroll it into view, let the page lay out until the element stays
        // where it is for two frames (a render still settling would move it
        // between the aim and the click: under load the click then lands
        // on its neighbour), and check that the centre really hits it
        // (nothing drawn over it). A page that redraws the element's
        // region (a tree drawn again once its second count arrives) can
        // cover or replace it between the query and the check: the aim is
        // taken again, for up to five seconds, before the element is
        // called covered.
        let aim = format!(
            "(async () => {{ const e = document.querySelector({sel}); if (!e) return null; \
             e.scrollIntoView({{block: 'center', inline: 'center'}}); \
             const frame = () => new Promise(r => requestAnimationFrame(r)); \
             const at = () => {{ const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].join(); }}; \
             await frame(); let last = at(); \
             for (let still = 0, n = 0; still < 2 && n < 60; n++) {{ await frame(); const now = at(); still = now === last ? still + 1 : 0; last = now; }} \
             const r = e.getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2; \
             const hit = document.elementFromPoint(x, y); \
             return [x, y, !!hit && (hit === e || e.contains(hit))]; }})()"
        );
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut rect = self.eval(&aim);
        while rect[2] != json!(true) && !rect.is_null() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            rect = self.eval(&aim);
        }
        let (x, y) = match (rect[0].as_f64(), rect[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("no element {selector} to click"),
        };
        assert_eq!(rect[2], json!(true), "{selector} is covered at its centre");
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Presses and releases a key (`Enter`, `ArrowRight`, `Tab`, ...) in the focused element.
    pub fn key(&mut self, key: &str) {
        let (code, vk, text) = match key {
            "Enter" => ("Enter", 13, Some("\r")),
            "Tab" => ("Tab", 9, None),
            " " => ("Space", 32, Some(" ")),
            "ArrowLeft" => ("ArrowLeft", 37, None),
            "ArrowUp" => ("ArrowUp", 38, None),
            "ArrowRight" => ("ArrowRight", 39, None),
            "ArrowDown" => ("ArrowDown", 40, None),
            "Home" => ("Home", 36, None),
            other => panic!("key {other} not mapped"),
        };
        let mut down =
            json!({ "type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk });
        if let Some(t) = text {
            down["text"] = json!(t);
        }
        self.call("Input.dispatchKeyEvent", down);
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk }),
        );
    }

    /// A PNG of the page as it is shown (the whole page if `full`).
    pub fn screenshot(&mut self, full: bool) -> Vec<u8> {
        let r = self.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": full }),
        );
        base64_decode(r["data"].as_str().expect("screenshot data"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // SAFETY: kill(2) on the process group of our own child.
        unsafe {
            libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Chromium's helpers may still be ending: try a few times.
        for _ in 0..20 {
            if std::fs::remove_dir_all(&self.profile).is_ok() || !self.profile.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

fn rand_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0);
    h.finish()
}

/// Decodes standard base64 (the screenshot's encoding).
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

#[test]
fn base64_decodes_the_rfc_4648_examples() {
    for (plain, coded) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(base64_decode(coded), plain.as_bytes());
    }
}
