//! `reversi-lab book search|merge`: the searches of a planned book's
//! pending positions into search files (one run, or run K of N with
//! `--shard`), continued after a stop, and their merge into the book
//! (`reversi::lab::book::searches` writes and merges the files).

use super::{search_into, Convert};
use crate::args::{self, Running};
use anyhow::Result;
use clap::ArgMatches;
use reversi::kit::output_files;
use reversi::kit::readers::read_book;
use reversi::kit::value;
use reversi::lab::book::searches::merge_files;
use reversi::lab::shard::Shard;

/// `reversi-lab book search`'s request.
pub(super) struct Search {
    book: String,
    out: String,
    level: u32,
    shard: Shard,
    running: Running,
}

impl Search {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Search> {
        Ok(Search {
            book: value(m, "book"),
            out: value(m, "out"),
            level: value(m, "level"),
            shard: args::shard_of(m),
            running: Running::from_matches(m),
        })
    }
}

pub(super) fn search(r: Search) -> Result<()> {
    let book = read_book(&r.book)?;
    search_into(r.running, &book, r.level, &r.out, r.shard)
}

pub(super) fn merge(r: Convert) -> Result<()> {
    let planned = r.plan_book_out()?;
    let mut book = read_book(&r.input)?;
    merge_files(&mut book, &r.searched, r.odd_gain)?;
    output_files::write(&[planned], &[&book.to_bytes()])
}
