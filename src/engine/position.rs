//! The side-to-move-relative position and the OBF text format.

use crate::board::bits;
use crate::board::{Board, Color};
use crate::lines::{read_line_capped, LineRead};
use crate::reversi::Position;
use std::fmt;
use std::io::BufRead;

/// A position seen from the side to move: `player` holds the mover's
/// discs, `opponent` the other side's, `valid` the squares of the board
/// (the top-left `n x n` corner of the 8x8 word).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RelativePosition {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Valid squares of the board.
    pub valid: u64,
}

/// The position as the engine sees it: the side to move's discs first.
impl From<&Position> for RelativePosition {
    fn from(p: &Position) -> RelativePosition {
        RelativePosition::from_board(&p.board, p.to_move)
    }
}

impl RelativePosition {
    /// The 8x8 position of `player`'s discs, to move, and `opponent`'s.
    #[must_use]
    pub const fn of_8x8(player: u64, opponent: u64) -> RelativePosition {
        RelativePosition {
            player,
            opponent,
            valid: u64::MAX,
        }
    }

    /// The start position of a board of `size` (4, 6 or 8), black to move.
    ///
    /// # Panics
    /// If `size` is not 4, 6 or 8.
    #[must_use]
    pub fn start(size: u8) -> RelativePosition {
        RelativePosition::from_board(&Board::start(size), Color::Black)
    }

    /// The position of `board` with `to_move` to move.
    #[must_use]
    pub fn from_board(board: &Board, to_move: Color) -> RelativePosition {
        RelativePosition {
            player: board.discs(to_move),
            opponent: board.discs(to_move.other()),
            valid: board.valid(),
        }
    }

    /// The absolute board, given the colour of the side to move.
    #[must_use]
    pub fn to_board(&self, to_move: Color) -> Board {
        let (black, white) = match to_move {
            Color::Black => (self.player, self.opponent),
            Color::White => (self.opponent, self.player),
        };
        Board::from_bits(black, white, self.size()).expect("a position is a valid board")
    }

    /// The board's side length (4, 6 or 8).
    #[must_use]
    pub fn size(&self) -> u8 {
        // The valid squares are n x n.
        (self.valid.count_ones() as f64).sqrt().round() as u8
    }

    /// The empty valid squares.
    #[inline]
    #[must_use]
    pub fn empties(&self) -> u64 {
        self.valid & !(self.player | self.opponent)
    }

    /// The legal moves of the side to move.
    #[inline]
    #[must_use]
    pub fn moves(&self) -> u64 {
        bits::moves_scalar(self.player, self.opponent, self.valid)
    }

    /// The position after the side to move plays on `sq` (which must be a
    /// legal move), seen from the new side to move.
    #[inline]
    #[must_use]
    pub fn play(&self, sq: u8) -> RelativePosition {
        self.after(sq, bits::flips_scalar(self.player, self.opponent, sq))
    }

    /// The position after the side to move plays on `sq` turning the discs
    /// `flips` (computed by the caller's move generator), seen from the
    /// new side to move.
    #[inline]
    #[must_use]
    pub fn after(&self, sq: u8, flips: u64) -> RelativePosition {
        let (player, opponent) = bits::after(self.player, self.opponent, sq, flips);
        RelativePosition {
            player,
            opponent,
            valid: self.valid,
        }
    }

    /// The position after a pass.
    #[inline]
    #[must_use]
    pub fn pass(&self) -> RelativePosition {
        RelativePosition {
            player: self.opponent,
            opponent: self.player,
            valid: self.valid,
        }
    }

    /// Whether neither side can move.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }
}

/// One parsed OBF line: the position, the colour to move and the 1-based
/// line number it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfPosition {
    /// The position, relative to the side to move.
    pub position: RelativePosition,
    /// The colour to move (`X` is black).
    pub to_move: Color,
    /// The 1-based line number in its file (1 for a single line).
    pub line: usize,
}

