//! The options that several commands share, parsed into typed values
//! once: the engine's search limits (`--depth`, `--level`, `--time`,
//! `--exact`, `--threads`, `--weights`: [`LimitOptions`]), its opening book
//! (`--book`, `--no-book`, `--book-randomness`: [`BookOptions`]), and the
//! game record a command reads as its operand (a transcript, a GGF game, a
//! board string, or a file holding one: [`read_record`]). `hint`,
//! `analyze`, `nboard`, `gtp`, `book show` and the depth study take them
//! from here.

use anyhow::Result;
use clap::{value_parser, Arg, ArgMatches};
use reversi::engine::analyze::{shipped_book, Analyzer, BookUse, Limits, DEFAULT_EXACT_EMPTIES};
use reversi::engine::book::Book;
use reversi::engine::midgame::Level;
use reversi::eval::Discs;
use reversi::kit::readers::read_weights;
use reversi::kit::{flag, option, usage};
use reversi::record::{parse_game, GameRecord};
use std::sync::Arc;
use std::time::Duration;

/// The level `hint`, `analyze` and `gtp` search at when neither `--level`
/// nor `--depth` is given: a level is a depth, so the same position gives
/// the same value on any machine (measured on one WTHOR game: level 8
/// analysed it in 1.5 s with consistent neighbouring values, where 0.5-2 s
/// of the `strong` iterative search a position took 18.9 s).
pub const DEFAULT_LEVEL: u32 = 8;

/// `--depth`, `--level`, `--time`, `--exact`, `--threads`, with
/// `time_default` seconds (`None`: no clock unless `--time` is given, so
/// that a level or a depth gives the same answer on any machine).
pub fn limits_args(time_default: Option<&'static str>) -> [Arg; 6] {
    let time = option(
        "time",
        "SECONDS",
        "Time for the search of each position (default: none, the level or depth \
         decides; a search cut by the time says so)",
    )
    .value_parser(parse_seconds);
    let time = match time_default {
        Some(t) => time.default_value(t),
        None => time,
    };
    [
        option(
            "depth",
            "DEPTH",
            "Depth bound in plies of the `strong` iterative search instead of a level",
        )
        .value_parser(value_parser!(u32).range(1..=60)),
        option(
            "level",
            "LEVEL",
            "Search with the engine's midgame search at this strength level, 1-30 \
             (pattern evaluation, N plies, Multi-ProbCut from level 5; default 8 \
             without --depth); --exact still decides where values are exact",
        )
        .value_parser(value_parser!(u32).range(1..=i64::from(Level::MAX)))
        .conflicts_with("depth"),
        time,
        option(
            "exact",
            "EMPTIES",
            "Solve exactly with at most this many empty squares (win/loss/draw \
             with two more); 18 by default, where a solve of every move takes \
             about a second",
        )
        .value_parser(value_parser!(u32).range(0..=30)),
        option(
            "threads",
            "THREADS",
            "Threads of the endgame solver (default 1)",
        )
        .value_parser(value_parser!(u32).range(1..=64)),
        option(
            "weights",
            "FILE",
            "Pattern weights for the levels, the solver's move ordering and its selective \
             passes (default: the trained weights built in)",
        ),
    ]
}

/// The search limits of [`limits_args`], as given.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitOptions {
    /// `--depth`: the midgame depth bound.
    pub depth: Option<u32>,
    /// `--level`: the midgame search's strength level.
    pub level: Option<u32>,
    /// `--time`: each position's time (`None`: no clock).
    pub time: Option<Duration>,
    /// `--exact`: solved with at most this many empty squares.
    pub exact: Option<u32>,
    /// `--threads`: the endgame solver's threads.
    pub threads: Option<u32>,
    /// `--weights`: the pattern weights' file.
    pub weights: Option<String>,
}

impl LimitOptions {
    /// Reads the options of [`limits_args`].
    pub fn from_matches(m: &ArgMatches) -> LimitOptions {
        LimitOptions {
            depth: m.get_one("depth").copied(),
            level: m.get_one("level").copied(),
            time: m.get_one("time").copied(),
            exact: m.get_one("exact").copied(),
            threads: m.get_one("threads").copied(),
            weights: m.get_one("weights").cloned(),
        }
    }

    /// The engine's limits.
    pub fn limits(&self) -> Result<Limits> {
        let exact = self.exact.unwrap_or(DEFAULT_EXACT_EMPTIES);
        Ok(Limits {
            depth: self.depth,
            level: self.level,
            time: self.time,
            exact_empties: exact,
            wld_empties: exact + 2,
            threads: self.threads.map_or(1, |t| t as usize),
            contempt: Discs(0.0),
        })
    }
}

