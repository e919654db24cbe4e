//! The root of a solve: the search of the root's moves with a window,
//! proofs of an expected score by two null windows, the principal line, the
//! start position's symmetry, and [`EndgameSolver::solve_request`], which
//! puts them together for a command, a protocol or a library user.

use super::order::MoveList;
use super::parallel::SPLIT_DEPTH;
use super::SolverKernel;
use super::{EndgameSolver, RootProgress, Solution, INF, NO_MOVE};
use crate::board::bits::after;
use crate::board::bits::with_best_kernel;
use crate::board::Square;
use crate::engine::position::RelativePosition;
use crate::reversi::Move;
use crate::units::Score;

/// How [`EndgameSolver::solve_request`] solves a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Threads (0 counts as 1). One thread gives deterministic node counts;
    /// more give the same scores.
    pub threads: usize,
    /// A score to prove with two null-window searches (score >= V, then
    /// score <= V) sharing one table, instead of a full window; a failed
    /// proof falls back to the full window.
    pub expect: Option<i32>,
    /// Whether to find a principal line after the score.
    pub principal_line: bool,
    /// Whether a start position (any size, black to move) is solved
    /// through one of its four first moves, which the board's symmetries
    /// map onto each other: the first in reading order is played and its
    /// position solved.
    pub start_symmetry: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: 1,
            expect: None,
            principal_line: false,
            start_symmetry: false,
        }
    }
}

/// The window of one search of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowKind {
    /// The full window: the exact score.
    Full,
    /// The null window that proves score >= V (or refutes it).
    AtLeast(i32),
    /// The null window that proves score <= V (or refutes it).
    AtMost(i32),
}

impl WindowKind {
    /// The search window `(alpha, beta)`.
    #[must_use]
    pub fn bounds(self) -> (i32, i32) {
        match self {
            WindowKind::Full => (-INF, INF),
            WindowKind::AtLeast(v) => (v - 1, v),
            WindowKind::AtMost(v) => (v, v + 1),
        }
    }

    /// Whether a search with this window that returned `score` proves its
    /// bound (a full-window score always does).
    #[must_use]
    pub fn holds(self, score: i32) -> bool {
        match self {
            WindowKind::Full => true,
            WindowKind::AtLeast(v) => score >= v,
            WindowKind::AtMost(v) => score <= v,
        }
    }
}

/// A finished null-window search of a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofStep {
    /// Which bound was tried ([`WindowKind::AtLeast`] or
    /// [`WindowKind::AtMost`]).
    pub window: WindowKind,
    /// Whether the bound holds.
    pub held: bool,
    /// Positions this search visited.
    pub nodes: u64,
}

/// What a request reports while it runs.
#[derive(Clone, Copy, Debug)]
pub enum SolveEvent {
    /// A root move of one of the searches is done.
    Root(WindowKind, RootProgress),
    /// A null-window search of a proof is done.
    Proof(ProofStep),
}

/// The answer to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// The best move, exact score and the nodes of every search.
    pub solution: Solution,
    /// A principal line (empty unless asked for), starting with the best
    /// move.
    pub line: Vec<Move>,
}

impl EndgameSolver {
    /// Solves `pos` as `options` say, calling `events` after each root move
    /// and each proof step. Clears the table first.
    ///
    /// ```
    /// use reversi::engine::{EndgameSolver, RelativePosition, Scoring, SolveOptions};
    /// let mut solver = EndgameSolver::new(Scoring::Standard);
    /// let options = SolveOptions {
    ///     expect: Some(-10),
    ///     principal_line: true,
    ///     start_symmetry: true,
    ///     ..SolveOptions::default()
    /// };
    /// let report = solver.solve_request(&RelativePosition::start(4), &options, &mut |_| {});
    /// assert_eq!(report.solution.score, reversi::Score(-10));
    /// assert_eq!(report.line.len(), 10);
    /// ```
    pub fn solve_request(
        &mut self,
        pos: &RelativePosition,
        options: &SolveOptions,
        events: &mut (dyn FnMut(SolveEvent) + Send),
    ) -> SolveReport {
        self.start_polling();
        let threads = options.threads.max(1);
        let first =
            (options.start_symmetry && is_start(pos)).then(|| pos.moves().trailing_zeros() as u8);
        let root = first.map_or(*pos, |sq| pos.play(sq));
        let mut solution = match options.expect {
            // After the first move the other side is to move.
            Some(v) => self.prove(&root, if first.is_some() { -v } else { v }, threads, events),
            None => self.solve_full(&root, threads, &mut |r| {
                events(SolveEvent::Root(WindowKind::Full, r));
            }),
        };
        let mut line = if options.principal_line && !self.stopped {
            with_best_kernel!(|k| self.principal_line_in(k, &root, solution.score.0))
        } else {
            Vec::new()
        };
        if let Some(sq) = first {
            solution.score = -solution.score;
            solution.best = Some(Move::Place(Square(sq)));
            line.insert(0, Move::Place(Square(sq)));
        }
        SolveReport { solution, line }
    }

