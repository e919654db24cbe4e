//! The study's engine search: alpha-beta (or minimax) on
//! [`Reversi::DISC_DIFFERENCE`] with move ordering and iterative deepening,
//! stoppable by a deadline.
//!
//! It searches the same tree as the library's counted searches (a pass is a
//! ply; at the depth bound a position gets the evaluation; a finished game
//! its final disc difference) and counts every visited state, so at the same
//! depth it finds the same value. With [`MoveOrder::Natural`] and a single
//! iteration it visits exactly the nodes of [`crate::search::alphabeta_with`].

use crate::board::{Color, Square};
use crate::game::{Evaluator, Game, Side, Value, INFINITY};
use crate::hash::FastHashMap;
use crate::reversi::{Move, Position, Reversi};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Instant;

/// The order in which successors are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// The game's canonical order (reading order of the squares).
    Natural,
    /// Best first: the best move of the previous iteration at this position,
    /// then corners, then moves that leave the opponent the fewest replies;
    /// squares next to empty corners last.
    Best,
}

/// What one engine search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The value of the deepest finished iteration (black's point of view).
    pub value: Value,
    /// Its first best move; `None` at a terminal root.
    pub best: Option<Move>,
    /// States visited, over all iterations (the stopped one included).
    pub nodes: u64,
    /// The depth of the deepest finished iteration.
    pub depth: u32,
}

/// The settings of an iterative search: successor order, pruning and the
/// evaluation at the depth bound.
///
/// ```
/// use reversi::engine::iterative::{IterativeSearch, MoveOrder, SearchMemory};
/// use reversi::eval::Heuristic;
/// use reversi::reversi::Position;
/// let search = IterativeSearch { order: MoveOrder::Best, prune: true, eval: Heuristic::Strong };
/// let mut memory = SearchMemory::default();
/// // Depths 1, 2, ... 4 (a deadline could stop it sooner).
/// let found = search.deepen_in(&Position::start(8), Some(4), None, &mut memory);
/// assert_eq!(found.depth, 4);
/// assert!(found.best.is_some());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct IterativeSearch<E> {
    /// Successor order.
    pub order: MoveOrder,
    /// Prune (alpha-beta) or not (minimax).
    pub prune: bool,
    /// The evaluation at the depth bound.
    pub eval: E,
}

/// What the table remembers of a searched position.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Plies that were left below it.
    remaining: u32,
    /// Bounds on its value for that many plies.
    lower: Value,
    upper: Value,
    /// Its best move.
    best: Option<Move>,
    /// Whether every line below it reached the end of the game.
    complete: bool,
}

type Table = FastHashMap<Position, Entry>;

/// What an engine remembers between searches of one game: the best move
/// and value bounds of searched positions (used with [`MoveOrder::Best`]).
#[derive(Default)]
pub struct SearchMemory(Table);

impl std::fmt::Debug for SearchMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SearchMemory({} positions)", self.0.len())
    }
}

impl SearchMemory {
    /// Forgets everything once the table is full.
    fn trim(&mut self) {
        if self.0.len() >= TABLE_LIMIT {
            self.0.clear();
        }
    }
}

/// The most positions the table holds (about 100 bytes each, with the hash table's slack).
const TABLE_LIMIT: usize = 1 << 20;

struct Run<'a, E> {
    table: &'a mut Table,
    engine: &'a IterativeSearch<E>,
    game: Reversi,
    depth: u32,
    nodes: u64,
    deadline: Option<Instant>,
    /// Set by another thread to stop the search (read with the clock).
    stop: Option<&'a AtomicBool>,
    /// Whether `stop` is read in this iteration (not in the first).
    stoppable: bool,
    stopped: bool,
    /// Whether some line stopped at the depth bound (else the game was
    /// searched to its end and deeper iterations change nothing).
    horizon: bool,
}

/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 256;

