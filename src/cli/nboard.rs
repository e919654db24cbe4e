//! `reversi nboard`: the engine for the NBoard GUI (NBoard protocol 2) on
//! stdin and stdout. The GUI's commands are read here while a worker
//! thread searches; every reply line is flushed at once. The engine is
//! the engine's [`Analyzer`] at a strength level: the GUI's
//! `set depth N` (or `--depth N`, `--level N`) is the level.

use super::hint::read_command;
use super::options::{book_args, clock_seed, limits_args, EngineOptions, DEFAULT_LEVEL};
use anyhow::Result;
use clap::Command;
use reversi::apps::nboard::{Flow, NboardSession};
use std::io::{self, Write};
use std::sync::mpsc;

/// `reversi nboard`'s arguments.
pub(super) fn command() -> Command {
    Command::new("reversi nboard")
        .about(
            "Speak the NBoard protocol (version 2) on stdin/stdout, for the NBoard GUI: \
             set the engine's command line to `reversi nboard`",
        )
        .args(limits_args(None))
        .args(book_args())
        .mut_arg("depth", |a| {
            a.help(
                "The strength level until the GUI sends `set depth N` (the level N; \
                 above 30 is 30); default 8. No clock cuts a search unless --time \
                 gives one",
            )
        })
        .mut_arg("level", |a| {
            a.help("The same as --depth (the engine always plays at a level)")
        })
}

/// Runs `reversi nboard ...` (`args[0]` is `nboard`).
pub fn run(args: &[String]) -> Result<()> {
    reversi::kit::parse_and_run(command(), &args[1..], EngineOptions::from_matches, session)
}

/// The NBoard session of the engine of `options`, on stdin and stdout.
fn session(options: EngineOptions) -> Result<()> {
    let mut limits = options.limits.limits()?;
    // Always at a level: the default one until the GUI or --depth says;
    // a clock only when --time sets one, so that a level gives one answer
    // on any machine.
    limits.level = Some(limits.level.or(limits.depth).unwrap_or(DEFAULT_LEVEL));
    limits.depth = None;
    let (tx, rx) = mpsc::channel::<String>();
    let printer = std::thread::spawn(move || -> io::Result<()> {
        let mut out = io::stdout().lock();
        for line in rx {
            writeln!(out, "{line}")?;
            out.flush()?;
        }
        Ok(())
    });
    let mut session = NboardSession::new(options.analyzer(clock_seed())?, limits, tx);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        if !read_command(&mut input, &mut buf)? {
            // End of input: let a running search finish and report.
            session.wait();
            break;
        }
        if session.handle(&String::from_utf8_lossy(&buf)) == Flow::Quit {
            break;
        }
    }
    drop(session);
    match printer.join() {
        Ok(r) => Ok(r?),
        Err(p) => std::panic::resume_unwind(p),
    }
}
