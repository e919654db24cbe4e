//! The book file: compact, versioned and checksummed, its bytes a function
//! of the book alone (the positions in the order of their keys).
//!
//! In little-endian order: the 8 bytes `RVOBOOK1`, the format version
//! (u32, now 1), the number of positions (u32), the file's length in bytes
//! (u64); then each position in increasing order of its canonical key:
//! the side to move's discs (u64), the other side's (u64), the level (u8),
//! the number of searched moves (u8), the unsearched move's square (u8, 255
//! for none) and value (i16, 1/64 disc), the games won, drawn and lost by
//! the side to move (3 x u32), then each searched move's square (u8) and
//! value (i16); last an FNV-1a 64-bit checksum (u64) of everything before
//! it.

use super::{position_of, Book, BookMove, Entry, GameCounts, Key};
use crate::board::Square;
use crate::files::Signature;
use crate::units::Eval;
use std::fmt;

const MAGIC: &[u8; 8] = b"RVOBOOK1";
/// How a book file begins: what a writer that replaces only books looks
/// for.
pub const BOOK_SIGNATURE: Signature = Signature::of_magic(MAGIC, "an opening book");
/// The version of the book file format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the first position.
const HEADER: usize = 8 + 4 + 4 + 8;
/// The bytes of a book file's header: what [`Book::check_header`] reads.
pub const BOOK_HEADER_BYTES: usize = HEADER;
/// Bytes of a position without its searched moves.
const ENTRY: usize = 8 + 8 + 1 + 1 + 1 + 2 + 3 * 4;
/// Bytes of a searched move.
const MOVE: usize = 1 + 2;
/// The unsearched square of an entry without one.
const NONE: u8 = 255;

/// Why bytes are not a book this build reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookFileError {
    /// Not a book file (wrong magic bytes).
    NotBook,
    /// A format version this build does not read.
    Version(u32),
    /// Shorter than its header says.
    Truncated {
        /// The bytes found.
        found: u64,
        /// The bytes the header announces (or the header's own length).
        expected: u64,
    },
    /// Longer than its header says.
    TooLong {
        /// The bytes found.
        found: u64,
        /// The bytes the header announces.
        expected: u64,
    },
    /// The checksum does not match: the file is corrupt.
    Checksum,
    /// A position's record is not valid (the checksum matched: the file
    /// was written wrong).
    Invalid {
        /// The position's number in the file, from 0.
        index: u64,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for BookFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookFileError::NotBook => f.write_str("is not an opening book file"),
            BookFileError::Version(v) => write!(
                f,
                "has book format version {v}; this build reads version {FORMAT_VERSION}"
            ),
            BookFileError::Truncated { found, expected } => write!(
                f,
                "is truncated ({found} bytes, its header announces {expected})"
            ),
            BookFileError::TooLong { found, expected } => write!(
                f,
                "is longer than its header announces ({found} bytes, expected {expected})"
            ),
            BookFileError::Checksum => f.write_str("is corrupt (checksum mismatch)"),
            BookFileError::Invalid { index, why } => {
                write!(f, "is invalid: position {index}: {why}")
            }
        }
    }
}

impl std::error::Error for BookFileError {}

pub(super) use crate::hash::fnv1a;

/// A little-endian reader of a byte slice whose length was checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let out = self.bytes.get(self.at..self.at + N)?.try_into().ok()?;
        self.at += N;
        Some(out)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|b| b[0])
    }
    fn i16(&mut self) -> Option<i16> {
        self.take().map(i16::from_le_bytes)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
}

/// A value as stored (it fits: [`super::MAX_VALUE`] is 4096).
fn stored(v: Eval) -> i16 {
    i16::try_from(v.0).expect("a book value fits 16 bits")
}

