//! The threads of a solve: young brothers wait. Along the leftmost path
//! (down to [`SPLIT_DEPTH`] plies, with at least [`SPLIT_MIN`] empties)
//! each node's eldest child is searched first, split in turn, then its
//! younger children are shared out among all the threads. Below that
//! path, a thread searching a node with at least [`HELP_MIN`] empties
//! offers the node's younger children to the threads that wait: once the
//! eldest child is searched, if a thread is waiting, the rest become a
//! job on the team's board. A thread whose own job has no moves left
//! waits for the threads still searching it and meanwhile helps with the
//! newest open job on the board. Each thread has its own solver; all
//! share one lock-free table.

use super::endgame::Exit;
use super::order::MoveList;
use super::TT_MIN;
use super::{bounds, EndgameSolver, RootProgress, SolverKernel, INF, NO_MOVE};
use crate::board::bits::after;
use crate::board::Square;
use crate::engine::position::RelativePosition;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Parallel searches split the nodes of the leftmost path down to this
/// many plies below the root...
pub(super) const SPLIT_DEPTH: u32 = 10;
/// ...with at least this many empties.
const SPLIT_MIN: u32 = 14;
/// Below the leftmost path, nodes with at least this many empties share
/// their younger children with waiting threads.
const HELP_MIN: u32 = 16;

/// What the threads searching one node's younger children share.
struct JobState<'p> {
    best: (Square, i32),
    alpha: i32,
    done: usize,
    total: usize,
    nodes: u64,
    /// Threads searching the job's moves now.
    active: usize,
    progress: Option<&'p mut (dyn FnMut(RootProgress) + Send)>,
}

/// The younger children of one node, shared among threads.
struct Job<'p> {
    /// The node's mover and opponent discs and its empties.
    p: u64,
    o: u64,
    n: u32,
    /// The younger moves (square and flips), in search order.
    rest: Vec<(u8, u64)>,
    beta: i32,
    /// The index in `rest` of the next move to take.
    next: AtomicUsize,
    state: Mutex<JobState<'p>>,
}

impl<'p> Job<'p> {
    /// A job for the moves `rest` of the node `(p, o)` with `n` empties
    /// searched with the window `(alpha, beta)`, its eldest move giving
    /// `best`, after `nodes` positions.
    fn new(
        (p, o, n): (u64, u64, u32),
        rest: Vec<(u8, u64)>,
        (alpha, beta): (i32, i32),
        best: (Square, i32),
        nodes: u64,
        progress: Option<&'p mut (dyn FnMut(RootProgress) + Send)>,
    ) -> Job<'p> {
        let total = rest.len() + 1;
        Job {
            p,
            o,
            n,
            rest,
            beta,
            next: AtomicUsize::new(0),
            state: Mutex::new(JobState {
                best,
                alpha: alpha.max(best.1),
                done: 1,
                total,
                nodes,
                active: 0,
                progress,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, JobState<'p>> {
        self.state.lock().expect("no worker panics")
    }

    /// Whether a move is left to take (and the node is not refuted).
    fn open(&self) -> bool {
        self.next.load(Ordering::Relaxed) < self.rest.len() && self.state().best.1 < self.beta
    }

    /// Whether every move is taken (or the node refuted) and searched.
    fn finished(&self) -> bool {
        let s = self.state();
        s.active == 0
            && (self.next.load(Ordering::Relaxed) >= self.rest.len() || s.best.1 >= self.beta)
    }
}

/// The threads of one parallel search.
#[derive(Default)]
struct Team<'p> {
    /// Threads waiting for their job to finish (they help meanwhile).
    waiting: AtomicUsize,
    /// The jobs offered, newest last.
    jobs: Mutex<Vec<Arc<Job<'p>>>>,
}

impl<'p> Team<'p> {
    fn jobs(&self) -> MutexGuard<'_, Vec<Arc<Job<'p>>>> {
        self.jobs.lock().expect("no worker panics")
    }

