//! What tells a command's file from anyone else's: how it begins.

/// How the files of one kind begin, whatever their version: their first
/// line starts with `start` (or, for a file written by an earlier version,
/// `former`), and `kind` names such a file in messages (`a weights file`,
/// `a label file of ...`). The output rule replaces only files that begin
/// so ([`crate::files::output_files::Rule::ours`]); the lab's stages
/// continue only such files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The first bytes of every such file as it is written today.
    pub start: &'static str,
    /// The first bytes such files had when an earlier version wrote them,
    /// if they changed: those files are ours too.
    pub former: Option<&'static str>,
    /// Its kind, for messages (`a weights file`).
    pub kind: &'static str,
}

impl Signature {
    /// The signature of a binary format whose files begin with the bytes
    /// `magic` (ASCII letters, so that they are also its `start`), with no
    /// former start: the product's formats export theirs so.
    ///
    /// # Panics
    /// At compile time, for a `magic` that is not UTF-8.
    #[must_use]
    pub const fn of_magic(magic: &'static [u8], kind: &'static str) -> Signature {
        let Ok(start) = std::str::from_utf8(magic) else {
            panic!("a file's magic bytes are text")
        };
        Signature {
            start,
            former: None,
            kind,
        }
    }

    /// Whether `first_line` (a file's first line) is of this kind, in
    /// either spelling.
    #[must_use]
    pub fn starts(&self, first_line: &str) -> bool {
        first_line.starts_with(self.start) || self.former.is_some_and(|f| first_line.starts_with(f))
    }
}
