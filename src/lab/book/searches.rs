//! The search files of `reversi-lab book search`: the format, decided
//! without a file, and the files written and merged.
//!
//! A search file holds the searches of a planned book's pending positions
//! ([`crate::engine::book::pending`], numbered in that list): a header
//! line naming the level, the book by its checksum and the list's length
//! (and, for run K of a split, ` shard K/N`:
//! [`crate::lab::shard::push_shard`]), then one [`Searched`] line per
//! position ([`Searched::to_line`]) in the order of the shard's positions.
//! [`SearchFile`] makes the header and checks a header or a line against
//! the book it is of; [`search_into`] writes and continues a file and
//! [`merge_files`] merges a split's files into the book, by
//! [`crate::lab::shard`]'s rules.

use super::Searched;
use crate::engine::book::{pending, Book, Key};
use crate::lab::shard::{
    check_listed, header_number, push_shard, read_shards, same_header, FileKind, ListNames,
    MergeRules, Resumable, Shard, StageEvent,
};
use crate::units::Eval;

/// The search files: what their header line starts with (today's
/// spelling and the former one, `# reversi book search:`), and what they
/// are, for messages.
pub const SEARCHES: FileKind = FileKind {
    start: "# reversi-lab book search:",
    former: Some("# reversi book search:"),
    kind: "a search file of `reversi-lab book search`",
};

/// The most lines of a search file.
pub const MAX_LINES: u64 = 100_000_000;

/// How messages name the positions of the pending list.
const PENDING: ListNames = ListNames {
    item: "pending position",
    of_list: "",
    all: "pending positions",
};

/// The checksum naming a book in a search file's header: its file's last
/// 8 bytes.
#[must_use]
pub fn book_checksum(book: &Book) -> u64 {
    let bytes = book.to_bytes();
    let mut last = [0u8; 8];
    last.copy_from_slice(&bytes[bytes.len() - 8..]);
    u64::from_le_bytes(last)
}

/// The search files of a planned book: its checksum and its pending
/// positions, which every line must search.
#[derive(Clone, Debug)]
pub struct SearchFile {
    /// The book's checksum ([`book_checksum`]).
    checksum: u64,
    /// The book's pending positions, in their order.
    list: Vec<Key>,
}

impl SearchFile {
    /// The search files of `book` as it is now planned.
    #[must_use]
    pub fn of(book: &Book) -> SearchFile {
        SearchFile {
            checksum: book_checksum(book),
            list: pending(book),
        }
    }

    /// The pending positions searched, in their order.
    #[must_use]
    pub fn list(&self) -> &[Key] {
        &self.list
    }

    /// The header of the files of the searches at `level` (without the
    /// shard).
    #[must_use]
    pub fn header(&self, level: u32) -> String {
        format!(
            "{} level {level} book {:016x} positions {}",
            SEARCHES.start,
            self.checksum,
            self.list.len()
        )
    }

    /// Checks a file's header (its shard cut off): the header of this
    /// book's searches at the level it names, in either spelling
    /// ([`same_header`]). `Err` is the message, naming the file `path`.
    ///
    /// # Errors
    /// When the header is of another book, plan or form.
    pub fn check_header(&self, path: &str, header: &str) -> Result<(), String> {
        let expected = self.header(header_level(header));
        if same_header(header, &expected) {
            Ok(())
        } else {
            Err(format!(
                "{path} holds the searches of another book or plan ({header:?}; this book's would be {expected:?})"
            ))
        }
    }

    /// The search result a line holds, checked by [`Searched::parse_line`]
    /// and against the book: it is of the pending position of its number,
    /// searched at `level`, the level of the file's header.
    ///
    /// # Errors
    /// What is wrong with the line (`holds another position than pending
    /// position N`, `was searched at level L, its file at level M`, ...).
    pub fn check_line(&self, line: &str, level: u32) -> Result<Searched, String> {
        let r = Searched::parse_line(line).map_err(|e| e.to_string())?;
        check_listed(&self.list, r.item, &r.key, PENDING)?;
        if u32::from(r.level) != level {
            return Err(format!(
                "was searched at level {}, its file at level {level}",
                r.level
            ));
        }
        Ok(r)
    }

    /// The search result a line of the file of header `header` holds, and
    /// its number ([`SearchFile::check_line`] at the header's level).
    ///
    /// # Errors
    /// As [`SearchFile::check_line`].
    pub fn read_line(&self, header: &str, line: &str) -> Result<(u64, Searched), String> {
        self.check_line(line, header_level(header))
            .map(|r| (r.item, r))
    }
}

/// The level a header names (0, which no search has, when none; its low
/// 32 bits, as ever, when it is larger).
fn header_level(header: &str) -> u32 {
    header_number(header, "level").unwrap_or(0) as u32
}

