//! `reversi-lab train import`: the games of WTHOR files (`.wtb`, PGN) and of
//! Logistello's `.gam` file as a games file for `train fit` and `train
//! label`; and the reading of such collections for `book add`.

use super::labels::{listed_position_number, parse_empties, LABELS};
use super::{read_games, test_table, MAX_GAMES};
use crate::cli::input::open_regular;
use crate::cli::output_files::{self, InPlace, Rule, Signature};
use crate::cli::readers::read_weights;
use crate::cli::{flag, option, value, write_stdout, UsageError};
use crate::sharded::{append_lines, Progress, Resumable};
use anyhow::Result;
use clap::value_parser;
use clap::{Arg, ArgMatches, Command};
use reversi::eval::pattern;
use reversi::lab::train::import::{held_out_positions, theoretical_label, Importer, Verdict};
use reversi::lab::train::labels::{label_positions, list_checksum, Label, LabelSettings};
use reversi::lab::train::Shard;
use reversi::record::archive::{self, ArchiveGame};
use reversi::record::write_transcript;
use reversi::units::Eval;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// The largest collection file read, in bytes (all WTHOR PGN files of
/// 1977-2023 together are about 60 MB).
const MAX_COLLECTION_BYTES: u64 = 512 << 20;

/// The forms of game collections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// WTHOR's binary `.wtb`.
    Wtb,
    /// PGN (WTHOR's conversion).
    Pgn,
    /// Logistello's `.gam`, a game a line.
    Gam,
}

/// The `import` command's arguments.
pub(super) fn import_command() -> Command {
    Command::new("reversi-lab train import")
        .about("Make a games file (for `train fit` and `train label`) from game collections: WTHOR's binary files (`WTH_YYYY.wtb`, by the extension), WTHOR PGN and Logistello's `.gam` lines (by their text). Passes are inferred and every game is replayed (an illegal move names its file and game). Dropped, in this order: unfinished games (no final score to label them with), games whose moves repeat an earlier game's up to symmetry (the first file given keeps it), and games through any FFO test position #1-#79 under the 8 symmetries with the same side to move. Prints a table of the games read, dropped and kept per file. Files are read whole and must not be compressed: `zcat WTH_*.pgn.gz > wthor.pgn` first")
        .arg(Arg::new("files").value_name("FILE").num_args(1..).required(true).help("Collection files, read in this order"))
        .arg(option("out", "FILE", "The games file to write (replaced only if it is an imported games file, or with --force)").required(true))
        .arg(option("dropped", "FILE", "Also write the dropped games, one a line: file, game number, why, moves (tab-separated)"))
        .arg(option("theoretical-labels", "FILE", "Also write a label file (as `train label` writes, for `train fit --labels`) of the kept WTHOR .wtb games' theoretical scores: each game's position at the file's depth (24 empty squares), valued exactly"))
        .arg(flag("force", "Replace --out, --dropped or --theoretical-labels even if it is another kind of file"))
        .arg(flag("quiet", "No progress on stderr").short('q'))
}

/// The games files `import` writes.
const IMPORTED: Signature = Signature {
    start: "# reversi train import:",
    kind: "a games file of `reversi-lab train import`",
};

/// The dropped-games lists `import` writes.
const DROPPED: Signature = Signature {
    start: "# reversi train import, dropped:",
    kind: "a dropped-games list of `reversi-lab train import`",
};

/// The form of the collection in `path`, by its extension (`.wtb`) or its
/// first bytes, or `None` for a file of none of these forms. A gzip file
/// is refused with the way to read it.
pub(crate) fn form_of(path: &str) -> Result<Option<Form>> {
    if Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
    {
        return Ok(Some(Form::Wtb));
    }
    let (file, _) = open_regular(Path::new(path), path)?;
    let mut head = Vec::new();
    file.take(4096)
        .read_to_end(&mut head)
        .map_err(|e| UsageError(format!("cannot read {path}: {e}")))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        return Err(UsageError(format!(
            "{path} is gzip-compressed: decompress it first (zcat {path} > FILE)"
        ))
        .into());
    }
    let text = String::from_utf8_lossy(&head);
    let first_line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    Ok(if archive::is_pgn(&text) {
        Some(Form::Pgn)
    } else if archive::is_gam_line(first_line) {
        Some(Form::Gam)
    } else {
        None
    })
}

