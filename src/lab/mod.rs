//! The lab: the tools that make what the product reads, kept apart from
//! what players and students use (the `reversi-lab` binary drives them;
//! docs/LAB.md is their manual).
//!
//! - [`shard`]: splitting a long stage between runs ([`shard::Shard`]),
//!   working through its items in order on several threads, and the
//!   rules of the files the runs write, continue and merge.
//! - [`train`]: the pattern evaluation's training data (self-play games
//!   solved exactly, labelled positions, imported games) and the fits of
//!   the Multi-ProbCut table and the endgame model.
//! - [`book`]: building the opening book (plans, sharded searches and
//!   their files, merge, the deepening's rounds).
//!
//! Reading a weights file or a book is the product's
//! ([`crate::eval::pattern`], [`crate::engine::book`]); this layer stands
//! above every other and no module below imports it (tests/cli/layers.rs).

pub mod book;
pub mod shard;
pub mod train;
