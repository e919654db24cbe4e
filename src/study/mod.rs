//! The 4x4 Othello depth study (SPEC section D), on boards 4, 6 and 8:
//! evaluations ([`eval`]), the ordered, iterative-deepening, stoppable
//! engine search ([`engine`]), self-play for matches and depth tables
//! ([`selfplay`]) and Graphviz pictures of searched trees ([`tree`]).
//!
//! The study's game is [`crate::reversi::Reversi::DISC_DIFFERENCE`]: a pass
//! is a ply, a finished game scores its final disc difference (black minus
//! white), and a depth bound counts plies.

pub mod engine;
pub mod eval;
pub mod selfplay;
pub mod tree;
