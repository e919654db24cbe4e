//! Classic adversarial game-tree search.
//!
//! - [`game`]: the [`game::Game`] trait that every search is generic over,
//!   and the [`game::Evaluator`] trait for depth-limited search.
//! - [`board`]: the Reversi/Othello bitboard for 4x4, 6x6 and 8x8.
//! - [`reversi`]: Reversi as a `Game` (pass is a successor).
//! - [`search`]: counted minimax and alpha-beta with first-best tie-breaking
//!   and an observer hook.
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

pub mod board;
pub mod engine;
pub mod game;
pub mod reversi;
pub mod search;
