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
//! - **K = 3** has a closed form. In a quiet position the X stand at least
//!   3 apart and the live cells of a gap of `g` empty cells between two X
//!   are its `max(0, g - 4)` middle cells; filling one kills it and its two
//!   neighbours on each side. That is the octal game 0.007 (Treblecross on a
//!   strip), whose Grundy values for every strip length up to N come from
//!   one O(N²) table (`mex` over the split points). Every successor of a
//!   root is then valued in O(1) by adjusting the XOR of the gaps.
//! - **Any K** (used for K != 3): a component is described by its cells
//!   from K-1 before its first live cell to K-1 after its last one (each
//!   cell X, live or dead-empty), which holds every window that matters.
//!   Component Grundy values are memoised on that description, canonical
//!   under reflection. When the live cells wrap around the whole ring (no
//!   gap of K or more between consecutive live cells) the position is one
//!   component that cannot be cut: its win/loss is found by search over live
//!   cells, memoised on the ring canonical under rotation and reflection
//!   (one 128-bit mask for N up to 127 - (K - 1)); children already known
//!   lost are tried first, then children already cut into components
//!   (fewest live cells first), then those that still wrap.
//!
//! A lost (or drawn) position needs no search of its children: every child
//! is won (drawn) by the opponent, and the first-best successor is the first
//! empty cell.
//!
//! Every result is checked against plain minimax of
//! [`super::RingTreblecross`] in the tests (all positions, N <= 12, K 2..=5,
//! both sides to move).

use super::{completes, has_run, Ring};
use crate::game::{Side, Value};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The game-theoretic outcome of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins with perfect play.
    MoverWins,
    /// The side to move loses with perfect play (also: a run already stands).
    MoverLoses,
    /// Nobody can win: N < K.
    Draw,
}

impl Outcome {
    /// The value from MAX's point of view when `mover` is to move.
    #[must_use]
    pub const fn value(self, mover: Side) -> Value {
        let v = match self {
            Outcome::MoverWins => 1,
            Outcome::MoverLoses => -1,
            Outcome::Draw => 0,
        };
        match mover {
            Side::Max => v,
            Side::Min => -v,
        }
    }
}

/// A quiet position cut into what the solver needs.
#[derive(Debug)]
enum Quiet {
    /// No live cell: the mover loses.
    NoMoves,
    /// One component around the whole ring: its canonical key and live cells.
    Wrapping(Vec<u64>, Vec<usize>),
    /// The same on a ring of at most 128 - (k - 1) cells as bit masks: the
    /// canonical X mask (under rotation and reflection) and the X and live
    /// masks.
    WrapBits(u128, u128, u128),
    /// Components as canonical bit masks, sorted, equal pairs cancelled.
    Bits(Vec<(u32, u128, u128)>),
    /// Components too long for bit masks.
    Descs(Vec<Vec<u8>>),
}

/// Symbols of a component description.
const DEAD: u8 = 0;
const X: u8 = 1;
const LIVE: u8 = 2;

/// The exact solver for one ring size and run length; it keeps its tables
/// and memos between calls, so reuse it for many positions.
#[derive(Debug)]
pub struct Solver {
    n: usize,
    k: usize,
    /// K = 3: Grundy values of Treblecross strips by length (filled lazily).
    strips: Vec<u32>,
    /// Quiet positions whose live cells wrap the ring: does the mover win?
    rings: HashMap<Vec<u64>, bool, Fx>,
    /// The same for rings of at most 128 - (k - 1) cells, by canonical X mask.
    ring_bits: HashMap<u128, bool, Fx>,
    /// Grundy values of components, by canonical description.
    components: HashMap<Vec<u8>, u32, Fx>,
    /// The same for descriptions of at most 128 cells, as bit masks
    /// (length, X cells, live cells).
    small: HashMap<(u32, u128, u128), u32, Fx>,
    /// Single components (bit masks) solved for win/loss only.
    single: HashMap<(u32, u128, u128), bool, Fx>,
    /// Use the K = 3 closed form and the bit masks (off only in tests, to
    /// check the general path against them).
    fast: bool,
}

