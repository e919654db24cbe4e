//! The analysis without a level: the ordered iterative search estimates
//! the moves, deepening until the depth, the time or the stop flag; near
//! the end the endgame solver proves their values, exact or win/loss/draw
//! (see the parent module).

use super::{children, final_value, rank, smallest_win, Certainty, Limits, MoveValue};
use crate::engine::iterative::{IterativeSearch, SearchMemory};
use crate::engine::{EndgameSolver, RelativePosition, Scoring};
use crate::eval::pattern::PatternWeights;
use crate::eval::{Discs, Evaluation};
use crate::game::{Evaluator, Value};
use crate::reversi::Reversi;
use crate::reversi::{Move, Position};
use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Points of the `strong` evaluation per disc, to read its values as discs.
/// Measured by `cargo run --release --example eval_scale`: on 120
/// positions with 20-22 empties, a depth-4 search against the exact score,
/// least squares gives 7.2 points per disc with a mean absolute error of
/// 11.6 discs; 8 (one move of mobility) errs by 11.8, 6 by 12.1, 4 by 20.7.
pub(super) const EVAL_PER_DISC: f64 = 8.0;

/// The evaluation of the analysis's iterative search: the study's
/// evaluation at the horizon, and a finished game counted in its points
/// too, as its final score (standard scoring) times [`EVAL_PER_DISC`], so
/// that a line ending the game compares with the estimates (the study's
/// searches count its disc difference, which a wipeout's 13 discs made
/// 1.6 discs of points).
#[derive(Clone, Debug)]
struct AnalysisEval(Evaluation);

impl Evaluator<Reversi> for AnalysisEval {
    fn evaluate(&self, game: &Reversi, state: &Position) -> Value {
        self.0.evaluate(game, state)
    }

    fn finished(&self, _game: &Reversi, state: &Position) -> Value {
        // Black's view, as the iterative search's values are.
        crate::record::standard_score(&state.board) * EVAL_PER_DISC as Value
    }
}

/// How often the watcher of a proof reads the caller's stop flag and the
/// clock (see [`StandardSearch::stoppable`]).
const WATCH_EVERY: Duration = Duration::from_millis(10);

/// The iterative search, then the exact solver near the end (see the
/// module documentation).
pub(super) struct StandardSearch {
    engine: IterativeSearch<AnalysisEval>,
    memory: SearchMemory,
    solver: Option<EndgameSolver>,
    /// The solver's stop flag, set by the watcher of a proof when the
    /// caller's flag is set or the time is up.
    solver_stop: Arc<AtomicBool>,
    nodes: u64,
}

impl StandardSearch {
    /// A search with `engine`'s settings and empty memory; the solver's
    /// table (24 MiB) is made when first needed.
    pub(super) fn new(engine: IterativeSearch<Evaluation>) -> StandardSearch {
        StandardSearch {
            engine: IterativeSearch {
                order: engine.order,
                prune: engine.prune,
                eval: AnalysisEval(engine.eval),
            },
            memory: SearchMemory::default(),
            solver: None,
            solver_stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
        }
    }

    /// Evaluates (`pattern`) and orders the solver's moves with `weights`.
    pub(super) fn set_weights(&mut self, weights: Arc<PatternWeights>) {
        if let Some(solver) = &mut self.solver {
            solver.set_weights(Arc::clone(&weights));
        }
        self.engine.eval.0.weights = weights;
        self.memory = SearchMemory::default();
    }

    fn solver(&mut self) -> &mut EndgameSolver {
        let stop = &self.solver_stop;
        let weights = &self.engine.eval.0.weights;
        self.solver.get_or_insert_with(|| {
            let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 20);
            solver.set_stop(Some(Arc::clone(stop)));
            solver.set_weights(Arc::clone(weights));
            solver
        })
    }

    /// Runs `run` (the proofs) with the solver stopped once `stop` is set
    /// or `deadline` passes: a watcher thread reads both every
    /// [`WATCH_EVERY`] and sets the solver's own flag (which the solver's
    /// threads share; `stop` is only borrowed).
    fn stoppable<R>(
        &mut self,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        run: impl FnOnce(&mut Self) -> R,
    ) -> R {
        /// Tells the watcher to end (also if `run` panics, so that the
        /// scope can end).
        struct Finish<'a>(&'a AtomicBool, &'a std::thread::Thread);
        impl Drop for Finish<'_> {
            fn drop(&mut self) {
                self.0.store(true, AtomicOrdering::Relaxed);
                self.1.unpark();
            }
        }
        let flag = Arc::clone(&self.solver_stop);
        flag.store(false, AtomicOrdering::Relaxed);
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let watcher = scope.spawn(|| {
                while !done.load(AtomicOrdering::Relaxed) {
                    let late = deadline.is_some_and(|d| Instant::now() >= d);
                    if late || stop.load(AtomicOrdering::Relaxed) {
                        flag.store(true, AtomicOrdering::Relaxed);
                        return;
                    }
                    std::thread::park_timeout(WATCH_EVERY);
                }
            });
            let _finish = Finish(&done, watcher.thread());
            run(self)
        })
    }
}

