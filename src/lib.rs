//! Classic adversarial game-tree search: Reversi/Othello from 4x4 to 8x8 and
//! (n,k)-Ring Treblecross, searched by counted minimax and alpha-beta with
//! exact, reproducible node counts, and an Othello engine (perft, an ordered
//! iterative-deepening search, an exact endgame solver).
//!
//! The modules form layers; each imports only from its own layer and the
//! layers listed before it (docs/ARCHITECTURE.md):
//!
//! 1. Board and rules: [`board`] (the bitboard of 4x4, 6x6 and 8x8),
//!    [`game`] (the [`game::Game`] trait every search is generic over),
//!    [`reversi`] (Reversi as a `Game`, and its no-pass variant),
//!    [`treblecross`] ((n,k)-Ring Treblecross as a `Game` and its exact
//!    solver), [`record`] (game records: transcripts, GGF, board strings),
//!    and the utilities [`rng`], [`units`] (typed values: scores,
//!    evaluations, discs), [`hash`] (the crate's fast hasher for
//!    memo and transposition tables) and [`lines`] (reading text a line
//!    at a time, capped).
//! 2. Evaluation: [`eval`] (disc difference, positional weights, the named
//!    heuristics).
//! 3. Counted searches: [`search`] (minimax and alpha-beta with first-best
//!    tie-breaking, observers for traverse logs and tree pictures).
//! 4. Engine: [`engine`] (side-to-move bitboards, perft, the iterative
//!    search, the exact endgame solver).
//! 5. Applications: [`apps`] (the contracts' computations, the depth study,
//!    the web server of `reversi serve`).
//!
//! The library never prints; the binaries in `src/main.rs` and `src/bin/`
//! parse, call and format.
//!
//! ```
//! use reversi::{board::Board, board::Color, reversi::{Position, Reversi}, search};
//! let p = Position { board: Board::from_digits("0000021001200000").unwrap(), to_move: Color::Black };
//! let result = search::alphabeta(&Reversi::WIN_LOSS, &p);
//! assert_eq!(result.value, -1); // light wins the 4x4 game with perfect play
//! assert_eq!(result.nodes, 7208);
//! ```

#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

pub mod apps;
pub mod board;
pub mod engine;
pub mod eval;
pub mod game;
pub mod hash;
pub mod lines;
pub mod record;
pub mod reversi;
pub mod rng;
pub mod search;
pub mod treblecross;
pub mod units;
