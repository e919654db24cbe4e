//! Reversi as a [`Game`]: black (player 1) is MAX, white (player 2) is MIN.
//!
//! Successors are ordered by the square of the placed disc in reading order.
//! A player with no legal move whose opponent can move has exactly one
//! successor, the pass (same board, other player to move); a position where
//! neither can move is terminal.

use crate::board::{
    bits::{flips_vec, moves_vec, Bits, LastFlips},
    Board, Color, Square,
};
use crate::game::{Game, Side, Value, INFINITY};
use std::fmt;

/// A board with the colour to move: one state of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The discs.
    pub board: Board,
    /// The colour to move.
    pub to_move: Color,
}

impl Position {
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
        match p.to_move {
            Color::Black => Side::Max,
            Color::White => Side::Min,
        }
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

    /// Positions with at most `SMALL_EMPTIES` (4) empty squares are solved
    /// by a tight negamax on the two bitboards (`Small`), counting the
    /// states minimax would visit.
    fn minimax_subtree(&self, p: &Position) -> Option<(Value, u64)> {
        let empty = p.board.empty();
        if empty.count_ones() > SMALL_EMPTIES {
            return None;
        }
        let own = p.board.discs(p.to_move);
        let opp = p.board.discs(p.to_move.other());
        let valid = p.board.valid();
        let small = Small {
            valid,
            last: LastFlips::new(valid),
            utility: self.utility,
        };
        let (value, nodes) = small.solve(own, opp, empty);
        Some(match p.to_move {
            Color::Black => (value, nodes),
            Color::White => (-value, nodes),
        })
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

/// Positions with at most this many empty squares are solved by [`Small`]
/// instead of the generic recursion (it has one function per level, up to
/// four).
const SMALL_EMPTIES: u32 = 4;
const _: () = assert!(SMALL_EMPTIES <= 4);

/// Plain minimax in negamax form on the two bitboards of a position with
/// few empty squares: the mover's discs `p` against `o`, `empty` the empty
/// squares. Each level has its own function, so a level calls the next one
/// directly (no branch on the number of empties to predict), and the last
/// two levels try their squares without branching on legality: the
/// outcomes of those branches are what a processor predicts worst here.
#[derive(Clone, Copy)]
struct Small {
    valid: u64,
    last: LastFlips,
    utility: Utility,
}

/// The value for the mover and the number of states minimax visits.
type Counted = (Value, u64);

impl Small {
    /// At most [`SMALL_EMPTIES`] empties.
    fn solve(self, p: u64, o: u64, empty: u64) -> Counted {
        match empty.count_ones() {
            0 => (self.end(p, o), 1),
            1 => self.one(p, o, empty.trailing_zeros() as u8),
            2 => self.two(p, o, empty),
            3 => self.three(p, o, empty),
            _ => self.four(p, o, empty),
        }
    }

    /// The utility of the finished game for the mover.
    #[inline]
    fn end(self, p: u64, o: u64) -> Value {
        self.utility
            .score(p.count_ones() as i32 - o.count_ones() as i32)
    }

    fn four(self, p: u64, o: u64, empty: u64) -> Counted {
        self.expand(p, o, empty, Small::three, Small::four)
    }

    fn three(self, p: u64, o: u64, empty: u64) -> Counted {
        self.expand(p, o, empty, Small::two, Small::three)
    }

    /// A node whose children are solved by `child`; after a pass the
    /// opponent's node (same empties) is solved by `same`.
    #[inline(always)]
    fn expand(
        self,
        p: u64,
        o: u64,
        empty: u64,
        child: fn(Small, u64, u64, u64) -> Counted,
        same: fn(Small, u64, u64, u64) -> Counted,
    ) -> Counted {
        let moves = moves_vec(p, o, self.valid);
        if moves == 0 {
            if moves_vec(o, p, self.valid) == 0 {
                return (self.end(p, o), 1);
            }
            // A forced pass: one more state, then the opponent's subtree.
            let (v, n) = same(self, o, p, empty);
            return (-v, n + 1);
        }
        let (mut best, mut nodes) = (-INFINITY, 1);
        for sq in Bits(moves) {
            let f = flips_vec(p, o, sq);
            let bit = 1u64 << sq;
            let (v, n) = child(self, o & !f, p | f | bit, empty & !bit);
            best = best.max(-v);
            nodes += n;
        }
        (best, nodes)
    }

    /// Two empty squares: both are tried, an illegal one (no flips)
    /// contributing nothing.
    fn two(self, p: u64, o: u64, empty: u64) -> Counted {
        let a = empty.trailing_zeros() as u8;
        let b = (empty & (empty - 1)).trailing_zeros() as u8;
        let (fa, fb) = (flips_vec(p, o, a), flips_vec(p, o, b));
        if fa | fb == 0 {
            if flips_vec(o, p, a) | flips_vec(o, p, b) == 0 {
                return (self.end(p, o), 1);
            }
            let (v, n) = self.two(o, p, empty);
            return (-v, n + 1);
        }
        let (va, na) = self.one(o & !fa, p | fa | (1u64 << a), b);
        let (vb, nb) = self.one(o & !fb, p | fb | (1u64 << b), a);
        let (va, na) = if fa != 0 { (-va, na) } else { (-INFINITY, 0) };
        let (vb, nb) = if fb != 0 { (-vb, nb) } else { (-INFINITY, 0) };
        (va.max(vb), 1 + na + nb)
    }

    /// One empty square `sq`: the mover plays it (two states), or passes
    /// and the opponent plays it (three), or the game is over (one). Only
    /// flip counts are needed, read from line tables, and nothing branches.
    #[inline]
    fn one(self, p: u64, o: u64, sq: u8) -> Counted {
        let d = p.count_ones() as i32 - o.count_ones() as i32;
        let (mine, theirs) = self.last.counts(p, sq);
        let mover = i32::from(mine != 0);
        let opponent = i32::from(mine == 0 && theirs != 0);
        let d = d + mover * (2 * mine as i32 + 1) - opponent * (2 * theirs as i32 + 1);
        let nodes = 1 + mover as u64 + 2 * opponent as u64;
        (self.utility.score(d), nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
