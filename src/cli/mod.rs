//! Dispatch of the `reversi` command line to one module per contract or
//! subcommand. Each module parses its arguments, calls the library and
//! formats the output; errors come back as `anyhow` errors and are printed
//! once, by [`exit`].
//!
//! The subcommands with options (`perft`, `solve`, the depth study, ...)
//! describe them with clap's builder API (`Command`, `Arg`): no proc-macro
//! crates, so the documented static opt-in build (README, "Build options")
//! keeps working, and the shared option builders below ([`option`],
//! [`flag`], [`size_arg`]) keep each command short. Each of
//! them has a `command()` and fills its `Args` struct from the matches
//! that [`parse`] returns; [`parse`] turns clap's several-line usage
//! errors into the one `error:` line every command gives.
//!
//! Nothing here panics on a full or closed stdout or stderr: stdout is
//! written with [`write_stdout`] (its errors are returned), and stderr with
//! this module's `eprintln!`, which replaces the standard one (that panics
//! when stderr cannot be written) in every module below.

/// Writes a line to stderr like the standard `eprintln!`, ignoring a write
/// error instead of panicking (`2>/dev/full`, a closed pipe): a warning or
/// an error message that cannot be shown is not a reason to crash. Being
/// defined before the `mod` lines, it shadows the standard macro in all of
/// `cli`'s modules.
macro_rules! eprintln {
    ($($arg:tt)*) => {
        $crate::cli::write_stderr_line(::std::format_args!($($arg)*))
    };
}

mod analyze;
mod book;
mod gtp;
mod hint;
mod input;
mod memory;
mod nboard;
mod output_files;
mod perft;
mod play;
#[cfg(feature = "serve")]
mod serve;
mod signals;
mod solve;
mod study;
mod tiny;
mod traced_game;
mod train;

use anyhow::{Context as _, Result};
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Command};
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

/// Help or version text was asked for and printed: the command is done and
/// exits with status 0 (returned as an error so that `?` ends the command).
#[derive(Debug)]
pub struct HelpShown;

impl fmt::Display for HelpShown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("help shown")
    }
}

impl std::error::Error for HelpShown {}

/// Shorthand for an `Err` holding a [`UsageError`].
pub fn usage<T>(message: impl Into<String>) -> Result<T> {
    Err(UsageError(message.into()).into())
}

/// `reversi --help` up to the web server's lines.
const HELP_HEAD: &str = "\
reversi: game-tree search for Reversi/Othello (4x4, 6x6, 8x8)