/// Best first, moves of equal value in the order they are in (the
/// estimate's, best first): where a proof of win/loss/draw ties moves, the
/// best estimated of them comes first, not the first in reading order.
fn rank_outcomes(values: &mut [MoveValue]) {
    values.sort_by(|a, b| b.value.partial_cmp(&a.value).unwrap_or(Ordering::Equal));
}

/// The mover's value of a value of the iterative search (black's view,
/// in the evaluation's points), held within the board's squares: an
/// evaluation's estimate can go beyond them, no game's end can.
fn discs_for(p: &Position, black_value: i32) -> Discs {
    let squares = f64::from(p.board.size()).powi(2);
    let v = Discs::from_black_points(black_value, EVAL_PER_DISC, p.to_move);
    Discs(v.0.clamp(-squares, squares))
}

/// What a value of the iterative search is: an estimate `depth` plies
/// deep, or exact where every line of the search reached the end of the
/// game (`ended`: it stopped before its depth), its finished games
/// counted at their final scores ([`AnalysisEval`]).
fn searched(depth: u32, ended: bool) -> Certainty {
    if ended {
        Certainty::Exact
    } else {
        Certainty::Estimate { depth }
    }
}

/// The value of a move that ends the game: its final score `v`, exact.
fn exact_end(mv: Move, v: Discs) -> MoveValue {
    MoveValue {
        mv,
        value: v,
        certainty: Certainty::Exact,
        line: vec![mv],
    }
}

/// Gives each proof of win/loss/draw in `proven` the value of its move's
/// estimate in `estimate` where that agrees with the proved outcome, else
/// the nearest value that does (a draw is 0, a win at least the board's
/// smallest win, a loss at most its opposite; a draw is exact), and the
/// estimate's line:
/// a proof is shown as its outcome with the best estimate that agrees,
/// never as a count of +1/-1 discs.
pub(super) fn agree_with_estimates(proven: &mut [MoveValue], estimate: &[MoveValue], size: u8) {
    let least = smallest_win(size);
    for v in proven
        .iter_mut()
        .filter(|v| v.certainty == Certainty::WinLossDraw)
    {
        let guess = estimate.iter().find(|e| e.mv == v.mv);
        if let Some(g) = guess.filter(|g| g.certainty == Certainty::Exact) {
            // The estimate knew it exactly (the move ends the game).
            v.clone_from(g);
            continue;
        }
        let e = guess.map_or(0.0, |e| e.value.0);
        v.value = Discs(match v.value.0 {
            s if s > 0.0 => e.max(least),
            s if s < 0.0 => e.min(-least),
            // A proved draw is the exact final score 0 (the proof's window
            // (-1, 1) holds no other whole score).
            _ => {
                v.certainty = Certainty::Exact;
                0.0
            }
        });
        if let Some(g) = guess.filter(|g| g.line.len() > v.line.len()) {
            v.line.clone_from(&g.line);
        }
    }
}

/// What one round of the iterative estimate gave.
enum Round {
    /// The values of this depth (the best `count`), and whether the search
    /// reached the end of the game (deeper rounds would change nothing).
    Done(Vec<MoveValue>, bool),
    /// Stopped before finishing: keep the previous round's values.
    Abandoned,
}

