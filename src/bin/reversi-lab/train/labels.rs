//! `reversi-lab train label|merge|compare`: positions labelled by search, the
//! merge of sharded runs, and the labels' error against exact ones.

use super::GAMES;
use crate::args::{self, Running};
use crate::progress::Progress;
use anyhow::Result;
use clap::{value_parser, Arg, ArgMatches, Command};
use reversi::kit::input::open_regular;
use reversi::kit::output_files::{self, InPlace, Rule, Signature};
use reversi::kit::{flag, option, value, write_stdout, UsageError};
use reversi::lab::shard::{read_shards, Shard};
use reversi::lab::train::formats::labels;
use reversi::lab::train::formats::packed::{self, PackedInput, Provenance};
use reversi::lab::train::formats::{merged, read_label_file_at, read_labels_file};
use reversi::lab::train::label_stage::{self, LabelStage};
use reversi::lab::train::labels::LabelSettings;
use reversi::lab::train::options;
use reversi::lab::train::tables::CompareTable;
use std::path::Path;

/// The files `label` writes: a header line naming the options.
pub(super) const LABELS: Signature = labels::LABELS;

pub(super) fn label_command() -> Command {
    Command::new("reversi-lab train label")
        .about("Label the positions of a games file with --empties empty squares (each once up to the symmetries, in the games' order) by a full-width search of the pattern evaluation, or exactly from --exact-empties; appends to --out, one per line, and continues an existing file")
        .arg(option("games", "FILE", "The games file (from `reversi-lab train generate`, `import` or `merge`)").required_unless_present("positions"))
        .arg(option("positions", "LABELS", "Instead of a games file's positions, those of a label file (a held-out set, say), in its order, each once").conflicts_with_all(["games", "off-path"]))
        .arg(option("empties", "A-B", "The positions labelled: those with A to B empty squares (or just A)").required(true).value_parser(options::parse_empties))
        .arg(option("out", "FILE", "The label file (created, or continued if it is a label file of the same options; any other file is refused without --force)").required(true))
        .arg(option("depth", "PLIES", "Plies of the search that labels the positions not solved exactly (0: the evaluation itself, to measure it against exact labels)").value_parser(value_parser!(u32).range(0..=20)).default_value("4"))
        .arg(option("exact-empties", "N", "Positions with at most N empty squares are labelled with their exact score").value_parser(value_parser!(u32).range(0..=30)).default_value("0"))
        .arg(option("selectivity", "SIGMAS", "Multi-ProbCut in that search, cutting when a shallow search predicts the result outside the window by this many standard deviations (the levels use 1.5; default: full width)").value_parser(options::parse_selectivity))
        .arg(option("weights", "FILE", "The pattern weights of the search (default: the embedded ones)"))
        .arg(option("off-path", "N", "Instead of the games' positions, the positions after the moves their players did not make (none a game reaches), one in N of them, the same sample on every run (1: all)").value_parser(value_parser!(u64).range(1..)))
        .arg(args::shard("Label only the positions whose number is K modulo N, into this run's own --out; `reversi-lab train merge` joins the runs' files"))
        .arg(args::threads("Worker threads (the file is the same for any number)"))
        .arg(flag("force", "Start --out over if it is not a label file of these options"))
        .arg(args::quiet())
}

pub(super) fn merge_command() -> Command {
    Command::new("reversi-lab train merge")
        .about("Join the files of the runs of one `generate` or `label` stage split with --shard K/N (every shard, each finished) into the file one unsplit run writes, byte for byte")
        .arg(option("out", "FILE", "The merged file (replaced only if it is a games or label file, or with --force)").required(true))
        .arg(Arg::new("shards").value_name("SHARD").num_args(1..).required(true).help("The runs' files, in any order"))
        .arg(flag("force", "Replace --out even if it is not a games or label file"))
}

