//! Components of the live cells and their Grundy values, for any K: the
//! general description as a cell list, and the faster bit-mask form.

use super::masks::{Cell, Component, Description};
use super::RingSolver;

/// An arc of the ring from its `first` to its `last` live cell (inclusive,
/// clockwise, possibly across cell 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Arc {
    pub first: usize,
    pub last: usize,
}

impl RingSolver {
    /// The description of the arc of `cells` (liveness from `is_live`).
    pub(super) fn describe(&self, cells: &[bool], is_live: &[bool], arc: Arc) -> Description {
        let (n, k) = (self.n, self.k);
        let span = (arc.last + n - arc.first) % n + 1;
        let start = (arc.first + n * k - (k - 1)) % n;
        (0..span + 2 * (k - 1))
            .map(|j| {
                let c = (start + j) % n;
                if cells[c] {
                    Cell::X
                } else if is_live[c] {
                    Cell::Live
                } else {
                    Cell::Dead
                }
            })
            .collect()
    }

    /// The bit-mask form of a description, when short enough (and allowed).
    pub(super) fn bits(&self, desc: &Description) -> Option<Component> {
        if self.fast {
            Component::from_description(desc)
        } else {
            None
        }
    }

    /// The Grundy value of one component description.
    pub(super) fn component_grundy(&mut self, desc: Description) -> u32 {
        if let Some(c) = self.bits(&desc) {
            return self.component_grundy_bits(c);
        }
        let rev: Description = desc.iter().rev().copied().collect();
        let key = if rev < desc { rev } else { desc };
        if let Some(&g) = self.components.get(&key) {
            return g;
        }
        let k = self.k;
        let mut options = Vec::new();
        for i in 0..key.len() {
            if key[i] != Cell::Live {
                continue;
            }
            let mut child = key.clone();
            child[i] = Cell::X;
            for j in 0..child.len() {
                if child[j] == Cell::Live && !window_ok(&child, j, k) {
                    child[j] = Cell::Dead;
                }
            }
            let live: Vec<usize> = (0..child.len())
                .filter(|&j| child[j] == Cell::Live)
                .collect();
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
        self.make_room();
        self.components.insert(key, g);
        g
    }

    /// [`Self::component_grundy`] on bit masks.
    pub(super) fn component_grundy_bits(&mut self, c: Component) -> u32 {
        let key = c.canonical();
        if let Some(&g) = self.small.get(&key) {
            return g;
        }
        let mut options = Vec::new();
        let mut parts = Vec::new();
        for i in key.live_cells() {
            key.split_after(self.k as u32, i, &mut parts);
            let mut g = 0;
            for &p in &parts {
                g ^= self.component_grundy_bits(p);
            }
            options.push(g);
        }
        let g = mex(&mut options);
        self.make_room();
        self.small.insert(key, g);
        g
    }

    /// Canonical forms of the components of a sum, sorted, equal pairs
    /// cancelled (they sum to zero).
    pub(super) fn reduce(parts: &mut Vec<Component>) {
        for p in parts.iter_mut() {
            *p = p.canonical();
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

    /// Whether the mover wins a sum of reduced components, when the memos
    /// already tell (no search).
    pub(super) fn known_sum_wins(&self, parts: &[Component]) -> Option<bool> {
        match parts {
            [] => Some(false),
            [p] => self
                .small
                .get(p)
                .map(|&g| g != 0)
                .or_else(|| self.single.get(p).copied()),
            _ => {
                let mut g = 0;
                for p in parts {
                    g ^= self.small.get(p)?;
                }
                Some(g != 0)
            }
        }
    }

    /// Whether a sum of components (bit masks) has Grundy value 0: equal
    /// components cancel in pairs, a lone component needs only win/loss.
    pub(super) fn sum_is_zero(&mut self, parts: &mut Vec<Component>) -> bool {
        Self::reduce(parts);
        let left = std::mem::take(parts);
        match left.as_slice() {
            [] => true,
            &[c] => !self.component_wins_bits(c),
            _ => {
                let mut g = 0;
                for &c in &left {
                    g ^= self.component_grundy_bits(c);
                }
                g == 0
            }
        }
    }

    /// Whether the mover wins a single component (its Grundy value is not
    /// 0), searching only until a winning move is found.
    pub(super) fn component_wins_bits(&mut self, c: Component) -> bool {
        let key = c.canonical();
        if let Some(&g) = self.small.get(&key) {
            return g != 0;
        }
        if let Some(&w) = self.single.get(&key) {
            return w;
        }
        let k = self.k as u32;
        // Central moves first: splitting a component in two equal halves is
        // the typical winning move, and the search stops at the first win.
        let mut moves: Vec<u32> = key.live_cells().collect();
        moves.sort_by_key(|&i| (2 * i).abs_diff(key.len - 1));
        let mut parts = Vec::new();
        // A cheap pass over the memos first: a move to a sum already known
        // to be zero wins at once.
        for &i in &moves {
            key.split_after(k, i, &mut parts);
            Self::reduce(&mut parts);
            if self.known_sum_wins(&parts) == Some(false) {
                self.make_room();
                self.single.insert(key, true);
                return true;
            }
        }
        let mut wins = false;
        for i in moves {
            if wins {
                break;
            }
            key.split_after(k, i, &mut parts);
            wins = self.sum_is_zero(&mut parts);
        }
        self.make_room();
        self.single.insert(key, wins);
        wins
    }
}

/// Whether every window of `k` cells holding `j` (all inside `desc`) keeps
/// at least 3 empty cells.
fn window_ok(desc: &[Cell], j: usize, k: usize) -> bool {
    (j + 1 - k..=j).all(|s| desc[s..s + k].iter().filter(|&&c| c != Cell::X).count() >= 3)
}

/// The live cells of a quiet ring: empty cells whose every window of `k`
/// cells has at least 3 empty cells.
pub(super) fn live_cells(cells: &[bool], k: usize) -> Vec<usize> {
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

/// The components of the (sorted) live cells of a ring, as arcs; `None`
/// when they wrap the whole ring as one component.
pub(super) fn component_arcs(live: &[usize], n: usize, k: usize) -> Option<Vec<Arc>> {
    let m = live.len();
    let gap_after = |i: usize| {
        if m == 1 {
            n
        } else {
            (live[(i + 1) % m] + n - live[i]) % n
        }
    };
    let split = (0..m).find(|&i| gap_after(i) >= k)?;
    let mut arcs = Vec::new();
    let mut first = live[(split + 1) % m];
    for step in 1..=m {
        let i = (split + step) % m;
        if gap_after(i) >= k {
            arcs.push(Arc {
                first,
                last: live[i],
            });
            first = live[(i + 1) % m];
        }
    }
    Some(arcs)
}

/// The minimum excluded value of `options`.
pub(super) fn mex(options: &mut [u32]) -> u32 {
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