impl StandardSearch {
    /// The iterative search's values of the best `count` moves, deepening
    /// until the budget's depth or time, the stop flag, or the end of the
    /// game; `progress` hears each finished round.
    #[allow(clippy::too_many_arguments)]
    fn estimate(
        &mut self,
        position: &Position,
        kids: &[(Move, Position)],
        count: usize,
        limits: &Limits,
        exact: bool,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        let start = Instant::now();
        // No clock (or a time beyond any clock) is a year.
        let deadline = limits
            .deadline(start)
            .unwrap_or_else(|| start + Duration::from_secs(365 * 86_400));
        let stopped = || stop.load(AtomicOrdering::Relaxed) || Instant::now() >= deadline;
        let empties = position.board.empty().count_ones();
        let max_depth = if exact {
            Some(limits.depth.unwrap_or(4).min(4))
        } else {
            limits.depth
        };
        let mut best: Vec<MoveValue> = Vec::new();
        // One search of the root when only the best move counts; else one
        // per move, each a ply shallower (so the first round is depth 2).
        let mut depth = if count == 1 && kids.len() > 1 { 1 } else { 2 };
        loop {
            let complete = match self.round(
                position,
                kids,
                count,
                depth,
                deadline,
                stop,
                !best.is_empty(),
            ) {
                Round::Abandoned => break,
                Round::Done(values, complete) => {
                    best = values;
                    complete
                }
            };
            progress(&best);
            if complete || stopped() || max_depth.is_some_and(|d| depth >= d) || depth >= empties {
                break;
            }
            depth += 1;
        }
        best
    }

    /// One round at `depth`: a search of the root when only the best move
    /// counts, else one search per move. A round stopped by the deadline or
    /// the flag is abandoned when an earlier round's values exist.
    #[allow(clippy::too_many_arguments)]
    fn round(
        &mut self,
        position: &Position,
        kids: &[(Move, Position)],
        count: usize,
        depth: u32,
        deadline: Instant,
        stop: &AtomicBool,
        have_earlier: bool,
    ) -> Round {
        let engine = &self.engine;
        let stopped = || stop.load(AtomicOrdering::Relaxed) || Instant::now() >= deadline;
        if count == 1 && kids.len() > 1 {
            let f = engine.deepen_stoppable(
                position,
                Some(depth),
                Some(deadline),
                Some(stop),
                &mut self.memory,
            );
            self.nodes += f.nodes;
            if f.depth < depth && stopped() && have_earlier {
                return Round::Abandoned;
            }
            let mv = f.best.unwrap_or(kids[0].0);
            let mut value = MoveValue {
                mv,
                value: discs_for(position, f.value),
                certainty: searched(f.depth, f.depth < depth),
                line: vec![mv],
            };
            // A move that ends the game is worth its final score (the
            // search scores a finished game in discs, not in points): the
            // best of those beats an estimate below it.
            let ends = kids
                .iter()
                .filter_map(|(m, c)| Some((*m, final_value(position, c)?)));
            for (m, v) in ends {
                if m == mv || v > value.value {
                    value = exact_end(m, v);
                }
            }
            return Round::Done(vec![value], f.depth < depth);
        }
        let mut values = Vec::with_capacity(kids.len());
        let mut complete = true;
        for (mv, child) in kids {
            if let Some(v) = final_value(position, child) {
                values.push(exact_end(*mv, v));
                continue;
            }
            let f = engine.deepen_stoppable(
                child,
                Some(depth - 1),
                Some(deadline),
                Some(stop),
                &mut self.memory,
            );
            self.nodes += f.nodes;
            if f.depth + 1 < depth && stopped() {
                if have_earlier {
                    return Round::Abandoned;
                }
                break;
            }
            let ended = f.depth + 1 < depth;
            complete &= ended;
            values.push(MoveValue {
                mv: *mv,
                value: discs_for(position, f.value),
                certainty: searched(f.depth + 1, ended),
                line: vec![*mv],
            });
        }
        rank(&mut values);
        values.truncate(count);
        Round::Done(values, complete)
    }

