//! Reversi without pass nodes: the game tree of the 8x8 contract
//! ([`crate::apps::traced_game`]), where a player without a legal placement
//! is a leaf rather than a pass.

use crate::board::{bits::Bits, Square};
use crate::game::{Evaluator, Game, Side, Value};
use crate::reversi::{Position, Reversi};

/// Reversi without pass moves: the moves of a position are its legal
/// placements only, and a position without any is a leaf whose value is
/// `eval` (so is every position at the depth limit).
///
/// With [`Limit::depth`](crate::search::Limit::depth) and
/// [`UtilityEval`](crate::game::UtilityEval) the generic
/// [`crate::search::minimax_with`] and [`crate::search::alphabeta_with`]
/// then search exactly the assignment's tree.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPassReversi<E> {
    /// The evaluation of every leaf.
    pub eval: E,
}

/// The placements of a position, in reading order (a1, b1, ..., h8).
#[derive(Clone, Copy, Debug)]
pub struct Placements(Bits);

impl Iterator for Placements {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.0.next().map(Square)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<E: Evaluator<Reversi>> Game for NoPassReversi<E> {
    type State = Position;
    type Move = Square;
    type Moves = Placements;

    #[inline]
    fn side(&self, p: &Position) -> Side {
        p.side()
    }

    #[inline]
    fn moves(&self, p: &Position) -> Placements {
        Placements(Bits(p.board.moves(p.to_move)))
    }

    #[inline]
    fn play(&self, p: &Position, sq: Square) -> Position {
        Position {
            board: p.board.play_unchecked(p.to_move, sq),
            to_move: p.to_move.other(),
        }
    }

    /// The evaluation: a leaf of this game is only "terminal" for the search.
    #[inline]
    fn utility(&self, p: &Position) -> Value {
        self.eval.evaluate(&Reversi::default(), p)
    }
}
