//! Bitboard primitives shared by every board size.
//!
//! A board of size `n` (4, 6 or 8) lives in the top-left `n x n` corner of
//! a 64-bit word: square (row, col) is bit `row * 8 + col`, so ascending bit
//! order is reading order. Smaller boards are the 8x8 board with a mask of
//! valid squares; one move generator serves all sizes.
//!
//! Each of the two questions (which squares are legal moves, which discs a
//! move flips) has several implementations with the same results, named by
//! what distinguishes them:
//!
//! | moves | flips | what it is |
//! | --- | --- | --- |
//! | [`moves_reference`] | [`flips_reference`] | the portable reference: plain propagation one square at a time, the simplest to check |
//! | [`moves_for_size`] | | the reference propagation with as few steps as the board size needs |
//! | [`moves_scalar`] | [`flips_scalar`] | the fastest portable code: runs doubled after two steps; flips from ray tables |
//! | [`Kernel::moves`] | [`Kernel::flips`] | the kernel a search is compiled with: [`Portable`] (the scalar code) or, chosen at run time, [`Avx2`] / [`Avx512`] (four directions per vector instruction) |
//!
//! The tests check every variant against the reference on random boards.
//! [`LastFlips`] counts the flips on the last empty square by table lookups.

mod kernel;
mod last_flips;

pub(crate) use kernel::{kernel_entries, with_best_kernel};
#[cfg(target_arch = "x86_64")]
pub use kernel::{Avx2, Avx512};
pub use kernel::{Kernel, Portable, AVX2_FEATURES, AVX512_FEATURES};
pub use last_flips::LastFlips;

/// Squares of column a.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Squares of column h.
pub const FILE_H: u64 = 0x8080_8080_8080_8080;

/// The mask of valid squares for a board of size `n` (4, 6 or 8; any
/// other size gets the full 8x8 board).
#[inline]
#[must_use]
pub const fn valid_mask(n: u8) -> u64 {
    match n {
        4 => 0x0000_0000_0f0f_0f0f,
        6 => 0x0000_3f3f_3f3f_3f3f,
        _ => !0,
    }
}

/// The position after the side with discs `p` plays on `sq`, turning the
/// discs `flips` (a legal move's), as the pair (new mover's discs, their
/// opponent's): the one place the engine's searches write a move.
#[inline(always)]
#[must_use]
pub const fn after(p: u64, o: u64, sq: u8, flips: u64) -> (u64, u64) {
    (o & !flips, p | flips | (1u64 << sq))
}

/// The legal moves of the player owning `p` against `o`: every empty valid
/// square from which some line of opponent discs ends in one of `p`. The
/// portable reference (propagation one square at a time, six steps per
/// direction); [`moves_scalar`] gives the same squares faster.
#[inline]
#[must_use]
pub fn moves_reference(p: u64, o: u64, valid: u64) -> u64 {
    moves_steps::<6>(p, o, valid)
}

/// [`moves_reference`] specialised to a board of side `n` (4, 6 or 8, the
/// mask taken from [`valid_mask`]): a line holds at most `n - 2` opponent
/// discs, so smaller boards need fewer propagation steps.
#[inline]
#[must_use]
pub fn moves_for_size(p: u64, o: u64, n: u8) -> u64 {
    let valid = valid_mask(n);
    match n {
        4 => moves_steps::<2>(p, o, valid),
        6 => moves_steps::<4>(p, o, valid),
        _ => moves_steps::<6>(p, o, valid),
    }
}

/// Mobility with `STEPS` propagation steps per direction (enough for lines
/// of up to `STEPS` opponent discs).
///
/// No mask is needed after a shift: sideways directions only step through
/// opponent discs off files a and h, so nothing wraps to the next row.
#[inline(always)]
fn moves_steps<const STEPS: usize>(p: u64, o: u64, valid: u64) -> u64 {
    let inner = o & !(FILE_A | FILE_H);
    let mut result = 0;
    for (s, m) in [(1, inner), (8, o), (7, inner), (9, inner)] {
        let (mut up, mut down) = (m & (p << s), m & (p >> s));
        for _ in 1..STEPS {
            up |= m & (up << s);
            down |= m & (down >> s);
        }
        result |= (up << s) | (down >> s);
    }
    result & valid & !(p | o)
}

/// The opponent discs that flip when the player owning `p` places a disc on
/// square `sq` (empty result: the move is illegal), by propagating runs of
/// opponent discs from the square: the portable reference for
/// [`flips_scalar`] and the kernels' [`Kernel::flips`], which the board
/// and the engine use.
#[inline]
#[must_use]
pub fn flips_reference(p: u64, o: u64, sq: u8) -> u64 {
    flips_steps::<6>(p, o, sq)
}

