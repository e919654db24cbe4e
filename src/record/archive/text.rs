//! The text collections (PGN, Logistello's `.gam` lines) read a game at a
//! time ([`super::TextReader`]), each line and each game's text capped.

use super::{
    error, fused, parse_gam_line, pgn_game, ArchiveError, ArchiveErrorKind, ArchiveGame,
    MAX_COLLECTION_LINE, MAX_GAME_TEXT,
};
use crate::lines::{read_line_capped, LineRead};
use std::io::BufRead;

/// The lines of a text collection, each at most [`MAX_COLLECTION_LINE`]
/// bytes and UTF-8, a `\r` before the `\n` left out (as [`str::lines`]).
struct CollectionLines<R> {
    reader: R,
    line: Vec<u8>,
}

impl<R: BufRead> CollectionLines<R> {
    fn new(reader: R) -> CollectionLines<R> {
        CollectionLines {
            reader,
            line: Vec::new(),
        }
    }

    /// The next line, `None` at the end; an error is game `game`'s.
    fn next(&mut self, game: usize) -> Result<Option<&str>, ArchiveError> {
        let read = read_line_capped(&mut self.reader, MAX_COLLECTION_LINE, &mut self.line)
            .map_err(|e| error(game, ArchiveErrorKind::Read(e.to_string())))?;
        match read {
            LineRead::End => return Ok(None),
            LineRead::TooLong => {
                return Err(error(
                    game,
                    ArchiveErrorKind::Syntax(format!(
                        "a line longer than {MAX_COLLECTION_LINE} bytes"
                    )),
                ))
            }
            LineRead::Line => {}
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        std::str::from_utf8(&self.line)
            .map(Some)
            .map_err(|_| error(game, ArchiveErrorKind::NotText))
    }
}

/// The text of one PGN game as it is read: its tags and its move lines.
#[derive(Default)]
struct PgnText {
    tags: Vec<(String, String)>,
    moves: String,
    /// The bytes of its lines so far.
    bytes: usize,
}

impl PgnText {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.trim().is_empty()
    }

    /// Counts `line` in the game's text, refused beyond [`MAX_GAME_TEXT`].
    fn count(&mut self, line: &str) -> Result<(), ArchiveErrorKind> {
        self.bytes += line.len();
        if self.bytes > MAX_GAME_TEXT {
            return Err(ArchiveErrorKind::Syntax(format!(
                "the game's text is longer than {MAX_GAME_TEXT} bytes"
            )));
        }
        Ok(())
    }

    /// Takes the tag line `line` (its `[` already seen).
    fn tag(&mut self, line: &str) -> Result<(), ArchiveErrorKind> {
        self.count(line)?;
        let parsed = line
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .and_then(|t| {
                let (name, value) = t.split_once(' ')?;
                let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
                Some((name.to_owned(), value.to_owned()))
            });
        let Some(tag) = parsed else {
            return Err(ArchiveErrorKind::Syntax(format!(
                "{line:?} is not a PGN tag [Name \"value\"]"
            )));
        };
        self.tags.push(tag);
        Ok(())
    }

    /// Takes a line of moves.
    fn moves(&mut self, line: &str) -> Result<(), ArchiveErrorKind> {
        self.count(line)?;
        self.moves.push_str(line);
        self.moves.push('\n');
        Ok(())
    }

    /// The game read so far, the text emptied for the next one.
    fn take(&mut self) -> Result<ArchiveGame, ArchiveErrorKind> {
        let game = pgn_game(&self.tags, &self.moves);
        *self = PgnText::default();
        game
    }
}

/// The games of a text collection read one at a time: PGN (a game's text
/// held, at most [`MAX_GAME_TEXT`] bytes; see [`super::parse_pgn`] for the form)
/// or `.gam` (a line held, at most [`MAX_COLLECTION_LINE`] bytes; a game a
/// line, empty lines skipped). An [`Iterator`] of the games that ends
/// after the first error.
pub struct TextReader<R> {
    lines: CollectionLines<R>,
    /// PGN's game read so far; `None` for `.gam`.
    pgn: Option<PgnState>,
    /// The games read so far.
    read: usize,
    failed: bool,
}

