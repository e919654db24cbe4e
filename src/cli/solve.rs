//! `reversi solve`: the exact final score and a best move of positions given
//! as OBF lines, a file of OBF lines, a start position or a digit board.

use super::perft::{position_args, position_of};
use anyhow::Result;
use clap::{value_parser, ArgGroup, ArgMatches, Command};
use reversi::engine::{
    default_table_bits, parse_obf, position::read_obf, EndgameSolver, ObfPosition, Scoring,
    SolveEvent, SolveOptions, SolveReport, WindowKind, REACH_EMPTIES,
};
use reversi::kit::{flag, option, usage, write_stdout};
use reversi::reversi::Move;
use std::time::Instant;

/// The options of `reversi solve`.
#[derive(Debug)]
struct Args {
    obf: Option<String>,
    file: Option<String>,
    size: Option<u8>,
    board: Option<String>,
    player: Option<u8>,
    discs_only: bool,
    json: bool,
    quiet: bool,
    threads: Option<u32>,
    tt_bits: Option<u32>,
    pv: bool,
    expect: Option<i32>,
}

/// `reversi solve`'s arguments: exactly one of `--obf`, `--file`, `--size`
/// and `--board` says what to solve.
pub(super) fn command() -> Command {
    Command::new("reversi solve")
        .about(
            "Solve positions exactly: prints `<move> <score>` per position, the score \
             being the side to move's final disc difference (empty squares go to the \
             winner unless --discs-only)",
        )
        .arg(
            option(
                "obf",
                "OBF",
                "One OBF line: 64 of X/O/- then the side to move X or O",
            )
            .allow_hyphen_values(true),
        )
        .arg(option(
            "file",
            "FILE",
            "A file of OBF lines (blank lines and lines starting with % or # skipped)",
        ))
        .args(position_args(
            "Solve the start position of this size: 4, 6 or 8",
        ))
        .group(
            ArgGroup::new("input")
                .required(true)
                .args(["obf", "file", "size", "board"]),
        )
        .arg(flag(
            "discs-only",
            "Score by the plain disc difference (empty squares count for nobody)",
        ))
        .arg(flag(
            "json",
            "One JSON object per position: move, score, nodes, millis, empties, line",
        ))
        .arg(flag("quiet", "No progress lines on stderr").short('q'))
        .arg(
            option(
                "threads",
                "THREADS",
                "Threads (default: the machine's cores). One thread gives \
                 deterministic node counts; more give the same scores",
            )
            .value_parser(value_parser!(u32).range(1..=256)),
        )
        .arg(
            option(
                "tt-bits",
                "TT_BITS",
                "The transposition table has 2^BITS entries of 24 bytes (24 is 400 \
                 MB, 27 is 3.2 GB). Default: 20 up to 24 empty squares, then one more \
                 bit per empty square up to 26 (1.6 GB) from 30 empties",
            )
            .value_parser(value_parser!(u32).range(10..=30)),
        )
        .arg(flag(
            "pv",
            "Print a principal line after the score (and as \"pv\" in JSON); on by \
             default with --size",
        ))
        .arg(
            option(
                "expect",
                "EXPECT",
                "Prove this score for the side to move with two null-window searches \
                 (score >= V, then score <= V) sharing one table, instead of a full \
                 window; a failed proof falls back to the full window",
            )
            .allow_hyphen_values(true)
            .value_parser(value_parser!(i32)),
        )
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            obf: m.get_one("obf").cloned(),
            file: m.get_one("file").cloned(),
            size: m.get_one("size").copied(),
            board: m.get_one("board").cloned(),
            player: m.get_one("player").copied(),
            discs_only: m.get_flag("discs-only"),
            json: m.get_flag("json"),
            quiet: m.get_flag("quiet"),
            threads: m.get_one("threads").copied(),
            tt_bits: m.get_one("tt-bits").copied(),
            pv: m.get_flag("pv"),
            expect: m.get_one("expect").copied(),
        }
    }
}

/// Runs `reversi solve ...` (`args[0]` is `solve`).
pub fn run(args: &[String]) -> Result<()> {
    reversi::kit::parse_and_run(
        command(),
        &args[1..],
        |m| Ok(Args::from_matches(m)),
        solve_as_asked,
    )
}

