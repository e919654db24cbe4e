//! The Reversi/Othello board for sizes 4, 6 and 8.
//!
//! [`Board`] stores absolute colours (`black`, `white` bitboards) so that it
//! can be printed in every contract's notation; move generation is the shared
//! bitboard code of [`bits`], relative to whichever colour moves.

pub mod bits;
mod notation;
pub mod symmetry;

pub use notation::{ParseBoardError, ParseSquareError, PictureStyle};

use std::fmt;

/// A disc colour. Black (dark, player 1, `X`) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Dark, player 1, `X`.
    Black,
    /// Light, player 2, `O`.
    White,
}

/// `black` or `white`.
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Color {
    /// `black` or `white`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The assignment's player number: 1 for black, 2 for white.
    #[must_use]
    pub const fn number(self) -> u8 {
        match self {
            Color::Black => 1,
            Color::White => 2,
        }
    }

    /// The colour of player number 1 or 2.
    #[must_use]
    pub const fn from_number(n: u8) -> Option<Color> {
        match n {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
}

/// A square as a bit index `row * 8 + col` (a1 = 0 top-left, h8 = 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square at `row` and `col` (both 0-based).
    #[must_use]
    pub const fn new(row: u8, col: u8) -> Square {
        Square(row * 8 + col)
    }

    /// 0-based row (0 is row `1`).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// 0-based column (0 is column `a`).
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// The square's bit.
    #[must_use]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Square {
    /// Column letter and row number, as `c4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

/// A Reversi board of size 4, 6 or 8 (discs only; the side to move is kept
/// by [`crate::reversi::Position`]).
///
/// Squares are bits of one 64-bit word per colour, `row * 8 + col` with a1
/// the top-left corner; a 4x4 or 6x6 board is the top-left corner of the
/// 8x8 word, and [`Board::valid`] masks its squares.
///
/// ```
/// use reversi::board::{Board, Color, Square};
/// let b = Board::start(4);
/// assert_eq!(b.to_digits(), "0000021001200000"); // 0 empty, 1 black, 2 white
/// let b1: Square = "b1".parse().unwrap();
/// assert_ne!(b.moves(Color::Black) & b1.bit(), 0); // black may play b1
/// let after = b.play(Color::Black, b1).unwrap();
/// assert_eq!(after.to_digits(), "0100011001200000"); // b2 flipped
/// assert_eq!((after.count(Color::Black), after.count(Color::White)), (4, 1));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    black: u64,
    white: u64,
    size: u8,
}

/// The board sizes this crate plays on.
pub const SIZES: [u8; 3] = [4, 6, 8];

impl Board {
    /// The standard start position of a board of `size` (4, 6 or 8): the four
    /// centre squares, white on the top-left/bottom-right diagonal.
    ///
    /// # Panics
    /// If `size` is not 4, 6 or 8.
    #[must_use]
    pub fn start(size: u8) -> Board {
        assert!(SIZES.contains(&size), "board size must be 4, 6 or 8");
        let m = size / 2;
        let white = Square::new(m - 1, m - 1).bit() | Square::new(m, m).bit();
        let black = Square::new(m - 1, m).bit() | Square::new(m, m - 1).bit();
        Board { black, white, size }
    }

    /// A board from its two bitboards. Returns `None` if the size is not 4,
    /// 6 or 8, the discs overlap, or a disc lies outside the board.
    #[must_use]
    pub fn from_bits(black: u64, white: u64, size: u8) -> Option<Board> {
        let valid = bits::valid_mask(size);
        (SIZES.contains(&size) && black & white == 0 && (black | white) & !valid == 0)
            .then_some(Board { black, white, size })
    }

    /// The board's side length.
    #[must_use]
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// The mask of this board's squares.
    #[must_use]
    pub const fn valid(&self) -> u64 {
        bits::valid_mask(self.size)
    }

    /// The discs of `color`.
    #[must_use]
    pub const fn discs(&self, color: Color) -> u64 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The empty squares.
    #[must_use]
    pub const fn empty(&self) -> u64 {
        self.valid() & !(self.black | self.white)
    }

    /// The number of discs of `color`.
    #[must_use]
    pub const fn count(&self, color: Color) -> u32 {
        self.discs(color).count_ones()
    }

    /// What stands on `sq`.
    #[must_use]
    pub const fn get(&self, sq: Square) -> Option<Color> {
        if self.black & sq.bit() != 0 {
            Some(Color::Black)
        } else if self.white & sq.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The squares where `color` may play (empty when it must pass).
    #[must_use]
    pub fn moves(&self, color: Color) -> u64 {
        bits::moves_for_size(self.discs(color), self.discs(color.other()), self.size)
    }

    /// The discs that flip if `color` plays on `sq` (0 if illegal).
    #[must_use]
    pub fn flips(&self, color: Color, sq: Square) -> u64 {
        if self.empty() & sq.bit() == 0 {
            return 0;
        }
        bits::flips_scalar(self.discs(color), self.discs(color.other()), sq.0)
    }

    /// The board after `color` plays a legal move on `sq`. The move is not
    /// checked: an illegal square places a disc that flips nothing.
    #[must_use]
    pub fn play_unchecked(&self, color: Color, sq: Square) -> Board {
        let f = self.flips(color, sq);
        let (mut own, mut opp) = (self.discs(color), self.discs(color.other()));
        own |= f | sq.bit();
        opp &= !f;
        match color {
            Color::Black => Board {
                black: own,
                white: opp,
                size: self.size,
            },
            Color::White => Board {
                black: opp,
                white: own,
                size: self.size,
            },
        }
    }

    /// The board after `color` plays on `sq`, or `None` if that is illegal.
    #[must_use]
    pub fn play(&self, color: Color, sq: Square) -> Option<Board> {
        (self.moves(color) & sq.bit() != 0).then(|| self.play_unchecked(color, sq))
    }

    /// Whether neither colour can move: the game is over.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        self.moves(Color::Black) == 0 && self.moves(Color::White) == 0
    }

    /// Black's discs minus white's discs.
    #[must_use]
    pub const fn disc_difference(&self) -> i32 {
        self.count(Color::Black) as i32 - self.count(Color::White) as i32
    }

    /// The squares of the board in reading order.
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        let n = self.size;
        (0..n).flat_map(move |r| (0..n).map(move |c| Square::new(r, c)))
    }
}

impl fmt::Debug for Board {
    /// A grid of `X`, `O` and `-`, one row per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        f.write_str(&self.to_grid('-'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions() {
        assert_eq!(Board::start(4).to_digits(), "0000021001200000");
        let b = Board::start(8);
        assert_eq!(b.get("d4".parse().unwrap()), Some(Color::White));
        assert_eq!(b.get("e4".parse().unwrap()), Some(Color::Black));
        assert_eq!(b.moves(Color::Black).count_ones(), 4);
        assert_eq!(Board::start(6).moves(Color::White).count_ones(), 4);
    }

    #[test]
    fn play_flips() {
        let b = Board::start(4);
        let sq = Square::new(0, 1);
        let after = b.play(Color::Black, sq).unwrap();
        assert_eq!(after.to_digits(), "0100011001200000");
        assert!(b.play(Color::Black, Square::new(0, 0)).is_none());
    }
}
