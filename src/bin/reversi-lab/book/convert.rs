//! `reversi-lab book export|import|import-edax|export-edax`: a book to
//! and from its text form and Edax's `book.dat` (the forms are
//! `reversi::engine::book`'s and `reversi::record::edax_book`'s), and the
//! request of every command that makes one file of another.

use super::plan_book_out;
use crate::args::Running;
use anyhow::Result;
use clap::ArgMatches;
use reversi::engine::book::text::TEXT_HEADER;
use reversi::engine::book::Book;
use reversi::kit::output_files::{self, InPlace, Planned, Rule, Signature};
use reversi::kit::readers::{read_book, read_book_bytes};
use reversi::kit::{usage, value, write_stdout};
use reversi::lab::book::input::read_book_text;
use reversi::record::edax_book;
use std::path::Path;

/// The request of a command that makes one file of another (`merge`,
/// `export`, `import`, `import-edax`, `export-edax`): its input (`--book`,
/// or the TEXT or EDAX_BOOK operand), `--out`, `--force`, `--quiet`, and
/// merge's search files.
pub(super) struct Convert {
    /// The file read.
    pub(super) input: String,
    out: Option<String>,
    running: Running,
    /// `merge`'s search files.
    pub(super) searched: Vec<String>,
    /// `merge`'s `--odd-gain` (0 elsewhere).
    pub(super) odd_gain: reversi::units::Eval,
}

impl Convert {
    /// Reads the request of a command whose input is the argument `input`.
    pub(super) fn from_matches(m: &ArgMatches, input: &str) -> Convert {
        Convert {
            input: value(m, input),
            out: m.get_one("out").cloned(),
            running: Running::from_matches(m),
            searched: m
                .try_get_many::<String>("searched")
                .ok()
                .flatten()
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
            odd_gain: m
                .try_get_one("odd-gain")
                .ok()
                .flatten()
                .copied()
                .unwrap_or_default(),
        }
    }

    /// `--out`, required where this is called.
    fn out(&self) -> &str {
        self.out.as_deref().expect("--out is required")
    }

    /// Plans `--out`, a book.
    pub(super) fn plan_book_out(&self) -> Result<Planned> {
        plan_book_out(self.out(), self.running.force)
    }
}

/// A book's text form: its header line.
const TEXT: Signature = Signature {
    start: TEXT_HEADER,
    former: None,
    kind: "a book's text form",
};

pub(super) fn export(r: Convert) -> Result<()> {
    let book = read_book(&r.input)?;
    let text = book.to_text();
    match &r.out {
        None => write_stdout(&text),
        Some(out) => {
            let planned = output_files::plan_output(
                "--out",
                Path::new(out),
                &Rule::written_by(TEXT, r.running.force, InPlace::Devices),
            )?;
            output_files::write(&[planned], &[text.as_bytes()])
        }
    }
}

pub(super) fn import(r: Convert) -> Result<()> {
    let planned = r.plan_book_out()?;
    let book = read_book_text(&r.input)?;
    output_files::write(&[planned], &[&book.to_bytes()])
}

/// Edax book files: their magic bytes.
const EDAX_BOOK: Signature = edax_book::EDAX_BOOK_SIGNATURE;

pub(super) fn import_edax(r: Convert) -> Result<()> {
    let planned = r.plan_book_out()?;
    let path = &r.input;
    let bytes = read_book_bytes(path, "Edax book")?;
    let edax = edax_book::from_bytes(&bytes).or_else(|e| usage(format!("{path}: {e}")))?;
    let book = Book::from_edax(&edax).or_else(|e| usage(format!("{path}: {e}")))?;
    r.running
        .note(&format!("{} positions read from {path}", book.len()));
    output_files::write(&[planned], &[&book.to_bytes()])
}

pub(super) fn export_edax(r: Convert) -> Result<()> {
    let book = read_book(&r.input)?;
    let planned = output_files::plan_output(
        "--out",
        Path::new(r.out()),
        &Rule::written_by(EDAX_BOOK, r.running.force, InPlace::Devices),
    )?;
    output_files::write(&[planned], &[&edax_book::to_bytes(&book.to_edax())])
}
