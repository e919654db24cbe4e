//! The sharded, resumable files of the lab's long stages, opened, locked,
//! continued and read here by the rules of [`super`]: every stage
//! (`train generate`, `train label`, `train heldout`, `book search`,
//! `book new|add --searched`) and both merges (`train merge`, `book
//! merge`).
//!
//! A stage's file is a header line (its options, and for run K of a split
//! into N the suffix ` shard K/N`), then one line per item, numbered
//! `K`, `K + N`, `K + 2N`, ... in order. [`Resumable`] opens it: created
//! with its header, or continued after its last whole line when it starts
//! with the same header (each line checked, a last line cut short by a
//! stop dropped), one run at a time (a lock), and appends the stage's
//! lines, each whole or not at all, reporting its progress to a callback
//! ([`StageEvent`]; the front end keeps the clock and prints). A merge
//! reads every shard of one split ([`read_shards`]): each shard once,
//! every line whole and of its shard, the same header in all; the caller
//! orders the items and writes the result, the same bytes as an unsplit
//! run's.

use super::{
    Continuation, FileKind, FileRefused, LineVerdict, MergeRules, Merged, Shard, ShardMerge,
    StageFile, StageProgress, MAX_LINE,
};
use crate::files::input::CappedLines;
use crate::files::output_files::{self, InPlace, Rule};
use crate::files::signals::Critical;
use crate::files::{usage, UsageError};
use anyhow::Result;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::ops::Range;
use std::path::Path;

/// What a stage's run tells its front end as it goes: lines to show
/// (`Note`), its file opened with the items it holds (`Opened`: when
/// they are all there, nothing runs), and each item written (`Written`,
/// the items done in all).
#[derive(Clone, Debug, PartialEq)]
pub enum StageEvent {
    /// A line about the run (what it will do), for stderr.
    Note(String),
    /// The file is open: how far the run's shard is.
    Opened(StageProgress),
    /// `done` of the shard's items are in the file.
    Written(u64),
}

/// A stage's file of numbered lines after a header line, written a line
/// at a time and continued when run again (games, labels, searches): its
/// signature, why a line is not one of its lines, the run's shard of the
/// stage's items and how its progress is named. Every stage opens,
/// continues and writes its file with [`Resumable::run`].
pub struct Resumable<'a> {
    /// What the file starts with.
    pub signature: FileKind,
    /// The path as given.
    pub out: &'a str,
    /// The header line (options and shard).
    pub header_line: &'a str,
    /// Whether a file of other options is started over.
    pub force: bool,
    /// What a line holds (`game`, `position`), for messages.
    pub noun: &'static str,
    /// Checks a line and returns its item's number.
    pub item: &'a dyn Fn(&str) -> Result<u64, String>,
    /// The run's shard of the items.
    pub shard: Shard,
    /// The stage's items (of every shard).
    pub items: u64,
    /// The most lines the file may hold.
    pub max_lines: u64,
    /// What runs and what its items are, for the progress lines
    /// (`generate`, `games`).
    pub progress: (&'static str, &'static str),
}

