//! The 8x8 contract: `reversi -t TASK -d DEPTH -i INPUT -op MOVES -ol LOG`
//! (SPEC section B), and `reversi usc-report INPUT...`, the figures of the
//! README's analysis.
//!
//! Everything is checked and computed before any output file is touched;
//! the two outputs are then written as one transaction by
//! [`super::output_files`].

use super::input::read_text_capped;
use super::output_files;
use super::{usage, write_stdout};
use anyhow::Result;
use reversi::board::Board;
use reversi::reversi::Position;
use reversi::search::NoObserver;
use reversi::usc::{format_moves, parse_board, play_game, search, Task, TraverseLog};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The parsed command line of the contract.
struct Args {
    task: Task,
    depth: u32,
    input: PathBuf,
    moves: PathBuf,
    log: PathBuf,
}

const FORM: &str = "reversi -t TASK -d DEPTH -i INPUT -op MOVES -ol LOG";

fn parse_args(args: &[String]) -> Result<Args> {
    let (mut task, mut depth, mut input, mut moves, mut log) = (None, None, None, None, None);
    let mut it = args.iter();
    while let Some(opt) = it.next() {
        let slot = match opt.as_str() {
            "-t" | "--t" => &mut task,
            "-d" | "--d" => &mut depth,
            "-i" | "--i" => &mut input,
            "-op" | "--op" => &mut moves,
            "-ol" | "--ol" => &mut log,
            _ => return usage(format!("unknown option {opt:?}; usage: {FORM}")),
        };
        let Some(value) = it.next() else {
            return usage(format!("option {opt} needs a value; usage: {FORM}"));
        };
        if slot.is_some() {
            return usage(format!("option {opt} is given twice"));
        }
        *slot = Some(value.clone());
    }
    let missing = |name: &str, what: &str| format!("missing option {name} {what}; usage: {FORM}");
    let Some(task) = task else {
        return usage(missing("-t", "TASK"));
    };
    let Some(depth) = depth else {
        return usage(missing("-d", "DEPTH"));
    };
    let Some(input) = input else {
        return usage(missing("-i", "INPUT"));
    };
    let Some(moves) = moves else {
        return usage(missing("-op", "MOVES"));
    };
    let Some(log) = log else {
        return usage(missing("-ol", "LOG"));
    };
    let Some(task) = task.parse().ok().and_then(Task::from_number) else {
        return usage(format!(
            "TASK {task:?} is not 1 (minimax), 2 (alpha-beta) or 3 (alpha-beta, positional weights)"
        ));
    };
    let depth = match depth.parse::<u32>() {
        Ok(d) if d >= 1 => d,
        _ => {
            return usage(format!(
                "DEPTH {depth:?} is not a whole number of at least 1"
            ))
        }
    };
    Ok(Args {
        task,
        depth,
        input: input.into(),
        moves: moves.into(),
        log: log.into(),
    })
}

/// The largest input file read, in bytes: a board is 8 lines of 8
/// characters (72 to 80 bytes); the margin leaves room for trailing lines
/// and spaces, reported by the board's own checks.
const MAX_BOARD_FILE: u64 = 64 * 1024;

/// Reads and checks the input board, naming the file (and line) on error.
fn read_board(path: &Path) -> Result<Board> {
    let name = path.display();
    let text = read_text_capped(path, &format!("input file {name}"), MAX_BOARD_FILE)?;
    parse_board(&text).or_else(|e| match e.line() {
        Some(line) => usage(format!("input file {name} line {line} {e}")),
        None => usage(format!("input file {name} {e}")),
    })
}

/// Runs the contract on `args` (the whole command line, starting with an option).
pub fn run(args: &[String]) -> Result<()> {
    let args = parse_args(args)?;
    let board = read_board(&args.input)?;
    let outputs = output_files::plan(
        &args.input,
        &[("-op", args.moves.as_path()), ("-ol", args.log.as_path())],
    )?;
    let mut log = TraverseLog::new(args.task);
    let steps = play_game(args.task, args.depth, board, &mut log);
    output_files::write(&outputs, &[format_moves(&steps).as_bytes(), log.as_bytes()])
}

const REPORT_HELP: &str = "\
The 8x8 contract's analysis: for each input board (an 8x8 contract INPUT
file), tasks 1 and 2 at depths 1-5 (nodes at the first step and over the
whole game) and tasks 2 and 3 (first moves, final scores), as Markdown
tables on stdout.

