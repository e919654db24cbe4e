//! The 8x8 Reversi contract of the 2013 USC assignment
//! (`reversi -t TASK -d DEPTH -i INPUT -op MOVES -ol LOG`, SPEC section B).
//!
//! - [`NoPassReversi`]: Reversi as the assignment searches it: a player
//!   without a legal placement is a leaf scored by the task's evaluation
//!   (no pass nodes; a pass is not a ply).
//! - [`Task`]: minimax with disc difference (1), alpha-beta with disc
//!   difference (2), alpha-beta with positional weights (3).
//! - [`play_game`]: the whole game from a board, each side searching with
//!   the same task and depth; [`format_moves`] writes the moves file.
//! - [`TraverseLog`]: an [`Observer`] that writes the traverse log of a
//!   search; the searches themselves are the generic ones of
//!   [`crate::search`].
//!
//! The module computes and formats; it never prints or touches files.

use crate::board::{bits::Bits, Board, Color, Square};
use crate::eval::{DiscDifference, PositionalWeights};
use crate::game::{Evaluator, Game, Side, UtilityEval, Value, INFINITY};
use crate::reversi::{Position, Reversi};
use crate::search::{Algorithm, Limit, Node, Observer, Outcome, Window};
use std::fmt;

/// Reversi without pass moves: the moves of a position are its legal
/// placements only, and a position without any is a leaf whose value is
/// `eval` (so is every position at the depth limit).
///
/// With [`Limit::depth`] and [`UtilityEval`] the generic
/// [`crate::search::minimax_with`] and [`crate::search::alphabeta_with`]
/// then search exactly the assignment's tree.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPassReversi<E> {
    /// The evaluation of every leaf.
    pub eval: E,
}

/// The placements of a position, in reading order (a1, b1, ..., h8).
#[derive(Clone, Copy, Debug)]
pub struct Placements(Bits);

impl Iterator for Placements {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.0.next().map(Square)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<E: Evaluator<Reversi>> Game for NoPassReversi<E> {
    type State = Position;
    type Move = Square;
    type Moves = Placements;

    #[inline]
    fn side(&self, p: &Position) -> Side {
        match p.to_move {
            Color::Black => Side::Max,
            Color::White => Side::Min,
        }
    }

    #[inline]
    fn moves(&self, p: &Position) -> Placements {
        Placements(Bits(p.board.moves(p.to_move)))
    }

    #[inline]
    fn play(&self, p: &Position, sq: Square) -> Position {
        Position {
            board: p.board.play_unchecked(p.to_move, sq),
            to_move: p.to_move.other(),
        }
    }

    /// The evaluation: a leaf of this game is only "terminal" for the search.
    #[inline]
    fn utility(&self, p: &Position) -> Value {
        self.eval.evaluate(&Reversi::default(), p)
    }
}

/// The assignment's three tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// Task 1: minimax, evaluation = disc difference.
    Minimax,
    /// Task 2: alpha-beta, evaluation = disc difference.
    AlphaBeta,
    /// Task 3: alpha-beta, evaluation = positional weights.
    Positional,
}

impl Task {
    /// All tasks, in the assignment's order.
    pub const ALL: [Task; 3] = [Task::Minimax, Task::AlphaBeta, Task::Positional];

    /// The task with the assignment's number (1, 2 or 3).
    #[must_use]
    pub const fn from_number(n: u32) -> Option<Task> {
        match n {
            1 => Some(Task::Minimax),
            2 => Some(Task::AlphaBeta),
            3 => Some(Task::Positional),
            _ => None,
        }
    }

    /// The assignment's number of the task.
    #[must_use]
    pub const fn number(self) -> u32 {
        match self {
            Task::Minimax => 1,
            Task::AlphaBeta => 2,
            Task::Positional => 3,
        }
    }

    /// The search the task uses.
    #[must_use]
    pub const fn algorithm(self) -> Algorithm {
        match self {
            Task::Minimax => Algorithm::Minimax,
            Task::AlphaBeta | Task::Positional => Algorithm::AlphaBeta,
        }
    }

    /// The header line of the task's traverse log (without newline).
    #[must_use]
    pub const fn log_header(self) -> &'static str {
        match self.algorithm() {
            Algorithm::Minimax => "Node,Depth,Value",
            Algorithm::AlphaBeta => "Node,Depth,Value,Alpha,Beta",
        }
    }
}

/// One step of a played game, as the moves file shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The colour to move.
    pub to_move: Color,
    /// Whether the colour to move had to pass (no legal move, empty squares left).
    pub pass: bool,
    /// The board before this step's move.
    pub board: Board,
    /// The search run at this step: its value, chosen move and node count.
    pub search: Outcome<Square>,
}

