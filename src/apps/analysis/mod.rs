//! Move values for the protocols, hints and game analysis: the best moves
//! of a position with their values in discs, exact where the endgame
//! solver can finish, and the analysis of every move of a game.
//!
//! The search is behind the [`MoveSearch`] trait, so a stronger midgame
//! search can replace [`StandardSearch`] without touching the protocols.
//! [`StandardSearch`] deepens the ordered iterative search of
//! [`crate::engine::iterative`] with the `strong` evaluation until the
//! depth, the time budget or a stop flag ends it, then, close enough to
//! the end, proves the values with [`crate::engine::EndgameSolver`]: exact
//! scores with at most [`Budget::exact_empties`] empty squares, the
//! win/loss/draw outcome with at most [`Budget::wld_empties`].
//! [`LevelSearch`] ranks the moves by the engine's midgame search at a
//! strength level instead, far enough from the end.

use crate::board::Color;
use crate::engine::iterative::{IterativeSearch, MoveOrder, SearchMemory};
use crate::engine::{EndgameSolver, RelativePosition, Scoring};
use crate::eval::Heuristic;
use crate::game::Game;
use crate::record::GameRecord;
use crate::reversi::{Move, Position, Reversi};
use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

mod level;
pub use level::LevelSearch;

/// How far a value is to be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// An estimate of a search this many plies deep.
    Estimate {
        /// Plies searched.
        depth: u32,
    },
    /// The sign is proven (win, loss or draw with perfect play); the value
    /// is +1, 0 or -1.
    WinLossDraw,
    /// The exact final disc difference with perfect play.
    Exact,
}

/// One move with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The move (a forced pass is a move).
    pub mv: Move,
    /// Its value in discs for the side to move (final disc difference,
    /// empty squares to the winner, when exact).
    pub value: f64,
    /// How sure the value is.
    pub certainty: Certainty,
    /// The expected line, starting with `mv`.
    pub line: Vec<Move>,
}

/// What a search may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// The midgame depth bound in plies (`None`: the time decides).
    pub depth: Option<u32>,
    /// The time for the midgame search.
    pub time: Duration,
    /// Solve exactly with at most this many empty squares.
    pub exact_empties: u32,
    /// Prove win/loss/draw with at most this many empty squares.
    pub wld_empties: u32,
    /// Threads of the endgame solver.
    pub threads: usize,
    /// What a proven draw is worth to black, in discs (NBoard's contempt;
    /// white's draws are worth the opposite). 0: a draw is a draw.
    pub contempt: f64,
}

/// Empty squares up to which a hint's values are exact by default. Measured
/// on the FFO positions #20-#39 (17-22 empties) on one thread: a solve
/// takes 0.07-0.3 s at 18-19 empties and 0.15-1.4 s at 20; a hint solves
/// every move.
pub const DEFAULT_EXACT_EMPTIES: u32 = 18;

/// Empty squares up to which win/loss/draw is proven by default (two more:
/// a null-window search around 0 is several times cheaper than a full one).
pub const DEFAULT_WLD_EMPTIES: u32 = 20;

impl Default for Budget {
    fn default() -> Self {
        Budget {
            depth: None,
            time: Duration::from_secs(2),
            exact_empties: DEFAULT_EXACT_EMPTIES,
            wld_empties: DEFAULT_WLD_EMPTIES,
            threads: 1,
            contempt: 0.0,
        }
    }
}

/// A search that ranks the moves of a position.
pub trait MoveSearch: Send {
    /// The best `count` moves of `position` (all of them if fewer), best
    /// first, ties in reading order; a forced pass is the one move; empty
    /// when the game is over. Each value is the move's own (not a bound).
    /// Calls `progress` with the ranking so far whenever a deeper one is
    /// known. Ends early, returning what it has, once `stop` is set.
    fn rank_moves(
        &mut self,
        position: &Position,
        count: usize,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue>;

    /// Positions visited by the last [`MoveSearch::rank_moves`].
    fn nodes(&self) -> u64;

    /// Forgets what earlier searches learned (a new game).
    fn clear(&mut self);
}

/// A boxed search is a search (for choosing one at run time).
impl<S: MoveSearch + ?Sized> MoveSearch for Box<S> {
    fn rank_moves(
        &mut self,
        position: &Position,
        count: usize,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        (**self).rank_moves(position, count, budget, stop, progress)
    }

    fn nodes(&self) -> u64 {
        (**self).nodes()
    }