Usage:
 The assignment contracts (exact output):
  reversi FLAG PLAYER BOARD     Reversi Tiny: successors, terminal test,
                                minimax / alpha-beta value, count and move
  reversi play                  play 4x4 against alpha-beta (the front end's dialog)
  reversi -t TASK -d DEPTH -i INPUT -op MOVES -ol LOG
                                the 8x8 contract: play the game from INPUT
  reversi usc-report INPUT...   the 8x8 contract's analysis tables

 The depth study (4x4, 6x6, 8x8; each has --help):
  reversi play --size 8 ...     play with options (human side, depth or time, eval)
  reversi match [OPTIONS]       the computer against itself (--json)
  reversi table [OPTIONS]       final scores for black depth x white depth
  reversi tournament [OPTIONS]  one evaluation against another, all openings
  reversi ordering [OPTIONS]    nodes of natural vs ordered alpha-beta
  reversi tree FLAG PLAYER BOARD  the tree of FLAG 300/500 as Graphviz DOT

 The engine (each has --help):
  reversi perft [--size N] DEPTH [--board B --player P] [--divide]
                                count the leaves of the game tree at DEPTH
  reversi solve --obf LINE | --file F | --size N | --board B --player P
                                exact final score and a best move

 Othello programs' protocols and records (each has --help):
  reversi nboard [OPTIONS]      the NBoard protocol on stdin/stdout (for the NBoard GUI)
  reversi gtp [OPTIONS]         the Go Text Protocol on stdin/stdout (GoGui, scripts)
  reversi hint POSITION [--moves N] [--json]
                                the best moves of a position with their values
  reversi analyze GAME [--exact N] [--json]
                                every move of a game: value, best move, loss
  POSITION and GAME: a transcript (f5d6c3), a GGF game, or a board string
  (64 of -/X/O then X or O to move, then optionally moves), or a file

 The opening book (each has --help; see docs/BOOK.md):
  reversi book new --depth PLIES --level L --out BOOK   every opening to a depth
  reversi book show --book BOOK POSITION   a position's book moves and values
  reversi book deepen|add|search|merge|export|import|stats
  reversi book import-edax|export-edax   to and from Edax's book.dat

 The pattern evaluation's training (each has --help; see docs/TRAINING.md):
  reversi train generate --out GAMES   self-play games solved exactly
  reversi train label --games GAMES --empties A-B --out LABELS
                                their positions labelled by search or solving
  reversi train merge --out FILE SHARD...   the shards of a --shard K/N stage
  reversi train compare --labels LABELS --reference LABELS   labels' error
  reversi train import --out GAMES FILE...   WTHOR and Logistello games
  reversi train heldout --games GAMES --training GAMES --out LABELS
                                the evaluation's test set, solved exactly
  reversi train fit --games GAMES --out WEIGHTS
  reversi train probcut --games GAMES --out TABLE   the cuts' error models

";

/// The web server's lines of the help (only in a build with it).
#[cfg(feature = "serve")]
const HELP_SERVE: &str = "\
 The web pages (see --help): play, watch minimax/alpha-beta search a tree, study
  reversi serve [--port N] [--host ADDR]   serves them on http://127.0.0.1:8080/

";

/// The rest of the help.
const HELP_TAIL: &str = "\
 Ring Treblecross is the second binary: ring-treblecross --help

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

The 8x8 contract:
  INPUT is 8 lines of 8 characters (* empty, X black, O white); black
  (MAX) moves first. TASK 1 minimax, 2 alpha-beta (evaluation: discs of X
  minus discs of O), 3 alpha-beta with positional weights. DEPTH >= 1.
  Writes the game to MOVES and the first step's traverse log to LOG.
  reversi -t 1 -d 3 -i tests/data/usc/input1.txt -op moves.txt -ol tlog.txt

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
    // `serve` stops its server by itself on the same signals.
    if args.first().map(String::as_str) != Some("serve") {
        signals::install();
    }
    match args.first().map(String::as_str) {
        None => usage("missing arguments: expected FLAG PLAYER BOARD (see `reversi --help`)"),
        Some("-h" | "--help" | "help") => write_stdout(&help()),
        Some("-V" | "--version") => {
            write_stdout(&format!("reversi {}\n", env!("CARGO_PKG_VERSION")))
        }
        Some("play") if args.len() == 1 => play::run(),
        Some("usc-report") => traced_game::report(&args[1..]),
        Some(a) if a.starts_with('-') => traced_game::run(&args),
        Some("play") if args.len() > 1 => study::play(&args[1..]),
        Some("match") => study::matches(&args[1..]),
        Some("table") => study::table(&args[1..]),
        Some("tournament") => study::tournament(&args[1..]),
        Some("tree") => study::tree(&args[1..]),
        Some("ordering") => study::ordering(&args[1..]),
        Some("perft") => perft::run(&args),
        Some("solve") => solve::run(&args),
        Some("train") => train::run(&args),
        Some("nboard") => nboard::run(&args),
        Some("gtp") => gtp::run(&args),
        Some("hint") => hint::run(&args),
        Some("analyze") => analyze::run(&args),
        Some("book") => book::run(&args),
        #[cfg(feature = "serve")]
        Some("serve") => serve::run(&args),
        #[cfg(not(feature = "serve"))]
        Some("serve") => usage(
            "this reversi was built without the web server (cargo's feature `serve`, on by default); build it with the default features to use `reversi serve`",
        ),
        Some(word) if word.starts_with(|c: char| c.is_ascii_alphabetic()) => usage(format!(
            "unknown subcommand {word:?}; the subcommands are {} (see `reversi --help`)",
            SUBCOMMANDS.join(", ")
        )),
        Some(_) => tiny::run(&args),
    }
}

/// `reversi --help`: every subcommand of this build.
fn help() -> String {
    #[cfg(feature = "serve")]
    return [HELP_HEAD, HELP_SERVE, HELP_TAIL].concat();
    #[cfg(not(feature = "serve"))]
    [HELP_HEAD, HELP_TAIL].concat()
}