impl Resumable<'_> {
    /// Opens the file (created, or continued after its last whole line)
    /// and appends the lines that `stage` delivers for the shard's items
    /// `done..total` (numbered within the shard: item `k` is
    /// `shard.item(k)`), where `done` are the lines the file holds
    /// already, telling `report` how far it is
    /// ([`StageEvent::Opened`], then [`StageEvent::Written`] after each
    /// line).
    ///
    /// # Errors
    /// A file refused or that cannot be read or written ([`UsageError`]).
    pub fn run(
        &self,
        stage: impl FnOnce(Range<u64>, &mut dyn FnMut(String) -> bool),
        report: &mut dyn FnMut(StageEvent),
    ) -> Result<()> {
        let (file, done) = self.open()?;
        let total = self.shard.items_below(self.items);
        let (what, unit) = self.progress;
        let progress = StageProgress {
            what,
            unit,
            done_before: done,
            total,
        };
        report(StageEvent::Opened(progress));
        if progress.is_done() {
            return Ok(());
        }
        append_lines(file, self.out, done, report, |deliver| {
            stage(done..total, deliver);
        })
    }

    /// Opens the file to append to: continued when it starts with the same
    /// header (its whole lines counted, each checked and numbered
    /// `shard.item(0)`, `shard.item(1)`, ..., and a last line without its
    /// newline, an interrupted write, cut off), or started with the header
    /// (created, taken when it is empty, or emptied when `force` starts a
    /// file of other options over). The file stays locked while it is
    /// open, so that one run at a time writes it: a second run on the same
    /// file is refused. Returns the file and the number of lines it holds.
    fn open(&self) -> Result<(File, u64)> {
        // A file of 0 bytes is one a run made and was killed (SIGKILL, a
        // power cut) before giving it its header: nothing to keep, and no
        // other command writes an empty file, so it is started as new.
        let empty = std::fs::metadata(self.out).is_ok_and(|m| m.is_file() && m.len() == 0);
        let rule = Rule::written_by(self.signature, self.force || empty, InPlace::Refused);
        let planned = output_files::plan_output("--out", Path::new(self.out), &rule)?;
        // A signal ends the run before the file is made or once its header
        // is written, never between (an empty file would be refused).
        let making = Critical::open();
        let target = planned.target();
        let out = self.out;
        let cannot = |e: std::io::Error| UsageError(format!("cannot write {out}: {e}"));
        let opened = OpenOptions::new()
            .read(true)
            .append(true)
            .create_new(true)
            .open(target);
        let (file, created) = match opened {
            Ok(file) => (file, true),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let file = OpenOptions::new()
                    .read(true)
                    .append(true)
                    .open(target)
                    .map_err(|e| UsageError(format!("cannot continue {out}: {e}")))?;
                (file, false)
            }
            Err(e) => return Err(cannot(e).into()),
        };
        lock_for_this_run(&file, out)?;
        if !created {
            // Reading the existing file changes nothing before its one
            // cut: a signal may end the run while a long file is read.
            drop(making);
            if let Some(count) = self.continued(&file)? {
                return Ok((file, count));
            }
        }
        let _header = Critical::open();
        let written = file
            .set_len(0)
            .and_then(|()| (&file).write_all(format!("{}\n", self.header_line).as_bytes()));
        if let Err(e) = written {
            // A file this run made and could not give its header (a full
            // disk) is removed: left empty, the run again would refuse it.
            if created {
                let _ = std::fs::remove_file(target);
            }
            return Err(cannot(e).into());
        }
        Ok((file, 0))
    }

    /// The number of lines of the existing `file` (cut after its last
    /// whole line), or `None` if it is to be started over (not even its
    /// header is whole, or it is of other options and `force` says so).
    fn continued(&self, file: &File) -> Result<Option<u64>> {
        let out = self.out;
        let cannot = |e: std::io::Error| UsageError(format!("cannot continue {out}: {e}"));
        let mut lines = CappedLines::new(file.try_clone().map_err(cannot)?, out, MAX_LINE);
        let rules = StageFile {
            out,
            kind: self.signature.kind,
            header_line: self.header_line,
            force: self.force,
            noun: self.noun,
            item: self.item,
        };
        let mut continuation = Continuation::new(&rules, self.shard, self.max_lines);
        while let Some(line) = lines.next_line()? {
            match continuation.take(&line).map_err(refused)? {
                LineVerdict::Next => {}
                LineVerdict::Stop => break,
                LineVerdict::Restart => return Ok(None),
            }
        }
        let Some((whole_bytes, count)) = continuation.end() else {
            return Ok(None);
        };
        file.set_len(whole_bytes).map_err(cannot)?;
        Ok(Some(count))
    }
}

/// Locks `file` (the output `out`) for this run: a file another run holds
/// is refused. Where the file system cannot lock, the run goes on
/// unlocked.
fn lock_for_this_run(file: &File, out: &str) -> Result<()> {
    match file.try_lock() {
        Err(std::fs::TryLockError::WouldBlock) => usage(format!(
            "{out} is being written by another run (it is locked); wait for that run to end or give another --out"
        )),
        Ok(()) | Err(std::fs::TryLockError::Error(_)) => Ok(()),
    }
}

/// Reads `inputs`, the files of every shard of one split (lines of at
/// most [`MAX_LINE`] bytes), under the merge's `rules`: each shard once,
/// all of one split and of one header, every line whole and of its shard
/// ([`ShardMerge`]).
///
/// # Errors
/// A file that cannot be read or is refused ([`UsageError`]).
pub fn read_shards<T>(rules: &MergeRules<T>, inputs: &[String]) -> Result<Merged<T>> {
    let mut merge = ShardMerge::new(rules, inputs.first().map_or("", String::as_str));
    for path in inputs {
        let mut lines = CappedLines::open(Path::new(path), path, MAX_LINE)?;
        let shard = merge
            .header(path, lines.next_line()?.as_ref())
            .map_err(refused)?;
        while let Some(line) = lines.next_line()? {
            merge.line(path, shard, &line).map_err(refused)?;
        }
    }
    Ok(merge.finish().map_err(refused)?)
}

/// A refused file's message as the one `error:` line.
fn refused(e: FileRefused) -> UsageError {
    UsageError(e.0)
}

/// Appends the lines a stage's `run` delivers to `file` (holding `done`
/// lines), reporting each to `report`, until `run` ends or a write fails
/// (then `deliver` returns `false` and `run` stops). A write that fails
/// mid-run (a full disk) is an output file that cannot be written, exit
/// status 2 like every other output file's; the file keeps its whole
/// lines, and running the stage again continues it.
fn append_lines(
    mut file: File,
    out: &str,
    done: u64,
    report: &mut dyn FnMut(StageEvent),
    run: impl FnOnce(&mut dyn FnMut(String) -> bool),
) -> Result<()> {
    let mut written = done;
    let mut failure = None;
    run(&mut |mut line: String| {
        // One write of the whole line, which a signal does not cut.
        line.push('\n');
        let appended = {
            let _critical = Critical::open();
            file.write_all(line.as_bytes())
        };
        if let Err(e) = appended {
            failure = Some(e);
            return false;
        }
        written += 1;
        report(StageEvent::Written(written));
        true
    });
    if let Some(e) = failure.or_else(|| file.flush().err()) {
        return usage(format!(
            "cannot write output file {out}: {e}; its whole lines are kept, run the stage again to continue it"
        ));
    }
    Ok(())
}
