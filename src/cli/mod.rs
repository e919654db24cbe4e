//! Dispatch of the `reversi` command line (the product: the contracts,
//! the depth study, the engine, the protocols, the web server and the book
//! readers) to one module per contract or subcommand. Each module parses
//! its arguments, calls the library and formats the output; errors come
//! back as `anyhow` errors and are printed once, by `reversi::kit::exit`.
//!
//! The front ends' shared kit (errors, parsing, input and output files,
//! signals, the weights and book readers) is the library's `reversi::kit`,
//! which the lab's binary uses too; the lab's commands are the
//! `reversi-lab` binary's (src/bin/reversi-lab/), and nothing here imports
//! them (tests/cli/layers.rs).

mod analyze;
mod book;
mod games;
mod gtp;
mod hint;
mod memory;
mod nboard;
mod options;
mod perft;
mod play;
#[cfg(feature = "serve")]
mod serve;
mod solve;
mod study;
mod tiny;
mod traced_game;

use anyhow::Result;
use clap::Arg;
use reversi::kit::{escape, option, usage, write_stdout};
use std::ffi::OsString;

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
  reversi book show [--book BOOK] POSITION   a position's book moves and values
  reversi book stats [--book BOOK] what a book holds (the built-in book by default)

 The world's games as a database of positions (each has --help):
  reversi games index FILE...   index WTHOR (.wtb, PGN) and Logistello .gam games
  reversi games POSITION        the games through a position: results, moves
                                played next, the games themselves

 The lab, a binary of its own (see docs/LAB.md): reversi-lab --help
  reversi-lab train ...   the pattern evaluation's training
  reversi-lab book ...    building opening books, their text and Edax forms

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
    let args = reversi::kit::arguments(args)?;
    // `serve` stops its server by itself on the same signals.
    if args.first().map(String::as_str) != Some("serve") {
        reversi::kit::signals::install();
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
        Some("train") => moved_to_the_lab(&args),
        Some("nboard") => nboard::run(&args),
        Some("gtp") => gtp::run(&args),
        Some("hint") => hint::run(&args),
        Some("analyze") => analyze::run(&args),
        Some("book") if book::is_lab_subcommand(&args) => moved_to_the_lab(&args),
        Some("book") => book::run(&args),
        Some("games") => games::run(&args),
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

/// The lab's commands (`train ...`, and the `book` subcommands that write
/// books or their other forms) are `reversi-lab`'s: their old spelling
/// under `reversi` names the new one.
fn moved_to_the_lab(args: &[String]) -> Result<()> {
    let words = args.iter().take(2).map(|a| escape(a)).collect::<Vec<_>>();
    let spelled = words.join(" ");
    usage(format!(
        "`reversi {spelled}` is a command of the lab, which is a binary of its own: run `reversi-lab {spelled}` (see `reversi-lab --help`)"
    ))
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
    "games",
    #[cfg(feature = "serve")]
    "serve",
    "help",
];

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
        .chain(super::book::commands())
        .chain(super::games::commands())
        {
            command.debug_assert();
        }
    }
}
