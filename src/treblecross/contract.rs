//! The front end of the (n,k)-Ring Treblecross assignment, minus the I/O:
//! its arguments (`N K FLAG [POSITION...]` and our options), the lines each
//! FLAG prints, and the interactive game as a state machine. The
//! `ring-treblecross` binary reads, calls these and formats.
//!
//! Every answer comes through [`RingAnswers`], which the fast
//! [`RingSolver`] implements; the binary also plugs in plain minimax as the
//! reference (`--minimax`).

use super::{has_run, Ring, RingSolver};
use crate::game::{Side, Value};
use std::ffi::OsString;
use std::fmt;

/// The largest ring accepted (the K = 3 strip table ships up to this size;
/// memory stays a few bytes per cell).
pub const MAX_N: usize = 1_000_000;

/// The largest ring `--minimax` accepts: plain minimax visits about N!
/// nodes (seconds at N = 11) and keeps a copy of the ring per level.
pub const MAX_MINIMAX_N: usize = 20;

/// What an answer of the contract needs: exact values and first-best moves.
pub trait RingAnswers {
    /// The exact value of `state` (MAX's point of view).
    fn value(&mut self, state: &Ring) -> Value;
    /// The exact value after each empty cell of `state`, in index order.
    fn successor_values(&mut self, state: &Ring) -> Vec<(usize, Value)>;
    /// The first successor with the best value and that value; `None` once
    /// a run stands or the ring is full.
    fn best(&mut self, state: &Ring) -> Option<(usize, Value)>;
}

impl RingAnswers for RingSolver {
    fn value(&mut self, state: &Ring) -> Value {
        RingSolver::value(self, state)
    }
    fn successor_values(&mut self, state: &Ring) -> Vec<(usize, Value)> {
        RingSolver::successor_values(self, state)
    }
    fn best(&mut self, state: &Ring) -> Option<(usize, Value)> {
        RingSolver::best(self, state)
    }
}

/// What the FLAG asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// 0: the interactive game (the person is MIN and moves first).
    Play,
    /// 1: every successor with its exact value.
    Successors,
    /// 2: the principal line (first-best successors) to the end.
    PrincipalLine,
    /// 3: the first-best successor.
    BestSuccessor,
}

/// A run of the contract: the ring, what to print, and our options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RingRequest {
    /// Cells of the ring (1..=[`MAX_N`]).
    pub n: usize,
    /// The winning run length (at least 1).
    pub k: usize,
    /// What to print.
    pub flag: Flag,
    /// The cells holding an X (as given: unsorted, repeats allowed).
    pub positions: Vec<usize>,
    /// `--stats`: report the time and memo sizes.
    pub stats: bool,
    /// `--minimax`: answer FLAG 1-3 by plain minimax (N <= [`MAX_MINIMAX_N`]).
    pub minimax: bool,
}

