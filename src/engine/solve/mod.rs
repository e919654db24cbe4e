//! The exact endgame solver: negamax alpha-beta (principal variation
//! search) over side-to-move-relative bitboards, with a transposition
//! table and fastest-first move ordering far from the end, parity ordering
//! and no move generation for the last few empties, and a special case for
//! the last empty square.
//!
//! Scores are the side to move's final disc difference; with
//! [`Scoring::Standard`] the squares still empty when the game ends go to
//! the winner (the rule of the FFO suites).
//!
//! The search is split by phase, as in Edax:
//! - `root`: the root search (windows, proofs of an expected score, the
//!   principal line, the start position's symmetry) and the full request
//!   [`EndgameSolver::solve_request`];
//! - `order`: move ordering (hash move, mobility, corners, potential
//!   mobility, and the estimate by a shallow heuristic search);
//! - `endgame`: the principal variation search with the table, enhanced
//!   transposition cutoffs and stability cutoffs;
//! - `last`: the last few empties (parity, no move generation) and the
//!   last square;
//! - `parallel`: the threads (young brothers wait along the leftmost path).

mod endgame;
mod last;
mod order;
mod parallel;
mod root;
mod selective;

use super::position::RelativePosition;
use super::probcut::{EndgameSigma, ProbCutTable};
use super::score;
use super::tt::{self, Table};
use crate::board::bits::{kernel_entries, Bits, LastFlips};
use crate::board::Square;
use crate::eval::pattern::PatternWeights;
use crate::reversi::Move;
use crate::units::Score;
use order::MoveList;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub use root::{ProofStep, SolveEvent, SolveOptions, SolveReport, WindowKind};
pub use selective::{shallow_estimate, CUT_DEPTHS};

pub use super::score::Scoring;

/// At least this many empties: the transposition table is used (by the
/// endgame search and the parallel search's split points).
const TT_MIN: u32 = 7;
/// More than this many empties: enhanced transposition cutoffs (the
/// children, one empty fewer, are then in the table), tried by the endgame
/// search and prepared by the move order. FFO #40-#44, one thread: 12 gave
/// 105.9 M nodes, 8 101.7 M, 7 101.2 M.
const ETC_MIN: u32 = TT_MIN;

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A best move: a square, a forced pass, or `None` if the game is over.
    pub best: Option<Move>,
    /// The exact final score for the side to move (under a null window
    /// of [`EndgameSolver::solve_window`], a bound: see there).
    pub score: Score,
    /// Positions visited.
    pub nodes: u64,
}

/// Progress of a solve, reported after each root move.
#[derive(Clone, Copy, Debug)]
pub struct RootProgress {
    /// How many root moves are done.
    pub done: usize,
    /// How many root moves there are.
    pub total: usize,
    /// The move just searched.
    pub square: Square,
    /// The best move and score so far.
    pub best: (Square, i32),
    /// Positions visited so far.
    pub nodes: u64,
}

