//! The Reversi Tiny contract: `reversi FLAG PLAYER BOARD`.
//!
//! Given a FLAG (what to compute), the player to move (1 dark/MAX, 2
//! light/MIN) and a board as a digit string (`0` empty, `1` dark, `2` light,
//! in reading order; 16, 36 or 64 characters), [`respond`] returns exactly
//! the text the contract prints. The command line and the web server's
//! `/api/tiny` both answer through it, so they cannot drift apart.

use crate::board::{Board, Color};
use crate::game::Game;
use crate::reversi::{Position, Reversi};
use crate::search::{alphabeta, minimax, SearchResult};
use std::fmt::{self, Write as _};

/// What the contract's FLAG asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// 100: every successor board, in reading order of the placed disc.
    Successors,
    /// 200: `non-terminal`, or the value of a finished game.
    Terminal,
    /// 300: the minimax value and the number of states explored.
    MinimaxValue,
    /// 400: the successor minimax chooses (first best in reading order).
    MinimaxMove,
    /// 500: as 300, with alpha-beta pruning.
    AlphaBetaValue,
    /// 600: as 400, with alpha-beta pruning.
    AlphaBetaMove,
}

impl Flag {
    /// The flag with the contract's number (`"100"` ... `"600"`).
    pub fn parse(text: &str) -> Result<Flag, TinyError> {
        Ok(match text {
            "100" => Flag::Successors,
            "200" => Flag::Terminal,
            "300" => Flag::MinimaxValue,
            "400" => Flag::MinimaxMove,
            "500" => Flag::AlphaBetaValue,
            "600" => Flag::AlphaBetaMove,
            _ => return Err(TinyError::Flag(text.to_owned())),
        })
    }

    /// Whether the flag runs an exhaustive minimax (300, 400) or alpha-beta
    /// (500, 600) search; `None` for 100 and 200.
    fn search(self) -> Option<Algorithm> {
        match self {
            Flag::MinimaxValue | Flag::MinimaxMove => Some(Algorithm::Minimax),
            Flag::AlphaBetaValue | Flag::AlphaBetaMove => Some(Algorithm::AlphaBeta),
            Flag::Successors | Flag::Terminal => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Algorithm {
    Minimax,
    AlphaBeta,
}

/// A bad argument of the contract; its text is the one-line message the
/// command line prints after `error: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TinyError {
    /// FLAG is not one of 100-600.
    Flag(String),
    /// PLAYER is not 1 or 2.
    Player(String),
    /// BOARD is not a digit string of a 4x4, 6x6 or 8x8 board.
    Board {
        /// The text given.
        text: String,
        /// Why it is not a board.
        reason: String,
    },
}

impl fmt::Display for TinyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TinyError::Flag(s) => {
                write!(f, "FLAG {s:?} is not one of 100, 200, 300, 400, 500, 600")
            }
            TinyError::Player(s) => write!(f, "PLAYER {s:?} is not 1 (dark) or 2 (light)"),
            TinyError::Board { text, reason } => {
                write!(f, "BOARD {text:?} {reason}; use the digits 0, 1, 2")
            }
        }
    }
}

impl std::error::Error for TinyError {}

/// A parsed request of the contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// What to compute.
    pub flag: Flag,
    /// The board and the player to move.
    pub position: Position,
}

impl Request {
    /// Parses the contract's three arguments.
    pub fn parse(flag: &str, player: &str, board: &str) -> Result<Request, TinyError> {
        let flag = Flag::parse(flag)?;
        let to_move = match player {
            "1" => Color::Black,
            "2" => Color::White,
            _ => return Err(TinyError::Player(player.to_owned())),
        };
        let board = Board::from_digits(board).map_err(|e| TinyError::Board {
            text: board.to_owned(),
            reason: e.to_string(),
        })?;
        Ok(Request {
            flag,
            position: Position { board, to_move },
        })
    }

    /// A warning worth showing before an exhaustive search that may not
    /// finish in reasonable time (too many empty squares), else `None`.
    /// A finished game never warrants one.
    #[must_use]
    pub fn slow_search_warning(&self) -> Option<String> {
        let limit = match self.flag.search()? {
            Algorithm::Minimax => MINIMAX_EMPTIES,
            Algorithm::AlphaBeta => ALPHABETA_EMPTIES,
        };
        let empties = self.position.board.empty().count_ones();
        if empties <= limit || Reversi::WIN_LOSS.is_terminal(&self.position) {
            return None;
        }
        Some(format!(
            "an exhaustive search over {empties} empty squares may take very long \
             (FLAG 300/400 are quick up to about {MINIMAX_EMPTIES}, 500/600 up to about {ALPHABETA_EMPTIES})"
        ))
    }

    /// The exact text the contract prints for this request.
    #[must_use]
    pub fn answer(&self) -> String {
        let game = Reversi::WIN_LOSS;
        let root = &self.position;
        let mut out = String::new();
        let mut chosen = |result: SearchResult<_>| {
            if let Some(mv) = result.best {
                out.push_str(&game.play(root, mv).board.to_digits());
                out.push('\n');
            }
        };
        match self.flag {
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
                let result = if self.flag == Flag::MinimaxValue {
                    minimax(&game, root)
                } else {
                    alphabeta(&game, root)
                };
                let _ = writeln!(out, "{}\n{}", result.value, result.nodes);
            }
        }
        out
    }
}

/// Exhaustive search grows about tenfold per empty square (less with
/// alpha-beta); past these counts an answer takes minutes to forever.
const MINIMAX_EMPTIES: u32 = 14;
const ALPHABETA_EMPTIES: u32 = 22;

/// The contract in one call: the text `reversi FLAG PLAYER BOARD` prints.
///
/// ```
/// use reversi::apps::tiny::respond;
/// assert_eq!(respond("500", "1", "0000021001200000").unwrap(), "-1\n7208\n");
/// assert_eq!(respond("200", "1", "2222222222222221").unwrap(), "-1\n");
/// assert!(respond("300", "3", "0000021001200000").is_err());
/// ```
pub fn respond(flag: &str, player: &str, board: &str) -> Result<String, TinyError> {
    Ok(Request::parse(flag, player, board)?.answer())
}
