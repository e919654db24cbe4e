//! `ring-treblecross N K FLAG [POSITION...]`: (n,k)-Ring Treblecross with
//! the output of the CS 540 assignment's skeleton, answered exactly and fast
//! by [`reversi::treblecross::RingSolver`]. This file reads and writes; the
//! arguments, the lines and the game are [`reversi::treblecross::contract`].
//! See `ring-treblecross --help` and README.md.

use reversi::game::{Side, Value};
use reversi::lines::{read_line_capped, LineRead};
use reversi::search::minimax;
use reversi::treblecross::contract::{
    minimax_bounds_words, node_lines, parse_args, Flag, NodeLine, Reply, RingAnswers, RingCommand,
    RingDialog, RingRequest,
};
use reversi::treblecross::{Ring, RingSolver, RingTreblecross};
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

const HELP: &str = "\
ring-treblecross: (n,k)-Ring Treblecross, exact and fast

Usage:
  ring-treblecross N K FLAG [POSITION...] [--stats] [--minimax]
  ring-treblecross --help | --version

  A ring of N cells (0..N-1, N <= 1000000); each POSITION holds an X. Both
  players place an X; making K or more consecutive X (around the ring)
  wins. The program is MAX (score 1 = MAX wins, -1 = MIN wins, 0 = draw,
  only when N < K).
  FLAG 0  play: you are MIN and move first. Type a cell index and Enter;
          a line that is not exactly an integer (an empty line too) prints
          `Invalid Input` on stderr and asks again. End of input abandons
          the game (stderr says so, exit status 0).
  FLAG 1  every successor with its exact score (N lines of N cells)
  FLAG 2  the principal line (first-best successors) to the end
  FLAG 3  the best successor (the first with the best score)
  --stats    report the time and memo sizes on stderr
  --minimax  answer FLAG 1-3 by the library's plain minimax instead (the
             reference). It is exponential in N, so it refuses rings it
             cannot answer within about a minute; the largest N by K:
{minimax_bounds}

Time: K = 3 at any N: milliseconds (Grundy values shipped up to N =
1000000) plus the output; FLAG 1 and 2 print up to N lines of 4N bytes.
Other K: exponential in N: within a second up to N = 44 for K = 4,
N = 34 for K = 5, N = 28 for K = 6, N = 26 for K = 7 and 8 (README.md).

Example:
  ring-treblecross 10 3 3 5    prints  Min Node  | X |   |   |   |   | X |   |   |   |   |  Score:  1

Bad arguments: one `error: ...` line on stderr, exit status 2. Output that
cannot be written: one `error: ...` line, exit status 1.
";

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let request = match parse_args(&args) {
        Ok(RingCommand::Run(request)) => request,
        Ok(RingCommand::Help) => return finish(write_stdout(&help())),
        Ok(RingCommand::Version) => {
            let version = format!("ring-treblecross {}\n", env!("CARGO_PKG_VERSION"));
            return finish(write_stdout(&version));
        }
        Err(e) => {
            report(&format!("error: {e} (see `ring-treblecross --help`)"));
            return ExitCode::from(2);
        }
    };
    finish(run(&request))
}

/// [`HELP`] with the `--minimax` bounds of the library filled in, wrapped
/// under the option's description.
fn help() -> String {
    const INDENT: &str = "             ";
    let mut lines = vec![INDENT.to_string()];
    let words = minimax_bounds_words();
    for (i, part) in words.iter().enumerate() {
        let part = if i + 1 < words.len() {
            format!("{part},")
        } else {
            format!("{part}.")
        };
        let line = lines.last_mut().expect("one line at least");
        if line.len() > INDENT.len() && line.len() + 1 + part.len() > 76 {
            lines.push(format!("{INDENT}{part}"));
        } else {
            if line.len() > INDENT.len() {
                line.push(' ');
            }
            line.push_str(&part);
        }
    }
    HELP.replace("{minimax_bounds}", &lines.join("\n"))
}

/// Writes `text` to stdout at once.
fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Writes one line on stderr; a failure there has nowhere to be reported.
fn report(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// The exit status of a run: a closed stdout (a pipe into `head`) ends
/// quietly; any other output error is reported (if stderr still works).
fn finish(result: io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            report(&format!("error: writing the output: {e}"));
            ExitCode::from(1)
        }
    }
}

