//! Bounded reading of what the user gives: answers typed in the interactive
//! dialogs and the contents of input files. Nothing read here can grow
//! beyond a stated cap, whatever the input is (`/dev/zero`, a file of a
//! billion newlines, a line without end): the readers stop at the cap and
//! say so instead.

use super::UsageError;
/// One line of a [`CappedLines`] reader (the library's, so that the lab's
/// file rules take it).
pub use crate::lines::TextLine;
use crate::lines::{read_line_capped, LineRead};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The longest answer a dialog accepts, in bytes. Every valid answer is a
/// few characters; a longer line is read to its end and rejected.
pub const MAX_ANSWER: usize = 1024;

/// One line typed in an interactive dialog.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// The line exactly as typed, without its line end (`\n` or `\r\n`).
    Text(String),
    /// A line that cannot be an answer: not UTF-8, or longer than
    /// [`MAX_ANSWER`] bytes. The dialog treats it as a wrong answer.
    Unreadable,
    /// The input has ended.
    End,
}

/// Reads the next line of `input` as an [`Answer`], holding at most
/// [`MAX_ANSWER`] bytes of it in memory (the rest of a longer line is
/// skipped).
pub fn read_answer(input: &mut impl BufRead) -> io::Result<Answer> {
    let mut line = Vec::new();
    Ok(match read_line_capped(input, MAX_ANSWER, &mut line)? {
        LineRead::End => Answer::End,
        LineRead::TooLong => {
            input.skip_until(b'\n')?;
            Answer::Unreadable
        }
        LineRead::Line => {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            String::from_utf8(line).map_or(Answer::Unreadable, Answer::Text)
        }
    })
}

/// Opens the input file `path` for reading. A FIFO is waited for, as
/// `cat` waits: `open()` returns once a program opens it for writing, and
/// then it is read whole (never read as empty because its writer has not
/// come yet; SIGINT, SIGTERM and SIGHUP still stop the wait).
pub fn open_input(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// At most `cap + 1` bytes of `reader` (one more than a valid input may
/// hold, so that the caller sees a larger one without reading it whole);
/// an error is the [`UsageError`] `cannot read {what}: ...`. The one capped
/// whole-file read of the front ends (text inputs, weights, books,
/// collections).
pub fn read_capped(reader: impl Read, cap: u64, what: &str) -> Result<Vec<u8>, UsageError> {
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| UsageError(format!("cannot read {what}: {e}")))?;
    Ok(bytes)
}

/// Reads the file at `path` as UTF-8 text of at most `cap` bytes. Errors
/// are [`UsageError`]s that start with `what` (e.g. `input file in.txt`):
/// cannot be read, larger than `cap`, or not UTF-8. Reads at most `cap + 1`
/// bytes, so a device such as `/dev/zero` fails at once; the file is opened
/// by [`open_input`], so a FIFO is waited for.
pub fn read_text_capped(path: &Path, what: &str, cap: u64) -> Result<String, UsageError> {
    let file = open_input(path).map_err(|e| UsageError(format!("cannot read {what}: {e}")))?;
    let bytes = read_capped(file, cap, what)?;
    if bytes.len() as u64 > cap {
        return Err(UsageError(format!(
            "{what} is larger than {cap} bytes; it cannot be a valid input"
        )));
    }
    String::from_utf8(bytes).map_err(|_| UsageError(format!("{what} is not text (not UTF-8)")))
}

/// What kind of file `meta` describes, when it is not a regular file.
fn not_regular(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "a folder"
    } else {
        special_kind(meta)
    }
}

/// What kind of special file (not a regular file or a folder) `meta`
/// describes, for messages: a FIFO, a socket or a device.
pub(super) fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    let _ = meta;
    "not a regular file"
}

