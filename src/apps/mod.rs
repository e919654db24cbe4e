//! Applications built on the engine and the searches: the assignment
//! contracts' computations and the depth study. Each computes and formats;
//! none prints or touches files (the command line does).
//!
//! - [`tiny`]: the Reversi Tiny contract (`reversi FLAG PLAYER BOARD`).
//! - [`traced_game`]: the 8x8 game contract with its moves file and
//!   traverse log.
//! - [`study`]: matches, depth tables and tournaments.
//! - [`train`]: training data for the pattern evaluation.

pub mod study;
pub mod tiny;
pub mod traced_game;
pub mod train;