/// What is wrong with an OBF line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObfErrorKind {
    /// The board part does not have 64 squares.
    Length(usize),
    /// A board character other than `X`, `O`, `-`.
    Character {
        /// 1-based position of the character in the line.
        column: usize,
        /// The offending character.
        found: char,
    },
    /// The side to move is missing or not `X`/`O`.
    SideToMove(String),
    /// The file could not be read.
    Unreadable(String),
}

/// An OBF parse error with the 1-based line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfError {
    /// 1-based line number (0 when the whole file is unreadable).
    pub line: usize,
    /// What is wrong.
    pub kind: ObfErrorKind,
}

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        match &self.kind {
            ObfErrorKind::Length(n) => write!(
                f,
                "the board has {n} squares, expected 64 of X, O, - followed by a space and X or O"
            ),
            ObfErrorKind::Character { column, found } => {
                write!(f, "character {found:?} at column {column} is not X, O or -")
            }
            ObfErrorKind::SideToMove(s) => {
                write!(f, "the side to move {s:?} is not X or O")
            }
            ObfErrorKind::Unreadable(e) => write!(f, "unreadable: {e}"),
        }
    }
}

impl std::error::Error for ObfError {}

/// Parses one OBF line: 64 squares in reading order (`X` black, `O` white,
/// `-` empty), white space, the side to move `X` or `O` (optionally followed
/// by `;`), then anything (usually the best moves with their scores).
/// `line` is the line number reported in errors.
///
/// # Errors
/// [`ObfError`] on a board of the wrong length, another character or a
/// missing or wrong side to move.
///
/// ```
/// let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
/// let p = reversi::engine::parse_obf(line, 1).unwrap();
/// assert_eq!(p.position.empties().count_ones(), 14);
/// ```
pub fn parse_obf(text: &str, line: usize) -> Result<ObfPosition, ObfError> {
    let err = |kind| ObfError { line, kind };
    let text = text.trim_start();
    let board_part = text.split(char::is_whitespace).next().unwrap_or("");
    let (mut black, mut white) = (0u64, 0u64);
    let mut count = 0usize;
    for (i, c) in board_part.chars().enumerate() {
        match c {
            'X' | 'O' | '-' if i < 64 => {
                if c == 'X' {
                    black |= 1u64 << i;
                } else if c == 'O' {
                    white |= 1u64 << i;
                }
            }
            'X' | 'O' | '-' => {}
            _ => {
                return Err(err(ObfErrorKind::Character {
                    column: i + 1,
                    found: c,
                }))
            }
        }
        count += 1;
    }
    if count != 64 {
        return Err(err(ObfErrorKind::Length(count)));
    }
    let rest = text[board_part.len()..].trim_start();
    let side = rest
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()
        .unwrap_or("");
    let to_move = match side {
        "X" => Color::Black,
        "O" => Color::White,
        _ => {
            return Err(err(ObfErrorKind::SideToMove(
                side.chars().take(20).collect(),
            )))
        }
    };
    let board = Board::from_bits(black, white, 8).expect("disjoint 8x8 discs");
    Ok(ObfPosition {
        position: RelativePosition::from_board(&board, to_move),
        to_move,
        line,
    })
}

/// Parses a file of OBF lines; blank lines and lines starting with `%` or
/// `#` are skipped (line numbers still count them).
///
/// # Errors
/// The first bad line's [`ObfError`].
pub fn parse_obf_file(text: &str) -> Result<Vec<ObfPosition>, ObfError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !is_obf_comment(l))
        .map(|(i, l)| parse_obf(l, i + 1))
        .collect()
}

/// A blank line or a comment (`%` or `#` first), skipped in OBF files.
fn is_obf_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('%') || t.starts_with('#')
}

/// The longest line [`read_obf`] accepts, in bytes. An OBF line is 66
/// characters and an optional comment; standard suites stay under 200.
pub const MAX_OBF_LINE: usize = 4096;