/// Reads every game of the collection `path` of `form` (a regular file of
/// at most 512 MiB).
pub(crate) fn read_collection(path: &str, form: Form) -> Result<Vec<ArchiveGame>> {
    let (file, length) = open_regular(Path::new(path), path)?;
    if length > MAX_COLLECTION_BYTES {
        return Err(UsageError(format!(
            "{path} is larger than {MAX_COLLECTION_BYTES} bytes: split it"
        ))
        .into());
    }
    let mut bytes = Vec::new();
    file.take(MAX_COLLECTION_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| UsageError(format!("cannot read {path}: {e}")))?;
    if bytes.len() as u64 > MAX_COLLECTION_BYTES {
        return Err(UsageError(format!(
            "{path} is larger than {MAX_COLLECTION_BYTES} bytes: split it"
        ))
        .into());
    }
    let text = || {
        String::from_utf8(bytes.clone())
            .map_err(|_| UsageError(format!("{path} is not text (not UTF-8)")))
    };
    let read = match form {
        Form::Wtb => archive::parse_wtb(&bytes).map(|f| f.games),
        Form::Pgn => archive::parse_pgn(&text()?),
        Form::Gam => archive::parse_gam(&text()?),
    };
    read.map_err(|e| UsageError(format!("{path}: {e}")).into())
}

/// What happened to one file's games.
#[derive(Default)]
struct Counts {
    read: u64,
    unfinished: u64,
    duplicate: u64,
    ffo: u64,
    kept: u64,
    /// Finished games whose stated score is not their moves'.
    score_disagrees: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.read += other.read;
        self.unfinished += other.unfinished;
        self.duplicate += other.duplicate;
        self.ffo += other.ffo;
        self.kept += other.kept;
        self.score_disagrees += other.score_disagrees;
    }

    fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {} | {} | {} | {} | {} |\n",
            self.read, self.unfinished, self.duplicate, self.ffo, self.kept, self.score_disagrees
        )
    }
}

/// `reversi-lab train import`'s request.
pub(super) struct Import {
    out: String,
    dropped: Option<String>,
    theoretical_labels: Option<String>,
    files: Vec<String>,
    force: bool,
    quiet: bool,
}

impl Import {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Import> {
        Ok(Import {
            out: value(m, "out"),
            dropped: m.get_one("dropped").cloned(),
            theoretical_labels: m.get_one("theoretical-labels").cloned(),
            files: m
                .get_many::<String>("files")
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
            force: m.get_flag("force"),
            quiet: m.get_flag("quiet"),
        })
    }
}

