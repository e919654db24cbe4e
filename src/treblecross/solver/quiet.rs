//! Quiet positions for any K: their live cells cut into components, and
//! the search of rings whose live cells wrap around as one component.

use super::components::{component_arcs, live_cells};
use super::masks::{
    canonical_ring_bits, collect_parts, low_bits, ring_live_bits, ring_mask, rotate_right,
    Component, Description,
};
use super::RingSolver;

/// A ring of at most 128 - (k - 1) cells whose live cells wrap around as
/// one component, as bit masks (bit `i` = cell `i`).
#[derive(Clone, Copy, Debug)]
pub(super) struct WrappingMasks {
    /// The X cells under the rotation or reflection with the smallest mask
    /// (the memo key).
    pub key: u128,
    /// The X cells.
    pub xs: u128,
    /// The live cells.
    pub live: u128,
}

/// A quiet position cut into what the solver needs.
#[derive(Debug)]
pub(super) enum Quiet {
    /// No live cell: the mover loses.
    NoMoves,
    /// One component around the whole ring.
    Wrapping {
        /// The ring canonical under rotation and reflection, packed in words.
        key: Vec<u64>,
        /// The live cells in index order.
        live: Vec<usize>,
    },
    /// The same on a ring of at most 128 - (k - 1) cells, as bit masks.
    WrappingMasks(WrappingMasks),
    /// Components as canonical bit masks (sorted, equal pairs cancelled
    /// when read from a ring mask).
    Components(Vec<Component>),
    /// Components too long for bit masks.
    Descriptions(Vec<Description>),
}

impl RingSolver {
    /// The live cells of a quiet position (n >= k, k != 3 or general path)
    /// and their components.
    pub(super) fn analyse(&self, cells: &[bool]) -> Quiet {
        if self.fast && self.n + self.k - 1 <= 128 {
            return self.analyse_mask(ring_mask(cells));
        }
        let live = live_cells(cells, self.k);
        if live.is_empty() {
            return Quiet::NoMoves;
        }
        let Some(arcs) = component_arcs(&live, self.n, self.k) else {
            return Quiet::Wrapping {
                key: canonical_ring(cells),
                live,
            };
        };
        let mut is_live = vec![false; self.n];
        for &c in &live {
            is_live[c] = true;
        }
        let descs: Vec<Description> = arcs
            .iter()
            .map(|&arc| self.describe(cells, &is_live, arc))
            .collect();
        match descs
            .iter()
            .map(|d| self.bits(d))
            .collect::<Option<Vec<_>>>()
        {
            Some(parts) => Quiet::Components(parts.into_iter().map(Component::canonical).collect()),
            None => Quiet::Descriptions(descs),
        }
    }

    /// [`Self::analyse`] on a ring of at most 128 - (k - 1) cells given by
    /// its X mask.
    pub(super) fn analyse_mask(&self, xs: u128) -> Quiet {
        let (n, k) = (self.n as u32, self.k as u32);
        let live = ring_live_bits(n, k, xs);
        if live == 0 {
            return Quiet::NoMoves;
        }
        let not_live = low_bits(n) & !live;
        // Cells starting a run of k - 1 cells that are not live: a cut.
        let mut cuts = not_live;
        for j in 1..k - 1 {
            cuts &= rotate_right(not_live, j, n);
        }
        if cuts == 0 {
            return Quiet::WrappingMasks(WrappingMasks {
                key: canonical_ring_bits(n, xs),
                xs,
                live,
            });
        }
        // The ring read as a line from a cut, with its first k - 1 cells
        // repeated at the end, so that every component has its k - 1
        // padding cells on both sides.
        let s = cuts.trailing_zeros();
        let line = rotate_right(xs, s, n);
        let line = line | (line & low_bits(k - 1)) << n;
        let mut parts = Vec::new();
        collect_parts(k, line, rotate_right(live, s, n), &mut parts);
        Self::reduce(&mut parts);
        Quiet::Components(parts)
    }

