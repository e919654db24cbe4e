//! The threads of a solve: young brothers wait along the leftmost path. At
//! each of its nodes (down to [`SPLIT_DEPTH`] plies, with at least
//! [`SPLIT_MIN`] empties) the eldest child is searched first, split in
//! turn, then the younger ones are shared out among the threads; each
//! thread has its own solver, all share one lock-free table.

use super::order::MoveList;
use super::{bounds, EndgameSolver, RootProgress, SolverKernel, NO_MOVE};
use crate::board::Square;
use crate::engine::position::RelativePosition;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Parallel searches split the nodes of the leftmost path down to this
/// many plies below the root...
pub(super) const SPLIT_DEPTH: u32 = 10;
/// ...with at least this many empties.
const SPLIT_MIN: u32 = 14;

/// The state the threads of a parallel search share.
struct Shared<'a> {
    best: (Square, i32),
    alpha: i32,
    done: usize,
    total: usize,
    nodes: u64,
    progress: Option<&'a mut (dyn FnMut(RootProgress) + Send)>,
}

/// What the threads sharing out one node's younger moves read.
struct Siblings<'r, 'p> {
    /// The node's mover and opponent discs and its empties.
    p: u64,
    o: u64,
    n: u32,
    /// The younger moves (square and flips), in search order.
    rest: &'r [(u8, u64)],
    beta: i32,
    /// The index in `rest` of the next move to take.
    next: AtomicUsize,
    shared: Mutex<Shared<'p>>,
}

impl EndgameSolver {
    /// A node on the leftmost path of a parallel search, `depth` more plies
    /// of which split: the eldest child first (split in turn), then the
    /// younger ones shared among the threads (young brothers wait).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn split<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        threads: usize,
        depth: u32,
    ) -> i32 {
        let moves = k.moves(p, o, self.valid);
        if depth == 0 || n < SPLIT_MIN || moves.count_ones() < 2 {
            return self.search(k, p, o, alpha, beta, n);
        }
        self.nodes += 1;
        let hash = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
        let mut list = MoveList::new();
        self.order_inner(k, p, o, moves, hash, n, &mut list);
        let ordered: Vec<(u8, u64)> = (0..list.len).map(|i| list.pick(i)).collect();
        let (sq, f) = ordered[0];
        let (np, no) = (o & !f, p | f | (1u64 << sq));
        let v0 = -self.split(k, np, no, -beta, -alpha, n - 1, threads, depth - 1);
        let best = if v0 >= beta {
            (Square(sq), v0)
        } else {
            let pos = RelativePosition {
                player: p,
                opponent: o,
                valid: self.valid,
            };
            let window = (alpha, beta);
            self.parallel_siblings(
                k,
                &pos,
                &ordered[1..],
                window,
                (Square(sq), v0),
                threads,
                None,
            )
        };
        let (lo, up) = bounds(best.1, alpha, beta);
        self.table.store(p, o, n, self.level, lo, up, best.0 .0);
        best.1
    }

    /// The younger moves `rest` of `pos` shared among `threads` threads
    /// (each with its own solver, all on one table);
    /// `best` is the eldest move's result. Returns the best move and score.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn parallel_siblings<K: SolverKernel>(
        &mut self,
        k: K,
        pos: &RelativePosition,
        rest: &[(u8, u64)],
        (alpha, beta): (i32, i32),
        best: (Square, i32),
        threads: usize,
        progress: Option<&mut (dyn FnMut(RootProgress) + Send)>,
    ) -> (Square, i32) {
        let mut helpers = std::mem::take(&mut self.helpers);
        while helpers.len() < threads - 1 {
            let mut h = EndgameSolver::with_table_bits(self.scoring, 1);
            h.table = Arc::clone(&self.table);
            helpers.push(h);
        }
        for h in helpers.iter_mut().take(threads - 1) {
            h.setup(pos.valid);
            h.weights = self.weights;
            h.selectivity = self.selectivity;
            h.level = self.level;
        }
        let siblings = Siblings {
            p: pos.player,
            o: pos.opponent,
            n: pos.empties().count_ones(),
            rest,
            beta,
            next: AtomicUsize::new(0),
            shared: Mutex::new(Shared {
                best,
                alpha: alpha.max(best.1),
                done: 1,
                total: rest.len() + 1,
                nodes: self.nodes,
                progress,
            }),
        };
        std::thread::scope(|scope| {
            for w in std::iter::once(&mut *self).chain(helpers.iter_mut().take(threads - 1)) {
                let siblings = &siblings;
                scope.spawn(move || w.take_siblings(k, siblings));
            }
        });
        let s = siblings.shared.into_inner().expect("no worker panics");
        self.nodes = s.nodes;
        self.helpers = helpers;
        s.best
    }

    /// One thread's share of `siblings`: takes the next move until none is
    /// left or the node is refuted, searching each with a null window around
    /// the shared alpha first, and records the results.
    fn take_siblings<K: SolverKernel>(&mut self, k: K, siblings: &Siblings<'_, '_>) {
        let Siblings {
            p,
            o,
            n,
            beta,
            rest,
            ..
        } = *siblings;
        loop {
            let i = siblings.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(sq, f)) = rest.get(i) else { return };
            let alpha = {
                let s = siblings.shared.lock().expect("no worker panics");
                if s.best.1 >= beta {
                    return;
                }
                s.alpha
            };
            let before = self.nodes;
            let (np, no) = (o & !f, p | f | (1u64 << sq));
            let mut v = -self.search(k, np, no, -alpha - 1, -alpha, n - 1);
            if v > alpha && v < beta {
                v = -self.search(k, np, no, -beta, -alpha, n - 1);
            }
            let mut s = siblings.shared.lock().expect("no worker panics");
            s.nodes += self.nodes - before;
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
        }
    }
}
