//! `reversi-lab train import` (the games of WTHOR files, `.wtb` and PGN, and
//! of Logistello's `.gam` file as a games file for `train fit` and `train
//! label`) and the test sets `train heldout` and `heldout-moves`: their
//! requests, progress and printing (`reversi::lab::train::import_files`
//! and `test_sets` run them).

use super::option_refused;
use crate::args::{self, Running};
use crate::progress::Progress;
use anyhow::Result;
use clap::value_parser;
use clap::{Arg, ArgMatches, Command};
use reversi::kit::{flag, option, value, write_stdout};
use reversi::lab::train::import_files::{import_files, ImportEvent, ImportOutputs};
use reversi::lab::train::options;
use reversi::lab::train::test_sets::{self, SolvedSet};
use std::time::Instant;

/// The `import` command's arguments.
pub(super) fn import_command() -> Command {
    Command::new("reversi-lab train import")
        .about("Make a games file (for `train fit` and `train label`) from game collections: WTHOR's binary files (`WTH_YYYY.wtb`, by the extension), WTHOR PGN and Logistello's `.gam` lines (by their text). Passes are inferred and every game is replayed (an illegal move names its file and game). Dropped, in this order: unfinished games (no final score to label them with), games whose moves repeat an earlier game's up to symmetry (the first file given keeps it), and games through any FFO test position #1-#79 under the 8 symmetries with the same side to move. Prints a table of the games read, dropped and kept per file. Files are read a game at a time, whatever their size, and must not be compressed: `zcat WTH_*.pgn.gz > wthor.pgn` first")
        .arg(Arg::new("files").value_name("FILE").num_args(1..).required(true).help("Collection files, read in this order"))
        .arg(option("out", "FILE", "The games file to write (replaced only if it is an imported games file, or with --force)").required(true))
        .arg(option("dropped", "FILE", "Also write the dropped games, one a line: file, game number, why, moves (tab-separated)"))
        .arg(option("theoretical-labels", "FILE", "Also write a label file (as `train label` writes, for `train fit --labels`) of the kept WTHOR .wtb games' theoretical scores: each game's position at the file's depth (24 empty squares), valued exactly"))
        .arg(flag("force", "Replace --out, --dropped or --theoretical-labels even if it is another kind of file"))
        .arg(args::quiet())
}

/// `reversi-lab train import`'s request.
pub(super) struct Import {
    out: String,
    dropped: Option<String>,
    theoretical_labels: Option<String>,
    files: Vec<String>,
    running: Running,
}

impl Import {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Import> {
        Ok(Import {
            out: value(m, "out"),
            dropped: m.get_one("dropped").cloned(),
            theoretical_labels: m.get_one("theoretical-labels").cloned(),
            files: args::strings(m, "files"),
            running: Running::from_matches(m),
        })
    }
}

/// Runs `reversi-lab train import`.
pub(super) fn import(r: Import) -> Result<()> {
    let quiet = r.running.quiet;
    let out = &r.out;
    let outputs = ImportOutputs {
        out,
        dropped: r.dropped.as_deref(),
        theoretical_labels: r.theoretical_labels.as_deref(),
        force: r.running.force,
    };
    let mut start = Instant::now();
    let done = import_files(&r.files, &outputs, &mut |event| match event {
        ImportEvent::Started => start = Instant::now(),
        ImportEvent::Read(path, counts) if !quiet => eprintln!(
            "import: {path}: {} games read, {} kept ({:.1} s)",
            counts.read,
            counts.kept,
            start.elapsed().as_secs_f64()
        ),
        ImportEvent::Written(kept) if !quiet => eprintln!(
            "import: {kept} games written to {out} ({:.1} s)",
            start.elapsed().as_secs_f64()
        ),
        _ => {}
    })?;
    write_stdout(&done.table(r.theoretical_labels.is_some()))
}

/// The arguments of the commands that solve a test set exactly
/// (`heldout`, `heldout-moves`): its file, the weights measured, threads,
/// `--force`, `--quiet`.
fn solved_set_args() -> [Arg; 5] {
    [
        option("out", "FILE", "The label file of exact scores (created, or continued if it is one of the same list)").required(true),
        option("weights", "FILE", "The weights measured, whose search also orders the solver's moves (default: the embedded ones)"),
        args::threads("Worker threads"),
        flag("force", "Start --out over if it is not a label file of this list"),
        args::quiet(),
    ]
}

