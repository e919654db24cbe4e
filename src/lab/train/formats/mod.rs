//! The training stages' file formats, one module each: what a file starts
//! with (its signature and header line), its lines, and how it is read
//! from any [`BufRead`] and written to any
//! [`Write`](std::io::Write), the rules on their text unit-tested without
//! files; and the files read by their paths ([`read_games_file`],
//! [`read_labels_file`]). [`crate::lab::shard::Resumable`] opens, locks and
//! continues the stages' files; the binary replaces the others.
//!
//! - [`games`]: the games files of `train generate` and `train import`;
//! - [`labels`]: the label files of `train label` (and `train import
//!   --theoretical-labels`);
//! - [`heldout`]: the label file of `train heldout`, exact labels of the
//!   test set;
//! - [`dropped`]: the dropped-games list of `train import --dropped`;
//! - [`probcut_table`]: the Multi-ProbCut table of `train probcut`;
//! - [`packed`]: a label file packed for the repository, with its
//!   inputs' checksums and recipe (read wherever label files are);
//! - [`merged`]: the games or label file that `train merge` makes of a
//!   split stage's files.
//!
//! The headers name the program that writes them, `# reversi-lab train
//! ...`. Files written before the lab had its own binary say `# reversi
//! train ...`: every reader takes both spellings ([`crate::lab::shard::FileKind::starts`]), a
//! run continues such a file under its old header, and a merge of its
//! shards writes today's spelling ([`crate::lab::shard::same_header`]).

use crate::files::input::open_regular;
use crate::files::UsageError;
use crate::lab::shard::MAX_LINE;
use crate::lab::train::labels::Label;
use crate::lab::train::TrainingGame;
use crate::lines::{CappedLines, LineError};
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

pub mod dropped;
pub mod games;
pub mod heldout;
pub mod labels;
pub mod merged;
pub mod packed;
pub mod probcut_table;

/// Why a file's text is not of its format: the message names the file
/// (as the reader was given it) and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormatError {}

impl From<LineError> for FormatError {
    fn from(e: LineError) -> FormatError {
        FormatError(e.to_string())
    }
}

/// The lines of `input`, named `name` in messages, at most
/// [`MAX_LINE`] bytes each.
fn lines<R: BufRead>(input: R, name: &str) -> CappedLines<R> {
    CappedLines::new(input, name, MAX_LINE)
}

/// A label file read whole, packed or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelFile {
    /// The label file's header line.
    pub header: String,
    /// The labels, in the file's order.
    pub labels: Vec<Label>,
    /// For a packed file, where its labels came from.
    pub provenance: Option<packed::Provenance>,
}

/// Reads a label file named `name`, text ([`labels::read_rest`]) or
/// packed ([`packed::read_rest`]: read as the label file it holds), with
/// a packed file's provenance.
///
/// # Errors
/// An empty file, a file of another kind, a line that is not a label (or
/// is too long, or not text), too many labels, a packed file cut short or
/// corrupt, or a read error; each message names `name`.
pub fn read_label_file(input: impl BufRead, name: &str) -> Result<LabelFile, FormatError> {
    let mut lines = lines(input, name);
    let Some(first) = lines.next_line()? else {
        return Err(FormatError(format!(
            "{name} is empty: not {}",
            labels::LABELS.kind
        )));
    };
    let first = first.text.to_owned();
    if first.starts_with(packed::PACKED_START) {
        return packed::read_rest(&first, lines.into_inner(), name);
    }
    let (header, labels) = labels::read_rest(&first, &mut lines, name)?;
    Ok(LabelFile {
        header,
        labels,
        provenance: None,
    })
}

/// Reads a label file named `name` ([`read_label_file`]): its header and
/// its labels.
///
/// # Errors
/// As [`read_label_file`].
pub fn read_labels(input: impl BufRead, name: &str) -> Result<(String, Vec<Label>), FormatError> {
    read_label_file(input, name).map(|file| (file.header, file.labels))
}

/// The regular file `path` opened to be read a line at a time.
fn open(path: &Path) -> anyhow::Result<BufReader<File>> {
    let (file, _) = open_regular(path, &path.display().to_string())?;
    Ok(BufReader::new(file))
}

/// A format's refusal as the command's (exit status 2).
fn refused(e: FormatError) -> UsageError {
    UsageError(e.0)
}

/// Reads every game of the games file `path` ([`games::read`]).
///
/// # Errors
/// A file that cannot be opened or is refused ([`UsageError`]).
pub fn read_games_file(path: impl AsRef<Path>) -> anyhow::Result<Vec<TrainingGame>> {
    let path = path.as_ref();
    let name = path.display().to_string();
    Ok(games::read(open(path)?, &name).map_err(refused)?)
}

/// Reads the label file `path`, packed or not ([`read_label_file`]).
///
/// # Errors
/// A file that cannot be opened or is refused ([`UsageError`]).
pub fn read_label_file_at(path: impl AsRef<Path>) -> anyhow::Result<LabelFile> {
    let path = path.as_ref();
    let name = path.display().to_string();
    Ok(read_label_file(open(path)?, &name).map_err(refused)?)
}

/// Reads the label file `path` ([`read_label_file_at`]): its header and
/// its labels.
///
/// # Errors
/// As [`read_label_file_at`].
pub fn read_labels_file(path: impl AsRef<Path>) -> anyhow::Result<(String, Vec<Label>)> {
    read_label_file_at(path).map(|file| (file.header, file.labels))
}

#[cfg(test)]
mod tests {
    use super::{dropped, games, labels, probcut_table};
    use crate::lab::book::searches::SEARCHES;
    use crate::lab::shard::{current_spelling, PROGRAM};

    #[test]
    fn every_lab_header_names_reversi_lab_and_reads_its_former_spelling() {
        let kinds = [
            games::GENERATED,
            games::IMPORTED,
            labels::LABELS,
            dropped::DROPPED,
            SEARCHES,
        ];
        for kind in kinds {
            assert!(kind.start.starts_with(PROGRAM), "{kind:?}");
            let former = kind.former.expect("a former spelling");
            assert_eq!(current_spelling(former), kind.start, "{kind:?}");
            assert!(kind.starts(former) && kind.starts(kind.start));
            for other in kinds.iter().filter(|k| k.start != kind.start) {
                assert!(!kind.starts(other.start) && !kind.starts(other.former.unwrap()));
            }
        }
        // The theoretical labels are label files (read as such) that only
        // the import's own rule tells apart, in both spellings.
        let theoretical = labels::THEORETICAL;
        let former = theoretical.former.expect("a former spelling");
        assert_eq!(current_spelling(former), theoretical.start);
        assert!(labels::LABELS.starts(theoretical.start) && labels::LABELS.starts(former));
        assert!(!theoretical.starts(labels::LABELS.start));
        // The table's title names no program: one spelling.
        assert_eq!(probcut_table::PROBCUT.former, None);
    }
}