    /// The solver's values of the moves (exact, or win/loss/draw), tried
    /// in the estimate's order, contempt applied; `None` if stopped (by
    /// `stop` or at `deadline`).
    #[allow(clippy::too_many_arguments)]
    fn prove(
        &mut self,
        position: &Position,
        kids: &[(Move, Position)],
        estimate: &[MoveValue],
        count: usize,
        limits: &Limits,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Option<Vec<MoveValue>> {
        let order: Vec<Move> = estimate.iter().map(|m| m.mv).collect();
        let draw = limits.contempt.for_color(position.to_move);
        // With a draw worth something, every move's value is needed to
        // rank them.
        let wanted = if draw == Discs(0.0) {
            count
        } else {
            kids.len()
        };
        let empties = position.board.empty().count_ones();
        let threads = limits.threads;
        let wld = empties > limits.exact_empties;
        let mut proven = self.stoppable(stop, deadline, |s| {
            if wld {
                s.prove_moves(kids, &order, wanted, threads, stop)
            } else {
                s.solve_moves(kids, &order, wanted, threads, stop)
            }
        })?;
        // Win/loss/draw ties the moves of one outcome, and the move to
        // play must not give discs away among them: a won or lost best
        // move is replaced by the exact best (the proven move solved
        // first, the others tested against it), if that finishes in time.
        // A draw ties nothing: no other move draws by more. A list of
        // moves gets the exact best at its head too, the others' agreeing
        // estimates held at or below it (they were tested against it), so
        // that no estimate claims more than the best move's exact score.
        let mut exact_best = None;
        if wld && draw == Discs(0.0) && proven.first().is_some_and(|v| v.value != Discs(0.0)) {
            let mut exact_order = vec![proven[0].mv];
            exact_order.extend(order.iter().filter(|m| **m != proven[0].mv));
            exact_best = self
                .stoppable(stop, deadline, |s| {
                    s.solve_moves(kids, &exact_order, 1, threads, stop)
                })
                .and_then(|exact| exact.into_iter().next());
        }
        if let (1, Some(best)) = (wanted, &exact_best) {
            proven = vec![best.clone()];
        }
        agree_with_estimates(&mut proven, estimate, position.board.size());
        if let Some(best) = exact_best.filter(|_| wanted > 1) {
            for v in &mut proven {
                if v.mv == best.mv {
                    v.clone_from(&best);
                } else if v.value > best.value {
                    v.value = best.value;
                }
            }
            // The exact best first among the moves its value ties.
            proven.sort_by(|a, b| {
                b.value
                    .partial_cmp(&a.value)
                    .unwrap_or(Ordering::Equal)
                    .then((b.mv == best.mv).cmp(&(a.mv == best.mv)))
            });
        }
        if draw != Discs(0.0) {
            // A draw worth something is no exact score.
            for v in proven.iter_mut().filter(|v| v.value == Discs(0.0)) {
                v.value = draw;
                v.certainty = Certainty::WinLossDraw;
            }
            rank_outcomes(&mut proven);
            proven.truncate(count);
        }
        Some(proven)
    }
}

impl StandardSearch {
    /// The ranking of the moves (see the parent module's
    /// [`super::MoveSearch::rank_moves`]).
    pub(super) fn rank_moves(
        &mut self,
        position: &Position,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        self.nodes = 0;
        let deadline = limits.deadline(Instant::now());
        let kids = children(position);
        if kids.is_empty() {
            return Vec::new();
        }
        let count = count.clamp(1, kids.len());
        let empties = position.board.empty().count_ones();
        // Near the end the midgame search only orders the moves for the
        // solver: a short one.
        let exact = empties <= limits.wld_empties;
        // A proof of win/loss/draw ties the moves of one outcome: every
        // move is estimated, so that the proofs run in the estimate's
        // order and the best estimate wins a tie.
        let wld = exact && empties > limits.exact_empties;
        let estimated = if wld { kids.len() } else { count };
        let best = self.estimate(position, &kids, estimated, limits, exact, stop, &mut |v| {
            progress(&v[..v.len().min(count)]);
        });
        if !exact {
            return best;
        }
        self.prove_estimated(position, best, count, limits, deadline, stop, progress)
    }

    /// The values of the best `count` moves of `position` near the end
    /// (with at most [`Limits::wld_empties`] empty squares): proved, in
    /// the order of `estimate` (the estimates of every move where a proof
    /// of win/loss/draw is to tie moves), each win/loss/draw given the
    /// estimate that agrees with it ([`agree_with_estimates`]) and ranked
    /// by it; the estimates themselves if stopped.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prove_estimated(
        &mut self,
        position: &Position,
        estimate: Vec<MoveValue>,
        count: usize,
        limits: &Limits,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        let kids = children(position);
        let count = count.clamp(1, kids.len().max(1));
        let mut best = estimate;
        if !stop.load(AtomicOrdering::Relaxed) {
            if let Some(mut proven) =
                self.prove(position, &kids, &best, count, limits, deadline, stop)
            {
                rank_outcomes(&mut proven);
                best = proven;
                progress(&best);
            }
        }
        best.truncate(count);
        best
    }

