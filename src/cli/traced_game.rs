//! The 8x8 contract: `reversi -t TASK -d DEPTH -i INPUT -op MOVES -ol LOG`
//! (computed by [`reversi::apps::traced_game`]), and `reversi usc-report INPUT...`, the figures of the
//! README's analysis.
//!
//! Everything is checked and computed before any output file is touched;
//! the two outputs are then written as one transaction by
//! [`reversi::kit::output_files`].

use super::memory;
use anyhow::Result;
use reversi::apps::traced_game::{comparison_report, format_moves, parse_board, play_game, Task};
use reversi::board::{Board, Color};
use reversi::eval::DiscDifference;
use reversi::kit::input::read_text_capped;
use reversi::kit::output_files;
use reversi::kit::{usage, write_stdout};
use reversi::reversi::no_pass::NoPassReversi;
use reversi::reversi::Position;
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
    // The first step's traverse log is held in memory: a DEPTH whose
    // first search (at most the full minimax tree) would not fit is
    // refused before it starts.
    let root = Position {
        board,
        to_move: Color::Black,
    };
    let budget = memory::log_line_budget();
    let game = NoPassReversi {
        eval: DiscDifference,
    };
    if memory::tree_size_within(&game, &root, Some(args.depth), budget).is_none() {
        return usage(format!(
            "DEPTH {} is too deep for this board: the first step's traverse log could \
             have more than {budget} lines ({}, more than the memory this run may \
             take); use a smaller DEPTH",
            args.depth,
            memory::log_size(budget)
        ));
    }
    let mut log = args.task.traverse_log();
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
    let boards: Vec<(String, _)> = boards
        .into_iter()
        .map(|(a, board)| {
            let name = Path::new(a)
                .file_name()
                .map_or(a.to_string(), |n| n.to_string_lossy().into_owned());
            (name, board)
        })
        .collect();
    write_stdout(&comparison_report(&boards))
}