    /// Proves that `root` scores exactly `v` with two null-window searches
    /// (lower bound, then upper bound) on one table; falls back to a
    /// full-window solve when a proof fails. The nodes of every search are
    /// counted.
    fn prove(
        &mut self,
        root: &RelativePosition,
        v: i32,
        threads: usize,
        events: &mut (dyn FnMut(SolveEvent) + Send),
    ) -> Solution {
        self.clear();
        let mut nodes = self.selective_passes(root, threads).0;
        let mut step = |solver: &mut Self, window: WindowKind| {
            let (alpha, beta) = window.bounds();
            let s = solver.window(root, (alpha, beta), threads, &mut |r| {
                events(SolveEvent::Root(window, r));
            });
            let held = window.holds(s.score.0);
            events(SolveEvent::Proof(ProofStep {
                window,
                held,
                nodes: s.nodes,
            }));
            nodes += s.nodes;
            (s, held)
        };
        let (lower, held) = step(self, WindowKind::AtLeast(v));
        if held && step(self, WindowKind::AtMost(v)).1 {
            return Solution {
                best: lower.best,
                score: Score(v),
                nodes,
            };
        }
        let mut s = self.solve_full(root, threads, &mut |r| {
            events(SolveEvent::Root(WindowKind::Full, r));
        });
        s.nodes += nodes;
        s
    }

