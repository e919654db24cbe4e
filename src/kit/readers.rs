//! The readers of the files that the lab makes and the product reads:
//! pattern weights and opening books; and of the world's game collections
//! (WTHOR, Logistello's), which the product indexes (`reversi games
//! index`) and the lab trains and builds books on. Reading is the
//! product's (`hint --weights`, `--book`, `book show`); the lab reads them
//! too, to build on them.

use super::input::{open_regular, read_capped};
use super::{usage, UsageError};
use crate::engine::book::file::BOOK_HEADER_BYTES;
use crate::engine::book::Book;
pub use crate::eval::pattern::{read_weights, weights_or_embedded};
pub use crate::record::collection::{collection_usage, form_of, read_collection};
use crate::record::games::GamesIndex;
use anyhow::Result;
use std::io::Read;
use std::path::Path;

/// The largest book file read (about 30 million positions).
const MAX_BOOK_BYTES: u64 = 1 << 30;

/// Reads the book file `path`: a regular file of at most 1 GiB, whose
/// header is checked against the file's length before the rest is read
/// (a book longer or shorter than its header announces is refused at
/// once, not after reading it whole).
pub fn read_book(path: &str) -> Result<Book> {
    let bytes = read_sized(path, "book", &|head, len| {
        Book::check_header(head, len)
            .map(|_| ())
            .map_err(|e| format!("book file {path} {e}"))
    })?;
    Book::from_bytes(&bytes).or_else(|e| usage(format!("book file {path} {e}")))
}

/// The bytes of the book file `path` (`what`: `book`, `Edax book`): a
/// regular file of at most 1 GiB.
pub fn read_book_bytes(path: &str, what: &str) -> Result<Vec<u8>> {
    read_sized(path, what, &|_, _| Ok(()))
}

/// A check of a file's first bytes against its length: the error line's
/// text if the file is refused.
type HeaderCheck<'a> = dyn Fn(&[u8], u64) -> Result<(), String> + 'a;

/// The bytes of the regular file `path` of at most 1 GiB; its first
/// [`BOOK_HEADER_BYTES`] (the whole of a shorter file) are given with the
/// file's length to `check` before the rest is read, and its error is the
/// command's.
fn read_sized(path: &str, what: &str, check: &HeaderCheck) -> Result<Vec<u8>> {
    let (file, len) = open_regular(Path::new(path), &format!("{what} {path}"))?;
    if len > MAX_BOOK_BYTES {
        return usage(format!(
            "{what} {path} is larger than {MAX_BOOK_BYTES} bytes; it is not a book this build reads"
        ));
    }
    let cannot = |e: std::io::Error| UsageError(format!("cannot read {what} {path}: {e}"));
    let mut reader = file.take(MAX_BOOK_BYTES + 1);
    let mut bytes = Vec::new();
    (&mut reader)
        .take(BOOK_HEADER_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    check(&bytes, len).map_err(UsageError)?;
    reader.read_to_end(&mut bytes).map_err(cannot)?;
    Ok(bytes)
}

/// The largest games index read (the world's 250,000 games take about a
/// tenth of it).
const MAX_GAMES_INDEX_BYTES: u64 = 1 << 32;

/// Reads the games index `path` (`reversi games index`'s): a regular file,
/// checked whole ([`GamesIndex::from_bytes`]).
pub fn read_games_index(path: &str) -> Result<GamesIndex> {
    let what = format!("games index {path}");
    let (file, _) = open_regular(Path::new(path), &what)?;
    let bytes = read_capped(file, MAX_GAMES_INDEX_BYTES, &what)?;
    if bytes.len() as u64 > MAX_GAMES_INDEX_BYTES {
        return usage(format!(
            "{what} is larger than {MAX_GAMES_INDEX_BYTES} bytes"
        ));
    }
    GamesIndex::from_bytes(bytes).or_else(|e| usage(format!("{what} {e}")))
}
