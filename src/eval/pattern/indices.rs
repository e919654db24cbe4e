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
//! a few vector additions over the readings. The rows are `u16` (a
//! reading is below `3^10`), padded to [`LANES`] so that a row is a whole
//! number of vectors.
//!
//! Of a pattern's eight images, those that read the same squares of the
//! board (an edge read from either end, a corner block and its transpose,
//! the long diagonal four ways) are kept as one reading, the first: each
//! phase's weights are folded once ([`fold_phase`]) so that the weight of
//! a configuration of that reading is the sum of the weights of what every
//! image of the set reads then. The value is the same sum as
//! [`super::features`]' 88 readings give, from 46 readings: half the
//! lookups per evaluation and half the additions per move (the midgame
//! search's node rate 11.8-12.0 -> 12.8-13.3 M nodes per CPU second at
//! level 14, `cargo bench --bench midgame -- 14`).

use super::{features, OFFSETS, PATTERNS, WEIGHTS_PER_PHASE};
use crate::board::symmetry;

/// The squares of the board (a mask) that pattern `t` reads on image
/// `s`.
const fn covered(t: usize, s: usize) -> u64 {
    let (mut mask, mut b) = (0u64, 0);
    while b < 64 {
        if digit_of(t, s, b).is_some() {
            mask |= 1 << b;
        }
        b += 1;
    }
    mask
}

/// Whether image `s` of pattern `t` is the first to read its squares of
/// the board: the images of a pattern that read the same squares (in
/// another order: an edge from either end, a corner block and its
/// transpose) are kept as one reading, whose weight is the sum of theirs
/// ([`fold_phase`]).
const fn first_of_its_squares(t: usize, s: usize) -> bool {
    let mut earlier = 0;
    while earlier < s {
        if covered(t, earlier) == covered(t, s) {
            return false;
        }
        earlier += 1;
    }
    true
}

/// The readings kept: one per pattern and set of squares of the board it
/// reads (46 of the 88 pattern features: 4 of each pattern's 8 images,
/// 8 of the 2x5 corner's, 2 of the long diagonal's).
pub const READINGS: usize = {
    let (mut n, mut t) = (0, 0);
    while t < PATTERNS.len() {
        let mut s = 0;
        while s < 8 {
            if first_of_its_squares(t, s) {
                n += 1;
            }
            s += 1;
        }
        t += 1;
    }
    n
};

/// Each kept reading's pattern and image, pattern by pattern.
pub(super) const KEPT: [(usize, usize); READINGS] = {
    let mut kept = [(0, 0); READINGS];
    let (mut n, mut t) = (0, 0);
    while t < PATTERNS.len() {
        let mut s = 0;
        while s < 8 {
            if first_of_its_squares(t, s) {
                kept[n] = (t, s);
                n += 1;
            }
            s += 1;
        }
        t += 1;
    }
    kept
};

/// The readings in a row: [`READINGS`] padded to a multiple of 32 (one
/// 64-byte vector holds 32 readings).
pub const LANES: usize = READINGS.next_multiple_of(32);

/// One value per kept pattern reading (padding lanes stay 0).
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