    /// Whether the mover wins an analysed quiet position, if the memos
    /// already hold it.
    fn known(&self, q: &Quiet) -> Option<bool> {
        match q {
            Quiet::NoMoves => Some(false),
            Quiet::Wrapping { key, .. } => self.rings.get(key).copied(),
            Quiet::WrappingMasks(w) => self.ring_bits.get(&w.key).copied(),
            Quiet::Components(parts) => self.known_sum_wins(parts),
            Quiet::Descriptions(_) => None,
        }
    }

    /// Whether the mover wins the analysed quiet position `cells` (only
    /// [`Quiet::Wrapping`] reads `cells`).
    pub(super) fn solve(&mut self, cells: &[bool], q: Quiet) -> bool {
        match q {
            Quiet::NoMoves => false,
            Quiet::Wrapping { key, live } => self.wrapping_wins(cells, key, &live),
            Quiet::WrappingMasks(w) => self.wrapping_masks_win(w),
            Quiet::Components(mut parts) => {
                if let &[c] = parts.as_slice() {
                    return self.component_wins_bits(c);
                }
                !self.sum_is_zero(&mut parts)
            }
            Quiet::Descriptions(descs) => {
                let mut g = 0;
                for desc in descs {
                    g ^= self.component_grundy(desc);
                }
                g != 0
            }
        }
    }

    /// A quiet position whose live cells form one component around the
    /// whole ring: search over its live cells, memoised by canonical ring.
    fn wrapping_wins(&mut self, cells: &[bool], key: Vec<u64>, live: &[usize]) -> bool {
        if let Some(&w) = self.rings.get(&key) {
            return w;
        }
        // Moves far from every X first (the middle of the widest gap): the
        // search stops at the first winning move.
        let near = distance_to_nearest_x(cells);
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
                self.make_room();
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
        self.make_room();
        self.rings.insert(key, wins);
        wins
    }

    /// [`Self::wrapping_wins`] on bit masks.
    fn wrapping_masks_win(&mut self, ring: WrappingMasks) -> bool {
        if let Some(&w) = self.ring_bits.get(&ring.key) {
            return w;
        }
        let order = far_cells_first(self.n as u32, ring.xs, ring.live);
        let mut children = Vec::with_capacity(order.len());
        for &c in &order {
            let q = self.analyse_mask(ring.xs | 1 << c);
            // A cheap pass over the memos first: a child already known lost.
            if self.known(&q) == Some(false) {
                self.make_room();
                self.ring_bits.insert(ring.key, true);
                return true;
            }
            children.push(q);
        }
        // Children already cut into components first, fewest live cells
        // first: their values come from the component memos; rings that
        // still wrap need more search.
        children.sort_by_key(|q| match q {
            Quiet::WrappingMasks(_) => (1, 0),
            Quiet::Components(parts) => (0, parts.iter().map(|p| p.live_count()).sum::<u32>()),
            _ => (0, 0),
        });
        let mut wins = false;
        for q in children {
            if !self.solve(&[], q) {
                wins = true;
                break;
            }
        }
        self.make_room();
        self.ring_bits.insert(ring.key, wins);
        wins
    }
}

/// For each cell, the distance around the ring to the nearest X (`n` when
/// there is none).
fn distance_to_nearest_x(cells: &[bool]) -> Vec<usize> {
    let n = cells.len();
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
    near
}

/// The live cells of a ring mask of `n` cells, those farthest from every X
/// first (as in [`distance_to_nearest_x`]): the X cells grow one step at a
/// time; cells reached last come first, each layer in index order.
fn far_cells_first(n: u32, xs: u128, live: u128) -> Vec<u32> {
    let mut layers: Vec<u128> = Vec::new();
    let mut reached = xs;
    let mut left = live;
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
    let mut order = Vec::with_capacity(live.count_ones() as usize);
    for &layer in layers.iter().rev() {
        let mut m = layer;
        while m != 0 {
            order.push(m.trailing_zeros());
            m &= m - 1;
        }
    }
    order
}

/// The smallest of the ring's rotations and reflections, packed in words.
fn canonical_ring(cells: &[bool]) -> Vec<u64> {
    let n = cells.len();
    if n <= 128 {
        let b = ring_mask(cells);
        let best = canonical_ring_bits(n as u32, b);
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
