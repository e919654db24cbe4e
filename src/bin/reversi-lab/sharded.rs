//! The sharded, resumable files of the lab's long stages, written once
//! for every stage (`train generate`, `train label`, `train heldout`,
//! `book search`, `book new|add --searched`) and both merges (`train
//! merge`, `book merge`).
//!
//! A stage's file is a header line (its options, and for run K of a split
//! into N the suffix ` shard K/N`), then one line per item, numbered
//! `K`, `K + N`, `K + 2N`, ... in order. [`Resumable`] opens it: created
//! with its header, or continued after its last whole line when it starts
//! with the same header (each line checked, a last line cut short by a
//! stop dropped), one run at a time (a lock). [`append_lines`] writes the
//! stage's lines, each whole or not at all, with [`Progress`] on stderr. A
//! merge reads every shard of one split ([`ShardFiles::read`]): each shard
//! once, every line whole and of its shard, the same header in all; the
//! caller orders the items and writes the result, the same bytes as an
//! unsplit run's.
//!
//! The rules on lines and headers ([`split_shard`], [`push_shard`],
//! [`Continuation`], [`ShardSet`]) take no file: they are unit-tested
//! below.

use crate::cli::input::{CappedLines, TextLine};
use crate::cli::output_files::{self, InPlace, Rule, Signature};
use crate::cli::signals::Critical;
use crate::cli::{usage, UsageError};
use anyhow::Result;
use reversi::lab::train::Shard;
use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// The longest line of a continued stage file, in bytes (a game line holds
/// at most 120 moves of 2 characters and three numbers: under 300 bytes).
const RESUMED_MAX_LINE: usize = 1024;

/// The suffix a header line of a shard's file carries.
const SHARD_SUFFIX: &str = " shard ";

/// Reads `--shard K/N`.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse::<Shard>().map_err(|e| e.to_string())
}

/// Appends the shard to a header line (nothing for the whole list).
pub fn push_shard(line: &mut String, shard: Shard) {
    if !shard.is_whole() {
        let _ = write!(line, "{SHARD_SUFFIX}{shard}");
    }
}

/// A header line without its shard, and the shard (the whole list when it
/// names none).
pub fn split_shard(header: &str) -> (&str, Shard) {
    if let Some((base, shard)) = header.rsplit_once(SHARD_SUFFIX) {
        if let Ok(shard) = shard.parse::<Shard>() {
            return (base, shard);
        }
    }
    (header, Shard::WHOLE)
}

/// The number a header's `key N` field gives, if any.
pub fn header_number(header: &str, key: &str) -> Option<u64> {
    let words: Vec<&str> = header.split(' ').collect();
    words
        .windows(2)
        .find(|w| w[0] == key)
        .and_then(|w| w[1].parse().ok())
}

/// A file of numbered lines after a header line, written a line at a time
/// and continued when run again (games, labels): its signature, and why a
/// line is not one of its lines.
pub struct Resumable<'a> {
    /// What the file starts with.
    pub signature: Signature,
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
}

impl Resumable<'_> {
    /// Opens the file to append to: continued when it starts with the same
    /// header (its whole lines counted, each checked and numbered
    /// `shard.item(0)`, `shard.item(1)`, ..., and a last line without its
    /// newline, an interrupted write, cut off), or started with the header
    /// (created, or emptied when `force` starts a file of other options
    /// over). The file stays locked while it is open, so that one run at a
    /// time writes it: a second run on the same file is refused. Returns
    /// the file and the number of lines it holds.
    pub fn open(&self, shard: Shard, max_items: u64) -> Result<(File, u64)> {
        let rule = Rule {
            ours: Some(self.signature),
            force: self.force,
            in_place: InPlace::Refused,
        };
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
            if let Some(count) = self.continued(&file, shard, max_items)? {
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
    fn continued(&self, file: &File, shard: Shard, max_items: u64) -> Result<Option<u64>> {
        let out = self.out;
        let cannot = |e: std::io::Error| UsageError(format!("cannot continue {out}: {e}"));
        let mut lines = CappedLines::new(file.try_clone().map_err(cannot)?, out, RESUMED_MAX_LINE);
        let mut continuation = Continuation::new(self, shard, max_items);
        while let Some(line) = lines.next_line()? {
            match continuation.take(&line)? {
                Verdict::Next => {}
                Verdict::Stop => break,
                Verdict::Restart => return Ok(None),
            }
        }
        let Some((whole_bytes, count)) = continuation.end() else {
            return Ok(None);
        };
        file.set_len(whole_bytes).map_err(cannot)?;
        Ok(Some(count))
    }
}

/// What [`Continuation::take`] makes of an existing file's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// A whole line of the file: read on.
    Next,
    /// A last line cut short (an interrupted write): the file ends before
    /// it.
    Stop,
    /// A header of other options with `force`: the file starts over.
    Restart,
}

