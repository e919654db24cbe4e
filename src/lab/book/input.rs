//! The games a book learns (`book add`), the openings it is planned from
//! (`book new --openings`) and a book's text form (`book import`), read
//! from their files. The games: one dispatch by
//! the file's form ([`each_game`]): a games file of `train import` or
//! `generate` (known by its header line), a WTHOR collection (`.wtb`,
//! PGN), or one game a line ([`each_game_line`]: transcripts, GGF games,
//! Logistello `.gam` lines, board strings followed by moves; `#` lines and
//! blank lines skipped).

use super::world::{self, CountedGame};
use super::{plan_game, Openings, OpeningsRefused};
use crate::engine::book::Book;
use crate::files::input::{open_regular, CappedLines};
use crate::files::{usage, UsageError};
use crate::lab::train::formats::games;
use crate::lab::train::TrainingGame;
use crate::record::collection::{collection_usage, form_of, read_collection, Form};
use crate::record::{parse_game, GameRecord, RecordedMove};
use crate::reversi::{Move, Position};
use anyhow::Result;
use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The longest line of an openings or games file.
pub const MAX_LINE: usize = 1 << 16;

/// One game of an input file, as the file holds it.
pub enum InputGame<'a> {
    /// A game of a games file of `train import` or `generate`.
    Training(&'a TrainingGame),
    /// A game record: of a collection, or of a line.
    Record(Box<GameRecord>),
}

/// Where a game is in its file, for messages: `game N` (a games file's
/// game number, a collection's game from 1) or `line N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// The game numbered so.
    Game(u64),
    /// The game of this line.
    Line(usize),
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Game(n) => write!(f, "game {n}"),
            At::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Hands every game of the file `path` to `take` with where it is, by the
