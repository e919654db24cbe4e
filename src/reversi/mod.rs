//! Reversi as a [`Game`]: black (player 1) is MAX, white (player 2) is MIN.
//!
//! Successors are ordered by the square of the placed disc in reading order.
//! A player with no legal move whose opponent can move has exactly one
//! successor, the pass (same board, other player to move); a position where
//! neither can move is terminal.

mod few_empties;
pub mod no_pass;

use crate::board::{bits::Bits, Board, Color, ParseSquareError, Square};
use crate::game::{Game, Side, Value};
use crate::rng::Rng;
use std::fmt;
use std::str::FromStr;

/// A board with the colour to move: one state of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The discs.
    pub board: Board,
    /// The colour to move.
    pub to_move: Color,
}

impl Position {
    /// The searching side of the colour to move: black is MAX, white MIN.
    #[inline]
    #[must_use]
    pub const fn side(&self) -> Side {
        match self.to_move {
            Color::Black => Side::Max,
            Color::White => Side::Min,
        }
    }

    /// The start position of a board of `size` with black to move.
    #[must_use]
    pub fn start(size: u8) -> Position {
        Position {
            board: Board::start(size),
            to_move: Color::Black,
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} to move{:?}", self.to_move, self.board)
    }
}

/// A Reversi move: a disc on a square, or a forced pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a disc on the square.
    Place(Square),
    /// No legal placement: the turn passes.
    Pass,
}

impl fmt::Display for Move {
    /// `c4`-style square names, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseSquareError;

    /// Parses a square name (`c4`, either case) or a pass (`pass` or
    /// NBoard's and GGF's `pa`, either case). Whether the square is on the
    /// board and the move legal is the caller's to check.
    fn from_str(s: &str) -> Result<Move, ParseSquareError> {
        if s.eq_ignore_ascii_case("pass") || s.eq_ignore_ascii_case("pa") {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Place)
        }
    }
}

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Utility {
    /// 1 if black has more discs, -1 if white has, 0 on a tie (the Tiny contract).
    #[default]
    WinLoss,
    /// Black's discs minus white's discs (the depth study).
    DiscDifference,
}

/// The rules of Reversi on any board size, with the chosen terminal scoring.
///
/// ```
/// use reversi::game::Game;
/// use reversi::reversi::{Move, Position, Reversi};
/// let game = Reversi::WIN_LOSS;
/// let start = Position::start(4);
/// let moves: Vec<String> = game.moves(&start).map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["b1", "a2", "d3", "c4"]); // reading order
/// let next = game.play(&start, game.moves(&start).next().unwrap());
/// assert!(!game.is_terminal(&next));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Reversi {
    /// The scoring of finished games.
    pub utility: Utility,
}

/// The moves of a position in reading order (or the single pass).
#[derive(Clone, Debug)]
pub struct Moves {
    squares: Bits,
    pass: bool,
}

impl Iterator for Moves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.pass {
            self.pass = false;
            return Some(Move::Pass);
        }
        self.squares.next().map(|sq| Move::Place(Square(sq)))
    }
}

impl Reversi {
    /// Reversi scored as the Tiny contract scores it (win 1, loss -1, tie 0).
    pub const WIN_LOSS: Reversi = Reversi {
        utility: Utility::WinLoss,
    };
    /// Reversi scored by the final disc difference.
    pub const DISC_DIFFERENCE: Reversi = Reversi {
        utility: Utility::DiscDifference,
    };
}

impl Game for Reversi {
    type State = Position;
    type Move = Move;
    type Moves = Moves;

    #[inline]
    fn side(&self, p: &Position) -> Side {
        p.side()
    }

    #[inline]
    fn moves(&self, p: &Position) -> Moves {
        let own = p.board.moves(p.to_move);
        let pass = own == 0 && p.board.moves(p.to_move.other()) != 0;
        Moves {
            squares: Bits(own),
            pass,
        }
    }

    #[inline]
    fn play(&self, p: &Position, mv: Move) -> Position {
        let board = match mv {
            Move::Place(sq) => p.board.play_unchecked(p.to_move, sq),
            Move::Pass => p.board,
        };
        Position {
            board,
            to_move: p.to_move.other(),
        }
    }

    fn utility(&self, p: &Position) -> Value {
        self.utility.score(p.board.disc_difference())
    }

    /// Positions with at most 4 empty squares (`few_empties::MAX_EMPTIES`)
    /// are solved by a tight negamax on the two bitboards (the private
    /// module `few_empties`), counting the states minimax would visit.
    fn minimax_subtree(&self, p: &Position) -> Option<(Value, u64)> {
        few_empties::minimax_count(p, self.utility)
    }
}

impl Utility {
    /// The utility of a finished game with disc difference `d` (from either
    /// player's point of view: both scorings are odd functions).
    #[inline]
    fn score(self, d: i32) -> Value {
        match self {
            Utility::WinLoss => d.signum(),
            Utility::DiscDifference => d,
        }
    }
}

/// A position reached by `plies` random moves from the start of a board of
/// `size` (a forced pass counts as a move), or the finished game if it ends
/// sooner. The same `rng` state gives the same position on every platform:
/// tests and benchmarks sample positions with it.
#[must_use]
pub fn random_position(size: u8, plies: usize, rng: &mut Rng) -> Position {
    let game = Reversi::WIN_LOSS;
    let mut p = Position::start(size);
    for _ in 0..plies {
        let moves: Vec<Move> = game.moves(&p).collect();
        if moves.is_empty() {
            break;
        }
        p = game.play(&p, *rng.pick(&moves));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_names_parse_and_print() {
        assert_eq!("c4".parse::<Move>(), Ok(Move::Place(Square(26))));
        assert_eq!("C4".parse::<Move>(), Ok(Move::Place(Square(26))));
        for pass in ["pass", "PASS", "pa", "PA"] {
            assert_eq!(pass.parse::<Move>(), Ok(Move::Pass));
        }
        for bad in ["", "c", "i1", "a9", "c44", "passe"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        for m in [Move::Pass, Move::Place(Square(0)), Move::Place(Square(63))] {
            assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
        assert_eq!(format!("{} {}", Color::Black, Color::White), "black white");
    }

    #[test]
    fn pass_is_a_successor() {
        // Light cannot move; dark can (seed example `100 2 2221222122211011`).
        let board = Board::from_digits("2221222122211011").unwrap();
        let p = Position {
            board,
            to_move: Color::White,
        };
        let succ = Reversi::WIN_LOSS.successors(&p);
        assert_eq!(succ.len(), 1);
        assert_eq!(succ[0].0, Move::Pass);
        assert_eq!(succ[0].1.board, board);
        assert_eq!(succ[0].1.to_move, Color::Black);
    }

    #[test]
    fn terminal_has_no_successors() {
        let board = Board::from_digits("2222222222222221").unwrap();
        let p = Position {
            board,
            to_move: Color::Black,
        };
        assert!(Reversi::WIN_LOSS.is_terminal(&p));
        assert_eq!(Reversi::WIN_LOSS.utility(&p), -1);
        assert_eq!(Reversi::DISC_DIFFERENCE.utility(&p), -14);
    }
}