impl<E: Evaluator<Reversi>> IterativeSearch<E> {
    /// One search to `depth` plies without iterative deepening (and without a
    /// deadline).
    pub fn fixed(&self, root: &Position, depth: u32) -> Found {
        self.fixed_in(root, depth, &mut SearchMemory::default())
    }

    /// [`IterativeSearch::fixed`] remembering best moves and bounds in `memory`
    /// (which may hold what earlier searches of the same game found).
    pub fn fixed_in(&self, root: &Position, depth: u32, memory: &mut SearchMemory) -> Found {
        memory.trim();
        let mut run = self.run(&mut memory.0);
        run.depth = depth;
        let (value, best) = run.value(root, 0, -INFINITY, INFINITY);
        Found {
            value,
            best,
            nodes: run.nodes,
            depth,
        }
    }

    /// Iterative deepening: depths 1, 2, ... up to `max_depth` (or until the
    /// game is searched to its end), stopped at `deadline` if given. Returns
    /// the result of the deepest finished iteration; depth 1 always finishes.
    pub fn deepen(
        &self,
        root: &Position,
        max_depth: Option<u32>,
        deadline: Option<Instant>,
    ) -> Found {
        self.deepen_in(root, max_depth, deadline, &mut SearchMemory::default())
    }

    /// [`IterativeSearch::deepen`] with a [`SearchMemory`] kept between searches.
    pub fn deepen_in(
        &self,
        root: &Position,
        max_depth: Option<u32>,
        deadline: Option<Instant>,
        memory: &mut SearchMemory,
    ) -> Found {
        self.deepen_stoppable(root, max_depth, deadline, None, memory)
    }

    /// [`IterativeSearch::deepen_in`] that also stops, like at the
    /// deadline, once `stop` is set (by another thread: a protocol loop
    /// that must answer at once). Depth 1 always finishes.
    pub fn deepen_stoppable(
        &self,
        root: &Position,
        max_depth: Option<u32>,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
        memory: &mut SearchMemory,
    ) -> Found {
        memory.trim();
        if deadline.is_some() && self.order == MoveOrder::Best && memory.0.capacity() < TABLE_LIMIT
        {
            // Never grow the table (a rehash of a million entries) against the clock.
            memory.0.reserve(TABLE_LIMIT);
        }
        let mut run = self.run(&mut memory.0);
        run.stop = stop;
        let mut found = Found {
            value: 0,
            best: None,
            nodes: 0,
            depth: 0,
        };
        let max = max_depth.unwrap_or(u32::MAX).max(1);
        for depth in 1..=max {
            if depth > 1 && stop.is_some_and(|s| s.load(AtomicOrdering::Relaxed)) {
                // Stopped between iterations (a small tree may never reach
                // the in-search check).
                break;
            }
            run.depth = depth;
            run.horizon = false;
            run.deadline = if depth > 1 { deadline } else { None };
            run.stoppable = depth > 1;
            let (value, best) = run.value(root, 0, -INFINITY, INFINITY);
            if run.stopped {
                break;
            }
            found = Found {
                value,
                best,
                nodes: 0,
                depth,
            };
            if !run.horizon {
                break;
            }
        }
        found.nodes = run.nodes;
        found
    }

    fn run<'a>(&'a self, table: &'a mut Table) -> Run<'a, E> {
        Run {
            engine: self,
            game: Reversi::DISC_DIFFERENCE,
            depth: 0,
            nodes: 0,
            deadline: None,
            stop: None,
            stoppable: false,
            stopped: false,
            horizon: false,
            table,
        }
    }
}

/// The ordering key of a move (smaller first).
fn order_key(child: &Position, mv: Move) -> i32 {
    let Move::Place(sq) = mv else { return 0 };
    let b = &child.board;
    let n = b.size();
    let (r, c) = (sq.row(), sq.col());
    let edge = |x: u8| x == 0 || x == n - 1;
    let near = |x: u8| x <= 1 || x >= n - 2;
    let mut key = 10 * b.moves(child.to_move).count_ones() as i32;
    if edge(r) && edge(c) {
        key -= 1000;
    } else if near(r) && near(c) {
        // Next to a corner: bad unless that corner is taken.
        let cr = if r <= 1 { 0 } else { n - 1 };
        let cc = if c <= 1 { 0 } else { n - 1 };
        if b.get(Square::new(cr, cc)).is_none() {
            key += if edge(r) || edge(c) { 200 } else { 500 };
        }
    }
    key
}