/// Runs `task`'s search to `depth` plies from `root`, reporting to `observer`.
pub fn search<O>(task: Task, depth: u32, root: &Position, observer: &mut O) -> Outcome<Square>
where
    O: Observer<NoPassReversi<DiscDifference>> + Observer<NoPassReversi<PositionalWeights>>,
{
    let limit = Limit::depth(depth, UtilityEval);
    match task {
        Task::Minimax | Task::AlphaBeta => task.algorithm().run(
            &NoPassReversi {
                eval: DiscDifference,
            },
            root,
            &limit,
            observer,
        ),
        Task::Positional => task.algorithm().run(
            &NoPassReversi {
                eval: PositionalWeights::USC_2013,
            },
            root,
            &limit,
            observer,
        ),
    }
}

/// Plays the whole game from `board` with black to move, both sides
/// choosing with `task` at `depth`; only the first step's search reports to
/// `first`.
///
/// A step whose side has no legal move on a board with empty squares is a
/// pass; the game ends after the step over a full board, or after a pass
/// step when the other side cannot move either.
pub fn play_game<O>(task: Task, depth: u32, board: Board, first: &mut O) -> Vec<Step>
where
    O: Observer<NoPassReversi<DiscDifference>> + Observer<NoPassReversi<PositionalWeights>>,
{
    let mut steps = Vec::new();
    let mut position = Position {
        board,
        to_move: Color::Black,
    };
    loop {
        let outcome = if steps.is_empty() {
            search(task, depth, &position, first)
        } else {
            search(task, depth, &position, &mut crate::search::NoObserver)
        };
        let full = position.board.empty() == 0;
        let pass = !full && outcome.best.is_none();
        steps.push(Step {
            to_move: position.to_move,
            pass,
            board: position.board,
            search: outcome,
        });
        let next = match outcome.best {
            Some(sq) => position.board.play_unchecked(position.to_move, sq),
            None if pass && position.board.moves(position.to_move.other()) != 0 => position.board,
            None => return steps,
        };
        position = Position {
            board: next,
            to_move: position.to_move.other(),
        };
    }
}

/// The moves file for `steps`: per step `STEP = n`, the side (with ` PASS`
/// when it passes), the board before the move and an empty line; then
/// `Game End`.
#[must_use]
pub fn format_moves(steps: &[Step]) -> String {
    let mut out = String::with_capacity(steps.len() * 100 + 10);
    for (i, step) in steps.iter().enumerate() {
        let side = match step.to_move {
            Color::Black => "BLACK",
            Color::White => "WHITE",
        };
        let pass = if step.pass { " PASS" } else { "" };
        out.push_str(&format!("STEP = {}\n{side}{pass}\n", i + 1));
        out.push_str(&step.board.to_grid('*'));
        out.push('\n');
    }
    out.push_str("Game End\n");
    out
}

/// Parses the input file's text: 8 lines of 8 characters `*`, `X`, `O`
/// (a final newline and `\r\n` line ends are accepted).
///
/// # Errors
/// An [`InputError`] naming the line (1-based) where it applies.
pub fn parse_board(text: &str) -> Result<Board, InputError> {
    let body = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text);
    // Only the first 8 lines are kept; the rest are counted, so that a huge
    // text costs no memory beyond itself.
    let mut all = body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let lines: Vec<&str> = all.by_ref().take(8).collect();
    let count = lines.len() + all.count();
    if body.is_empty() || count != 8 {
        return Err(InputError::Lines(if body.is_empty() { 0 } else { count }));
    }
    let mut cells = String::with_capacity(64);
    for (i, line) in lines.iter().enumerate() {
        let n = line.chars().count();
        if n != 8 {
            return Err(InputError::Columns {
                line: i + 1,
                found: n,
            });
        }
        if let Some((col, found)) = line
            .chars()
            .enumerate()
            .find(|&(_, c)| !matches!(c, '*' | 'X' | 'O'))
        {
            return Err(InputError::Character {
                line: i + 1,
                column: col + 1,
                found,
            });
        }
        cells.push_str(line);
    }
    Ok(Board::parse_with(&cells, ['*', 'X', 'O']).expect("64 checked cells"))
}

/// Why an input board was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// The file does not have 8 lines.
    Lines(usize),
    /// A line does not have 8 characters.
    Columns {
        /// 1-based line number.
        line: usize,
        /// Characters found on the line.
        found: usize,
    },
    /// A character other than `*`, `X`, `O`.
    Character {
        /// 1-based line number.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The character.
        found: char,
    },
}