/// The rules of a continued file, a line at a time: its header is the
/// run's (or, with `force`, it starts over), its items are the shard's in
/// order, at most `max_items`, and it ends after its last whole line.
struct Continuation<'a> {
    file: &'a Resumable<'a>,
    shard: Shard,
    max_items: u64,
    /// The bytes of the whole lines so far.
    whole_bytes: u64,
    /// The items so far.
    count: u64,
}

impl<'a> Continuation<'a> {
    fn new(file: &'a Resumable<'a>, shard: Shard, max_items: u64) -> Continuation<'a> {
        Continuation {
            file,
            shard,
            max_items,
            whole_bytes: 0,
            count: 0,
        }
    }

    /// Takes the next line of the file; an error refuses the file.
    fn take(&mut self, line: &TextLine) -> Result<Verdict> {
        let f = self.file;
        let out = f.out;
        if !line.terminated {
            return Ok(Verdict::Stop);
        }
        if line.number == 1 {
            if line.text != f.header_line {
                if f.force {
                    return Ok(Verdict::Restart);
                }
                return usage(format!(
                    "{out} was generated with other options ({:?}); use another --out, the same options, or --force to start it over",
                    line.text
                ));
            }
        } else {
            let item = (f.item)(line.text).map_err(|e| {
                UsageError(format!(
                    "{out} line {} {e}: not {}",
                    line.number, f.signature.kind
                ))
            })?;
            let expected = self.shard.item(self.count);
            if item != expected {
                return usage(format!(
                    "{out} line {} holds {noun} {item}, expected {noun} {expected}",
                    line.number,
                    noun = f.noun
                ));
            }
            self.count += 1;
            if self.count > self.max_items {
                return usage(format!("{out} holds more than {} lines", self.max_items));
            }
        }
        self.whole_bytes += line.bytes;
        Ok(Verdict::Next)
    }

    /// The length the file keeps and the items it holds, or `None` when
    /// not even its header was whole (it starts over).
    fn end(self) -> Option<(u64, u64)> {
        (self.whole_bytes > 0).then_some((self.whole_bytes, self.count))
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

/// The shards given to a merge (of `train merge` and `book merge`): each
/// once, all of one split, each line whole and of its shard.
#[derive(Debug, Default)]
struct ShardSet {
    shards: Vec<Shard>,
}

impl ShardSet {
    /// Takes `shard`, the split of the file `path`; `first` (the first
    /// input) names the split in messages.
    fn add(&mut self, path: &str, shard: Shard, first: &str) -> Result<()> {
        if self.shards.iter().any(|s| s.count != shard.count) {
            return usage(format!(
                "{path} is shard {shard}, but {first} is of another split"
            ));
        }
        if self.shards.contains(&shard) {
            return usage(format!("shard {shard} is given twice ({path})"));
        }
        self.shards.push(shard);
        Ok(())
    }

    /// Refuses line `number` of `path` when it is cut short (`again`:
    /// what to run again, `stage` or `search`).
    fn whole(path: &str, number: usize, terminated: bool, again: &str) -> Result<()> {
        if terminated {
            return Ok(());
        }
        usage(format!(
            "{path} line {number} is cut short: run its {again} again to finish it before merging"
        ))
    }

    /// Refuses item `item` (`noun`: `number`, `position`) on line `number`
    /// of `path` when it is not of `shard`.
    fn holds(path: &str, number: usize, shard: Shard, item: u64, noun: &str) -> Result<()> {
        if shard.holds(item) {
            return Ok(());
        }
        usage(format!(
            "{path} line {number} holds {noun} {item}, which is not of shard {shard}"
        ))
    }

    /// Refuses a split with a shard missing.
    fn complete(&self) -> Result<()> {
        let count = self.shards.first().map_or(1, |s| s.count);
        match (0..count).find(|&k| !self.shards.iter().any(|s| s.index == k)) {
            Some(missing) => usage(format!(
                "shard {missing}/{count} is missing: every shard of the split is needed"
            )),
            None => Ok(()),
        }
    }
}

/// Reads a line of a shard's file, given the file's header: the line's
/// number and its item, or why it is not a line of the file.
pub type ItemReader<'a, T> = &'a dyn Fn(&str, &str) -> Result<(u64, T), String>;

/// The files of one split stage to merge: what they are, and how a line
/// gives its item.
pub struct ShardFiles<'a, T> {
    /// The signatures a file may start with (its header line).
    pub signatures: &'a [Signature],
    /// What the files are, for messages (`a games or label file`).
    pub kind: &'a str,
    /// Checks a file's header (its shard cut off) before the others are
    /// compared with it; `Err` is the message.
    pub check_header: &'a dyn Fn(&str, &str) -> Result<(), String>,
    /// What to run again for a line cut short (`stage`, `search`).
    pub again: &'a str,
    /// What a line's number is (`number`, `position`), for messages.
    pub noun: &'a str,
    /// The lines all the files may hold together.
    pub max_items: u64,
    /// The longest line, in bytes.
    pub max_line: usize,
    /// A line's item and its number, given the file's header; `Err` is
    /// the message.
    pub item: ItemReader<'a, T>,
}

