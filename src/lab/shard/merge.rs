//! The rules of a merge of a split stage's files (`train merge`, `book
//! merge`): every shard of one split once, of one header, every line whole
//! and of its shard. [`ShardMerge`] takes the files' lines one at a time
//! (the front end reads them) and gives the files' common header and every
//! item with its number; the caller orders the items and writes the
//! result, the same bytes as an unsplit run's.

use super::files::{current_spelling, split_shard, FileKind, FileRefused};
use super::Shard;
use crate::lines::TextLine;

/// `Err` holding a [`FileRefused`] with `message`.
fn refused<T>(message: String) -> Result<T, FileRefused> {
    Err(FileRefused(message))
}

/// The shards given to a merge: each once, all of one split.
#[derive(Debug, Default)]
struct ShardSet {
    shards: Vec<Shard>,
}

impl ShardSet {
    /// Takes `shard`, the split of the file `path`; `first` (the first
    /// input) names the split in messages.
    fn add(&mut self, path: &str, shard: Shard, first: &str) -> Result<(), FileRefused> {
        if self.shards.iter().any(|s| s.count != shard.count) {
            return refused(format!(
                "{path} is shard {shard}, but {first} is of another split"
            ));
        }
        if self.shards.contains(&shard) {
            return refused(format!("shard {shard} is given twice ({path})"));
        }
        self.shards.push(shard);
        Ok(())
    }

    /// Refuses a split with a shard missing (none given: shard 0/1).
    fn complete(&self) -> Result<(), FileRefused> {
        let count = self.shards.first().map_or(1, |s| s.count);
        match (0..count).find(|&k| !self.shards.iter().any(|s| s.index == k)) {
            Some(missing) => refused(format!(
                "shard {missing}/{count} is missing: every shard of the split is needed"
            )),
            None => Ok(()),
        }
    }
}

/// Reads a line of a shard's file, given the file's header: the line's
/// number and its item, or why it is not a line of the file.
pub type ItemReader<'a, T> = &'a dyn Fn(&str, &str) -> Result<(u64, T), String>;

/// What the files of one split stage are, and how a line gives its item.
pub struct MergeRules<'a, T> {
    /// The kinds of files merged (what a file's header line may start
    /// with, in either spelling).
    pub kinds: &'a [FileKind],
    /// What the files are, for messages (`a games or label file`).
    pub kind: &'a str,
    /// Checks a file's header (its shard cut off) before the others are
    /// compared with it, given the file's path; `Err` is the message.
    pub check_header: &'a dyn Fn(&str, &str) -> Result<(), String>,
    /// What to run again for a line cut short (`stage`, `search`).
    pub again: &'a str,
    /// What a line's number is (`number`, `position`), for messages.
    pub noun: &'a str,
    /// The lines all the files may hold together.
    pub max_items: u64,
    /// A line's item and its number, given the file's header; `Err` is
    /// the message.
    pub item: ItemReader<'a, T>,
}

/// The files' common header (without the shard), which of
/// [`MergeRules::kinds`] it starts with, and every item with its number,
/// in the files' order.
#[derive(Debug)]
pub struct Merged<T> {
    /// The header line of an unsplit run, in today's spelling
    /// ([`current_spelling`]): the merge is a file written today, whatever
    /// spelling its shards have.
    pub header: String,
    /// The index in [`MergeRules::kinds`] of its start.
    pub start: usize,
    /// The items, each with its number.
    pub items: Vec<(u64, T)>,
}

impl<T> Merged<T> {
    /// The merge with its items ordered by number, which must then be
    /// 0, 1, 2, ... each once: the whole stage, as one unsplit run writes
    /// it.
    ///
    /// # Errors
    /// The first number missing or doubled.
    pub fn ordered(mut self) -> Result<Merged<T>, FileRefused> {
        self.items.sort_by_key(|(number, _)| *number);
        match (0..self.items.len()).find(|&i| self.items[i].0 != i as u64) {
            Some(i) => refused(format!(
                "number {i} is missing or doubled: a shard is unfinished (run it again) or edited"
            )),
            None => Ok(self),
        }
    }
}

/// A merge under way: the files read so far.
pub struct ShardMerge<'a, T> {
    rules: &'a MergeRules<'a, T>,
    /// The first file given, which names the split and the stage in
    /// messages.
    first: &'a str,
    /// The common header and its start's index, once a file is read.
    base: Option<(String, usize)>,
    shards: ShardSet,
    items: Vec<(u64, T)>,
}

