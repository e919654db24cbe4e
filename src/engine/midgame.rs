//! The playing engine's search for 8x8 Othello: principal-variation search
//! with iterative deepening, a transposition table, move ordering by the
//! pattern evaluation, a time budget and a stop flag, and the exact
//! endgame solver once few squares are empty. Strength is chosen by a
//! [`Level`].
//!
//! Values are for the side to move in 1/[`SCALE`] disc: the pattern
//! evaluation at the depth bound, the exact final disc difference (times
//! `SCALE`, empty squares to the winner) at the end of the game.

use super::position::RelativePosition;
use super::probcut::{shallow_depth, ProbCutTable};
use super::score::{self, bounds};
use super::solve::{EndgameSolver, Scoring};
use super::tt::{Table, EXACT};
use crate::board::bits::{after, kernel_entries, moves_scalar, with_best_kernel, Bits};
use crate::board::Square;
use crate::eval::pattern::{self, GatherKernel, Indices, PatternWeights, SCALE};
use crate::eval::{Eval, Score};
use crate::reversi::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How strongly the engine plays: midgame depth and from how many empty
/// squares on it solves exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Plies of the midgame search.
    pub depth: u32,
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_empties: u32,
    /// Multi-ProbCut: cut a node when a shallow search predicts the deep
    /// value outside the window with this many standard deviations to
    /// spare (`None`: no cuts, every line searched to the full depth).
    pub selectivity: Option<f64>,
}

impl Level {
    /// The strongest level [`Level::new`] accepts.
    pub const MAX: u32 = 30;

    /// The level played when level `n` is asked for: `n` held within 1 to
    /// [`Level::MAX`].
    #[must_use]
    pub fn played(n: u32) -> u32 {
        n.clamp(1, Level::MAX)
    }

    /// Whether the levels play on a board of `size` (8x8 only: the pattern
    /// evaluation knows 8x8 positions alone).
    #[must_use]
    pub const fn plays_on(size: u8) -> bool {
        size == 8
    }