/// Opens `path` for reading where a regular file is needed, and returns it
/// with its length. Anything else is refused with a [`UsageError`] naming
/// `what` (`--games g.txt`): a folder, a device (`/dev/zero` would never
/// end), a FIFO or socket. A FIFO is opened without waiting for a writer
/// (`O_NONBLOCK`), so the refusal comes at once instead of never.
pub fn open_regular(path: &Path, what: &str) -> Result<(File, u64), UsageError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| UsageError(format!("cannot read {what}: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| UsageError(format!("cannot read {what}: {e}")))?;
    if !meta.is_file() {
        return Err(UsageError(format!(
            "{what} is {}; a regular file is needed",
            not_regular(&meta)
        )));
    }
    Ok((file, meta.len()))
}

/// The lines of a regular file, read one at a time, none longer than a
/// stated cap: memory stays bounded whatever the file holds
/// ([`crate::lines::CappedLines`] over the file, its errors
/// [`UsageError`]s).
pub struct CappedLines(crate::lines::CappedLines<BufReader<File>>);

impl CappedLines {
    /// Opens `path` ([`open_regular`]; `what` names it in messages) to read
    /// lines of at most `cap` bytes (the line end not counted).
    pub fn open(path: &Path, what: &str, cap: usize) -> Result<CappedLines, UsageError> {
        let (file, _) = open_regular(path, what)?;
        Ok(CappedLines::new(file, what, cap))
    }

    /// Reads lines of at most `cap` bytes from the start of `file`.
    pub fn new(file: File, what: &str, cap: usize) -> CappedLines {
        CappedLines(crate::lines::CappedLines::new(
            BufReader::new(file),
            what,
            cap,
        ))
    }

    /// The next line, or `None` at the end of the file. A line longer than
    /// the cap, text that is not UTF-8 or a read error is a [`UsageError`]
    /// naming the line.
    pub fn next_line(&mut self) -> Result<Option<TextLine<'_>>, UsageError> {
        self.0.next_line().map_err(|e| UsageError(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(bytes: &[u8]) -> Vec<Answer> {
        let mut input = bytes;
        let mut out = Vec::new();
        loop {
            match read_answer(&mut input).expect("reading a slice") {
                Answer::End => return out,
                a => out.push(a),
            }
        }
    }

    #[test]
    fn answers_are_taken_as_typed() {
        let text = |s: &str| Answer::Text(s.to_string());
        assert_eq!(
            answers(b"1\nYes \n no\r\n\n\xff\nlast"),
            [
                text("1"),
                text("Yes "),
                text(" no"),
                text(""),
                Answer::Unreadable,
                text("last")
            ]
        );
        assert_eq!(answers(b""), []);
    }

    /// The lines of `bytes` read by [`CappedLines`] with a cap of 4:
    /// (text, bytes, terminated), or the error's text.
    fn capped_lines(bytes: &[u8]) -> Result<Vec<(String, u64, bool)>, String> {
        let path = std::env::temp_dir().join(format!("reversi-capped-{}", std::process::id()));
        std::fs::write(&path, bytes).expect("write");
        let mut lines = CappedLines::open(&path, "f", 4).expect("open");
        let mut out = Vec::new();
        let result = loop {
            match lines.next_line() {
                Ok(Some(l)) => out.push((l.text.to_string(), l.bytes, l.terminated)),
                Ok(None) => break Ok(out),
                Err(e) => break Err(e.0),
            }
        };
        let _ = std::fs::remove_file(&path);
        result
    }

    #[test]
    fn capped_lines_stop_at_the_cap_and_keep_the_last_partial_line() {
        let line = |t: &str, b: u64, end: bool| (t.to_string(), b, end);
        assert_eq!(
            capped_lines(b"abcd\n\nxy"),
            Ok(vec![
                line("abcd", 5, true),
                line("", 1, true),
                line("xy", 2, false)
            ])
        );
        assert_eq!(capped_lines(b""), Ok(vec![]));
        assert_eq!(
            capped_lines(b"ok\nabcde\n"),
            Err("f line 2 is longer than 4 bytes; it is not a line of this file".into())
        );
        assert_eq!(
            capped_lines(b"\xff\n"),
            Err("f line 1 is not text (not UTF-8)".into())
        );
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_opened() {
        for (path, kind) in [("/dev/zero", "a device"), ("/", "a folder")] {
            if std::path::Path::new(path).exists() {
                let e = open_regular(std::path::Path::new(path), path).unwrap_err();
                assert_eq!(e.0, format!("{path} is {kind}; a regular file is needed"));
            }
        }
    }

    #[test]
    fn a_long_line_is_one_unreadable_answer() {
        let mut bytes = vec![b'1'; 3 * MAX_ANSWER];
        bytes.extend_from_slice(b"\n2\n");
        assert_eq!(
            answers(&bytes),
            [Answer::Unreadable, Answer::Text("2".to_string())]
        );
        let exact = vec![b'x'; MAX_ANSWER];
        assert_eq!(
            answers(&exact),
            [Answer::Text(
                String::from_utf8(exact.clone()).expect("ascii")
            )]
        );
    }
}
