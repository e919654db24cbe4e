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

/// The largest ring accepted (the K = 3 strip table ships up to this size;
/// memory stays a few bytes per cell).
pub const MAX_N: usize = 1_000_000;

/// The largest ring `--minimax` accepts, by K: `(k, n)` allows rings of up
/// to `n` cells from runs of `k` on, up to the next entry's K (the last
/// entry holds for every larger K). Plain minimax is exponential in N (4-7
/// times more time per cell; K = 2 games last long too), and these bounds
/// keep FLAG 1, 2 and 3 within about a minute: measured on the release
/// build on the project's shared 2-core machine, the slowest FLAG at each
/// bound (FLAG 2 there) took 53 s at 19 cells for K = 2 (20 cells: FLAG 3
/// 105 s), 19 s at 14 for K = 3 (15: FLAG 3 66 s), 32 s at 13 for K = 4,
/// 21/42/57 s at 12 for K = 5/6/7 (12 for K = 8: FLAG 2 109 s) and 10-13 s
/// at 11 for K = 8 to 100. K = 1 (the first X wins) stops at 20, the
/// bound before these measurements.
pub const MINIMAX_BOUNDS: [(usize, usize); 6] =
    [(1, 20), (2, 19), (3, 14), (4, 13), (5, 12), (8, 11)];

/// The largest ring `--minimax` accepts for runs of `k` (see
/// [`MINIMAX_BOUNDS`]).
#[must_use]
pub fn max_minimax_n(k: usize) -> usize {
    MINIMAX_BOUNDS
        .iter()
        .rev()
        .find(|&&(from, _)| k >= from)
        .map_or(MINIMAX_BOUNDS[0].1, |&(_, n)| n)
}

/// [`MINIMAX_BOUNDS`] in words, one part per entry: `20 for K = 1`, ...,
/// `12 for K = 5-7`, `11 for K >= 8`.
#[must_use]
pub fn minimax_bounds_words() -> Vec<String> {
    MINIMAX_BOUNDS
        .iter()
        .enumerate()
        .map(|(i, &(from, n))| match MINIMAX_BOUNDS.get(i + 1) {
            None => format!("{n} for K >= {from}"),
            Some(&(next, _)) if next == from + 1 => format!("{n} for K = {from}"),
            Some(&(next, _)) => format!("{n} for K = {from}-{}", next - 1),
        })
        .collect()
}

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
    /// `--minimax`: answer FLAG 1-3 by plain minimax (N at most
    /// [`max_minimax_n`] of K).
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

message_error! {
    /// A bad command line, described in one line (without control characters;
    /// the binary adds the pointer to `--help`).
    pub struct ArgError(String);
}

/// Parses the arguments after the program name: `N K FLAG [POSITION...]`
/// with `--stats` and `--minimax` anywhere; `-h`/`--help` or
/// `-V`/`--version` anywhere win over everything else.
///
/// # Errors
/// An argument that is not valid UTF-8, an unknown option, fewer than
/// three numbers, a number out of its range, or `--minimax` on a ring
/// larger than [`max_minimax_n`] of K (with FLAG 1-3).
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
        return Err(ArgError(format!("unknown option {a:?}")));
    }
    let request = parse_numbers(&words, stats, minimax)?;
    let bound = max_minimax_n(request.k);
    if minimax && request.flag != Flag::Play && request.n > bound {
        return Err(ArgError(format!(
            "--minimax is plain minimax (exponential in N): with K = {}, N must be at most \
             {bound} for it to finish within about a minute, got {}; without --minimax the \
             exact solver answers any N",
            request.k, request.n
        )));
    }
    Ok(RingCommand::Run(request))
}

