//! The book's text form, one line per position, for reading and editing
//! (`reversi-lab book export` / `import`):
//!
//! ```text
//! # reversi opening book 1: 2 positions
//! ---------------------------OX------XO--------------------------- level 0 counts 0 0 0 moves d3:+0.5 c4:+0.5 unsearched none
//! ```
//!
//! Each line: the board (64 squares in reading order: `X` the side to
//! move, `O` the other side, `-` empty) in its canonical orientation, then
//! `level L`, `counts WINS DRAWS LOSSES` (games of the side to move),
//! `moves` with each searched move as `SQUARE:VALUE`, and `unsearched`
//! with the best unsearched move as `SQUARE:VALUE` or `none`. Values are
//! in discs for the side to move, written exactly (multiples of 1/64).
//! Lines starting with `#` and empty lines are skipped. Reading a text
//! written from a book gives that book back exactly.

use super::{Book, BookMove, Entry, GameCounts, MAX_VALUE};
use crate::board::Square;
use crate::engine::RelativePosition;
use crate::units::Eval;
use std::fmt;
use std::fmt::Write as _;

/// The first words of a book's text form.
pub const TEXT_HEADER: &str = "# reversi opening book 1:";

/// A value in discs, exactly: `+1.5`, `-0.015625`, `+0`.
fn write_value(v: Eval) -> String {
    let text = format!("{:+.6}", f64::from(v.0) / f64::from(Eval::PER_DISC));
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-" || text == "+" {
        "+0".to_owned()
    } else {
        text.to_owned()
    }
}

/// Reads a value written by [`write_value`] (any number of discs that is a
/// multiple of 1/64, within 64 discs).
fn read_value(text: &str) -> Result<Eval, String> {
    let discs: f64 = text
        .parse()
        .map_err(|_| format!("value {text:?} is not a number"))?;
    let units = discs * f64::from(Eval::PER_DISC);
    if !units.is_finite() || units.fract() != 0.0 || units.abs() > f64::from(MAX_VALUE) {
        return Err(format!(
            "value {text:?} is not a multiple of 1/64 disc within 64 discs"
        ));
    }
    Ok(Eval(units as i32))
}

fn write_move(m: &BookMove) -> String {
    format!("{}:{}", m.square, write_value(m.value))
}

fn read_move(text: &str) -> Result<BookMove, String> {
    let (square, value) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?} is not SQUARE:VALUE"))?;
    let square: Square = square
        .parse()
        .map_err(|_| format!("{square:?} is not a square"))?;
    Ok(BookMove {
        square,
        value: read_value(value)?,
    })
}

/// Why a text is not a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for TextError {}

impl Book {
    /// The book as text (see the module's documentation), positions in the
    /// order of their keys.
    #[must_use]
    pub fn to_text(&self) -> String {
        let sorted = self.sorted();
        let mut out = format!("{TEXT_HEADER} {} positions\n", sorted.len());
        for ((p, o), e) in sorted {
            for sq in 0..64 {
                out.push(if p >> sq & 1 == 1 {
                    'X'
                } else if o >> sq & 1 == 1 {
                    'O'
                } else {
                    '-'
                });
            }
            let moves: Vec<String> = e.searched.iter().map(write_move).collect();
            let _ = write!(
                out,
                " level {} counts {} {} {} moves",
                e.level, e.counts.wins, e.counts.draws, e.counts.losses
            );
            for m in moves {
                out.push(' ');
                out.push_str(&m);
            }
            let unsearched = e.unsearched.as_ref().map_or("none".to_owned(), write_move);
            let _ = writeln!(out, " unsearched {unsearched}");
        }
        out
    }

    /// Reads the lines of a book's text form (see the module's
    /// documentation); a position given twice keeps its last line.
    ///
    /// # Errors
    /// [`TextError`] naming the first line that is not a position.
    pub fn from_text<'a>(lines: impl IntoIterator<Item = &'a str>) -> Result<Book, TextError> {
        let mut book = Book::new();
        for (i, line) in lines.into_iter().enumerate() {
            book.read_text_line(i + 1, line)?;
        }
        Ok(book)
    }

    /// Reads line `line_number` of a book's text form into the book (as
    /// [`Book::from_text`] does with each line): a reader can take the
    /// text a line at a time.
    ///
    /// # Errors
    /// [`TextError`] naming the line when it is not a position.
    pub fn read_text_line(&mut self, line_number: usize, line: &str) -> Result<(), TextError> {
        if line.starts_with('#') || line.trim().is_empty() {
            return Ok(());
        }
        let (position, entry) = read_line(line).map_err(|why| TextError {
            line: line_number,
            why,
        })?;
        self.insert(&position, entry).map_err(|e| TextError {
            line: line_number,
            why: e.0,
        })
    }
}

/// One position of the text form.
fn read_line(line: &str) -> Result<(RelativePosition, Entry), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let board = words[0];
    if board.len() != 64 {
        return Err(format!(
            "the board has {} characters, expected 64 of X, O and -",
            board.chars().count()
        ));
    }
    let (mut p, mut o) = (0u64, 0u64);
    for (sq, c) in board.bytes().enumerate() {
        match c {
            b'X' => p |= 1 << sq,
            b'O' => o |= 1 << sq,
            b'-' => {}
            _ => return Err(format!("board character {:?} is not X, O or -", c as char)),
        }
    }
    let expect = |at: usize, word: &str| -> Result<(), String> {
        match words.get(at) {
            Some(w) if *w == word => Ok(()),
            Some(w) => Err(format!("expected {word:?}, found {w:?}")),
            None => Err(format!("expected {word:?} at the end of the line")),
        }
    };
    let number = |at: usize, what: &str| -> Result<u32, String> {
        let w = words
            .get(at)
            .ok_or_else(|| format!("the {what} is missing"))?;
        w.parse()
            .map_err(|_| format!("the {what} {w:?} is not a number"))
    };
    expect(1, "level")?;
    let level =
        u8::try_from(number(2, "level")?).map_err(|_| "the level is above 255".to_owned())?;
    expect(3, "counts")?;
    let counts = GameCounts {
        wins: number(4, "count of wins")?,
        draws: number(5, "count of draws")?,
        losses: number(6, "count of losses")?,
    };
    expect(7, "moves")?;
    let end = words
        .iter()
        .position(|w| *w == "unsearched")
        .ok_or("the word \"unsearched\" is missing")?;
    let searched = words[8..end]
        .iter()
        .map(|w| read_move(w))
        .collect::<Result<Vec<_>, _>>()?;
    let unsearched = match &words[end + 1..] {
        ["none"] => None,
        [m] => Some(read_move(m)?),
        _ => return Err("expected one move or \"none\" after \"unsearched\"".into()),
    };
    let position = RelativePosition::of_8x8(p, o);
    Ok((
        position,
        Entry {
            searched,
            unsearched,
            level,
            counts,
        },
    ))
}
