//! The Reversi Tiny contract: `reversi FLAG PLAYER BOARD` (SPEC section A).

use super::{usage, write_stdout};
use anyhow::Result;
use reversi::board::{Board, Color};
use reversi::game::Game;
use reversi::reversi::{Position, Reversi};
use reversi::search::{alphabeta, minimax, Outcome};
use std::fmt::Write as _;

/// What the contract's FLAG asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flag {
    Successors,
    Terminal,
    MinimaxValue,
    MinimaxMove,
    AlphaBetaValue,
    AlphaBetaMove,
}

fn parse_flag(s: &str) -> Result<Flag> {
    Ok(match s {
        "100" => Flag::Successors,
        "200" => Flag::Terminal,
        "300" => Flag::MinimaxValue,
        "400" => Flag::MinimaxMove,
        "500" => Flag::AlphaBetaValue,
        "600" => Flag::AlphaBetaMove,
        _ => {
            return usage(format!(
                "FLAG {s:?} is not one of 100, 200, 300, 400, 500, 600"
            ))
        }
    })
}

/// Parses `FLAG PLAYER BOARD` and prints what FLAG asks for.
pub fn run(args: &[String]) -> Result<()> {
    let [flag, player, board] = args else {
        return usage(format!(
            "expected 3 arguments FLAG PLAYER BOARD, got {}: {} (see `reversi --help`)",
            args.len(),
            args.iter()
                .map(|a| format!("{a:?}"))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    };
    let flag = parse_flag(flag)?;
    let to_move = match player.as_str() {
        "1" => Color::Black,
        "2" => Color::White,
        _ => return usage(format!("PLAYER {player:?} is not 1 (dark) or 2 (light)")),
    };
    let board = match Board::from_digits(board) {
        Ok(b) => b,
        Err(e) => return usage(format!("BOARD {board:?} {e}; use the digits 0, 1, 2")),
    };
    warn_if_slow(flag, &board);
    write_stdout(&answer(flag, &Position { board, to_move }))
}

/// Exhaustive search grows about tenfold per empty square (less with
/// alpha-beta); past these counts an answer takes minutes to forever.
const MINIMAX_EMPTIES: u32 = 14;
const ALPHABETA_EMPTIES: u32 = 22;

/// Says on stderr (never stdout) when an exhaustive search may not finish.
fn warn_if_slow(flag: Flag, board: &Board) {
    if board.is_game_over() {
        return;
    }
    let empties = board.empty().count_ones();
    let limit = match flag {
        Flag::MinimaxValue | Flag::MinimaxMove => MINIMAX_EMPTIES,
        Flag::AlphaBetaValue | Flag::AlphaBetaMove => ALPHABETA_EMPTIES,
        Flag::Successors | Flag::Terminal => return,
    };
    if empties > limit {
        eprintln!(
            "warning: an exhaustive search over {empties} empty squares may take very long \
             (FLAG 300/400 are quick up to about {MINIMAX_EMPTIES}, 500/600 up to about {ALPHABETA_EMPTIES})"
        );
    }
}

/// The exact stdout for `flag` on `root`.
fn answer(flag: Flag, root: &Position) -> String {
    let game = Reversi::WIN_LOSS;
    let mut out = String::new();
    let mut chosen = |o: Outcome<_>| {
        if let Some(mv) = o.best {
            out.push_str(&game.play(root, mv).board.to_digits());
            out.push('\n');
        }
    };
    match flag {
        Flag::Successors => {
            for (_, s) in game.successors(root) {
                out.push_str(&s.board.to_digits());
                out.push('\n');
            }
        }
        Flag::Terminal => {
            if game.is_terminal(root) {
                let _ = writeln!(out, "{}", game.utility(root));
            } else {
                out.push_str("non-terminal\n");
            }
        }
        Flag::MinimaxMove => chosen(minimax(&game, root)),
        Flag::AlphaBetaMove => chosen(alphabeta(&game, root)),
        Flag::MinimaxValue | Flag::AlphaBetaValue => {
            let o = if flag == Flag::MinimaxValue {
                minimax(&game, root)
            } else {
                alphabeta(&game, root)
            };
            let _ = writeln!(out, "{}\n{}", o.value, o.nodes);
        }
    }
    out
}
