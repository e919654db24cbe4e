//! `reversi solve`: the exact final score and a best move of positions given
//! as OBF lines, a file of OBF lines, a start position or a digit board.

use super::perft::{position_args, position_of};
use super::{flag, option, usage, write_stdout};
use anyhow::Result;
use clap::{value_parser, ArgGroup, ArgMatches, Command};
use reversi::board::Square;
use reversi::engine::solve::RootProgress;
use reversi::engine::{parse_obf, ObfPosition, Position, Scoring, Solution, Solver};
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

/// Beyond this many empty squares an exact solve is out of reach (the
/// hardest standard FFO positions have up to 36; 8x8 from the start has 60).
const REACH_EMPTIES: u32 = 36;

/// The table size for solves of up to `empties` empty squares: 2^20
/// entries (24 MB) to 24 empties, one more bit per further empty square,
/// at most 2^26 (1.6 GB) from 30 empties (6x6 from the start has 32).
fn default_table_bits(empties: u32) -> u32 {
    20 + empties.saturating_sub(24).min(6)
}

/// Runs `reversi solve ...` (`args[0]` is `solve`).
pub fn run(args: &[String]) -> Result<()> {
    let a = Args::from_matches(&super::parse(command(), &args[1..])?);
    let positions: Vec<ObfPosition> = if let Some(line) = &a.obf {
        match parse_obf(line, 1) {
            Ok(p) => vec![p],
            Err(e) => return usage(format!("--obf {e}")),
        }
    } else if let Some(file) = &a.file {
        let text = match std::fs::File::open(file) {
            Ok(f) => std::io::BufReader::new(f),
            Err(e) => return usage(format!("{file}: unreadable: {e}")),
        };
        match reversi::engine::position::read_obf(text) {
            Ok(v) => v,
            Err(e) => return usage(format!("{file} {e}")),
        }
    } else {
        let (position, to_move) = position_of(a.size, a.board.as_deref(), a.player)?;
        vec![ObfPosition {
            position,
            to_move,
            line: 1,
        }]
    };
    let scoring = if a.discs_only {
        Scoring::DiscsOnly
    } else {
        Scoring::Standard
    };
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        |t| t as usize,
    );
    let most_empties = positions
        .iter()
        .map(|p| p.position.empties().count_ones())
        .max()
        .unwrap_or(0);
    let tt_bits = a
        .tt_bits
        .unwrap_or_else(|| default_table_bits(most_empties));
    let tt_bits = super::memory::table_bits_that_fit(tt_bits, a.tt_bits.is_some(), a.quiet)?;
    let show_pv = a.pv || a.size.is_some();
    let mut solver = Solver::with_table_bits(scoring, tt_bits);
    for p in &positions {
        let start = Instant::now();
        let empties = p.position.empties().count_ones();
        let line = p.line;
        let quiet = a.quiet;
        if empties > REACH_EMPTIES && !quiet {
            eprintln!(
                "warning: line {line} has {empties} empty squares; exact solves reach about \
                 {REACH_EMPTIES} (6x6 from the start, 32 empties, takes minutes), so this may never finish"
            );
        }
        // The start position is symmetric: its first moves are equivalent
        // under the board's symmetries, so one of them is solved.
        let first = (a.size.is_some() && p.position.moves().count_ones() == 4)
            .then(|| p.position.moves().trailing_zeros() as u8);
        let root = first.map_or(p.position, |sq| p.position.play(sq));
        let report = |what: &str, r: RootProgress| {
            if !quiet && start.elapsed().as_secs_f64() > 1.0 {
                eprintln!(
                    "line {line}{what}: {}/{} moves, {} searched, best {} {:+}, {} nodes, {:.1} s",
                    r.done,
                    r.total,
                    r.square,
                    r.best.0,
                    r.best.1,
                    r.nodes,
                    start.elapsed().as_secs_f64()
                );
            }
        };
        let mut s = match a.expect {
            Some(v) => prove(
                &mut solver,
                &root,
                if first.is_some() { -v } else { v },
                threads,
                &mut |w, r| report(w, r),
                quiet,
                &start,
            ),
            None => solver.solve_parallel(&root, threads, &mut |r| report("", r)),
        };
        let mut pv = if show_pv {
            solver.principal_line(&root, s.score)
        } else {
            Vec::new()
        };
        if let Some(sq) = first {
            s.score = -s.score;
            s.best = Some(Move::Place(Square(sq)));
            pv.insert(0, Move::Place(Square(sq)));
        }
        let millis = start.elapsed().as_millis();
        let name = |m: Option<Move>| match m {
            Some(Move::Place(sq)) => sq.to_string(),
            Some(Move::Pass) => "pass".to_string(),
            None => "none".to_string(),
        };
        let mv = name(s.best);
        let pv: Vec<String> = pv.into_iter().map(|m| name(Some(m))).collect();
        let text = if a.json {
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
        };
        write_stdout(&text)?;
    }
    Ok(())
}

/// Proves that `root` scores exactly `v` with two null-window searches
/// (lower bound, then upper bound) on one table, reporting each on stderr;
/// falls back to a full-window solve when a proof fails.
fn prove(
    solver: &mut Solver,
    root: &Position,
    v: i32,
    threads: usize,
    report: &mut (dyn FnMut(&str, RootProgress) + Send),
    quiet: bool,
    start: &Instant,
) -> Solution {
    solver.clear();
    let mut nodes = 0;
    let lower = solver.solve_window(root, v - 1, v, threads, &mut |r| report(" (score >= v)", r));
    nodes += lower.nodes;
    if !quiet {
        eprintln!(
            "score {} {v}: {} nodes, {:.1} s",
            if lower.score >= v { ">=" } else { "<" },
            lower.nodes,
            start.elapsed().as_secs_f64()
        );
    }
    if lower.score >= v {
        let upper =
            solver.solve_window(root, v, v + 1, threads, &mut |r| report(" (score <= v)", r));
        nodes += upper.nodes;
        if !quiet {
            eprintln!(
                "score {} {v}: {} nodes, {:.1} s",
                if upper.score <= v { "<=" } else { ">" },
                upper.nodes,
                start.elapsed().as_secs_f64()
            );
        }
        if upper.score <= v {
            return Solution {
                best: lower.best,
                score: v,
                nodes,
            };
        }
    }
    let mut s = solver.solve_parallel(root, threads, &mut |r| report("", r));
    s.nodes += nodes;
    s
}