    /// Searches `pos` with the window `(alpha, beta)` without clearing the
    /// table, so successive windows on one position (null-window proofs
    /// around an expected value) share their work. Fail-soft: a score at or
    /// below `alpha` is an upper bound, one at or above `beta` a lower bound,
    /// one in between exact. Scores lie in -64..=64.
    pub fn solve_window(
        &mut self,
        pos: &RelativePosition,
        alpha: i32,
        beta: i32,
        threads: usize,
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> Solution {
        self.start_polling();
        self.window(pos, (alpha, beta), threads, progress)
    }

    /// [`EndgameSolver::solve_window`] within a solve already started.
    pub(super) fn window(
        &mut self,
        pos: &RelativePosition,
        window: (i32, i32),
        threads: usize,
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> Solution {
        with_best_kernel!(|k| self.solve_window_in(k, pos, window, threads, progress))
    }

    /// [`EndgameSolver::solve_window`] with the kernel `k`.
    pub(super) fn solve_window_in<K: SolverKernel>(
        &mut self,
        k: K,
        pos: &RelativePosition,
        (alpha, beta): (i32, i32),
        threads: usize,
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> Solution {
        self.setup(pos.valid);
        let (p, o) = (pos.player, pos.opponent);
        let n = pos.empties().count_ones();
        self.nodes = 1;
        if pos.moves() == 0 {
            return self.root_without_moves(k, pos, alpha, beta);
        }
        let ordered = self.root_order(k, pos);
        let total = ordered.len();
        // The first (eldest) move alone, with the full window (its own
        // eldest children first, the younger ones in parallel).
        let (sq, f) = ordered[0];
        let (np, no) = after(p, o, sq, f);
        let v0 = if threads <= 1 {
            -self.search(k, np, no, -beta, -alpha, n - 1)
        } else {
            -self.split(k, np, no, -beta, -alpha, n - 1, threads, SPLIT_DEPTH)
        };
        let mut best = (Square(sq), v0);
        progress(RootProgress {
            done: 1,
            total,
            square: best.0,
            best,
            nodes: self.nodes,
        });
        if threads <= 1 || total <= 2 || v0 >= beta {
            best = self.root_siblings(k, pos, &ordered, (alpha, beta), best, progress);
        } else {
            let window = (alpha, beta);
            best = self.parallel_siblings(
                k,
                pos,
                &ordered[1..],
                window,
                best,
                threads,
                Some(progress),
            );
        }
        Solution {
            best: Some(Move::Place(best.0)),
            score: Score(best.1),
            nodes: self.nodes,
        }
    }

    /// The root when the side to move has no move: the final score, or the
    /// opponent's search after a forced pass.
    fn root_without_moves<K: SolverKernel>(
        &mut self,
        k: K,
        pos: &RelativePosition,
        alpha: i32,
        beta: i32,
    ) -> Solution {
        let (p, o) = (pos.player, pos.opponent);
        if pos.pass().moves() == 0 {
            return Solution {
                best: None,
                score: Score(self.final_score(p, o)),
                nodes: 1,
            };
        }
        let score = -self.search(k, o, p, -beta, -alpha, pos.empties().count_ones());
        Solution {
            best: Some(Move::Pass),
            score: Score(score),
            nodes: self.nodes,
        }
    }

    /// The root moves after the first (`ordered[1..]`), one by one with
    /// null windows; `best` is the first move's result. Returns the best
    /// move and score.
    fn root_siblings<K: SolverKernel>(
        &mut self,
        k: K,
        pos: &RelativePosition,
        ordered: &[(u8, u64)],
        (alpha, beta): (i32, i32),
        mut best: (Square, i32),
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> (Square, i32) {
        let (p, o, n) = (pos.player, pos.opponent, pos.empties().count_ones());
        let mut alpha = alpha.max(best.1);
        for (i, &(sq, f)) in ordered.iter().enumerate().skip(1) {
            if best.1 >= beta {
                break;
            }
            let (np, no) = after(p, o, sq, f);
            let mut v = -self.search(k, np, no, -alpha - 1, -alpha, n - 1);
            if v > alpha && v < beta {
                v = -self.search(k, np, no, -beta, -alpha, n - 1);
            }
            if v > best.1 {
                best = (Square(sq), v);
                alpha = alpha.max(v);
            }
            progress(RootProgress {
                done: i + 1,
                total: ordered.len(),
                square: Square(sq),
                best,
                nodes: self.nodes,
            });
        }
        best
    }

    /// A principal line from `pos`, whose exact score is `score` (from a
    /// solve): at each step the first move, hash move first, whose
    /// position has exactly the opposite score, proved by a search with
    /// the window `(score - 1, score + 1)`; passes included, until the game
    /// ends. Keeps the table, so it is cheap right after the solve.
    pub fn principal_line(&mut self, pos: &RelativePosition, score: Score) -> Vec<Move> {
        self.start_polling();
        with_best_kernel!(|k| self.principal_line_in(k, pos, score.0))
    }

    /// [`EndgameSolver::principal_line`] with the kernel `k`.
    fn principal_line_in<K: SolverKernel>(
        &mut self,
        k: K,
        pos: &RelativePosition,
        score: i32,
    ) -> Vec<Move> {
        self.setup(pos.valid);
        let mut line = Vec::new();
        let (mut p, mut o, mut score) = (pos.player, pos.opponent, score);
        loop {
            let moves = k.moves(p, o, self.valid);
            if moves == 0 {
                if k.moves(o, p, self.valid) == 0 {
                    return line;
                }
                line.push(Move::Pass);
                (p, o, score) = (o, p, -score);
                continue;
            }
            let n = (self.valid & !(p | o)).count_ones();
            let hash = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
            let mut list = MoveList::new();
            k.order(self, p, o, moves, hash, &mut list);
            let mut found = None;
            for i in 0..list.len {
                let (sq, f) = list.pick(i);
                let (np, no) = after(p, o, sq, f);
                if -self.search(k, np, no, -score - 1, -score + 1, n - 1) == score {
                    found = Some((sq, np, no));
                    break;
                }
            }
            let Some((sq, np, no)) = found else {
                return line; // `score` was not the exact score
            };
            line.push(Move::Place(Square(sq)));
            (p, o, score) = (np, no, -score);
        }
    }
}

/// Whether `pos` is the start position of its board (black to move).
fn is_start(pos: &RelativePosition) -> bool {
    [4, 6, 8]
        .into_iter()
        .any(|n| RelativePosition::start(n) == *pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bits::Portable;
    use crate::engine::position::parse_obf_file;
    use crate::engine::solve::Scoring;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// FFO #1-#10, the 4x4 start and five random 6x6 positions 18 to 22
    /// plies from the start.
    fn positions() -> Vec<RelativePosition> {
        let text = include_str!("../../../tests/data/ffo/fforum-1-19.obf");
        let mut all: Vec<RelativePosition> = parse_obf_file(text)
            .unwrap()
            .into_iter()
            .take(10)
            .map(|p| p.position)
            .collect();
        all.push(RelativePosition::start(4));
        let mut rng = crate::rng::Rng::new(0x0606_0606);
        for plies in [18, 19, 20, 21, 22] {
            let p = crate::reversi::random_position(6, plies, &mut rng);
            all.push(RelativePosition::from_board(&p.board, p.to_move));
        }
        all
    }

    /// Each position's solution and principal line with the kernel `k`.
    fn solve_all<K: SolverKernel>(k: K) -> Vec<(Solution, Vec<Move>)> {
        let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 16);
        positions()
            .iter()
            .map(|pos| {
                solver.clear();
                let s = solver.solve_window_in(k, pos, (-INF, INF), 1, &mut |_| {});
                (s, solver.principal_line_in(k, pos, s.score.0))
            })
            .collect()
    }

    /// A solver with a stop flag that is never set visits exactly the
    /// nodes of one without, and finds the same moves and scores.
    #[test]
    fn an_unset_stop_flag_changes_no_node_count() {
        let mut plain = EndgameSolver::with_table_bits(Scoring::Standard, 16);
        let mut flagged = EndgameSolver::with_table_bits(Scoring::Standard, 16);
        flagged.set_stop(Some(Arc::new(AtomicBool::new(false))));
        for pos in positions() {
            let a = plain.solve(&pos);
            let b = flagged.solve(&pos);
            assert_eq!(a, b, "{pos:?}");
            assert!(!flagged.was_stopped());
        }
    }

    /// The 6x6 start (32 empties) takes minutes to solve: a flag set
    /// 100 ms in stops it, on one thread and on two, within a second.
    #[test]
    fn a_stop_flag_set_during_a_long_solve_ends_it_promptly() {
        for threads in [1, 2] {
            let stop = Arc::new(AtomicBool::new(false));
            let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 16);
            solver.set_stop(Some(Arc::clone(&stop)));
            let setter = {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(100));
                    stop.store(true, Ordering::Relaxed);
                    Instant::now()
                })
            };
            let s = solver.solve_parallel(&RelativePosition::start(6), threads, &mut |_| {});
            let ended = Instant::now();
            let set = setter.join().unwrap();
            assert!(solver.was_stopped(), "{threads} threads: {s:?}");
            assert!(
                ended.duration_since(set) < Duration::from_secs(1),
                "{threads} threads: {:?} after the flag",
                ended.duration_since(set)
            );
        }
    }

