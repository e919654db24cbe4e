//! The fast exact solver of (n,k)-Ring Treblecross.
//!
//! # The method
//!
//! Values are win/loss (or 0 when N < K, where nobody can ever make a run),
//! so a position only needs "does the side to move win?". Three facts
//! reduce the game:
//!
//! 1. A position with a run is over: the side that just moved won.
//! 2. If some empty cell completes a run, the side to move wins (and its
//!    winning moves are exactly those cells: any other move leaves the cell
//!    to the opponent).
//! 3. Otherwise the position is *quiet*. Call a move *unsafe* when it leaves
//!    a completing cell: the opponent then wins at once. In terms of the N
//!    windows of K consecutive cells, a move on `c` is safe exactly when
//!    every window holding `c` has at least 3 empty cells; such cells are
//!    *live*. So play is the impartial game "fill a live cell", and whoever
//!    has no live cell loses (normal play). A cell that is not live never
//!    becomes live again (the blocking window only fills further), so
//!    Sprague-Grundy theory applies: the side to move in a quiet position
//!    wins iff its Grundy value is not 0.
//!
//! Two live cells interact only when some window holds both, that is when
//! they are less than K apart around the ring. The live cells therefore
//! split into *components* (maximal arcs where consecutive live cells are
//! less than K apart) that are independent games: the Grundy value of the
//! position is the XOR of the components' values.
//!
//! - **K = 3** has a closed form (`strips.rs`). In a quiet position the X
//!   stand at least 3 apart and the live cells of a gap of `g` empty cells
//!   between two X are its `max(0, g - 4)` middle cells; filling one kills
//!   it and its two neighbours on each side. That is the octal game 0.007
//!   (Treblecross on a strip), whose Grundy values by strip length come
//!   from a table shipped with the crate up to length 1,000,000 (computed
//!   once by the same `mex` recurrence that extends it beyond). Every
//!   successor of a root is then valued in O(1) by adjusting the XOR of
//!   the gaps.
//! - **Any K** (used for K != 3): a component is described by its cells
//!   from K-1 before its first live cell to K-1 after its last one (each
//!   cell X, live or dead-empty), which holds every window that matters
//!   (`components.rs`). Component Grundy values are memoised on that
//!   description, canonical under reflection, as bit masks (`masks.rs`) when
//!   it fits in 128 cells. When the live cells wrap around the whole ring
//!   (no gap of K or more between consecutive live cells) the position is
//!   one component that cannot be cut: its win/loss is found by search over
//!   live cells (`quiet.rs`), memoised on the ring canonical under rotation
//!   and reflection (one 128-bit mask for N up to 127 - (K - 1)); children
//!   already known lost are tried first, then children already cut into
//!   components (fewest live cells first), then those that still wrap.
//!
//! A lost (or drawn) position needs no search of its children: every child
//! is won (drawn) by the opponent, and the first-best successor is the first
//! empty cell.
//!
//! Every result is checked against plain minimax of
//! [`super::RingTreblecross`] in the tests (all positions, N <= 12, K 1..=5,
//! both sides to move).

mod components;
mod masks;
mod quiet;
mod strips;
#[cfg(test)]
mod tests;

use super::{completes, has_run, Ring};
use crate::game::{Side, Value};
use crate::hash::FastHashMap;
use masks::{Component, Description};
use strips::StripTable;

/// The game-theoretic outcome of a ring position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingOutcome {
    /// The side to move wins with perfect play.
    MoverWins,
    /// The side to move loses with perfect play (also: a run already stands).
    MoverLoses,
    /// Nobody can win: N < K.
    Draw,
}

impl RingOutcome {
    /// The value from MAX's point of view when `mover` is to move.
    #[must_use]
    pub const fn value(self, mover: Side) -> Value {
        let v = match self {
            RingOutcome::MoverWins => 1,
            RingOutcome::MoverLoses => -1,
            RingOutcome::Draw => 0,
        };
        match mover {
            Side::Max => v,
            Side::Min => -v,
        }
    }

    /// The outcome of every child of a position whose own outcome is
    /// `self` and that is not won by its mover: a lost position's children
    /// are all won by the next mover, a drawn one's are all drawn.
    const fn of_children_when_not_won(self) -> RingOutcome {
        match self {
            RingOutcome::Draw => RingOutcome::Draw,
            _ => RingOutcome::MoverWins,
        }
    }
}

