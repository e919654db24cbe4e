//! Applications built on the engine and the searches: the assignment
//! contracts' computations, the depth study, the protocols and the web
//! server (the product; the tools that make weights and books are in
//! [`crate::lab`]). Each computes and formats;
//! none prints or touches files (the command line does).
//!
//! - [`tiny`]: the Reversi Tiny contract (`reversi FLAG PLAYER BOARD`).
//! - [`traced_game`]: the 8x8 game contract with its moves file and
//!   traverse log.
//! - [`study`]: matches, depth tables and tournaments.
//! - [`nboard`], [`gtp`]: the NBoard and GTP engine protocols as
//!   line-in, lines-out sessions over the engine's
//!   [`crate::engine::analyze`].
//! - `serve` (feature `serve`, on by default): the local web server of
//!   `reversi serve`: play, the search explorer, the study pages and their API.

pub mod gtp;
pub mod nboard;
#[cfg(feature = "serve")]
pub mod serve;
pub mod study;
pub mod tiny;
pub mod traced_game;
