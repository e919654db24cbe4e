//! `ring-treblecross N K FLAG [POSITION...]`: (n,k)-Ring Treblecross with
//! the output of the CS 540 assignment's skeleton, answered exactly and fast
//! by [`reversi::treblecross::Solver`]. See `ring-treblecross --help` and
//! README.md.

use reversi::game::{Side, Value};
use reversi::search::minimax;
use reversi::treblecross::{has_run, Ring, RingTreblecross, Solver};
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

const HELP: &str = "\
ring-treblecross: (n,k)-Ring Treblecross, exact and fast

Usage:
  ring-treblecross N K FLAG [POSITION...] [--stats]

  A ring of N cells (0..N-1); each POSITION holds an X. Both players place
  an X; making K or more consecutive X (around the ring) wins. The program
  is MAX (score 1 = MAX wins, -1 = MIN wins, 0 = draw, only when N < K).
  FLAG 0  play: you are MIN and move first (type a cell index)
  FLAG 1  every successor with its exact score
  FLAG 2  the principal line (first-best successors) to the end
  FLAG 3  the best successor (the first with the best score)
  --stats    report the time and memo sizes on stderr
  --minimax  answer FLAG 1-3 by the library's plain minimax instead (the
             reference: exponential, seconds at N = 11)

Example:
  ring-treblecross 10 3 3 5    prints  Min Node  | X |   |   |   |   | X |   |   |   |   |  Score:  1

Errors go to stderr as `error: ...` with exit status 2.
";

/// The largest ring accepted (memory and the O(N^2) K=3 table stay small).
const MAX_N: usize = 1_000_000;