pub(super) fn pack_command() -> Command {
    Command::new("reversi-lab train pack")
        .about("Pack a label file for keeping (about 9.5 bytes a label, deflated by columns), with the checksums of its inputs and its recipe; every reader of label files (fit --labels, compare, probcut --labels) reads the packed file, and `unpack` gives back the label file byte for byte")
        .arg(option("out", "FILE", "The packed file (replaced only if it is a packed label file, or with --force)").required(true))
        .arg(option("input", "FILE", "A file the labels were made from (the games file, say): its name and checksum go in the header (repeatable)").action(clap::ArgAction::Append))
        .arg(option("recipe", "TEXT", "A line of the recipe that made the labels: a command, a seed (repeatable)").action(clap::ArgAction::Append))
        .arg(Arg::new("labels").value_name("LABELS").required(true).help("The label file (`train label`, `merge`, `heldout` or `import --theoretical-labels`)"))
        .arg(flag("force", "Replace --out even if it is not a packed label file"))
}

pub(super) fn unpack_command() -> Command {
    Command::new("reversi-lab train unpack")
        .about("Write the label file a packed label file holds, byte for byte, and print where its labels came from")
        .arg(option("out", "FILE", "The label file (replaced only if it is a label file, or with --force)").required(true))
        .arg(Arg::new("packed").value_name("PACKED").required(true).help("The packed label file (`train pack`)"))
        .arg(flag("force", "Replace --out even if it is not a label file"))
}

pub(super) fn compare_command() -> Command {
    Command::new("reversi-lab train compare")
        .about("The error of labels against reference labels (e.g. exact ones) on the positions both hold, per number of empty squares, in discs")
        .arg(option("labels", "FILE", "The label file measured").required(true))
        .arg(option("reference", "FILE", "The label file taken as the truth").required(true))
}

/// `reversi-lab train label`'s request.
pub(super) struct LabelRequest {
    games: Option<String>,
    positions: Option<String>,
    out: String,
    settings: LabelSettings,
    weights: Option<String>,
    off_path: Option<u64>,
    shard: Shard,
    running: Running,
}

impl LabelRequest {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<LabelRequest> {
        Ok(LabelRequest {
            games: m.get_one("games").cloned(),
            positions: m.get_one("positions").cloned(),
            out: value(m, "out"),
            settings: LabelSettings {
                empties: value(m, "empties"),
                exact_empties: value(m, "exact-empties"),
                depth: value(m, "depth"),
                selectivity: m.get_one::<f64>("selectivity").copied(),
            },
            weights: m.get_one("weights").cloned(),
            off_path: m.get_one("off-path").copied(),
            shard: args::shard_of(m),
            running: Running::from_matches(m),
        })
    }
}

pub(super) fn label(r: LabelRequest) -> Result<()> {
    let mut progress = Progress::new(r.running.quiet);
    let stage = LabelStage {
        games: r.games.as_deref(),
        positions: r.positions.as_deref(),
        out: &r.out,
        settings: &r.settings,
        weights: r.weights.as_deref(),
        off_path: r.off_path,
        shard: r.shard,
        threads: r.running.threads,
        force: r.running.force,
    };
    label_stage::label(&stage, &mut |e| progress.event(&r.out, e))
}

/// The files `pack` writes.
const PACKED: Signature = Signature {
    start: packed::PACKED_START,
    former: None,
    kind: "a packed label file of `reversi-lab train pack`",
};

/// `reversi-lab train pack`'s request.
pub(super) struct Pack {
    out: String,
    inputs: Vec<String>,
    recipe: Vec<String>,
    labels: String,
    force: bool,
}

impl Pack {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Pack> {
        Ok(Pack {
            out: value(m, "out"),
            inputs: args::strings(m, "input"),
            recipe: args::strings(m, "recipe"),
            labels: value(m, "labels"),
            force: m.get_flag("force"),
        })
    }
}