/// The digit of the reading of pattern `t` on image `s` that square `b`
/// of the board is (`None` if the image does not read `b`).
const fn digit_of(t: usize, s: usize, b: usize) -> Option<usize> {
    let squares = PATTERNS[t].squares;
    let image = square_image(b, s);
    let mut k = 0;
    while k < squares.len() {
        if squares[k] as usize == image {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// `C[b][r]`: what one disc of the side to move on square `b` adds to the
/// kept reading `r` (pattern `t` on image `s`): `3^k` if `b`'s image is
/// the pattern's `k`-th square, else 0.
static SQUARE_COEFFICIENTS: SquareRows = {
    let mut rows = [[0u16; LANES]; 64];
    let mut b = 0;
    while b < 64 {
        let mut r = 0;
        while r < READINGS {
            let (t, s) = KEPT[r];
            if let Some(k) = digit_of(t, s, b) {
                rows[b][r] = 3u16.pow(k as u32);
            }
            r += 1;
        }
        b += 1;
    }
    SquareRows(rows)
};

/// The weights of one phase as the searches' evaluation reads them, from
/// the phase's weights `w` (in the layout of [`PatternWeights`]'s phases):
/// each pattern's weight of a configuration `c` read on the first of a set
/// of images that read the same squares is the sum of the weights of what
/// each image of the set reads then (so that one kept reading stands for
/// the set: [`READINGS`]), the other features' weights as they are, then
/// one 0 (what the padding lanes read). Sums of `i16` as `i32`: exact
/// whatever the weights.
pub(super) fn fold_phase(w: &[i16]) -> Box<[i32]> {
    let mut folded = vec![0i32; WEIGHTS_PER_PHASE + 1];
    for (t, pattern) in PATTERNS.iter().enumerate() {
        let n = pattern.squares.len();
        // The images reading the squares image 0 reads (every pattern's
        // sets of images are alike: each kept image's set is this one's
        // image under a symmetry), and where each of image 0's digits
        // stands in theirs.
        let mut places = [[0usize; 10]; 8];
        let mut members = 0;
        for s in (0..8).filter(|&s| covered(t, s) == covered(t, 0)) {
            for b in 0..64 {
                if let Some(k) = digit_of(t, 0, b) {
                    places[members][k] = digit_of(t, s, b).expect("the same squares");
                }
            }
            members += 1;
        }
        let base = OFFSETS.0[t];
        let weights = &w[base..base + pattern.configurations()];
        let out = &mut folded[base..base + pattern.configurations()];
        // Where each member image reads configuration c of image 0, as
        // the sum of what c's low `h` digits and its high digits give
        // (two tables of at most 3^5 entries per image, so that the loop
        // over c is two lookups and an addition per image).
        let h = n / 2;
        let (low_count, high_count) = (3usize.pow(h as u32), 3usize.pow((n - h) as u32));
        let read_from = |place: &[usize; 10], digits: std::ops::Range<usize>, x: usize| {
            let mut x = x;
            let mut read = 0;
            for k in digits {
                read += (x % 3) * POWERS_OF_3[place[k]];
                x /= 3;
            }
            read
        };
        let mut low = [[0usize; 243]; 8];
        let mut high = [[0usize; 243]; 8];
        for m in 0..members {
            for (x, read) in low[m].iter_mut().take(low_count).enumerate() {
                *read = read_from(&places[m], 0..h, x);
            }
            for (x, read) in high[m].iter_mut().take(high_count).enumerate() {
                *read = read_from(&places[m], h..n, x);
            }
        }
        for (hi, chunk) in out.chunks_exact_mut(low_count).enumerate() {
            for (lo, value) in chunk.iter_mut().enumerate() {
                *value = (0..members)
                    .map(|m| i32::from(weights[high[m][hi] + low[m][lo]]))
                    .sum();
            }
        }
    }
    let others = OFFSETS.0[PATTERNS.len()];
    for i in others..WEIGHTS_PER_PHASE {
        folded[i] = i32::from(w[i]);
    }
    folded.into_boxed_slice()
}

const POWERS_OF_3: [usize; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// The first weight of each kept reading's pattern (its index in
/// [`fold_phase`]'s table is this plus the reading); the padding lanes'
/// is the table's last, a 0.
pub(super) const READING_BASE: [u32; LANES] = {
    let mut base = [WEIGHTS_PER_PHASE as u32; LANES];
    let mut r = 0;
    while r < READINGS {
        base[r] = OFFSETS.0[KEPT[r].0] as u32;
        r += 1;
    }
    base
};

/// The kept pattern readings of a position from both sides' points of
/// view: `mover[r]`, for the kept reading `r` of pattern `t` on image `s`,
/// is [`super::features`]`(p, o)[8 t + s]` less its pattern's first
/// weight, `opponent[r]` the same of `features(o, p)`.
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
            for (r, &(t, s)) in row.iter_mut().zip(&KEPT) {
                *r = (f[8 * t + s] - OFFSETS.0[t] as u32) as u16;
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
