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
    max_leaves: u64,
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
        .arg(
            option(
                "max-leaves",
                "N",
                "Refuse a depth whose count is estimated (from the shallower counts' growth) above N leaves (about 3e8 are counted a second)",
            )
            .value_parser(value_parser!(u64))
            // At about 3e8 leaves a second (`reversi perft --size 8 11`:
            // 212,258,800 in 0.7 s), a few minutes: 8x8 depth 13
            // (18,429,641,748) is within it, 14 is not.
            .default_value("50000000000"),
        )
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            depth: value(m, "depth"),
            size: m.get_one("size").copied(),
            board: m.get_one("board").cloned(),
            player: m.get_one("player").copied(),
            divide: m.get_flag("divide"),
            max_leaves: value(m, "max-leaves"),
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

/// The leaves of `pos` at `depth`, counted when a count of a shallower
/// depth takes no time; else `Err` with an estimate: the last count that
/// took a few milliseconds times its growth over the depth before it, for
/// every ply left.
fn count_or_estimate(pos: &RelativePosition, depth: u32) -> std::result::Result<u64, f64> {
    let mut previous = 1u64;
    for k in 1..=depth {
        let started = std::time::Instant::now();
        let count = perft(pos, k);
        if k == depth {
            return Ok(count);
        }
        if started.elapsed() > std::time::Duration::from_millis(20) {
            let growth = (count as f64 / previous.max(1) as f64).max(1.0);
            return Err(count as f64 * growth.powi((depth - k) as i32));
        }
        previous = count;
    }
    Ok(1)
}

/// Runs `reversi perft` as asked.
fn perft_as_asked(a: Args) -> Result<()> {
    let (pos, _) = position_of(a.size, a.board.as_deref(), a.player)?;
    // Work that cannot finish (or whose count a u64 cannot hold) is
    // refused, as `tree` and `tournament` refuse theirs.
    let counted = match count_or_estimate(&pos, a.depth) {
        Ok(n) => Some(n),
        Err(estimate) if estimate <= a.max_leaves as f64 && estimate < u64::MAX as f64 / 4.0 => {
            None
        }
        Err(estimate) => {
            return usage(format!(
                "perft {} would count about {estimate:.1e} leaves, more than --max-leaves {} \
                 (about 3e8 are counted a second); give a larger --max-leaves to run it anyway",
                a.depth, a.max_leaves
            ))
        }
    };
    let mut out = String::new();
    if a.divide {
        let parts = perft_divide(&pos, a.depth);
        for (mv, n) in &parts {
            match mv {
                Some(sq) => writeln!(out, "{sq} {n}")?,
                None => writeln!(out, "pass {n}")?,
            }
        }
        writeln!(
            out,
            "total {}",
            counted.unwrap_or_else(|| perft(&pos, a.depth))
        )?;
    } else {
        writeln!(out, "{}", counted.unwrap_or_else(|| perft(&pos, a.depth)))?;
    }
    write_stdout(&out)
}