/// Answers a parsed command line on stdout (and stdin for the game).
fn run(request: &RingRequest) -> io::Result<()> {
    let start = Instant::now();
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut solver = RingSolver::new(request.n, request.k);
    match (request.flag, request.minimax) {
        (Flag::Play, _) => solver = play(request, solver, &mut out, &mut io::stdin().lock())?,
        (_, true) => {
            let mut plain = Plain(RingTreblecross::new(request.n, request.k));
            print_lines(&mut plain, request, &mut out)?;
        }
        (_, false) => print_lines(&mut solver, request, &mut out)?,
    }
    out.flush()?;
    if request.stats {
        let memo = solver.memo_sizes();
        let line = format!(
            "stats: {:.3} s; memo: {} wrapping rings, {} components, {} strip lengths",
            start.elapsed().as_secs_f64(),
            memo.wrapping_rings,
            memo.components,
            memo.strip_lengths
        );
        writeln!(io::stderr().lock(), "{line}")?;
    }
    Ok(())
}

/// The library's plain minimax over [`RingTreblecross`]: the reference.
struct Plain(RingTreblecross);

impl RingAnswers for Plain {
    fn value(&mut self, state: &Ring) -> Value {
        minimax(&self.0, state).value
    }
    fn successor_values(&mut self, state: &Ring) -> Vec<(usize, Value)> {
        state
            .empty_cells()
            .map(|c| (c, minimax(&self.0, &state.after(c)).value))
            .collect()
    }
    fn best(&mut self, state: &Ring) -> Option<(usize, Value)> {
        let out = minimax(&self.0, state);
        out.best.map(|c| (c, out.value))
    }
}

/// FLAG 1-3.
fn print_lines(
    answers: &mut impl RingAnswers,
    request: &RingRequest,
    out: &mut impl Write,
) -> io::Result<()> {
    for line in node_lines(answers, request.root(), request.flag) {
        match line {
            NodeLine::Node(ring, v) => {
                let label = match ring.to_move {
                    Side::Max => "Max",
                    Side::Min => "Min",
                };
                write!(out, "{label} Node ")?;
                board(out, &ring.cells)?;
                writeln!(out, " Score: {v:2}")?;
            }
            NodeLine::NoSuccessor(v) => writeln!(out, "Min Node null Score: {v:2}")?,
        }
    }
    Ok(())
}

/// ` | ` then `X | ` or `  | ` per cell.
fn board(out: &mut impl Write, cells: &[bool]) -> io::Result<()> {
    out.write_all(b" | ")?;
    for &x in cells {
        out.write_all(if x { b"X | " } else { b"  | " })?;
    }
    Ok(())
}

/// `<label>: <board>` and a newline.
fn board_line(out: &mut impl Write, label: &str, cells: &[bool]) -> io::Result<()> {
    out.write_all(label.as_bytes())?;
    board(out, cells)?;
    out.write_all(b"\n")
}

/// FLAG 0: the dialog of the assignment's front end (see
/// [`RingDialog`]); returns the solver for its statistics.
fn play(
    request: &RingRequest,
    solver: RingSolver,
    out: &mut impl Write,
    input: &mut impl BufRead,
) -> io::Result<RingSolver> {
    let mut game = RingDialog::new(request.k, request.root(), solver);
    board_line(out, "Initial : ", game.cells())?;
    let mut line = Vec::new();
    while !game.is_over() {
        out.write_all(b"Index:     |")?;
        for i in 0..request.n {
            write!(out, "{i:3}|")?;
        }
        out.write_all(b"\nChoose Next Move: ")?;
        out.flush()?;
        if !read_answer(input, &mut line)? {
            out.write_all(b"\n")?;
            out.flush()?;
            report("end of input: game abandoned");
            break;
        }
        match game.answer(&line) {
            Reply::NotAnInteger => writeln!(io::stderr().lock(), "Invalid Input")?,
            Reply::OutOfRange => out.write_all(b"Board position out of range.\n")?,
            Reply::Occupied => out.write_all(b"Illegal move. Position already occupied.\n")?,
            Reply::Played { player, computer } => {
                board_line(out, "Player  : ", &player)?;
                if let Some(cells) = computer {
                    board_line(out, "Computer: ", &cells)?;
                }
            }
        }
    }
    Ok(game.into_answers())
}

/// The longest answer line read as typed; a longer one (even an integer
/// with thousands of leading zeros) is not an integer. Keeps memory bounded
/// whatever the input.
const LINE_CAP: usize = 4096;

/// Reads one line of input into `line` without its `\n` (or `\r\n`); of
/// a line longer than [`LINE_CAP`] it keeps [`LINE_CAP`] bytes and a `\0`
/// (so that it is not an integer); `false` at end of input.
fn read_answer(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    // One byte more than the cap, for a `\r` before the `\n`.
    let read = read_line_capped(input, LINE_CAP + 1, line)?;
    match read {
        LineRead::End => return Ok(false),
        LineRead::TooLong => {
            input.skip_until(b'\n')?;
        }
        LineRead::Line => {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
    }
    if line.len() > LINE_CAP {
        line.truncate(LINE_CAP);
        line.push(0);
    }
    Ok(true)
}
