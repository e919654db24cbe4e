//! The depth study, on boards 4, 6 and 8: matches of the computer against
//! itself, tables of final scores by depth, tournaments of one evaluation
//! against another ([`selfplay`]). Its searches are the counted ones of
//! [`crate::search`] and the ordered iterative-deepening
//! [`crate::engine::iterative::IterativeSearch`]; its evaluations are
//! [`crate::eval::Heuristic`]; its tree pictures [`crate::search::DotTree`].
//!
//! The study's game is [`crate::reversi::Reversi::DISC_DIFFERENCE`]: a pass
//! is a ply, a finished game scores its final disc difference (black minus
//! white), and a depth bound counts plies.

pub mod selfplay;
pub mod tournament;