kernel_entries! {
    /// The solver's recursive and hot functions, compiled once per kernel
    /// with its CPU features (see [`crate::board::bits::Kernel`]).
    trait SolverKernel {
        fn deep(s: &mut EndgameSolver, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 =
            |k| s.deep(k, p, o, alpha, beta, n);
        fn shallow(
            s: &mut EndgameSolver,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            squares: ([u8; last::SHALLOW as usize], usize),
            parity: u8,
            passed: bool,
        ) -> i32 = |k| s.shallow(k, p, o, alpha, beta, squares, parity, passed);
        fn solve4(
            s: &mut EndgameSolver,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            squares: [u8; 4],
            parity: u8,
            passed: bool,
        ) -> i32 = |k| s.solve4(k, p, o, alpha, beta, squares, parity, passed);
        fn solve3(
            s: &mut EndgameSolver,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            squares: [u8; 3],
            parity: u8,
            passed: bool,
        ) -> i32 = |k| s.solve3(k, p, o, alpha, beta, squares, parity, passed);
        fn solve2(
            s: &mut EndgameSolver,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            squares: [u8; 2],
            passed: bool,
        ) -> i32 = |k| s.solve2(k, p, o, alpha, beta, squares, passed);
        fn order(s: &EndgameSolver, p: u64, o: u64, moves: u64, hash: u8, list: &mut MoveList) -> () =
            |k| s.order(k, p, o, moves, hash, list);
    }
}

/// Larger than any score.
const INF: i32 = 127;
/// "No move" in the table.
const NO_MOVE: u8 = 64;
/// How often (in nodes with more than the last few empties, which are
/// the ones the search enters through the table) a solve reads its stop
/// flag: about every millisecond.
const POLL_EVERY: u32 = 1024;

/// An exact solver with its transposition table. Reuse one solver for many
/// positions; each solve starts from an empty table, so the same position
/// always gives the same move, score and node count.
///
/// ```
/// use reversi::engine::{EndgameSolver, RelativePosition, Scoring};
/// let mut solver = EndgameSolver::new(Scoring::Standard);
/// // 4x4 from the start: White wins 11-3 and gets the two empty squares.
/// assert_eq!(solver.solve(&RelativePosition::start(4)).score, reversi::Score(-10));
/// ```
pub struct EndgameSolver {
    /// Shared with the helper threads' solvers.
    table: Arc<Table>,
    scoring: Scoring,
    valid: u64,
    corners: u64,
    /// The valid squares in classes, best first, that order the empties of
    /// the last-empties search within each parity group.
    square_classes: [u64; 5],
    /// For every valid square, the bit (1, 2, 4 or 8) of its quadrant.
    quadrant: [u8; 64],
    /// The flip-count tables of the last empty square for this board.
    last_flips: LastFlips,
    /// The lines of the board (rows, columns, both diagonals), each as the
    /// mask of its valid squares, with the orientation (0-3) of each.
    lines: Vec<(u64, usize)>,
    nodes: u64,
    /// Solvers of the helper threads, kept between solves.
    helpers: Vec<EndgameSolver>,
    /// The pattern evaluation that orders moves far from the end on 8x8
    /// (`None` on other boards); fetched when an 8x8 solve starts.
    weights: Option<Arc<PatternWeights>>,
    /// Weights chosen by [`EndgameSolver::set_weights`] (else the active
    /// ones).
    chosen_weights: Option<Arc<PatternWeights>>,
    /// The standard deviation of the selective passes' estimates (from the
    /// Multi-ProbCut table; no passes without it).
    endgame_sigma: Option<EndgameSigma>,
    /// In a selective pass, the confidence (in standard deviations of the
    /// pattern estimate's error) its cuts need; `None` in the exact pass.
    selectivity: Option<f64>,
    /// The level of the current pass (see [`tt::EXACT`]).
    level: u8,
    /// Roots with at least this many empties get the selective passes.
    passes_min: u32,
    /// The flag that stops a solve (see [`EndgameSolver::set_stop`]).
    stop: Option<Arc<AtomicBool>>,
    /// The time that stops a solve (see [`EndgameSolver::set_deadline`]).
    deadline: Option<Instant>,
    /// Whether the current (or last) solve saw the stop flag set.
    stopped: bool,
    /// Nodes to enter before the stop flag is read again.
    poll_countdown: u32,
}

impl Default for EndgameSolver {
    fn default() -> Self {
        EndgameSolver::new(Scoring::Standard)
    }
}

/// The table size (as a power of two) that suits solves of up to `empties`
/// empty squares: 2^20 entries (24 MB) to 24 empties, one more bit per
/// further empty square, at most 2^26 (1.6 GB) from 30 empties (6x6 from the
/// start has 32).
#[must_use]
pub fn default_table_bits(empties: u32) -> u32 {
    20 + empties.saturating_sub(24).min(6)
}

/// Beyond this many empty squares an exact solve is out of reach (the
/// hardest standard FFO positions have up to 36; 8x8 from the start has 60).
pub const REACH_EMPTIES: u32 = 36;

impl EndgameSolver {
    /// A solver with a table of 2^20 entries (24 MiB).
    #[must_use]
    pub fn new(scoring: Scoring) -> EndgameSolver {
        EndgameSolver::with_table_bits(scoring, 20)
    }

    /// A solver with a table of `2^bits` entries.
    #[must_use]
    pub fn with_table_bits(scoring: Scoring, bits: u32) -> EndgameSolver {
        EndgameSolver {
            table: Arc::new(Table::new(bits)),
            scoring,
            valid: !0,
            corners: 0,
            quadrant: [0; 64],
            square_classes: [!0, 0, 0, 0, 0],
            last_flips: LastFlips::new(!0),
            lines: Vec::new(),
            nodes: 0,
            helpers: Vec::new(),
            weights: None,
            chosen_weights: None,
            endgame_sigma: ProbCutTable::embedded().endgame(),
            selectivity: None,
            level: tt::EXACT,
            passes_min: selective::PASSES_MIN,
            stop: None,
            deadline: None,
            stopped: false,
            poll_countdown: POLL_EVERY,
        }
    }

    /// Makes every solve stoppable by `stop` (`None`: solves always run to
    /// the end). Once the flag is set, a running solve (its helper threads
    /// too) returns within about a millisecond with a meaningless result,
    /// and [`EndgameSolver::was_stopped`] says so; a solve started while
    /// it is set returns at once. Reading the flag costs a counter per
    /// node; solves that are not stopped visit the same nodes as without
    /// a flag.
    ///
    /// ```
    /// use reversi::engine::{EndgameSolver, RelativePosition, Scoring};
    /// use std::sync::{atomic::AtomicBool, Arc};
    /// let mut solver = EndgameSolver::new(Scoring::Standard);
    /// solver.set_stop(Some(Arc::new(AtomicBool::new(true))));
    /// solver.solve(&RelativePosition::start(6));
    /// assert!(solver.was_stopped());
    /// ```
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// Makes every solve stop at `deadline` (`None`: no clock), as the stop
    /// flag of [`EndgameSolver::set_stop`] does: the clock is read where
    /// the flag is, and a solve that ends before the deadline visits the
    /// same nodes as without one.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Whether the last solve (or principal line) was cut short by the
    /// stop flag of [`EndgameSolver::set_stop`] or the deadline of
    /// [`EndgameSolver::set_deadline`]: its score, move and line are then
    /// meaningless (its node count is what it visited).
    #[must_use]
    pub fn was_stopped(&self) -> bool {
        self.stopped
    }

    /// Whether the stop flag is set now, or the deadline has passed.
    fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Starts a solve: reads the stop flag (a set flag stops it at its
    /// first node).
    fn start_polling(&mut self) {
        self.stopped = self.stop_requested();
        self.poll_countdown = if self.stopped { 1 } else { POLL_EVERY };
    }

    /// Counts a node entered: whether the search must return at once (the
    /// stop flag was seen set). Reads the flag every [`POLL_EVERY`] calls,
    /// and after it was seen set at every call.
    #[inline(always)]
    fn must_stop(&mut self) -> bool {
        self.poll_countdown -= 1;
        self.poll_countdown == 0 && self.poll()
    }

    /// Reads the stop flag (cold: every [`POLL_EVERY`] nodes).
    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        self.stopped |= self.stop_requested();
        self.poll_countdown = if self.stopped { 1 } else { POLL_EVERY };
        self.stopped
    }

    /// Orders moves on 8x8 with `weights` instead of the embedded pattern
    /// weights ([`PatternWeights::embedded`]). Only the speed
    /// of a solve depends on them, never its score.
    pub fn set_weights(&mut self, weights: Arc<PatternWeights>) {
        self.chosen_weights = Some(weights);
    }

    /// Takes the selective passes' error model from `table` instead of the
    /// embedded table ([`ProbCutTable::embedded`]); a table without an
    /// endgame model turns the passes off. Only the speed of a solve
    /// depends on it, never its score.
    pub fn set_probcut(&mut self, table: &ProbCutTable) {
        self.endgame_sigma = table.endgame();
    }

    /// Solves `pos` exactly.
    pub fn solve(&mut self, pos: &RelativePosition) -> Solution {
        self.solve_with(pos, |_| {})
    }

    /// Solves `pos` exactly, calling `progress` after each root move.
    pub fn solve_with(
        &mut self,
        pos: &RelativePosition,
        mut progress: impl FnMut(RootProgress) + Send,
    ) -> Solution {
        self.solve_parallel(pos, 1, &mut progress)
    }

    /// Solves `pos` exactly with `threads` threads (young brothers wait
    /// along the leftmost path: at each of its nodes the eldest child is
    /// searched first, then the younger ones are shared out; each thread
    /// has its own solver, all share one lock-free table). The score is
    /// exact whatever the thread count; with one thread the node count is
    /// deterministic, with more it varies from run to run.
    pub fn solve_parallel(
        &mut self,
        pos: &RelativePosition,
        threads: usize,
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> Solution {
        self.start_polling();
        self.solve_full(pos, threads, progress)
    }

    /// [`EndgameSolver::solve_parallel`] within a solve already started.
    fn solve_full(
        &mut self,
        pos: &RelativePosition,
        threads: usize,
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> Solution {
        self.clear();
        let (passes, guess) = self.selective_passes(pos, threads);
        let mut s = self.solve_near(pos, guess, threads, progress);
        s.nodes += passes;
        s
    }

    /// Forgets every stored result (the table is shared with the helper
    /// threads).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Prepares the board geometry for `valid` (the table is kept) and the
    /// weights that order its moves.
    fn setup(&mut self, valid: u64) {
        self.weights = (valid == !0).then(|| {
            self.chosen_weights
                .clone()
                .unwrap_or_else(|| Arc::clone(PatternWeights::shared_embedded()))
        });
        if self.valid == valid && !self.lines.is_empty() {
            return;
        }
        self.valid = valid;
        let n = (valid.count_ones() as f64).sqrt().round() as u8;
        let last = n - 1;
        self.corners = [(0, 0), (0, last), (last, 0), (last, last)]
            .iter()
            .fold(0, |m, &(r, c)| m | Square::new(r, c).bit());
        let h = n / 2;
        let mut q = [0u8; 64];
        for r in 0..n {
            for c in 0..n {
                q[usize::from(r * 8 + c)] = 1 << (usize::from(r >= h) * 2 + usize::from(c >= h));
            }
        }
        self.quadrant = q;
        self.square_classes = last::square_classes(valid, n, self.corners);
        self.last_flips = LastFlips::new(valid);
        self.lines = board_lines(valid, n);
    }

    /// The final score of a finished game for the owner of `p`.
    #[inline]
    fn final_score(&self, p: u64, o: u64) -> i32 {
        score::final_score(p, o, self.valid, self.scoring)
    }
}

/// The lines (rows, columns, both diagonals) of the `n x n` board whose
/// squares are `valid`, each as the mask of its squares with its
/// orientation (0 rows, 1 columns, 2 and 3 the diagonals).
fn board_lines(valid: u64, n: u8) -> Vec<(u64, usize)> {
    let mut lines = Vec::new();
    for orientation in 0..4 {
        let step: (i32, i32) = [(0, 1), (1, 0), (1, 1), (1, -1)][orientation];
        let mut seen = 0u64;
        for start in Bits(valid) {
            if seen & (1u64 << start) != 0 {
                continue;
            }
            // Walk back to the line's first square, then along it.
            let (mut r, mut c) = (i32::from(start / 8), i32::from(start % 8));
            let inside =
                |r: i32, c: i32| (0..i32::from(n)).contains(&r) && (0..i32::from(n)).contains(&c);
            while inside(r - step.0, c - step.1) {
                r -= step.0;
                c -= step.1;
            }
            let mut line = 0u64;
            while inside(r, c) {
                line |= 1u64 << (r * 8 + c);
                r += step.0;
                c += step.1;
            }
            seen |= line;
            lines.push((line, orientation));
        }
    }
    lines
}

/// The bounds a search result `best` gives with the window `(alpha, beta)`
/// it was searched with (fail-soft), in the solver's scores.
#[inline]
fn bounds(best: i32, alpha: i32, beta: i32) -> (i32, i32) {
    score::bounds(best, alpha, beta, 64)
}
