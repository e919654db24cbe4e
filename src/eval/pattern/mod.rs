//! A pattern evaluation of 8x8 Othello positions, in the style of
//! Logistello and Edax: the value of a position is a sum of weights, one
//! per pattern (a fixed set of squares: an edge with its X-squares, a
//! corner block, a diagonal, an inner line, ...) looked up by the ternary
//! index of what stands on those squares, plus a weight for the mobility of
//! each side and one for the parity of the empty-square count (which of
//! the two sides would play last if neither passed: a phase mixes both
//! parities, and a search ending on odd and on even counts must value
//! them alike). Each game phase (a range of empty-square counts) has its
//! own weights.
//!
//! Every pattern is read on all eight symmetric images of the board, so
//! the value is exactly symmetric under the board's symmetries; it is read
//! from the side to move's point of view (mover 1, opponent 2), so swapping
//! the colours of the discs and of the side to move leaves it unchanged.
//!
//! The weights are trained by `reversi-lab train` ([`crate::eval::pattern::fit`]
//! fits them; the applications layer generates the data) and shipped in a
//! versioned file ([`PatternWeights::from_bytes`]); the build embeds the
//! project's trained file (`data/pattern-weights.bin`).

pub mod fit;
mod gather;
mod indices;
/// The board's eight symmetries (in the board layer, where Edax's book
/// format uses them too).
pub use crate::board::symmetry;
mod weights;

pub use gather::GatherKernel;
pub use indices::{Indices, Row, LANES, READINGS};
#[cfg(feature = "files")]
pub use weights::{read_weights, weights_or_embedded};
pub use weights::{PatternWeights, WeightsError, FILE_BYTES, FORMAT_VERSION, WEIGHTS_SIGNATURE};

use crate::board::bits;

/// A pattern: its name and how to read its squares, in index order, from
/// one bitboard of the base orientation (bit `i` of the result is the
/// pattern's `i`-th square).
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// A short name, for reports.
    pub name: &'static str,
    /// The squares (`row * 8 + col`) in index order.
    pub squares: &'static [u8],
    read: fn(u64) -> u32,
}

impl Pattern {
    /// The number of configurations: 3 to the number of squares.
    #[must_use]
    pub const fn configurations(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// Gathers the squares of one diagonal `(r, r + shift)` into the low bits.
const fn diagonal(x: u64, mask: u64, shift: u32) -> u32 {
    ((x & mask).wrapping_mul(0x0101_0101_0101_0101) >> (56 + shift)) as u32
}

/// The patterns, each read on the eight images of the board.
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "corner 3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        read: |x| ((x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1C0)) as u32,
    },
    Pattern {
        name: "corner 2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        read: |x| ((x & 0x1F) | ((x >> 3) & 0x3E0)) as u32,
    },
    Pattern {
        name: "edge + 2X",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        read: |x| ((x & 0xFF) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200)) as u32,
    },
    Pattern {
        name: "line 2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        read: |x| ((x >> 8) & 0xFF) as u32,
    },
    Pattern {
        name: "line 3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        read: |x| ((x >> 16) & 0xFF) as u32,
    },
    Pattern {
        name: "line 4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        read: |x| ((x >> 24) & 0xFF) as u32,
    },
    Pattern {
        name: "diagonal 8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        read: |x| diagonal(x, 0x8040_2010_0804_0201, 0),
    },
    Pattern {
        name: "diagonal 7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
        read: |x| diagonal(x, 0x0080_4020_1008_0402, 1),
    },
    Pattern {
        name: "diagonal 6",
        squares: &[2, 11, 20, 29, 38, 47],
        read: |x| diagonal(x, 0x0000_8040_2010_0804, 2),
    },
    Pattern {
        name: "diagonal 5",
        squares: &[3, 12, 21, 30, 39],
        read: |x| diagonal(x, 0x0000_0080_4020_1008, 3),
    },
    Pattern {
        name: "diagonal 4",
        squares: &[4, 13, 22, 31],
        read: |x| diagonal(x, 0x0000_0000_8040_2010, 4),
    },
];

/// Mobility is counted up to this many moves (more is rare and counts the same).
pub const MAX_MOBILITY: usize = 32;

/// Pattern readings per position: every pattern on every image.
pub const PATTERN_FEATURES: usize = PATTERNS.len() * 8;

/// Features per position: the pattern readings, then the
/// [`OTHER_FEATURES`].
pub const FEATURES: usize = PATTERN_FEATURES + OTHER_FEATURES;

/// Features per position after the pattern readings: the mover's and the
/// opponent's mobility, then the parity of the empty squares
/// ([`other_features`]).
pub const OTHER_FEATURES: usize = 3;

/// The parity weights of a phase: one for an even number of empty
/// squares, one for an odd number.
pub const PARITY_WEIGHTS: usize = 2;

/// The first weight of each pattern, then of the two mobility tables and
/// of the parity pair, and the total number of weights of one phase.
const OFFSETS: ([usize; PATTERNS.len() + 3], usize) = {
    let mut offsets = [0; PATTERNS.len() + 3];
    let mut next = 0;
    let mut i = 0;
    while i < PATTERNS.len() {
        offsets[i] = next;
        next += PATTERNS[i].configurations();
        i += 1;
    }
    offsets[PATTERNS.len()] = next;
    offsets[PATTERNS.len() + 1] = next + MAX_MOBILITY + 1;
    offsets[PATTERNS.len() + 2] = next + 2 * (MAX_MOBILITY + 1);
    (offsets, next + 2 * (MAX_MOBILITY + 1) + PARITY_WEIGHTS)
};