fn main() -> ExitCode {
    let mut args: Vec<String> = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(a) => return usage(&format!("argument {a:?} is not valid UTF-8")),
        }
    }
    if args.iter().any(|a| a == "-h" || a == "--help") {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    let stats = args.iter().any(|a| a == "--stats");
    let plain = args.iter().any(|a| a == "--minimax");
    args.retain(|a| a != "--stats" && a != "--minimax");
    if let Some(a) = args.iter().find(|a| a.starts_with("--")) {
        return usage(&format!("unknown option {a} (see --help)"));
    }
    let config = match parse(&args) {
        Ok(c) => c,
        Err(msg) => return usage(&msg),
    };
    let start = Instant::now();
    let mut solver = Solver::new(config.n, config.k);
    let result = if plain && config.flag != 0 {
        run(
            &config,
            &mut Plain(RingTreblecross::new(config.n, config.k)),
        )
    } else {
        run(&config, &mut solver)
    };
    if stats {
        let (rings, comps, strips) = solver.memo_sizes();
        eprintln!(
            "stats: {:.3} s; memo: {rings} wrapping rings, {comps} components, {strips} strip lengths",
            start.elapsed().as_secs_f64()
        );
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Reports a bad argument: one `error: ...` line, exit status 2.
fn usage(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

struct Config {
    n: usize,
    k: usize,
    flag: u8,
    positions: Vec<usize>,
}

fn number(what: &str, s: &str) -> Result<u64, String> {
    if let Ok(v) = s.parse::<u64>() {
        return Ok(v);
    }
    match s.parse::<i64>() {
        Ok(v) => Err(format!("{what} must not be negative, got {v}")),
        Err(_) => Err(format!("{what} must be a whole number, got {s:?}")),
    }
}

fn parse(args: &[String]) -> Result<Config, String> {
    if args.len() < 3 {
        return Err("expected N K FLAG [POSITION...] (see --help)".into());
    }
    let n = number("N", &args[0])?;
    if n < 1 {
        return Err("N must be at least 1".into());
    }
    if n > MAX_N as u64 {
        return Err(format!("N must be at most {MAX_N}, got {n}"));
    }
    let k = number("K", &args[1])?;
    if k < 1 {
        return Err("K must be at least 1".into());
    }
    let flag = number("FLAG", &args[2])?;
    if flag > 3 {
        return Err(format!("FLAG must be 0, 1, 2 or 3, got {flag}"));
    }
    let mut positions = Vec::new();
    for a in &args[3..] {
        let p = number("a position", a)
            .map_err(|_| format!("position {a:?} is not a cell index 0..{}", n - 1))?;
        if p >= n {
            return Err(format!("position {p} is outside the ring 0..{}", n - 1));
        }
        positions.push(p as usize);
    }
    Ok(Config {
        n: n as usize,
        k: usize::try_from(k).unwrap_or(usize::MAX),
        flag: flag as u8,
        positions,
    })
}

/// What the output needs from a solver: exact values and first-best moves.
trait Engine {
    fn value(&mut self, state: &Ring) -> Value;
    fn successor_values(&mut self, state: &Ring) -> Vec<(usize, Value)>;
    fn best(&mut self, state: &Ring) -> Option<(usize, Value)>;
}

impl Engine for Solver {
    fn value(&mut self, state: &Ring) -> Value {
        Solver::value(self, state)
    }
    fn successor_values(&mut self, state: &Ring) -> Vec<(usize, Value)> {
        Solver::successor_values(self, state)
    }
    fn best(&mut self, state: &Ring) -> Option<(usize, Value)> {
        Solver::best(self, state)
    }
}

/// The library's plain minimax over [`RingTreblecross`]: the reference.
struct Plain(RingTreblecross);

impl Engine for Plain {
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

fn run(config: &Config, solver: &mut impl Engine) -> io::Result<()> {
    let root = Ring::new(config.n, &config.positions, Side::Max);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    match config.flag {
        0 => play(config.k, root, solver, &mut out, &mut io::stdin().lock())?,
        1 => {
            for (c, v) in solver.successor_values(&root) {
                node_line(&mut out, "Min", &root.after(c).cells, v)?;
            }
        }
        2 => {
            let value = solver.value(&root);
            node_line(&mut out, "Max", &root.cells, value)?;
            let mut state = root;
            while let Some((c, _)) = solver.best(&state) {
                state = state.after(c);
                let label = match state.to_move {
                    Side::Max => "Max",
                    Side::Min => "Min",
                };
                node_line(&mut out, label, &state.cells, value)?;
            }
        }
        _ => match solver.best(&root) {
            Some((c, v)) => node_line(&mut out, "Min", &root.after(c).cells, v)?,
            None => {
                let v = solver.value(&root);
                writeln!(out, "Min Node null Score: {v:2}")?;
            }
        },
    }
    out.flush()
}

/// ` | ` then `X | ` or `  | ` per cell.
fn board(out: &mut impl Write, cells: &[bool]) -> io::Result<()> {
    out.write_all(b" | ")?;
    for &x in cells {
        out.write_all(if x { b"X | " } else { b"  | " })?;
    }
    Ok(())
}

/// `<label> Node <board> Score: <%2d>`.
fn node_line(out: &mut impl Write, label: &str, cells: &[bool], v: Value) -> io::Result<()> {
    write!(out, "{label} Node ")?;
    board(out, cells)?;
    writeln!(out, " Score: {v:2}")
}

/// The interactive game: the person is MIN and moves first; the program
/// replies with its best successor. Stops silently once a run stands or
/// the ring is full; end of input ends the game.
fn play(
    k: usize,
    mut state: Ring,
    solver: &mut impl Engine,
    out: &mut impl Write,
    input: &mut impl BufRead,
) -> io::Result<()> {
    let n = state.cells.len();
    let over = |s: &Ring| has_run(&s.cells, k) || s.cells.iter().all(|&x| x);
    out.write_all(b"Initial : ")?;
    board(out, &state.cells)?;
    out.write_all(b"\n")?;
    let mut tokens = Tokens::default();
    while !over(&state) {
        out.write_all(b"Index:     |")?;
        for i in 0..n {
            write!(out, "{i:3}|")?;
        }
        out.write_all(b"\nChoose Next Move: ")?;
        out.flush()?;
        let Some(token) = tokens.next(input)? else {
            out.write_all(b"\n")?;
            return Ok(());
        };
        let Ok(cell) = token.parse::<i32>() else {
            out.flush()?;
            eprintln!("Invalid Input");
            continue;
        };
        if cell < 0 || cell as usize >= n {
            out.write_all(b"Board position out of range.\n")?;
            continue;
        }
        let cell = cell as usize;
        if state.cells[cell] {
            out.write_all(b"Illegal move. Position already occupied.\n")?;
            continue;
        }
        state = Ring {
            cells: state.after(cell).cells,
            to_move: Side::Max,
        };
        out.write_all(b"Player  : ")?;
        board(out, &state.cells)?;
        out.write_all(b"\n")?;
        if over(&state) {
            break;
        }
        let Some((reply, _)) = solver.best(&state) else {
            break;
        };
        state = Ring {
            cells: state.after(reply).cells,
            to_move: Side::Max,
        };
        out.write_all(b"Computer: ")?;
        board(out, &state.cells)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Whitespace-separated tokens of the input, read a line at a time.
#[derive(Default)]
struct Tokens {
    pending: std::collections::VecDeque<String>,
}

impl Tokens {
    fn next(&mut self, input: &mut impl BufRead) -> io::Result<Option<String>> {
        loop {
            if let Some(t) = self.pending.pop_front() {
                return Ok(Some(t));
            }
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                return Ok(None);
            }
            self.pending
                .extend(line.split_whitespace().map(String::from));
        }
    }
}
