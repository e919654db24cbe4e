//! `reversi gtp`: the engine as a GTP (version 2) program, for GoGui and
//! other GTP controllers, on stdin and stdout; each response is flushed.

use super::hint::read_command;
use super::options::{book_args, clock_seed, limits_args, EngineOptions};
use anyhow::Result;
use clap::Command;
use reversi::apps::gtp::GtpSession;
use std::io::{self, Write};

/// `reversi gtp`'s arguments.
pub(super) fn command() -> Command {
    Command::new("reversi gtp")
        .about(
            "Speak the Go Text Protocol (version 2) with the Othello conventions on \
             stdin/stdout, for GoGui and other GTP controllers",
        )
        .args(limits_args(None))
        .args(book_args())
}

/// Runs `reversi gtp ...` (`args[0]` is `gtp`).
pub fn run(args: &[String]) -> Result<()> {
    reversi::kit::parse_and_run(command(), &args[1..], EngineOptions::from_matches, session)
}

/// The GTP session of the engine of `options`, on stdin and stdout.
fn session(options: EngineOptions) -> Result<()> {
    let mut session = GtpSession::new(
        options.analyzer(clock_seed())?,
        options.limits.limits_at_default_level()?,
        "reversi",
        env!("CARGO_PKG_VERSION"),
    );
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    let mut buf = Vec::new();
    loop {
        if !read_command(&mut input, &mut buf)? {
            return Ok(());
        }
        let r = session.handle(&String::from_utf8_lossy(&buf));
        out.write_all(r.text.as_bytes())?;
        out.flush()?;
        if r.quit {
            return Ok(());
        }
    }
}
