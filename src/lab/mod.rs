//! The lab: the tools that make what the product reads, kept apart from
//! what players and students use (the `reversi-lab` binary drives them;
//! docs/LAB.md is their manual).
//!
//! - [`train`]: the pattern evaluation's training data (self-play games
//!   solved exactly, labelled positions, imported games), the shards that
//!   split a stage between runs, and the fits of the Multi-ProbCut table
//!   and the endgame model.
//! - [`book`]: building the opening book (plans, sharded searches, merge).
//!
//! Reading a weights file or a book is the product's
//! ([`crate::eval::pattern`], [`crate::engine::book`]); this layer stands
//! above every other and no module below imports it (tests/cli/layers.rs).

pub mod book;
pub mod train;