impl InputError {
    /// The 1-based line the problem is on, if it is on one line.
    #[must_use]
    pub const fn line(&self) -> Option<usize> {
        match self {
            InputError::Lines(_) => None,
            InputError::Columns { line, .. } | InputError::Character { line, .. } => Some(*line),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Lines(n) => {
                let s = if *n == 1 { "" } else { "s" };
                write!(f, "has {n} line{s}, expected 8 lines of 8 characters")
            }
            InputError::Columns { found, .. } => {
                write!(f, "has {found} characters, expected 8")
            }
            InputError::Character { column, found, .. } => write!(
                f,
                "has {found:?} in column {column}, expected '*' (empty), 'X' (black) or 'O' (white)"
            ),
        }
    }
}

impl std::error::Error for InputError {}

/// An [`Observer`] that writes the traverse log of a search, rows of
/// `node depth value` (plus ` alpha beta` and ` CUT-OFF` for alpha-beta).
///
/// The root is `root` at depth 1; other nodes are named by the square
/// played to reach them. A leaf writes one row with its value; an internal
/// node writes a row with `-Infinity` (MAX) or `Infinity` (MIN) when it is
/// expanded and one row after each child returns.
#[derive(Clone, Debug)]
pub struct TraverseLog {
    text: Vec<u8>,
    windows: bool,
}

impl TraverseLog {
    /// An empty log for `task`, starting with its header line.
    #[must_use]
    pub fn new(task: Task) -> TraverseLog {
        let mut text = Vec::with_capacity(1 << 16);
        text.extend_from_slice(task.log_header().as_bytes());
        text.push(b'\n');
        TraverseLog {
            text,
            windows: task.algorithm() == Algorithm::AlphaBeta,
        }
    }

    /// The log written so far.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.text
    }

    /// The log, consuming the observer.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.text
    }

    fn row(&mut self, mv: Option<Square>, ply: u32, value: Value, window: Window, cut: bool) {
        let t = &mut self.text;
        match mv {
            None => t.extend_from_slice(b"root"),
            Some(sq) => t.extend_from_slice(&[b'a' + sq.col(), b'1' + sq.row()]),
        }
        t.push(b' ');
        push_int(t, i64::from(ply) + 1);
        t.push(b' ');
        push_value(t, value);
        if self.windows {
            t.push(b' ');
            push_value(t, window.alpha);
            t.push(b' ');
            push_value(t, window.beta);
            if cut {
                t.extend_from_slice(b" CUT-OFF");
            }
        }
        t.push(b'\n');
    }
}

