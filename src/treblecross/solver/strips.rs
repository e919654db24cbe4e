//! K = 3: Treblecross strips (the octal game 0.007) and quiet rings as
//! sums of strips.
//!
//! Filling cell `j` of a strip of `L` live cells kills it and its two
//! neighbours on each side, leaving strips of `max(0, j - 2)` and
//! `max(0, L - j - 3)` cells, so
//! `G(L) = mex { G(max(0, j - 2)) ^ G(max(0, L - j - 3)) : 0 <= j < L }`.
//! The values do not settle into a period or into a sparse pattern that
//! would shortcut the `mex` (they keep growing: the largest up to length
//! 10^6 is 1226), so each length costs a pass over its split points, about
//! `L²/4` steps for all lengths up to `L`. The values up to
//! [`SHIPPED_LEN`] are therefore computed once and shipped with the crate
//! (`strip_grundy.bin`, little-endian `u16`s); a test recomputes them.

use super::{RingOutcome, RingSolver};

/// The Grundy values of strips of length 0, 1, ... (little-endian `u16`s).
const SHIPPED: &[u8] = include_bytes!("strip_grundy.bin");

/// How many strip lengths the shipped table holds (0 to 1,000,000).
pub(super) const SHIPPED_LEN: usize = 1_000_001;

const _: () = assert!(SHIPPED.len() == 2 * SHIPPED_LEN, "two bytes per length");

/// The Grundy values of strips by length: read from the shipped table,
/// computed by the recurrence beyond it.
#[derive(Debug, Default)]
pub(super) struct StripTable {
    values: Vec<u32>,
}

impl StripTable {
    /// How many lengths are known.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// The Grundy value of a strip of `len` live cells.
    pub fn get(&mut self, len: usize) -> u32 {
        self.ensure(len);
        self.values[len]
    }

    /// Makes every length up to `len` known.
    pub fn ensure(&mut self, len: usize) {
        if self.values.len() > len {
            return;
        }
        let shipped = (len + 1).min(SHIPPED_LEN);
        if self.values.len() < shipped {
            self.values.extend(
                SHIPPED[2 * self.values.len()..2 * shipped]
                    .chunks_exact(2)
                    .map(|b| u32::from(u16::from_le_bytes([b[0], b[1]]))),
            );
        }
        extend_strip_values(&mut self.values, len);
    }
}

/// Appends Grundy values to `values` (those of lengths `0..values.len()`)
/// by the recurrence until length `len` is known.
pub(super) fn extend_strip_values(values: &mut Vec<u32>, len: usize) {
    // Lengths below 5 have no interior split; the recurrence's edge terms
    // give them directly.
    while values.len() <= len && values.len() < 5 {
        let l = values.len();
        let mut options: Vec<u32> = (0..l)
            .map(|j| values[j.saturating_sub(2)] ^ values[(l - j).saturating_sub(3)])
            .collect();
        values.push(super::components::mex(&mut options));
    }
    // Every value so far is below `size`, a power of two, so every XOR of
    // two of them is too: `seen` needs only `size` entries.
    let mut size = values
        .iter()
        .max()
        .map_or(1, |&m| (m + 1).next_power_of_two()) as usize;
    let mut seen = vec![false; 2 * size];
    let mut xors: Vec<u32> = Vec::new();
    while values.len() <= len {
        let l = values.len();
        // j = 0, 1 leave one strip of l - 3 or l - 4 cells (and the mirror
        // moves the same); j = 2 .. l - 3 leave strips of a and l - 5 - a.
        let top = l - 5;
        let half = top / 2 + 1;
        seen[..size].fill(false);
        seen[values[l - 3] as usize] = true;
        seen[values[l - 4] as usize] = true;
        // XOR the pairs first (a loop the compiler vectorises), then mark.
        xors.clear();
        xors.extend(
            values[..half]
                .iter()
                .zip(values[top + 1 - half..=top].iter().rev())
                .map(|(a, b)| a ^ b),
        );
        for &x in &xors {
            seen[x as usize] = true;
        }
        let g = seen[..=size].iter().position(|&s| !s).unwrap_or(size);
        values.push(g as u32);
        if g + 1 >= size {
            size *= 2;
            seen.resize(2 * size, false);
        }
    }
}

impl RingSolver {
    /// K = 3: the Grundy value of a quiet position (the XOR over its gaps).
    pub(super) fn quiet_grundy_k3(&mut self, cells: &[bool]) -> u32 {
        let xs: Vec<usize> = (0..self.n).filter(|&c| cells[c]).collect();
        if xs.is_empty() {
            // Every first move is alike: the mover wins iff the ring with one
            // X (one gap of n - 1 cells) is a loss for the opponent.
            let g = self.strips.get(self.n.saturating_sub(5));
            return u32::from(g == 0);
        }
        let mut g = 0;
        for (i, &x) in xs.iter().enumerate() {
            g ^= self
                .strips
                .get(gap_after(&xs, i, x, self.n).saturating_sub(4));
        }
        g
    }

    /// K = 3: the outcomes of every child of a quiet position, O(1) each.
    pub(super) fn quiet_children_k3(&mut self, cells: &[bool]) -> Vec<(usize, RingOutcome)> {
        let n = self.n;
        let xs: Vec<usize> = (0..n).filter(|&c| cells[c]).collect();
        let of = |g: u32| {
            if g == 0 {
                RingOutcome::MoverLoses
            } else {
                RingOutcome::MoverWins
            }
        };
        if xs.is_empty() {
            let o = of(self.strips.get(n.saturating_sub(5)));
            return (0..n).map(|c| (c, o)).collect();
        }
        self.strips.ensure(n);
        let total = self.quiet_grundy_k3(cells);
        let mut out = Vec::with_capacity(n);
        for (i, &x) in xs.iter().enumerate() {
            let gap = gap_after(&xs, i, x, n);
            let rest = total ^ self.strips.get(gap.saturating_sub(4));
            for d in 1..=gap {
                let c = (x + d) % n;
                // Within 2 of an X: a threat, the opponent completes the run.
                let o = if d < 3 || gap + 1 - d < 3 {
                    RingOutcome::MoverWins
                } else {
                    let left = (d - 1).saturating_sub(4);
                    let right = (gap - d).saturating_sub(4);
                    of(rest ^ self.strips.get(left) ^ self.strips.get(right))
                };
                out.push((c, o));
            }
        }
        out.sort_unstable_by_key(|&(c, _)| c);
        out
    }
}

/// The number of empty cells after the X `xs[i] = x` up to the next X
/// around a ring of `n` cells (`n - 1` when it is the only X).
fn gap_after(xs: &[usize], i: usize, x: usize, n: usize) -> usize {
    if xs.len() == 1 {
        n - 1
    } else {
        (xs[(i + 1) % xs.len()] + n - x - 1) % n
    }
}
