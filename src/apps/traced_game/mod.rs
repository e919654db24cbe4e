//! The 8x8 game contract: `reversi -t TASK -d DEPTH -i INPUT -op MOVES -ol LOG`
//! (the 8x8 assignment of a 2013 USC course, USC being the University of
//! Southern California; the golden files in `tests/data/usc/` are its
//! published outputs).
//!
//! A whole 8x8 game is played from an input board, both sides choosing their
//! moves by the same depth-limited search, and traced: the moves file shows
//! every step's board, the traverse log every node of the first search.
//!
//! - [`Task`]: minimax with disc difference (1), alpha-beta with disc
//!   difference (2), alpha-beta with positional weights (3).
//! - [`search`]: one task's search of one position, on the no-pass game
//!   tree [`NoPassReversi`] (a player without a legal placement is a leaf).
//! - [`play_game`]: the whole game; [`format_moves`] writes the moves file;
//!   [`parse_board`] reads the input file. The traverse log is the
//!   [`TraverseLog`] observer of the counted searches.
//! - [`comparison_report`]: the tables comparing the tasks on input boards.
//!
//! The module computes and formats; it never prints or touches files.

use crate::board::{Board, Color, Square};
use crate::eval::{DiscDifference, PositionalWeights};
use crate::game::UtilityEval;
use crate::reversi::no_pass::NoPassReversi;
use crate::reversi::Position;
use crate::search::{Algorithm, Limit, Observer, SearchResult};
use std::fmt;

mod report;
pub mod traverse_log;

pub use report::comparison_report;
pub use traverse_log::TraverseLog;

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
        TraverseLog::header(self.algorithm())
    }

    /// An empty traverse log for the task's search.
    #[must_use]
    pub fn traverse_log(self) -> TraverseLog {
        TraverseLog::new(self.algorithm())
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
    pub search: SearchResult<Square>,
}

/// Runs `task`'s search to `depth` plies from `root`, reporting to `observer`.
pub fn search<O>(task: Task, depth: u32, root: &Position, observer: &mut O) -> SearchResult<Square>
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
                eval: PositionalWeights::CLASSIC_8X8,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reversi::random_position;
    use crate::rng::Rng;
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
        let mut log = Task::Minimax.traverse_log();
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

    /// A board reached by up to 49 random moves from the opening.
    fn random_board(rng: &mut Rng) -> Board {
        let plies = rng.below(50);
        random_position(8, plies, rng).board
    }

    #[test]
    fn minimax_and_alphabeta_play_the_same_game() {
        let mut rng = Rng::new(0x5eed_1234_abcd_0001);
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
        let mut rng = Rng::new(0x0dd_ba11_cafe_f00d);
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
