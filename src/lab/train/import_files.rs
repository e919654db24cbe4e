//! `train import` over its files: the collections read by path, the kept
//! games, the dropped list and the theoretical labels written whole or
//! not at all (the outputs compared as files first, each replaced only
//! if it is of its kind or with `--force`), the progress reported to a
//! callback (the front end keeps the clock and prints). The rules of what
//! is kept are [`super::import`]'s.

use super::formats::{dropped, games, labels};
use super::import::{known_form, FileCounts, ImportError, ImportRun, Imported, Sinks};
use crate::files::output_files::{self, InPlace, Planned, Rule, Signature, Streams};
use crate::files::UsageError;
use crate::record::collection::{collection_usage, form_of, read_collection};
use anyhow::Result;
use std::io::Write;
use std::path::Path;

/// The outputs of `train import`: `--out`, and `--dropped` and
/// `--theoretical-labels` when given; `force`: each replaced even if it
/// is another kind of file.
#[derive(Clone, Copy, Debug)]
pub struct ImportOutputs<'a> {
    /// The games file.
    pub out: &'a str,
    /// The dropped-games list.
    pub dropped: Option<&'a str>,
    /// The theoretical label file.
    pub theoretical_labels: Option<&'a str>,
    /// Whether another kind of file is replaced.
    pub force: bool,
}

/// What an import tells its front end as it goes.
#[derive(Clone, Copy, Debug)]
pub enum ImportEvent<'a> {
    /// The outputs are planned and every collection's form known: the
    /// reading starts.
    Started,
    /// The collection `path` is read: its counts.
    Read(&'a str, FileCounts),
    /// Every output is written: the games kept.
    Written(u64),
}

impl ImportOutputs<'_> {
    /// The outputs given, each its option, its path and the signature of
    /// the files it replaces, in this order.
    fn given(&self) -> Vec<(&'static str, &str, Signature)> {
        [
            ("--out", Some(self.out), games::IMPORTED),
            ("--dropped", self.dropped, dropped::DROPPED),
            (
                "--theoretical-labels",
                self.theoretical_labels,
                labels::THEORETICAL,
            ),
        ]
        .into_iter()
        .filter_map(|(option, path, ours)| Some((option, path?, ours)))
        .collect()
    }

    /// Plans the outputs, each its own file (compared as files first,
    /// before any is planned or written).
    fn plan(&self) -> Result<Vec<Planned>> {
        let given = self.given();
        let named: Vec<(&str, &Path)> = given.iter().map(|&(o, p, _)| (o, Path::new(p))).collect();
        output_files::check_distinct(&named)?;
        given
            .iter()
            .map(|&(option, path, ours)| {
                let rule = Rule::written_by(ours, self.force, InPlace::Devices);
                output_files::plan_output(option, Path::new(path), &rule)
            })
            .collect()
    }
}

/// Imports the collections `files` (in this order) into the outputs `o`,
/// reporting to `report`; returns what was made (its table is the
/// command's output).
///
/// # Errors
/// An output refused or that cannot be written (then none is changed), a
/// collection that cannot be read or is refused ([`UsageError`]).
pub fn import_files(
    files: &[String],
    o: &ImportOutputs,
    report: &mut dyn FnMut(ImportEvent),
) -> Result<Imported> {
    let planned = o.plan()?;
    let mut forms = Vec::with_capacity(files.len());
    for path in files {
        forms.push(known_form(path, form_of(path)?).map_err(collection_usage)?);
    }
    report(ImportEvent::Started);
    // The games and the dropped list go to their temporary files as they
    // come; the labels (one per kept .wtb game) are written at the end.
    let mut streams = Streams::open(planned)?;
    let paths = o.given();
    let cannot = |k: usize, e: std::io::Error| {
        let path = paths.get(k).map_or("", |&(_, path, _)| path);
        UsageError(format!(
            "cannot write output file {path}: {e}; no output file was changed"
        ))
    };
    if o.dropped.is_some() {
        writeln!(streams.writer(1), "{}", dropped::header()).map_err(|e| cannot(1, e))?;
    }
    let mut run = ImportRun::new(o.dropped.is_some());
    for (path, form) in files.iter().zip(forms) {
        let mut writers = streams.writers();
        let (games_writer, rest) = writers.split_first_mut().expect("--out is planned");
        let mut sinks = Sinks {
            games: &mut **games_writer,
            dropped: match rest.first_mut() {
                Some(w) if o.dropped.is_some() => Some(&mut **w),
                _ => None,
            },
        };
        let counts = run
            .add_file(path, read_collection(path, form)?, &mut sinks)
            .map_err(|e| match e {
                ImportError::Collection(e) => collection_usage(e),
                ImportError::Games(e) => cannot(0, e),
                ImportError::Dropped(e) => cannot(1, e),
            })?;
        report(ImportEvent::Read(path, counts));
    }
    let done = run.finish();
    let kept = usize::try_from(done.kept).unwrap_or(usize::MAX);
    let games_head = format!("{}\n", games::imported_header(kept, files.len()));
    let mut heads: Vec<Option<&[u8]>> = vec![Some(games_head.as_bytes())];
    if o.dropped.is_some() {
        heads.push(None);
    }
    if o.theoretical_labels.is_some() {
        let k = heads.len();
        let header = labels::theoretical_header(o.out, done.theoretical.len());
        labels::write(streams.writer(k), &header, &done.theoretical).map_err(|e| cannot(k, e))?;
        heads.push(None);
    }
    streams.commit(&heads)?;
    report(ImportEvent::Written(done.kept));
    Ok(done)
}