    /// Level `n` (held within 1 to [`Level::MAX`]: [`Level::played`]): `n` plies of midgame search and
    /// exact solving from `n + 8` empty squares (at most 24), in the spirit
    /// of Edax's levels; Multi-ProbCut at 1.5 standard deviations (about
    /// 93% of its cuts agree with the full search) from level 5 on.
    #[must_use]
    pub fn new(n: u32) -> Level {
        let n = Level::played(n);
        Level {
            depth: n,
            exact_empties: (n + 8).min(24),
            selectivity: (n >= 5).then_some(1.5),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MidgameResult {
    /// The best move (`None` when the game is over).
    pub best: Option<Move>,
    /// Its value for the side to move.
    pub value: Eval,
    /// The depth of the last finished iteration (the empty squares when
    /// exact).
    pub depth: u32,
    /// Whether `value` is the exact final score.
    pub exact: bool,
    /// Positions visited.
    pub nodes: u64,
}

const NO_MOVE: u8 = 64;
/// The largest value a position can have: a whole board of discs. The
/// pattern evaluation is a sum of weights that can go beyond it on a
/// lopsided position; its estimates are held within it, so that no value
/// the search reports is one no game can end with.
const MAX_VALUE: i32 = 64 * SCALE;
const INF: i32 = 1 << 20;
/// The first iteration depth whose search spreads over most of the
/// table's pages: before it, the table's pages are mapped by one write
/// each ([`Table::touch`]), where the search would fault twice on most
/// (a read maps the zero page, the first write copies it). A hint at level
/// 14 after ply 30: 13.4 k page faults and 43 ms CPU without it, 7.3 k
/// and 35 ms with it; mapping all 6 k pages costs 6 ms, more than a whole
/// search at level 1 to 6 (`perf stat`), hence not before this depth.
/// A search whose level reaches this depth also asks for the table's
/// pages to be huge ones ([`Table::advise_huge_pages`]) before it starts.
const TOUCH_DEPTH: u32 = 7;

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 4096;

/// The midgame searcher: keep one per game so its table helps later moves.
pub struct MidgameSearch {
    table: Table,
    probcut: &'static ProbCutTable,
    selectivity: Option<f64>,
    solver: EndgameSolver,
    weights: Arc<PatternWeights>,
    /// Whether the table's pages have been mapped ([`TOUCH_DEPTH`]).
    touched: bool,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl std::fmt::Debug for MidgameSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MidgameSearch")
    }
}

impl Default for MidgameSearch {
    fn default() -> MidgameSearch {
        MidgameSearch::new(Arc::clone(PatternWeights::shared_embedded()))
    }
}

impl MidgameSearch {
    /// A searcher evaluating with `weights` (its endgame solver orders
    /// its moves with them too), with a table of 2^20 slots.
    #[must_use]
    pub fn new(weights: Arc<PatternWeights>) -> MidgameSearch {
        MidgameSearch::with_table_bits(weights, 20, 22)
    }

    /// A searcher evaluating with `weights`, with a table of `2^bits`
    /// slots and a solver (for the levels' exact solves) with a table of
    /// `2^solver_bits`.
    #[must_use]
    pub fn with_table_bits(
        weights: Arc<PatternWeights>,
        bits: u32,
        solver_bits: u32,
    ) -> MidgameSearch {
        let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, solver_bits);
        solver.set_weights(Arc::clone(&weights));
        MidgameSearch {
            table: Table::new(bits),
            touched: false,
            probcut: ProbCutTable::embedded(),
            selectivity: None,
            solver,
            weights,
            nodes: 0,
            deadline: None,
            stopped: false,
        }
    }

    /// Searches the 8x8 position `pos` at `level`, stopping at `deadline`
    /// or when `stop` is set (the deepest finished iteration answers; the
    /// first iteration always finishes). An exact solve stops at the
    /// deadline too, and the midgame search answers instead.
    ///
    /// # Panics
    /// If `pos` is not an 8x8 position.
    pub fn search(
        &mut self,
        pos: &RelativePosition,
        level: Level,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> MidgameResult {
        assert_eq!(pos.valid, u64::MAX, "the midgame search plays 8x8 only");
        self.nodes = 0;
        let empties = pos.empties().count_ones();
        if pos.moves() == 0 && pos.pass().moves() == 0 {
            return MidgameResult {
                best: None,
                value: Score(final_score(pos.player, pos.opponent)).eval(),
                depth: 0,
                exact: true,
                nodes: 1,
            };
        }
        // The exact solve keeps to the deadline too; one that runs out of
        // time leaves the answer to the midgame search below (whose first
        // iteration always finishes).
        let mut solve_nodes = 0;
        if empties <= level.exact_empties {
            self.solver.set_deadline(deadline);
            let s = self.solver.solve(pos);
            self.solver.set_deadline(None);
            if !self.solver.was_stopped() {
                return MidgameResult {
                    best: s.best,
                    value: s.score.eval(),
                    depth: empties,
                    exact: true,
                    nodes: s.nodes,
                };
            }
            solve_nodes = s.nodes;
        }
        self.prepare_for(level);
        self.stopped = false;
        self.selectivity = level.selectivity;
        let mut verdict = MidgameResult {
            best: None,
            value: Eval(0),
            depth: 0,
            exact: false,
            nodes: 0,
        };
        for depth in 1..=level.depth.max(1) {
            self.deadline = if depth > 1 { deadline } else { None };
            if depth > 1 {
                // Read the clock and the flag before starting an iteration.
                if self.must_stop(stop) {
                    break;
                }
            }
            let (value, best) = self.root(pos, depth, stop);
            if self.stopped {
                break;
            }
            verdict.best = Some(best);
            verdict.value = Eval(value);
            verdict.depth = depth;
            if depth >= empties {
                break;
            }
        }
        verdict.nodes = solve_nodes + self.nodes;
        verdict
    }

    /// Readies the table for searches up to `level`: one that reaches
    /// depth 7 asks the kernel for huge pages (Linux's transparent huge
    /// pages) before its first store; a shallower one keeps the small
    /// pages, of which it touches few. A caller that searches the depths
    /// of a level one by one calls it first with the level.
    pub fn prepare_for(&mut self, level: Level) {
        if level.depth >= TOUCH_DEPTH && !self.touched {
            self.table.advise_huge_pages();
        }
    }

    /// Empties the search table (every slot): a search after this depends
    /// on nothing searched before, so its value is the same whatever this
    /// searcher did earlier (training labels rely on it).
    pub fn forget(&mut self) {
        self.table.wipe();
    }

    /// The root value of each iteration 1, 2, ... `max_depth` of a full
    /// (non-selective) search of the 8x8 position `pos`, with the table
    /// cleared first: the data Multi-ProbCut is fitted on.
    pub fn iteration_values(&mut self, pos: &RelativePosition, max_depth: u32) -> Vec<i32> {
        self.table.clear();
        self.selectivity = None;
        self.stopped = false;
        self.deadline = None;
        (1..=max_depth)
            .map(|depth| self.root(pos, depth, None).0)
            .collect()
    }

    /// One iteration at the root: the value and best move.
    fn root(
        &mut self,
        pos: &RelativePosition,
        depth: u32,
        stop: Option<&AtomicBool>,
    ) -> (i32, Move) {
        if depth >= TOUCH_DEPTH && !self.touched {
            self.table.touch();
            self.touched = true;
        }
        let (p, o) = (pos.player, pos.opponent);
        if moves_scalar(p, o, u64::MAX) == 0 {
            let indices = Indices::new(o, p);
            let node = Node::known(o, p, &indices);
            let v = -with_best_kernel!(|k| k.pvs(self, node, depth, -INF, INF, stop));
            return (v, Move::Pass);
        }
        let indices = Indices::new(p, o);
        let node = Node::known(p, o, &indices);
        let v = with_best_kernel!(|k| k.pvs(self, node, depth, -INF, INF, stop));
        let best = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
        let mv = if best == NO_MOVE {
            Move::Place(Square(
                Bits(moves_scalar(p, o, u64::MAX)).next().expect("a move"),
            ))
        } else {
            Move::Place(Square(best))
        };
        (v, mv)
    }

    /// The line the table expects from `pos` after a search of it: from
    /// the root, each position's stored best move while it is legal (a
    /// pass when the side to move has none), at most `plies` moves, ending
    /// where the table knows no move or the game ends.
    #[must_use]
    pub fn principal_line(&self, pos: &RelativePosition, plies: u32) -> Vec<Move> {
        let (mut p, mut o) = (pos.player, pos.opponent);
        let mut line = Vec::new();
        while line.len() < plies as usize {
            let legal = moves_scalar(p, o, u64::MAX);
            if legal == 0 {
                if moves_scalar(o, p, u64::MAX) == 0 {
                    break;
                }
                line.push(Move::Pass);
                (p, o) = (o, p);
                continue;
            }
            let best = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
            if best >= 64 || legal & (1 << best) == 0 {
                break;
            }
            let next = RelativePosition::of_8x8(p, o).play(best);
            line.push(Move::Place(Square(best)));
            (p, o) = (next.player, next.opponent);
        }
        line
    }

    /// Whether the search must stop, reading the clock and the flag every
    /// [`CHECK_EVERY`] nodes.
    fn out_of_time(&mut self, stop: Option<&AtomicBool>) -> bool {
        if !self.stopped && self.nodes.is_multiple_of(CHECK_EVERY) {
            return self.must_stop(stop);
        }
        self.stopped
    }

    /// Reads the clock and the stop flag: whether the search must stop.
    fn must_stop(&mut self, stop: Option<&AtomicBool>) -> bool {
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        let told = stop.is_some_and(|s| s.load(Ordering::Relaxed));
        self.stopped |= late || told;
        self.stopped
    }

    /// Principal-variation search of `node` for `depth` plies within
    /// `(alpha, beta)`, fail-soft; ends early (returning 0) once the
    /// deadline passes or `stop` is set. Entered through
    /// [`MidgameKernel::pvs`], which compiles it with the kernel's CPU
    /// features.
    #[inline(always)]
    fn pvs<K: MidgameKernel + GatherKernel>(
        &mut self,
        k: K,
        node: Node<'_>,
        depth: u32,
        (mut alpha, beta): (i32, i32),
        stop: Option<&AtomicBool>,
    ) -> i32 {
        let (p, o) = (node.p, node.o);
        self.nodes += 1;
        if self.out_of_time(stop) {
            return 0;
        }
        let moves = k.moves(p, o, u64::MAX);
        if moves == 0 {
            if k.moves(o, p, u64::MAX) == 0 {
                return SCALE * final_score(p, o);
            }
            let passed = node.indices().passed();
            return -k.pvs(self, Node::known(o, p, &passed), depth, -beta, -alpha, stop);
        }
        if depth == 0 {
            let mover = node.mover();
            let replies = k.moves(o, p, u64::MAX);
            return self
                .weights
                .evaluate_indexed(k, &mover, p, o, moves, replies)
                .clamp(-MAX_VALUE, MAX_VALUE);
        }
        let mut hash = NO_MOVE;
        if let Some(e) = self.table.probe(p, o) {
            hash = e.best;
            if e.depth >= depth {
                if e.lower >= beta {
                    return e.lower;
                }
                if e.upper <= alpha {
                    return e.upper;
                }
                if e.lower == e.upper {
                    return e.lower;
                }
            }
        }
        if let (Some(t), true) = (self.selectivity, depth >= 3 && beta - alpha == 1) {
            if let Some(v) = self.probcut(k, node, depth, (alpha, beta), t, stop) {
                return v;
            }
        }
        let indices = node.indices();
        let mut list = self.ordered(k, p, o, &indices, moves, hash, depth);
        let alpha0 = alpha;
        let (mut best, mut best_move) = (-INF, NO_MOVE);
        for i in 0..list.len {
            let (sq, f) = list.pick(i);
            let (np, no) = after(p, o, sq, f);
            let child = Node::after(np, no, &indices, sq, f);
            let v = if i == 0 {
                -k.pvs(self, child, depth - 1, -beta, -alpha, stop)
            } else {
                let v = -k.pvs(self, child, depth - 1, -alpha - 1, -alpha, stop);
                if v > alpha && v < beta {
                    -k.pvs(self, child, depth - 1, -beta, -v, stop)
                } else {
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = bounds(best, alpha0, beta, INF);
        self.table
            .store(p, o, depth, EXACT, lower, upper, best_move);
        best
    }

    /// Multi-ProbCut at a null-window node: `beta` (or `alpha`) when a
    /// shallow search predicts, with `t` standard deviations to spare, a
    /// deep value at or above `beta` (at or below `alpha`).
    #[inline(always)]
    fn probcut<K: MidgameKernel + GatherKernel>(
        &mut self,
        k: K,
        node: Node<'_>,
        depth: u32,
        (alpha, beta): (i32, i32),
        t: f64,
        stop: Option<&AtomicBool>,
    ) -> Option<i32> {
        let empties = 64 - (node.p | node.o).count_ones();
        let cut = self.probcut.get(depth, pattern::phase(empties))?;
        let shallow = shallow_depth(depth);
        let scale = f64::from(SCALE);
        let margin = t * cut.sigma * scale;
        let high = ((f64::from(beta) + margin - cut.b * scale) / cut.a).ceil();
        if high.abs() < f64::from(INF / 2) {
            let high = high as i32;
            if k.pvs(self, node, shallow, high - 1, high, stop) >= high {
                return Some(beta);
            }
        }
        let low = ((f64::from(alpha) - margin - cut.b * scale) / cut.a).floor();
        if low.abs() < f64::from(INF / 2) {
            let low = low as i32;
            if k.pvs(self, node, shallow, low, low + 1, stop) <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// The moves of `p` (bitboard `moves`, pattern readings `indices`)
    /// with their flips, to be picked best first ([`MoveList::pick`]):
    /// the hash move, then by a shallow look at the child (the pattern
    /// evaluation far from the horizon, the opponent's replies near it).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn ordered<K: GatherKernel>(
        &self,
        k: K,
        p: u64,
        o: u64,
        indices: &Indices,
        moves: u64,
        hash: u8,
        depth: u32,
    ) -> MoveList {
        let mut list = MoveList::new();
        let mut n = 0;
        for sq in Bits(moves) {
            let f = k.flips(p, o, sq);
            let (np, no) = after(p, o, sq, f);
            let key = if sq == hash {
                i32::MIN
            } else if depth >= 3 {
                let mover = indices.mover_after(sq, f);
                let (mine, theirs) = (k.moves(np, no, u64::MAX), k.moves(no, np, u64::MAX));
                self.weights
                    .evaluate_indexed(k, &mover, np, no, mine, theirs)
            } else {
                let replies = k.moves(np, no, u64::MAX).count_ones() as i32;
                let corner = i32::from(CORNERS >> sq & 1 == 1);
                16 * replies - 64 * corner
            };
            list.rank[n] = i64::from(key) << 8 | i64::from(sq);
            list.flips[n] = f;
            n += 1;
            if depth >= 2 {
                // The child probes the table first: its slot loads while
                // the other moves are ordered.
                self.table.prefetch(np, no);
            }
        }
        list.len = n;
        list
    }
}

kernel_entries! {
    /// The midgame search's recursion, compiled once per kernel with its
    /// CPU features (see [`crate::board::bits::Kernel`]).
    trait MidgameKernel {
        fn pvs(
            s: &mut MidgameSearch,
            node: Node<'_>,
            depth: u32,
            alpha: i32,
            beta: i32,
            stop: Option<&AtomicBool>,
        ) -> i32 = |k| s.pvs(k, node, depth, (alpha, beta), stop);
    }
}

/// A position of the search with what its pattern readings are made
/// from: known (the root, a pass), or its parent's readings and the move
/// played, applied only where the node needs them (a node cut by the
/// table or by Multi-ProbCut needs none, a leaf only the side to move's).
#[derive(Clone, Copy)]
struct Node<'a> {
    p: u64,
    o: u64,
    parent: &'a Indices,
    /// The move (square, flips) that made the node from `parent`, or
    /// `None` when `parent` holds the node's own readings.
    last: Option<(u8, u64)>,
}

impl<'a> Node<'a> {
    /// The position `p` against `o` with its readings `indices`.
    #[inline(always)]
    fn known(p: u64, o: u64, indices: &'a Indices) -> Node<'a> {
        Node {
            p,
            o,
            parent: indices,
            last: None,
        }
    }

    /// The position `p` against `o` reached from a position with
    /// readings `parent` by a move on `sq` flipping `flips`.
    #[inline(always)]
    fn after(p: u64, o: u64, parent: &'a Indices, sq: u8, flips: u64) -> Node<'a> {
        Node {
            p,
            o,
            parent,
            last: Some((sq, flips)),
        }
    }

    /// The node's readings from both sides.
    #[inline(always)]
    fn indices(&self) -> Indices {
        match self.last {
            None => *self.parent,
            Some((sq, f)) => self.parent.after(sq, f),
        }
    }

    /// The node's readings from the side to move.
    #[inline(always)]
    fn mover(&self) -> pattern::Row {
        match self.last {
            None => self.parent.mover,
            Some((sq, f)) => self.parent.mover_after(sq, f),
        }
    }
}

/// The moves of a node with their flips and ordering keys, picked lowest
/// key first, the lower square first on equal keys: the order of a sort
/// by (key, square), found one move at a time (a cut leaves the rest
/// unsorted).
struct MoveList {
    /// `key << 8 | square`: one integer orders by key, then square.
    rank: [i64; 64],
    flips: [u64; 64],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    fn new() -> MoveList {
        MoveList {
            rank: [0; 64],
            flips: [0; 64],
            len: 0,
        }
    }

    /// Moves the best remaining move to slot `i` and returns it.
    #[inline(always)]
    fn pick(&mut self, i: usize) -> (u8, u64) {
        let (mut b, mut least) = (i, self.rank[i]);
        for j in i + 1..self.len {
            let r = self.rank[j];
            if r < least {
                (b, least) = (j, r);
            }
        }
        self.rank.swap(i, b);
        self.flips.swap(i, b);
        (self.rank[i] as u8, self.flips[i])
    }
}

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The final score of a finished 8x8 game for the side with discs `p`:
/// the disc difference, empty squares to the winner.
fn final_score(p: u64, o: u64) -> i32 {
    score::final_score(p, o, !0, Scoring::Standard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bits::flips_scalar;
    use crate::reversi::random_position;
    use crate::rng::Rng;

    #[test]
    fn exact_levels_agree_with_the_solver() {
        let mut rng = Rng::new(21);
        let mut search = MidgameSearch::default();
        for _ in 0..20 {
            let p = random_position(8, 50, &mut rng);
            let pos = RelativePosition::from_board(&p.board, p.to_move);
            let v = search.search(&pos, Level::new(8), None, None);
            let exact = EndgameSolver::new(Scoring::Standard).solve(&pos).score;
            if pos.empties().count_ones() <= 16 {
                assert!(v.exact);
                assert_eq!(v.value, exact.eval());
            }
        }
    }

    #[test]
    fn depth_limited_value_is_the_plain_negamax_value() {
        // Without the table's help and ordering the value at depth d is
        // the negamax value with the same leaves: compare with a plain
        // recursion on random middle-game positions.
        fn negamax(w: &PatternWeights, p: u64, o: u64, depth: u32) -> i32 {
            let moves = moves_scalar(p, o, u64::MAX);
            if moves == 0 {
                if moves_scalar(o, p, u64::MAX) == 0 {
                    return SCALE * final_score(p, o);
                }
                return -negamax(w, o, p, depth);
            }
            if depth == 0 {
                return w.evaluate(p, o);
            }
            Bits(moves)
                .map(|sq| {
                    let f = flips_scalar(p, o, sq);
                    {
                        let (np, no) = after(p, o, sq, f);
                        -negamax(w, np, no, depth - 1)
                    }
                })
                .max()
                .expect("a move")
        }
        let mut rng = Rng::new(22);
        // Weights owned here (any lifetime will do).
        let weights = Arc::new(PatternWeights::embedded().clone());
        for _ in 0..15 {
            let p = random_position(8, 20 + rng.below(20), &mut rng);
            let pos = RelativePosition::from_board(&p.board, p.to_move);
            if pos.moves() == 0 {
                continue;
            }
            let level = Level {
                depth: 3,
                exact_empties: 0,
                selectivity: None,
            };
            let v = MidgameSearch::new(Arc::clone(&weights)).search(&pos, level, None, None);
            assert_eq!(
                v.value,
                Eval(negamax(&weights, pos.player, pos.opponent, 3))
            );
        }
    }

    #[test]
    fn the_deadline_bounds_the_exact_solve() {
        // FFO #60: 24 empty squares, an exact solve of seconds at level 16.
        let text = include_str!("../../tests/data/ffo/fforum-60-79.obf");
        let ffo = crate::engine::parse_obf_file(text).expect("FFO positions");
        let pos = ffo[0].position;
        assert_eq!(pos.empties().count_ones(), 24);
        let level = Level::new(16);
        assert!(level.exact_empties >= 24);
        let mut search = MidgameSearch::default();
        let start = Instant::now();
        let deadline = start + std::time::Duration::from_millis(10);
        let v = search.search(&pos, level, Some(deadline), None);
        let took = start.elapsed();
        assert!(!v.exact, "{v:?}");
        assert!(v.best.is_some() && v.depth >= 1, "{v:?}");
        assert!(took.as_secs_f64() < 1.0, "{took:?}");
    }

    #[test]
    fn a_set_stop_flag_ends_the_search_after_the_first_iteration() {
        let stop = AtomicBool::new(true);
        let pos = RelativePosition::start(8);
        let v = MidgameSearch::default().search(&pos, Level::new(20), None, Some(&stop));
        assert_eq!(v.depth, 1);
        assert!(v.best.is_some());
    }
}