/// Flips by propagation: in each direction, the run of opponent discs that
/// starts next to `sq`; it flips when the square after it holds a disc of
/// `p`. Sideways runs only cross discs off files a and h (no wrapping).
#[inline(always)]
fn flips_steps<const STEPS: usize>(p: u64, o: u64, sq: u8) -> u64 {
    let start = 1u64 << sq;
    let inner = o & !(FILE_A | FILE_H);
    let mut result = 0;
    for (s, m) in [(1, inner), (8, o), (7, inner), (9, inner)] {
        let (mut up, mut down) = (m & (start << s), m & (start >> s));
        for _ in 1..STEPS {
            up |= m & (up << s);
            down |= m & (down >> s);
        }
        let up_bounded = (up << s) & p != 0;
        let down_bounded = (down >> s) & p != 0;
        result |= up & 0u64.wrapping_sub(u64::from(up_bounded));
        result |= down & 0u64.wrapping_sub(u64::from(down_bounded));
    }
    result
}

/// The same squares as [`moves_reference`], with fewer operations (the
/// fastest portable move generator): the file masks are applied once to the
/// opponent's discs instead of after every shift, and each direction extends
/// runs of opponent discs two squares at a time after the first two steps.
#[inline]
#[must_use]
pub fn moves_scalar(p: u64, o: u64, valid: u64) -> u64 {
    #[inline(always)]
    fn up(p: u64, m: u64, s: u32) -> u64 {
        let mut t = m & (p << s);
        t |= m & (t << s);
        let pair = m & (m << s);
        t |= pair & (t << (2 * s));
        t |= pair & (t << (2 * s));
        t << s
    }
    #[inline(always)]
    fn down(p: u64, m: u64, s: u32) -> u64 {
        let mut t = m & (p >> s);
        t |= m & (t >> s);
        let pair = m & (m >> s);
        t |= pair & (t >> (2 * s));
        t |= pair & (t >> (2 * s));
        t >> s
    }
    // Opponent discs that can lie inside a line with a sideways step.
    let inner = o & !(FILE_A | FILE_H);
    let m = up(p, inner, 1)
        | down(p, inner, 1)
        | up(p, o, 8)
        | down(p, o, 8)
        | up(p, inner, 7)
        | down(p, inner, 7)
        | up(p, inner, 9)
        | down(p, inner, 9);
    m & valid & !(p | o)
}

/// Iterates over the set bits of a word, lowest first (reading order).
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(valid_mask(8), !0);
        assert_eq!(valid_mask(4), 0x0f0f_0f0f);
        assert_eq!(valid_mask(6).count_ones(), 36);
        for n in [4u8, 6] {
            let mut m = 0u64;
            for r in 0..n {
                m |= ((1u64 << n) - 1) << (8 * r);
            }
            assert_eq!(valid_mask(n), m);
        }
    }

    #[test]
    fn opening_moves_8x8() {
        // d4, e5 white; e4, d5 black; black to move has d3, c4, f5, e6.
        let black = (1 << 28) | (1 << 35);
        let white = (1 << 27) | (1 << 36);
        let m = moves_reference(black, white, !0);
        assert_eq!(Bits(m).collect::<Vec<_>>(), vec![19, 26, 37, 44]);
        assert_eq!(flips_reference(black, white, 19), 1 << 27);
    }
}

/// For every square and each of the eight directions, the squares a ray from
/// that square crosses (the square itself excluded), up to the 8x8 edge.
/// Directions 0-3 go toward higher bits (east, south-west, south, south-east),
/// 4-7 toward lower bits (west, north-east, north, north-west).
const RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    // (row step, col step) in the order documented on `RAYS`.
    let steps: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = steps[d];
            let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
            let mut ray = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The same discs as [`flips_reference`] (the fastest portable flip
/// generator), computed without walking the board: for each
/// direction the first square of the ray that is not an opponent disc is
/// isolated with a bit trick, and the discs before it flip if it is one of
/// the player's. Squares off a smaller board are neither player's, so they
/// end lines as empty squares do. `sq` must be empty.
#[inline]
#[must_use]
pub fn flips_scalar(p: u64, o: u64, sq: u8) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut result = 0;
    // Toward higher bits: the stopper is the lowest non-opponent square.
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        if first & p != 0 {
            result |= ray & (first - 1);
        }
        d += 1;
    }
    // Toward lower bits: the stopper is the highest non-opponent square.
    while d < 8 {
        let ray = rays[d];
        let stop = ray & !o;
        if stop != 0 {
            let top = 63 - stop.leading_zeros();
            if (p >> top) & 1 != 0 {
                result |= ray & (!1u64 << top);
            }
        }
        d += 1;
    }
    result
}

#[cfg(test)]
mod scalar_tests {
    use super::*;

    #[test]
    fn scalar_code_agrees_with_the_reference_on_random_boards() {
        let mut s = crate::rng::Rng::new(0x9E37_79B9_7F4A_7C15);
        for n in [4u8, 6, 8] {
            let valid = valid_mask(n);
            for _ in 0..20_000 {
                let a = s.next_u64() & valid;
                let b = s.next_u64() & valid & !a;
                let (p, o) = (a & s.next_u64(), b | (a & !(a & s.next_u64())));
                let o = o & !p;
                assert_eq!(
                    moves_scalar(p, o, valid),
                    moves_reference(p, o, valid),
                    "p {p:x} o {o:x}"
                );
                for sq in Bits(valid & !(p | o)) {
                    assert_eq!(
                        flips_scalar(p, o, sq),
                        flips_reference(p, o, sq),
                        "p {p:x} o {o:x} sq {sq}"
                    );
                }
            }
        }
    }
}
