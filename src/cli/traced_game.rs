//! The 8x8 contract: `reversi -t TASK -d DEPTH -i INPUT -op MOVES -ol LOG`
//! (computed by [`reversi::apps::traced_game`]), and `reversi usc-report INPUT...`, the figures of the
//! README's analysis.
//!
//! Everything is checked and computed before any output file is touched;
//! each output is then written to a temporary file in its own folder and
//! renamed over the target, so a file appears only when complete.

use super::{usage, write_stdout};
use anyhow::Result;
use reversi::apps::traced_game::{comparison_report, format_moves, parse_board, play_game, Task};
use reversi::board::Board;
use std::fs;
use std::io::Write as _;
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
    if moves == log {
        return usage(format!("-op and -ol name the same file {moves:?}"));
    }
    Ok(Args {
        task,
        depth,
        input: input.into(),
        moves: moves.into(),
        log: log.into(),
    })
}

/// Reads and checks the input board, naming the file (and line) on error.
fn read_board(path: &Path) -> Result<Board> {
    let name = path.display();
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) => return usage(format!("cannot read input file {name}: {e}")),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return usage(format!("input file {name} is not text (not UTF-8)"));
    };
    parse_board(&text).or_else(|e| match e.line() {
        Some(line) => usage(format!("input file {name} line {line} {e}")),
        None => usage(format!("input file {name} {e}")),
    })
}

/// Writes `bytes` to a temporary file beside `path` and returns its path.
fn write_temporary(path: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let name = path.display();
    let Some(file_name) = path.file_name() else {
        return usage(format!("output path {name} is not a file name"));
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(file_name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let written = fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            usage(format!("cannot write output file {name}: {e}"))
        }
    }
}

/// Writes every `(path, bytes)` through temporary files in the same
/// folders, renamed over the targets only once all are complete.
fn write_all_atomically(files: &[(&Path, &[u8])]) -> Result<()> {
    let mut temps = Vec::new();
    for (path, bytes) in files {
        match write_temporary(path, bytes) {
            Ok(tmp) => temps.push(tmp),
            Err(e) => {
                for tmp in &temps {
                    let _ = fs::remove_file(tmp);
                }
                return Err(e);
            }
        }
    }
    for (i, (tmp, (path, _))) in temps.iter().zip(files).enumerate() {
        if let Err(e) = fs::rename(tmp, path) {
            for rest in &temps[i..] {
                let _ = fs::remove_file(rest);
            }
            return usage(format!("cannot write output file {}: {e}", path.display()));
        }
    }
    Ok(())
}

/// Runs the contract on `args` (the whole command line, starting with an option).
pub fn run(args: &[String]) -> Result<()> {
    let args = parse_args(args)?;
    let board = read_board(&args.input)?;
    for out in [&args.moves, &args.log] {
        if out.is_dir() {
            return usage(format!("output path {} is a folder", out.display()));
        }
    }
    let mut log = args.task.traverse_log();
    let steps = play_game(args.task, args.depth, board, &mut log);
    write_all_atomically(&[
        (&args.moves, format_moves(&steps).as_bytes()),
        (&args.log, log.as_bytes()),
    ])
}

/// `reversi usc-report INPUT...`: the tables of the README's analysis,
/// for each input board at depths 1-5.
pub fn report(args: &[String]) -> Result<()> {
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