/// A small fast hasher (multiply-rotate) for the memo keys.
#[derive(Clone, Copy, Debug, Default)]
struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_u128(&mut self, v: u128) {
        self.add(v as u64);
        self.add((v >> 64) as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

type Fx = BuildHasherDefault<FxHasher>;

impl Solver {
    /// A solver for rings of `n` cells and runs of `k` (both at least 1).
    #[must_use]
    pub fn new(n: usize, k: usize) -> Solver {
        Solver {
            n,
            k,
            strips: Vec::new(),
            rings: HashMap::default(),
            ring_bits: HashMap::default(),
            components: HashMap::default(),
            small: HashMap::default(),
            single: HashMap::default(),
            fast: true,
        }
    }

    /// How many positions the memos hold: (wrapping rings, components, K=3 strip lengths).
    #[must_use]
    pub fn memo_sizes(&self) -> (usize, usize, usize) {
        (
            self.rings.len() + self.ring_bits.len(),
            self.components.len() + self.small.len() + self.single.len(),
            self.strips.len(),
        )
    }

    /// The outcome for the side to move of the ring `cells` (`true` = X).
    ///
    /// # Panics
    /// If `cells` does not have the solver's `n` cells.
    pub fn outcome(&mut self, cells: &[bool]) -> Outcome {
        assert_eq!(cells.len(), self.n, "ring size");
        if self.n < self.k {
            return Outcome::Draw;
        }
        if has_run(cells, self.k) {
            return Outcome::MoverLoses;
        }
        // n >= k and no run: the ring is not full.
        if (0..self.n).any(|c| !cells[c] && completes(cells, self.k, c)) {
            return Outcome::MoverWins;
        }
        if self.quiet_wins(cells) {
            Outcome::MoverWins
        } else {
            Outcome::MoverLoses
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
        if root != Outcome::MoverWins && !has_run(&state.cells, self.k) {
            let o = match root {
                Outcome::Draw => Outcome::Draw,
                _ => Outcome::MoverWins,
            };
            return state.empty_cells().map(|c| (c, o.value(next))).collect();
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
        match self.outcome(&state.cells) {
            Outcome::MoverWins => {}
            o => {
                let child = if o == Outcome::Draw {
                    Outcome::Draw
                } else {
                    Outcome::MoverWins
                };
                return state.empty_cells().next().map(|c| (c, child.value(next)));
            }
        }
        let children = self.child_outcomes(&state.cells, true);
        // The best child is the first one where the next mover loses, else
        // (every child is a draw or a loss for the mover) the first one.
        let pick = children
            .iter()
            .find(|(_, o)| *o == Outcome::MoverLoses)
            .or_else(|| children.first())?;
        Some((pick.0, pick.1.value(next)))
    }

    /// The outcome of every child (for its side to move), in index order;
    /// with `stop_at_win`, stops after the first child the parent's mover wins.
    fn child_outcomes(&mut self, cells: &[bool], stop_at_win: bool) -> Vec<(usize, Outcome)> {
        let (n, k) = (self.n, self.k);
        let empties: Vec<usize> = (0..n).filter(|&c| !cells[c]).collect();
        if n < k {
            return empties.into_iter().map(|c| (c, Outcome::Draw)).collect();
        }
        if has_run(cells, k) {
            // Every child still holds the run: its mover has lost.
            return empties
                .into_iter()
                .map(|c| (c, Outcome::MoverLoses))
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
                    Outcome::MoverLoses
                } else {
                    Outcome::MoverWins
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
            if stop_at_win && o == Outcome::MoverLoses {
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

    /// The live cells of a quiet position (n >= k, k != 3 or general path)
    /// and their components.
    fn analyse(&self, cells: &[bool]) -> Quiet {
        if self.fast && self.n + self.k - 1 <= 128 {
            let x = cells
                .iter()
                .enumerate()
                .fold(0u128, |m, (i, &c)| m | u128::from(c) << i);
            return self.analyse_bits(x);
        }
        let live = live_cells(cells, self.k);
        if live.is_empty() {
            return Quiet::NoMoves;
        }
        let Some(comps) = components(&live, self.n, self.k) else {
            return Quiet::Wrapping(canonical_ring(cells), live);
        };
        let mut is_live = vec![false; self.n];
        for &c in &live {
            is_live[c] = true;
        }
        let descs: Vec<Vec<u8>> = comps
            .iter()
            .map(|&(first, last)| self.describe(cells, &is_live, first, last))
            .collect();
        match descs
            .iter()
            .map(|d| self.bits(d))
            .collect::<Option<Vec<_>>>()
        {
            Some(mut parts) => {
                for p in &mut parts {
                    *p = canonical_bits(p.0, p.1, p.2);
                }
                Quiet::Bits(parts)
            }
            None => Quiet::Descs(descs),
        }
    }

    /// [`Self::analyse`] on a ring of at most 128 - (k - 1) cells given by
    /// its X mask.
    fn analyse_bits(&self, x: u128) -> Quiet {
        let (n, k) = (self.n as u32, self.k as u32);
        let live = ring_live_bits(n, k, x);
        if live == 0 {
            return Quiet::NoMoves;
        }
        let full = low_bits(n);
        let not_live = full & !live;
        // Cells starting a run of k - 1 cells that are not live: a cut.
        let mut cuts = not_live;
        for j in 1..k - 1 {
            cuts &= rotate_right(not_live, j, n);
        }
        if cuts == 0 {
            return Quiet::WrapBits(canonical_ring_bits(n, x), x, live);
        }
        // The ring read as a line from a cut, with its first k - 1 cells
        // repeated at the end, so that every component has its k - 1
        // padding cells on both sides.
        let s = cuts.trailing_zeros();
        let xl = rotate_right(x, s, n);
        let xl = xl | (xl & low_bits(k - 1)) << n;
        let mut parts = Vec::new();
        collect_parts(k, xl, rotate_right(live, s, n), &mut parts);
        Self::reduce(&mut parts);
        Quiet::Bits(parts)
    }

    /// The outcome of an analysed quiet position if the memos already hold it.
    fn known(&self, q: &Quiet) -> Option<bool> {
        match q {
            Quiet::NoMoves => Some(false),
            Quiet::Wrapping(key, _) => self.rings.get(key).copied(),
            Quiet::WrapBits(key, _, _) => self.ring_bits.get(key).copied(),
            Quiet::Bits(parts) => {
                match parts.as_slice() {
                    [] => return Some(false),
                    [p] => {
                        return self
                            .small
                            .get(p)
                            .map(|&g| g != 0)
                            .or_else(|| self.single.get(p).copied())
                    }
                    _ => {}
                }
                let mut g = 0;
                for p in parts {
                    g ^= self.small.get(p)?;
                }
                Some(g != 0)
            }
            Quiet::Descs(_) => None,
        }
    }

    /// Whether the mover wins the analysed quiet position `cells`.
    fn solve(&mut self, cells: &[bool], q: Quiet) -> bool {
        match q {
            Quiet::NoMoves => false,
            Quiet::Wrapping(key, live) => self.wrapping_wins(cells, key, &live),
            Quiet::WrapBits(key, x, live) => self.wrapping_wins_bits(key, x, live),
            Quiet::Bits(mut parts) => {
                if let &[(l, x, live)] = parts.as_slice() {
                    return self.component_wins_bits(l, x, live);
                }
                !self.sum_is_zero(&mut parts)
            }
            Quiet::Descs(descs) => {
                let mut g = 0;
                for desc in descs {
                    g ^= self.component_grundy(desc);
                }
                g != 0
            }
        }
    }

    /// The cells of the ring from `k - 1` before `first` to `k - 1` after `last`.
    fn describe(&self, cells: &[bool], is_live: &[bool], first: usize, last: usize) -> Vec<u8> {
        let (n, k) = (self.n, self.k);
        let span = (last + n - first) % n + 1;
        let start = (first + n * k - (k - 1)) % n;
        (0..span + 2 * (k - 1))
            .map(|j| {
                let c = (start + j) % n;
                if cells[c] {
                    X
                } else if is_live[c] {
                    LIVE
                } else {
                    DEAD
                }
            })
            .collect()
    }

    /// A quiet position whose live cells form one component around the
    /// whole ring: search over its live cells, memoised by canonical ring.
    fn wrapping_wins(&mut self, cells: &[bool], key: Vec<u64>, live: &[usize]) -> bool {
        if let Some(&w) = self.rings.get(&key) {
            return w;
        }
        // Moves far from every X first (the middle of the widest gap): the
        // search stops at the first winning move.
        let n = self.n;
        let mut near = vec![n; n];
        for _ in 0..2 {
            let mut d = n;
            for i in (0..n).chain(0..n) {
                d = if cells[i] { 0 } else { (d + 1).min(n) };
                near[i] = near[i].min(d);
            }
            let mut d = n;
            for i in (0..n).rev().chain((0..n).rev()) {
                d = if cells[i] { 0 } else { (d + 1).min(n) };
                near[i] = near[i].min(d);
            }
        }
        let mut order = live.to_vec();
        order.sort_by_key(|&c| std::cmp::Reverse(near[c]));
        let mut child = cells.to_vec();
        let mut children = Vec::with_capacity(order.len());
        for &c in &order {
            child[c] = true;
            let q = self.analyse(&child);
            child[c] = false;
            // A cheap pass over the memos first: a child already known lost.
            if self.known(&q) == Some(false) {
                self.rings.insert(key, true);
                return true;
            }
            children.push((c, q));
        }
        let mut wins = false;
        for (c, q) in children {
            child[c] = true;
            let child_wins = self.solve(&child, q);
            child[c] = false;
            if !child_wins {
                wins = true;
                break;
            }
        }
        self.rings.insert(key, wins);
        wins
    }

    /// [`Self::wrapping_wins`] on bit masks (canonical key, X and live cells).
    fn wrapping_wins_bits(&mut self, key: u128, x: u128, live: u128) -> bool {
        if let Some(&w) = self.ring_bits.get(&key) {
            return w;
        }
        let n = self.n as u32;
        // Moves far from every X first (as in `wrapping_wins`): grow the X
        // cells one step at a time; cells reached last come first.
        let mut order: Vec<u32> = Vec::with_capacity(live.count_ones() as usize);
        let mut reached = x;
        let mut left = live;
        let mut layers: Vec<u128> = Vec::new();
        while left != 0 {
            if reached == 0 {
                layers.push(left);
                break;
            }
            reached |= rotate_right(reached, 1, n) | rotate_right(reached, n - 1, n);
            let fresh = left & reached;
            if fresh != 0 {
                layers.push(fresh);
            }
            left &= !fresh;
        }
        for &layer in layers.iter().rev() {
            let mut m = layer;
            while m != 0 {
                order.push(m.trailing_zeros());
                m &= m - 1;
            }
        }
        let mut children = Vec::with_capacity(order.len());
        for &c in &order {
            let q = self.analyse_bits(x | 1 << c);
            // A cheap pass over the memos first: a child already known lost.
            if self.known(&q) == Some(false) {
                self.ring_bits.insert(key, true);
                return true;
            }
            children.push(q);
        }
        // Children already cut into components first, fewest live cells
        // first: their values come from the component memos; rings that
        // still wrap need more search.
        children.sort_by_key(|q| match q {
            Quiet::WrapBits(..) => (1, 0),
            Quiet::Bits(parts) => (0, parts.iter().map(|p| p.2.count_ones()).sum::<u32>()),
            _ => (0, 0),
        });
        let mut wins = false;
        for q in children {
            if !self.solve(&[], q) {
                wins = true;
                break;
            }
        }
        self.ring_bits.insert(key, wins);
        wins
    }

    /// The bit-mask form of a description, when short enough (and allowed).
    fn bits(&self, desc: &[u8]) -> Option<(u32, u128, u128)> {
        if self.fast {
            to_bits(desc)
        } else {
            None
        }
    }

    /// The Grundy value of one component description (see the module docs).
    fn component_grundy(&mut self, desc: Vec<u8>) -> u32 {
        if let Some((len, x, live)) = self.bits(&desc) {
            return self.component_grundy_bits(len, x, live);
        }
        let rev: Vec<u8> = desc.iter().rev().copied().collect();
        let key = if rev < desc { rev } else { desc };
        if let Some(&g) = self.components.get(&key) {
            return g;
        }
        let k = self.k;
        let mut options = Vec::new();
        for i in 0..key.len() {
            if key[i] != LIVE {
                continue;
            }
            let mut child = key.clone();
            child[i] = X;
            for j in 0..child.len() {
                if child[j] == LIVE && !window_ok(&child, j, k) {
                    child[j] = DEAD;
                }
            }
            let live: Vec<usize> = (0..child.len()).filter(|&j| child[j] == LIVE).collect();
            let mut g = 0;
            let mut from = 0;
            for idx in 0..live.len() {
                if idx + 1 == live.len() || live[idx + 1] - live[idx] >= k {
                    let (first, last) = (live[from], live[idx]);
                    g ^= self.component_grundy(child[first + 1 - k..last + k].to_vec());
                    from = idx + 1;
                }
            }
            options.push(g);
        }
        let g = mex(&mut options);
        self.components.insert(key, g);
        g
    }

    /// [`Self::component_grundy`] on bit masks: cell `i` of a description of
    /// `len <= 128` cells is bit `i` of `x` (an X) or of `live`.
    fn component_grundy_bits(&mut self, len: u32, x: u128, live: u128) -> u32 {
        let key = canonical_bits(len, x, live);
        if let Some(&g) = self.small.get(&key) {
            return g;
        }
        let (_, x, live) = key;
        let mut options = Vec::new();
        let mut parts = Vec::new();
        let mut moves = live;
        while moves != 0 {
            let i = moves.trailing_zeros();
            moves &= moves - 1;
            let mut g = 0;
            split_after(self.k as u32, len, x, live, i, &mut parts);
            for &(l, px, pl) in &parts {
                g ^= self.component_grundy_bits(l, px, pl);
            }
            options.push(g);
        }
        let g = mex(&mut options);
        self.small.insert(key, g);
        g
    }

    /// Canonical forms of the components of a sum, sorted, equal pairs
    /// cancelled (they sum to zero).
    fn reduce(parts: &mut Vec<(u32, u128, u128)>) {
        for p in parts.iter_mut() {
            *p = canonical_bits(p.0, p.1, p.2);
        }
        parts.sort_unstable();
        let mut kept = 0;
        for i in 0..parts.len() {
            if kept > 0 && parts[kept - 1] == parts[i] {
                kept -= 1;
            } else {
                parts[kept] = parts[i];
                kept += 1;
            }
        }
        parts.truncate(kept);
    }

    /// Whether a sum of components has Grundy value 0, when the memos
    /// already tell (no search).
    fn known_zero(&self, parts: &mut Vec<(u32, u128, u128)>) -> Option<bool> {
        Self::reduce(parts);
        match parts.as_slice() {
            [] => Some(true),
            [p] => self
                .small
                .get(p)
                .map(|&g| g == 0)
                .or_else(|| self.single.get(p).map(|&w| !w)),
            _ => {
                let mut g = 0;
                for p in parts.iter() {
                    g ^= self.small.get(p)?;
                }
                Some(g == 0)
            }
        }
    }

    /// Whether a sum of components (bit masks) has Grundy value 0: equal
    /// components cancel in pairs, a lone component needs only win/loss.
    fn sum_is_zero(&mut self, parts: &mut Vec<(u32, u128, u128)>) -> bool {
        Self::reduce(parts);
        let left = std::mem::take(parts);
        match left.as_slice() {
            [] => true,
            &[(l, x, live)] => !self.component_wins_bits(l, x, live),
            _ => {
                let mut g = 0;
                for &(l, x, live) in &left {
                    g ^= self.component_grundy_bits(l, x, live);
                }
                g == 0
            }
        }
    }

    /// Whether the mover wins a single component (its Grundy value is not
    /// 0), searching only until a winning move is found.
    fn component_wins_bits(&mut self, len: u32, x: u128, live: u128) -> bool {
        let key = canonical_bits(len, x, live);
        if let Some(&g) = self.small.get(&key) {
            return g != 0;
        }
        if let Some(&w) = self.single.get(&key) {
            return w;
        }
        let (_, x, live) = key;
        // Central moves first: splitting a component in two equal halves is
        // the typical winning move, and the search stops at the first win.
        let mut moves: Vec<u32> = (0..len).filter(|&i| live >> i & 1 == 1).collect();
        moves.sort_by_key(|&i| (2 * i).abs_diff(len - 1));
        let mut parts = Vec::new();
        // A cheap pass over the memos first: a move to a sum already known
        // to be zero wins at once.
        for &i in &moves {
            split_after(self.k as u32, len, x, live, i, &mut parts);
            if self.known_zero(&mut parts) == Some(true) {
                self.single.insert(key, true);
                return true;
            }
        }
        let mut wins = false;
        for i in moves {
            if wins {
                break;
            }
            split_after(self.k as u32, len, x, live, i, &mut parts);
            wins = self.sum_is_zero(&mut parts);
        }
        self.single.insert(key, wins);
        wins
    }

    /// K = 3: the Grundy value of a quiet position (the XOR over its gaps).
    fn quiet_grundy_k3(&mut self, cells: &[bool]) -> u32 {
        let xs: Vec<usize> = (0..self.n).filter(|&c| cells[c]).collect();
        if xs.is_empty() {
            // Every first move is alike: the mover wins iff the ring with one
            // X (one gap of n - 1 cells) is a loss for the opponent.
            let g = self.strip(self.n.saturating_sub(5));
            return u32::from(g == 0);
        }
        let mut g = 0;
        for (i, &x) in xs.iter().enumerate() {
            let next = xs[(i + 1) % xs.len()];
            let gap = (next + self.n - x - 1) % self.n;
            let gap = if xs.len() == 1 { self.n - 1 } else { gap };
            g ^= self.strip(gap.saturating_sub(4));
        }
        g
    }

    /// K = 3: the outcomes of every child of a quiet position, O(1) each.
    fn quiet_children_k3(&mut self, cells: &[bool]) -> Vec<(usize, Outcome)> {
        let n = self.n;
        let xs: Vec<usize> = (0..n).filter(|&c| cells[c]).collect();
        let of = |g: u32| {
            if g == 0 {
                Outcome::MoverLoses
            } else {
                Outcome::MoverWins
            }
        };
        if xs.is_empty() {
            let o = of(self.strip(n.saturating_sub(5)));
            return (0..n).map(|c| (c, o)).collect();
        }
        self.ensure_strips(n);
        let total = self.quiet_grundy_k3(cells);
        let mut out = Vec::with_capacity(n);
        for (i, &x) in xs.iter().enumerate() {
            let gap = if xs.len() == 1 {
                n - 1
            } else {
                (xs[(i + 1) % xs.len()] + n - x - 1) % n
            };
            let rest = total ^ self.strips[gap.saturating_sub(4)];
            for d in 1..=gap {
                let c = (x + d) % n;
                // Within 2 of an X: a threat, the opponent completes the run.
                let o = if d < 3 || gap + 1 - d < 3 {
                    Outcome::MoverWins
                } else {
                    let left = (d - 1).saturating_sub(4);
                    let right = (gap - d).saturating_sub(4);
                    of(rest ^ self.strips[left] ^ self.strips[right])
                };
                out.push((c, o));
            }
        }
        out.sort_unstable_by_key(|&(c, _)| c);
        out
    }

    /// The Grundy value of a Treblecross strip of `len` live cells.
    fn strip(&mut self, len: usize) -> u32 {
        self.ensure_strips(len);
        self.strips[len]
    }

    /// Fills the strip table up to `len`: filling cell j of a strip of L
    /// leaves strips of max(0, j - 2) and max(0, L - j - 3) cells.
    fn ensure_strips(&mut self, len: usize) {
        let mut seen: Vec<bool> = Vec::new();
        while self.strips.len() <= len {
            let l = self.strips.len();
            seen.clear();
            seen.resize(l + 2, false);
            // Splits at j and l - 1 - j are mirror images.
            for j in 0..l.div_ceil(2) {
                let a = self.strips[j.saturating_sub(2)];
                let b = self.strips[(l - j).saturating_sub(3)];
                let g = (a ^ b) as usize;
                if g < seen.len() {
                    seen[g] = true;
                }
            }
            let g = seen.iter().position(|&s| !s).unwrap_or(seen.len());
            self.strips
                .push(u32::try_from(g).expect("small Grundy value"));
        }
    }
}

/// A description of at most 128 cells as bit masks (length, X, live).
fn to_bits(desc: &[u8]) -> Option<(u32, u128, u128)> {
    if desc.len() > 128 || desc.is_empty() {
        return None;
    }
    let (mut x, mut live) = (0u128, 0u128);
    for (i, &c) in desc.iter().enumerate() {
        x |= u128::from(c == X) << i;
        live |= u128::from(c == LIVE) << i;
    }
    Some((desc.len() as u32, x, live))
}

/// The smaller of a bit-mask description and its mirror image.
fn canonical_bits(len: u32, x: u128, live: u128) -> (u32, u128, u128) {
    let reverse = |m: u128| m.reverse_bits() >> (128 - len);
    (len, x, live).min((len, reverse(x), reverse(live)))
}

/// The components left after an X on the live cell `i` of a bit-mask
/// description (see [`Solver::component_grundy`]).
fn split_after(k: u32, len: u32, x: u128, live: u128, i: u32, parts: &mut Vec<(u32, u128, u128)>) {
    let full = if len == 128 { !0 } else { (1u128 << len) - 1 };
    let window = (1u128 << k) - 1;
    let x2 = x | 1 << i;
    let empty = full & !x2;
    let mut live2 = live & !(1 << i);
    // Only the windows holding i changed; one left with fewer than 3 empty
    // cells kills every live cell in it.
    for s in i + 1 - k..=i {
        let w = window << s;
        if (empty & w).count_ones() < 3 {
            live2 &= !w;
        }
    }
    collect_parts(k, x2, live2, parts);
}

/// The components of a line given by its X and live masks (every live cell
/// at least `k - 1` from both ends), as descriptions from `k - 1` cells
/// before their first live cell to `k - 1` after their last.
fn collect_parts(k: u32, x2: u128, mut live2: u128, parts: &mut Vec<(u32, u128, u128)>) {
    let below = |b: u32| if b >= 128 { !0 } else { (1u128 << b) - 1 };
    parts.clear();
    while live2 != 0 {
        let first = live2.trailing_zeros();
        let mut last = first;
        loop {
            let rest = if last >= 127 { 0 } else { live2 >> (last + 1) };
            if rest == 0 || rest.trailing_zeros() + 1 >= k {
                break;
            }
            last += rest.trailing_zeros() + 1;
        }
        let from = first + 1 - k;
        let sub_len = last + k - from;
        let sub = below(sub_len);
        let part = live2 & below(last + 1);
        parts.push((sub_len, (x2 >> from) & sub, (part >> from) & sub));
        live2 &= !part;
    }
}

/// The lowest `b` bits (b <= 128).
fn low_bits(b: u32) -> u128 {
    if b >= 128 {
        !0
    } else {
        (1u128 << b) - 1
    }
}

/// Rotates the ring mask `m` of `n` cells so that cell `r` becomes cell 0.
fn rotate_right(m: u128, r: u32, n: u32) -> u128 {
    let r = r % n;
    if r == 0 {
        m
    } else {
        ((m >> r) | (m << (n - r))) & low_bits(n)
    }
}

/// The live cells of a quiet ring of `n >= k` cells (X mask `x`): empty
/// cells whose every window of `k` cells has at least 3 empty cells.
fn ring_live_bits(n: u32, k: u32, x: u128) -> u128 {
    let window = low_bits(k);
    let mut dead = 0;
    for s in 0..n {
        let w = rotate_right(window, n - s, n);
        if (x & w).count_ones() + 3 > k {
            dead |= w;
        }
    }
    low_bits(n) & !x & !dead
}

/// The smallest of the rotations and reflections of the ring mask `x`.
fn canonical_ring_bits(n: u32, x: u128) -> u128 {
    let mirror = x.reverse_bits() >> (128 - n);
    (0..n)
        .map(|r| rotate_right(x, r, n).min(rotate_right(mirror, r, n)))
        .min()
        .unwrap_or(0)
}

/// Whether every window of `k` cells holding `j` (all inside `desc`) keeps
/// at least 3 empty cells.
fn window_ok(desc: &[u8], j: usize, k: usize) -> bool {
    (j + 1 - k..=j).all(|s| desc[s..s + k].iter().filter(|&&c| c != X).count() >= 3)
}

/// The live cells of a quiet ring: empty cells whose every window of `k`
/// cells has at least 3 empty cells.
fn live_cells(cells: &[bool], k: usize) -> Vec<usize> {
    let n = cells.len();
    // empty[s]: empty cells in the window starting at s.
    let mut empty = vec![0usize; n];
    let mut count = (0..k).filter(|&i| !cells[i % n]).count();
    for (s, e) in empty.iter_mut().enumerate() {
        *e = count;
        count = count + usize::from(!cells[(s + k) % n]) - usize::from(!cells[s]);
    }
    (0..n)
        .filter(|&c| !cells[c] && (0..k).all(|d| empty[(c + n - d) % n] >= 3))
        .collect()
}

/// The components of the (sorted) live cells of a ring, as (first, last)
/// arcs; `None` when they wrap the whole ring as one component.
fn components(live: &[usize], n: usize, k: usize) -> Option<Vec<(usize, usize)>> {
    let m = live.len();
    let gap_after = |i: usize| {
        if m == 1 {
            n
        } else {
            (live[(i + 1) % m] + n - live[i]) % n
        }
    };
    let split = (0..m).find(|&i| gap_after(i) >= k)?;
    let mut comps = Vec::new();
    let mut first = live[(split + 1) % m];
    for step in 1..=m {
        let i = (split + step) % m;
        if gap_after(i) >= k {
            comps.push((first, live[i]));
            first = live[(i + 1) % m];
        }
    }
    Some(comps)
}

/// The smallest of the ring's rotations and reflections, packed in words.
fn canonical_ring(cells: &[bool]) -> Vec<u64> {
    let n = cells.len();
    if n <= 128 {
        let full = if n == 128 { !0 } else { (1u128 << n) - 1 };
        let b = cells
            .iter()
            .enumerate()
            .fold(0u128, |m, (i, &c)| m | u128::from(c) << i);
        let rotations = |m: u128| {
            (0..n).map(move |r| {
                if r == 0 {
                    m
                } else {
                    ((m >> r) | (m << (n - r))) & full
                }
            })
        };
        let best = rotations(b)
            .chain(rotations(b.reverse_bits() >> (128 - n)))
            .min()
            .unwrap_or(0);
        return vec![best as u64, (best >> 64) as u64];
    }
    let at = |r: usize, rev: bool, i: usize| {
        if rev {
            cells[(r + n - i) % n]
        } else {
            cells[(r + i) % n]
        }
    };
    let mut best = (0, false);
    for r in 0..n {
        for rev in [false, true] {
            for i in 0..n {
                let (a, b) = (at(r, rev, i), at(best.0, best.1, i));
                if a != b {
                    if !a {
                        best = (r, rev);
                    }
                    break;
                }
            }
        }
    }
    let mut key = vec![0u64; n.div_ceil(64)];
    for i in 0..n {
        if at(best.0, best.1, i) {
            key[i / 64] |= 1 << (i % 64);
        }
    }
    key
}

/// The minimum excluded value of `options`.
fn mex(options: &mut [u32]) -> u32 {
    options.sort_unstable();
    let mut m = 0;
    for &o in options.iter() {
        if o == m {
            m += 1;
        } else if o > m {
            break;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::minimax;
    use crate::treblecross::RingTreblecross;

    /// Every position of every ring up to `max_n`, both sides to move:
    /// the solver's value, every successor value and best move equal plain
    /// minimax's.
    fn check_exhaustive(max_n: usize, ks: std::ops::RangeInclusive<usize>) {
        for k in ks {
            for n in 1..=max_n {
                let game = RingTreblecross::new(n, k);
                let mut solver = Solver::new(n, k);
                let mut exact: HashMap<Vec<bool>, Value> = HashMap::new();
                for mask in 0u32..1 << n {
                    let cells: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
                    for side in [Side::Max, Side::Min] {
                        let state = Ring {
                            cells: cells.clone(),
                            to_move: side,
                        };
                        let reference = reference_value(&game, &state, &mut exact);
                        assert_eq!(solver.value(&state), reference, "n={n} k={k} {state:?}");
                        let terminal = has_run(&cells, k) || mask == (1 << n) - 1;
                        if n <= 9 {
                            let out = minimax(&game, &state);
                            assert_eq!(out.value, reference);
                            let best = solver.best(&state);
                            assert_eq!(best.map(|b| b.0), out.best, "n={n} k={k} {state:?}");
                            assert_eq!(solver.value(&state), out.value);
                            if !terminal {
                                assert_eq!(best.map(|b| b.1), Some(out.value));
                            }
                        }
                        for (c, v) in solver.successor_values(&state) {
                            let child = state.after(c);
                            assert_eq!(v, reference_value(&game, &child, &mut exact), "{child:?}");
                        }
                    }
                }
            }
        }
    }

    /// Plain minimax values, memoised on (cells, side): the value of a
    /// state depends only on the state, so this is minimax's value.
    fn reference_value(
        game: &RingTreblecross,
        state: &Ring,
        memo: &mut HashMap<Vec<bool>, Value>,
    ) -> Value {
        let key: Vec<bool> = state
            .cells
            .iter()
            .copied()
            .chain([state.to_move == Side::Max])
            .collect();
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        use crate::game::Game;
        let v = if game.is_terminal(state) {
            game.utility(state)
        } else {
            let vs = game
                .successors(state)
                .into_iter()
                .map(|(_, s)| reference_value(game, &s, memo));
            match state.to_move {
                Side::Max => vs.max().unwrap(),
                Side::Min => vs.min().unwrap(),
            }
        };
        memo.insert(key, v);
        v
    }

    #[test]
    fn k3_matches_minimax_on_every_position() {
        check_exhaustive(12, 3..=3);
    }

    #[test]
    fn general_k_matches_minimax_on_every_position() {
        check_exhaustive(12, 1..=2);
        check_exhaustive(12, 4..=5);
    }

    /// A deterministic sample of positions: random X sets of varied density.
    fn sample(n: usize, k: usize, count: usize, seed: u64) -> Vec<Vec<bool>> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state >> 33
        };
        (0..count)
            .map(|i| {
                if i % 2 == 0 {
                    let density = 1 + i % 6; // in 20ths: 5% .. 30%
                    return (0..n).map(|_| next() % 20 < density as u64).collect();
                }
                // A quiet position: safe moves played at random.
                let mut cells = vec![false; n];
                let steps = next() as usize % (n / 2);
                for _ in 0..steps {
                    let safe: Vec<usize> = (0..n)
                        .filter(|&c| {
                            let mut after = cells.clone();
                            after[c] = true;
                            !cells[c] && !(0..n).any(|d| !after[d] && completes(&after, k, d))
                        })
                        .collect();
                    if safe.is_empty() {
                        break;
                    }
                    cells[safe[next() as usize % safe.len()]] = true;
                }
                cells
            })
            .collect()
    }

    /// The fast paths (K = 3 closed form, bit masks) agree with the general
    /// byte-description path on rings too large for brute force.
    #[test]
    fn fast_paths_match_general_path() {
        for (k, sizes, count) in [(3, 13..=40, 40), (4, 13..=26, 25), (5, 13..=22, 12)] {
            for n in sizes {
                let mut fast = Solver::new(n, k);
                let mut general = Solver::new(n, k);
                general.fast = false;
                for cells in sample(n, k, count, (n * 31 + k) as u64) {
                    for to_move in [Side::Max, Side::Min] {
                        let state = Ring {
                            cells: cells.clone(),
                            to_move,
                        };
                        assert_same_answers(&mut fast, &mut general, &state);
                    }
                }
            }
        }
    }

    /// Both solvers give every successor the same value and choose the same
    /// first-best successor.
    fn assert_same_answers(fast: &mut Solver, general: &mut Solver, state: &Ring) {
        assert_eq!(
            fast.successor_values(state),
            general.successor_values(state),
            "n={} k={} {state:?}",
            fast.n,
            fast.k
        );
        assert_eq!(fast.best(state), general.best(state), "{state:?}");
    }

    /// The bit-mask ring search (with its child ordering) agrees with the
    /// general path on sampled rings up to N = 40, K = 4 and 5.
    #[test]
    fn bit_rings_match_general_path_up_to_40() {
        for (k, sizes, count) in [(4, 28..=40, 6), (5, 24..=40, 4)] {
            for n in sizes.step_by(4) {
                let mut fast = Solver::new(n, k);
                let mut general = Solver::new(n, k);
                general.fast = false;
                for cells in sample(n, k, count, (n * 37 + k) as u64) {
                    // Rings with a few X: the wrapping phase.
                    if cells.iter().filter(|&&c| c).count() < n / 6 {
                        continue;
                    }
                    let state = Ring {
                        cells,
                        to_move: Side::Max,
                    };
                    assert_same_answers(&mut fast, &mut general, &state);
                }
            }
        }
    }

    #[test]
    fn spec_values() {
        let mut s = Solver::new(7, 3);
        assert_eq!(s.value(&Ring::new(7, &[], Side::Max)), -1);
        let mut s = Solver::new(10, 3);
        assert_eq!(s.best(&Ring::new(10, &[5], Side::Max)), Some((0, 1)));
    }
}