impl Book {
    /// The book file's bytes (the same for equal books).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let sorted = self.sorted();
        let moves: usize = sorted.iter().map(|(_, e)| e.searched.len()).sum();
        let length = HEADER + ENTRY * sorted.len() + MOVE * moves + 8;
        let mut out = Vec::with_capacity(length);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let count = u32::try_from(sorted.len()).expect("at most 2^32 positions");
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&(length as u64).to_le_bytes());
        for ((p, o), e) in sorted {
            out.extend_from_slice(&p.to_le_bytes());
            out.extend_from_slice(&o.to_le_bytes());
            out.push(e.level);
            out.push(u8::try_from(e.searched.len()).expect("at most 64 moves"));
            let (square, value) = e
                .unsearched
                .map_or((NONE, 0), |m| (m.square.0, stored(m.value)));
            out.push(square);
            out.extend_from_slice(&value.to_le_bytes());
            for c in [e.counts.wins, e.counts.draws, e.counts.losses] {
                out.extend_from_slice(&c.to_le_bytes());
            }
            for m in &e.searched {
                out.push(m.square.0);
                out.extend_from_slice(&stored(m.value).to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(out.len(), length);
        out
    }

    /// Checks a book file's first bytes `head` (at least
    /// [`BOOK_HEADER_BYTES`] of them, or the whole file if shorter) against
    /// the file's `length`, before the rest is read: its signature and
    /// version, and the length its header announces. Returns the number
    /// of positions announced.
    ///
    /// # Errors
    /// [`BookFileError::NotBook`], `Version`, `Truncated` or `TooLong`.
    pub fn check_header(head: &[u8], length: u64) -> Result<u32, BookFileError> {
        if head.len() < MAGIC.len() || &head[..MAGIC.len()] != MAGIC {
            return Err(BookFileError::NotBook);
        }
        if length < (HEADER + 8) as u64 || head.len() < HEADER {
            return Err(BookFileError::Truncated {
                found: length,
                expected: (HEADER + 8) as u64,
            });
        }
        let mut r = Reader { bytes: head, at: 8 };
        let version = r.u32().expect("header");
        if version != FORMAT_VERSION {
            return Err(BookFileError::Version(version));
        }
        let count = r.u32().expect("header");
        let expected = r.u64().expect("header");
        if length < expected {
            return Err(BookFileError::Truncated {
                found: length,
                expected,
            });
        }
        if length > expected {
            return Err(BookFileError::TooLong {
                found: length,
                expected,
            });
        }
        Ok(count)
    }

    /// Reads a book file, checking its header, its length, its checksum
    /// and every position (canonical keys in increasing order, legal
    /// moves, values within 64 discs).
    ///
    /// # Errors
    /// A [`BookFileError`] saying why the bytes are not a book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookFileError> {
        let count = Book::check_header(bytes, bytes.len() as u64)?;
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(BookFileError::Checksum);
        }
        let mut r = Reader {
            bytes: body,
            at: HEADER,
        };
        let mut book = Book::new();
        let mut previous: Option<Key> = None;
        for index in 0..u64::from(count) {
            let invalid = |why: String| BookFileError::Invalid { index, why };
            let short = || invalid("the positions end before their count".into());
            let key = (r.u64().ok_or_else(short)?, r.u64().ok_or_else(short)?);
            let level = r.u8().ok_or_else(short)?;
            let searched = r.u8().ok_or_else(short)?;
            let square = r.u8().ok_or_else(short)?;
            let value = r.i16().ok_or_else(short)?;
            let counts = GameCounts {
                wins: r.u32().ok_or_else(short)?,
                draws: r.u32().ok_or_else(short)?,
                losses: r.u32().ok_or_else(short)?,
            };
            if square == NONE && value != 0 {
                return Err(invalid(
                    "a value is given without an unsearched move".into(),
                ));
            }
            let mut entry = Entry {
                searched: Vec::with_capacity(usize::from(searched)),
                unsearched: (square != NONE).then_some(BookMove {
                    square: Square(square),
                    value: Eval(i32::from(value)),
                }),
                level,
                counts,
            };
            for _ in 0..searched {
                let square = r.u8().ok_or_else(short)?;
                let value = r.i16().ok_or_else(short)?;
                entry.searched.push(BookMove {
                    square: Square(square),
                    value: Eval(i32::from(value)),
                });
            }
            if previous.is_some_and(|p| p >= key) {
                return Err(invalid(
                    "the positions are not in the order of their keys".into(),
                ));
            }
            previous = Some(key);
            let position = position_of(key);
            if super::key_of(&position).0 != key {
                return Err(invalid(
                    "the position is not in its canonical orientation".into(),
                ));
            }
            entry.check(&position).map_err(|e| invalid(e.0))?;
            book.entries.insert(key, entry);
        }
        if r.at != body.len() {
            return Err(BookFileError::Invalid {
                index: u64::from(count),
                why: format!("{} bytes follow the last position", body.len() - r.at),
            });
        }
        Ok(book)
    }
}
