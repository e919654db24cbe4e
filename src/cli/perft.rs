//! `reversi perft [--size N] DEPTH [--board B --player P] [--divide]`.

use super::size_arg;
use anyhow::Result;
use clap::{value_parser, Arg, ArgMatches, Command};
use reversi::board::{Board, Color};
use reversi::engine::{perft, perft_divide, RelativePosition};
use reversi::kit::{flag, option, usage, value, write_stdout};
use reversi::reversi::Position;
use std::fmt::Write as _;

/// The options of `reversi perft`.
#[derive(Debug)]
struct Args {
    depth: u32,
    size: Option<u8>,
    board: Option<String>,
    player: Option<u8>,
    divide: bool,
}

/// `reversi perft`'s arguments.
pub(super) fn command() -> Command {
    Command::new("reversi perft")
        .about(
            "Count the leaves of the game tree at a depth (a pass is a ply; \
             a finished game is one leaf at every deeper depth)",
        )
        .arg(
            Arg::new("depth")
                .value_name("DEPTH")
                .required(true)
                .value_parser(value_parser!(u32))
                .help("Plies to search"),
        )
        .args(position_args(
            "Board size for the start position: 4, 6 or 8",
        ))
        .mut_arg("size", |size| size.conflicts_with("board"))
        .arg(flag(
            "divide",
            "Print the count under each first move, then the total",
        ))
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            depth: value(m, "depth"),
            size: m.get_one("size").copied(),
            board: m.get_one("board").cloned(),
            player: m.get_one("player").copied(),
            divide: m.get_flag("divide"),
        }
    }
}

/// `--size` (with `size_help`), `--board` and `--player`: the options read
/// by [`position_of`], shared with `reversi solve`.
pub(super) fn position_args(size_help: &'static str) -> [Arg; 3] {
    [
        size_arg(size_help),
        option(
            "board",
            "BOARD",
            "A board as 16, 36 or 64 digits 0/1/2 in reading order (needs --player)",
        )
        .requires("player"),
        option(
            "player",
            "PLAYER",
            "The player to move on --board: 1 (dark) or 2 (light)",
        )
        .requires("board")
        .value_parser(value_parser!(u8).range(1..=2)),
    ]
}

/// The position given by `--size` (default 8) or `--board` and `--player`.
pub(super) fn position_of(
    size: Option<u8>,
    board: Option<&str>,
    player: Option<u8>,
) -> Result<(RelativePosition, Color)> {
    match (board, player) {
        (Some(b), Some(pl)) => {
            let color = Color::from_number(pl).expect("clap checked 1..=2");
            match Board::from_digits(b) {
                Ok(board) => Ok((
                    RelativePosition::from(&Position {
                        board,
                        to_move: color,
                    }),
                    color,
                )),
                Err(e) => usage(format!("--board {b:?} {e}; use the digits 0, 1, 2")),
            }
        }
        _ => Ok((RelativePosition::start(size.unwrap_or(8)), Color::Black)),
    }
}

/// Runs `reversi perft ...` (`args[0]` is `perft`).
pub fn run(args: &[String]) -> Result<()> {
    reversi::kit::parse_and_run(
        command(),
        &args[1..],
        |m| Ok(Args::from_matches(m)),
        perft_as_asked,
    )
}

/// Runs `reversi perft` as asked.
fn perft_as_asked(a: Args) -> Result<()> {
    let (pos, _) = position_of(a.size, a.board.as_deref(), a.player)?;
    let mut out = String::new();
    if a.divide {
        let parts = perft_divide(&pos, a.depth);
        for (mv, n) in &parts {
            match mv {
                Some(sq) => writeln!(out, "{sq} {n}")?,
                None => writeln!(out, "pass {n}")?,
            }
        }
        writeln!(out, "total {}", perft(&pos, a.depth))?;
    } else {
        writeln!(out, "{}", perft(&pos, a.depth))?;
    }
    write_stdout(&out)
}
