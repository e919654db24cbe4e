//! The pattern indices of a position kept up to date move by move, so that
//! a search evaluates a position by table lookups alone instead of reading
//! the eight images of the board again ([`super::features`]).
//!
//! A pattern's index is `sum 3^k * c_k` over its squares `k`, where `c_k`
//! is 0 (empty), 1 (the side to move's disc) or 2 (the opponent's), so
//! each square adds a fixed multiple of one coefficient to every pattern
//! reading that holds it ([`SQUARE_COEFFICIENTS`]: one row per square,
//! one column per reading). [`Indices`] keeps the readings from both
//! sides' points of view; when the side to move places a disc on `sq` and
//! flips the discs `F`, the child's side to move (the opponent) sees
//!
//! - `mover' = opponent + 2 C[sq] + sum C[F]`: the new disc is its
//!   opponent's (2) and the flipped discs turn from its own (1) to its
//!   opponent's (2);
//! - `opponent' = mover + C[sq] - sum C[F]`: seen by the side that moved,
//!   the new disc is its own (1) and the flipped discs turn from 2 to 1;
//!
//! a few vector additions over the 88 readings. The rows are `u16`
//! (a reading is below `3^10`), padded to [`LANES`] so that a row is a
//! whole number of vectors.

use super::{features, OFFSETS, PATTERNS, PATTERN_FEATURES};
use crate::board::symmetry;

/// The readings in a row: [`PATTERN_FEATURES`] (88) padded to a multiple
/// of 32 (one 64-byte vector holds 32 readings).
pub const LANES: usize = PATTERN_FEATURES.next_multiple_of(32);

/// One value per pattern reading (padding lanes stay 0).
pub type Row = [u16; LANES];

/// The readings' rows of every square, 64-byte aligned.
#[repr(C, align(64))]
struct SquareRows([Row; 64]);

/// The image of square `sq` under symmetry `s` (numbered as in
/// [`symmetry::all`]), at compile time.
const fn square_image(sq: usize, s: usize) -> usize {
    let x = 1u64 << sq;
    let h = symmetry::mirror_columns(x);
    let v = symmetry::mirror_rows(x);
    let image = match s {
        0 => x,
        1 => h,
        2 => v,
        3 => symmetry::mirror_rows(h),
        4 => symmetry::transpose(x),
        5 => symmetry::transpose(h),
        6 => symmetry::transpose(v),
        _ => symmetry::transpose(symmetry::mirror_rows(h)),
    };
    image.trailing_zeros() as usize
}

/// `C[b][8 t + s]`: what one disc of the side to move on square `b` adds
/// to the reading of pattern `t` on image `s` (`3^k` if `b`'s image is the
/// pattern's `k`-th square, else 0).
static SQUARE_COEFFICIENTS: SquareRows = {
    let mut rows = [[0u16; LANES]; 64];
    let mut b = 0;
    while b < 64 {
        let mut t = 0;
        while t < PATTERNS.len() {
            let mut s = 0;
            while s < 8 {
                let image = square_image(b, s);
                let squares = PATTERNS[t].squares;
                let (mut k, mut power) = (0, 1u16);
                while k < squares.len() {
                    if squares[k] as usize == image {
                        rows[b][8 * t + s] = power;
                    }
                    power *= 3;
                    k += 1;
                }
                s += 1;
            }
            t += 1;
        }
        b += 1;
    }
    SquareRows(rows)
};

/// The first weight of each reading's pattern: [`super::features`]'
/// index of a reading is this plus the reading.
pub(super) const READING_BASE: [u32; PATTERN_FEATURES] = {
    let mut base = [0u32; PATTERN_FEATURES];
    let mut f = 0;
    while f < PATTERN_FEATURES {
        base[f] = OFFSETS.0[f / 8] as u32;
        f += 1;
    }
    base
};

/// The pattern readings of a position from both sides' points of view:
/// `mover[f]` is [`super::features`]`(p, o)[f]` less its pattern's first
/// weight, `opponent[f]` the same of `features(o, p)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Indices {
    /// The readings as the side to move sees the board.
    pub mover: Row,
    /// The readings as its opponent sees it.
    pub opponent: Row,
}

impl Indices {
    /// The readings of the 8x8 position where the side to move has the
    /// discs `p` and the other side `o`, read from the board.
    #[must_use]
    pub fn new(p: u64, o: u64) -> Indices {
        let row = |a: u64, b: u64| {
            let f = features(a, b);
            let mut row = [0; LANES];
            for (i, r) in row.iter_mut().take(PATTERN_FEATURES).enumerate() {
                *r = (f[i] - READING_BASE[i]) as u16;
            }
            row
        };
        Indices {
            mover: row(p, o),
            opponent: row(o, p),
        }
    }

    /// The readings after a pass: the same board seen by the other side.
    #[inline(always)]
    #[must_use]
    pub fn passed(&self) -> Indices {
        Indices {
            mover: self.opponent,
            opponent: self.mover,
        }
    }

    /// The readings after the side to move plays on `sq`, flipping the
    /// discs `flips`.
    #[inline(always)]
    #[must_use]
    pub fn after(&self, sq: u8, flips: u64) -> Indices {
        let placed = &SQUARE_COEFFICIENTS.0[sq as usize];
        let flipped = flipped_sum(flips);
        let mut next = Indices {
            mover: [0; LANES],
            opponent: [0; LANES],
        };
        for i in 0..LANES {
            next.mover[i] = self.opponent[i]
                .wrapping_add(placed[i].wrapping_mul(2))
                .wrapping_add(flipped[i]);
            next.opponent[i] = self.mover[i]
                .wrapping_add(placed[i])
                .wrapping_sub(flipped[i]);
        }
        next
    }

    /// The side to move's readings after it plays on `sq` flipping
    /// `flips` (the `mover` row of [`Indices::after`], alone: what an
    /// evaluation of the child needs).
    #[inline(always)]
    #[must_use]
    pub fn mover_after(&self, sq: u8, flips: u64) -> Row {
        let placed = &SQUARE_COEFFICIENTS.0[sq as usize];
        let flipped = flipped_sum(flips);
        let mut next = [0; LANES];
        for i in 0..LANES {
            next[i] = self.opponent[i]
                .wrapping_add(placed[i].wrapping_mul(2))
                .wrapping_add(flipped[i]);
        }
        next
    }
}

/// The sum of the rows of the squares of `flips`.
#[inline(always)]
fn flipped_sum(mut flips: u64) -> Row {
    let mut sum = [0u16; LANES];
    while flips != 0 {
        let row = &SQUARE_COEFFICIENTS.0[flips.trailing_zeros() as usize];
        for i in 0..LANES {
            sum[i] = sum[i].wrapping_add(row[i]);
        }
        flips &= flips - 1;
    }
    sum
}
