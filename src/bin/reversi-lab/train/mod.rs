//! `reversi-lab train generate|fit`: the pattern evaluation's training pipeline
//! (see `reversi-lab train --help` and the README's section on the evaluation).

use crate::args::{self, Running};
use crate::progress::Progress;
use anyhow::Result;
use clap::{value_parser, ArgMatches, Command};
use reversi::eval::pattern::fit::{FitConfig, PhaseReport};
use reversi::eval::pattern::WEIGHTS_SIGNATURE;
use reversi::kit::output_files::{self, InPlace, Rule, Signature};
use reversi::kit::readers::{read_weights, weights_or_embedded};
use reversi::kit::{flag, option, usage, value, write_stdout, UsageError};
use reversi::lab::shard::{progress_due, push_shard, Resumable, Shard};
use reversi::lab::train::fits::{self, ProbcutSettings, Refit};
use reversi::lab::train::formats::games::{self, game_number, MAX_GAMES};
use reversi::lab::train::formats::probcut_table::PROBCUT;
use reversi::lab::train::formats::{read_games_file, read_labels_file};
use reversi::lab::train::labels::Duplicates;
use reversi::lab::train::options::{self, OptionError};
use reversi::lab::train::{self, GameSettings};
use std::path::Path;
use std::time::Instant;

pub(super) mod import;
pub(super) mod labels;

const ABOUT: &str = "Train the pattern evaluation: `generate` plays and solves self-play \
games into a file (resumable: run it again to continue), `label` labels their positions by \
search or exact solving (resumable), `merge` joins the files of runs split with --shard K/N, \
`compare` measures labels against exact ones, `pack` and `unpack` keep label files compact for the repository, `import` makes a games file of WTHOR and Logistello games, `heldout` solves the evaluation's test set, `fit` fits the weights to games and labels, \
`probcut` fits the midgame search's Multi-ProbCut table and the endgame solver's model of its cuts";

fn generate_command() -> Command {
    Command::new("reversi-lab train generate")
        .about("Play training games (random opening, then the iterative search, solved exactly from --solve-empties) and append them to --out, one per line; an existing file is continued")
        .arg(option("out", "FILE", "The games file (created, or continued if it is a games file of the same options; any other file is refused without --force)").required(true))
        .arg(option("games", "N", "Games the file should hold when done (at most 2000000; the default, with the other options' defaults, is the run of the self-play weights that the shipped weights refit and keep for 46-60 empties: docs/TRAINING.md)").value_parser(value_parser!(u64).range(0..=MAX_GAMES)).default_value("100000"))
        .arg(option("seed", "SEED", "Seed of every game's randomness").value_parser(value_parser!(u64)).default_value("1"))
        .arg(args::threads("Worker threads (the file is the same for any number)"))
        .arg(option("depth", "PLIES", "Depth of the iterative search that plays after the opening").value_parser(value_parser!(u32).range(1..=8)).default_value("4"))
        .arg(option("eval", "EVAL", "Its evaluation: disc, weights, strong or pattern").default_value("strong"))
        .arg(option("solve-empties", "N", "Solve exactly once at most this many squares are empty").value_parser(value_parser!(u32).range(0..=26)).default_value("18"))
        .arg(option("random-min", "N", "Fewest random opening moves").value_parser(value_parser!(u32).range(0..=60)).default_value("4"))
        .arg(option("random-max", "N", "Most random opening moves").value_parser(value_parser!(u32).range(0..=60)).default_value("24"))
        .arg(option("level", "L", "Play the middle game with the midgame search at this level and the pattern evaluation, instead of --depth and --eval").value_parser(value_parser!(u32).range(1..=20)))
        .arg(option("weights", "FILE", "The pattern weights of --level's search (default: the embedded ones)"))
        .arg(args::shard("Play only the games whose number is K modulo N (of the --games in all), into this run's own --out; `reversi-lab train merge` joins the runs' files"))
        .arg(flag("force", "Start --out over if it is not a games file of these options"))
        .arg(args::quiet())
}

