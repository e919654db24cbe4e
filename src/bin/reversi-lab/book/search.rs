//! `reversi-lab book search|merge`, and `new|add --searched`: the searches
//! of a planned book's pending positions into search files (one run, or
//! run K of N with `--shard`), continued after a stop, and their merge into
//! the book. The files' format is `reversi::lab::book::searches`'s, their
//! continuation and merge rules `reversi::lab::shard`'s.

use super::{Convert, Searching};
use crate::progress::Progress;
use anyhow::Result;
use clap::ArgMatches;
use reversi::engine::book::Book;
use reversi::kit::output_files::{self, Signature};
use reversi::kit::readers::read_book;
use reversi::kit::{usage, value};
use reversi::lab::book::searches::{self, SearchFile};
use reversi::lab::book::{self as build, Searched};
use reversi::lab::shard::{push_shard, read_shards, MergeRules, Resumable, Shard};
use reversi::units::Eval;

/// The search files of `reversi-lab book search`: a header line.
const SEARCHED: Signature = searches::SEARCHES;

/// `reversi-lab book search`'s request.
pub(super) struct Search {
    book: String,
    out: String,
    level: u32,
    shard: Shard,
    searching: Searching,
}

impl Search {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Search> {
        Ok(Search {
            book: value(m, "book"),
            out: value(m, "out"),
            level: value(m, "level"),
            shard: m.get_one::<Shard>("shard").copied().unwrap_or(Shard::WHOLE),
            searching: Searching::from_matches(m),
        })
    }
}

pub(super) fn search(r: Search) -> Result<()> {
    let book = read_book(&r.book)?;
    search_into(r.searching, &book, r.level, &r.out, r.shard)
}

/// Searches the pending positions of `book` of `shard` at `level` into the
/// search file `out` (continued if it holds some of them already).
pub(super) fn search_into(
    searching: Searching,
    book: &Book,
    level: u32,
    out: &str,
    shard: Shard,
) -> Result<()> {
    let searched = SearchFile::of(book);
    let list = searched.list();
    let mut header_line = searched.header(level);
    push_shard(&mut header_line, shard);
    let check = |line: &str| searched.check_line(line, level).map(|r| r.item);
    let threads = searching.threads;
    let mut progress = Progress::new(searching.quiet);
    Resumable {
        signature: SEARCHED,
        noun: "position",
        out,
        header_line: &header_line,
        force: searching.force,
        item: &check,
        shard,
        items: list.len() as u64,
        max_lines: searches::MAX_LINES,
        progress: ("book search", "positions"),
    }
    .run(
        |ks, deliver| {
            build::search_pending(book, list, level, shard, ks, threads, |r| {
                deliver(r.to_line())
            });
        },
        &mut |e| progress.event(out, e),
    )
}

pub(super) fn merge(r: Convert) -> Result<()> {
    let planned = r.plan_book_out()?;
    let mut book = read_book(&r.input)?;
    merge_files(&mut book, &r.searched, r.odd_gain)?;
    output_files::write(&[planned], &[&book.to_bytes()])
}

/// Stores the results of the search files `inputs` (every shard of one
/// split of `book`'s pending positions) in `book` and values it, each
/// move into the book losing `odd_gain` (0: plain negamax).
pub(super) fn merge_files(book: &mut Book, inputs: &[String], odd_gain: Eval) -> Result<()> {
    let searched = SearchFile::of(book);
    let check_header = |path: &str, header: &str| searched.check_header(path, header);
    let item = |header: &str, line: &str| searched.read_line(header, line);
    let rules = MergeRules {
        kinds: &[searches::SEARCHES],
        kind: SEARCHED.kind,
        check_header: &check_header,
        again: "search",
        noun: "position",
        max_items: searched.list().len() as u64,
        item: &item,
    };
    let merged = read_shards(&rules, inputs)?;
    let results: Vec<Searched> = merged.items.into_iter().map(|(_, r)| r).collect();
    build::merge(book, searched.list(), &results, odd_gain).or_else(|e| usage(e.to_string()))
}
