//! The engine for 4x4, 6x6 and 8x8: the API every front end calls
//! ([`analyze::Analyzer`]), the midgame and iterative searches, the exact
//! endgame solver, perft and the opening book.
//!
//! Positions are side-to-move relative ([`RelativePosition`]: the mover's discs, the
//! opponent's discs and the mask of valid squares); a move is a copy with
//! three bit operations and a pass swaps the two words.
//!
//! - [`analyze`]: the engine as the front ends call it ([`analyze::Analyzer`]):
//!   ranking and choosing moves within [`analyze::Limits`] on any board,
//!   with the engine's level and book rules.
//! - [`book`]: the opening book (positions keyed under the 8 symmetries,
//!   negamax over the book, its file and text forms).
//! - [`position`]: the relative position, OBF parsing, conversions.
//! - [`iterative`]: the ordered, iterative-deepening, stoppable search of
//!   [`crate::reversi::Position`]s with a time budget (the depth study's
//!   search, and the engine's without a level or off 8x8).
//! - [`midgame`]: the levels' principal-variation search on 8x8 with the
//!   pattern evaluation (its estimates held within the board's 64 discs),
//!   a time budget and a stop flag, solving exactly near the end.
//! - [`probcut`]: the Multi-ProbCut parameters of the midgame search.
//! - [`mod@perft`]: leaf counting with the published conventions.
//! - [`solve`]: the exact endgame solver ([`EndgameSolver`]), negamax
//!   alpha-beta with a transposition table, split by search phase, with
//!   selective (Multi-ProbCut) passes before the exact one, threads
//!   (young brothers wait) and a deadline.

pub mod analyze;
pub mod book;
pub mod iterative;
pub mod midgame;
pub mod perft;
pub mod position;
pub mod probcut;
mod score;
pub mod solve;
mod tt;

pub use perft::{perft, perft_divide};
pub use position::{
    parse_obf, parse_obf_file, ObfError, ObfErrorKind, ObfPosition, RelativePosition,
};
pub use solve::{
    default_table_bits, EndgameSolver, ProofStep, RootProgress, Scoring, Solution, SolveEvent,
    SolveOptions, SolveReport, WindowKind, REACH_EMPTIES,
};

#[cfg(test)]
mod tests;
