//! The explorer's game: Reversi in natural or best-first order, which stops
//! a search early when told to, and its search settings and caps.

use crate::board::Color;
use crate::eval::Heuristic;
use crate::game::{Evaluator, Game, Side, Value};
use crate::reversi::{Move, Position, Reversi};
use crate::search::Algorithm;
use std::cell::Cell;
use std::fmt;
use std::time::Instant;

/// The order in which the explorer's search tries the moves of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// The game's canonical order (reading order of the squares), as the
    /// Tiny contract searches.
    Natural,
    /// Best first for the side to move: corners first, then the moves that
    /// leave the opponent the fewest replies, then by the strong evaluation
    /// of the resulting position; ties in reading order.
    Best,
}

impl MoveOrder {
    /// `natural` or `best`.
    #[must_use]
    pub fn by_name(name: &str) -> Option<MoveOrder> {
        match name {
            "natural" => Some(MoveOrder::Natural),
            "best" => Some(MoveOrder::Best),
            _ => None,
        }
    }

    /// The name that [`MoveOrder::by_name`] accepts.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MoveOrder::Natural => "natural",
            MoveOrder::Best => "best",
        }
    }
}

/// What to search: the position, the algorithm, the order and the bound.
#[derive(Clone, Copy, Debug)]
pub struct SearchSpec {
    /// The root position.
    pub root: Position,
    /// Minimax or alpha-beta.
    pub algorithm: Algorithm,
    /// Natural or best-first move order.
    pub order: MoveOrder,
    /// `None`: to the end of the game, scored as the Tiny contract scores
    /// (win 1, loss -1, tie 0). `Some(d)`: `d` plies, finished games scored
    /// by their disc difference and the rest by `eval` (as `reversi tree
    /// --depth` does).
    pub depth: Option<u32>,
    /// The evaluation at the depth bound.
    pub eval: Heuristic,
}

/// The bounds every explorer search runs within.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// The most counted states one tree may hold.
    pub max_nodes: u64,
    /// The latest moment the search may still run.
    pub deadline: Instant,
}

/// Why a search gave no tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The tree grew past the node cap.
    TooManyNodes(u64),
    /// The deadline passed.
    OutOfTime,
    /// The caller asked it to stop (its client went away, or the server is
    /// shutting down).
    Cancelled,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stopped::TooManyNodes(cap) => write!(
                f,
                "the tree has more than {cap} nodes, the server's cap; choose a depth bound or a later position"
            ),
            Stopped::OutOfTime => f.write_str("the search ran out of the server's time cap"),
            Stopped::Cancelled => f.write_str("the search was cancelled"),
        }
    }
}

impl std::error::Error for Stopped {}

/// Reversi as the explorer searches it: the rules of [`Reversi`] with a
/// chosen move order, and a stop switch that turns every further node into
/// a leaf so that a cancelled search unwinds at once.
#[derive(Debug)]
pub struct ExplorerGame<'a> {
    rules: Reversi,
    order: MoveOrder,
    stop: &'a Cell<bool>,
    /// A finished game is worth its standard final score (the empty
    /// squares to the winner), as the play page counts it, not `rules`'
    /// utility: a depth-bounded search's (a wipeout 3-0 was worth 3 here,
    /// +64 on the play page).
    standard: bool,
}

impl<'a> ExplorerGame<'a> {
    /// The game with `rules`, searched in `order`, stopped when `stop` is set.
    #[must_use]
    pub fn new(rules: Reversi, order: MoveOrder, stop: &'a Cell<bool>) -> Self {
        ExplorerGame {
            rules,
            order,
            stop,
            standard: false,
        }
    }

    /// The same game scoring a finished game by the standard rule (black
    /// minus white, the empty squares to the winner).
    #[must_use]
    pub fn with_standard_scores(self, standard: bool) -> Self {
        ExplorerGame { standard, ..self }
    }

    /// The moves of `p` in this game's order (ignores the stop switch).
    #[must_use]
    pub fn ordered_moves(&self, p: &Position) -> Vec<Move> {
        let mut moves: Vec<Move> = self.rules.moves(p).collect();
        if self.order == MoveOrder::Best && moves.len() > 1 {
            let mut keyed: Vec<((i64, i64, i64), Move)> = moves
                .iter()
                .map(|&m| (best_first_key(&self.rules, p, m), m))
                .collect();
            // A stable sort keeps reading order among equal keys.
            keyed.sort_by_key(|k| k.0);
            moves = keyed.into_iter().map(|(_, m)| m).collect();
        }
        moves
    }
}

/// The best-first key of `mv` in `p` (smaller first): corners, then fewest
/// replies for the opponent, then the mover's strong evaluation.
fn best_first_key(rules: &Reversi, p: &Position, mv: Move) -> (i64, i64, i64) {
    let child = rules.play(p, mv);
    let corner = match mv {
        Move::Place(sq) => {
            let last = p.board.size() - 1;
            let edge = |x: u8| x == 0 || x == last;
            i64::from(!(edge(sq.row()) && edge(sq.col())))
        }
        Move::Pass => 1,
    };
    let replies = i64::from(child.board.moves(child.to_move).count_ones());
    let eval = i64::from(Heuristic::Strong.value(&child));
    let mover_gain = match p.to_move {
        Color::Black => eval,
        Color::White => -eval,
    };
    (corner, replies, -mover_gain)
}

impl Game for ExplorerGame<'_> {
    type State = Position;
    type Move = Move;
    type Moves = std::vec::IntoIter<Move>;

    fn side(&self, p: &Position) -> Side {
        self.rules.side(p)
    }

    fn moves(&self, p: &Position) -> Self::Moves {
        if self.stop.get() {
            return Vec::new().into_iter();
        }
        self.ordered_moves(p).into_iter()
    }

    fn play(&self, p: &Position, mv: Move) -> Position {
        self.rules.play(p, mv)
    }

    fn utility(&self, p: &Position) -> Value {
        if self.standard {
            crate::record::standard_score(&p.board)
        } else {
            self.rules.utility(p)
        }
    }
}

/// The study's evaluation at the explorer's depth bound.
#[derive(Clone, Copy, Debug)]
pub(super) struct BoundEval(pub(super) Heuristic);

impl Evaluator<ExplorerGame<'_>> for BoundEval {
    fn evaluate(&self, _game: &ExplorerGame<'_>, p: &Position) -> Value {
        self.0.value(p)
    }
}