/// How many positions the memos of a [`RingSolver`] hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoSizes {
    /// Quiet rings whose live cells wrap the whole ring (searched for win/loss).
    pub wrapping_rings: usize,
    /// Components (Grundy values and single win/loss searches).
    pub components: usize,
    /// K = 3: strip lengths whose Grundy value is known.
    pub strip_lengths: usize,
}

/// The most entries the memos of a [`RingSolver`] hold together (about
/// 200 bytes each with the tables' slack): past it they are cleared and
/// refilled, so a search that runs for hours (K != 3 on a large ring) stays
/// within a few hundred megabytes. Every answer within the bounds of
/// README.md needs under 400,000 entries.
pub const MEMO_LIMIT: usize = 1 << 20;

/// The exact solver for one ring size and run length; it keeps its tables
/// and memos between calls, so reuse it for many positions.
///
/// ```
/// use reversi::game::Side;
/// use reversi::treblecross::{Ring, RingOutcome, RingSolver};
/// // 10 cells, runs of 3, an X on cell 5, MAX to move: filling cell 0 wins
/// // (the first winning cell), every other move loses.
/// let mut solver = RingSolver::new(10, 3);
/// let ring = Ring::new(10, &[5], Side::Max);
/// assert_eq!(solver.best(&ring), Some((0, 1)));
/// let values = solver.successor_values(&ring);
/// assert_eq!(values.iter().filter(|&&(_, v)| v == 1).count(), 1);
/// // Any size: K = 3 on an empty ring of a million cells.
/// let mut big = RingSolver::new(1_000_000, 3);
/// let outcome = big.outcome(&vec![false; 1_000_000]);
/// assert_ne!(outcome, RingOutcome::Draw);
/// ```
#[derive(Debug)]
pub struct RingSolver {
    n: usize,
    k: usize,
    /// K = 3: Grundy values of Treblecross strips by length.
    strips: StripTable,
    /// Quiet positions whose live cells wrap the ring: does the mover win?
    rings: FastHashMap<Vec<u64>, bool>,
    /// The same for rings of at most 128 - (k - 1) cells, by canonical X mask.
    ring_bits: FastHashMap<u128, bool>,
    /// Grundy values of components, by canonical description.
    components: FastHashMap<Description, u32>,
    /// The same for descriptions of at most 128 cells, as bit masks.
    small: FastHashMap<Component, u32>,
    /// Single components (bit masks) solved for win/loss only.
    single: FastHashMap<Component, bool>,
    /// Use the K = 3 closed form and the bit masks (off only in tests, to
    /// check the general path against them).
    fast: bool,
    /// [`MEMO_LIMIT`] (smaller in tests, to check that clearing the memos
    /// changes no answer).
    memo_limit: usize,
}

impl RingSolver {
    /// A solver for rings of `n` cells and runs of `k` (both at least 1).
    #[must_use]
    pub fn new(n: usize, k: usize) -> RingSolver {
        RingSolver {
            n,
            k,
            strips: StripTable::default(),
            rings: FastHashMap::default(),
            ring_bits: FastHashMap::default(),
            components: FastHashMap::default(),
            small: FastHashMap::default(),
            single: FastHashMap::default(),
            fast: true,
            memo_limit: MEMO_LIMIT,
        }
    }

    /// How many positions the memos hold.
    #[must_use]
    pub fn memo_sizes(&self) -> MemoSizes {
        MemoSizes {
            wrapping_rings: self.rings.len() + self.ring_bits.len(),
            components: self.components.len() + self.small.len() + self.single.len(),
            strip_lengths: self.strips.len(),
        }
    }

    /// Clears every memo once they hold `memo_limit` entries (they are
    /// caches: answers stay exact, only slower). Called before each insert.
    fn make_room(&mut self) {
        let held = self.rings.len()
            + self.ring_bits.len()
            + self.components.len()
            + self.small.len()
            + self.single.len();
        if held >= self.memo_limit {
            // New maps rather than `clear`, which would keep the capacity.
            self.rings = FastHashMap::default();
            self.ring_bits = FastHashMap::default();
            self.components = FastHashMap::default();
            self.small = FastHashMap::default();
            self.single = FastHashMap::default();
        }
    }

