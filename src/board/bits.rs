//! Bitboard primitives shared by every board size.
//!
//! A board of size `n` (4, 6 or 8) lives in the top-left `n x n` corner of
//! a 64-bit word: square (row, col) is bit `row * 8 + col`, so ascending bit
//! order is reading order. Smaller boards are the 8x8 board with a mask of
//! valid squares; one move generator serves all sizes.

/// Squares of column a.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Squares of column h.
pub const FILE_H: u64 = 0x8080_8080_8080_8080;

/// The eight directions as (shift, mask applied after the shift).
/// A positive shift moves toward higher bit indices.
const DIRECTIONS: [(i32, u64); 8] = [
    (1, !FILE_A),  // east
    (-1, !FILE_H), // west
    (8, !0),       // south
    (-8, !0),      // north
    (9, !FILE_A),  // south-east
    (7, !FILE_H),  // south-west
    (-7, !FILE_A), // north-east
    (-9, !FILE_H), // north-west
];

#[inline(always)]
fn shift(b: u64, s: i32, mask: u64) -> u64 {
    if s > 0 {
        (b << s) & mask
    } else {
        (b >> -s) & mask
    }
}

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

/// The legal moves of the player owning `p` against `o`: every empty valid
/// square from which some line of opponent discs ends in one of `p`.
#[inline]
#[must_use]
pub fn moves(p: u64, o: u64, valid: u64) -> u64 {
    moves_steps::<6>(p, o, valid)
}

/// [`moves`] for a board of side `n`: a line holds at most `n - 2`
/// opponent discs, so smaller boards need fewer propagation steps.
#[inline]
#[must_use]
pub fn moves_on(p: u64, o: u64, n: u8) -> u64 {
    let valid = valid_mask(n);
    match n {
        4 => moves_steps::<2>(p, o, valid),
        6 => moves_steps::<4>(p, o, valid),
        _ => moves_steps::<6>(p, o, valid),
    }
}

/// Mobility with `STEPS` propagation steps per direction (enough for lines
/// of up to `STEPS` opponent discs).
#[inline(always)]
fn moves_steps<const STEPS: usize>(p: u64, o: u64, valid: u64) -> u64 {
    let empty = valid & !(p | o);
    let mut result = 0;
    for &(s, mask) in &DIRECTIONS {
        let mut t = o & shift(p, s, mask);
        for _ in 1..STEPS {
            t |= o & shift(t, s, mask);
        }
        result |= shift(t, s, mask);
    }
    result & empty
}

/// The opponent discs that flip when the player owning `p` places a disc on
/// square `sq` of an 8x8 board (empty result: the move is illegal).
#[inline]
#[must_use]
pub fn flips(p: u64, o: u64, sq: u8) -> u64 {
    flips_steps::<6>(p, o, sq)
}

/// [`flips`] for a board of side `n` (fewer steps on smaller boards).
#[inline]
#[must_use]
pub fn flips_on(p: u64, o: u64, sq: u8, n: u8) -> u64 {
    match n {
        4 => flips_steps::<2>(p, o, sq),
        6 => flips_steps::<4>(p, o, sq),
        _ => flips_steps::<6>(p, o, sq),
    }
}

/// Flips by propagation: in each direction, the run of opponent discs that
/// starts next to `sq`; it flips when the square after it holds a disc of `p`.
#[inline(always)]
fn flips_steps<const STEPS: usize>(p: u64, o: u64, sq: u8) -> u64 {
    let start = 1u64 << sq;
    let mut result = 0;
    for &(s, mask) in &DIRECTIONS {
        let mut run = o & shift(start, s, mask);
        for _ in 1..STEPS {
            run |= o & shift(run, s, mask);
        }
        let bounded = shift(run, s, mask) & p != 0;
        result |= run & 0u64.wrapping_sub(u64::from(bounded));
    }
    result
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
        let m = moves(black, white, !0);
        assert_eq!(Bits(m).collect::<Vec<_>>(), vec![19, 26, 37, 44]);
        assert_eq!(flips(black, white, 19), 1 << 27);
    }
}