Usage: reversi usc-report INPUT...

Example:
  reversi usc-report tests/data/usc/input1.txt tests/data/usc/input2.txt
";

/// `reversi usc-report INPUT...`: the tables of the README's analysis,
/// for each input board at depths 1-5.
pub fn report(args: &[String]) -> Result<()> {
    if let [flag] = args {
        if flag == "-h" || flag == "--help" {
            return write_stdout(REPORT_HELP);
        }
    }
    if args.is_empty() {
        return usage("usc-report needs one or more input files (e.g. tests/data/usc/input1.txt)");
    }
    let boards = args
        .iter()
        .map(|a| Ok((a.as_str(), read_board(Path::new(a))?)))
        .collect::<Result<Vec<_>>>()?;
    let name = |a: &str| {
        Path::new(a)
            .file_name()
            .map_or(a.to_string(), |n| n.to_string_lossy().into_owned())
    };
    let mut out = String::new();
    out.push_str("Nodes searched at the first step (task 1 minimax, task 2 alpha-beta, same evaluation):\n\n");
    out.push_str("| input | depth | task 1 nodes | task 2 nodes | task 2 / task 1 | same first move | same game | task 1 nodes, whole game | task 2 nodes, whole game |\n");
    out.push_str("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |\n");
    for (input, board) in &boards {
        for depth in 1..=5 {
            let root = Position {
                board: *board,
                to_move: reversi::board::Color::Black,
            };
            let t1 = search(Task::Minimax, depth, &root, &mut NoObserver);
            let t2 = search(Task::AlphaBeta, depth, &root, &mut NoObserver);
            let g1 = play_game(Task::Minimax, depth, *board, &mut NoObserver);
            let g2 = play_game(Task::AlphaBeta, depth, *board, &mut NoObserver);
            let same_game = format_moves(&g1) == format_moves(&g2);
            let _ = writeln!(
                out,
                "| {} | {depth} | {} | {} | {:.0}% | {} | {} | {} | {} |",
                name(input),
                t1.nodes,
                t2.nodes,
                100.0 * t2.nodes as f64 / t1.nodes as f64,
                yes(t1.best == t2.best),
                yes(same_game),
                total(&g1),
                total(&g2),
            );
        }
    }
    out.push_str(
        "\nWhole games, task 2 (disc difference) against task 3 (positional weights):\n\n",
    );
    out.push_str("| input | depth | task 2 first move | task 3 first move | first step that differs (task 2 / task 3 move) | task 2 final X-O | task 3 final X-O | task 2 steps | task 3 steps |\n");
    out.push_str("| --- | ---: | --- | --- | ---: | --- | --- | ---: | ---: |\n");
    for (input, board) in &boards {
        for depth in 1..=5 {
            let g2 = play_game(Task::AlphaBeta, depth, *board, &mut NoObserver);
            let g3 = play_game(Task::Positional, depth, *board, &mut NoObserver);
            let first_move = |g: &[reversi::usc::Step]| {
                g[0].search
                    .best
                    .map_or("pass".to_string(), |sq| sq.to_string())
            };
            let differs = g2
                .iter()
                .zip(&g3)
                .position(|(a, b)| a.search.best != b.search.best || a.board != b.board)
                .map_or("none".to_string(), |i| {
                    let side = match g2[i].to_move {
                        reversi::board::Color::Black => "BLACK",
                        reversi::board::Color::White => "WHITE",
                    };
                    format!(
                        "{} ({side} {} / {})",
                        i + 1,
                        first_move(&g2[i..]),
                        first_move(&g3[i..])
                    )
                });
            let score = |g: &[reversi::usc::Step]| {
                let b = g.last().expect("a game has a step").board;
                format!(
                    "{}-{} ({:+})",
                    b.count(reversi::board::Color::Black),
                    b.count(reversi::board::Color::White),
                    b.disc_difference()
                )
            };
            let _ = writeln!(
                out,
                "| {} | {depth} | {} | {} | {differs} | {} | {} | {} | {} |",
                name(input),
                first_move(&g2),
                first_move(&g3),
                score(&g2),
                score(&g3),
                g2.len(),
                g3.len(),
            );
        }
    }
    write_stdout(&out)
}

/// The nodes searched over all steps of a game.
fn total(game: &[reversi::usc::Step]) -> u64 {
    game.iter().map(|s| s.search.nodes).sum()
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}