    /// A solve started with the flag set returns at once; once the flag
    /// is cleared the same solver solves again, and a solve stopped half
    /// way leaves no wrong bound in the table (a window search that keeps
    /// the table still finds the published score).
    #[test]
    fn a_stopped_solve_leaves_the_solver_sound() {
        let stop = Arc::new(AtomicBool::new(true));
        let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 16);
        solver.set_stop(Some(Arc::clone(&stop)));
        let start = Instant::now();
        solver.solve_parallel(&RelativePosition::start(6), 2, &mut |_| {});
        assert!(solver.was_stopped());
        assert!(start.elapsed() < Duration::from_secs(1));
        let mut fresh = EndgameSolver::with_table_bits(Scoring::Standard, 16);
        for pos in positions() {
            // Stopped after its first root move (a deterministic point).
            stop.store(false, Ordering::Relaxed);
            solver.solve_with(&pos, |_| stop.store(true, Ordering::Relaxed));
            stop.store(false, Ordering::Relaxed);
            let again = solver.solve_window(&pos, -INF, INF, 1, &mut |_| {});
            assert!(!solver.was_stopped());
            assert_eq!(again.score, fresh.solve(&pos).score, "{pos:?}");
        }
    }

    #[test]
    fn every_kernel_this_cpu_runs_solves_alike_node_for_node() {
        let portable = solve_all(Portable);
        assert_eq!(portable.len(), 16);
        assert_eq!(portable[0].0.score, Score(18)); // FFO #1
        #[cfg(target_arch = "x86_64")]
        {
            use crate::board::bits::{Avx2, Avx512};
            if let Some(k) = Avx2::detect() {
                assert_eq!(solve_all(k), portable, "AVX2");
            }
            if let Some(k) = Avx512::detect() {
                assert_eq!(solve_all(k), portable, "AVX-512");
            }
        }
    }
}