fn fit_command() -> Command {
    Command::new("reversi-lab train fit")
        .about("Fit the pattern weights to a games file and label files (the positions of a tenth of the games held out) and write them; prints the error per phase")
        .arg(option("games", "FILE", "The games file written by `reversi-lab train generate` (at most 2000000 games): its positions are labelled with the games' results unless a --labels file labels them"))
        .arg(option("labels", "FILE", "A label file written by `reversi-lab train label` (repeatable; a position labelled twice keeps its first label)").action(clap::ArgAction::Append))
        .arg(option("out", "FILE", "The weights file to write (replaced only if it is a weights file, or with --force)").required(true))
        .arg(option("base", "WEIGHTS", "With --refit: the weights whose other phases are kept"))
        .arg(option("refit", "A-B", "Fit only the phases holding positions of A to B empty squares and keep the others of --base (a stage refits the phases its labels cover)").value_parser(options::parse_empties).requires("base"))
        .arg(flag("toward-base", "With --refit: the penalty pulls each refitted weight toward its --base value instead of toward zero (fine-tuning on new labels, for data sets too small to fit alone)").requires("refit"))
        .arg(flag("mean-of-searches", "A position labelled by several searches (by depths 8 and 9, say) takes the mean of their values; an exact label still wins (without it a position labelled twice keeps its first label)"))
        .arg(option("test", "FILE", "A games file whose exactly solved positions measure the weights (e.g. generated with --solve-empties 24)"))
        .arg(option("lambda", "L", "Ridge penalty on the weights (30 fitted the shipped weights)").value_parser(value_parser!(f64)).default_value("30"))
        .arg(option("iterations", "N", "Conjugate gradient iterations per phase").value_parser(value_parser!(usize)).default_value("150"))
        .arg(option("margin", "EMPTIES", "Positions up to this many empty squares outside a phase's range also train it").value_parser(value_parser!(u32).range(0..=30)).default_value("2"))
        .arg(args::threads("Phases fitted at once"))
        .arg(flag("force", "Replace --out even if it is not a weights file"))
        .arg(args::quiet())
}

fn probcut_command() -> Command {
    Command::new("reversi-lab train probcut")
        .about("Fit the Multi-ProbCut table of the midgame search (full searches of training positions, shallow values against deep ones per depth and phase) and the endgame solver's model of its cuts (the `endgame` line: the spread of the exact scores of the solved positions with 8 or more empties around the solver's shallow estimates)")
        .arg(option("games", "FILE", "The games file written by `reversi-lab train generate` or `import`").required(true))
        .arg(option("out", "FILE", "The table to write (text; replaced only if it is such a table, or with --force)").required(true))
        .arg(option("labels", "FILE", "A label file (or packed label file) whose exact labels of 8 or more empties also fit the endgame model (repeatable): the imported world's games have no solved lines").action(clap::ArgAction::Append))
        .arg(option("off-path", "N", "Fit the midgame lines on positions off the games' path, one in N of those after the moves their players did not make, instead of the games' own (the search cuts mostly below moves nobody plays)").value_parser(value_parser!(u64).range(1..)))
        .arg(option("weights", "FILE", "Pattern weights to search with (default: the embedded ones)"))
        .arg(option("positions", "N", "Positions per phase, spread evenly over the games").value_parser(value_parser!(usize)).default_value("40"))
        .arg(option("depth", "PLIES", "The deepest search fitted").value_parser(value_parser!(u32).range(3..=12)).default_value("8"))
        .arg(option("cell-positions", "N", "Fewest solved positions of an (empties, depth) cell of the endgame model's fit").value_parser(value_parser!(u64).range(1..)).default_value("30"))
        .arg(args::threads("Worker threads"))
        .arg(flag("force", "Replace --out even if it is not a Multi-ProbCut table"))
        .arg(args::quiet())
}

/// The subcommands' definitions (for the consistency test).
#[cfg(test)]
pub(super) fn commands() -> [Command; 11] {
    [
        generate_command(),
        fit_command(),
        probcut_command(),
        labels::label_command(),
        labels::merge_command(),
        labels::compare_command(),
        labels::pack_command(),
        labels::unpack_command(),
        import::import_command(),
        import::heldout_command(),
        import::heldout_moves_command(),
    ]
}

/// `reversi-lab train probcut`'s request.
struct Probcut {
    games: String,
    labels: Vec<String>,
    out: String,
    weights: Option<String>,
    settings: ProbcutSettings,
    running: Running,
}

impl Probcut {
    fn from_matches(m: &ArgMatches) -> Result<Probcut> {
        Ok(Probcut {
            games: value(m, "games"),
            labels: args::strings(m, "labels"),
            out: value(m, "out"),
            weights: m.get_one("weights").cloned(),
            settings: ProbcutSettings {
                positions: value(m, "positions"),
                depth: value(m, "depth"),
                cell_positions: value(m, "cell-positions"),
                threads: value(m, "threads"),
                off_path: m.get_one("off-path").copied(),
            },
            running: Running::from_matches(m),
        })
    }
}

