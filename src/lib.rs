//! Classic adversarial game-tree search: Reversi/Othello from 4x4 to 8x8 and
//! (n,k)-Ring Treblecross, searched by counted minimax and alpha-beta with
//! exact, reproducible node counts, and an Othello engine (perft, a midgame
//! search with a trained pattern evaluation and strength levels, an exact
//! endgame solver, an opening book).
//!
//! The modules form layers; each imports only from its own layer and the
//! layers listed before it (docs/ARCHITECTURE.md):
//!
//! 1. Board and rules: [`board`] (the bitboard of 4x4, 6x6 and 8x8),
//!    [`game`] (the [`game::Game`] trait every search is generic over),
//!    [`reversi`] (Reversi as a `Game`, and its no-pass variant),
//!    [`treblecross`] ((n,k)-Ring Treblecross as a `Game` and its exact
//!    solver), [`record`] (game records: transcripts, GGF, board strings,
//!    the game collections of WTHOR, PGN and Logistello, Edax's books),
//!    and the utilities [`rng`], [`units`] (typed values: scores,
//!    evaluations, discs), [`hash`] (the crate's fast hasher for
//!    memo and transposition tables) and [`lines`] (reading text a line
//!    at a time, capped).
//! 2. Evaluation: [`eval`] (disc difference, positional weights, the named
//!    heuristics, the pattern evaluation and its fit).
//! 3. Counted searches: [`search`] (minimax and alpha-beta with first-best
//!    tie-breaking, observers for traverse logs and tree pictures).
//! 4. Engine: [`engine`] (the engine API [`Analyzer`], side-to-move
//!    bitboards, perft, the iterative and midgame searches, the exact
//!    endgame solver, the opening book).
//! 5. Applications: [`apps`] (the contracts' computations, the depth study,
//!    the protocols, the web server of `reversi serve`).
//! 6. The lab: [`lab`] (the tools that make the pattern weights and the
//!    opening books: training data, fits, book building). It stands above
//!    the product: nothing below imports it, and the product reads what it
//!    makes through [`eval::pattern`] and [`engine::book`].
//! 7. The front ends' kit: `kit` (feature `cli`, on by default: what both
//!    command-line binaries share, the one `error:` line and exit status,
//!    argument parsing, capped input, output files written whole, the
//!    signals that stop a long command, the weights and book readers).
//!
//! The library never prints, except the kit, which only the binaries use:
//! `src/main.rs` (`reversi`, the product, its command line in `src/cli/`)
//! and `src/bin/` (`reversi-lab`, the lab's commands, and
//! `ring-treblecross`) parse, call and format.
//!
//! The main types are re-exported here, so that a program building on the
//! crate names them from its root: [`Board`], [`Color`], [`Square`],
//! [`Position`], [`Move`], the game [`Reversi`], the engine's [`Analyzer`]
//! with its [`Limits`], [`MoveSearch`] (ranking), [`MoveValue`],
//! [`Certainty`] and [`Choice`] (valued in a [`BlackValue`]), and the units
//! [`Score`], [`Eval`] and [`Discs`].
//!
//! The counted searches of the contracts, exact to the node:
//!
//! ```
//! use reversi::{search, Board, Color, Position, Reversi};
//! let p = Position { board: Board::from_digits("0000021001200000").unwrap(), to_move: Color::Black };
//! let result = search::alphabeta(&Reversi::WIN_LOSS, &p);
//! assert_eq!(result.value, -1); // light wins the 4x4 game with perfect play
//! assert_eq!(result.nodes, 7208);
//! ```
//!
//! The playing engine: every move of a position ranked, and one chosen.
//!
//! ```
//! use reversi::{Analyzer, Certainty, Limits, MoveSearch, Position};
//! use std::sync::atomic::AtomicBool;
//!
//! let start = Position::start(8);
//! let mut engine = Analyzer::new();
//! // Level 4 of the midgame search, no clock.
//! let limits = Limits { level: Some(4), time: None, ..Limits::default() };
//! let ranked = engine.rank_moves(&start, 60, &limits, &AtomicBool::new(false), &mut |_| {});
//! // The four opening moves are one move under the board's symmetries.
//! assert_eq!(ranked.len(), 4);
//! assert!(ranked.iter().all(|m| m.value == ranked[0].value));
//! assert!(matches!(ranked[0].certainty, Certainty::Estimate { .. }));
//!
//! let choice = engine.choose(&start, &limits, None).expect("the game is not over");
//! assert!(ranked.iter().any(|m| m.mv == choice.mv));
//! ```
//!
//! Near the end the same call proves values: with at most
//! [`Limits::exact_empties`] empty squares they are exact final scores.
//!
//! ```
//! use reversi::{reversi::random_position, rng::Rng, Analyzer, Certainty, Limits, MoveSearch};
//! use std::sync::atomic::AtomicBool;
//!
//! // A position after 50 random moves: about 10 empty squares.
//! let position = random_position(8, 50, &mut Rng::new(7));
//! assert!(position.board.empty().count_ones() <= Limits::default().exact_empties);
//! let limits = Limits { time: None, depth: Some(4), ..Limits::default() };
//! let stop = AtomicBool::new(false);
//! let ranked = Analyzer::new().rank_moves(&position, 60, &limits, &stop, &mut |_| {});
//! for m in &ranked {
//!     // Exact final scores in whole discs, within the board's 64.
//!     assert_eq!(m.certainty, Certainty::Exact);
//!     assert!(m.value.0.fract() == 0.0 && m.value.0.abs() <= 64.0);
//! }
//! ```

#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]

/// Declares an error type that carries its one-line message: a tuple
/// struct around the `String`, shown as the message itself, and a
/// `std::error::Error` (the crate's many "why this was refused" types).
/// Defined before the `mod` lines, so every module can use it.
macro_rules! message_error {
    ($(#[$meta:meta])* $vis:vis struct $name:ident($field:vis String);) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        $vis struct $name($field String);

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl ::std::error::Error for $name {}
    };
}

pub mod apps;
pub mod board;
pub mod engine;
pub mod eval;
pub mod files;
pub mod game;
pub mod hash;
#[cfg(feature = "cli")]
pub mod kit;
#[cfg(feature = "lab")]
pub mod lab;
pub mod lines;
pub mod record;
pub mod reversi;
pub mod rng;
pub mod search;
pub mod treblecross;
pub mod units;

pub use board::{Board, Color, Square};
pub use engine::analyze::{Analyzer, BlackValue, Certainty, Choice, Limits, MoveSearch, MoveValue};
pub use reversi::{Move, Position, Reversi};
pub use units::{Discs, Eval, Score};
