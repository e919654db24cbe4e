//! The training stages' file formats, one module each: what a file starts
//! with (its signature and header line), its lines, and how it is read
//! from any [`BufRead`] and written to any
//! [`Write`](std::io::Write). The binary opens, locks and replaces the
//! files; the rules on their text are here, unit-tested without files.
//!
//! - [`games`]: the games files of `train generate` and `train import`;
//! - [`labels`]: the label files of `train label` (and `train import
//!   --theoretical-labels`);
//! - [`heldout`]: the label file of `train heldout`, exact labels of the
//!   test set;
//! - [`dropped`]: the dropped-games list of `train import --dropped`;
//! - [`probcut_table`]: the Multi-ProbCut table of `train probcut`.
//!
//! The headers keep the spelling `# reversi train ...` of the files
//! written before the lab had its own binary: a continued stage compares
//! its header byte for byte, so a new spelling would refuse every old
//! file.

use crate::lines::{CappedLines, LineError};
use std::fmt;
use std::io::BufRead;

pub mod dropped;
pub mod games;
pub mod heldout;
pub mod labels;
pub mod probcut_table;

/// What a lab file starts with: its first line begins with `start`, and
/// `kind` names such a file in messages (`a label file of ...`). The
/// binary's output rule (replace only files of their kind) is built from
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    /// The first characters of the file.
    pub start: &'static str,
    /// The file's kind, for messages.
    pub kind: &'static str,
}

impl FileKind {
    /// Whether `first_line` (a file's first line) is of this kind.
    #[must_use]
    pub fn starts(&self, first_line: &str) -> bool {
        first_line.starts_with(self.start)
    }
}

/// The longest line of a games or label file, in bytes. A game line holds
/// at most 120 moves of 2 characters (every pass follows a disc placed)
/// and three numbers: under 300 bytes.
pub const MAX_LINE: usize = 1024;

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

/// The lines of `input`, named `name` in messages, at most [`MAX_LINE`]
/// bytes each.
fn lines<R: BufRead>(input: R, name: &str) -> CappedLines<R> {
    CappedLines::new(input, name, MAX_LINE)
}
