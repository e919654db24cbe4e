//! The pages in a real headless Chromium, against `reversi serve --port 0`
//! started as a user starts it. Clicks and keys are real input events.
//!
//! With `REVERSI_SCREENSHOTS=DIR` the tests also save the pictures of the
//! docs/SERVE.md (`serve-play.png`, `serve-explore.png`, `serve-study.png`, and
//! each page at 390 and 1366 pixels wide, `serve-PAGE-WIDTH.png`) there.
//!
//! Without Chromium each test prints one `skipped:` line and passes, except
//! under CI (`CI=true`), where a missing browser fails it.
//!
//! One file a page ([`play`] and its [`board_tools`], its [`coach`], the [`explorer`], the
//! [`study`] page), the checks of every page's layout ([`layout`]) and of
//! the skip without Chromium ([`skip`]); the helpers that drive the pages
//! through [`Browser`] and that several files use are here.

use super::cdp::Browser;
use super::ServerProcess;
use serde_json::{json, Value};
use std::os::unix::process::ExitStatusExt;
use std::process::Command;
use std::time::Duration;

mod board_tools;
mod coach;
mod explorer;
mod layout;
mod play;
mod players;
mod skip;
mod study;

pub(super) const WAIT: Duration = Duration::from_secs(60);

/// A headless Chromium of `width` x `height` pixels and a server of the
/// binary, or `None` where no Chromium is found (the test is skipped).
pub(super) fn browser_and_server(width: u32, height: u32) -> Option<(Browser, ServerProcess)> {
    let b = Browser::launch_or_skip(width, height)?;
    Some((b, ServerProcess::start()))
}

