//! Reading text a line at a time with a bound on the memory a line may
//! take, whatever the input is: a device such as `/dev/zero`, a file of
//! one endless line, a pipe that never sends a newline. Used for OBF files
//! and for the answers of the interactive dialogs; [`CappedLines`] reads
//! the lab's files (games, labels) over any reader, a [`TextLine`] at a time.

use std::fmt;
use std::io::{self, BufRead, Read};

/// What [`read_line_capped`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, now in the buffer without its `\n` (a `\r` before it stays).
    Line,
    /// A line longer than the cap: the buffer holds its first `cap` bytes
    /// and the input is left just after them (reading stops at once, so
    /// an endless line such as `/dev/zero`'s ends the read too).
    TooLong,
    /// The input has ended; the buffer is empty.
    End,
}

/// Reads the next line of `input` into `line` (cleared first), reading at
/// most `cap` bytes of it: a longer line stops the read at the cap
/// ([`LineRead::TooLong`]); [`BufRead::skip_until`] skips its rest if the
/// reading should go on. A last line without `\n` is a line.
///
/// # Errors
/// The input's read errors (other than interruptions, which are retried).
///
/// ```
/// use reversi::lines::{read_line_capped, LineRead};
/// use std::io::BufRead;
/// let mut input: &[u8] = b"short\nmuch too long\nend";
/// let mut line = Vec::new();
/// assert_eq!(read_line_capped(&mut input, 8, &mut line).unwrap(), LineRead::Line);
/// assert_eq!(line, b"short");
/// assert_eq!(read_line_capped(&mut input, 8, &mut line).unwrap(), LineRead::TooLong);
/// assert_eq!(line, b"much too");
/// input.skip_until(b'\n').unwrap();
/// assert_eq!(read_line_capped(&mut input, 8, &mut line).unwrap(), LineRead::Line);
/// assert_eq!(line, b"end");
/// assert_eq!(read_line_capped(&mut input, 8, &mut line).unwrap(), LineRead::End);
/// ```
pub fn read_line_capped(
    input: &mut impl BufRead,
    cap: usize,
    line: &mut Vec<u8>,
) -> io::Result<LineRead> {
    line.clear();
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let end = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..end.unwrap_or(buf.len())];
        let room = cap - line.len();
        if chunk.len() > room {
            line.extend_from_slice(&chunk[..room]);
            input.consume(room);
            return Ok(LineRead::TooLong);
        }
        line.extend_from_slice(chunk);
        let used = end.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    Ok(if any { LineRead::Line } else { LineRead::End })
}

/// One line of a [`CappedLines`] reader.
#[derive(Debug)]
pub struct TextLine<'a> {
    /// Its number, from 1.
    pub number: usize,
    /// Its text, without the line end (`\n`).
    pub text: &'a str,
    /// Its length in the input, the line end included.
    pub bytes: u64,
    /// Whether it ends with `\n` (only the last line of an input may not).
    pub terminated: bool,
}

/// Why [`CappedLines::next_line`] gives no line: a read error, a line
/// longer than the cap or one that is not UTF-8, each naming the input
/// (and the line).
#[derive(Debug)]
pub struct LineError(String);

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LineError {}

/// The lines of an input, read one at a time, none longer than a stated
/// cap: memory stays bounded whatever the input holds.
pub struct CappedLines<R> {
    reader: R,
    what: String,
    cap: usize,
    number: usize,
    line: Vec<u8>,
}

impl<R: BufRead> CappedLines<R> {
    /// Reads lines of at most `cap` bytes (the line end not counted) from
    /// `reader`; `what` names the input in messages.
    pub fn new(reader: R, what: &str, cap: usize) -> CappedLines<R> {
        CappedLines {
            reader,
            what: what.to_owned(),
            cap,
            number: 0,
            line: Vec::new(),
        }
    }