    fn clear(&mut self) {
        (**self).clear();
    }
}

/// Points of the `strong` evaluation per disc, to read its values as discs.
/// Measured by `cargo run --release --example eval_scale`: on 120
/// positions with 20-22 empties, a depth-4 search against the exact score,
/// least squares gives 7.2 points per disc with a mean absolute error of
/// 11.6 discs; 8 (one move of mobility) errs by 11.8, 6 by 12.1, 4 by 20.7.
pub const EVAL_PER_DISC: f64 = 8.0;

/// The iterative search with the `strong` evaluation, then the exact
/// solver near the end (see the module documentation).
pub struct StandardSearch {
    memory: SearchMemory,
    solver: Option<EndgameSolver>,
    nodes: u64,
}

impl Default for StandardSearch {
    fn default() -> Self {
        StandardSearch::new()
    }
}

impl StandardSearch {
    /// A search with empty memory; the solver's table (24 MiB) is made
    /// when first needed.
    #[must_use]
    pub fn new() -> StandardSearch {
        StandardSearch {
            memory: SearchMemory::default(),
            solver: None,
            nodes: 0,
        }
    }

    fn solver(&mut self) -> &mut EndgameSolver {
        self.solver
            .get_or_insert_with(|| EndgameSolver::with_table_bits(Scoring::Standard, 20))
    }
}

/// The legal moves of `p` and the positions after them (a forced pass is
/// the one move; none when the game is over).
fn children(p: &Position) -> Vec<(Move, Position)> {
    let game = Reversi::DISC_DIFFERENCE;
    game.moves(p).map(|m| (m, game.play(p, m))).collect()
}

/// Best first; equal values in the order of the moves (reading order, the
/// pass last).
fn rank(values: &mut [MoveValue]) {
    let key = |m: &MoveValue| match m.mv {
        Move::Place(sq) => u32::from(sq.0),
        Move::Pass => 64,
    };
    values.sort_by(|a, b| {
        b.value
            .partial_cmp(&a.value)
            .unwrap_or(Ordering::Equal)
            .then(key(a).cmp(&key(b)))
    });
}

/// The mover's value in discs of a value from black's point of view.
fn discs_for(p: &Position, black_value: i32) -> f64 {
    let v = f64::from(black_value) / EVAL_PER_DISC;
    match p.to_move {
        Color::Black => v,
        Color::White => -v,
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
        budget: &Budget,
        exact: bool,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        let start = Instant::now();
        // A budget beyond any clock (a library caller's) is a year.
        let deadline = start
            .checked_add(budget.time)
            .unwrap_or_else(|| start + Duration::from_secs(365 * 86_400));
        let stopped = || stop.load(AtomicOrdering::Relaxed) || Instant::now() >= deadline;
        let empties = position.board.empty().count_ones();
        let max_depth = if exact {
            Some(budget.depth.unwrap_or(4).min(4))
        } else {
            budget.depth
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
        let engine = IterativeSearch {
            order: MoveOrder::Best,
            prune: true,
            eval: Heuristic::Strong,
        };
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
            let value = MoveValue {
                mv,
                value: discs_for(position, f.value),
                certainty: Certainty::Estimate { depth: f.depth },
                line: vec![mv],
            };
            return Round::Done(vec![value], f.depth < depth);
        }
        let mut values = Vec::with_capacity(kids.len());
        let mut complete = true;
        for (mv, child) in kids {
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
            complete &= f.depth + 1 < depth;
            values.push(MoveValue {
                mv: *mv,
                value: discs_for(position, f.value),
                certainty: Certainty::Estimate { depth: f.depth + 1 },
                line: vec![*mv],
            });
        }
        rank(&mut values);
        values.truncate(count);
        Round::Done(values, complete)
    }

    /// The solver's values of the moves (exact, or win/loss/draw), tried
    /// in the estimate's order, contempt applied; `None` if stopped.
    fn prove(
        &mut self,
        position: &Position,
        kids: &[(Move, Position)],
        estimate: &[MoveValue],
        count: usize,
        budget: &Budget,
        stop: &AtomicBool,
    ) -> Option<Vec<MoveValue>> {
        let order: Vec<Move> = estimate.iter().map(|m| m.mv).collect();
        let draw = match position.to_move {
            Color::Black => budget.contempt,
            Color::White => -budget.contempt,
        };
        // With a draw worth something, every move's value is needed to
        // rank them.
        let wanted = if draw == 0.0 { count } else { kids.len() };
        let empties = position.board.empty().count_ones();
        let mut proven = if empties <= budget.exact_empties {
            self.solve_moves(kids, &order, wanted, budget.threads, stop)
        } else {
            self.prove_moves(kids, &order, wanted, budget.threads, stop)
        }?;
        if draw != 0.0 {
            for v in proven.iter_mut().filter(|v| v.value == 0.0) {
                v.value = draw;
            }
            rank(&mut proven);
            proven.truncate(count);
        }
        Some(proven)
    }
}

impl MoveSearch for StandardSearch {
    fn rank_moves(
        &mut self,
        position: &Position,
        count: usize,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        self.nodes = 0;
        let kids = children(position);
        if kids.is_empty() {
            return Vec::new();
        }
        let count = count.clamp(1, kids.len());
        let empties = position.board.empty().count_ones();
        // Near the end the midgame search only orders the moves for the
        // solver: a short one.
        let exact = empties <= budget.wld_empties;
        let mut best = self.estimate(position, &kids, count, budget, exact, stop, progress);
        if exact && !stop.load(AtomicOrdering::Relaxed) {
            if let Some(proven) = self.prove(position, &kids, &best, count, budget, stop) {
                best = proven;
                progress(&best);
            }
        }
        best
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn clear(&mut self) {
        self.memory = SearchMemory::default();
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
            let rel = RelativePosition::from_board(&child.board, child.to_move);
            let b = best.map(|b| b.0);
            let solver = self.solver();
            let mut nodes = 0;
            if let (1, Some(b)) = (count, b) {
                // Better than the best so far? The child's score must be
                // below -b: a null window at -b answers.
                solver.clear();
                let s = solver.solve_window(&rel, -b - 1, -b, threads, &mut |_| {});
                nodes += s.nodes;
                if s.score >= -b {
                    self.nodes += nodes;
                    continue;
                }
            }
            let s = solver.solve_parallel(&rel, threads, &mut |_| {});
            nodes += s.nodes;
            let score = -s.score;
            let mut line = vec![*mv];
            line.extend(solver.principal_line(&rel, s.score));
            self.nodes += nodes;
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, i));
            }
            values.push(MoveValue {
                mv: *mv,
                value: f64::from(score),
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
            let rel = RelativePosition::from_board(&child.board, child.to_move);
            let solver = self.solver();
            solver.clear();
            let s = solver.solve_window(&rel, -1, 1, threads, &mut |_| {});
            self.nodes += s.nodes;
            let sign = -s.score.signum();
            values.push(MoveValue {
                mv,
                value: f64::from(sign),
                certainty: Certainty::WinLossDraw,
                line: vec![mv],
            });
            if count == 1 && sign > 0 {
                break;
            }
        }
        rank(&mut values);
        values.truncate(count);
        Some(values)
    }
}

