//! `reversi perft [--size N] DEPTH [--board B --player P] [--divide]`.

use super::{parse_size, usage, write_stdout};
use anyhow::Result;
use clap::Parser;
use reversi::board::{Board, Color};
use reversi::engine::{perft, perft_divide, Position};
use std::fmt::Write as _;

/// Count the leaves of the game tree at a depth (a pass is a ply; a
/// finished game is one leaf at every deeper depth).
#[derive(Parser, Debug)]
#[command(name = "reversi perft")]
struct Args {
    /// Plies to search.
    depth: u32,
    /// Board size for the start position: 4, 6 or 8.
    #[arg(long, value_parser = parse_size, conflicts_with = "board")]
    size: Option<u8>,
    /// A board as 16, 36 or 64 digits 0/1/2 in reading order (needs --player).
    #[arg(long, requires = "player")]
    board: Option<String>,
    /// The player to move on --board: 1 (dark) or 2 (light).
    #[arg(long, requires = "board", value_parser = clap::value_parser!(u8).range(1..=2))]
    player: Option<u8>,
    /// Print the count under each first move, then the total.
    #[arg(long)]
    divide: bool,
}

/// The position given by `--size` (default 8) or `--board` and `--player`.
pub(super) fn position_of(
    size: Option<u8>,
    board: Option<&str>,
    player: Option<u8>,
) -> Result<(Position, Color)> {
    match (board, player) {
        (Some(b), Some(pl)) => {
            let color = Color::from_number(pl).expect("clap checked 1..=2");
            match Board::from_digits(b) {
                Ok(board) => Ok((Position::from_board(&board, color), color)),
                Err(e) => usage(format!("--board {b:?} {e}; use the digits 0, 1, 2")),
            }
        }
        _ => Ok((Position::start(size.unwrap_or(8)), Color::Black)),
    }
}

/// Runs `reversi perft ...` (`args[0]` is `perft`).
pub fn run(args: &[String]) -> Result<()> {
    let a = Args::parse_from(args);
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