    /// The newest job with a move left to take.
    fn newest_open(&self) -> Option<Arc<Job<'p>>> {
        self.jobs().iter().rev().find(|j| j.open()).cloned()
    }
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
        let (np, no) = after(p, o, sq, f);
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
        if !self.stopped {
            let (lo, up) = bounds(best.1, alpha, beta);
            self.table.store(p, o, n, self.level, lo, up, best.0 .0);
        }
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
        window: (i32, i32),
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
            h.setup(self.valid);
            h.weights.clone_from(&self.weights);
            h.selectivity = self.selectivity;
            h.endgame_sigma = self.endgame_sigma;
            h.level = self.level;
            h.stop.clone_from(&self.stop);
            h.deadline = self.deadline;
            h.start_polling();
        }
        let node = (pos.player, pos.opponent, pos.empties().count_ones());
        let job = Arc::new(Job::new(
            node,
            rest.to_vec(),
            window,
            best,
            self.nodes,
            progress,
        ));
        let team = Team::default();
        team.jobs().push(Arc::clone(&job));
        std::thread::scope(|scope| {
            for w in std::iter::once(&mut *self).chain(helpers.iter_mut().take(threads - 1)) {
                let (job, team) = (&job, &team);
                scope.spawn(move || {
                    w.take_moves(k, job, team);
                    w.wait_for(k, job, team);
                });
            }
        });
        // A helper stopped makes the whole search stopped.
        self.stopped |= helpers.iter().take(threads - 1).any(|h| h.stopped);
        let s = job.state();
        self.nodes = s.nodes;
        self.helpers = helpers;
        s.best
    }

    /// One thread's share of `job`: takes the next move until none is left
    /// or the node is refuted, searching each with a null window around the
    /// shared alpha first, and records the results.
    fn take_moves<K: SolverKernel>(&mut self, k: K, job: &Job<'_>, team: &Team<'_>) {
        let (p, o, n, beta) = (job.p, job.o, job.n, job.beta);
        job.state().active += 1;
        loop {
            let i = job.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(sq, f)) = job.rest.get(i) else {
                break;
            };
            let alpha = {
                let s = job.state();
                if s.best.1 >= beta {
                    break;
                }
                s.alpha
            };
            let before = self.nodes;
            let (np, no) = after(p, o, sq, f);
            let mut v = -self.helped(k, np, no, -alpha - 1, -alpha, n - 1, team);
            if v > alpha && v < beta {
                v = -self.helped(k, np, no, -beta, -alpha, n - 1, team);
            }
            let mut s = job.state();
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
        job.state().active -= 1;
    }

    /// Waits until every move of `job` is searched, helping with the
    /// newest open job meanwhile.
    fn wait_for<K: SolverKernel>(&mut self, k: K, job: &Job<'_>, team: &Team<'_>) {
        team.waiting.fetch_add(1, Ordering::SeqCst);
        while !job.finished() {
            if let Some(other) = team.newest_open() {
                team.waiting.fetch_sub(1, Ordering::SeqCst);
                self.take_moves(k, &other, team);
                team.waiting.fetch_add(1, Ordering::SeqCst);
            } else {
                std::thread::yield_now();
            }
        }
        team.waiting.fetch_sub(1, Ordering::SeqCst);
    }

    /// A node below the leftmost path of a parallel search: searched as
    /// usual, except that with at least [`HELP_MIN`] empties, once its
    /// eldest child is searched, its younger children are offered to the
    /// waiting threads as a job if any thread is waiting.
    #[allow(clippy::too_many_arguments)]
    fn helped<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        n: u32,
        team: &Team<'_>,
    ) -> i32 {
        if n < HELP_MIN {
            return self.search(k, p, o, alpha, beta, n);
        }
        let (moves, hash) = match self.enter(k, p, o, (&mut alpha, &mut beta), n) {
            ControlFlow::Break(Exit::Score(v)) => return v,
            ControlFlow::Break(Exit::Pass) => return -self.helped(k, o, p, -beta, -alpha, n, team),
            ControlFlow::Continue(entry) => entry,
        };
        let mut list = MoveList::new();
        if let ControlFlow::Break(v) = self.moves_in_order(k, p, o, moves, hash, beta, n, &mut list)
        {
            return v;
        }
        let entry_alpha = alpha;
        let mut best = (Square(NO_MOVE), -INF);
        for i in 0..list.len {
            if i > 0 && list.len - i >= 2 && team.waiting.load(Ordering::Relaxed) > 0 {
                let rest = (i..list.len).map(|j| list.pick(j)).collect();
                best = self.offer(k, (p, o, n), rest, (alpha, beta), best, team);
                break;
            }
            let (sq, f) = list.pick(i);
            let (np, no) = after(p, o, sq, f);
            let v = if i == 0 {
                -self.helped(k, np, no, -beta, -alpha, n - 1, team)
            } else {
                let v = -self.helped(k, np, no, -alpha - 1, -alpha, n - 1, team);
                if v > alpha && v < beta {
                    -self.helped(k, np, no, -beta, -alpha, n - 1, team)
                } else {
                    v
                }
            };
            if v > best.1 {
                best = (Square(sq), v);
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        debug_assert!(n >= TT_MIN);
        if !self.stopped {
            let (lo, up) = bounds(best.1, entry_alpha, beta);
            self.table.store(p, o, n, self.level, lo, up, best.0 .0);
        }
        best.1
    }

    /// Offers the younger moves `rest` of `node` (mover, opponent,
    /// empties) to the team as a job, takes a share of them, and waits for
    /// the others: the best move and score, `best` being the eldest's.
    fn offer<'p, K: SolverKernel>(
        &mut self,
        k: K,
        node: (u64, u64, u32),
        rest: Vec<(u8, u64)>,
        window: (i32, i32),
        best: (Square, i32),
        team: &Team<'p>,
    ) -> (Square, i32) {
        let job = Arc::new(Job::new(node, rest, window, best, self.nodes, None));
        team.jobs().push(Arc::clone(&job));
        self.take_moves(k, &job, team);
        self.wait_for(k, &job, team);
        team.jobs().retain(|j| !Arc::ptr_eq(j, &job));
        let s = job.state();
        self.nodes = s.nodes;
        s.best
    }
}
