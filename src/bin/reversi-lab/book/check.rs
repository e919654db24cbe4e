//! `reversi-lab book check`: a book's values against deeper searches on
//! positions drawn at random (`reversi::lab::book::check` draws, searches
//! and sums up; this reads the options and the book and prints).

use super::parse_discs;
use crate::progress::Progress;
use anyhow::Result;
use clap::{value_parser, ArgMatches, Command};
use reversi::engine::midgame::Level;
use reversi::kit::readers::read_book;
use reversi::kit::{flag, option, usage, value, write_stdout};
use reversi::lab::book::check::{check as check_positions, sample, CheckSummary};
use reversi::units::Eval;

pub(super) fn check_command() -> Command {
    Command::new("reversi-lab book check")
        .about("How near a book's values are to deeper searches: --positions positions of the book that have a value, drawn at random (--seed), each searched again at --level from empty tables; prints one line per position (its ply, the book's value and the search's for the side to move, their difference, the position) as it finishes, then how many lie within --within discs")
        .arg(option("book", "FILE", "The book to check").required(true))
        .arg(option("level", "L", "Engine level of the searches (say 16 for a book whose leaves were searched at level 12)").value_parser(value_parser!(u32).range(1..=i64::from(Level::MAX))).required(true))
        .arg(option("positions", "N", "How many positions to draw (all of the book's valued positions if it has fewer)").value_parser(value_parser!(usize)).default_value("200"))
        .arg(option("seed", "S", "The seed of the draw: the same book and seed draw the same positions").value_parser(value_parser!(u64)).default_value("1"))
        .arg(option("within", "DISCS", "The margin of the summary").value_parser(parse_discs).default_value("2"))
        .arg(option("threads", "N", "Worker threads (the lines are the same for any number)").value_parser(value_parser!(usize)).default_value("2"))
        .arg(flag("quiet", "No progress on stderr").short('q'))
}

/// `reversi-lab book check`'s request.
pub(super) struct Check {
    book: String,
    level: u32,
    positions: usize,
    seed: u64,
    within: Eval,
    threads: usize,
    quiet: bool,
}

impl Check {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Check> {
        Ok(Check {
            book: value(m, "book"),
            level: value(m, "level"),
            positions: value(m, "positions"),
            seed: value(m, "seed"),
            within: value(m, "within"),
            threads: value(m, "threads"),
            quiet: m.get_flag("quiet"),
        })
    }
}

pub(super) fn check(r: Check) -> Result<()> {
    let book = read_book(&r.book)?;
    let keys = sample(&book, r.positions, r.seed);
    if keys.is_empty() {
        return usage(format!(
            "{}: the book has no position with a value to check",
            reversi::kit::escape(&r.book)
        ));
    }
    write_stdout(&format!(
        "{} positions of {} drawn with seed {}, searched at level {} (values for the side to move, in discs; the position has X to move)\n",
        keys.len(),
        reversi::kit::escape(&r.book),
        r.seed,
        r.level
    ))?;
    let mut progress = Progress::of("book check", "positions", r.quiet, keys.len() as u64);
    let mut results = Vec::with_capacity(keys.len());
    let mut failed = None;
    check_positions(&book, &keys, r.level, r.threads, |c| {
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