/// Runs `reversi solve` as asked.
fn solve_as_asked(a: Args) -> Result<()> {
    let positions = positions_of(&a)?;
    let scoring = if a.discs_only {
        Scoring::DiscsOnly
    } else {
        Scoring::Standard
    };
    let most_empties = positions
        .iter()
        .map(|p| p.position.empties().count_ones())
        .max()
        .unwrap_or(0);
    let tt_bits = a
        .tt_bits
        .unwrap_or_else(|| default_table_bits(most_empties));
    let tt_bits = super::memory::table_bits_that_fit(tt_bits, a.tt_bits.is_some(), a.quiet)?;
    let options = SolveOptions {
        threads: a.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            |t| t as usize,
        ),
        expect: a.expect,
        principal_line: a.pv || a.size.is_some(),
        // `--size` gives a start position: its four first moves are
        // equivalent, so the engine solves one.
        start_symmetry: a.size.is_some(),
    };
    let mut solver = EndgameSolver::with_table_bits(scoring, tt_bits);
    for p in &positions {
        let start = Instant::now();
        let empties = p.position.empties().count_ones();
        if empties > REACH_EMPTIES && !a.quiet {
            eprintln!(
                "warning: line {} has {empties} empty squares; exact solves reach about \
                 {REACH_EMPTIES} (6x6 from the start, 32 empties, takes minutes), so this may never finish",
                p.line
            );
        }
        let report = solver.solve_request(&p.position, &options, &mut |event| {
            if !a.quiet {
                show_progress(p.line, &start, event);
            }
        });
        let millis = start.elapsed().as_millis();
        write_stdout(&format_report(
            &report,
            p.line,
            empties,
            millis,
            a.json,
            options.principal_line,
        ))?;
    }
    Ok(())
}

/// The positions the arguments name: the `--obf` line, the lines of the
/// `--file`, or the `--size`/`--board` position.
fn positions_of(a: &Args) -> Result<Vec<ObfPosition>> {
    if let Some(line) = &a.obf {
        return match parse_obf(line, 1) {
            Ok(p) => Ok(vec![p]),
            Err(e) => usage(format!("--obf {e}")),
        };
    }
    if let Some(file) = &a.file {
        let text = match reversi::kit::input::open_input(std::path::Path::new(file)) {
            Ok(f) => std::io::BufReader::new(f),
            Err(e) => return usage(format!("{file}: unreadable: {e}")),
        };
        return match read_obf(text) {
            Ok(v) if v.is_empty() => usage(format!(
                "{file} holds no position (OBF lines: 64 squares, the side to move and `;`)"
            )),
            Ok(v) => Ok(v),
            Err(e) => usage(format!("{file} {e}")),
        };
    }
    let (position, to_move) = position_of(a.size, a.board.as_deref(), a.player)?;
    Ok(vec![ObfPosition {
        position,
        to_move,
        line: 1,
    }])
}

/// Prints a progress line on stderr for `event` of the solve of OBF line
/// `line` (root moves only once the solve has run for a second).
fn show_progress(line: usize, start: &Instant, event: SolveEvent) {
    let secs = start.elapsed().as_secs_f64();
    match event {
        SolveEvent::Root(window, r) if secs > 1.0 => {
            let what = match window {
                WindowKind::Full => "",
                WindowKind::AtLeast(_) => " (score >= v)",
                WindowKind::AtMost(_) => " (score <= v)",
            };
            eprintln!(
                "line {line}{what}: {}/{} moves, {} searched, best {} {:+}, {} nodes, {secs:.1} s",
                r.done, r.total, r.square, r.best.0, r.best.1, r.nodes,
            );
        }
        SolveEvent::Root(..) => {}
        SolveEvent::Proof(step) => {
            let (relation, v) = match (step.window, step.held) {
                (WindowKind::AtLeast(v), true) => (">=", v),
                (WindowKind::AtLeast(v), false) => ("<", v),
                (WindowKind::AtMost(v), true) => ("<=", v),
                (WindowKind::AtMost(v), false) => (">", v),
                (WindowKind::Full, _) => return,
            };
            eprintln!("score {relation} {v}: {} nodes, {secs:.1} s", step.nodes);
        }
    }
}

/// The output line of one solved position: `<move> <score>` (and the
/// principal line when `show_pv`), or one JSON object.
fn format_report(
    report: &SolveReport,
    line: usize,
    empties: u32,
    millis: u128,
    json: bool,
    show_pv: bool,
) -> String {
    let name = |m: Option<Move>| match m {
        Some(Move::Place(sq)) => sq.to_string(),
        Some(Move::Pass) => "pass".to_string(),
        None => "none".to_string(),
    };
    let s = &report.solution;
    let mv = name(s.best);
    let pv: Vec<String> = report.line.iter().map(|&m| name(Some(m))).collect();
    if json {
        let pv = if show_pv {
            format!(",\"pv\":\"{}\"", pv.join(" "))
        } else {
            String::new()
        };
        format!(
            "{{\"line\":{line},\"empties\":{empties},\"move\":\"{mv}\",\"score\":{},\"nodes\":{},\"millis\":{millis}{pv}}}\n",
            s.score, s.nodes
        )
    } else if show_pv {
        format!("{mv} {:+} {}\n", s.score, pv.join(" "))
    } else {
        format!("{mv} {:+}\n", s.score)
    }
}
