//! Splitting a long stage's work between independent runs.
//!
//! Every heavy stage (playing games, labelling positions, searching a
//! book's positions) works through a numbered list of items that does not
//! depend on how the work is split: game `i` of a seed, or position `i` of
//! the stage's position list. Run
//! `K` of `N` takes the items whose number is `K` modulo `N`, writes them to
//! its own file, and a merge orders the union by item: the merged file is
//! the same bytes whatever `N` and the thread counts were. The runs are
//! started by a scheduler (GNU parallel, a Slurm job array), never by the
//! pipeline itself. Within a run, [`ordered_work`] works through the items
//! on several threads and delivers them in order.
//!
//! The rules of the runs' files are decided here on their lines, without a
//! file: a header carries its shard ([`push_shard`], [`split_shard`]), a
//! line holds the list's item of its number ([`check_listed`]), a run
//! continues its file after the last whole line ([`Continuation`]), and a
//! merge takes every shard of one split once ([`ShardMerge`]), and a run's
//! progress lines say its rate ([`StageProgress`]). [`Resumable`] opens,
//! locks, continues and appends to a stage's file by these rules,
//! reporting its progress to a callback ([`StageEvent`]), and
//! [`read_shards`] reads a split's files for a merge.

use std::fmt;
use std::str::FromStr;

mod files;
mod merge;
mod progress;
mod stage;

pub use files::{
    check_listed, current_spelling, header_number, parse_shard, push_shard, same_header,
    split_shard, Continuation, FileKind, FileRefused, LineVerdict, ListNames, StageFile,
    FORMER_PROGRAM, MAX_LINE, PROGRAM,
};
pub use merge::{ItemReader, MergeRules, Merged, ShardMerge};
pub use progress::{progress_due, StageProgress, PROGRESS_EVERY};
pub use stage::{read_shards, Resumable, StageEvent};

/// The items `index` modulo `count` of a numbered list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// This run's number, below `count`.
    pub index: u64,
    /// How many runs share the list.
    pub count: u64,
}

impl Shard {
    /// The whole list, in one run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether item `item` belongs to this run.
    #[must_use]
    pub const fn holds(self, item: u64) -> bool {
        item % self.count == self.index
    }

    /// The number of this run's `k`-th item (from 0).
    #[must_use]
    pub const fn item(self, k: u64) -> u64 {
        self.index + k * self.count
    }

    /// How many of the items `0..total` belong to this run.
    #[must_use]
    pub const fn items_below(self, total: u64) -> u64 {
        if total <= self.index {
            0
        } else {
            (total - self.index).div_ceil(self.count)
        }
    }

    /// Whether this is the whole list.
    #[must_use]
    pub const fn is_whole(self) -> bool {
        self.count == 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

message_error! {
    /// Why a text is not a shard.
    pub struct ShardError(String);
}

/// The most runs a list may be split between.
pub const MAX_SHARDS: u64 = 1_000_000;

impl FromStr for Shard {
    type Err = ShardError;

    /// Reads `K/N` (`0 <= K < N <= 1,000,000`).
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || {
            ShardError(format!(
                "{text:?} is not K/N with 0 <= K < N <= {MAX_SHARDS}"
            ))
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let number = |t: &str| {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u64>().ok())
                .flatten()
        };
        match (number(k), number(n)) {
            (Some(index), Some(count)) if index < count && count <= MAX_SHARDS => {
                Ok(Shard { index, count })
            }
            _ => Err(bad()),
        }
    }
}

/// Works through items `0..count` on `threads` threads, each thread with
/// its own state from `state`, and hands the results to `deliver` in item
/// order (so a file written from them is the same whatever the thread
/// count). `deliver` returns `false` to stop early.
pub fn ordered_work<S, T: Send>(
    count: u64,
    threads: usize,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, u64) -> T + Sync,
    mut deliver: impl FnMut(T) -> bool,
) {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::mpsc;
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (send, receive) = mpsc::sync_channel::<(u64, T)>(64);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let send = send.clone();
            let (next, stop, state, work) = (&next, &stop, &state, &work);
            scope.spawn(move || {
                let mut own = state();
                loop {
                    let item = next.fetch_add(1, Ordering::Relaxed);
                    if item >= count || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    if send.send((item, work(&mut own, item))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        // Reorder: items finish out of order on several threads.
        let mut waiting = BTreeMap::new();
        let mut expected = 0;
        for (item, result) in receive.iter() {
            waiting.insert(item, result);
            while let Some(result) = waiting.remove(&expected) {
                expected += 1;
                if !deliver(result) {
                    stop.store(true, Ordering::Relaxed);
                    // Drain so the workers are not blocked on a full channel.
                    for _ in receive.iter() {}
                    return;
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::TextLine;

    /// The lines of `text` as a file's reader gives them (a last line
    /// without `\n` is cut short).
    pub(super) fn lines_of(text: &str) -> Vec<TextLine<'_>> {
        text.split_inclusive('\n')
            .enumerate()
            .map(|(i, l)| TextLine {
                number: i + 1,
                text: l.strip_suffix('\n').unwrap_or(l),
                bytes: l.len() as u64,
                terminated: l.ends_with('\n'),
            })
            .collect()
    }

    #[test]
    fn shards_partition_the_list() {
        for count in 1..6u64 {
            let shards: Vec<Shard> = (0..count).map(|index| Shard { index, count }).collect();
            for total in 0..20u64 {
                let mut seen = vec![0; total as usize];
                for s in &shards {
                    let n = s.items_below(total);
                    for k in 0..n {
                        let item = s.item(k);
                        assert!(item < total && s.holds(item));
                        seen[item as usize] += 1;
                    }
                    assert_eq!(n, (0..total).filter(|&i| s.holds(i)).count() as u64);
                }
                assert!(seen.iter().all(|&c| c == 1), "{count} {total}");
            }
        }
    }

    #[test]
    fn shards_read_and_print() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        assert_eq!("0/1".parse(), Ok(Shard::WHOLE));
        assert_eq!(Shard { index: 3, count: 8 }.to_string(), "3/8");
        for bad in [
            "",
            "1",
            "5/5",
            "1/0",
            "-1/3",
            "+1/3",
            "1/3/4",
            "a/b",
            " 1/3",
            "0/1000001",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad:?}");
        }
    }
}
