//! The exact solver: negamax alpha-beta (principal variation search) over
//! side-to-move-relative bitboards, with a transposition table and
//! fastest-first move ordering far from the end, parity ordering and no
//! move generation for the last few empties, and a special case for the
//! last empty square.
//!
//! Scores are the side to move's final disc difference; with
//! [`Scoring::Standard`] the squares still empty when the game ends go to
//! the winner (the rule of the FFO suites).

use super::position::Position;
use super::tt::Table;
use crate::board::bits::{self, flips_vec, Bits};
use crate::board::Square;
use crate::reversi::Move;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How a finished game with empty squares is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scoring {
    /// Empty squares go to the winner (standard Othello, FFO, Edax).
    #[default]
    Standard,
    /// The plain disc difference.
    DiscsOnly,
}

/// The result of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A best move: a square, a forced pass, or `None` if the game is over.
    pub best: Option<Move>,
    /// The exact final score for the side to move.
    pub score: i32,
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

/// Larger than any score.
const INF: i32 = 127;
/// At most this many empties: parity ordering, no move generation, no table.
const SHALLOW: u32 = 5;
/// At least this many empties: the transposition table is used.
const TT_MIN: u32 = 7;
/// Extra weight of an opponent reply on a corner in the move ordering (a
/// plain reply weighs 16).
const CORNER_REPLY_WEIGHT: i32 = 48;
/// Weight of the opponent's potential mobility in the move ordering.
const POT_WEIGHT: i32 = 12;
/// More than this many empties: enhanced transposition cutoffs.
const ETC_MIN: u32 = 12;
/// At least this many empties: stability cutoffs.
const STABILITY_MIN: u32 = 7;
/// Stability is only tried when alpha is at least this high.
const STABILITY_ALPHA: i32 = 0;
/// Parallel searches split the nodes of the leftmost path down to this
/// many plies below the root...
const SPLIT_DEPTH: u32 = 10;
/// ...with at least this many empties.
const SPLIT_MIN: u32 = 14;
/// "No move" in the table.
const NO_MOVE: u8 = 64;

/// An exact solver with its transposition table. Reuse one solver for many
/// positions; each solve starts from an empty table, so the same position
/// always gives the same move, score and node count.
pub struct Solver {
    /// Shared with the helper threads' solvers.
    table: Arc<Table>,
    scoring: Scoring,
    valid: u64,
    corners: u64,
    quadrants: [u64; 4],
    /// The lines of the board (rows, columns, both diagonals), each as the
    /// mask of its valid squares, with the orientation (0-3) of each.
    lines: Vec<(u64, usize)>,
    nodes: u64,
    /// Solvers of the helper threads, kept between solves.
    helpers: Vec<Solver>,
}

/// The state the threads of a parallel root search share.
struct Shared<'a> {
    best: (Square, i32),
    alpha: i32,
    done: usize,
    total: usize,
    nodes: u64,
    progress: Option<&'a mut (dyn FnMut(RootProgress) + Send)>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(Scoring::Standard)
    }
}

impl Solver {
    /// A solver with a table of 2^20 entries (24 MiB).
    #[must_use]
    pub fn new(scoring: Scoring) -> Solver {
        Solver::with_table_bits(scoring, 20)
    }

    /// A solver with a table of `2^bits` entries.
    #[must_use]
    pub fn with_table_bits(scoring: Scoring, bits: u32) -> Solver {
        Solver {
            table: Arc::new(Table::new(bits)),
            scoring,
            valid: !0,
            corners: 0,
            quadrants: [0; 4],
            lines: Vec::new(),
            nodes: 0,
            helpers: Vec::new(),
        }
    }

    /// Solves `pos` exactly.
    pub fn solve(&mut self, pos: &Position) -> Solution {
        self.solve_with(pos, |_| {})
    }