impl<'a, T> ShardMerge<'a, T> {
    /// A merge under `rules` of files of which `first` is the first given.
    #[must_use]
    pub fn new(rules: &'a MergeRules<'a, T>, first: &'a str) -> ShardMerge<'a, T> {
        ShardMerge {
            rules,
            first,
            base: None,
            shards: ShardSet::default(),
            items: Vec::new(),
        }
    }

    /// Takes the first line of the file `path` (`None`: the file is
    /// empty) and returns the file's shard.
    ///
    /// # Errors
    /// A file that is empty, of another kind, of another stage (or a
    /// header [`MergeRules::check_header`] refuses), of another split, or
    /// whose shard was given already.
    pub fn header(&mut self, path: &str, first: Option<&TextLine>) -> Result<Shard, FileRefused> {
        let kind = self.rules.kind;
        let Some(first) = first else {
            return refused(format!("{path} is empty: not {kind}"));
        };
        let Some(start) = self.rules.kinds.iter().position(|s| s.starts(first.text)) else {
            return refused(format!("{path} is not {kind}"));
        };
        let (header, shard) = split_shard(first.text);
        // Shards of both spellings are of one stage when their headers
        // are the same in today's.
        let header = current_spelling(header);
        (self.rules.check_header)(path, &header).map_err(FileRefused)?;
        match &self.base {
            None => self.base = Some((header.into_owned(), start)),
            Some((b, _)) if *b == header => {}
            Some((b, _)) => {
                return refused(format!(
                    "{path} is of another stage than {}: {header:?} against {b:?}",
                    self.first
                ))
            }
        }
        self.shards.add(path, shard, self.first)?;
        Ok(shard)
    }

    /// Takes a line after the header of the file `path` of `shard`.
    ///
    /// # Errors
    /// A line cut short, that is not a line of the file, whose item is
    /// not of the shard, or beyond [`MergeRules::max_items`] in all.
    pub fn line(&mut self, path: &str, shard: Shard, line: &TextLine) -> Result<(), FileRefused> {
        let rules = self.rules;
        let number = line.number;
        if !line.terminated {
            return refused(format!(
                "{path} line {number} is cut short: run its {} again to finish it before merging",
                rules.again
            ));
        }
        let header = self.base.as_ref().map_or("", |(b, _)| b.as_str());
        let (item_number, item) = (rules.item)(header, line.text)
            .map_err(|e| FileRefused(format!("{path} line {number} {e}")))?;
        if !shard.holds(item_number) {
            return refused(format!(
                "{path} line {number} holds {} {item_number}, which is not of shard {shard}",
                rules.noun
            ));
        }
        if self.items.len() as u64 >= rules.max_items {
            return refused(format!(
                "{path} line {number}: the files hold more than {} lines",
                rules.max_items
            ));
        }
        self.items.push((item_number, item));
        Ok(())
    }

    /// The merge, once every file is read.
    ///
    /// # Errors
    /// A shard of the split missing (or no file at all).
    pub fn finish(self) -> Result<Merged<T>, FileRefused> {
        self.shards.complete()?;
        let Some((header, start)) = self.base else {
            return refused("no file to merge".to_owned());
        };
        Ok(Merged {
            header,
            start,
            items: self.items,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::lines_of;
    use super::*;

    /// A line `N rest` holds item N and `rest`.
    fn item(_header: &str, line: &str) -> Result<(u64, String), String> {
        let (n, rest) = line.split_once(' ').ok_or("has no space")?;
        let n = n.parse().map_err(|_| format!("has no number: {line:?}"))?;
        Ok((n, rest.to_owned()))
    }

    /// Refuses headers holding `bad`.
    fn check_header(path: &str, header: &str) -> Result<(), String> {
        if header.contains("bad") {
            Err(format!("{path} holds a bad header"))
        } else {
            Ok(())
        }
    }

    /// A kind of test file that starts `start` (and had no other
    /// spelling).
    const fn kind(start: &'static str) -> FileKind {
        FileKind {
            start,
            former: None,
            kind: "a test file",
        }
    }

    const RULES: MergeRules<'static, String> = MergeRules {
        kinds: &[
            kind("# one"),
            kind("# two"),
            FileKind {
                start: "# reversi-lab three:",
                former: Some("# reversi three:"),
                kind: "a test file",
            },
        ],
        kind: "a test file",
        check_header: &check_header,
        again: "stage",
        noun: "number",
        max_items: 4,
        item: &item,
    };

    /// Merges `files` (path, text) under [`RULES`]: the merge, or the
    /// message of the first refusal.
    fn merge(files: &[(&str, &str)]) -> Result<Merged<String>, String> {
        let mut merge = ShardMerge::new(&RULES, files.first().map_or("", |f| f.0));
        for (path, text) in files {
            let mut lines = lines_of(text).into_iter();
            let shard = merge.header(path, lines.next().as_ref()).map_err(|e| e.0)?;
            for line in lines {
                merge.line(path, shard, &line).map_err(|e| e.0)?;
            }
        }
        merge.finish().map_err(|e| e.0)
    }

    #[test]
    fn a_merge_takes_every_shard_of_one_split_once() {
        let merged = merge(&[
            ("b", "# two x shard 1/2\n1 q\n3 r\n"),
            ("a", "# two x shard 0/2\n0 p\n"),
        ])
        .unwrap();
        assert_eq!(merged.header, "# two x");
        assert_eq!(merged.start, 1);
        let items = [(1, "q"), (3, "r"), (0, "p")].map(|(n, t)| (n, t.to_owned()));
        assert_eq!(merged.items, items);
        // An unsplit file merges alone.
        assert_eq!(merge(&[("a", "# one y\n0 p\n")]).unwrap().start, 0);
        let message = |files: &[(&str, &str)]| merge(files).unwrap_err();
        let a = ("a", "# one x shard 0/3\n");
        let c = ("c", "# one x shard 2/3\n");
        assert_eq!(
            message(&[a, c]),
            "shard 1/3 is missing: every shard of the split is needed"
        );
        assert_eq!(
            message(&[a, ("c", "# one x shard 0/3\n")]),
            "shard 0/3 is given twice (c)"
        );
        assert_eq!(
            message(&[a, ("d", "# one x shard 1/2\n")]),
            "d is shard 1/2, but a is of another split"
        );
        assert_eq!(
            message(&[a, ("e", "# one z shard 1/3\n")]),
            "e is of another stage than a: \"# one z\" against \"# one x\""
        );
        assert_eq!(
            message(&[]),
            "shard 0/1 is missing: every shard of the split is needed"
        );
    }

    #[test]
    fn shards_of_either_spelling_merge_under_todays() {
        let merged = merge(&[
            ("a", "# reversi three: x shard 0/2\n0 p\n"),
            ("b", "# reversi-lab three: x shard 1/2\n1 q\n"),
        ])
        .unwrap();
        assert_eq!(merged.header, "# reversi-lab three: x");
        assert_eq!(merged.start, 2);
        let old = merge(&[("a", "# reversi three: y\n0 p\n")]).unwrap();
        assert_eq!(old.header, "# reversi-lab three: y");
        assert_eq!(
            merge(&[
                ("a", "# reversi three: x shard 0/2\n"),
                ("b", "# reversi-lab three: z shard 1/2\n"),
            ])
            .unwrap_err(),
            "b is of another stage than a: \"# reversi-lab three: z\" against \"# reversi-lab three: x\""
        );
        // Another program's spelling is no spelling of the kind.
        assert_eq!(
            merge(&[("a", "# reversi-gui three: x\n")]).unwrap_err(),
            "a is not a test file"
        );
    }

    #[test]
    fn an_ordered_merge_holds_every_number_once() {
        let two = ("b", "# one shard 1/2\n1 q\n");
        let merged = merge(&[two, ("a", "# one shard 0/2\n0 p\n2 r\n")]).unwrap();
        let items: Vec<(u64, String)> = merged.ordered().unwrap().items;
        assert_eq!(
            items,
            [(0, "p"), (1, "q"), (2, "r")].map(|(n, t)| (n, t.to_owned()))
        );
        let gap = merge(&[two, ("a", "# one shard 0/2\n2 r\n")]).unwrap();
        assert_eq!(
            gap.ordered().unwrap_err().0,
            "number 0 is missing or doubled: a shard is unfinished (run it again) or edited"
        );
        let twice = merge(&[two, ("a", "# one shard 0/2\n0 p\n0 p\n")]).unwrap();
        assert_eq!(
            twice.ordered().unwrap_err().0,
            "number 1 is missing or doubled: a shard is unfinished (run it again) or edited"
        );
    }

    #[test]
    fn a_merge_takes_only_whole_files_of_its_kind() {
        let message = |files: &[(&str, &str)]| merge(files).unwrap_err();
        assert_eq!(message(&[("a", "")]), "a is empty: not a test file");
        assert_eq!(message(&[("a", "# three\n")]), "a is not a test file");
        assert_eq!(message(&[("a", "# one bad\n")]), "a holds a bad header");
        assert_eq!(
            message(&[("a", "# one\n0 p\n1 cut")]),
            "a line 3 is cut short: run its stage again to finish it before merging"
        );
        assert_eq!(
            message(&[("a", "# one\n0 p\nx y\n")]),
            "a line 3 has no number: \"x y\""
        );
        assert_eq!(
            message(&[("a", "# one shard 1/2\n2 p\n")]),
            "a line 2 holds number 2, which is not of shard 1/2"
        );
        assert_eq!(
            message(&[("a", "# one\n0 p\n1 p\n2 p\n3 p\n4 p\n")]),
            "a line 6: the files hold more than 4 lines"
        );
    }
}
