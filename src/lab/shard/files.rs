//! The rules of a stage's file, decided on its lines: the header line with
//! its shard, the item a line must hold, and a continued file's lines.
//!
//! A stage's file is a header line (its options, and for run K of a split
//! into N the suffix ` shard K/N`), then one line per item, numbered `K`,
//! `K + N`, `K + 2N`, ... in order. A run continues an existing file when
//! it starts with the run's header: [`Continuation`] takes its lines one
//! at a time and says which are kept. [`super::Resumable`] opens, locks,
//! cuts and appends to the file; everything decided here takes no file.

use super::Shard;
use crate::lines::TextLine;
use std::borrow::Cow;
use std::fmt::Write as _;

/// What a lab file's header line starts with: `# ` and the program that
/// writes it, `reversi-lab`.
pub const PROGRAM: &str = "# reversi-lab ";

/// What the header lines of the lab's files started with before the lab
/// had its own binary (`# reversi train label: ...`): such files are still
/// read, continued and merged.
pub const FORMER_PROGRAM: &str = "# reversi ";

/// A lab file's header line in today's spelling: a line of the former
/// spelling ([`FORMER_PROGRAM`]) with [`PROGRAM`] instead; any other line
/// as it is.
#[must_use]
pub fn current_spelling(line: &str) -> Cow<'_, str> {
    match line.strip_prefix(FORMER_PROGRAM) {
        Some(rest) => Cow::Owned(format!("{PROGRAM}{rest}")),
        None => Cow::Borrowed(line),
    }
}

/// Whether a file's header line `held` is the header `header`, in either
/// spelling of the program's name.
#[must_use]
pub fn same_header(held: &str, header: &str) -> bool {
    held == header || current_spelling(held) == current_spelling(header)
}

/// What a lab file starts with: the one signature type of every file
/// kind ([`crate::files::Signature`]), under the lab's name. Its `former`
/// start is the spelling of a file written before the lab had its own
/// binary ([`FORMER_PROGRAM`]); the binary's output rule (replace only
/// files of their kind) takes it as it is.
pub use crate::files::Signature as FileKind;

/// The longest line of a stage's file (games, labels, book searches), in
/// bytes, read, continued or merged. A game line holds at most 120 moves
/// of 2 characters (every pass follows a disc placed) and three numbers:
/// under 300 bytes; a label or search line, under 100.
pub const MAX_LINE: usize = 1024;

/// The suffix a header line of a shard's file carries.
const SHARD_SUFFIX: &str = " shard ";

/// Reads `--shard K/N` (the message of a bad one as `Err`).
///
/// # Errors
/// When `text` is not `K/N` ([`Shard`]'s `FromStr`).
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
#[must_use]
pub fn split_shard(header: &str) -> (&str, Shard) {
    if let Some((base, shard)) = header.rsplit_once(SHARD_SUFFIX) {
        if let Ok(shard) = shard.parse::<Shard>() {
            return (base, shard);
        }
    }
    (header, Shard::WHOLE)
}

/// The number a header's `key N` field gives, if any.
#[must_use]
pub fn header_number(header: &str, key: &str) -> Option<u64> {
    let words: Vec<&str> = header.split(' ').collect();
    words
        .windows(2)
        .find(|w| w[0] == key)
        .and_then(|w| w[1].parse().ok())
}

message_error! {
    /// Why a stage's file is refused: the message, naming the file.
    pub struct FileRefused(pub String);
}

/// How the messages of [`check_listed`] name a list's items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListNames {
    /// An item with its number after it (`pending position`, `position`).
    pub item: &'static str,
    /// What follows the number (`""`, `" of the games' list"`).
    pub of_list: &'static str,
    /// The items after their count (`pending positions`, `of the games'
    /// list`).
    pub all: &'static str,
}

/// Checks that a line's item `held`, numbered `number`, is the item of
/// that number in the run's own `list`: a line of a stage's file holds the
/// list's item of its number. `Err` is the message (`holds another
/// position than ...`, `holds position N, beyond the ...`).
///
/// # Errors
/// When the list has no item `number`, or another one.
pub fn check_listed<T: PartialEq>(
    list: &[T],
    number: u64,
    held: &T,
    names: ListNames,
) -> Result<(), String> {
    match usize::try_from(number).ok().and_then(|i| list.get(i)) {
        Some(listed) if listed == held => Ok(()),
        Some(_) => Err(format!(
            "holds another position than {} {number}{}",
            names.item, names.of_list
        )),
        None => Err(format!(
            "holds position {number}, beyond the {} {}",
            list.len(),
            names.all
        )),
    }
}