    /// The outcome for the side to move of the ring `cells` (`true` = X).
    ///
    /// # Panics
    /// If `cells` does not have the solver's `n` cells.
    pub fn outcome(&mut self, cells: &[bool]) -> RingOutcome {
        assert_eq!(cells.len(), self.n, "ring size");
        if self.n < self.k {
            return RingOutcome::Draw;
        }
        if has_run(cells, self.k) {
            return RingOutcome::MoverLoses;
        }
        // n >= k and no run: the ring is not full.
        if (0..self.n).any(|c| !cells[c] && completes(cells, self.k, c)) {
            return RingOutcome::MoverWins;
        }
        if self.quiet_wins(cells) {
            RingOutcome::MoverWins
        } else {
            RingOutcome::MoverLoses
        }
    }

    /// The exact value (MAX's point of view) of `state`.
    pub fn value(&mut self, state: &Ring) -> Value {
        self.outcome(&state.cells).value(state.to_move)
    }

    /// The exact value of the position after each empty cell of `state`, in
    /// index order, even when `state` itself is over (a run stands).
    pub fn successor_values(&mut self, state: &Ring) -> Vec<(usize, Value)> {
        let next = state.to_move.other();
        // A lost (or drawn) position: every child is won (drawn) by the
        // next mover, so the root's outcome values them all.
        let root = self.outcome(&state.cells);
        if root != RingOutcome::MoverWins && !has_run(&state.cells, self.k) {
            let child = root.of_children_when_not_won();
            return state
                .empty_cells()
                .map(|c| (c, child.value(next)))
                .collect();
        }
        self.child_outcomes(&state.cells, false)
            .into_iter()
            .map(|(c, o)| (c, o.value(next)))
            .collect()
    }

    /// The first successor (in index order) with the best value for the side
    /// to move, and that value; `None` when `state` is over (a run stands or
    /// the ring is full).
    pub fn best(&mut self, state: &Ring) -> Option<(usize, Value)> {
        if has_run(&state.cells, self.k) {
            return None;
        }
        let next = state.to_move.other();
        // A lost (or drawn) position: every child has the same value, so the
        // first one is the first best.
        let root = self.outcome(&state.cells);
        if root != RingOutcome::MoverWins {
            let child = root.of_children_when_not_won();
            return state.empty_cells().next().map(|c| (c, child.value(next)));
        }
        let children = self.child_outcomes(&state.cells, true);
        // The best child is the first one where the next mover loses, else
        // (every child is a draw or a loss for the mover) the first one.
        let pick = children
            .iter()
            .find(|(_, o)| *o == RingOutcome::MoverLoses)
            .or_else(|| children.first())?;
        Some((pick.0, pick.1.value(next)))
    }

    /// The outcome of every child (for its side to move), in index order;
    /// with `stop_at_win`, stops after the first child the parent's mover wins.
    fn child_outcomes(&mut self, cells: &[bool], stop_at_win: bool) -> Vec<(usize, RingOutcome)> {
        let (n, k) = (self.n, self.k);
        let empties: Vec<usize> = (0..n).filter(|&c| !cells[c]).collect();
        if n < k {
            return empties
                .into_iter()
                .map(|c| (c, RingOutcome::Draw))
                .collect();
        }
        if has_run(cells, k) {
            // Every child still holds the run: its mover has lost.
            return empties
                .into_iter()
                .map(|c| (c, RingOutcome::MoverLoses))
                .collect();
        }
        let winning: Vec<bool> = (0..n)
            .map(|c| !cells[c] && completes(cells, k, c))
            .collect();
        if winning.iter().any(|&w| w) {
            // Completing cells win; any other move leaves one to the opponent.
            let mut out = Vec::new();
            for c in empties {
                let o = if winning[c] {
                    RingOutcome::MoverLoses
                } else {
                    RingOutcome::MoverWins
                };
                out.push((c, o));
                if stop_at_win && winning[c] {
                    break;
                }
            }
            return out;
        }
        if k == 3 && self.fast {
            return self.quiet_children_k3(cells);
        }
        let mut out = Vec::new();
        let mut child = cells.to_vec();
        for c in empties {
            child[c] = true;
            let o = self.outcome(&child);
            child[c] = false;
            out.push((c, o));
            if stop_at_win && o == RingOutcome::MoverLoses {
                break;
            }
        }
        out
    }

    /// Whether the side to move wins the quiet position `cells` (n >= k, no
    /// run, no completing cell): its Grundy value is not 0.
    fn quiet_wins(&mut self, cells: &[bool]) -> bool {
        if self.k == 3 && self.fast {
            return self.quiet_grundy_k3(cells) != 0;
        }
        let q = self.analyse(cells);
        self.solve(cells, q)
    }
}