/// file's form: a games file of `train import` or `generate`, a WTHOR
/// collection, else one game a line. A file without a game is refused:
/// a book learned from nothing is a mistake to say, not an empty book to
/// write.
///
/// # Errors
/// A file that cannot be read, a game or line that is refused, or
/// `take`'s error.
pub fn each_game(path: &str, mut take: impl FnMut(InputGame<'_>, At) -> Result<()>) -> Result<()> {
    let mut read = 0u64;
    if let Some(file) = read_games_file(path)? {
        for game in &file {
            read += 1;
            take(InputGame::Training(game), At::Game(game.index))?;
        }
    } else if let Some(form @ (Form::Wtb | Form::Pgn)) = form_of(path)? {
        for (i, game) in read_collection(path, form)?.enumerate() {
            read += 1;
            let game = game.map_err(collection_usage)?;
            take(
                InputGame::Record(Box::new(game.record)),
                At::Game(i as u64 + 1),
            )?;
        }
    } else {
        each_game_line(path, |number, game| {
            read += 1;
            take(InputGame::Record(Box::new(game)), At::Line(number))
        })?;
    }
    if read == 0 {
        return usage(format!("{path} holds no game: nothing to add"));
    }
    Ok(())
}

/// The games of `path` if it is a games file of `train import` or
/// `generate` (known by its header line).
fn read_games_file(path: &str) -> Result<Option<Vec<TrainingGame>>> {
    let (file, _) = open_regular(Path::new(path), path)?;
    let mut reader = BufReader::new(file);
    let mut first = Vec::new();
    Read::take(&mut reader, MAX_LINE as u64).read_until(b'\n', &mut first)?;
    if !world::is_games_file(&String::from_utf8_lossy(&first)) {
        return Ok(None);
    }
    // The header line read, then the rest of the same file.
    let whole = BufReader::new(Read::chain(first.as_slice(), reader));
    Ok(Some(games::read(whole, path).map_err(|e| UsageError(e.0))?))
}

/// A game of a games file of `train import` or `generate` as a record
/// (`path` names the file in messages).
///
/// # Errors
/// A move that is not legal where it is played.
pub fn training_record(path: &str, game: &TrainingGame) -> Result<GameRecord> {
    let mut record = GameRecord::new(Position::start(8));
    for &mv in &game.moves {
        record
            .push(RecordedMove::plain(mv))
            .map_err(|e| UsageError(format!("{path} game {}: {e}", game.index)))?;
    }
    Ok(record)
}

/// Reads the games of `path`, one a line (transcripts, GGF games, board
/// strings followed by moves; `#` lines and blank lines skipped), and
/// hands each to `take` with its line's number; a line that is not a game
/// is refused, naming it.
///
/// # Errors
/// A file that cannot be read, a line that is not a game, or `take`'s
/// error.
pub fn each_game_line(
    path: &str,
    mut take: impl FnMut(usize, GameRecord) -> Result<()>,
) -> Result<()> {
    let mut lines = CappedLines::open(Path::new(path), path, MAX_LINE)?;
    while let Some(line) = lines.next_line()? {
        if line.text.starts_with('#') || line.text.trim().is_empty() {
            continue;
        }
        let game = parse_game(line.text, 8)
            .map_err(|e| UsageError(format!("{path} line {}: {e}", line.number)))?;
        take(line.number, game)?;
    }
    Ok(())
}

/// The openings of `book new --openings FILE` ([`Openings`]), one game a
/// line.
///
/// # Errors
/// A file that cannot be read or is refused.
pub fn read_openings(path: &str) -> Result<Vec<Vec<Move>>> {
    let refused = |e: OpeningsRefused| UsageError(e.0);
    let mut taken = Openings::new(path);
    each_game_line(path, |number, game| {
        Ok(taken.take(number, &game).map_err(refused)?)
    })?;
    Ok(taken.finish().map_err(refused)?)
}

/// The book of the text file `path` (as `book export` writes it), read a
/// line at a time (only the positions are held), of at most
/// [`super::MAX_POSITIONS`] positions.
///
/// # Errors
/// A file that cannot be read, a line refused, or too many positions.
pub fn read_book_text(path: &str) -> Result<Book> {
    let mut lines = CappedLines::open(Path::new(path), path, MAX_LINE)?;
    let mut book = Book::new();
    while let Some(line) = lines.next_line()? {
        book.read_text_line(line.number, line.text)
            .or_else(|e| usage(format!("{path} {e}")))?;
        if book.len() > super::MAX_POSITIONS {
            return usage(format!(
                "{path} holds more than {} positions, the most a book imported here holds",
                super::MAX_POSITIONS
            ));
        }
    }
    Ok(book)
}

/// `book add` without `--min-games`: the positions of the first `depth`
/// plies of every game of the files `paths` join `book` (at most `limit`
/// positions), each finished game's result counted. Returns the games
/// and the positions added.
///
/// # Errors
/// A file or game refused, or a book grown beyond `limit`.
pub fn add_games(
    book: &mut Book,
    paths: &[String],
    depth: u32,
    limit: usize,
) -> Result<(u64, usize)> {
    let (mut games, mut added) = (0u64, 0usize);
    for path in paths {
        each_game(path, |game, at| {
            let record = match game {
                InputGame::Training(game) => training_record(path, game)?,
                InputGame::Record(record) => *record,
            };
            added += plan_game(book, &record, depth, limit)
                .map_err(|e| UsageError(format!("{path} {at}: {e}")))?;
            games += 1;
            Ok(())
        })?;
    }
    Ok((games, added))
}

/// `book add --min-games N`: the positions that at least N of the
/// finished 8x8 games of the files `paths` reach within `depth` plies
/// ([`world::plan_world`], at most `limit` positions), their games
/// counted (returns the games and the positions added); with `None`
/// (`--count-only`) the games through the book's own positions only
/// ([`world::count_into`]; returns the games and the positions they
/// reached).
///
/// # Errors
/// A file or game refused, or a book grown beyond `limit`.
pub fn add_world(
    book: &mut Book,
    paths: &[String],
    depth: u32,
    min_games: Option<u64>,
    limit: usize,
) -> Result<(usize, usize)> {
    // The games files' games first, then the others', each in the files'
    // order.
    let mut trained: Vec<(Vec<Move>, i32)> = Vec::new();
    let mut owned: Vec<(Vec<Move>, i32)> = Vec::new();
    for path in paths {
        each_game(path, |game, _| {
            match game {
                InputGame::Training(game) => trained.push((game.moves.clone(), game.score)),
                InputGame::Record(game) => {
                    if let Some(score) = game
                        .final_score()
                        .filter(|_| game.start == Position::start(8))
                    {
                        owned.push((game.move_list(), score));
                    }
                }
            }
            Ok(())
        })?;
    }
    let games: Vec<CountedGame<'_>> = trained
        .iter()
        .chain(&owned)
        .map(|(moves, black_score)| CountedGame {
            moves,
            black_score: *black_score,
        })
        .collect();
    let changed = match min_games {
        Some(n) => {
            world::plan_world(book, &games, depth, n, limit).or_else(|e| usage(e.to_string()))?
        }
        None => world::count_into(book, &games, depth),
    };
    Ok((games.len(), changed))
}