/// The number of weights of one phase.
pub const WEIGHTS_PER_PHASE: usize = OFFSETS.1;

/// The number of game phases; phase `k` holds positions with `5k + 1` to
/// `5k + 5` empty squares (and phase 0 also those with none).
pub const PHASES: usize = 12;

/// The phase of a position with `empties` empty squares.
#[inline]
#[must_use]
pub const fn phase(empties: u32) -> usize {
    let k = (empties.saturating_sub(1) / 5) as usize;
    if k < PHASES {
        k
    } else {
        PHASES - 1
    }
}

/// The ternary value of each 10-bit pattern of ones: bit `i` weighs `3^i`.
const BINARY_TO_TERNARY: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut t, mut power, mut i) = (0u32, 1u32, 0);
        while i < 10 {
            if b >> i & 1 == 1 {
                t += power;
            }
            power *= 3;
            i += 1;
        }
        table[b] = t as u16;
        b += 1;
    }
    table
};

/// A pattern known at compile time, so that its reading is inlined (a
/// call through the table's function pointer costs more than the reading).
struct Known<const T: usize>;

impl<const T: usize> Known<T> {
    const READ: fn(u64) -> u32 = PATTERNS[T].read;
    const BASE: u32 = OFFSETS.0[T] as u32;

    /// Writes the indices of pattern `T` on the eight images.
    #[inline(always)]
    fn indices(ps: &[u64; 8], os: &[u64; 8], out: &mut [u32; FEATURES]) {
        for s in 0..8 {
            let mine = BINARY_TO_TERNARY[(Self::READ)(ps[s]) as usize];
            let theirs = BINARY_TO_TERNARY[(Self::READ)(os[s]) as usize];
            out[8 * T + s] = Self::BASE + u32::from(mine) + 2 * u32::from(theirs);
        }
    }
}

// `features` lists the patterns one by one (0 to 10).
const _: () = assert!(PATTERNS.len() == 11);

/// The weight indices (within one phase) of the features of the position
/// where the side to move has discs `p` and the other side `o`, on a full
/// 8x8 board: each pattern read on each of the eight images, then the two
/// mobility counts, then the parity of the empty squares.
#[inline]
#[must_use]
pub fn features(p: u64, o: u64) -> [u32; FEATURES] {
    let (ps, os) = (symmetry::all(p), symmetry::all(o));
    let mut out = [0u32; FEATURES];
    Known::<0>::indices(&ps, &os, &mut out);
    Known::<1>::indices(&ps, &os, &mut out);
    Known::<2>::indices(&ps, &os, &mut out);
    Known::<3>::indices(&ps, &os, &mut out);
    Known::<4>::indices(&ps, &os, &mut out);
    Known::<5>::indices(&ps, &os, &mut out);
    Known::<6>::indices(&ps, &os, &mut out);
    Known::<7>::indices(&ps, &os, &mut out);
    Known::<8>::indices(&ps, &os, &mut out);
    Known::<9>::indices(&ps, &os, &mut out);
    Known::<10>::indices(&ps, &os, &mut out);
    let others = other_features(
        p,
        o,
        bits::moves_scalar(p, o, u64::MAX),
        bits::moves_scalar(o, p, u64::MAX),
    );
    out[PATTERN_FEATURES..].copy_from_slice(&others);
    out
}

/// The weight indices (within one phase) of the features that are not
/// pattern readings, of the position where the side to move has discs `p`
/// and legal moves `mover_moves`, the other side discs `o` and legal moves
/// `opponent_moves`: the two mobility counts, then the parity of the empty
/// squares ([`parity_index`]). The one definition of these features:
/// [`features`] and the searches' evaluation from [`Indices`]
/// ([`PatternWeights::evaluate_indexed`]) both call it.
#[inline(always)]
#[must_use]
pub fn other_features(
    p: u64,
    o: u64,
    mover_moves: u64,
    opponent_moves: u64,
) -> [u32; OTHER_FEATURES] {
    let mobility = |moves: u64| moves.count_ones().min(MAX_MOBILITY as u32);
    [
        (OFFSETS.0[PATTERNS.len()] as u32) + mobility(mover_moves),
        (OFFSETS.0[PATTERNS.len() + 1] as u32) + mobility(opponent_moves),
        parity_index(p, o),
    ]
}

/// The weight index (within one phase) of the parity feature of a
/// position: the first of the pair for an even number of empty squares,
/// the second for an odd number.
#[inline]
#[must_use]
pub const fn parity_index(p: u64, o: u64) -> u32 {
    (OFFSETS.0[PATTERNS.len() + 2] as u32) + ((p | o).count_zeros() & 1)
}

/// The weights of a phase in the layout of the first weights files
/// (format version 1): every weight but the parity pair, which comes last
/// in a phase.
pub(crate) const WEIGHTS_PER_PHASE_V1: usize = WEIGHTS_PER_PHASE - PARITY_WEIGHTS;

// The parity pair is a phase's last two weights (format 1 is format 2
// without them).
const _: () = assert!(OFFSETS.0[PATTERNS.len() + 2] == WEIGHTS_PER_PHASE_V1);

/// Weights are stored in units of 1/`SCALE` disc.
pub const SCALE: i32 = crate::units::Eval::PER_DISC;

#[cfg(test)]
mod tests;