fn probcut(r: Probcut) -> Result<()> {
    let planned = output_files::plan_output(
        "--out",
        Path::new(&r.out),
        &Rule::written_by(PROBCUT, r.running.force, InPlace::Devices),
    )?;
    let weights = weights_or_embedded(r.weights.as_deref())?;
    let games = read_games_file(&r.games)?;
    let mut exact = Vec::new();
    for path in &r.labels {
        exact.extend(read_labels_file(path)?.1);
    }
    let quiet = r.running.quiet;
    let start = Instant::now();
    let last = std::sync::Mutex::new(Instant::now());
    let progress = |done: usize, total: usize| {
        let mut last = last.lock().expect("no panics");
        if !quiet && progress_due(done as u64, total as u64, last.elapsed().as_secs_f64()) {
            *last = Instant::now();
            eprintln!(
                "probcut: {done}/{total} positions searched ({:.0} s)",
                start.elapsed().as_secs_f64()
            );
        }
    };
    let fit = fits::fit_probcut_table(&games, &exact, &weights, &r.settings, &progress);
    if let Some(warning) = fit.missing_endgame() {
        eprintln!("warning: {warning}");
    }
    output_files::write(&[planned], &[fit.text.as_bytes()])?;
    write_stdout(&fit.text)
}

/// Runs `reversi-lab train ...` (`args[0]` is `train`).
pub fn run(args: &[String]) -> Result<()> {
    match args.get(1).map(String::as_str) {
        Some("generate") => reversi::kit::parse_and_run(generate_command(), &args[2..], Generate::from_matches, generate),
        Some("fit") => reversi::kit::parse_and_run(fit_command(), &args[2..], Fit::from_matches, fit_weights),
        Some("probcut") => reversi::kit::parse_and_run(probcut_command(), &args[2..], Probcut::from_matches, probcut),
        Some("label") => reversi::kit::parse_and_run(labels::label_command(), &args[2..], labels::LabelRequest::from_matches, labels::label),
        Some("merge") => reversi::kit::parse_and_run(labels::merge_command(), &args[2..], labels::Merge::from_matches, labels::merge),
        Some("pack") => reversi::kit::parse_and_run(labels::pack_command(), &args[2..], labels::Pack::from_matches, labels::pack),
        Some("unpack") => reversi::kit::parse_and_run(labels::unpack_command(), &args[2..], labels::Unpack::from_matches, labels::unpack),
        Some("compare") => reversi::kit::parse_and_run(labels::compare_command(), &args[2..], labels::compare_request, labels::compare),
        Some("import") => reversi::kit::parse_and_run(import::import_command(), &args[2..], import::Import::from_matches, import::import),
        Some("heldout") => reversi::kit::parse_and_run(import::heldout_command(), &args[2..], import::Heldout::from_matches, import::heldout),
        Some("heldout-moves") => reversi::kit::parse_and_run(import::heldout_moves_command(), &args[2..], import::HeldoutMoves::from_matches, import::heldout_moves),
        Some("-h" | "--help") | None => write_stdout(&format!(
            "{ABOUT}\n\nUsage:\n  reversi-lab train generate --out GAMES [OPTIONS]\n  reversi-lab train label --games GAMES --empties A-B --out LABELS [OPTIONS]\n  reversi-lab train merge --out FILE SHARD...\n  reversi-lab train compare --labels LABELS --reference LABELS\n  reversi-lab train pack --out PACKED [--input FILE]... [--recipe TEXT]... LABELS\n  reversi-lab train unpack --out LABELS PACKED\n  reversi-lab train import --out GAMES FILE...\n  reversi-lab train heldout --games GAMES --training GAMES --out LABELS\n  reversi-lab train heldout-moves --heldout LABELS --out LABELS\n  reversi-lab train fit --games GAMES [--labels LABELS]... --out WEIGHTS [OPTIONS]\n  reversi-lab train probcut --games GAMES --out TABLE [OPTIONS]\n\nEach has --help.\n"
        )),
        Some(other) => usage(format!(
            "unknown train command {other:?}: expected generate, label, merge, compare, pack, unpack, import, heldout, heldout-moves, fit or probcut (see `reversi-lab train --help`)"
        )),
    }
}

/// `reversi-lab train generate`'s request.
struct Generate {
    settings: GameSettings,
    out: String,
    games: u64,
    shard: Shard,
    weights: Option<String>,
    running: Running,
}

impl Generate {
    fn from_matches(m: &ArgMatches) -> Result<Generate> {
        let settings = GameSettings {
            seed: value(m, "seed"),
            random_min: value(m, "random-min"),
            random_max: value(m, "random-max"),
            depth: value(m, "depth"),
            eval: options::eval_named(&value::<String>(m, "eval")).map_err(option_refused)?,
            solve_empties: value(m, "solve-empties"),
            level: m.get_one::<u32>("level").copied(),
        };
        settings
            .check(m.contains_id("weights"))
            .map_err(option_refused)?;
        Ok(Generate {
            settings,
            out: value(m, "out"),
            games: value(m, "games"),
            shard: args::shard_of(m),
            weights: m.get_one("weights").cloned(),
            running: Running::from_matches(m),
        })
    }
}

