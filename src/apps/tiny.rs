//! The Reversi Tiny contract: `reversi FLAG PLAYER BOARD`.
//!
//! Given a FLAG (what to compute), the player to move (1 dark/MAX, 2
//! light/MIN) and a board as a digit string (`0` empty, `1` dark, `2` light,
//! in reading order; 16, 36 or 64 characters), [`respond`] returns exactly
//! the text the contract prints. The command line and the web server's
//! `/api/tiny` both answer through it, so they cannot drift apart.

use crate::board::{Board, Color};
use crate::game::{Game, Side, Value};
use crate::reversi::{Position, Reversi};
use crate::search::{alphabeta, minimax, SearchResult};
use std::cell::Cell;
use std::fmt::{self, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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
        self.answer_in(&Reversi::WIN_LOSS)
    }

    /// [`Request::answer`] within `budget`: the same text when the search
    /// ends within it, else why it was stopped (the partial search is
    /// thrown away).
    ///
    /// # Errors
    /// [`Stopped`] when the deadline passes, the node cap is reached or
    /// the cancel flag is set before the answer is complete.
    pub fn answer_within(&self, budget: &Budget<'_>) -> Result<String, Stopped> {
        let game = Budgeted {
            game: Reversi::WIN_LOSS,
            budget,
            nodes: Cell::new(0),
            stopped: Cell::new(None),
        };
        let text = self.answer_in(&game);
        match game.stopped.get() {
            Some(why) => Err(why),
            // The budget is looked at now and then; the cap is exact.
            None if game.nodes.get() > budget.max_nodes => {
                Err(Stopped::TooManyNodes(budget.max_nodes))
            }
            None => Ok(text),
        }
    }

    /// The contract's text, searching `game` (Reversi with win/loss
    /// utilities, or it within a budget).
    fn answer_in<G>(&self, game: &G) -> String
    where
        G: Game<State = Position, Move = crate::reversi::Move>,
    {
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
            Flag::MinimaxMove => chosen(minimax(game, root)),
            Flag::AlphaBetaMove => chosen(alphabeta(game, root)),
            Flag::MinimaxValue | Flag::AlphaBetaValue => {
                let result = if self.flag == Flag::MinimaxValue {
                    minimax(game, root)
                } else {
                    alphabeta(game, root)
                };
                let _ = writeln!(out, "{}\n{}", result.value, result.nodes);
            }
        }
        out
    }
}

/// The bounds of a search that may have to stop (the web server's
/// `/api/tiny`): a deadline, a node cap and a cancel flag.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// The search stops once this moment has passed.
    pub deadline: Instant,
    /// The search stops past about this many counted states.
    pub max_nodes: u64,
    /// The search stops when this is set (its client went away).
    pub cancel: &'a AtomicBool,
}

/// Why a search within a [`Budget`] did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The deadline passed.
    OutOfTime,
    /// The node cap was reached.
    TooManyNodes(u64),
    /// The cancel flag was set.
    Cancelled,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stopped::OutOfTime => f.write_str("the search ran out of its time"),
            Stopped::TooManyNodes(n) => write!(f, "the search reached its cap of {n} states"),
            Stopped::Cancelled => f.write_str("the search was cancelled"),
        }
    }
}

/// How many move generations pass between two looks at the clock and the
/// cancel flag.
const CHECK_EVERY: u64 = 1 << 12;

/// Reversi within a [`Budget`]: the same game, counting the states the
/// search enters (each asks for its moves once); once the budget is spent
/// every state has no moves, so the search unwinds at once and its result
/// is discarded. Until then it is the game itself, so the answer and the
/// count are the contract's.
struct Budgeted<'a> {
    game: Reversi,
    budget: &'a Budget<'a>,
    nodes: Cell<u64>,
    stopped: Cell<Option<Stopped>>,
}

impl Budgeted<'_> {
    /// Counts `n` states and checks the budget now and then.
    fn count(&self, n: u64) {
        let before = self.nodes.get();
        let after = before + n;
        self.nodes.set(after);
        if self.stopped.get().is_some() || before / CHECK_EVERY == after / CHECK_EVERY {
            return;
        }
        let why = if self.budget.cancel.load(Ordering::Relaxed) {
            Some(Stopped::Cancelled)
        } else if after > self.budget.max_nodes {
            Some(Stopped::TooManyNodes(self.budget.max_nodes))
        } else if Instant::now() >= self.budget.deadline {
            Some(Stopped::OutOfTime)
        } else {
            None
        };
        self.stopped.set(why);
    }
}

impl Game for Budgeted<'_> {
    type State = Position;
    type Move = crate::reversi::Move;
    type Moves = std::iter::Take<<Reversi as Game>::Moves>;

    fn side(&self, state: &Position) -> Side {
        self.game.side(state)
    }

    fn moves(&self, state: &Position) -> Self::Moves {
        self.count(1);
        let left = if self.stopped.get().is_some() {
            0
        } else {
            usize::MAX
        };
        self.game.moves(state).take(left)
    }

    fn play(&self, state: &Position, mv: Self::Move) -> Position {
        self.game.play(state, mv)
    }

    fn utility(&self, state: &Position) -> Value {
        self.game.utility(state)
    }

    fn is_terminal(&self, state: &Position) -> bool {
        self.game.is_terminal(state)
    }

    fn minimax_subtree(&self, state: &Position) -> Option<(Value, u64)> {
        if self.stopped.get().is_some() {
            return Some((0, 0));
        }
        let found = self.game.minimax_subtree(state);
        if let Some((_, nodes)) = found {
            self.count(nodes);
        }
        found
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn budget(cancel: &AtomicBool, max_nodes: u64, seconds: u64) -> Budget<'_> {
        Budget {
            deadline: Instant::now() + Duration::from_secs(seconds),
            max_nodes,
            cancel,
        }
    }

    #[test]
    fn within_its_budget_the_answer_is_the_contracts() {
        let cancel = AtomicBool::new(false);
        // The 4x4 start, a position where light must pass, a finished game.
        for (player, board) in [
            ("1", "0000021001200000"),
            ("2", "2221222122211011"),
            ("1", "2222222222222221"),
        ] {
            for flag in ["100", "200", "300", "400", "500", "600"] {
                let r = Request::parse(flag, player, board).unwrap();
                assert_eq!(
                    r.answer_within(&budget(&cancel, u64::MAX, 600)),
                    Ok(r.answer()),
                    "{flag} {player} {board}"
                );
            }
        }
    }

    #[test]
    fn a_spent_budget_stops_the_search() {
        let r = Request::parse("300", "1", "0000021001200000").unwrap();
        let cancel = AtomicBool::new(false);
        // 224,821 states: one fewer is too many, exactly that many is not.
        assert_eq!(
            r.answer_within(&budget(&cancel, 224_820, 600)),
            Err(Stopped::TooManyNodes(224_820))
        );
        assert_eq!(
            r.answer_within(&budget(&cancel, 224_821, 600)),
            Ok("-1\n224821\n".to_string())
        );
        assert_eq!(
            r.answer_within(&budget(&cancel, u64::MAX, 0)),
            Err(Stopped::OutOfTime)
        );
        cancel.store(true, Ordering::SeqCst);
        assert_eq!(
            r.answer_within(&budget(&cancel, u64::MAX, 600)),
            Err(Stopped::Cancelled)
        );
    }
}
