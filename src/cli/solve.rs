//! `reversi solve`: the exact final score and a best move of positions given
//! as OBF lines, a file of OBF lines, a start position or a digit board.

use super::perft::{parse_size, position_of};
use super::{usage, write_stdout};
use anyhow::Result;
use clap::{ArgGroup, Parser};
use reversi::engine::{parse_obf, parse_obf_file, ObfPosition, Scoring, Solver};
use reversi::reversi::Move;
use std::time::Instant;

/// Solve positions exactly: prints `<move> <score>` per position, the score
/// being the side to move's final disc difference (empty squares go to the
/// winner unless --discs-only).
#[derive(Parser, Debug)]
#[command(name = "reversi solve")]
#[command(group(ArgGroup::new("input").required(true).args(["obf", "file", "size", "board"])))]
struct Args {
    /// One OBF line: 64 of X/O/- then the side to move X or O.
    #[arg(long, allow_hyphen_values = true)]
    obf: Option<String>,
    /// A file of OBF lines (blank lines and lines starting with % or # skipped).
    #[arg(long)]
    file: Option<String>,
    /// Solve the start position of this size: 4, 6 or 8.
    #[arg(long, value_parser = parse_size)]
    size: Option<u8>,
    /// A board as 16, 36 or 64 digits 0/1/2 in reading order (needs --player).
    #[arg(long, requires = "player")]
    board: Option<String>,
    /// The player to move on --board: 1 (dark) or 2 (light).
    #[arg(long, requires = "board", value_parser = clap::value_parser!(u8).range(1..=2))]
    player: Option<u8>,
    /// Score by the plain disc difference (empty squares count for nobody).
    #[arg(long)]
    discs_only: bool,
    /// One JSON object per position: move, score, nodes, millis, empties, line.
    #[arg(long)]
    json: bool,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `reversi solve ...` (`args[0]` is `solve`).
pub fn run(args: &[String]) -> Result<()> {
    let a = Args::parse_from(args);
    let positions: Vec<ObfPosition> = if let Some(line) = &a.obf {
        match parse_obf(line, 1) {
            Ok(p) => vec![p],
            Err(e) => return usage(format!("--obf {e}")),
        }
    } else if let Some(file) = &a.file {
        let text = match std::fs::read(file) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(_) => return usage(format!("{file}: unreadable: not UTF-8 text")),
            },
            Err(e) => return usage(format!("{file}: unreadable: {e}")),
        };
        match parse_obf_file(&text) {
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
    let mut solver = Solver::new(scoring);
    for p in &positions {
        let start = Instant::now();
        let empties = p.position.empties().count_ones();
        let line = p.line;
        let quiet = a.quiet;
        let s = solver.solve_with(&p.position, |r| {
            if !quiet && start.elapsed().as_secs_f64() > 1.0 {
                eprintln!(
                    "line {line}: {}/{} moves, {} searched, best {} {:+}, {} nodes, {:.1} s",
                    r.done,
                    r.total,
                    r.square,
                    r.best.0,
                    r.best.1,
                    r.nodes,
                    start.elapsed().as_secs_f64()
                );
            }
        });
        let millis = start.elapsed().as_millis();
        let mv = match s.best {
            Some(Move::Place(sq)) => sq.to_string(),
            Some(Move::Pass) => "pass".to_string(),
            None => "none".to_string(),
        };
        let text = if a.json {
            format!(
                "{{\"line\":{line},\"empties\":{empties},\"move\":\"{mv}\",\"score\":{},\"nodes\":{},\"millis\":{millis}}}\n",
                s.score, s.nodes
            )
        } else {
            format!("{mv} {:+}\n", s.score)
        };
        write_stdout(&text)?;
    }
    Ok(())
}
