//! `reversi hint POSITION`: the best moves of a position with their values
//! (exact near the end). Also the search options shared by `nboard`, `gtp`
//! and `analyze` (`--depth`, `--level`, `--time`, `--exact`, `--threads`).

use super::{flag, option, usage, value, write_stdout};
use anyhow::Result;
use clap::{value_parser, Arg, ArgMatches, Command};
use reversi::engine::analyze::{
    shipped_book, Analyzer, BookUse, Certainty, Limits, MoveSearch, MoveValue,
    DEFAULT_EXACT_EMPTIES,
};
use reversi::engine::book::Book;
use reversi::engine::midgame::Level;
use reversi::eval::Discs;
use reversi::record::{parse_game, write_board_string, GameRecord};
use reversi::reversi::Move;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `--depth`, `--level`, `--time`, `--exact`, `--threads` with
/// `time_default` seconds.
pub(super) fn limits_args(time_default: &'static str) -> [Arg; 6] {
    [
        option(
            "depth",
            "DEPTH",
            "Midgame depth bound in plies (default: the time decides)",
        )
        .value_parser(value_parser!(u32).range(1..=60)),
        option(
            "level",
            "LEVEL",
            "Search with the engine's midgame search at this strength level, 1-30 \
             (pattern evaluation, N plies, Multi-ProbCut from level 5) instead of the \
             `strong` iterative search; --time caps it, --exact still decides where \
             values are exact",
        )
        .value_parser(value_parser!(u32).range(1..=i64::from(Level::MAX)))
        .conflicts_with("depth"),
        option(
            "time",
            "SECONDS",
            "Time for the midgame search of each position",
        )
        .value_parser(parse_seconds)
        .default_value(time_default),
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

/// `--book`, `--no-book`, `--book-randomness`: the opening book of the
/// engine's moves and rankings.
pub(super) fn book_args() -> [Arg; 3] {
    [
        option(
            "book",
            "FILE",
            "Opening book answering for the positions it holds, instead of a search \
             (default: the book built in; `reversi book` makes one)",
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

/// A seed for the book's random choices of an interactive session (the
/// protocols): the clock's nanoseconds, so that sessions vary.
pub(super) fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Parses a margin in discs: a number from 0 to 64.
fn parse_discs_margin(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(d) if (0.0..=64.0).contains(&d) => Ok(d),
        _ => Err(format!("{s:?} is not a number of discs from 0 to 64")),
    }
}

/// The book given by [`book_args`] (`None` with `--no-book`), its random
/// choices seeded with `seed`.
pub(super) fn book_of(m: &ArgMatches, seed: u64) -> Result<Option<BookUse>> {
    Ok(book_and_randomness(m)?.map(|(book, randomness)| BookUse::new(book, randomness, seed)))
}

/// The book given by [`book_args`] (`None` with `--no-book`) and its
/// `--book-randomness`.
pub(super) fn book_and_randomness(m: &ArgMatches) -> Result<Option<(Arc<Book>, Discs)>> {
    if m.get_flag("no-book") {
        return Ok(None);
    }
    let book = match m.get_one::<String>("book") {
        Some(path) => Arc::new(super::readers::read_book(path)?),
        None => shipped_book(),
    };
    let randomness = m.get_one::<f64>("book-randomness").copied().unwrap_or(0.0);
    Ok(Some((book, Discs(randomness))))
}

/// Parses a positive number of seconds.
fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() && t < 1e6 => Ok(Duration::from_secs_f64(t)),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

/// The limits given by [`limits_args`], with the `--weights` they name
/// made the active weights.
pub(super) fn limits_of(m: &ArgMatches) -> Result<Limits> {
    if let Some(path) = m.get_one::<String>("weights") {
        super::readers::use_weights(path)?;
    }
    let exact = m
        .get_one::<u32>("exact")
        .copied()
        .unwrap_or(DEFAULT_EXACT_EMPTIES);
    Ok(Limits {
        depth: m.get_one("depth").copied(),
        level: m.get_one("level").copied(),
        time: Some(value(m, "time")),
        exact_empties: exact,
        wld_empties: exact + 2,
        threads: m.get_one::<u32>("threads").map_or(1, |&t| t as usize),
        contempt: Discs(0.0),
    })
}

/// The 8x8 game record given by the `POSITION` and `MORE` words (joined
/// with spaces), as `hint` and `book show` take it.
pub(super) fn position_record(m: &ArgMatches) -> Result<GameRecord> {
    let words: Vec<String> = ["position", "more"]
        .iter()
        .flat_map(|id| m.get_many::<String>(id).into_iter().flatten().cloned())
        .collect();
    read_record(&words.join(" "), 8)
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
pub(super) fn read_record(text: &str, size: u8) -> Result<GameRecord> {
    let path = std::path::Path::new(text);
    let one_line = !text.contains('\n') && text.len() < 4096;
    let what = format!("record file {text}");
    let parsed = if one_line && path.is_file() {
        let owned = super::input::read_text_capped(path, &what, RECORD_FILE_CAP)?;
        parse_game(&owned, size)
    } else {
        match parse_game(text, size) {
            Err(_) if one_line && looks_like_a_path(text) => {
                let owned = super::input::read_text_capped(path, &what, RECORD_FILE_CAP)?;
                parse_game(&owned, size)
            }
            parsed => parsed,
        }
    };
    match parsed {
        Ok(g) => Ok(g),
        Err(e) => usage(format!("the game record {e}")),
    }
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

/// The name of a move: `f5` or `pass`.
pub(super) fn name(m: Move) -> String {
    m.to_string()
}

/// `exact`, `win-loss-draw` or `depth N`.
pub(super) fn certainty_text(c: Certainty) -> String {
    match c {
        Certainty::Exact => "exact".to_string(),
        Certainty::WinLossDraw => "win-loss-draw".to_string(),
        Certainty::Estimate { depth } => format!("depth {depth}"),
        Certainty::Book { level, .. } => format!("book (level {level})"),
    }
}

/// The JSON fields of a certainty.
pub(super) fn certainty_json(c: Certainty) -> String {
    match c {
        Certainty::Exact => "\"certainty\":\"exact\"".to_string(),
        Certainty::WinLossDraw => "\"certainty\":\"win-loss-draw\"".to_string(),
        Certainty::Estimate { depth } => format!("\"certainty\":\"estimate\",\"depth\":{depth}"),
        Certainty::Book { level, games } => {
            format!("\"certainty\":\"book\",\"level\":{level},\"games\":{games}")
        }
    }
}

fn line_text(v: &MoveValue) -> String {
    v.line
        .iter()
        .map(|&m| name(m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `reversi hint`'s arguments.
pub(super) fn command() -> Command {
    Command::new("reversi hint")
        .about(
            "The best moves of a position with their values in discs for the side to \
             move: exact near the end, else an estimate of the midgame search",
        )
        .arg(
            Arg::new("position")
                .value_name("POSITION")
                .required(true)
                .allow_hyphen_values(true)
                .help(
                    "A board string (64 of -/X/O then X or O to move), optionally followed \
                     by moves; a transcript from the start (f5d6c3); a GGF game; or a file \
                     holding one. The position is the one after the last move",
                ),
        )
        .arg(
            option("moves", "N", "How many moves to show")
                .value_parser(value_parser!(usize))
                .default_value("3"),
        )
        .arg(
            Arg::new("more")
                .value_name("MORE")
                .num_args(0..)
                .help("More words of the record (the side to move, moves), joined with spaces"),
        )
        .args(limits_args("2"))
        .args(book_args())
        .arg(flag("json", "One JSON object"))
}

/// Runs `reversi hint ...` (`args[0]` is `hint`).
pub fn run(args: &[String]) -> Result<()> {
    let m = super::parse(command(), &args[1..])?;
    let game = position_record(&m)?;
    let p = game.last();
    let limits = limits_of(&m)?;
    let count: usize = value(&m, "moves");
    let start = Instant::now();
    let mut search = Analyzer::new().with_book(book_of(&m, 0)?);
    let values = search.rank_moves(
        &p,
        count.max(1),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let millis = start.elapsed().as_millis();
    let board = write_board_string(&p);
    let text = if m.get_flag("json") {
        let items: Vec<String> = values
            .iter()
            .map(|v| {
                format!(
                    "{{\"move\":\"{}\",\"value\":{:.2},{},\"line\":\"{}\"}}",
                    name(v.mv),
                    v.value,
                    certainty_json(v.certainty),
                    line_text(v)
                )
            })
            .collect();
        format!(
            "{{\"position\":\"{board}\",\"empties\":{},\"moves\":[{}],\"nodes\":{},\"millis\":{millis}}}\n",
            p.board.empty().count_ones(),
            items.join(","),
            search.nodes()
        )
    } else if values.is_empty() {
        format!("{board}\nthe game is over\n")
    } else {
        let mut s = format!("{board}\n");
        for v in &values {
            s.push_str(&format!(
                "{:<4} {:+7.2}  {:<14} {}\n",
                name(v.mv),
                v.value,
                certainty_text(v.certainty),
                line_text(v)
            ));
        }
        s
    };
    write_stdout(&text)
}

/// The longest command line the protocols read (a GGF game of 60 moves
/// with evaluations and times is under 2 KB); the rest of a longer line is
/// skipped, so a line without end cannot fill the memory.
const MAX_LINE: usize = 1 << 20;

/// Reads one command line (without its end) into `buf`, at most
/// [`MAX_LINE`] bytes of it; `false` at the end of the input.
pub(super) fn read_command(
    input: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<bool> {
    use reversi::lines::{read_line_capped, LineRead};
    match read_line_capped(input, MAX_LINE, buf)? {
        LineRead::Line => Ok(true),
        LineRead::TooLong => {
            input.skip_until(b'\n')?;
            Ok(true)
        }
        LineRead::End => Ok(false),
    }
}