/// `N K FLAG [POSITION...]` once the options are taken out.
fn parse_numbers(words: &[&str], stats: bool, minimax: bool) -> Result<RingRequest, ArgError> {
    if words.len() < 3 {
        return Err(ArgError("expected N K FLAG [POSITION...]".into()));
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
///
/// ```
/// use reversi::game::Side;
/// use reversi::treblecross::contract::{node_lines, Flag, NodeLine};
/// use reversi::treblecross::{Ring, RingSolver};
/// // The principal line of 3 cells, runs of 3: MAX, MIN, MAX fill them, MAX wins.
/// let mut solver = RingSolver::new(3, 3);
/// let lines: Vec<NodeLine> =
///     node_lines(&mut solver, Ring::new(3, &[], Side::Max), Flag::PrincipalLine).collect();
/// assert_eq!(lines.len(), 4);
/// assert_eq!(lines[3], NodeLine::Node(Ring::new(3, &[0, 1, 2], Side::Min), 1));
/// ```
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::os::unix::ffi::OsStringExt;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    /// One line, no control character, not empty.
    fn assert_one_line(e: &ArgError) {
        let text = e.to_string();
        assert!(!text.is_empty());
        assert!(!text.chars().any(char::is_control), "{text:?}");
    }

    #[test]
    fn parses_the_contract_and_the_options() {
        let Ok(RingCommand::Run(r)) = parse_args(&args(&["10", "3", "3", "5", "5", "0"])) else {
            panic!("a valid command line")
        };
        assert_eq!((r.n, r.k, r.flag), (10, 3, Flag::BestSuccessor));
        assert_eq!(r.positions, [5, 5, 0]);
        assert!(!r.stats && !r.minimax);
        let Ok(RingCommand::Run(r)) = parse_args(&args(&["--stats", "9", "4", "--minimax", "1"]))
        else {
            panic!("options anywhere")
        };
        assert!(r.stats && r.minimax && r.flag == Flag::Successors);
        assert_eq!(parse_args(&args(&["x", "--help"])), Ok(RingCommand::Help));
        assert_eq!(parse_args(&args(&["-V"])), Ok(RingCommand::Version));
    }

    #[test]
    fn minimax_refuses_large_rings_but_not_the_game() {
        let e = parse_args(&args(&["15", "3", "1", "--minimax"])).unwrap_err();
        assert!(
            e.to_string().contains("with K = 3, N must be at most 14"),
            "{e}"
        );
        assert!(parse_args(&args(&["14", "3", "1", "--minimax"])).is_ok());
        assert!(parse_args(&args(&["100000", "3", "0", "--minimax"])).is_ok());
        // Every K: the bound itself is accepted, one more cell refused.
        for k in 1..=40 {
            let bound = max_minimax_n(k);
            for flag in ["1", "2", "3"] {
                let at = |n: usize| {
                    parse_args(&args(&[&n.to_string(), &k.to_string(), flag, "--minimax"]))
                };
                assert!(at(bound).is_ok(), "K = {k}");
                let e = at(bound + 1).unwrap_err();
                assert!(e.to_string().contains(&format!("at most {bound} ")), "{e}");
            }
        }
    }

    #[test]
    fn the_minimax_bounds_shrink_with_k_and_read_as_written() {
        assert!(MINIMAX_BOUNDS
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 > w[1].1));
        assert_eq!(
            minimax_bounds_words().join(", "),
            "20 for K = 1, 19 for K = 2, 14 for K = 3, 13 for K = 4, 12 for K = 5-7, 11 for K >= 8"
        );
        assert_eq!(
            (
                max_minimax_n(1),
                max_minimax_n(7),
                max_minimax_n(8),
                max_minimax_n(usize::MAX)
            ),
            (20, 12, 11, 11)
        );
    }

    /// A word that is a valid argument or close to one.
    fn word() -> impl Strategy<Value = OsString> {
        prop_oneof![
            (0u64..40).prop_map(|v| OsString::from(v.to_string())),
            any::<i64>().prop_map(|v| OsString::from(v.to_string())),
            prop::sample::select(vec![
                "--stats",
                "--minimax",
                "-",
                "--",
                "-x",
                "+3",
                " 3",
                "3 ",
                "1e3",
                "",
                "99999999999999999999",
                "1000000",
                "1000001",
                "\u{1b}[1m",
                "é",
            ])
            .prop_map(OsString::from),
            any::<String>().prop_map(OsString::from),
            prop::collection::vec(any::<u8>(), 0..8).prop_map(OsString::from_vec),
        ]
    }

    proptest! {
        /// Any command line: no panic; an error is one clean line; a
        /// success holds what the words say.
        /// Long mode: `PROPTEST_CASES=1000000 cargo test --release --lib contract::tests`.
        #[test]
        fn any_command_line_parses_or_fails_in_one_line(words in prop::collection::vec(word(), 0..7)) {
            match parse_args(&words) {
                Err(e) => assert_one_line(&e),
                Ok(RingCommand::Run(r)) => {
                    prop_assert!((1..=MAX_N).contains(&r.n));
                    prop_assert!(r.k >= 1);
                    prop_assert!(r.positions.iter().all(|&p| p < r.n));
                    prop_assert!(!r.minimax || r.flag == Flag::Play || r.n <= max_minimax_n(r.k));
                    let root = r.root();
                    prop_assert_eq!(root.cells.len(), r.n);
                }
                Ok(_) => {
                    let help = words.iter().any(|w| ["-h", "--help", "-V", "--version"].iter().any(|o| w == o));
                    prop_assert!(help);
                }
            }
        }

        /// Every well-formed command line is accepted with its values.
        #[test]
        fn well_formed_command_lines_are_accepted(
            n in 1usize..=MAX_N,
            k in 1u64..=u64::MAX,
            flag in 0u8..4,
            picks in prop::collection::vec(any::<usize>(), 0..6),
        ) {
            let positions: Vec<usize> = picks.iter().map(|p| p % n).collect();
            let mut words = vec![n.to_string(), k.to_string(), flag.to_string()];
            words.extend(positions.iter().map(usize::to_string));
            let words: Vec<OsString> = words.into_iter().map(OsString::from).collect();
            let Ok(RingCommand::Run(r)) = parse_args(&words) else {
                return Err(TestCaseError::fail("rejected"));
            };
            prop_assert_eq!((r.n, r.k as u64, r.positions), (n, k, positions));
        }

        /// Any answer line: no panic, and the reply follows
        /// `Integer.parseInt` (written out here: optional sign, then only
        /// ASCII digits, within i32).
        #[test]
        fn any_answer_line_gets_the_front_end_reply(
            line in prop_oneof![
                prop::collection::vec(any::<u8>(), 0..12),
                "[+-]?[0-9]{0,11}".prop_map(String::into_bytes),
                "[ 0-9+-]{0,4}".prop_map(String::into_bytes),
            ],
            xs in prop::collection::vec(any::<bool>(), 1..9),
        ) {
            let n = xs.len();
            let root = Ring { cells: xs.clone(), to_move: Side::Max };
            let mut dialog = RingDialog::new(3, root, RingSolver::new(n, 3));
            let reply = dialog.answer(&line);
            let reference = parse_int_like_java(&line);
            match reference {
                None => prop_assert_eq!(reply, Reply::NotAnInteger),
                Some(v) if v < 0 || v >= n as i64 => prop_assert_eq!(reply, Reply::OutOfRange),
                Some(v) if xs[v as usize] => prop_assert_eq!(reply, Reply::Occupied),
                Some(v) => {
                    let Reply::Played { player, .. } = reply else {
                        return Err(TestCaseError::fail("not played"));
                    };
                    let mut expected = xs.clone();
                    expected[v as usize] = true;
                    prop_assert_eq!(player, expected);
                }
            }
        }
    }

    /// `Integer.parseInt` as its documentation states it: an optional `+`
    /// or `-`, then one or more ASCII digits, the value within i32.
    fn parse_int_like_java(line: &[u8]) -> Option<i64> {
        let (negative, digits) = match line.first() {
            Some(b'-') => (true, &line[1..]),
            Some(b'+') => (false, &line[1..]),
            _ => (false, line),
        };
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut v: i64 = 0;
        for &d in digits {
            v = v.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
        }
        let v = if negative { -v } else { v };
        (i64::from(i32::MIN)..=i64::from(i32::MAX))
            .contains(&v)
            .then_some(v)
    }

    #[test]
    fn the_dialog_plays_the_transcript_game() {
        // ring-treblecross 6 3 0 (the second transcript).
        let mut game = RingDialog::new(3, Ring::new(6, &[], Side::Max), RingSolver::new(6, 3));
        assert_eq!(game.answer(b"10"), Reply::OutOfRange);
        assert_eq!(game.answer(b""), Reply::NotAnInteger);
        assert_eq!(game.answer(b" 0"), Reply::NotAnInteger);
        let cells = |xs: &[usize]| Ring::new(6, xs, Side::Max).cells;
        assert_eq!(
            game.answer(b"0"),
            Reply::Played {
                player: cells(&[0]),
                computer: Some(cells(&[0, 3]))
            }
        );
        assert_eq!(game.answer(b"3"), Reply::Occupied);
        assert!(!game.is_over());
        assert_eq!(
            game.answer(b"1"),
            Reply::Played {
                player: cells(&[0, 1, 3]),
                computer: Some(cells(&[0, 1, 2, 3]))
            }
        );
        assert!(game.is_over());
    }
}