impl RingRequest {
    /// The position the answer starts from: the given X, MAX to move.
    #[must_use]
    pub fn root(&self) -> Ring {
        Ring::new(self.n, &self.positions, Side::Max)
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RingCommand {
    /// `-h`, `--help`.
    Help,
    /// `-V`, `--version`.
    Version,
    /// Answer a position.
    Run(RingRequest),
}

/// A bad command line, described in one line (without control characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgError {}

/// Parses the arguments after the program name: `N K FLAG [POSITION...]`
/// with `--stats` and `--minimax` anywhere; `-h`/`--help` or
/// `-V`/`--version` anywhere win over everything else.
///
/// # Errors
/// An argument that is not valid UTF-8, an unknown option, fewer than
/// three numbers, a number out of its range, or `--minimax` on a ring
/// larger than [`MAX_MINIMAX_N`] (with FLAG 1-3).
pub fn parse_args(args: &[OsString]) -> Result<RingCommand, ArgError> {
    let mut words: Vec<&str> = Vec::with_capacity(args.len());
    for a in args {
        let Some(s) = a.to_str() else {
            return Err(ArgError(format!("argument {a:?} is not valid UTF-8")));
        };
        words.push(s);
    }
    if words.iter().any(|&a| a == "-h" || a == "--help") {
        return Ok(RingCommand::Help);
    }
    if words.iter().any(|&a| a == "-V" || a == "--version") {
        return Ok(RingCommand::Version);
    }
    let stats = words.contains(&"--stats");
    let minimax = words.contains(&"--minimax");
    words.retain(|&a| a != "--stats" && a != "--minimax");
    // "-1" is a (negative) number, reported as such below.
    let is_option = |a: &str| {
        a.strip_prefix('-')
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
    };
    if let Some(a) = words.iter().find(|a| is_option(a)) {
        return Err(ArgError(format!("unknown option {a:?} (see --help)")));
    }
    let request = parse_numbers(&words, stats, minimax)?;
    if minimax && request.flag != Flag::Play && request.n > MAX_MINIMAX_N {
        return Err(ArgError(format!(
            "--minimax is plain minimax (about N! nodes): N must be at most {MAX_MINIMAX_N}, \
             got {}; without --minimax the exact solver answers any N",
            request.n
        )));
    }
    Ok(RingCommand::Run(request))
}

/// `N K FLAG [POSITION...]` once the options are taken out.
fn parse_numbers(words: &[&str], stats: bool, minimax: bool) -> Result<RingRequest, ArgError> {
    if words.len() < 3 {
        return Err(ArgError(
            "expected N K FLAG [POSITION...] (see --help)".into(),
        ));
    }
    let n = number("N", words[0])?;
    if n < 1 {
        return Err(ArgError("N must be at least 1".into()));
    }
    if n > MAX_N as u64 {
        return Err(ArgError(format!("N must be at most {MAX_N}, got {n}")));
    }
    let k = number("K", words[1])?;
    if k < 1 {
        return Err(ArgError("K must be at least 1".into()));
    }
    let flag = match number("FLAG", words[2])? {
        0 => Flag::Play,
        1 => Flag::Successors,
        2 => Flag::PrincipalLine,
        3 => Flag::BestSuccessor,
        other => return Err(ArgError(format!("FLAG must be 0, 1, 2 or 3, got {other}"))),
    };
    let mut positions = Vec::with_capacity(words.len() - 3);
    for a in &words[3..] {
        let p = number("a position", a)
            .map_err(|_| ArgError(format!("position {a:?} is not a cell index 0..{}", n - 1)))?;
        if p >= n {
            return Err(ArgError(format!(
                "position {p} is outside the ring 0..{}",
                n - 1
            )));
        }
        positions.push(p as usize);
    }
    Ok(RingRequest {
        n: n as usize,
        k: usize::try_from(k).unwrap_or(usize::MAX),
        flag,
        positions,
        stats,
        minimax,
    })
}

/// A whole number `what` from `s`.
fn number(what: &str, s: &str) -> Result<u64, ArgError> {
    if let Ok(v) = s.parse::<u64>() {
        return Ok(v);
    }
    match s.parse::<i64>() {
        Ok(v) => Err(ArgError(format!("{what} must not be negative, got {v}"))),
        Err(_) => Err(ArgError(format!(
            "{what} must be a whole number, got {s:?}"
        ))),
    }
}

/// One line of the output of FLAG 1-3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeLine {
    /// `Max Node` or `Min Node` (the side to move in `ring`), the board and
    /// the value.
    Node(Ring, Value),
    /// FLAG 3 on a finished board: `Min Node null Score: <value>`.
    NoSuccessor(Value),
}

/// The lines FLAG 1, 2 or 3 prints for `root`, produced one at a time (a
/// ring of N cells prints up to N lines of N cells). FLAG 0 has none: it
/// is the [`RingDialog`].
pub fn node_lines<A: RingAnswers>(answers: &mut A, root: Ring, flag: Flag) -> NodeLines<'_, A> {
    let plan = match flag {
        Flag::Play => Plan::Successors(Vec::new().into_iter()),
        Flag::Successors => Plan::Successors(answers.successor_values(&root).into_iter()),
        Flag::PrincipalLine => {
            let value = answers.value(&root);
            Plan::Line {
                next: Some(root.clone()),
                value,
            }
        }
        Flag::BestSuccessor => Plan::Best(true),
    };
    NodeLines {
        answers,
        root,
        plan,
    }
}