pub(super) fn pack(r: Pack) -> Result<()> {
    let rule = Rule::written_by(PACKED, r.force, InPlace::Refused);
    let planned = output_files::plan_output("--out", Path::new(&r.out), &rule)?;
    if let Some(line) = r.recipe.iter().find(|l| l.contains('\n')) {
        return Err(UsageError(format!(
            "--recipe {line:?} holds a line break: give one line each"
        ))
        .into());
    }
    let mut provenance = Provenance {
        inputs: Vec::new(),
        recipe: r.recipe,
    };
    for path in &r.inputs {
        let name = Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(UsageError(format!(
                "--input {path:?}: its file name must be non-empty and hold no space"
            ))
            .into());
        }
        let (file, _) = open_regular(Path::new(path), path)?;
        let checksum = packed::checksum(file)
            .map_err(|e| UsageError(format!("cannot read --input {path}: {e}")))?;
        provenance.inputs.push(PackedInput { name, checksum });
    }
    let file = read_label_file_at(&r.labels)?;
    if file.provenance.is_some() {
        return Err(UsageError(format!("{} is packed already", r.labels)).into());
    }
    let mut bytes = Vec::new();
    packed::write(&mut bytes, &file.header, &file.labels, &provenance)?;
    output_files::write(&[planned], &[&bytes])?;
    Ok(())
}

/// `reversi-lab train unpack`'s request.
pub(super) struct Unpack {
    out: String,
    packed: String,
    force: bool,
}

impl Unpack {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Unpack> {
        Ok(Unpack {
            out: value(m, "out"),
            packed: value(m, "packed"),
            force: m.get_flag("force"),
        })
    }
}

pub(super) fn unpack(r: Unpack) -> Result<()> {
    let rule = Rule::written_by(LABELS, r.force, InPlace::Refused);
    let planned = output_files::plan_output("--out", Path::new(&r.out), &rule)?;
    let file = read_label_file_at(&r.packed)?;
    let Some(provenance) = &file.provenance else {
        return Err(UsageError(format!(
            "{} is not packed: it is a label file already",
            r.packed
        ))
        .into());
    };
    let mut text = Vec::new();
    packed::unpack(&mut text, &file)?;
    output_files::write(&[planned], &[&text])?;
    let mut report = format!("{} labels\n", file.labels.len());
    for input in &provenance.inputs {
        report.push_str(&format!("input: {} {:016x}\n", input.name, input.checksum));
    }
    for line in &provenance.recipe {
        report.push_str(&format!("recipe: {line}\n"));
    }
    write_stdout(&report)
}

/// `reversi-lab train merge`'s request.
pub(super) struct Merge {
    out: String,
    shards: Vec<String>,
    force: bool,
}

impl Merge {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Merge> {
        Ok(Merge {
            out: value(m, "out"),
            shards: args::strings(m, "shards"),
            force: m.get_flag("force"),
        })
    }
}

pub(super) fn merge(r: Merge) -> Result<()> {
    let merged = read_shards(&merged::RULES, &r.shards)?;
    let (start, text) = merged::merged_file(merged).map_err(|e| UsageError(e.0))?;
    let rule = Rule::written_by([GAMES, LABELS][start], r.force, InPlace::Refused);
    let planned = output_files::plan_output("--out", Path::new(&r.out), &rule)?;
    output_files::write(&[planned], &[text.as_bytes()])?;
    Ok(())
}

/// `reversi-lab train compare`'s request: the labels measured and the
/// reference labels.
pub(super) fn compare_request(m: &ArgMatches) -> Result<(String, String)> {
    Ok((value(m, "labels"), value(m, "reference")))
}

pub(super) fn compare((labels_path, reference_path): (String, String)) -> Result<()> {
    let (_, labels) = read_labels_file(&labels_path)?;
    let (_, reference) = read_labels_file(&reference_path)?;
    let table = CompareTable::measure(&labels, &reference, &labels_path, &reference_path)
        .map_err(|e| UsageError(e.0))?;
    write_stdout(&table.to_string())
}