    /// Solves `pos` exactly, calling `progress` after each root move.
    pub fn solve_with(
        &mut self,
        pos: &Position,
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
        pos: &Position,
        threads: usize,
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> Solution {
        self.clear();
        self.solve_window(pos, -INF, INF, threads, progress)
    }

    /// Forgets every stored result (the table is shared with the helper
    /// threads).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Searches `pos` with the window `(alpha, beta)` without clearing the
    /// table, so successive windows on one position (null-window proofs
    /// around an expected value) share their work. Fail-soft: a score at or
    /// below `alpha` is an upper bound, one at or above `beta` a lower bound,
    /// one in between exact. Scores lie in -64..=64.
    pub fn solve_window(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        threads: usize,
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> Solution {
        self.setup(pos.valid);
        let (p, o) = (pos.player, pos.opponent);
        let n = pos.empties().count_ones();
        let moves = pos.moves();
        self.nodes = 1;
        if moves == 0 {
            if pos.pass().moves() == 0 {
                return Solution {
                    best: None,
                    score: self.final_score(p, o),
                    nodes: 1,
                };
            }
            let score = -self.search(o, p, -beta, -alpha, n);
            return Solution {
                best: Some(Move::Pass),
                score,
                nodes: self.nodes,
            };
        }
        let hash = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
        let mut list = MoveList::new();
        self.order(p, o, moves, hash, &mut list);
        let total = list.len;
        let mut ordered: Vec<(u8, u64)> = (0..total).map(|i| list.pick(i)).collect();
        if n >= ROOT_ESTIMATE_MIN {
            sort_by_estimate(pos, &mut ordered);
        }
        let child = |(sq, f): (u8, u64)| (o & !f, p | f | (1u64 << sq));
        // The first (eldest) move alone, with the full window (its own
        // eldest children first, the younger ones in parallel).
        let (np, no) = child(ordered[0]);
        let v0 = if threads <= 1 {
            -self.search(np, no, -beta, -alpha, n - 1)
        } else {
            -self.split(np, no, -beta, -alpha, n - 1, threads, SPLIT_DEPTH)
        };
        let mut best = (Square(ordered[0].0), v0);
        progress(RootProgress {
            done: 1,
            total,
            square: best.0,
            best,
            nodes: self.nodes,
        });
        if threads <= 1 || total <= 2 || v0 >= beta {
            let mut alpha = alpha.max(v0);
            for (i, &m) in ordered.iter().enumerate().skip(1) {
                if best.1 >= beta {
                    break;
                }
                let (np, no) = child(m);
                let mut v = -self.search(np, no, -alpha - 1, -alpha, n - 1);
                if v > alpha && v < beta {
                    v = -self.search(np, no, -beta, -alpha, n - 1);
                }
                if v > best.1 {
                    best = (Square(m.0), v);
                    alpha = alpha.max(v);
                }
                progress(RootProgress {
                    done: i + 1,
                    total,
                    square: Square(m.0),
                    best,
                    nodes: self.nodes,
                });
            }
        } else {
            best = self.parallel_siblings(
                pos,
                &ordered[1..],
                (alpha, beta),
                best,
                threads,
                Some(progress),
            );
        }
        Solution {
            best: Some(Move::Place(best.0)),
            score: best.1,
            nodes: self.nodes,
        }
    }

    /// A node on the leftmost path of a parallel search, `depth` more plies
    /// of which split: the eldest child first (split in turn), then the
    /// younger ones shared among the threads (young brothers wait).
    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        threads: usize,
        depth: u32,
    ) -> i32 {
        let moves = bits::moves_vec(p, o, self.valid);
        if depth == 0 || n < SPLIT_MIN || moves.count_ones() < 2 {
            return self.search(p, o, alpha, beta, n);
        }
        self.nodes += 1;
        let hash = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
        let mut list = MoveList::new();
        self.order_inner(p, o, moves, hash, n, &mut list);
        let ordered: Vec<(u8, u64)> = (0..list.len).map(|i| list.pick(i)).collect();
        let (sq, f) = ordered[0];
        let v0 = -self.split(
            o & !f,
            p | f | (1u64 << sq),
            -beta,
            -alpha,
            n - 1,
            threads,
            depth - 1,
        );
        let best = if v0 >= beta {
            (Square(sq), v0)
        } else {
            let pos = Position {
                player: p,
                opponent: o,
                valid: self.valid,
            };
            self.parallel_siblings(
                &pos,
                &ordered[1..],
                (alpha, beta),
                (Square(sq), v0),
                threads,
                None,
            )
        };
        let (lo, up) = if best.1 <= alpha {
            (-64, best.1)
        } else if best.1 >= beta {
            (best.1, 64)
        } else {
            (best.1, best.1)
        };
        self.table.store(p, o, n, lo, up, best.0 .0);
        best.1
    }

    /// The younger moves `rest` of `pos` shared among `threads` threads
    /// (each with its own solver, all on one table);
    /// `best` is the eldest move's result. Returns the best move and score.
    fn parallel_siblings(
        &mut self,
        pos: &Position,
        rest: &[(u8, u64)],
        (alpha, beta): (i32, i32),
        best: (Square, i32),
        threads: usize,
        progress: Option<&mut (dyn FnMut(RootProgress) + Send)>,
    ) -> (Square, i32) {
        let mut helpers = std::mem::take(&mut self.helpers);
        while helpers.len() < threads - 1 {
            let mut h = Solver::with_table_bits(self.scoring, 1);
            h.table = Arc::clone(&self.table);
            helpers.push(h);
        }
        for h in helpers.iter_mut().take(threads - 1) {
            h.setup(pos.valid);
        }
        let shared = Mutex::new(Shared {
            best,
            alpha: alpha.max(best.1),
            done: 1,
            total: rest.len() + 1,
            nodes: self.nodes,
            progress,
        });
        let next = AtomicUsize::new(0);
        let (p, o, n) = (pos.player, pos.opponent, pos.empties().count_ones());
        std::thread::scope(|scope| {
            for w in std::iter::once(&mut *self).chain(helpers.iter_mut().take(threads - 1)) {
                let (shared, next) = (&shared, &next);
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(sq, f)) = rest.get(i) else { return };
                    let alpha = {
                        let s = shared.lock().expect("no worker panics");
                        if s.best.1 >= beta {
                            return;
                        }
                        s.alpha
                    };
                    let before = w.nodes;
                    let (np, no) = (o & !f, p | f | (1u64 << sq));
                    let mut v = -w.search(np, no, -alpha - 1, -alpha, n - 1);
                    if v > alpha && v < beta {
                        v = -w.search(np, no, -beta, -alpha, n - 1);
                    }
                    let mut s = shared.lock().expect("no worker panics");
                    s.nodes += w.nodes - before;
                    s.done += 1;
                    if v > s.best.1 {
                        s.best = (Square(sq), v);
                        s.alpha = s.alpha.max(v);
                    }
                    let r = RootProgress {
                        done: s.done,
                        total: s.total,
                        square: Square(sq),
                        best: s.best,
                        nodes: s.nodes,
                    };
                    if let Some(progress) = s.progress.as_mut() {
                        progress(r);
                    }
                });
            }
        });
        let s = shared.into_inner().expect("no worker panics");
        self.nodes = s.nodes;
        self.helpers = helpers;
        s.best
    }

    /// A principal line from `pos`, whose exact score is `score` (from a
    /// solve): at each step the first move, hash move first, whose
    /// position has exactly the opposite score, proved by a search with
    /// the window `(score - 1, score + 1)`; passes included, until the game
    /// ends. Keeps the table, so it is cheap right after the solve.
    pub fn principal_line(&mut self, pos: &Position, score: i32) -> Vec<Move> {
        self.setup(pos.valid);
        let mut line = Vec::new();
        let (mut p, mut o, mut score) = (pos.player, pos.opponent, score);
        loop {
            let moves = bits::moves_vec(p, o, self.valid);
            if moves == 0 {
                if bits::moves_vec(o, p, self.valid) == 0 {
                    return line;
                }
                line.push(Move::Pass);
                (p, o, score) = (o, p, -score);
                continue;
            }
            let n = (self.valid & !(p | o)).count_ones();
            let hash = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
            let mut list = MoveList::new();
            self.order(p, o, moves, hash, &mut list);
            let mut found = None;
            for i in 0..list.len {
                let (sq, f) = list.pick(i);
                let (np, no) = (o & !f, p | f | (1u64 << sq));
                if -self.search(np, no, -score - 1, -score + 1, n - 1) == score {
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

    /// Prepares the board geometry for `valid` (the table is kept).
    fn setup(&mut self, valid: u64) {
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
        let mut q = [0u64; 4];
        for r in 0..n {
            for c in 0..n {
                q[usize::from(r >= h) * 2 + usize::from(c >= h)] |= Square::new(r, c).bit();
            }
        }
        self.quadrants = q;
        self.lines.clear();
        for orientation in 0..4 {
            let step: (i32, i32) = [(0, 1), (1, 0), (1, 1), (1, -1)][orientation];
            let mut seen = 0u64;
            for start in Bits(valid) {
                if seen & (1u64 << start) != 0 {
                    continue;
                }
                // Walk back to the line's first square, then along it.
                let (mut r, mut c) = (i32::from(start / 8), i32::from(start % 8));
                let inside = |r: i32, c: i32| {
                    (0..i32::from(n)).contains(&r) && (0..i32::from(n)).contains(&c)
                };
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
                self.lines.push((line, orientation));
            }
        }
    }

    /// A subset of the discs of `own` that can never be flipped: in each of
    /// the four orientations the disc's line is full, or a neighbour on that
    /// line is off the board or another such disc of `own`.
    fn stable(&self, own: u64, occupied: u64) -> u64 {
        let mut full = [0u64; 4];
        for &(line, orientation) in &self.lines {
            if line & !occupied == 0 {
                full[orientation] |= line;
            }
        }
        const RANK_1: u64 = 0xFF;
        const RANK_8: u64 = 0xFF << 56;
        let (fa, fh) = (bits::FILE_A, bits::FILE_H);
        let wall = !self.valid;
        let mut st = 0u64;
        loop {
            let x = st | wall;
            let h = full[0] | (x << 1) | fa | (x >> 1) | fh;
            let v = full[1] | (x << 8) | (x >> 8) | RANK_1 | RANK_8;
            let d1 = full[2] | (x << 9) | (x >> 9) | fa | fh | RANK_1 | RANK_8;
            let d2 = full[3] | (x << 7) | (x >> 7) | fa | fh | RANK_1 | RANK_8;
            let next = own & h & v & d1 & d2;
            if next == st {
                return st;
            }
            st = next;
        }
    }

    /// The final score of a finished game for the owner of `p`.
    #[inline]
    fn final_score(&self, p: u64, o: u64) -> i32 {
        let diff = p.count_ones() as i32 - o.count_ones() as i32;
        match self.scoring {
            Scoring::DiscsOnly => diff,
            Scoring::Standard => {
                let e = (self.valid & !(p | o)).count_ones() as i32;
                match diff.signum() {
                    1 => diff + e,
                    -1 => diff - e,
                    _ => 0,
                }
            }
        }
    }

    /// The exact score if it lies within (alpha, beta); otherwise a bound
    /// on the same side (fail-soft). `n` is the number of empties.
    #[inline]
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n <= SHALLOW {
            if n == 0 {
                self.nodes += 1;
                return self.final_score(p, o);
            }
            self.shallow(p, o, alpha, beta, n, false)
        } else {
            self.deep(p, o, alpha, beta, n)
        }
    }

    /// Orders `moves` for a node below the root with `n` empties: by
    /// [`Solver::order`], then, on 8x8 with at least [`INNER_ESTIMATE_MIN`]
    /// empties, by [`estimate`] after the hash move. The one- and the
    /// multi-thread searches (`deep`, `split`) order alike.
    fn order_inner(&self, p: u64, o: u64, moves: u64, hash: u8, n: u32, list: &mut MoveList) {
        self.order(p, o, moves, hash, list);
        if n >= INNER_ESTIMATE_MIN && self.valid == !0 {
            estimate_keys(p, o, self.valid, list, hash);
        }
    }

    /// Orders `moves` for a node: the hash move first, then fewest replies
    /// for the opponent (corners counting four times), own corners early.
    fn order(&self, p: u64, o: u64, moves: u64, hash: u8, list: &mut MoveList) {
        list.len = 0;
        for sq in Bits(moves) {
            let f = flips_vec(p, o, sq);
            let key = if sq == hash {
                -1000
            } else {
                let (np, no) = (o & !f, p | f | (1u64 << sq));
                let replies = bits::moves_vec(np, no, self.valid);
                let mut k = 16 * replies.count_ones() as i32
                    + CORNER_REPLY_WEIGHT * (replies & self.corners).count_ones() as i32;
                if (1u64 << sq) & self.corners != 0 {
                    k -= 24;
                }
                // Potential mobility: the empty squares next to our discs,
                // where the opponent may find moves later.
                let empties = self.valid & !(np | no);
                k += POT_WEIGHT * (neighbours(no) & empties).count_ones() as i32;
                k
            };
            list.push(sq, f, key);
        }
    }

    fn deep(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
        self.nodes += 1;
        let moves = bits::moves_vec(p, o, self.valid);
        if moves == 0 {
            if bits::moves_vec(o, p, self.valid) == 0 {
                return self.final_score(p, o);
            }
            return -self.deep(o, p, -beta, -alpha, n);
        }
        if n >= STABILITY_MIN && alpha >= STABILITY_ALPHA {
            // The opponent's stable discs bound our final score.
            let upper =
                self.valid.count_ones() as i32 - 2 * self.stable(o, p | o).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
            beta = beta.min(upper);
            if alpha >= beta {
                return upper;
            }
        }
        let use_table = n >= TT_MIN;
        let mut hash = NO_MOVE;
        if use_table {
            if let Some(e) = self.table.probe(p, o) {
                let (lo, up) = (i32::from(e.lower), i32::from(e.upper));
                if lo >= beta {
                    return lo;
                }
                if up <= alpha || lo == up {
                    return up;
                }
                alpha = alpha.max(lo);
                beta = beta.min(up);
                hash = e.best;
            }
        }
        let mut list = MoveList::new();
        self.order_inner(p, o, moves, hash, n, &mut list);
        if n > ETC_MIN {
            // Enhanced transposition cutoff: a child already known to
            // refute the opponent ends the search here.
            for i in 0..list.len {
                let (sq, f) = (list.sq[i], list.flips[i]);
                if let Some(e) = self.table.probe(o & !f, p | f | (1u64 << sq)) {
                    let v = -i32::from(e.upper);
                    if v >= beta {
                        return v;
                    }
                }
            }
        }
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        let a0 = alpha;
        for i in 0..list.len {
            let (sq, f) = list.pick(i);
            let (np, no) = (o & !f, p | f | (1u64 << sq));
            let v = if i == 0 {
                -self.search(np, no, -beta, -alpha, n - 1)
            } else {
                let v = -self.search(np, no, -alpha - 1, -alpha, n - 1);
                if v > alpha && v < beta {
                    -self.search(np, no, -beta, -alpha, n - 1)
                } else {
                    v
                }
            };
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if use_table {
            let (lo, up) = if best <= a0 {
                (-64, best)
            } else if best >= beta {
                (best, 64)
            } else {
                (best, best)
            };
            self.table.store(p, o, n, lo, up, best_sq);
        }
        best
    }

    /// The squares of the quadrants with an odd number of empties.
    #[inline]
    fn odd_squares(&self, empties: u64) -> u64 {
        let mut m = 0;
        for q in self.quadrants {
            if (empties & q).count_ones() & 1 == 1 {
                m |= q;
            }
        }
        m
    }

    /// The last few empties (`1 <= n <= SHALLOW`): every empty square is
    /// tried directly (its flips are empty if illegal), odd quadrants first.
    /// `passed` is set when the opponent just passed.
    fn shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32, passed: bool) -> i32 {
        if n == 1 {
            return self.last1(p, o);
        }
        self.nodes += 1;
        let empties = self.valid & !(p | o);
        let odd = self.odd_squares(empties);
        let mut best = -INF;
        for group in [empties & odd, empties & !odd] {
            for sq in Bits(group) {
                let f = flips_vec(p, o, sq);
                if f == 0 {
                    continue;
                }
                let v = -self.shallow(o & !f, p | f | (1u64 << sq), -beta, -alpha, n - 1, false);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best == -INF {
            if passed {
                return self.final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, n, true);
        }
        best
    }

    /// One empty square: play it if the mover can, else the opponent.
    #[inline]
    fn last1(&mut self, p: u64, o: u64) -> i32 {
        self.nodes += 1;
        let sq = (self.valid & !(p | o)).trailing_zeros() as u8;
        let f = flips_vec(p, o, sq);
        if f != 0 {
            let k = f.count_ones() as i32;
            return p.count_ones() as i32 + 2 * k + 1 - o.count_ones() as i32;
        }
        let f = flips_vec(o, p, sq);
        if f != 0 {
            self.nodes += 1;
            let k = f.count_ones() as i32;
            return p.count_ones() as i32 - 2 * k - 1 - o.count_ones() as i32;
        }
        self.final_score(p, o)
    }
}

/// Root positions with at least this many empties have their moves
/// ordered by a shallow heuristic search (the exact search's cost hangs on
/// finding the best root move early).
const ROOT_ESTIMATE_MIN: u32 = 18;

/// Plies of the heuristic search that orders root moves.
const ROOT_ESTIMATE_DEPTH: u32 = 6;

/// Nodes below the root of an 8x8 board with at least this many empties
/// order their moves (after the hash move) by a shallower heuristic search.
/// (On 6x6 such nodes are many and their subtrees small: the searches
/// would cost more than they save.)
const INNER_ESTIMATE_MIN: u32 = 18;

/// Plies of the heuristic search that orders moves below the root.
const INNER_ESTIMATE_DEPTH: u32 = 4;

/// The value for the mover (`p` against `o` on `valid`) of playing `sq`
/// with flips `f`, by a `depth`-ply alpha-beta search (the child searched
/// `depth - 1` plies) with the depth study's `strong` evaluation.
fn estimate(p: u64, o: u64, valid: u64, (sq, f): (u8, u64), depth: u32) -> i32 {
    use crate::board::Color;
    use crate::engine::iterative::{IterativeSearch, MoveOrder};
    use crate::eval::Heuristic;
    let engine = IterativeSearch {
        order: MoveOrder::Best,
        prune: true,
        eval: Heuristic::Strong,
    };
    // The mover plays Black, so the evaluation (Black's point of view) of
    // the child, where White moves, is the mover's value.
    let child = crate::reversi::Position {
        board: Position {
            player: o & !f,
            opponent: p | f | (1u64 << sq),
            valid,
        }
        .to_board(Color::White),
        to_move: Color::White,
    };
    engine.fixed(&child, depth - 1).value
}

/// Orders the root moves `ordered` (square and flips) of `pos` best first by
/// [`estimate`]; ties keep their order.
fn sort_by_estimate(pos: &Position, ordered: &mut [(u8, u64)]) {
    let (p, o, valid) = (pos.player, pos.opponent, pos.valid);
    let mut keyed: Vec<(i32, (u8, u64))> = ordered
        .iter()
        .map(|&m| (estimate(p, o, valid, m, ROOT_ESTIMATE_DEPTH), m))
        .collect();
    keyed.sort_by_key(|&(v, _)| -v);
    for (slot, (_, m)) in ordered.iter_mut().zip(keyed) {
        *slot = m;
    }
}

/// Replaces the ordering keys of `list` (moves of `p` against `o`) by
/// [`estimate`]s, best first; the hash move stays first.
fn estimate_keys(p: u64, o: u64, valid: u64, list: &mut MoveList, hash: u8) {
    for i in 0..list.len {
        let m = (list.sq[i], list.flips[i]);
        list.key[i] = if m.0 == hash {
            i32::MIN
        } else {
            -estimate(p, o, valid, m, INNER_ESTIMATE_DEPTH)
        };
    }
}

/// The squares next to any disc of `b` (on the 8x8 word; callers mask).
#[inline]
fn neighbours(b: u64) -> u64 {
    let ew = ((b << 1) & !bits::FILE_A) | ((b >> 1) & !bits::FILE_H);
    let row = b | ew;
    ew | (row << 8) | (row >> 8)
}

/// The moves of a node with their flips and ordering keys; moves are
/// picked lowest key first (first in reading order on ties).
struct MoveList {
    sq: [u8; 64],
    flips: [u64; 64],
    key: [i32; 64],
    len: usize,
}

impl MoveList {
    #[inline]
    fn new() -> MoveList {
        MoveList {
            sq: [0; 64],
            flips: [0; 64],
            key: [0; 64],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, sq: u8, flips: u64, key: i32) {
        self.sq[self.len] = sq;
        self.flips[self.len] = flips;
        self.key[self.len] = key;
        self.len += 1;
    }

    /// Moves the best remaining move to slot `i` and returns it.
    #[inline]
    fn pick(&mut self, i: usize) -> (u8, u64) {
        let mut b = i;
        for j in i + 1..self.len {
            if self.key[j] < self.key[b] {
                b = j;
            }
        }
        self.sq.swap(i, b);
        self.flips.swap(i, b);
        self.key.swap(i, b);
        (self.sq[i], self.flips[i])
    }
}
