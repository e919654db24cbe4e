//! `reversi-lab book check`: a book's values against deeper searches on
//! positions drawn at random (`reversi::lab::book::check` draws, searches
//! and sums up; this reads the options and the book and prints).

use crate::args::{self, Running};
use crate::progress::Progress;
use anyhow::Result;
use clap::{value_parser, ArgMatches, Command};
use reversi::engine::midgame::Level;
use reversi::kit::readers::read_book;
use reversi::kit::{option, value, write_stdout, UsageError};
use reversi::lab::book::check::{check as check_positions, drawn, CheckSummary};
use reversi::lab::book::parse_discs;
use reversi::units::Eval;

pub(super) fn check_command() -> Command {
    Command::new("reversi-lab book check")
        .about("How near a book's values are to deeper searches: --positions positions of the book that have a value, drawn at random (--seed), each searched again at --level from empty tables; prints one line per position (its ply, the book's value and the search's for the side to move, their difference, the position) as it finishes, then how many lie within --within discs")
        .arg(option("book", "FILE", "The book to check").required(true))
        .arg(option("level", "L", "Engine level of the searches (say 16 for a book whose leaves were searched at level 12)").value_parser(value_parser!(u32).range(1..=i64::from(Level::MAX))).required(true))
        .arg(option("positions", "N", "How many positions to draw (all of the book's valued positions if it has fewer)").value_parser(value_parser!(usize)).default_value("200"))
        .arg(option("seed", "S", "The seed of the draw: the same book and seed draw the same positions").value_parser(value_parser!(u64)).default_value("1"))
        .arg(option("within", "DISCS", "The margin of the summary").value_parser(parse_discs).default_value("2"))
        .arg(args::threads("Worker threads (the lines are the same for any number)"))
        .arg(args::quiet())
}

/// `reversi-lab book check`'s request.
pub(super) struct Check {
    book: String,
    level: u32,
    positions: usize,
    seed: u64,
    within: Eval,
    running: Running,
}

impl Check {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Check> {
        Ok(Check {
            book: value(m, "book"),
            level: value(m, "level"),
            positions: value(m, "positions"),
            seed: value(m, "seed"),
            within: value(m, "within"),
            running: Running::from_matches(m),
        })
    }
}

pub(super) fn check(r: Check) -> Result<()> {
    let book = read_book(&r.book)?;
    let name = reversi::kit::escape(&r.book);
    let (keys, heading) = drawn(&book, &name, r.positions, r.seed, r.level).map_err(UsageError)?;
    write_stdout(&heading)?;
    let mut progress = Progress::of(
        "book check",
        "positions",
        r.running.quiet,
        keys.len() as u64,
    );
    let mut results = Vec::with_capacity(keys.len());
    let mut failed = None;
    check_positions(&book, &keys, r.level, r.running.threads, |c| {
        if let Err(e) = write_stdout(&format!("{c}\n")) {
            failed = Some(e);
            return false;
        }
        results.push(c);
        progress.at(results.len() as u64);
        true
    });
    if let Some(e) = failed {
        return Err(e);
    }
    write_stdout(&format!("{}\n", CheckSummary::of(&results, r.within)))
}
