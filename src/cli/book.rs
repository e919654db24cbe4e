//! `reversi book show|stats`: reading the opening book (see `reversi book
//! --help`, docs/BOOK.md). Building books is the lab's (`reversi-lab
//! book ...`); the reader is [`reversi::kit::readers::read_book`].

use super::options::{read_book_warning, read_record, record_words};
use anyhow::Result;
use clap::{Arg, ArgMatches, Command};
use reversi::engine::book::{key_of, pending, ply, successor, unfinished, Book, Successor};
use reversi::engine::RelativePosition;
use reversi::kit::readers::read_book;
use reversi::kit::{usage, write_stdout};
use reversi::record::write_board_string;
use reversi::units::Eval;
use std::fmt::Write as _;

/// The `book` subcommands of the lab (`reversi-lab book ...`): every one
/// that writes a book or another form of one.
const LAB_SUBCOMMANDS: &[&str] = &[
    "new",
    "deepen",
    "add",
    "search",
    "merge",
    "check",
    "export",
    "import",
    "import-edax",
    "export-edax",
];

/// Whether `args` (`book ...`) name a subcommand of the lab's.
pub fn is_lab_subcommand(args: &[String]) -> bool {
    args.get(1)
        .is_some_and(|sub| LAB_SUBCOMMANDS.contains(&sub.as_str()))
}

fn book_arg(help: &'static str) -> Arg {
    reversi::kit::option("book", "FILE", help)
}

fn show_command() -> Command {
    Command::new("reversi book show")
        .about("A position's opening name, its book moves with their values in discs for the side to move (`book`: the position after it is in the book, valued by negamax; `level L`: the best move leaving the book, searched) and the games through each, and the games through it")
        .arg(book_arg("The book (default: the book built in)"))
        .arg(Arg::new("position").value_name("POSITION").required(true).allow_hyphen_values(true).help("A board string (64 of -/X/O then X or O to move), optionally followed by moves; a transcript from the start (f5d6c3); a GGF game; or a file holding one"))
        .arg(Arg::new("more").value_name("MORE").num_args(0..).help("More words of the record, joined with spaces"))
}

fn stats_command() -> Command {
    Command::new("reversi book stats")
        .about("What a book holds: positions per ply, their levels, games, and the positions waiting for a search")
        .arg(book_arg("The book (default: the book built in)"))
}

/// The subcommands' definitions (for the consistency test).
#[cfg(test)]
pub(super) fn commands() -> [Command; 2] {
    [show_command(), stats_command()]
}

/// Runs `reversi book ...` (`args[0]` is `book`).
pub fn run(args: &[String]) -> Result<()> {
    let sub = args.get(1).map(String::as_str);
    let rest = args.get(2..).unwrap_or(&[]);
    match sub {
        Some("show") => reversi::kit::parse_and_run(show_command(), rest, Show::from_matches, show),
        Some("stats") => reversi::kit::parse_and_run(
            stats_command(),
            rest,
            |m| Ok(m.get_one::<String>("book").cloned()),
            stats,
        ),
        Some("-h" | "--help" | "help") | None => write_stdout(
            "The opening book: `show` prints a position's book moves, `stats` describes a book. Books are built by the lab: see `reversi-lab book --help`.\n\nUsage:\n  reversi book show [--book BOOK] POSITION\n  reversi book stats [--book BOOK]\n\nEach has --help.\n",
        ),
        Some(other) => usage(format!(
            "unknown book subcommand {:?}; the subcommands are show and stats (and the lab's {}: see `reversi-lab book --help`)",
            reversi::kit::escape(other),
            LAB_SUBCOMMANDS.join(", ")
        )),
    }
}

/// `+1.50`-style discs of a book value.
fn discs(v: Eval) -> String {
    format!("{:+.2}", v.discs())
}

/// `reversi book show`'s request.
struct Show {
    /// `--book` (none: the book built in).
    book: Option<String>,
    /// The record whose last position is shown.
    record: String,
}

impl Show {
    fn from_matches(m: &ArgMatches) -> Result<Show> {
        Ok(Show {
            book: m.get_one("book").cloned(),
            record: record_words(m, "position", "more"),
        })
    }
}

