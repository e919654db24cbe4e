//! `reversi-lab`: the lab's command line, the tools that make what the
//! product reads: `train ...` (the pattern evaluation's training data,
//! weights and Multi-ProbCut table) and `book ...` (building opening
//! books, their text and Edax forms). See `reversi-lab --help`,
//! docs/LAB.md, docs/TRAINING.md and docs/BOOK.md.
//!
//! Its library code is `reversi::lab`; it shares the front ends' kit with
//! the `reversi` binary (`reversi::kit`: errors, parsing, input and output
//! files, signals, the weights and book readers).

/// The standard `eprintln!` panics when stderr cannot be written; this one
/// (see `reversi::kit::write_stderr_line`) ignores the error. Defined before
/// the `mod` lines, it replaces the standard macro in every module below.
macro_rules! eprintln {
    ($($arg:tt)*) => { ::reversi::kit::write_stderr_line(::std::format_args!($($arg)*)) };
}

mod args;
mod book;
mod progress;
mod train;

use anyhow::Result;
use reversi::kit::{usage, write_stdout};
use std::process::ExitCode;

fn main() -> ExitCode {
    reversi::kit::exit(run(std::env::args_os().skip(1).collect()))
}

/// `reversi-lab --help`.
const HELP: &str = "\
reversi-lab: the lab of reversi, the tools that make the pattern weights and
the opening books that `reversi` reads (see docs/LAB.md)

Usage:
 The pattern evaluation's training (each has --help; see docs/TRAINING.md):
  reversi-lab train generate --out GAMES   self-play games solved exactly
  reversi-lab train label --games GAMES --empties A-B --out LABELS
                                their positions labelled by search or solving
  reversi-lab train merge --out FILE SHARD...   the shards of a --shard K/N stage
  reversi-lab train compare --labels LABELS --reference LABELS   labels' error
  reversi-lab train pack --out PACKED LABELS   a label file kept compact
  reversi-lab train unpack --out LABELS PACKED   and given back
  reversi-lab train import --out GAMES FILE...   WTHOR and Logistello games
  reversi-lab train heldout --games GAMES --training GAMES --out LABELS
                                the evaluation's test set, solved exactly
  reversi-lab train heldout-moves --heldout LABELS --out LABELS
                                its second, the positions after every move
  reversi-lab train fit --games GAMES --out WEIGHTS
  reversi-lab train probcut --games GAMES --out TABLE   the cuts' error models

 Building opening books (each has --help; see docs/BOOK.md):
  reversi-lab book new --depth PLIES --level L --out BOOK   every opening to a depth
  reversi-lab book deepen|add   extend a book's best lines, learn games
  reversi-lab book search|merge   a planned book's searches split between runs
  reversi-lab book check --book BOOK --level L   its values against deeper searches
  reversi-lab book export|import   to and from the book's text form
  reversi-lab book import-edax|export-edax   to and from Edax's book.dat

 Reading books and weights is the product's: `reversi book show|stats`,
 `reversi hint --book BOOK --weights FILE` (see `reversi --help`).

A long command stops on SIGINT, SIGTERM or SIGHUP with its files whole;
run it again to continue. Errors go to stderr as `error: ...` with exit
status 2.
";

/// Runs the command line `args` (without the program name).
fn run(args: Vec<std::ffi::OsString>) -> Result<()> {
    let args = reversi::kit::arguments(args)?;
    reversi::kit::signals::install();
    match args.first().map(String::as_str) {
        None => usage("missing arguments: expected train or book (see `reversi-lab --help`)"),
        Some("-h" | "--help" | "help") => write_stdout(HELP),
        Some("-V" | "--version") => {
            write_stdout(&format!("reversi-lab {}\n", env!("CARGO_PKG_VERSION")))
        }
        Some("train") => train::run(&args),
        Some("book") => book::run(&args),
        Some(other) => usage(format!(
            "unknown subcommand {:?}; the subcommands are train, book and help (see `reversi-lab --help`)",
            reversi::kit::escape(other)
        )),
    }
}

#[cfg(test)]
mod tests {
    /// clap checks a command's definition (ids in `requires` and groups,
    /// defaults against their parsers) in debug builds only, and only for a
    /// command that is run: this runs them all.
    #[test]
    fn subcommand_definitions_are_consistent() {
        for command in super::train::commands()
            .into_iter()
            .chain(super::book::commands())
        {
            command.debug_assert();
        }
    }
}