/// The names of the subcommands, for the unknown-subcommand message.
const SUBCOMMANDS: &[&str] = &[
    "play",
    "usc-report",
    "match",
    "table",
    "tournament",
    "tree",
    "ordering",
    "perft",
    "solve",
    "nboard",
    "gtp",
    "hint",
    "analyze",
    "book",
    "train",
    #[cfg(feature = "serve")]
    "serve",
    "help",
];

/// Parses `args` (the words after the subcommand's name) with `command`,
/// whose name is the whole command (`reversi perft`). `--help` and
/// `--version` print to stdout and end the command ([`HelpShown`]); an
/// error becomes one [`UsageError`] line pointing to `--help`.
pub fn parse(command: Command, args: &[String]) -> Result<ArgMatches> {
    let name = command.get_name().to_owned();
    let argv = std::iter::once(name.clone()).chain(args.iter().cloned());
    match command.bin_name(name.clone()).try_get_matches_from(argv) {
        Ok(m) => Ok(m),
        Err(e) => match e.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                write_stdout(&e.render().to_string())?;
                Err(HelpShown.into())
            }
            _ => usage(one_line(&e.render().to_string(), &name)),
        },
    }
}

/// clap's rendered error (a message, perhaps indented details and a tip,
/// then a usage block and a pointer to `--help`) as one line: the message
/// and details joined by spaces, the tip in parentheses, and a pointer to
/// `NAME --help`.
fn one_line(rendered: &str, name: &str) -> String {
    let mut line = String::new();
    for text in rendered.lines().map(str::trim) {
        if text.starts_with("Usage:") || text.starts_with("For more information") {
            break;
        }
        if text.is_empty() {
            continue;
        }
        let text = text.strip_prefix("error: ").unwrap_or(text);
        if !line.is_empty() {
            line.push(' ');
        }
        match text.strip_prefix("tip: ") {
            Some(tip) => {
                line.push('(');
                line.push_str(tip);
                line.push(')');
            }
            None => line.push_str(text),
        }
    }
    format!("{line}; see `{name} --help`")
}

/// `text` with control characters escaped (`\n`, `\u{1b}`), so that a
/// message quoting user input stays one line and cannot drive the terminal.
pub fn escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Writes `args` and a newline to stderr, ignoring errors: see the module's
/// `eprintln!`.
pub fn write_stderr_line(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Parses a board size option (`--size`): 4, 6 or 8.
pub fn parse_size(s: &str) -> Result<u8, String> {
    match s {
        "4" => Ok(4),
        "6" => Ok(6),
        "8" => Ok(8),
        _ => Err(format!("{s:?} is not a board size (4, 6 or 8)")),
    }
}

/// `--size <SIZE>`, parsed by [`parse_size`].
pub fn size_arg(help: &'static str) -> Arg {
    option("size", "SIZE", help).value_parser(parse_size)
}

/// `--LONG <VALUE>`: an option taking one value; its id is `long`.
pub fn option(long: &'static str, value: &'static str, help: &'static str) -> Arg {
    Arg::new(long)
        .long(long)
        .value_name(value)
        .action(ArgAction::Set)
        .help(help)
}

/// `--LONG`: a flag, true when given; its id is `long`.
pub fn flag(long: &'static str, help: &'static str) -> Arg {
    Arg::new(long)
        .long(long)
        .action(ArgAction::SetTrue)
        .help(help)
}

/// The value of an argument that is required or has a default.
pub fn value<T: Clone + Send + Sync + 'static>(m: &ArgMatches, id: &str) -> T {
    m.get_one::<T>(id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} is required or has a default"))
}

/// Writes `text` to stdout in one go.
pub fn write_stdout(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to stdout")
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
            if broken_pipe || e.downcast_ref::<HelpShown>().is_some() {
                return ExitCode::SUCCESS;
            }
            // One line whatever the message quotes (a file name with a line
            // break, an escape sequence).
            eprintln!("error: {}", escape(&format!("{e:#}")));
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// clap checks a command's definition (ids in `requires` and groups,
    /// defaults against their parsers) in debug builds only, and only for a
    /// command that is run: this runs them all.
    #[test]
    fn subcommand_definitions_are_consistent() {
        for command in [
            super::perft::command(),
            super::solve::command(),
            super::nboard::command(),
            super::gtp::command(),
            super::hint::command(),
            super::analyze::command(),
        ]
        .into_iter()
        .chain(super::study::commands())
        .chain(super::train::commands())
        .chain(super::book::commands())
        {
            command.debug_assert();
        }
    }
}