/// A refused option's message as the command's (exit status 2).
pub(super) fn option_refused(e: OptionError) -> UsageError {
    UsageError(e.0)
}

/// The files `generate` writes: a header line naming the options.
pub(super) const GAMES: Signature = games::GENERATED;

fn generate(r: Generate) -> Result<()> {
    let s = r.settings;
    let out = r.out;
    let shard = r.shard;
    let weights = weights_or_embedded(r.weights.as_deref())?;
    let mut header_line = games::header(&s, weights.checksum());
    push_shard(&mut header_line, shard);
    let check = game_number;
    let threads = r.running.threads;
    let mut progress = Progress::new(r.running.quiet);
    Resumable {
        signature: GAMES,
        noun: "game",
        out: &out,
        header_line: &header_line,
        force: r.running.force,
        item: &check,
        shard,
        items: r.games,
        max_lines: MAX_GAMES,
        progress: ("generate", "games"),
    }
    .run(
        |ks, deliver| {
            train::generate(&s, &weights, shard, ks, threads, |game| {
                deliver(game.to_line())
            });
        },
        &mut |e| progress.event(&out, e),
    )
}

/// `reversi-lab train fit`'s request.
struct Fit {
    games: Option<String>,
    labels: Vec<String>,
    out: String,
    base: Option<String>,
    refit: Option<std::ops::RangeInclusive<u32>>,
    toward_base: bool,
    duplicates: Duplicates,
    test: Option<String>,
    config: FitConfig,
    running: Running,
}

impl Fit {
    fn from_matches(m: &ArgMatches) -> Result<Fit> {
        Ok(Fit {
            games: m.get_one("games").cloned(),
            labels: args::strings(m, "labels"),
            out: value(m, "out"),
            base: m.get_one("base").cloned(),
            refit: m.get_one("refit").cloned(),
            toward_base: m.get_flag("toward-base"),
            duplicates: if m.get_flag("mean-of-searches") {
                Duplicates::MeanOfSearches
            } else {
                Duplicates::First
            },
            test: m.get_one("test").cloned(),
            config: FitConfig {
                lambda: value(m, "lambda"),
                iterations: value(m, "iterations"),
                margin: value(m, "margin"),
            },
            running: Running::from_matches(m),
        })
    }
}

fn fit_weights(r: Fit) -> Result<()> {
    let out = &r.out;
    let quiet = r.running.quiet;
    let planned = output_files::plan_output(
        "--out",
        Path::new(out),
        &Rule::written_by(WEIGHTS, r.running.force, InPlace::Devices),
    )?;
    let games = match &r.games {
        Some(path) => read_games_file(path)?,
        None => Vec::new(),
    };
    let mut labels = Vec::new();
    for path in &r.labels {
        labels.extend(read_labels_file(path)?.1);
    }
    // The test file is read before the fit, so that a bad one is refused
    // at once.
    let test = match &r.test {
        Some(path) => Some((path, read_games_file(path)?)),
        None => None,
    };
    let (train_set, held_out) =
        fits::fit_samples(&games, &labels, r.duplicates).map_err(|e| UsageError(e.0))?;
    if !quiet {
        eprintln!(
            "fit: {} games, {} labels, {} training and {} held-out positions",
            games.len(),
            labels.len(),
            train_set.len(),
            held_out.len()
        );
    }
    let start = Instant::now();
    let progress = |r: &PhaseReport| {
        if !quiet {
            eprintln!(
                "fit: phase {} ({}-{} empties) done after {:.0} s",
                r.phase,
                r.empties.0,
                r.empties.1,
                start.elapsed().as_secs_f64()
            );
        }
    };
    let base = match &r.base {
        Some(path) => Some(read_weights(path)?),
        None => None,
    };
    if base.is_some() && r.refit.is_none() {
        return usage("--base is for --refit: give the empty squares of the phases to refit");
    }
    let refit = base
        .as_ref()
        .zip(r.refit.as_ref())
        .map(|(base, empties)| Refit {
            base,
            empties,
            toward_base: r.toward_base,
        });
    let test = test
        .as_ref()
        .map(|(name, games)| (name.as_str(), games.as_slice()));
    let (weights, report) = fits::fit_weights(
        &train_set,
        &held_out,
        &r.config,
        r.running.threads,
        &progress,
        refit,
        test,
    );
    output_files::write(&[planned], &[&weights.to_bytes()])?;
    write_stdout(&report.to_string())
}

/// Pattern weights (`fit`).
const WEIGHTS: Signature = WEIGHTS_SIGNATURE;
