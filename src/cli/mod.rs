//! Dispatch of the `reversi` command line to one module per contract or
//! subcommand. Each module parses its arguments, calls the library and
//! formats the output; errors come back as `anyhow` errors and are printed
//! once, by [`exit`].

mod perft;
mod solve;
mod tiny;

use anyhow::Result;
use std::ffi::OsString;
use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// A problem with what the user gave us (arguments, input files, stdin):
/// reported as `error: ...` on stderr with exit status 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand for an `Err` holding a [`UsageError`].
pub fn usage<T>(message: impl Into<String>) -> Result<T> {
    Err(UsageError(message.into()).into())
}

const HELP: &str = "\
reversi: game-tree search for Reversi/Othello (4x4, 6x6, 8x8)

Usage:
  reversi FLAG PLAYER BOARD     the Reversi Tiny contract (FLAG 100-600)
  reversi play                  play 4x4 Reversi against alpha-beta
  reversi perft [--size N] DEPTH [--board B --player P] [--divide]
                                count the leaves of the game tree at DEPTH
  reversi solve --obf LINE | --file F | --size N | --board B --player P
                                exact final score and a best move

The Tiny contract:
  PLAYER is 1 (dark, MAX) or 2 (light, MIN); BOARD is 16 characters 0/1/2
  in reading order (0 empty, 1 dark, 2 light), or 36/64 for 6x6/8x8.
  100  print every successor board (a pass prints the board itself)
  200  print `non-terminal`, or the value of a terminal board (1, -1, 0)
  300  minimax value, then the number of states explored
  400  the successor chosen by minimax (first best in reading order)
  500  as 300 with alpha-beta pruning
  600  as 400 with alpha-beta pruning

Example:
  reversi 300 1 0000021001200000     prints -1 and 224821

Errors go to stderr as `error: ...` with exit status 2.
";

/// Runs the command line `args` (without the program name).
pub fn run(args: Vec<OsString>) -> Result<()> {
    let args = args
        .into_iter()
        .map(|a| {
            a.into_string()
                .map_err(|a| UsageError(format!("argument {a:?} is not valid UTF-8")))
        })
        .collect::<Result<Vec<String>, UsageError>>()?;
    match args.first().map(String::as_str) {
        None => usage("missing arguments: expected FLAG PLAYER BOARD (see `reversi --help`)"),
        Some("-h" | "--help" | "help") => write_stdout(HELP),
        Some("-V" | "--version") => {
            write_stdout(&format!("reversi {}\n", env!("CARGO_PKG_VERSION")))
        }
        Some("perft") => perft::run(&args),
        Some("solve") => solve::run(&args),
        Some(_) => tiny::run(&args),
    }
}

/// Writes `text` to stdout in one go.
pub fn write_stdout(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Turns the result of [`run`] into the process's exit status, printing
/// the error (if any) once on stderr. A closed stdout (a pipe into `head`)
/// is not an error.
pub fn exit(result: Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let broken_pipe = e
                .chain()
                .filter_map(|c| c.downcast_ref::<io::Error>())
                .any(|io| io.kind() == io::ErrorKind::BrokenPipe);
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