impl LimitOptions {
    /// [`LimitOptions::limits`] at [`DEFAULT_LEVEL`] when neither `--level`
    /// nor `--depth` was given (`hint`, `analyze`, `gtp`).
    pub fn limits_at_default_level(&self) -> Result<Limits> {
        let mut limits = self.limits()?;
        if limits.level.is_none() && limits.depth.is_none() {
            limits.level = Some(DEFAULT_LEVEL);
        }
        Ok(limits)
    }
}

/// Parses a positive number of seconds.
fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() && t < 1e6 => Ok(Duration::from_secs_f64(t)),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

/// `--book`, `--no-book`, `--book-randomness`: the opening book of the
/// engine's moves and rankings.
pub fn book_args() -> [Arg; 3] {
    [
        option(
            "book",
            "FILE",
            "Opening book answering for the positions it holds, instead of a search \
             (default: the book built in; `reversi-lab book` makes one)",
        ),
        flag("no-book", "Search every position: no opening book").conflicts_with("book"),
        option(
            "book-randomness",
            "DISCS",
            "Play any book move within this many discs of the book's best, so that games \
             vary (default 0: the best)",
        )
        .value_parser(parse_discs_margin),
    ]
}

/// The opening book of [`book_args`], as given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BookOptions {
    /// `--book`: the book's file (none: the book built in).
    pub book: Option<String>,
    /// `--no-book`: no book at all.
    pub no_book: bool,
    /// `--book-randomness`: any book move within this many discs of the
    /// best.
    pub randomness: f64,
}

impl BookOptions {
    /// Reads the options of [`book_args`].
    pub fn from_matches(m: &ArgMatches) -> BookOptions {
        BookOptions {
            book: m.get_one("book").cloned(),
            no_book: m.get_flag("no-book"),
            randomness: m.get_one::<f64>("book-randomness").copied().unwrap_or(0.0),
        }
    }

    /// The book (`None` with `--no-book`), read, and its randomness.
    pub fn book_and_randomness(&self) -> Result<Option<(Arc<Book>, Discs)>> {
        if self.no_book {
            return Ok(None);
        }
        let book = match &self.book {
            Some(path) => {
                let book = reversi::kit::readers::read_book(path)?;
                let waiting = reversi::engine::book::pending(&book).len();
                if waiting > 0 {
                    // A stopped `reversi-lab book deepen` leaves each
                    // round's plan: the engine searches those positions.
                    eprintln!(
                        "warning: book {path} is unfinished: {waiting} positions wait for a \
                         search (`reversi-lab book search` or `deepen` finishes it); they and \
                         the positions leading to them are searched, not read"
                    );
                }
                Arc::new(book)
            }
            None => shipped_book(),
        };
        Ok(Some((book, Discs(self.randomness))))
    }

    /// The book's use by the engine (`None` with `--no-book`), its random
    /// choices seeded with `seed`.
    pub fn book_use(&self, seed: u64) -> Result<Option<BookUse>> {
        Ok(self
            .book_and_randomness()?
            .map(|(book, randomness)| BookUse::new(book, randomness, seed)))
    }
}

/// The engine's options of a command that only sets up the engine (the
/// protocols): its limits and its book.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// The options of [`limits_args`].
    pub limits: LimitOptions,
    /// The options of [`book_args`].
    pub book: BookOptions,
}

impl EngineOptions {
    /// Reads the options of [`limits_args`] and [`book_args`].
    pub fn from_matches(m: &ArgMatches) -> Result<EngineOptions> {
        Ok(EngineOptions {
            limits: LimitOptions::from_matches(m),
            book: BookOptions::from_matches(m),
        })
    }

    /// The engine these options ask for: its book (random choices seeded by
    /// `seed`) and its `--weights`, passed to it (nothing is installed for
    /// the process).
    pub fn analyzer(&self, seed: u64) -> Result<Analyzer> {
        let analyzer = Analyzer::new().with_book(self.book.book_use(seed)?);
        Ok(match &self.limits.weights {
            Some(path) => analyzer.with_weights(Arc::new(read_weights(path)?)),
            None => analyzer,
        })
    }
}

/// The request of a command that asks the engine about a game record
/// (`hint`, `analyze`): the record's words, the engine's options, and
/// `--json`.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordQuery {
    /// The record's words (`POSITION MORE...` or `GAME MORE...`), joined.
    pub record: String,
    /// The engine's limits and book.
    pub engine: EngineOptions,
    /// `--json`: one JSON object.
    pub json: bool,
    /// `--until N`: only the record's first N moves.
    pub until: Option<usize>,
}

impl RecordQuery {
    /// Reads the record operand `first` with its continuation `more`, the
    /// engine's options and `--json`.
    pub fn from_matches(m: &ArgMatches, first: &str, more: &str) -> Result<RecordQuery> {
        Ok(RecordQuery {
            record: record_words(m, first, more),
            engine: EngineOptions::from_matches(m)?,
            json: m.get_flag("json"),
            until: m.get_one::<usize>("until").copied(),
        })
    }

