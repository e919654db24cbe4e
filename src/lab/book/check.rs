//! How near a book's values are to deeper searches (`reversi-lab book
//! check`): positions of the book drawn at random, each valued again by a
//! fresh search at a chosen level, and the share whose book value lies
//! within a margin of that search's.
//!
//! A book's value is negamax over level-`L` searches of its leaves; a
//! search some levels deeper from the position itself says how much of
//! that value the tree and the shallow leaves got right. The draw is
//! seeded and the searches have no clock, so a check is the same on every
//! machine and under any load.

use super::search_position;
use crate::board::Color;
use crate::engine::book::{ply, position_of, Book, Key};
use crate::lab::shard::ordered_work;
use crate::record::write_board_string;
use crate::reversi::Position;
use crate::rng::Rng;
use crate::units::Eval;
use std::fmt;

/// `book check`'s draw ([`sample`]) of the book named `name`, and the
/// heading line of its output, the searches being at `level`.
///
/// # Errors
/// A book with no position with a value.
pub fn drawn(
    book: &Book,
    name: &str,
    count: usize,
    seed: u64,
    level: u32,
) -> Result<(Vec<Key>, String), String> {
    let keys = sample(book, count, seed);
    if keys.is_empty() {
        return Err(format!(
            "{name}: the book has no position with a value to check"
        ));
    }
    let heading = format!(
        "{} positions of {name} drawn with seed {seed}, searched at level {level} (values for the side to move, in discs; the position has X to move)\n",
        keys.len(),
    );
    Ok((keys, heading))
}

/// `count` positions of `book` that have a value, drawn at random by the
/// generator seeded with `seed` (all of them, in a random order, if the
/// book has fewer): the same book and seed give the same positions.
#[must_use]
pub fn sample(book: &Book, count: usize, seed: u64) -> Vec<Key> {
    let mut keys: Vec<Key> = book
        .sorted()
        .into_iter()
        .filter(|(_, entry)| entry.value().is_some())
        .map(|(key, _)| key)
        .collect();
    let mut rng = Rng::new(seed);
    let take = count.min(keys.len());
    // The first `take` steps of a Fisher-Yates shuffle.
    for i in 0..take {
        let j = i + rng.below(keys.len() - i);
        keys.swap(i, j);
    }
    keys.truncate(take);
    keys
}

/// One position of a check: its value in the book and a search's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The position (the book's key).
    pub key: Key,
    /// The book's value for the side to move.
    pub book: Eval,
    /// The search's value for the side to move.
    pub search: Eval,
}

impl Checked {
    /// The position's ply (discs on the board less the 4 of the start).
    #[must_use]
    pub fn ply(&self) -> u32 {
        ply(self.key)
    }

    /// The book's value less the search's.
    #[must_use]
    pub fn difference(&self) -> Eval {
        Eval(self.book.0 - self.search.0)
    }
}

/// The line `book check` prints for a position: `ply P  book +V  search
/// +V  difference +D  BOARD` (values in discs for the side to move, the
/// position with X to move).
impl fmt::Display for Checked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = write_board_string(&Position {
            board: position_of(self.key).to_board(Color::Black),
            to_move: Color::Black,
        });
        write!(
            f,
            "ply {:2}  book {:+6.2}  search {:+6.2}  difference {:+6.2}  {board}",
            self.ply(),
            self.book.discs().0,
            self.search.discs().0,
            self.difference().discs().0,
        )
    }
}

/// Values each position of `keys` (positions of `book` with a value) by
/// a fresh search at `level` on `threads` threads and hands the results
/// to `deliver` in the order of `keys` (`false` stops).
///
/// # Panics
/// If a key has no value in `book` or no legal move.
pub fn check(
    book: &Book,
    keys: &[Key],
    level: u32,
    threads: usize,
    deliver: impl FnMut(Checked) -> bool,
) {
    ordered_work(
        keys.len() as u64,
        threads,
        || (),
        |(), k| {
            let key = keys[usize::try_from(k).expect("an index of the keys")];
            let book_value = book
                .get(key)
                .and_then(crate::engine::book::Entry::value)
                .expect("a position of the book with a value");
            Checked {
                key,
                book: book_value,
                search: search_position(key, 0, level).value,
            }
        },
        deliver,
    );
}

/// What a check found over its positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckSummary {
    /// The margin.
    pub margin: Eval,
    /// The positions checked.
    pub positions: usize,
    /// Those whose book value is within the margin of the search's.
    pub within: usize,
    /// The mean of the book's value less the search's, in discs.
    pub mean_difference: f64,
    /// The mean absolute difference, in discs.
    pub mean_absolute: f64,
    /// The largest absolute difference, in discs.
    pub largest: f64,
}

impl CheckSummary {
    /// Sums up `results` with the margin `within` (a difference of exactly
    /// the margin is within it).
    #[must_use]
    pub fn of(results: &[Checked], within: Eval) -> CheckSummary {
        let differences: Vec<f64> = results.iter().map(|r| r.difference().discs().0).collect();
        let n = differences.len().max(1) as f64;
        CheckSummary {
            margin: within,
            positions: results.len(),
            within: results
                .iter()
                .filter(|r| r.difference().0.abs() <= within.0)
                .count(),
            mean_difference: differences.iter().sum::<f64>() / n,
            mean_absolute: differences.iter().map(|d| d.abs()).sum::<f64>() / n,
            largest: differences.iter().fold(0.0, |m, d| m.max(d.abs())),
        }
    }

    /// The share of the positions within the margin, in percent (0 for no
    /// position).
    #[must_use]
    pub fn within_percent(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            100.0 * self.within as f64 / self.positions as f64
        }
    }
}

/// The summary line: `within 2.00 discs: 117 of 200 (58.5%); book less
/// search: mean +1.29, mean absolute 1.82, largest 4.92 discs`.
impl fmt::Display for CheckSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "within {:.2} discs: {} of {} ({:.1}%); book less search: mean {:+.2}, mean absolute {:.2}, largest {:.2} discs",
            self.margin.discs().0,
            self.within,
            self.positions,
            self.within_percent(),
            self.mean_difference,
            self.mean_absolute,
            self.largest
        )
    }
}