    /// Positions visited by the last ranking.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the iterative search's memory.
    pub(super) fn clear(&mut self) {
        self.memory = SearchMemory::default();
    }

    /// Forgets everything earlier searches stored (the iterative search's
    /// memory and the solver's table), so that the next ranking depends on
    /// its position and limits alone.
    pub(super) fn forget(&mut self) {
        self.clear();
        if let Some(solver) = self.solver.as_mut() {
            solver.clear();
        }
    }
}

impl StandardSearch {
    /// Exact values: of every move when `count > 1`; otherwise of the best
    /// move, found by a full solve of the first move (in the midgame
    /// order) and null-window tests of the others. `None` if stopped.
    fn solve_moves(
        &mut self,
        kids: &[(Move, Position)],
        order: &[Move],
        count: usize,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<Vec<MoveValue>> {
        let mut ordered: Vec<&(Move, Position)> = Vec::with_capacity(kids.len());
        for m in order {
            ordered.extend(kids.iter().filter(|k| k.0 == *m));
        }
        ordered.extend(kids.iter().filter(|k| !order.contains(&k.0)));
        let mut values = Vec::new();
        let mut best: Option<(i32, usize)> = None;
        for (i, (mv, child)) in ordered.iter().enumerate() {
            if stop.load(AtomicOrdering::Relaxed) {
                return None;
            }
            let rel = RelativePosition::from(child);
            let b = best.map(|b| b.0);
            let solver = self.solver();
            let mut nodes = 0;
            if let (1, Some(b)) = (count, b) {
                // Better than the best so far? The child's score must be
                // below -b: a null window at -b answers.
                solver.clear();
                let s = solver.solve_window(&rel, -b - 1, -b, threads, &mut |_| {});
                nodes += s.nodes;
                if solver.was_stopped() {
                    self.nodes += nodes;
                    return None;
                }
                if s.score.0 >= -b {
                    self.nodes += nodes;
                    continue;
                }
            }
            let s = solver.solve_parallel(&rel, threads, &mut |_| {});
            nodes += s.nodes;
            let score = -s.score.0;
            let mut line = vec![*mv];
            let stopped = solver.was_stopped();
            if !stopped {
                line.extend(solver.principal_line(&rel, s.score));
            }
            let stopped = stopped || solver.was_stopped();
            self.nodes += nodes;
            if stopped {
                return None;
            }
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, i));
            }
            values.push(MoveValue {
                mv: *mv,
                value: Discs(f64::from(score)),
                certainty: Certainty::Exact,
                line,
            });
        }
        rank(&mut values);
        values.truncate(count);
        Some(values)
    }

    /// Win/loss/draw of the moves in the midgame order: each move's sign by
    /// one search with the window (-1, 1); with `count == 1`, the first
    /// winning move ends the search. `None` if stopped.
    fn prove_moves(
        &mut self,
        kids: &[(Move, Position)],
        order: &[Move],
        count: usize,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<Vec<MoveValue>> {
        let mut values = Vec::new();
        let mut ordered: Vec<Move> = order.to_vec();
        ordered.extend(kids.iter().map(|k| k.0).filter(|m| !order.contains(m)));
        for mv in ordered {
            if stop.load(AtomicOrdering::Relaxed) {
                return None;
            }
            let child = kids.iter().find(|k| k.0 == mv).map(|k| k.1)?;
            let rel = RelativePosition::from(&child);
            let solver = self.solver();
            solver.clear();
            let s = solver.solve_window(&rel, -1, 1, threads, &mut |_| {});
            let stopped = solver.was_stopped();
            self.nodes += s.nodes;
            if stopped {
                return None;
            }
            let sign = -s.score.0.signum();
            values.push(MoveValue {
                mv,
                value: Discs(f64::from(sign)),
                certainty: Certainty::WinLossDraw,
                line: vec![mv],
            });
            if count == 1 && sign > 0 {
                break;
            }
        }
        rank_outcomes(&mut values);
        values.truncate(count);
        Some(values)
    }
}