fn show(request: Show) -> Result<()> {
    let book = match &request.book {
        Some(path) => std::sync::Arc::new(read_book_warning(path)?),
        None => reversi::engine::analyze::shipped_book(),
    };
    let game = read_record(&request.record, 8)?;
    let p = game.last();
    let mut text = format!("{}\n", write_board_string(&p));
    if let Some(name) = game.opening() {
        let _ = writeln!(text, "opening: {name}");
    }
    let position = RelativePosition::from(&p);
    match book.lookup(&position) {
        None => text.push_str("not in the book\n"),
        Some(entry) => {
            let c = entry.counts;
            let _ = writeln!(
                text,
                "games: {} ({} won, {} drawn, {} lost by the side to move)",
                c.games(),
                c.wins,
                c.draws,
                c.losses
            );
            let ranked = entry.ranked();
            if ranked.is_empty() {
                text.push_str("no move valued yet (waiting for a search)\n");
            } else if unfinished(&book).contains(&key_of(&position).0) {
                // The engine does not read these: they count a waiting
                // position's moves alone.
                text.push_str(
                    "unfinished: this position waits for a search or leads to one; \
                     the engine searches it instead of reading these values\n",
                );
            }
            for r in ranked {
                let how = if r.searched {
                    "book".to_owned()
                } else {
                    format!("level {}", entry.level)
                };
                let games = games_after(&book, &position, r.mv.square.0);
                let _ = writeln!(
                    text,
                    "{:<4} {:>6}  {how}{games}",
                    r.mv.square,
                    discs(r.mv.value)
                );
            }
        }
    }
    write_stdout(&text)
}

/// The games through the position after `square` in `position`, for the
/// side that plays it: `  N games: W won, D drawn, L lost` (nothing when
/// the book counts none there).
fn games_after(book: &Book, position: &RelativePosition, square: u8) -> String {
    let Successor::Position {
        position: after,
        same_side,
    } = successor(position, square)
    else {
        return String::new();
    };
    let Some(c) = book
        .lookup(&after)
        .map(|e| e.counts)
        .filter(|c| c.games() > 0)
    else {
        return String::new();
    };
    let (won, lost) = if same_side {
        (c.wins, c.losses)
    } else {
        (c.losses, c.wins)
    };
    format!(
        "  {} games: {won} won, {} drawn, {lost} lost",
        c.games(),
        c.draws
    )
}

/// `reversi book stats [--book PATH]` (the built-in book by default).
fn stats(path: Option<String>) -> Result<()> {
    let (book, path) = match path {
        Some(path) => (std::sync::Arc::new(read_book(&path)?), path),
        None => (
            reversi::engine::analyze::shipped_book(),
            "the built-in book".to_owned(),
        ),
    };
    let sorted = book.sorted();
    let mut per_ply = std::collections::BTreeMap::<u32, (u64, u64, u64)>::new();
    let mut levels = std::collections::BTreeMap::<u8, u64>::new();
    let (mut moves, mut games) = (0u64, 0u64);
    for (key, e) in &sorted {
        let row = per_ply.entry(ply(*key)).or_default();
        row.0 += 1;
        row.1 += e.searched.len() as u64;
        row.2 += e.counts.games();
        moves += e.searched.len() as u64;
        games += e.counts.games();
        if e.unsearched.is_some() {
            *levels.entry(e.level).or_default() += 1;
        }
    }
    let pending = pending(&book).len();
    let start = book.lookup(&RelativePosition::start(8));
    let mut text = format!(
        "{path}: {} positions, {moves} book moves, {games} games counted, {pending} positions waiting for a search, {} bytes\n",
        sorted.len(),
        book.to_bytes().len()
    );
    if let Some(v) = start.and_then(|e| e.value()) {
        let _ = writeln!(text, "value of the start position: {}", discs(v));
    }
    text.push_str("\n| ply | positions | book moves | games |\n| ---: | ---: | ---: | ---: |\n");
    for (ply, (n, k, g)) in &per_ply {
        let _ = writeln!(text, "| {ply} | {n} | {k} | {g} |");
    }
    if !levels.is_empty() {
        text.push_str("\n| level | searched positions |\n| ---: | ---: |\n");
        for (level, n) in &levels {
            let _ = writeln!(text, "| {level} | {n} |");
        }
    }
    write_stdout(&text)
}
