//! Components read as a line, in their two forms: the general one, a list
//! of cells of any length ([`Description`]), and bit masks of at most 128
//! cells ([`Component`]); and whole rings as bit masks (cell `i` is bit
//! `i`).

/// One cell of a component description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Cell {
    /// Empty, but a move there would leave a completing cell.
    Dead,
    /// Holds an X.
    X,
    /// Empty and safe to fill.
    Live,
}

/// A component read as a line: its cells from `k - 1` before its first live
/// cell to `k - 1` after its last.
pub(super) type Description = Vec<Cell>;

/// A component read as a line of at most 128 cells, from `k - 1` cells
/// before its first live cell to `k - 1` after its last: bit `i` of `xs`
/// is set when cell `i` holds an X, bit `i` of `live` when it is live (a
/// cell in neither is an empty dead cell).
///
/// The derived order (length, then X cells, then live cells) picks the
/// canonical one of a component and its mirror image, and sorts sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Component {
    /// The number of cells of the line (1..=128).
    pub len: u32,
    /// The X cells.
    pub xs: u128,
    /// The live cells.
    pub live: u128,
}

impl Component {
    /// The bit-mask form of a description, when it has 1 to 128 cells.
    pub fn from_description(desc: &Description) -> Option<Component> {
        if desc.is_empty() || desc.len() > 128 {
            return None;
        }
        let (mut xs, mut live) = (0u128, 0u128);
        for (i, &c) in desc.iter().enumerate() {
            xs |= u128::from(c == Cell::X) << i;
            live |= u128::from(c == Cell::Live) << i;
        }
        Some(Component {
            len: desc.len() as u32,
            xs,
            live,
        })
    }

    /// The same line read from the other end.
    fn mirrored(self) -> Component {
        let reverse = |m: u128| m.reverse_bits() >> (128 - self.len);
        Component {
            len: self.len,
            xs: reverse(self.xs),
            live: reverse(self.live),
        }
    }

    /// The smaller of the component and its mirror image (the memo key).
    pub fn canonical(self) -> Component {
        self.min(self.mirrored())
    }

    /// How many live cells it holds.
    pub fn live_count(self) -> u32 {
        self.live.count_ones()
    }

    /// The live cells in increasing order.
    pub fn live_cells(self) -> impl Iterator<Item = u32> {
        let mut rest = self.live;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let i = rest.trailing_zeros();
                rest &= rest - 1;
                i
            })
        })
    }

    /// The components left after an X on the live cell `i` (runs of
    /// length `k`), written into `parts` (cleared first).
    pub fn split_after(self, k: u32, i: u32, parts: &mut Vec<Component>) {
        let window = low_bits(k);
        let xs = self.xs | 1 << i;
        let empty = low_bits(self.len) & !xs;
        let mut live = self.live & !(1 << i);
        // Only the windows holding i changed; one left with fewer than 3
        // empty cells kills every live cell in it.
        for s in i + 1 - k..=i {
            let w = window << s;
            if (empty & w).count_ones() < 3 {
                live &= !w;
            }
        }
        collect_parts(k, xs, live, parts);
    }
}

/// The components of a line given by its X and live masks (every live cell
/// at least `k - 1` from both ends), as lines from `k - 1` cells before
/// their first live cell to `k - 1` after their last; written into `parts`
/// (cleared first).
pub(super) fn collect_parts(k: u32, xs: u128, mut live: u128, parts: &mut Vec<Component>) {
    parts.clear();
    while live != 0 {
        let first = live.trailing_zeros();
        let mut last = first;
        loop {
            let rest = if last >= 127 { 0 } else { live >> (last + 1) };
            if rest == 0 || rest.trailing_zeros() + 1 >= k {
                break;
            }
            last += rest.trailing_zeros() + 1;
        }
        let from = first + 1 - k;
        let len = last + k - from;
        let inside = low_bits(len);
        let part = live & low_bits(last + 1);
        parts.push(Component {
            len,
            xs: (xs >> from) & inside,
            live: (part >> from) & inside,
        });
        live &= !part;
    }
}

/// The lowest `b` bits (b <= 128).
pub(super) fn low_bits(b: u32) -> u128 {
    if b >= 128 {
        !0
    } else {
        (1u128 << b) - 1
    }
}

/// Rotates the ring mask `m` of `n` cells so that cell `r` becomes cell 0.
pub(super) fn rotate_right(m: u128, r: u32, n: u32) -> u128 {
    let r = r % n;
    if r == 0 {
        m
    } else {
        ((m >> r) | (m << (n - r))) & low_bits(n)
    }
}

/// The live cells of a quiet ring of `n >= k` cells (X mask `xs`): empty
/// cells whose every window of `k` cells has at least 3 empty cells.
pub(super) fn ring_live_bits(n: u32, k: u32, xs: u128) -> u128 {
    let window = low_bits(k);
    let mut dead = 0;
    for s in 0..n {
        let w = rotate_right(window, n - s, n);
        if (xs & w).count_ones() + 3 > k {
            dead |= w;
        }
    }
    low_bits(n) & !xs & !dead
}

/// The smallest of the rotations and reflections of the ring mask `xs`.
pub(super) fn canonical_ring_bits(n: u32, xs: u128) -> u128 {
    let mirror = xs.reverse_bits() >> (128 - n);
    (0..n)
        .map(|r| rotate_right(xs, r, n).min(rotate_right(mirror, r, n)))
        .min()
        .unwrap_or(0)
}

/// The cells of a ring of at most 128 cells as a mask (bit `i` = cell `i`).
pub(super) fn ring_mask(cells: &[bool]) -> u128 {
    cells
        .iter()
        .enumerate()
        .fold(0u128, |m, (i, &c)| m | u128::from(c) << i)
}
