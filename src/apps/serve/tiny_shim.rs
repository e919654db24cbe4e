//! TEMPORARY stand-in for `crate::apps::tiny::respond` (the lead's shared
//! answer of the Tiny contract, used by the CLI too); removed when that
//! lands on main. Same signature; the text mirrors `src/cli/tiny.rs`.

use crate::board::{Board, Color};
use crate::game::Game;
use crate::reversi::{Position, Reversi};
use crate::search::{alphabeta, minimax, Outcome};
use std::fmt::{self, Write as _};

/// A bad argument of the contract; Display is the error line without `error: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TinyError(String);

impl fmt::Display for TinyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TinyError {}

/// Exactly what `reversi FLAG PLAYER BOARD` prints on stdout.
///
/// # Errors
/// [`TinyError`] for a bad flag, player or board.
pub fn respond(flag: &str, player: &str, board: &str) -> Result<String, TinyError> {
    if !["100", "200", "300", "400", "500", "600"].contains(&flag) {
        return Err(TinyError(format!(
            "FLAG {flag:?} is not one of 100, 200, 300, 400, 500, 600"
        )));
    }
    let to_move = match player {
        "1" => Color::Black,
        "2" => Color::White,
        _ => {
            return Err(TinyError(format!(
                "PLAYER {player:?} is not 1 (dark) or 2 (light)"
            )))
        }
    };
    let board = Board::from_digits(board)
        .map_err(|e| TinyError(format!("BOARD {board:?} {e}; use the digits 0, 1, 2")))?;
    let root = Position { board, to_move };
    let game = Reversi::WIN_LOSS;
    let mut out = String::new();
    let chosen = |o: Outcome<_>, out: &mut String| {
        if let Some(mv) = o.best {
            out.push_str(&game.play(&root, mv).board.to_digits());
            out.push('\n');
        }
    };
    match flag {
        "100" => {
            for (_, s) in game.successors(&root) {
                out.push_str(&s.board.to_digits());
                out.push('\n');
            }
        }
        "200" => {
            if game.is_terminal(&root) {
                let _ = writeln!(out, "{}", game.utility(&root));
            } else {
                out.push_str("non-terminal\n");
            }
        }
        "400" => chosen(minimax(&game, &root), &mut out),
        "600" => chosen(alphabeta(&game, &root), &mut out),
        _ => {
            let o = if flag == "300" {
                minimax(&game, &root)
            } else {
                alphabeta(&game, &root)
            };
            let _ = writeln!(out, "{}\n{}", o.value, o.nodes);
        }
    }
    Ok(out)
}