/// Runs `reversi-lab train import`.
pub(super) fn import(r: Import) -> Result<()> {
    let quiet = r.quiet;
    let rule = |ours| Rule {
        ours: Some(ours),
        force: r.force,
        in_place: InPlace::Devices,
    };
    let out = &r.out;
    // The outputs compared as files, before any is planned or written.
    let mut outputs = vec![("--out", Path::new(out))];
    if let Some(path) = &r.dropped {
        outputs.push(("--dropped", Path::new(path)));
    }
    if let Some(path) = &r.theoretical_labels {
        outputs.push(("--theoretical-labels", Path::new(path)));
    }
    output_files::check_distinct(&outputs)?;
    let mut planned = vec![output_files::plan_output(
        "--out",
        Path::new(out),
        &rule(IMPORTED),
    )?];
    let dropped_path = r.dropped.as_ref();
    if let Some(path) = dropped_path {
        planned.push(output_files::plan_output(
            "--dropped",
            Path::new(path),
            &rule(DROPPED),
        )?);
    }
    let labels_path = r.theoretical_labels.as_ref();
    if let Some(path) = labels_path {
        planned.push(output_files::plan_output(
            "--theoretical-labels",
            Path::new(path),
            &rule(LABELS),
        )?);
    }
    let files: Vec<&String> = r.files.iter().collect();
    let mut forms = Vec::with_capacity(files.len());
    for path in &files {
        match form_of(path)? {
            Some(form) => forms.push(form),
            None => {
                return Err(UsageError(format!(
                    "{path} is not a WTHOR file (.wtb), PGN or Logistello .gam lines"
                ))
                .into())
            }
        }
    }
    let start = Instant::now();
    let mut importer = Importer::default();
    let mut table = String::from(
        "| file | games read | unfinished | duplicates | through an FFO position | kept | stated score not the moves' |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let mut total = Counts::default();
    let mut ffo_hits = [0u64; 80];
    let mut dropped = String::from("# reversi train import, dropped: file, game, why, moves\n");
    let mut theoretical: Vec<Label> = Vec::new();
    // Each labelled position's value, `None` once two games value it
    // differently (a depth of 60 labels every game's start position):
    // such a position keeps no label (checked where the labels are made).
    let mut valued: HashMap<(u64, u64), Option<Eval>> = HashMap::new();
    for (path, form) in files.iter().zip(forms) {
        let games = read_collection(path, form)?;
        let mut counts = Counts::default();
        for (i, game) in games.iter().enumerate() {
            counts.read += 1;
            if game.stated_score_agrees() == Some(false) {
                counts.score_disagrees += 1;
            }
            let why = match importer.add(&game.record) {
                Verdict::Kept(index) => {
                    counts.kept += 1;
                    let item = theoretical.len() as u64;
                    let label = game
                        .theoretical_score
                        .and_then(|t| theoretical_label(item, index, &game.record, t));
                    if let Some(label) = label {
                        let key = (label.position.player, label.position.opponent);
                        let value = valued.entry(key).or_insert(Some(label.value));
                        if *value != Some(label.value) {
                            *value = None;
                        }
                        theoretical.push(label);
                    }
                    continue;
                }
                Verdict::Unfinished => {
                    counts.unfinished += 1;
                    "unfinished".to_owned()
                }
                Verdict::Duplicate => {
                    counts.duplicate += 1;
                    "duplicate".to_owned()
                }
                Verdict::Ffo(n) => {
                    counts.ffo += 1;
                    ffo_hits[n] += 1;
                    format!("FFO #{n}")
                }
            };
            if dropped_path.is_some() {
                let _ = writeln!(
                    dropped,
                    "{path}\t{}\t{why}\t{}",
                    i + 1,
                    write_transcript(&game.record)
                );
            }
        }
        if !quiet {
            eprintln!(
                "import: {path}: {} games read, {} kept ({:.1} s)",
                counts.read,
                counts.kept,
                start.elapsed().as_secs_f64()
            );
        }
        table.push_str(&counts.row(path));
        total.add(&counts);
    }
    table.push_str(&total.row("all"));
    let hit: Vec<String> = (1..80)
        .filter(|&n| ffo_hits[n] > 0)
        .map(|n| format!("#{n}: {}", ffo_hits[n]))
        .collect();
    let _ = writeln!(
        table,
        "\nGames dropped per FFO position (after duplicates): {}",
        if hit.is_empty() {
            "none".to_owned()
        } else {
            hit.join(", ")
        }
    );
    let labelled = theoretical.len();
    theoretical.retain(|l| valued[&(l.position.player, l.position.opponent)].is_some());
    for (item, label) in theoretical.iter_mut().enumerate() {
        label.position.item = item as u64;
    }
    if labels_path.is_some() && theoretical.len() < labelled {
        let _ = writeln!(
            table,
            "Theoretical scores left out: {} games' of {} positions that games value differently",
            labelled - theoretical.len(),
            valued.values().filter(|v| v.is_none()).count()
        );
    }
    let games = importer.into_games();
    let mut text = format!(
        "# reversi train import: {} games from {} files\n",
        games.len(),
        files.len()
    );
    for g in &games {
        text.push_str(&g.to_line());
        text.push('\n');
    }
    let mut labels_text = String::new();
    if labels_path.is_some() {
        let _ = writeln!(
            labels_text,
            "{} theoretical scores of the WTHOR games of {out}, {} positions",
            LABELS.start,
            theoretical.len()
        );
        for label in &theoretical {
            labels_text.push_str(&label.to_line());
            labels_text.push('\n');
        }
    }
    let mut contents: Vec<&[u8]> = vec![text.as_bytes()];
    if dropped_path.is_some() {
        contents.push(dropped.as_bytes());
    }
    if labels_path.is_some() {
        contents.push(labels_text.as_bytes());
    }
    output_files::write(&planned, &contents)?;
    if !quiet {
        eprintln!(
            "import: {} games written to {out} ({:.1} s)",
            games.len(),
            start.elapsed().as_secs_f64()
        );
    }
    write_stdout(&table)
}

/// The `heldout` command's arguments.
pub(super) fn heldout_command() -> Command {
    Command::new("reversi-lab train heldout")
        .about("Build the evaluation's test set: the positions of held-out games (e.g. `train import` of WTHOR 2023) with --empties empty squares, each once up to symmetry, none that occurs in a --training game, --positions of them spread evenly, each solved exactly into a label file (resumable: run it again to continue); then print the static error of the weights on them per empties count")
        .arg(option("games", "FILE", "The held-out games file (e.g. `reversi-lab train import` of WTHOR 2023)").required(true))
        .arg(option("training", "FILE", "A games file of training (repeatable): its positions are left out").action(clap::ArgAction::Append))
        .arg(option("empties", "A-B", "The empty squares of the positions (at most 30: each is solved exactly)").value_parser(parse_empties).default_value("20-24"))
        .arg(option("positions", "N", "How many positions (spread evenly over the list)").value_parser(value_parser!(usize)).default_value("300"))
        .arg(option("out", "FILE", "The label file of exact scores (created, or continued if it is one of the same list)").required(true))
        .arg(option("weights", "FILE", "The weights measured, whose search also orders the solver's moves (default: the embedded ones)"))
        .arg(option("threads", "N", "Worker threads").value_parser(value_parser!(usize)).default_value("2"))
        .arg(flag("force", "Start --out over if it is not a label file of this list"))
        .arg(flag("quiet", "No progress on stderr").short('q'))
}

/// `reversi-lab train heldout`'s request.
pub(super) struct Heldout {
    games: String,
    training: Vec<String>,
    out: String,
    empties: std::ops::RangeInclusive<u32>,
    positions: usize,
    weights: Option<String>,
    threads: usize,
    force: bool,
    quiet: bool,
}

/// The most empty squares `heldout` solves exactly (as `train label
/// --exact-empties` and the engine's `--exact`): one position of 30 can
/// take hours.
const MAX_HELDOUT_EMPTIES: u32 = 30;

impl Heldout {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Heldout> {
        let empties: std::ops::RangeInclusive<u32> = value(m, "empties");
        if *empties.end() > MAX_HELDOUT_EMPTIES {
            return Err(UsageError(format!(
                "--empties {}-{}: heldout solves every position exactly, at most {MAX_HELDOUT_EMPTIES} empty squares",
                empties.start(),
                empties.end()
            ))
            .into());
        }
        Ok(Heldout {
            games: value(m, "games"),
            training: m
                .get_many::<String>("training")
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
            out: value(m, "out"),
            empties,
            positions: value(m, "positions"),
            weights: m.get_one("weights").cloned(),
            threads: value(m, "threads"),
            force: m.get_flag("force"),
            quiet: m.get_flag("quiet"),
        })
    }
}

/// Runs `reversi-lab train heldout`.
pub(super) fn heldout(r: Heldout) -> Result<()> {
    let quiet = r.quiet;
    let out = &r.out;
    let empties = r.empties.clone();
    let weights = match &r.weights {
        Some(path) => Arc::new(read_weights(path)?),
        None => pattern::shared_active_weights(),
    };
    let held = read_games(&r.games)?;
    let mut training = Vec::new();
    for path in &r.training {
        training.extend(read_games(path)?);
        if training.len() as u64 > MAX_GAMES {
            return Err(UsageError(format!(
                "the --training files hold more than {MAX_GAMES} games"
            ))
            .into());
        }
    }
    let count = r.positions;
    let (list, in_training) = held_out_positions(&held, &training, &empties, count);
    if !quiet {
        eprintln!(
            "heldout: {} positions of {} games ({in_training} left out as training positions)",
            list.len(),
            held.len()
        );
    }
    let settings = LabelSettings {
        exact_empties: *empties.end(),
        empties,
        depth: 0,
        selectivity: None,
    };
    let header_line = format!(
        "{} heldout empties {}-{} exact positions {} list {:016x}",
        LABELS.start,
        settings.empties.start(),
        settings.empties.end(),
        list.len(),
        list_checksum(&list)
    );
    let check = |line: &str| listed_position_number(line, &list);
    let (file, done) = Resumable {
        signature: LABELS,
        noun: "position",
        out,
        header_line: &header_line,
        force: r.force,
        item: &check,
    }
    .open(Shard::WHOLE, list.len() as u64)?;
    let threads = r.threads;
    let progress = Progress::new("heldout", "positions", quiet, done, list.len() as u64);
    append_lines(file, out, progress, |deliver| {
        label_positions(
            &list,
            &settings,
            &weights,
            Shard::WHOLE,
            done,
            threads,
            |label| deliver(label.to_line()),
        );
    })?;
    let (_, labels) = super::labels::read_labels(out)?;
    let samples: Vec<_> = labels.iter().map(Label::sample).collect();
    write_stdout(&test_table(&weights, &samples, out))
}