/// A successor in the order the search tries it: its ordering key, its
/// index in the game's canonical order, the move and the position.
type Child = (i32, usize, Move, Position);

/// The best value of a node and its first move reaching it, with that
/// move's canonical index (`usize::MAX` before any move was searched).
#[derive(Clone, Copy)]
struct Best {
    value: Value,
    mv: Option<Move>,
    index: usize,
}

impl<E: Evaluator<Reversi>> Run<'_, E> {
    /// The value of `p` searched `self.depth - ply` more plies within
    /// `(alpha, beta)`, and its best move. After a stop (`self.stopped`) the
    /// result is meaningless and every caller returns at once.
    fn value(
        &mut self,
        p: &Position,
        ply: u32,
        alpha: Value,
        beta: Value,
    ) -> (Value, Option<Move>) {
        self.nodes += 1;
        if self.out_of_time() {
            return (0, None);
        }
        let mut moves = self.game.moves(p).peekable();
        if moves.peek().is_none() {
            return (self.engine.eval.finished(&self.game, p), None);
        }
        if ply == self.depth {
            self.horizon = true;
            return (self.engine.eval.evaluate(&self.game, p), None);
        }
        let remaining = self.depth - ply;
        let ordered = self.engine.order == MoveOrder::Best;
        let mut hashed = None;
        if ordered {
            match self.probe(p, ply, remaining, alpha, beta) {
                Probe::Answer(v, mv) => return (v, mv),
                Probe::Hint(mv) => hashed = mv,
            }
        }
        let horizon_above = std::mem::replace(&mut self.horizon, false);
        let mut children: Vec<Child> = moves
            .enumerate()
            .map(|(i, m)| (0, i, m, self.game.play(p, m)))
            .collect();
        if ordered && children.len() > 1 {
            self.order(p, remaining, hashed, &mut children);
        }
        let Some(mut best) = self.search_children(p, ply, alpha, beta, &children) else {
            return (0, None);
        };
        if ordered && ply == 0 && self.engine.prune {
            children.sort_by_key(|ch| ch.1);
            let Some(first) = self.first_best_at_root(p, best, &children) else {
                return (0, None);
            };
            best.mv = first;
        }
        if ordered && self.engine.prune {
            self.store(p, remaining, (alpha, beta), best);
        }
        self.horizon |= horizon_above;
        (best.value, best.mv)
    }

    /// Reads the clock and the stop flag every [`CLOCK_EVERY`] nodes;
    /// whether the search is stopped.
    fn out_of_time(&mut self) -> bool {
        if self.nodes.is_multiple_of(CLOCK_EVERY) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            if let Some(stop) = self.stop.filter(|_| self.stoppable) {
                if stop.load(AtomicOrdering::Relaxed) {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// What the table knows of `p`: a value that answers the search of this
    /// node (the same position with the same plies left is the same subtree),
    /// or else the best move found earlier, to try first.
    fn probe(
        &mut self,
        p: &Position,
        ply: u32,
        remaining: u32,
        alpha: Value,
        beta: Value,
    ) -> Probe {
        let Some(e) = self.table.get(p) else {
            return Probe::Hint(None);
        };
        if ply > 0 && e.remaining == remaining && self.engine.prune {
            let answer = if e.lower == e.upper || e.lower >= beta {
                Some(e.lower)
            } else if e.upper <= alpha {
                Some(e.upper)
            } else {
                None
            };
            if let Some(v) = answer {
                self.horizon |= !e.complete;
                return Probe::Answer(v, e.best);
            }
        }
        Probe::Hint(e.best)
    }

    /// Sorts `children` best first for the side to move: the stored best
    /// move, then the child's static evaluation, then corners / few replies.
    fn order(&self, p: &Position, remaining: u32, hashed: Option<Move>, children: &mut [Child]) {
        let sign = match p.to_move {
            Color::Black => -1,
            Color::White => 1,
        };
        for ch in children.iter_mut() {
            let e = sign * self.engine.eval.evaluate(&self.game, &ch.3);
            ch.0 = if remaining == 1 {
                // The children are leaves: their evaluations are their values.
                e
            } else if Some(ch.2) == hashed {
                i32::MIN
            } else {
                10 * e + order_key(&ch.3, ch.2)
            };
        }
        children.sort_by_key(|ch| ch.0);
    }

    /// Searches `children` in their order within `(alpha, beta)` (cutting
    /// off when pruning); `None` if the search was stopped.
    fn search_children(
        &mut self,
        p: &Position,
        ply: u32,
        mut alpha: Value,
        mut beta: Value,
        children: &[Child],
    ) -> Option<Best> {
        let ordered = self.engine.order == MoveOrder::Best;
        let side = self.game.side(p);
        let mut best = Best {
            value: match side {
                Side::Max => -INFINITY,
                Side::Min => INFINITY,
            },
            mv: None,
            index: usize::MAX,
        };
        for &(_, index, m, ref child) in children {
            let (v, _) = self.value(child, ply + 1, alpha, beta);
            if self.stopped {
                return None;
            }
            // Minimax values are exact: keep the canonical first best.
            let tie = ordered && !self.engine.prune && v == best.value && index < best.index;
            let better = match side {
                Side::Max => v > best.value,
                Side::Min => v < best.value,
            };
            if better || tie {
                best = Best {
                    value: v,
                    mv: Some(m),
                    index,
                };
            }
            match side {
                Side::Max => alpha = alpha.max(best.value),
                Side::Min => beta = beta.min(best.value),
            }
            if self.engine.prune && alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    /// The root returns the first best move in canonical order, as the
    /// counted searches do: each move before the best one (`children` in
    /// canonical order) is tested with a null window for a tie (usually
    /// answered at once by the table's bound from the first pass). `None` if
    /// the search was stopped.
    fn first_best_at_root(
        &mut self,
        p: &Position,
        best: Best,
        children: &[Child],
    ) -> Option<Option<Move>> {
        let side = self.game.side(p);
        for &(_, index, m, ref child) in children {
            if index >= best.index {
                break;
            }
            let (lo, hi) = match side {
                Side::Max => (best.value - 1, best.value),
                Side::Min => (best.value, best.value + 1),
            };
            let (v, _) = self.value(child, 1, lo, hi);
            if self.stopped {
                return None;
            }
            let as_good = match side {
                Side::Max => v >= best.value,
                Side::Min => v <= best.value,
            };
            if as_good {
                return Some(Some(m));
            }
        }
        Some(best.mv)
    }

    /// Remembers what the search of `p` within `window` found: fail-soft
    /// bounds (at most alpha is an upper bound, at least beta a lower bound,
    /// in between exact), unless the table is full.
    fn store(&mut self, p: &Position, remaining: u32, (alpha, beta): (Value, Value), best: Best) {
        if self.table.len() >= TABLE_LIMIT && !self.table.contains_key(p) {
            return;
        }
        let (lower, upper) = if best.value <= alpha {
            (-INFINITY, best.value)
        } else if best.value >= beta {
            (best.value, INFINITY)
        } else {
            (best.value, best.value)
        };
        self.table.insert(
            *p,
            Entry {
                remaining,
                lower,
                upper,
                best: best.mv,
                complete: !self.horizon,
            },
        );
    }
}

/// What the table says about a node before it is searched.
enum Probe {
    /// Its value (and best move) for this search: no need to search it.
    Answer(Value, Option<Move>),
    /// The best move an earlier search found, if any.
    Hint(Option<Move>),
}

#[cfg(test)]
mod tests;