/// The iterator of [`node_lines`].
pub struct NodeLines<'a, A> {
    answers: &'a mut A,
    root: Ring,
    plan: Plan,
}

/// Where [`NodeLines`] stands.
enum Plan {
    /// FLAG 1: the successors left, with their values.
    Successors(std::vec::IntoIter<(usize, Value)>),
    /// FLAG 2: the next position of the line (if any) and the root's value.
    Line { next: Option<Ring>, value: Value },
    /// FLAG 3: whether the line is still to come.
    Best(bool),
}

impl<A: RingAnswers> Iterator for NodeLines<'_, A> {
    type Item = NodeLine;

    fn next(&mut self) -> Option<NodeLine> {
        match &mut self.plan {
            Plan::Successors(rest) => {
                let (c, v) = rest.next()?;
                Some(NodeLine::Node(self.root.after(c), v))
            }
            Plan::Line { next, value } => {
                let state = next.take()?;
                *next = self.answers.best(&state).map(|(c, _)| state.after(c));
                Some(NodeLine::Node(state, *value))
            }
            Plan::Best(pending) => {
                if !std::mem::take(pending) {
                    return None;
                }
                Some(match self.answers.best(&self.root) {
                    Some((c, v)) => NodeLine::Node(self.root.after(c), v),
                    None => NodeLine::NoSuccessor(self.answers.value(&self.root)),
                })
            }
        }
    }
}

/// How the interactive game answers one line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Not an integer (printed `Invalid Input` on stderr); asked again.
    NotAnInteger,
    /// An integer outside `0..N`; asked again.
    OutOfRange,
    /// A cell that already holds an X; asked again.
    Occupied,
    /// The person's move was played: the board after it, and the board
    /// after the program's reply unless the person's move ended the game.
    Played {
        /// The cells after the person's move.
        player: Vec<bool>,
        /// The cells after the program's reply, if it moved.
        computer: Option<Vec<bool>>,
    },
}

/// The interactive game (FLAG 0): the person is MIN and moves first, the
/// program replies with its first-best successor. Over once a run of K
/// stands or the ring is full.
#[derive(Debug)]
pub struct RingDialog<A> {
    k: usize,
    state: Ring,
    answers: A,
}

impl<A: RingAnswers> RingDialog<A> {
    /// The game from `root` with runs of `k`, the program's moves from `answers`.
    pub fn new(k: usize, root: Ring, answers: A) -> RingDialog<A> {
        RingDialog {
            k,
            state: Ring {
                to_move: Side::Max,
                ..root
            },
            answers,
        }
    }

    /// The cells now.
    #[must_use]
    pub fn cells(&self) -> &[bool] {
        &self.state.cells
    }

    /// Whether the game is over (a run stands or the ring is full).
    #[must_use]
    pub fn is_over(&self) -> bool {
        has_run(&self.state.cells, self.k) || self.state.cells.iter().all(|&x| x)
    }

    /// The answers (for their statistics, say), once the game is done.
    pub fn into_answers(self) -> A {
        self.answers
    }

    /// Plays one line of input (without its line end): an integer exactly
    /// as Java's `Integer.parseInt` reads it (an optional sign and digits,
    /// nothing else: an empty line or one with spaces is not an integer).
    pub fn answer(&mut self, line: &[u8]) -> Reply {
        let Some(cell) = std::str::from_utf8(line)
            .ok()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            return Reply::NotAnInteger;
        };
        let n = self.state.cells.len();
        let Some(cell) = usize::try_from(cell).ok().filter(|&c| c < n) else {
            return Reply::OutOfRange;
        };
        if self.state.cells[cell] {
            return Reply::Occupied;
        }
        // Both moves keep MAX to move: the first-best cell does not depend
        // on whose turn the solver is told it is.
        self.state.cells[cell] = true;
        let player = self.state.cells.clone();
        if self.is_over() {
            return Reply::Played {
                player,
                computer: None,
            };
        }
        let computer = self.answers.best(&self.state).map(|(reply, _)| {
            self.state.cells[reply] = true;
            self.state.cells.clone()
        });
        Reply::Played { player, computer }
    }
}