/// What a run expects of the file it continues.
pub struct StageFile<'a> {
    /// The file as given (`--out`), for messages.
    pub out: &'a str,
    /// What the file is, for messages (`a games file of ...`).
    pub kind: &'a str,
    /// The run's header line (options and shard).
    pub header_line: &'a str,
    /// Whether a file of other options is started over.
    pub force: bool,
    /// What a line holds (`game`, `position`), for messages.
    pub noun: &'a str,
    /// Checks a line and returns its item's number; `Err` is the message.
    pub item: &'a dyn Fn(&str) -> Result<u64, String>,
}

/// What [`Continuation::take`] makes of an existing file's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineVerdict {
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
pub struct Continuation<'a> {
    file: &'a StageFile<'a>,
    shard: Shard,
    max_items: u64,
    /// The bytes of the whole lines so far.
    whole_bytes: u64,
    /// The items so far.
    count: u64,
}

impl<'a> Continuation<'a> {
    /// The rules of `file` continued by the run of `shard`, which holds at
    /// most `max_items` lines.
    #[must_use]
    pub fn new(file: &'a StageFile<'a>, shard: Shard, max_items: u64) -> Continuation<'a> {
        Continuation {
            file,
            shard,
            max_items,
            whole_bytes: 0,
            count: 0,
        }
    }

    /// Takes the next line of the file.
    ///
    /// # Errors
    /// Why the file is refused: a header of other options without `force`,
    /// a line that is not the file's, an item out of order, too many
    /// lines.
    pub fn take(&mut self, line: &TextLine) -> Result<LineVerdict, FileRefused> {
        let f = self.file;
        let out = f.out;
        let refused = |message: String| Err(FileRefused(message));
        if !line.terminated {
            return Ok(LineVerdict::Stop);
        }
        if line.number == 1 {
            // A file of the former spelling is continued as it is: its
            // header stays, the lines appended are the same.
            if !same_header(line.text, f.header_line) {
                if f.force {
                    return Ok(LineVerdict::Restart);
                }
                return refused(format!(
                    "{out} was generated with other options ({:?}); use another --out, the same options, or --force to start it over",
                    line.text
                ));
            }
        } else {
            let item = (f.item)(line.text).map_err(|e| {
                FileRefused(format!("{out} line {} {e}: not {}", line.number, f.kind))
            })?;
            let expected = self.shard.item(self.count);
            if item != expected {
                return refused(format!(
                    "{out} line {} holds {noun} {item}, expected {noun} {expected}",
                    line.number,
                    noun = f.noun
                ));
            }
            self.count += 1;
            if self.count > self.max_items {
                return refused(format!("{out} holds more than {} lines", self.max_items));
            }
        }
        self.whole_bytes += line.bytes;
        Ok(LineVerdict::Next)
    }

    /// The length the file keeps and the items it holds, or `None` when
    /// not even its header was whole (it starts over).
    #[must_use]
    pub fn end(self) -> Option<(u64, u64)> {
        (self.whole_bytes > 0).then_some((self.whole_bytes, self.count))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::lines_of;
    use super::*;

    /// A line `N rest` holds item N.
    fn number(line: &str) -> Result<u64, String> {
        line.split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("has no number: {line:?}"))
    }

    fn file<'a>(header: &'a str, force: bool) -> StageFile<'a> {
        StageFile {
            out: "out.txt",
            kind: "a test file",
            header_line: header,
            force,
            noun: "item",
            item: &number,
        }
    }

    /// The verdicts on a file's lines and the file's end.
    type Outcome = (Vec<LineVerdict>, Option<(u64, u64)>);

    /// Feeds the lines of `text` to a continuation of `file` (at most 3
    /// items): the verdicts, and the end (or the error's message).
    fn run(file: &StageFile, shard: Shard, text: &str) -> Result<Outcome, String> {
        let mut c = Continuation::new(file, shard, 3);
        let mut verdicts = Vec::new();
        for l in lines_of(text) {
            let v = c.take(&l).map_err(|e| e.0)?;
            verdicts.push(v);
            if v != LineVerdict::Next {
                break;
            }
        }
        Ok((verdicts, c.end()))
    }

    #[test]
    fn a_continued_file_keeps_its_whole_lines_and_cuts_the_last_one() {
        let f = file("# test a", false);
        let half = Shard { index: 1, count: 2 };
        let (verdicts, end) = run(&f, half, "# test a\n1 x\n3 y\n5 cut sh").unwrap();
        assert_eq!(verdicts.last(), Some(&LineVerdict::Stop));
        // The header and two lines are kept, the cut line dropped.
        assert_eq!(end, Some((9 + 4 + 4, 2)));
        // A header cut short: the file starts over.
        let (_, end) = run(&f, half, "# tes").unwrap();
        assert_eq!(end, None);
        // A header alone: kept, no item.
        assert_eq!(run(&f, half, "# test a\n").unwrap().1, Some((9, 0)));
    }

    #[test]
    fn a_continued_file_must_hold_the_runs_header_and_items_in_order() {
        let f = file("# test a", false);
        let other = run(&f, Shard::WHOLE, "# test b\n").unwrap_err();
        assert_eq!(
            other,
            "out.txt was generated with other options (\"# test b\"); use another --out, the same options, or --force to start it over"
        );
        // With force a file of other options starts over.
        let forced = file("# test a", true);
        let (verdicts, end) = run(&forced, Shard::WHOLE, "# test b\n").unwrap();
        assert_eq!((verdicts, end), (vec![LineVerdict::Restart], None));
        let e = run(&f, Shard::WHOLE, "# test a\n1 x\n").unwrap_err();
        assert_eq!(e, "out.txt line 2 holds item 1, expected item 0");
        let half = Shard { index: 1, count: 2 };
        let e = run(&f, half, "# test a\n1 x\n5 y\n").unwrap_err();
        assert_eq!(e, "out.txt line 3 holds item 5, expected item 3");
        let e = run(&f, Shard::WHOLE, "# test a\nx\n").unwrap_err();
        assert_eq!(e, "out.txt line 2 has no number: \"x\": not a test file");
        let e = run(&f, Shard::WHOLE, "# test a\n0\n1\n2\n3\n").unwrap_err();
        assert_eq!(e, "out.txt holds more than 3 lines");
    }

    #[test]
    fn a_file_of_the_former_spelling_is_continued_under_its_own_header() {
        let today = file("# reversi-lab test: a shard 1/2", false);
        let old = "# reversi test: a shard 1/2\n1 x\n3 y\n";
        let (verdicts, end) = run(&today, Shard { index: 1, count: 2 }, old).unwrap();
        assert_eq!(verdicts, vec![LineVerdict::Next; 3]);
        // Every byte is kept: the old header stays, the lines go on.
        assert_eq!(end, Some((old.len() as u64, 2)));
        // Other options in the former spelling are still other options.
        let e = run(&today, Shard::WHOLE, "# reversi test: b shard 1/2\n").unwrap_err();
        assert!(e.starts_with("out.txt was generated with other options (\"# reversi test: b"));
        // A run of the former spelling's header takes today's files too.
        let former = file("# reversi test: a", false);
        let (_, end) = run(&former, Shard::WHOLE, "# reversi-lab test: a\n0 x\n").unwrap();
        assert_eq!(end, Some((22 + 4, 1)));
    }

    #[test]
    fn headers_have_two_spellings_of_one_program() {
        assert_eq!(
            current_spelling("# reversi train label: empties 20-20"),
            "# reversi-lab train label: empties 20-20"
        );
        for line in [
            "# reversi-lab train label: x",
            "# reversix y",
            "reversi z",
            "",
        ] {
            assert_eq!(current_spelling(line), line);
        }
        assert!(same_header(
            "# reversi book search: a",
            "# reversi-lab book search: a"
        ));
        assert!(same_header(
            "# reversi-lab book search: a",
            "# reversi book search: a"
        ));
        assert!(!same_header(
            "# reversi book search: a",
            "# reversi-lab book search: b"
        ));
        assert!(!same_header("# reversix a", "# reversi-lab a"));
        let kind = FileKind {
            start: "# reversi-lab train label:",
            former: Some("# reversi train label:"),
            kind: "a label file",
        };
        assert!(kind.starts("# reversi-lab train label: empties 1"));
        assert!(kind.starts("# reversi train label: empties 1"));
        assert!(!kind.starts("# reversi train generate: seed 1"));
        let unchanged = FileKind {
            former: None,
            ..kind
        };
        assert!(!unchanged.starts("# reversi train label: empties 1"));
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
        assert_eq!(header_number("a level", "level"), None);
        assert_eq!(parse_shard("1/4"), Ok(Shard { index: 1, count: 4 }));
        assert_eq!(
            parse_shard("4/4"),
            Err("\"4/4\" is not K/N with 0 <= K < N <= 1000000".to_owned())
        );
    }

    #[test]
    fn a_line_holds_the_lists_item_of_its_number() {
        let names = ListNames {
            item: "pending position",
            of_list: "",
            all: "pending positions",
        };
        let list = ['a', 'b', 'c'];
        assert_eq!(check_listed(&list, 1, &'b', names), Ok(()));
        assert_eq!(
            check_listed(&list, 1, &'c', names),
            Err("holds another position than pending position 1".to_owned())
        );
        assert_eq!(
            check_listed(&list, 3, &'c', names),
            Err("holds position 3, beyond the 3 pending positions".to_owned())
        );
        let games = ListNames {
            item: "position",
            of_list: " of the games' list",
            all: "of the games' list",
        };
        assert_eq!(
            check_listed(&list, 0, &'c', games),
            Err("holds another position than position 0 of the games' list".to_owned())
        );
        assert_eq!(
            check_listed(&list, u64::MAX, &'c', games),
            Err(format!(
                "holds position {}, beyond the 3 of the games' list",
                u64::MAX
            ))
        );
    }
}