/// The `heldout` command's arguments.
pub(super) fn heldout_command() -> Command {
    Command::new("reversi-lab train heldout")
        .about("Build the evaluation's test set: the positions of held-out games (e.g. `train import` of WTHOR 2023) with --empties empty squares, each once up to symmetry, none that occurs in a --training game, --positions of them spread evenly, each solved exactly into a label file (resumable: run it again to continue); then print the static error of the weights on them per empties count")
        .arg(option("games", "FILE", "The held-out games file (e.g. `reversi-lab train import` of WTHOR 2023)").required(true))
        .arg(option("training", "FILE", "A games file of training (repeatable): its positions are left out").action(clap::ArgAction::Append))
        .arg(option("empties", "A-B", "The empty squares of the positions (at most 30: each is solved exactly)").value_parser(options::parse_empties).default_value("20-24"))
        .arg(option("positions", "N", "How many positions (spread evenly over the list)").value_parser(value_parser!(usize)).default_value("300"))
        .args(solved_set_args())
}

/// `reversi-lab train heldout`'s request.
pub(super) struct Heldout {
    games: String,
    training: Vec<String>,
    out: String,
    empties: std::ops::RangeInclusive<u32>,
    positions: usize,
    weights: Option<String>,
    running: Running,
}

impl Heldout {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<Heldout> {
        let empties: std::ops::RangeInclusive<u32> = value(m, "empties");
        options::check_heldout_empties(&empties).map_err(option_refused)?;
        Ok(Heldout {
            games: value(m, "games"),
            training: args::strings(m, "training"),
            out: value(m, "out"),
            empties,
            positions: value(m, "positions"),
            weights: m.get_one("weights").cloned(),
            running: Running::from_matches(m),
        })
    }
}

/// The label file `out` of a test set, solved with `weights` as `running`
/// says.
fn solved_set<'a>(out: &'a str, weights: Option<&'a str>, running: Running) -> SolvedSet<'a> {
    SolvedSet {
        out,
        weights,
        force: running.force,
        threads: running.threads,
    }
}

/// Runs `reversi-lab train heldout`.
pub(super) fn heldout(r: Heldout) -> Result<()> {
    let mut progress = Progress::new(r.running.quiet);
    let run = test_sets::Heldout {
        games: &r.games,
        training: &r.training,
        empties: r.empties,
        positions: r.positions,
        set: solved_set(&r.out, r.weights.as_deref(), r.running),
    };
    let table = test_sets::heldout(&run, &mut |e| progress.event(&r.out, e))?;
    write_stdout(&table.to_string())
}

/// The `heldout-moves` command's arguments.
pub(super) fn heldout_moves_command() -> Command {
    Command::new("reversi-lab train heldout-moves")
        .about("Build the evaluation's second test set, off the experts' path: the positions after every legal move of the exact positions of a `train heldout` file (--positions of them, spread evenly), each solved exactly into a label file (resumable: run it again to continue); then print the static error of the weights on them per empties count and by how much the move loses (best, 1-6, 7-16, 17+ discs)")
        .arg(option("heldout", "FILE", "The held-out label file (`reversi-lab train heldout`), every position exact").required(true))
        .arg(option("positions", "N", "How many of its positions (spread evenly; default: all)").value_parser(value_parser!(usize)))
        .arg(option("level", "L", "Also measure the move list of this level (every move ranked as `reversi hint --level L --moves 64` ranks them: exact with at most 18 empties, win/loss/draw proven with 20, no clock) by the move's loss; may be given more than once").value_parser(value_parser!(u32).range(1..=30)).action(clap::ArgAction::Append))
        .args(solved_set_args())
}

/// `reversi-lab train heldout-moves`'s request.
pub(super) struct HeldoutMoves {
    heldout: String,
    positions: Option<usize>,
    levels: Vec<u32>,
    out: String,
    weights: Option<String>,
    running: Running,
}

impl HeldoutMoves {
    pub(super) fn from_matches(m: &ArgMatches) -> Result<HeldoutMoves> {
        Ok(HeldoutMoves {
            heldout: value(m, "heldout"),
            positions: m.get_one("positions").copied(),
            levels: m.get_many("level").into_iter().flatten().copied().collect(),
            out: value(m, "out"),
            weights: m.get_one("weights").cloned(),
            running: Running::from_matches(m),
        })
    }
}

/// Runs `reversi-lab train heldout-moves`.
pub(super) fn heldout_moves(r: HeldoutMoves) -> Result<()> {
    let mut progress = Progress::new(r.running.quiet);
    let run = test_sets::HeldoutMoves {
        heldout: &r.heldout,
        positions: r.positions,
        levels: &r.levels,
        set: solved_set(&r.out, r.weights.as_deref(), r.running),
    };
    let table = test_sets::heldout_moves(&run, &mut |e| progress.event(&r.out, e))?;
    write_stdout(&table.to_string())
}
