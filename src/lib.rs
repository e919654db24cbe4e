//! Classic adversarial game-tree search.
//!
//! - [`game`]: the [`game::Game`] trait that every search is generic over,
//!   and the [`game::Evaluator`] trait for depth-limited search.
//! - [`board`]: the Reversi/Othello bitboard for 4x4, 6x6 and 8x8.
//! - [`reversi`]: Reversi as a `Game` (pass is a successor).
//! - [`rng`]: a small deterministic random generator for playouts.
//! - [`treblecross`]: (n,k)-Ring Treblecross as a `Game`, and its fast exact solver.
//! - [`search`]: counted minimax and alpha-beta with first-best tie-breaking
//!   and an observer hook.
//! - [`eval`]: static evaluations of Reversi positions (disc difference,
//!   positional weights).
//! - [`apps`]: applications, such as the local web server of `reversi serve`.
//! - [`usc`]: the 8x8 contract of the 2013 USC assignment: Reversi without
//!   pass nodes, the game loop, the moves file and the traverse log.
//!
//! The library never prints; the binaries in `src/main.rs` and `src/bin/`
//! parse, call and format.
//!
//! ```
//! use reversi::{board::Board, board::Color, reversi::{Position, Reversi}, search};
//! let p = Position { board: Board::from_digits("0000021001200000").unwrap(), to_move: Color::Black };
//! let out = search::alphabeta(&Reversi::WIN_LOSS, &p);
//! assert_eq!(out.value, -1); // light wins the 4x4 game with perfect play
//! ```

pub mod apps;
pub mod board;
pub mod engine;
pub mod eval;
pub mod game;
pub mod reversi;
pub mod rng;
pub mod search;
pub mod study;
pub mod treblecross;
pub mod usc;