/// The files' common header (without the shard), its signature, and every
/// item with its number, in the files' order.
pub struct Shards<T> {
    /// The header line of an unsplit run.
    pub header: String,
    /// The signature it starts with.
    pub signature: Signature,
    /// The items, each with its number.
    pub items: Vec<(u64, T)>,
}

impl<T> ShardFiles<'_, T> {
    /// Reads `inputs`, the files of every shard of one split: each shard
    /// once, all of one split and of one header, every line whole and of
    /// its shard.
    pub fn read(&self, inputs: &[String]) -> Result<Shards<T>> {
        let mut base: Option<(String, Signature)> = None;
        let mut shards = ShardSet::default();
        let mut items = Vec::new();
        for path in inputs {
            let mut lines = CappedLines::open(Path::new(path), path, self.max_line)?;
            let Some(first) = lines.next_line()? else {
                return usage(format!("{path} is empty: not {}", self.kind));
            };
            let Some(&signature) = self
                .signatures
                .iter()
                .find(|s| first.text.starts_with(s.start))
            else {
                return usage(format!("{path} is not {}", self.kind));
            };
            let (header, shard) = split_shard(first.text);
            (self.check_header)(path, header).map_err(UsageError)?;
            match &base {
                None => base = Some((header.to_owned(), signature)),
                Some((b, _)) if b == header => {}
                Some((b, _)) => {
                    return usage(format!(
                        "{path} is of another stage than {}: {header:?} against {b:?}",
                        inputs[0]
                    ))
                }
            }
            shards.add(path, shard, &inputs[0])?;
            let header = base.as_ref().map_or("", |(b, _)| b.as_str()).to_owned();
            while let Some(line) = lines.next_line()? {
                ShardSet::whole(path, line.number, line.terminated, self.again)?;
                let (number, item) = (self.item)(&header, line.text)
                    .map_err(|e| UsageError(format!("{path} line {} {e}", line.number)))?;
                ShardSet::holds(path, line.number, shard, number, self.noun)?;
                if items.len() as u64 >= self.max_items {
                    return usage(format!(
                        "{path} line {}: the files hold more than {} lines",
                        line.number, self.max_items
                    ));
                }
                items.push((number, item));
            }
        }
        shards.complete()?;
        let (header, signature) = base.expect("at least one input");
        Ok(Shards {
            header,
            signature,
            items,
        })
    }
}