/// One move of an analysed game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// 0-based index of the move in the game.
    pub index: usize,
    /// The position before it.
    pub position: Position,
    /// The move played.
    pub played: Move,
    /// The value of the move played (mover's view, discs).
    pub played_value: f64,
    /// The best move and its value.
    pub best: MoveValue,
    /// How many discs the move played loses against the best (0 or more).
    pub loss: f64,
    /// Whether both values are exact.
    pub exact: bool,
}

/// The analysis of a whole game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// One entry per move (forced passes included).
    pub moves: Vec<MoveAnalysis>,
    /// Total discs lost by black's and by white's moves.
    pub total_loss: [f64; 2],
    /// The final score (black minus white, empties to the winner) if the
    /// game is over.
    pub final_score: Option<i32>,
}

/// Analyses every move of `game`: the value of the move played, the best
/// move and its value, and the loss. The positions are searched from the
/// last to the first, each with `budget`. `on_move` is called after each.
/// Stops early (returning the moves done) once `stop` is set.
pub fn analyze_game(
    search: &mut dyn MoveSearch,
    game: &GameRecord,
    budget: &Budget,
    stop: &AtomicBool,
    on_move: &mut dyn FnMut(&MoveAnalysis),
) -> GameAnalysis {
    let positions = game.positions();
    let mut out = Vec::new();
    for (index, m) in game.moves.iter().enumerate().rev() {
        if stop.load(AtomicOrdering::Relaxed) {
            break;
        }
        let p = positions[index];
        let values = search.rank_moves(&p, usize::MAX, budget, stop, &mut |_| {});
        let Some(best) = values.first().cloned() else {
            continue;
        };
        let played = values.iter().find(|v| v.mv == m.mv);
        let played_value = played.map_or(best.value, |v| v.value);
        let exact = best.certainty == Certainty::Exact
            && played.is_some_and(|v| v.certainty == Certainty::Exact);
        let a = MoveAnalysis {
            index,
            position: p,
            played: m.mv,
            played_value,
            loss: (best.value - played_value).max(0.0),
            best,
            exact,
        };
        on_move(&a);
        out.push(a);
    }
    out.reverse();
    let mut total_loss = [0.0, 0.0];
    for a in &out {
        let side = usize::from(a.position.to_move != crate::board::Color::Black);
        total_loss[side] += a.loss;
    }
    GameAnalysis {
        moves: out,
        total_loss,
        final_score: game.final_score(),
    }
}

/// The value of a position for the side to move: its best move's value,
/// or the final score when the game is over (standard scoring).
pub fn position_value(
    search: &mut dyn MoveSearch,
    p: &Position,
    budget: &Budget,
    stop: &AtomicBool,
) -> (f64, Certainty) {
    if p.board.is_game_over() {
        let s = crate::record::standard_score(&p.board);
        let s = if p.to_move == crate::board::Color::Black {
            s
        } else {
            -s
        };
        return (f64::from(s), Certainty::Exact);
    }
    let v = search.rank_moves(p, 1, budget, stop, &mut |_| {});
    v.first()
        .map_or((0.0, Certainty::Estimate { depth: 0 }), |m| {
            (m.value, m.certainty)
        })
}

#[cfg(test)]
mod tests;