    /// The game record asked for on a board of `size`: read with
    /// [`read_record`], then cut after `--until`'s moves.
    pub fn game(&self, size: u8) -> Result<GameRecord> {
        let game = read_record(&self.record, size)?;
        match self.until {
            Some(n) => game
                .until(n)
                .or_else(|e| usage(format!("--until {n}: {e}"))),
            None => Ok(game),
        }
    }
}

/// `--until N`, the option of the commands that read a record: `what` is
/// what they do with the record's first N moves.
pub fn until_arg(what: &'static str) -> Arg {
    option("until", "N", what)
        .value_parser(clap::builder::RangedU64ValueParser::<usize>::new().range(0..=200))
}

/// Parses a margin in discs: a number from 0 to 64.
fn parse_discs_margin(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(d) if (0.0..=64.0).contains(&d) => Ok(d),
        _ => Err(format!("{s:?} is not a number of discs from 0 to 64")),
    }
}

/// A seed for the book's random choices of an interactive session (the
/// protocols): the clock's nanoseconds, so that sessions vary.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The words of a record operand and its continuation (`POSITION MORE...`,
/// clap's ids `first` and `more`), joined with spaces.
pub fn record_words(m: &ArgMatches, first: &str, more: &str) -> String {
    [first, more]
        .iter()
        .flat_map(|id| m.get_many::<String>(id).into_iter().flatten().cloned())
        .collect::<Vec<String>>()
        .join(" ")
}

/// The largest record file read (a GGF game is a few KB).
const RECORD_FILE_CAP: u64 = 1 << 20;

/// Reads a game record given as text or as the name of a file holding it.
///
/// A one-line argument naming an existing file is read as that file. Text
/// that is no valid record but looks like a file's name (see
/// [`looks_like_a_path`]) reports why the file cannot be read (`cannot read
/// record file game.ggf: No such file or directory`) rather than the record
/// parser's complaint about it (`"game" is not a move`).
pub fn read_record(text: &str, size: u8) -> Result<GameRecord> {
    let path = std::path::Path::new(text);
    let one_line = !text.contains('\n') && text.len() < 4096;
    let from_file = |path: &std::path::Path| -> Result<GameRecord> {
        let what = format!("record file {text}");
        let owned = reversi::kit::input::read_text_capped(path, &what, RECORD_FILE_CAP)?;
        // A byte-order mark is no character of the record (parse_game
        // skips it too): counted without it, as the server's upload reads.
        let owned = owned.strip_prefix('\u{feff}').unwrap_or(&owned);
        let games = games_in(owned);
        if games > 1 {
            return usage(format!(
                "{what} holds {games} games; give a file of one game (copy its line or PGN game into a file of its own)"
            ));
        }
        parse_game(owned, size).or_else(|e| usage(format!("{what}: the game record {e}")))
    };
    // A path that exists is a file (a FIFO included, waited for).
    if one_line && path.exists() && !path.is_dir() {
        return from_file(path);
    }
    match parse_game(text, size) {
        Ok(g) => Ok(g),
        Err(_) if one_line && looks_like_a_path(text) => from_file(path),
        Err(e) => usage(format!("the game record {e}")),
    }
}

/// How many games a record file's text holds when it is a collection
/// (Logistello `.gam` lines, PGN games); 1 for any other record.
fn games_in(text: &str) -> usize {
    let trimmed = text.trim_start();
    if reversi::record::archive::is_pgn(trimmed) {
        return reversi::record::archive::parse_pgn(trimmed).map_or(1, |g| g.len());
    }
    let first = trimmed.lines().next().unwrap_or("");
    if reversi::record::archive::is_gam_line(first) {
        return text.lines().filter(|l| !l.trim().is_empty()).count();
    }
    1
}

/// Whether `text`, which did not parse as a record, was meant as a file's
/// name: a single word that exists, holds a `/`, or ends in an extension
/// (`game.ggf`, `moves.txt`: 1-4 letters or digits, at least one a letter)
/// after a stem that cannot be a board string (one character that is no
/// board character `-._XxOoBbWw*`), so that a malformed board string such
/// as `....XO` keeps the parser's message.
fn looks_like_a_path(text: &str) -> bool {
    if text.is_empty() || text.contains(char::is_whitespace) {
        return false;
    }
    if text.contains('/') || std::path::Path::new(text).exists() {
        return true;
    }
    let Some((stem, extension)) = text.rsplit_once('.') else {
        return false;
    };
    let board_char = |c: char| "-._XxOoBbWw*".contains(c);
    (1..=4).contains(&extension.len())
        && extension.chars().all(|c| c.is_ascii_alphanumeric())
        && extension.chars().any(|c| c.is_ascii_alphabetic())
        && stem.chars().any(|c| !board_char(c))
}