/// Searches the pending positions of `book` of `shard` at `level` on
/// `threads` threads into the search file `out` (continued if it holds
/// some of them already; one of other options started over with
/// `force`), reporting its progress to `report`.
///
/// # Errors
/// A search file refused or that cannot be written.
pub fn search_into(
    book: &Book,
    level: u32,
    out: &str,
    shard: Shard,
    (threads, force): (usize, bool),
    report: &mut dyn FnMut(StageEvent),
) -> anyhow::Result<()> {
    let searched = SearchFile::of(book);
    let list = searched.list();
    let mut header_line = searched.header(level);
    push_shard(&mut header_line, shard);
    let check = |line: &str| searched.check_line(line, level).map(|r| r.item);
    Resumable {
        signature: SEARCHES,
        noun: "position",
        out,
        header_line: &header_line,
        force,
        item: &check,
        shard,
        items: list.len() as u64,
        max_lines: MAX_LINES,
        progress: ("book search", "positions"),
    }
    .run(
        |ks, deliver| {
            super::search_pending(book, list, level, shard, ks, threads, |r| {
                deliver(r.to_line())
            });
        },
        report,
    )
}

/// Stores the results of the search files `inputs` (every shard of one
/// split of `book`'s pending positions) in `book` and values it, each
/// move into the book losing `odd_gain` (0: plain negamax).
///
/// # Errors
/// A search file refused, or a merge refused ([`super::merge`]).
pub fn merge_files(book: &mut Book, inputs: &[String], odd_gain: Eval) -> anyhow::Result<()> {
    let searched = SearchFile::of(book);
    let check_header = |path: &str, header: &str| searched.check_header(path, header);
    let item = |header: &str, line: &str| searched.read_line(header, line);
    let rules = MergeRules {
        kinds: &[SEARCHES],
        kind: SEARCHES.kind,
        check_header: &check_header,
        again: "search",
        noun: "position",
        max_items: searched.list().len() as u64,
        item: &item,
    };
    let merged = read_shards(&rules, inputs)?;
    let results: Vec<Searched> = merged.items.into_iter().map(|(_, r)| r).collect();
    super::merge(book, searched.list(), &results, odd_gain)
        .map_err(|e| crate::files::UsageError(e.to_string()).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::book::{position_of, BookMove};
    use crate::lab::book::{plan_new, MAX_POSITIONS};
    use crate::units::Eval;

    /// A result of pending position `item` of `file` (its position
    /// `key`, its first legal move) at `level`, as a line.
    fn line(item: u64, key: Key, level: u8) -> String {
        let square = crate::board::Square(position_of(key).moves().trailing_zeros() as u8);
        Searched {
            item,
            key,
            best: BookMove {
                square,
                value: Eval(64),
            },
            level,
        }
        .to_line()
    }

    #[test]
    fn a_search_line_holds_its_pending_position_at_its_files_level() {
        let mut book = Book::new();
        plan_new(&mut book, &[], 2, MAX_POSITIONS).unwrap();
        let file = SearchFile::of(&book);
        let list = file.list().to_vec();
        assert_eq!(list.len(), 3);
        let header = file.header(1);
        assert_eq!(
            header,
            format!(
                "# reversi-lab book search: level 1 book {:016x} positions 3",
                book_checksum(&book)
            )
        );
        assert_eq!(file.check_header("f", &file.header(7)), Ok(()));
        // The former spelling is the same header.
        let former = header.replacen("# reversi-lab ", "# reversi ", 1);
        assert!(former.starts_with("# reversi book search: level 1 "));
        assert_eq!(file.check_header("f", &former), Ok(()));
        let other = "# reversi-lab book search: level 1 book 0000000000000000 positions 3";
        assert_eq!(
            file.check_header("f", other),
            Err(format!("f holds the searches of another book or plan ({other:?}; this book's would be {header:?})"))
        );
        let good = line(1, list[1], 1);
        let r = file.check_line(&good, 1).unwrap();
        assert_eq!((r.item, r.key, r.level), (1, list[1], 1));
        assert_eq!(file.read_line(&header, &good), Ok((1, r)));
        assert_eq!(
            file.check_line(&good, 3),
            Err("was searched at level 1, its file at level 3".to_owned())
        );
        assert_eq!(
            file.read_line(&file.header(3), &good).unwrap_err(),
            "was searched at level 1, its file at level 3"
        );
        assert_eq!(
            file.check_line(&line(1, list[2], 1), 1).unwrap_err(),
            "holds another position than pending position 1"
        );
        assert_eq!(
            file.check_line(&line(3, list[2], 1), 1).unwrap_err(),
            "holds position 3, beyond the 3 pending positions"
        );
        assert_eq!(
            file.check_line("0\tx", 1).unwrap_err(),
            "has 2 tab-separated fields, expected 6"
        );
    }
}