/// Progress of a long run on stderr, at most every 2 seconds.
pub struct Progress {
    what: &'static str,
    unit: &'static str,
    quiet: bool,
    start: Instant,
    last: Instant,
    done_before: u64,
    total: u64,
}

impl Progress {
    pub fn new(
        what: &'static str,
        unit: &'static str,
        quiet: bool,
        done_before: u64,
        total: u64,
    ) -> Progress {
        let now = Instant::now();
        Progress {
            what,
            unit,
            quiet,
            start: now,
            last: now,
            done_before,
            total,
        }
    }

    /// Reports that `done` of the total are done.
    pub fn at(&mut self, done: u64) {
        if self.quiet || (self.last.elapsed().as_secs_f64() < 2.0 && done != self.total) {
            return;
        }
        self.last = Instant::now();
        let rate = (done - self.done_before) as f64 / self.start.elapsed().as_secs_f64();
        eprintln!(
            "{}: {done}/{} {}, {rate:.1}/s, about {:.0} s left",
            self.what,
            self.total,
            self.unit,
            (self.total - done) as f64 / rate
        );
    }
}

/// Appends the lines a stage's `run` delivers to `file`, with `progress`
/// on stderr, until `run` ends or a write fails (then `deliver` returns
/// `false` and `run` stops). A write that fails mid-run (a full disk) is
/// an output file that cannot be written, exit status 2 like every other
/// output file's; the file keeps its whole lines, and running the stage
/// again continues it.
pub fn append_lines(
    mut file: File,
    out: &str,
    mut progress: Progress,
    run: impl FnOnce(&mut dyn FnMut(String) -> bool),
) -> Result<()> {
    if progress.done_before >= progress.total {
        if !progress.quiet {
            eprintln!(
                "{}: {out} already holds its {} {}",
                progress.what, progress.done_before, progress.unit
            );
        }
        return Ok(());
    }
    let mut written = progress.done_before;
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
        progress.at(written);
        true
    });
    if let Some(e) = failure.or_else(|| file.flush().err()) {
        return usage(format!(
            "cannot write output file {out}: {e}; its whole lines are kept, run the stage again to continue it"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(number: usize, text: &str, terminated: bool) -> TextLine<'_> {
        TextLine {
            number,
            text,
            bytes: text.len() as u64 + u64::from(terminated),
            terminated,
        }
    }

    /// A line `N rest` holds item N.
    fn number(line: &str) -> Result<u64, String> {
        line.split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("has no number: {line:?}"))
    }

    fn file<'a>(header: &'a str, force: bool) -> Resumable<'a> {
        Resumable {
            signature: Signature {
                start: "# test",
                kind: "a test file",
            },
            out: "out.txt",
            header_line: header,
            force,
            noun: "item",
            item: &number,
        }
    }

    /// The verdicts on a file's lines and the file's end.
    type Outcome = (Vec<Verdict>, Option<(u64, u64)>);

    /// Feeds `lines` to a continuation of `resumable`: the verdicts, and
    /// the end (or the error's message).
    fn run(resumable: &Resumable, shard: Shard, lines: &[TextLine]) -> Result<Outcome, String> {
        let mut c = Continuation::new(resumable, shard, 3);
        let mut verdicts = Vec::new();
        for l in lines {
            let v = c.take(l).map_err(|e| e.to_string())?;
            verdicts.push(v);
            if v != Verdict::Next {
                break;
            }
        }
        Ok((verdicts, c.end()))
    }

    #[test]
    fn a_continued_file_keeps_its_whole_lines_and_cuts_the_last_one() {
        let f = file("# test a", false);
        let half = Shard { index: 1, count: 2 };
        let lines = [
            line(1, "# test a", true),
            line(2, "1 x", true),
            line(3, "3 y", true),
            line(4, "5 cut sh", false),
        ];
        let (verdicts, end) = run(&f, half, &lines).unwrap();
        assert_eq!(verdicts.last(), Some(&Verdict::Stop));
        // The header and two lines are kept, the cut line dropped.
        assert_eq!(end, Some((9 + 4 + 4, 2)));
        // A header cut short: the file starts over.
        let (_, end) = run(&f, half, &[line(1, "# tes", false)]).unwrap();
        assert_eq!(end, None);
    }

    #[test]
    fn a_continued_file_must_hold_the_runs_header_and_items_in_order() {
        let f = file("# test a", false);
        let other = run(&f, Shard::WHOLE, &[line(1, "# test b", true)]).unwrap_err();
        assert!(
            other.contains("was generated with other options"),
            "{other}"
        );
        // With force a file of other options starts over.
        let forced = file("# test a", true);
        let (verdicts, end) = run(&forced, Shard::WHOLE, &[line(1, "# test b", true)]).unwrap();
        assert_eq!((verdicts, end), (vec![Verdict::Restart], None));
        let skipped = [line(1, "# test a", true), line(2, "1 x", true)];
        let e = run(&f, Shard::WHOLE, &skipped).unwrap_err();
        assert_eq!(e, "out.txt line 2 holds item 1, expected item 0");
        let bad = [line(1, "# test a", true), line(2, "x", true)];
        let e = run(&f, Shard::WHOLE, &bad).unwrap_err();
        assert!(e.ends_with("has no number: \"x\": not a test file"), "{e}");
        let many: Vec<TextLine> = std::iter::once(line(1, "# test a", true))
            .chain(
                ["0", "1", "2", "3"]
                    .iter()
                    .enumerate()
                    .map(|(i, t)| line(i + 2, t, true)),
            )
            .collect();
        let e = run(&f, Shard::WHOLE, &many).unwrap_err();
        assert_eq!(e, "out.txt holds more than 3 lines");
    }

    #[test]
    fn headers_carry_their_shard() {
        let mut header = String::from("# reversi train label: empties 20-20");
        push_shard(&mut header, Shard::WHOLE);
        assert_eq!(split_shard(&header), (header.as_str(), Shard::WHOLE));
        push_shard(&mut header, Shard { index: 2, count: 3 });
        assert_eq!(header, "# reversi train label: empties 20-20 shard 2/3");
        assert_eq!(
            split_shard(&header),
            (
                "# reversi train label: empties 20-20",
                Shard { index: 2, count: 3 }
            )
        );
        // A suffix that is not a shard stays in the header.
        assert_eq!(split_shard("# x shard 3/3").1, Shard::WHOLE);
        assert_eq!(header_number("a level 12 book 7", "level"), Some(12));
        assert_eq!(header_number("a level x", "level"), None);
    }

    #[test]
    fn a_merge_takes_every_shard_of_one_split_once() {
        let message = |r: Result<()>| r.unwrap_err().to_string();
        let mut set = ShardSet::default();
        set.add("a", Shard { index: 0, count: 3 }, "a").unwrap();
        set.add("b", Shard { index: 2, count: 3 }, "a").unwrap();
        assert_eq!(
            message(set.complete()),
            "shard 1/3 is missing: every shard of the split is needed"
        );
        assert_eq!(
            message(set.add("c", Shard { index: 0, count: 3 }, "a")),
            "shard 0/3 is given twice (c)"
        );
        assert_eq!(
            message(set.add("d", Shard { index: 1, count: 2 }, "a")),
            "d is shard 1/2, but a is of another split"
        );
        set.add("e", Shard { index: 1, count: 3 }, "a").unwrap();
        set.complete().unwrap();
        assert!(ShardSet::whole("a", 3, true, "stage").is_ok());
        assert!(message(ShardSet::whole("a", 3, false, "stage")).contains("a line 3 is cut short"));
        let half = Shard { index: 1, count: 2 };
        assert!(ShardSet::holds("a", 2, half, 5, "number").is_ok());
        assert_eq!(
            message(ShardSet::holds("a", 2, half, 4, "number")),
            "a line 2 holds number 4, which is not of shard 1/2"
        );
    }
}
