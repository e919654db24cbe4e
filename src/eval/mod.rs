//! Static evaluations of Reversi positions, for depth-limited search.
//!
//! - [`DiscDifference`] and [`PositionalWeights`]: the evaluations of the
//!   8x8 game contract; they look only at the discs, not at the side to
//!   move, and evaluate any game whose states are [`Position`]s (plain
//!   [`crate::reversi::Reversi`] as well as
//!   [`crate::reversi::no_pass::NoPassReversi`]).
//! - [`Heuristic`]: the evaluations chosen by name in the depth study and
//!   the engine (`disc`, `weights`, `strong`, `pattern`).
//! - [`pattern`]: the trained pattern evaluation of 8x8 positions, its
//!   weights file and its fitting.
//! - The typed values ([`Score`], [`Eval`], [`Discs`]) are
//!   [`crate::units`]'s, re-exported here.
//!
//! All score from black's (MAX's) point of view.

pub mod heuristic;
pub mod pattern;

pub use crate::units::{Discs, Eval, Score};
pub use heuristic::{Evaluation, Heuristic};

use crate::board::{bits::Bits, Board, Color};
use crate::game::{Evaluator, Game, Value};
use crate::reversi::Position;

/// Black's discs minus white's discs (the 8x8 contract's task 1 and 2).
///
/// ```
/// use reversi::{eval::DiscDifference, game::Evaluator, reversi::{Position, Reversi}};
/// let start = Position::start(8);
/// assert_eq!(DiscDifference.evaluate(&Reversi::default(), &start), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiscDifference;

impl<G: Game<State = Position>> Evaluator<G> for DiscDifference {
    #[inline]
    fn evaluate(&self, _game: &G, state: &Position) -> Value {
        state.board.disc_difference()
    }
}

/// A weight per square: the sum of the weights under black's discs minus
/// the sum under white's (the 8x8 contract's task 3).
///
/// Weights are indexed like [`crate::board::Square`] (`row * 8 + col`, a1
/// first); on boards smaller than 8x8 only the top-left corner is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionalWeights {
    /// The weight of each square, in reading order.
    pub weights: [Value; 64],
}

impl PositionalWeights {
    /// The table of the 2013 USC assignment (section 3.4): corners 99,
    /// the squares next to them negative, the centre 0.
    pub const CLASSIC_8X8: PositionalWeights = PositionalWeights {
        #[rustfmt::skip]
        weights: [
            99, -8, 8, 6, 6, 8, -8, 99,
            -8, -24, -4, -3, -3, -4, -24, -8,
            8, -4, 7, 4, 4, 7, -4, 8,
            6, -3, 4, 0, 0, 4, -3, 6,
            6, -3, 4, 0, 0, 4, -3, 6,
            8, -4, 7, 4, 4, 7, -4, 8,
            -8, -24, -4, -3, -3, -4, -24, -8,
            99, -8, 8, 6, 6, 8, -8, 99,
        ],
    };

    /// A table for 6x6 (top-left corner of the word): corners high, the
    /// squares next to corners low, edges mildly good.
    pub const SIX: PositionalWeights = PositionalWeights {
        #[rustfmt::skip]
        weights: [
            50, -8, 6, 6, -8, 50, 0, 0,
            -8, -20, -3, -3, -20, -8, 0, 0,
            6, -3, 1, 1, -3, 6, 0, 0,
            6, -3, 1, 1, -3, 6, 0, 0,
            -8, -20, -3, -3, -20, -8, 0, 0,
            50, -8, 6, 6, -8, 50, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
        ],
    };

    /// A table for 4x4: every square off the centre is an edge square, and
    /// corners can never be flipped.
    pub const FOUR: PositionalWeights = PositionalWeights {
        #[rustfmt::skip]
        weights: [
            20, -4, -4, 20, 0, 0, 0, 0,
            -4, 1, 1, -4, 0, 0, 0, 0,
            -4, 1, 1, -4, 0, 0, 0, 0,
            20, -4, -4, 20, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0,
        ],
    };

    /// The table for a board of `size`: [`Self::FOUR`], [`Self::SIX`], or
    /// the 8x8 contract's [`Self::CLASSIC_8X8`].
    #[must_use]
    pub const fn for_size(size: u8) -> &'static PositionalWeights {
        match size {
            4 => &Self::FOUR,
            6 => &Self::SIX,
            _ => &Self::CLASSIC_8X8,
        }
    }

    /// The weighted sum for `board`, from black's point of view.
    #[must_use]
    pub fn score(&self, board: &Board) -> Value {
        let sum = |color| -> Value {
            Bits(board.discs(color))
                .map(|sq| self.weights[usize::from(sq)])
                .sum()
        };
        sum(Color::Black) - sum(Color::White)
    }
}

impl Default for PositionalWeights {
    fn default() -> PositionalWeights {
        PositionalWeights::CLASSIC_8X8
    }
}

impl<G: Game<State = Position>> Evaluator<G> for PositionalWeights {
    #[inline]
    fn evaluate(&self, _game: &G, state: &Position) -> Value {
        self.score(&state.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::Reversi;

    #[test]
    fn weights_are_symmetric() {
        for n in [4, 6, 8] {
            let w = &PositionalWeights::for_size(n).weights;
            let n = usize::from(n);
            for r in 0..8 {
                for c in 0..8 {
                    if r >= n || c >= n {
                        assert_eq!(w[r * 8 + c], 0, "off-board weight");
                        continue;
                    }
                    assert_eq!(w[r * 8 + c], w[c * 8 + r]);
                    assert_eq!(w[r * 8 + c], w[(n - 1 - r) * 8 + c]);
                    assert_eq!(w[r * 8 + c], w[r * 8 + n - 1 - c]);
                }
            }
        }
    }

    #[test]
    fn start_position_is_even() {
        let p = Position::start(8);
        assert_eq!(
            PositionalWeights::CLASSIC_8X8.evaluate(&Reversi::default(), &p),
            0
        );
        assert_eq!(DiscDifference.evaluate(&Reversi::default(), &p), 0);
    }

    #[test]
    fn corner_against_x_square() {
        // Black on a1 (99), white on b2 (-24): 99 - (-24) = 123.
        let mut text = vec!['*'; 64];
        text[0] = 'X';
        text[9] = 'O';
        let board = Board::parse_with(&text.iter().collect::<String>(), ['*', 'X', 'O']).unwrap();
        assert_eq!(PositionalWeights::CLASSIC_8X8.score(&board), 123);
        assert_eq!(board.disc_difference(), 0);
    }
}
