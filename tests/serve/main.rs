//! Tests of `reversi serve`: the API in-process (`api`), and the pages in
//! a real headless Chromium against the server started as a user starts it
//! (`browser`, a file per page, driven by `cdp`), and the server against
//! misbehaving sockets (`robust`).

mod api;
mod browser;
mod cdp;
mod robust;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The last legal move in reading order of a position as `/api/game`
/// answers it (the games the tests walk take it each time).
pub fn last_legal(game: &serde_json::Value) -> String {
    game["legal"]
        .as_array()
        .and_then(|legal| legal.last())
        .and_then(serde_json::Value::as_str)
        .expect("a legal move")
        .to_string()
}

/// `reversi serve --port 0` running as a child process.
pub struct ServerProcess {
    child: Child,
    /// The URL it printed (ends with `/`).
    pub url: String,
    stdout: BufReader<std::process::ChildStdout>,
}

impl ServerProcess {
    /// Starts the binary on a free port and reads the URL it prints.
    pub fn start() -> ServerProcess {
        ServerProcess::start_on_port(0)
    }

    /// Starts the binary on `port` (0: a free one) and reads the URL it prints.
    pub fn start_on_port(port: u16) -> ServerProcess {
        ServerProcess::start_with(port, &[])
    }

    /// Starts the binary on `port` (0: a free one) with the options
    /// `more` (such as `--games FILE`) and reads the URL it prints.
    pub fn start_with(port: u16, more: &[&str]) -> ServerProcess {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new(env!("CARGO_BIN_EXE_reversi"));
        command
            .args(["serve", "--port", &port.to_string()])
            .args(more)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // The signals' default dispositions: a test run started in the
        // background by a non-interactive shell ignores SIGINT, and the
        // server keeps a signal ignored at its start (`nohup`'s rule).
        // SAFETY: signal(2) between fork and exec, async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                    libc::signal(signal, libc::SIG_DFL);
                }
                Ok(())
            });
        }
        let mut child = command.spawn().expect("start reversi serve");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("first line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        ServerProcess { child, url, stdout }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The port it listens on (from its URL).
    pub fn port(&self) -> u16 {
        let after_colon = self.url.rsplit(':').next().unwrap_or_default();
        after_colon
            .trim_end_matches('/')
            .parse()
            .expect("a port in the URL")
    }

    /// Kills it at once (SIGKILL, as a crash or a closed terminal would),
    /// waiting until the process is gone.
    pub fn kill(self) {
        drop(self);
    }

    /// Sends SIGINT (Ctrl-C) and returns the exit status and the rest of stdout.
    pub fn interrupt(self) -> (std::process::ExitStatus, String) {
        self.stop_with(libc::SIGINT)
    }

    /// Sends `signal` and returns the exit status and the rest of stdout.
    pub fn stop_with(mut self, signal: i32) -> (std::process::ExitStatus, String) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, signal);
        }
        let status = self.child.wait().expect("wait");
        let mut rest = String::new();
        while self
            .stdout
            .read_line(&mut rest)
            .map(|n| n > 0)
            .unwrap_or(false)
        {}
        (status, rest)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
