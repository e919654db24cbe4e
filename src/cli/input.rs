//! Bounded reading of what the user gives: answers typed in the interactive
//! dialogs and the contents of input files. Nothing read here can grow
//! beyond a stated cap, whatever the input is (`/dev/zero`, a file of a
//! billion newlines, a line without end): the readers stop at the cap and
//! say so instead.

use super::UsageError;
use reversi::lines::{read_line_capped, LineRead};
use std::fs::File;
use std::io::{self, BufRead, Read};
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

/// Reads the file at `path` as UTF-8 text of at most `cap` bytes. Errors
/// are [`UsageError`]s that start with `what` (e.g. `input file in.txt`):
/// cannot be read, larger than `cap`, or not UTF-8. Reads at most `cap + 1`
/// bytes, so a device such as `/dev/zero` fails at once.
pub fn read_text_capped(path: &Path, what: &str, cap: u64) -> Result<String, UsageError> {
    let file = File::open(path).map_err(|e| UsageError(format!("cannot read {what}: {e}")))?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| UsageError(format!("cannot read {what}: {e}")))?;
    if bytes.len() as u64 > cap {
        return Err(UsageError(format!(
            "{what} is larger than {cap} bytes; it cannot be a valid input"
        )));
    }
    String::from_utf8(bytes).map_err(|_| UsageError(format!("{what} is not text (not UTF-8)")))
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