/// What a PGN reader holds between games.
#[derive(Default)]
struct PgnState {
    text: PgnText,
    /// A tag line that ended the previous game's moves, read next.
    pending: Option<String>,
    /// A blank line came after the game's tags and before any move (the
    /// usual PGN layout): a tag line now starts the next game.
    gap: bool,
}

impl PgnState {
    /// The game read so far, if it holds anything, numbered after the
    /// `read` games before it.
    fn finish(&mut self, read: &mut usize) -> Result<Option<ArchiveGame>, ArchiveError> {
        if self.text.is_empty() {
            return Ok(None);
        }
        *read += 1;
        let number = *read;
        self.text
            .take()
            .map(Some)
            .map_err(|kind| error(number, kind))
    }
}

impl<R: BufRead> TextReader<R> {
    /// A reader of the PGN text `reader`.
    pub fn pgn(reader: R) -> TextReader<R> {
        TextReader::new(reader, Some(PgnState::default()))
    }

    /// A reader of the `.gam` text `reader`.
    pub fn gam(reader: R) -> TextReader<R> {
        TextReader::new(reader, None)
    }

    fn new(reader: R, pgn: Option<PgnState>) -> TextReader<R> {
        TextReader {
            lines: CollectionLines::new(reader),
            pgn,
            read: 0,
            failed: false,
        }
    }

    fn next_game(&mut self) -> Result<Option<ArchiveGame>, ArchiveError> {
        match &mut self.pgn {
            Some(pgn) => next_pgn(&mut self.lines, pgn, &mut self.read),
            None => next_gam(&mut self.lines, &mut self.read),
        }
    }
}

/// The next PGN game of `lines`, after the `read` games before it.
fn next_pgn(
    lines: &mut CollectionLines<impl BufRead>,
    pgn: &mut PgnState,
    read: &mut usize,
) -> Result<Option<ArchiveGame>, ArchiveError> {
    let number = *read + 1;
    if let Some(tag) = pgn.pending.take() {
        pgn.text.tag(&tag).map_err(|kind| error(number, kind))?;
    }
    loop {
        let number = *read + 1;
        let Some(line) = lines.next(number)? else {
            return pgn.finish(read);
        };
        let line = line.trim();
        if line.is_empty() {
            // A blank line ends a game that has moves; one between a
            // game's tags and its moves (the usual PGN layout) does not.
            if pgn.text.moves.trim().is_empty() {
                pgn.gap = !pgn.text.tags.is_empty();
            } else if let Some(game) = pgn.finish(read)? {
                return Ok(Some(game));
            }
        } else if line.starts_with('[') {
            if !pgn.text.moves.trim().is_empty() || pgn.gap {
                pgn.gap = false;
                pgn.pending = Some(line.to_owned());
                return pgn.finish(read);
            }
            pgn.text.tag(line).map_err(|kind| error(number, kind))?;
        } else {
            pgn.gap = false;
            pgn.text.moves(line).map_err(|kind| error(number, kind))?;
        }
    }
}

/// The next `.gam` game of `lines`, after the `read` games before it.
fn next_gam(
    lines: &mut CollectionLines<impl BufRead>,
    read: &mut usize,
) -> Result<Option<ArchiveGame>, ArchiveError> {
    loop {
        let number = *read + 1;
        let Some(line) = lines.next(number)? else {
            return Ok(None);
        };
        if !line.trim().is_empty() {
            *read = number;
            return parse_gam_line(line)
                .map(Some)
                .map_err(|kind| error(number, kind));
        }
    }
}

impl<R: BufRead> Iterator for TextReader<R> {
    type Item = Result<ArchiveGame, ArchiveError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        fused(self.next_game(), &mut self.failed)
    }
}