    /// The reader, positioned after the last line read: the rest of a
    /// file whose text lines come before a binary part.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The next line, or `None` at the end of the input.
    ///
    /// # Errors
    /// A line longer than the cap, text that is not UTF-8 or a read error,
    /// naming the line.
    pub fn next_line(&mut self) -> Result<Option<TextLine<'_>>, LineError> {
        self.line.clear();
        self.number += 1;
        let read = (&mut self.reader)
            .take(self.cap as u64 + 1)
            .read_until(b'\n', &mut self.line)
            .map_err(|e| LineError(format!("cannot read {}: {e}", self.what)))?;
        if read == 0 {
            return Ok(None);
        }
        let terminated = self.line.last() == Some(&b'\n');
        if terminated {
            self.line.pop();
        }
        if self.line.len() > self.cap {
            return Err(LineError(format!(
                "{} line {} is longer than {} bytes; it is not a line of this file",
                self.what, self.number, self.cap
            )));
        }
        let text = std::str::from_utf8(&self.line).map_err(|_| {
            LineError(format!(
                "{} line {} is not text (not UTF-8)",
                self.what, self.number
            ))
        })?;
        Ok(Some(TextLine {
            number: self.number,
            text,
            bytes: read as u64,
            terminated,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `bytes` read through a reader that hands out `chunk`
    /// bytes at a time, as (what, line).
    fn all(bytes: &[u8], cap: usize, chunk: usize) -> Vec<(LineRead, Vec<u8>)> {
        let mut input = io::BufReader::with_capacity(chunk, bytes);
        let mut line = Vec::new();
        let mut out = Vec::new();
        loop {
            let r = read_line_capped(&mut input, cap, &mut line).expect("slice");
            if r == LineRead::End {
                return out;
            }
            if r == LineRead::TooLong {
                input.skip_until(b'\n').expect("slice");
            }
            out.push((r, line.clone()));
        }
    }

    #[test]
    fn agrees_with_split_on_newlines_whatever_the_chunks() {
        let text = b"a\n\nbcdef\r\nlonger line here\nxyz";
        for cap in [0, 1, 3, 5, 100] {
            let expected: Vec<(LineRead, Vec<u8>)> = text
                .split(|&b| b == b'\n')
                .map(|l| {
                    let kept = l[..l.len().min(cap)].to_vec();
                    let what = if l.len() > cap {
                        LineRead::TooLong
                    } else {
                        LineRead::Line
                    };
                    (what, kept)
                })
                .collect();
            for chunk in [1, 2, 7, 64] {
                assert_eq!(all(text, cap, chunk), expected, "cap {cap} chunk {chunk}");
            }
        }
        assert!(all(b"", 4, 1).is_empty());
        assert_eq!(all(b"\n", 4, 1), [(LineRead::Line, vec![])]);
    }

    #[test]
    fn capped_lines_number_measure_and_refuse_lines() {
        let mut lines = CappedLines::new(&b"ab\n\ncut"[..], "f", 4);
        let first = lines.next_line().expect("a line").expect("some");
        assert_eq!(
            (first.number, first.text, first.bytes, first.terminated),
            (1, "ab", 3, true)
        );
        let second = lines.next_line().expect("a line").expect("some");
        assert_eq!((second.number, second.text, second.bytes), (2, "", 1));
        let last = lines.next_line().expect("a line").expect("some");
        assert_eq!((last.text, last.bytes, last.terminated), ("cut", 3, false));
        assert!(lines.next_line().expect("the end").is_none());

        let long = CappedLines::new(&b"ok\ntoo long\n"[..], "f", 4);
        let mut long = long;
        assert!(long.next_line().is_ok());
        let e = long.next_line().expect_err("too long").to_string();
        assert_eq!(
            e,
            "f line 2 is longer than 4 bytes; it is not a line of this file"
        );
        let e = CappedLines::new(&b"\xff\n"[..], "g", 4)
            .next_line()
            .expect_err("not UTF-8")
            .to_string();
        assert_eq!(e, "g line 1 is not text (not UTF-8)");
    }
}