/// A string as a JavaScript literal.
pub(super) fn js(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// GETs `path` from the page's server and returns its JSON.
pub(super) fn api(b: &mut Browser, path: &str) -> Value {
    b.eval(&format!("fetch({}).then(r => r.json())", js(path)))
}

pub(super) fn text(b: &mut Browser, selector: &str) -> String {
    let sel = serde_json::to_string(selector).unwrap();
    b.eval(&format!(
        "(document.querySelector({sel}) || {{textContent: ''}}).textContent.trim()"
    ))
    .as_str()
    .unwrap_or_default()
    .to_string()
}

pub(super) fn wait_text(b: &mut Browser, selector: &str, want: &str) {
    let sel = serde_json::to_string(selector).unwrap();
    let want_js = serde_json::to_string(want).unwrap();
    b.wait_for(
        &format!("(document.querySelector({sel}) || {{}}).textContent === {want_js}"),
        WAIT,
        &format!("{selector} to read {want}"),
    );
}

pub(super) fn set_value(b: &mut Browser, selector: &str, value: &str) {
    let sel = serde_json::to_string(selector).unwrap();
    let v = serde_json::to_string(value).unwrap();
    b.eval(&format!(
        "(() => {{ const e = document.querySelector({sel}); e.value = {v}; \
         e.dispatchEvent(new Event('change')); return true; }})()"
    ));
}

/// Asks for a hint with its values on the board and waits until they are
/// shown there.
pub(super) fn hint_on_the_board(b: &mut Browser) {
    b.eval("document.querySelector('#hint-board').checked = true");
    b.click("#hint");
    b.wait_for(
        "document.querySelector('#board [data-hint]')",
        WAIT,
        "hint values on the board",
    );
}

pub(super) fn save_screenshot(b: &mut Browser, name: &str) {
    if let Some(dir) = std::env::var_os("REVERSI_SCREENSHOTS") {
        let png = b.screenshot(true);
        assert!(png.starts_with(b"\x89PNG"));
        std::fs::write(std::path::Path::new(&dir).join(name), png).unwrap();
    }
}

/// The page's transcript (the export in its default form: moves with passes).
pub(super) fn transcript(b: &mut Browser) -> String {
    b.eval("document.querySelector('#transcript').value")
        .as_str()
        .unwrap()
        .to_string()
}

/// Waits until it is the person's turn with `n` moves played, and returns the transcript.
pub(super) fn wait_turn(b: &mut Browser, n: usize) -> String {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let v = b.eval(
            "[document.querySelector('#status').textContent, document.querySelector('#transcript').value]",
        );
        let (status, moves) = (v[0].as_str().unwrap(), v[1].as_str().unwrap());
        if status.contains("your move") && moves.split(' ').filter(|m| !m.is_empty()).count() == n {
            return moves.to_string();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "waited for the person's turn after {n} moves; status {status:?}, transcript {moves:?}"
        );
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// Starts watching, in the page, where the elements `placed` (their top-left
/// corner) and `sized` (their corner and size) are in the document: after
/// every change to the page (a mutation observer, so every state a script
/// leaves between two awaits is seen, painted or not), each one's largest
/// distance from where it was at the start is kept. Read with [`layout_moves`].
pub(super) fn watch_layout(b: &mut Browser, placed: &[&str], sized: &[&str]) {
    let items: Vec<(&str, bool)> = placed
        .iter()
        .map(|s| (*s, false))
        .chain(sized.iter().map(|s| (*s, true)))
        .collect();
    let items = serde_json::to_string(&items).unwrap();
    let v = b.eval(&format!(
        "(() => {{ if (window.__layout) window.__layout.stop(); \
         const items = {items}; \
         const at = () => items.map(([sel]) => {{ const e = document.querySelector(sel); \
           if (!e || !e.getClientRects().length) return null; const r = e.getBoundingClientRect(); \
           return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }}); \
         const first = at(); \
         const worst = items.map(() => [0, '']); \
         const check = () => {{ at().forEach((r, i) => {{ const f = first[i]; \
           const d = r === null || f === null ? Infinity : Math.max(Math.abs(r[0] - f[0]), Math.abs(r[1] - f[1]), \
             ...(items[i][1] ? [Math.abs(r[2] - f[2]), Math.abs(r[3] - f[3])] : [])); \
           if (d > worst[i][0]) worst[i] = [d, JSON.stringify(f) + ' -> ' + JSON.stringify(r) + ' status: ' + \
             (document.querySelector('.status') || {{}}).textContent]; }}); }}; \
         const obs = new MutationObserver(check); \
         obs.observe(document.body, {{ subtree: true, childList: true, attributes: true, characterData: true }}); \
         addEventListener('resize', check); \
         window.__layout = {{ check, worst, items, stop: () => obs.disconnect() }}; \
         return first.map((r, i) => r === null ? items[i][0] : null).filter(Boolean); }})()"
    ));
    assert_eq!(v, json!([]), "elements to watch that are not shown");
}

/// The elements [`watch_layout`] watches that moved (or changed size) by
/// more than one pixel since it started, with where from and where to.
pub(super) fn layout_moves(b: &mut Browser) -> Vec<String> {
    let v = b.eval(
        "(() => { window.__layout.check(); const w = window.__layout.worst; window.__layout.stop(); \
         return w.map(([d, how], i) => [d, how, window.__layout.items[i][0]]); })()",
    );
    let items = v.as_array().unwrap();
    items
        .iter()
        .filter(|w| w[0].as_f64().is_none_or(|d| d > 1.0))
        .map(|w| format!("{} moved {} px: {}", w[2], w[0], w[1]))
        .collect()
}

/// A 6x6 game (black plays weakly, white is the engine) that ends in a
/// wipeout with 10 empty squares, whose positions 17 and 18 (16 and 15
/// empty squares) the review once valued by a win/loss/draw proof, shown
/// as -1.0 and +1.0 between -37 and -36.
pub(super) const WIPEOUT_6X6: &str =
    "d5,e3,f2,d6,e6,f6,c5,c6,b6,e4,e5,e2,f5,f4,f3,f1,b4,a4,b3,b5,pass,a6,pass,a2";