/// Reads a file of OBF lines like [`parse_obf_file`], a line at a time:
/// memory stays bounded by the positions found, whatever the input (a
/// device such as `/dev/zero`, one endless line, a billion blank lines).
///
/// # Errors
/// The first bad line's [`ObfError`]; a line longer than [`MAX_OBF_LINE`]
/// bytes, a line that is not UTF-8 and a read error are
/// [`ObfErrorKind::Unreadable`].
pub fn read_obf(mut input: impl BufRead) -> Result<Vec<ObfPosition>, ObfError> {
    let mut positions = Vec::new();
    let mut bytes = Vec::new();
    for number in 1.. {
        let unreadable = |why: String| ObfError {
            line: number,
            kind: ObfErrorKind::Unreadable(why),
        };
        match read_line_capped(&mut input, MAX_OBF_LINE, &mut bytes) {
            Ok(LineRead::End) => break,
            Ok(LineRead::TooLong) => {
                return Err(unreadable(format!("longer than {MAX_OBF_LINE} bytes")))
            }
            Ok(LineRead::Line) => {}
            Err(e) => return Err(unreadable(e.to_string())),
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            return Err(unreadable("not UTF-8 text".to_string()));
        };
        if !is_obf_comment(line) {
            positions.push(parse_obf(line, number)?);
        }
    }
    Ok(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_board() {
        for n in [4u8, 6, 8] {
            let p = RelativePosition::start(n);
            assert_eq!(p.size(), n);
            assert_eq!(p.to_board(Color::Black), Board::start(n));
            assert_eq!(p.moves().count_ones(), 4);
        }
    }

    #[test]
    fn obf_errors() {
        let good = "-".repeat(27) + "OX------XO" + &"-".repeat(27);
        assert!(parse_obf(&format!("{good} X;"), 1).is_ok());
        assert!(parse_obf(&format!("{good} O"), 1).is_ok());
        let e = parse_obf(&format!("{good}- X;"), 3).unwrap_err();
        assert_eq!((e.line, e.kind), (3, ObfErrorKind::Length(65)));
        let e = parse_obf(&format!("{good} Y;"), 2).unwrap_err();
        assert_eq!(e.kind, ObfErrorKind::SideToMove("Y".into()));
        let e = parse_obf(&good, 2).unwrap_err();
        assert_eq!(e.kind, ObfErrorKind::SideToMove(String::new()));
        let bad = good.replacen('-', "*", 1);
        let e = parse_obf(&format!("{bad} X;"), 5).unwrap_err();
        assert_eq!(
            e.kind,
            ObfErrorKind::Character {
                column: 1,
                found: '*'
            }
        );
        assert_eq!(
            e.to_string(),
            "line 5: character '*' at column 1 is not X, O or -"
        );
    }

    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn obf_parser_never_panics_on_random_bytes() {
        let mut s = 0x1234_5678_9ABC_DEF1u64;
        let alphabet = b"XO- ;\n\t:+0A\xc3\xa9\xff";
        for round in 0..20_000 {
            let len = (next(&mut s) % 140) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    let r = next(&mut s);
                    if round % 2 == 0 {
                        alphabet[(r % alphabet.len() as u64) as usize]
                    } else {
                        r as u8
                    }
                })
                .collect();
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse_obf(&text, 1);
            let _ = parse_obf_file(&text);
        }
        // Near misses: a valid line with random bytes overwritten, inserted
        // or removed.
        let good = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
        for _ in 0..20_000 {
            let mut bytes = good.as_bytes().to_vec();
            for _ in 0..1 + next(&mut s) % 3 {
                let i = (next(&mut s) % bytes.len() as u64) as usize;
                let b = next(&mut s) as u8;
                match next(&mut s) % 3 {
                    0 => bytes[i] = b,
                    1 => bytes.insert(i, b),
                    _ => {
                        bytes.remove(i);
                    }
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(p) = parse_obf(&text, 7) {
                assert_eq!(p.position.player & p.position.opponent, 0);
            }
        }
    }
}