/// Appends a decimal integer.
fn push_int(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut m = n.unsigned_abs();
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Appends a value as the log writes it: `25.0`, `Infinity`, `-Infinity`.
fn push_value(out: &mut Vec<u8>, v: Value) {
    match v {
        INFINITY => out.extend_from_slice(b"Infinity"),
        v if v == -INFINITY => out.extend_from_slice(b"-Infinity"),
        v => {
            push_int(out, i64::from(v));
            out.extend_from_slice(b".0");
        }
    }
}

impl<G: Game<State = Position, Move = Square>> Observer<G> for TraverseLog {
    fn leaf(&mut self, node: &Node<'_, G>, value: Value, window: Window) {
        self.row(node.mv, node.ply, value, window, false);
    }

    fn expand(&mut self, node: &Node<'_, G>, window: Window) {
        let start = match node.state.to_move {
            Color::Black => -INFINITY,
            Color::White => INFINITY,
        };
        self.row(node.mv, node.ply, start, window, false);
    }

    fn update(&mut self, node: &Node<'_, G>, value: Value, window: Window, cutoff: bool) {
        self.row(node.mv, node.ply, value, window, cutoff);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoObserver;

    const OPENING: &str =
        "********\n********\n********\n***OX***\n***XO***\n********\n********\n********\n";

    #[test]
    fn parses_and_rejects_boards() {
        let b = parse_board(OPENING).unwrap();
        assert_eq!(b, Board::start(8));
        assert_eq!(parse_board(&OPENING.replace('\n', "\r\n")).unwrap(), b);
        assert_eq!(parse_board(OPENING.trim_end()).unwrap(), b);
        assert_eq!(parse_board(""), Err(InputError::Lines(0)));
        assert_eq!(parse_board(&OPENING[9..]), Err(InputError::Lines(7)));
        assert_eq!(
            parse_board(&format!("{OPENING}\n")),
            Err(InputError::Lines(9))
        );
        assert_eq!(
            parse_board(&OPENING.replacen("********", "*******", 2)),
            Err(InputError::Columns { line: 1, found: 7 })
        );
        let bad = parse_board(&OPENING.replacen("***OX***", "***Ox***", 1)).unwrap_err();
        assert_eq!(
            bad,
            InputError::Character {
                line: 4,
                column: 5,
                found: 'x'
            }
        );
        assert_eq!(bad.line(), Some(4));
    }

    #[test]
    fn opening_log_depth_1() {
        let mut log = TraverseLog::new(Task::Minimax);
        let root = Position::start(8);
        let out = search(Task::Minimax, 1, &root, &mut log);
        assert_eq!(out.best, Some("d3".parse().unwrap()));
        assert_eq!(out.nodes, 5);
        let text = String::from_utf8(log.into_bytes()).unwrap();
        assert_eq!(
            text,
            "Node,Depth,Value\nroot 1 -Infinity\nd3 2 3.0\nroot 1 3.0\nc4 2 3.0\nroot 1 3.0\n\
             f5 2 3.0\nroot 1 3.0\ne6 2 3.0\nroot 1 3.0\n"
        );
    }

    #[test]
    fn values_format() {
        let mut v = Vec::new();
        for x in [0, -7, 123, INFINITY, -INFINITY] {
            push_value(&mut v, x);
            v.push(b' ');
        }
        assert_eq!(v, b"0.0 -7.0 123.0 Infinity -Infinity ");
    }

    #[test]
    fn game_ends_on_double_pass_and_full_board() {
        // Black has no move and neither has white: one BLACK PASS step.
        let mut cells = vec!['*'; 64];
        cells[0] = 'X';
        let b = Board::parse_with(&cells.iter().collect::<String>(), ['*', 'X', 'O']).unwrap();
        let steps = play_game(Task::AlphaBeta, 3, b, &mut NoObserver);
        assert_eq!(steps.len(), 1);
        assert!(steps[0].pass);
        // A full board: one step without PASS.
        let full = Board::parse_with(&"XO".repeat(32), ['*', 'X', 'O']).unwrap();
        let steps = play_game(Task::Minimax, 2, full, &mut NoObserver);
        assert_eq!(steps.len(), 1);
        assert!(!steps[0].pass);
        assert_eq!(
            format_moves(&steps),
            format!("STEP = 1\nBLACK\n{}\nGame End\n", full.to_grid('*'))
        );
    }

    /// A small deterministic PRNG (xorshift64*), so the property tests need
    /// no dependency and fail reproducibly.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A position reached by random legal moves from the opening (passing
    /// when forced), black to move.
    fn random_board(rng: &mut Rng) -> Board {
        let plies = rng.below(50);
        let mut p = Position::start(8);
        let game = Reversi::default();
        for _ in 0..plies {
            let moves: Vec<_> = game.moves(&p).collect();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            p = game.play(&p, mv);
        }
        p.board
    }

    #[test]
    fn minimax_and_alphabeta_play_the_same_game() {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        for case in 0..40 {
            let board = random_board(&mut rng);
            let depth = 1 + (case % 3) as u32;
            let mm = play_game(Task::Minimax, depth, board, &mut NoObserver);
            let ab = play_game(Task::AlphaBeta, depth, board, &mut NoObserver);
            assert_eq!(mm.len(), ab.len(), "case {case}: {board:?}");
            for (i, (m, a)) in mm.iter().zip(&ab).enumerate() {
                assert_eq!(m.board, a.board, "case {case} step {i}");
                assert_eq!(m.search.best, a.search.best, "case {case} step {i}");
                assert_eq!(m.search.value, a.search.value, "case {case} step {i}");
                assert!(a.search.nodes <= m.search.nodes, "case {case} step {i}");
            }
        }
    }

    #[test]
    fn minimax_and_alphabeta_agree_on_random_positions() {
        let mut rng = Rng(0x0dd_ba11_cafe_f00d);
        for case in 0..200 {
            let mut p = Position {
                board: random_board(&mut rng),
                to_move: Color::Black,
            };
            if rng.below(2) == 1 {
                p.to_move = Color::White;
            }
            let depth = 1 + (rng.below(4) as u32);
            let mm = search(Task::Minimax, depth, &p, &mut NoObserver);
            let ab = search(Task::AlphaBeta, depth, &p, &mut NoObserver);
            assert_eq!(
                (mm.value, mm.best),
                (ab.value, ab.best),
                "case {case}: {p:?}"
            );
            assert!(ab.nodes <= mm.nodes, "case {case}");
        }
    }
}
