//! Text forms of boards and squares: the Tiny contract's digit string
//! (`0` empty, `1` dark, `2` light, reading order), the 8x8 contract's grid
//! (`*`, `X`, `O`), square names `a1`..`h8`, and the labelled picture the
//! front ends show ([`Board::picture`]).

use super::{bits, Board, Color, Square, SIZES};
use std::fmt;
use std::fmt::Write as _;
use std::str::FromStr;

/// Why a board text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// The text has a length that is no board's (16, 36 or 64 squares).
    Length(usize),
    /// A character that is not one of the notation's three.
    Character {
        /// 0-based position of the character in the text.
        index: usize,
        /// The offending character.
        found: char,
    },
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardError::Length(n) => {
                write!(
                    f,
                    "has {n} squares, expected 16 (4x4), 36 (6x6) or 64 (8x8)"
                )
            }
            ParseBoardError::Character { index, found } => {
                write!(f, "has {found:?} at position {}", index + 1)
            }
        }
    }
}

impl std::error::Error for ParseBoardError {}

fn size_of_len(len: usize) -> Result<u8, ParseBoardError> {
    SIZES
        .iter()
        .copied()
        .find(|&n| usize::from(n) * usize::from(n) == len)
        .ok_or(ParseBoardError::Length(len))
}

/// How [`Board::picture`] labels the board: the width of the row numbers'
/// column and the case of the column letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PictureStyle {
    /// Characters of the row numbers (right-aligned) before the squares.
    pub margin: usize,
    /// Column letters `A`, `B`, ... instead of `a`, `b`, ...
    pub capitals: bool,
}

impl PictureStyle {
    /// Lower-case columns after a margin of 3 (the depth study's dialogs).
    pub const PLAIN: PictureStyle = PictureStyle {
        margin: 3,
        capitals: false,
    };
    /// Capital columns after a margin of 2 (GoGui's `showboard`).
    pub const GOGUI: PictureStyle = PictureStyle {
        margin: 2,
        capitals: true,
    };
}

impl Board {
    /// The board as lines of text: column letters, then each row's number
    /// and squares, `X` black, `O` white, `*` an empty square of `marks`,
    /// `.` another empty square, each after a space.
    #[must_use]
    pub fn picture(&self, style: PictureStyle, marks: u64) -> String {
        let n = self.size();
        let first = if style.capitals { b'A' } else { b'a' };
        let mut s = " ".repeat(style.margin);
        for c in 0..n {
            let _ = write!(s, " {}", (first + c) as char);
        }
        s.push('\n');
        for r in 0..n {
            let _ = write!(s, "{:>width$}", r + 1, width = style.margin);
            for c in 0..n {
                let sq = Square::new(r, c);
                let ch = match self.get(sq) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if marks & sq.bit() != 0 => '*',
                    None => '.',
                };
                let _ = write!(s, " {ch}");
            }
            s.push('\n');
        }
        s
    }

    /// Parses squares in reading order from `text`, where `chars` gives the
    /// characters for empty, black and white. The size follows from the length.
    ///
    /// # Errors
    /// [`ParseBoardError`] on a wrong length or an unknown character.
    pub fn parse_with(text: &str, chars: [char; 3]) -> Result<Board, ParseBoardError> {
        let cells: Vec<char> = text.chars().collect();
        let size = size_of_len(cells.len())?;
        let (mut black, mut white) = (0u64, 0u64);
        for (i, &c) in cells.iter().enumerate() {
            let sq = Square::new((i / usize::from(size)) as u8, (i % usize::from(size)) as u8);
            if c == chars[1] {
                black |= sq.bit();
            } else if c == chars[2] {
                white |= sq.bit();
            } else if c != chars[0] {
                return Err(ParseBoardError::Character { index: i, found: c });
            }
        }
        Ok(Board::from_bits(black, white, size).expect("parsed squares are valid"))
    }

    /// Parses the Tiny contract's digit string (`0`/`1`/`2`, 16, 36 or 64 digits).
    ///
    /// # Errors
    /// [`ParseBoardError`] on a wrong length or a character other than `0`, `1`, `2`.
    ///
    /// ```
    /// let b = reversi::board::Board::from_digits("0000021001200000").unwrap();
    /// assert_eq!(b.size(), 4);
    /// ```
    pub fn from_digits(text: &str) -> Result<Board, ParseBoardError> {
        Board::parse_with(text, ['0', '1', '2'])
    }

    /// Writes the squares in reading order with the given characters for
    /// empty, black and white, inserting `row_end` after each row.
    #[must_use]
    pub fn format_with(&self, chars: [char; 3], row_end: &str) -> String {
        let mut s = String::with_capacity(80);
        for sq in self.squares() {
            s.push(match self.get(sq) {
                None => chars[0],
                Some(super::Color::Black) => chars[1],
                Some(super::Color::White) => chars[2],
            });
            if sq.col() + 1 == self.size() {
                s.push_str(row_end);
            }
        }
        s
    }

    /// The Tiny contract's digit string.
    #[must_use]
    pub fn to_digits(&self) -> String {
        self.format_with(['0', '1', '2'], "")
    }

    /// The board as rows of `X`, `O` and `empty`, each ending in a newline.
    #[must_use]
    pub fn to_grid(&self, empty: char) -> String {
        self.format_with([empty, 'X', 'O'], "\n")
    }

    /// Whether `sq` lies on this board.
    #[must_use]
    pub const fn contains(&self, sq: Square) -> bool {
        bits::valid_mask(self.size) & sq.bit() != 0
    }
}

/// Why a square name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a square name (a1 to h8)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`h8` (either case).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        let err = || ParseSquareError(s.to_string());
        if b.len() != 2 {
            return Err(err());
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        if col < 8 && row < 8 {
            Ok(Square::new(row, col))
        } else {
            Err(err())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_label_rows_and_columns_in_either_style() {
        // 0000021001200000: row 2 holds b2 white (2), c2 black (1).
        let b = Board::from_digits("0000021001200000").unwrap();
        let a1 = Square::new(0, 0).bit();
        assert_eq!(
            b.picture(PictureStyle::PLAIN, a1),
            "    a b c d\n  1 * . . .\n  2 . O X .\n  3 . X O .\n  4 . . . .\n"
        );
        assert_eq!(
            b.picture(PictureStyle::GOGUI, 0),
            "   A B C D\n 1 . . . .\n 2 . O X .\n 3 . X O .\n 4 . . . .\n"
        );
    }

    #[test]
    fn digits_round_trip() {
        for s in ["0000021001200000", "2221222122111111"] {
            assert_eq!(Board::from_digits(s).unwrap().to_digits(), s);
        }
        assert_eq!(Board::from_digits("000"), Err(ParseBoardError::Length(3)));
        assert!(matches!(
            Board::from_digits("000002100120000x"),
            Err(ParseBoardError::Character {
                index: 15,
                found: 'x'
            })
        ));
    }

    #[test]
    fn squares() {
        assert_eq!("a1".parse::<Square>().unwrap(), Square(0));
        assert_eq!("H8".parse::<Square>().unwrap(), Square(63));
        assert_eq!(Square(26).to_string(), "c4");
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
    }
}
