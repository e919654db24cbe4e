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
//! | [`moves_simd`] | [`flips_simd`] | AVX2 vectors (four directions per instruction) where the build targets AVX2, else the scalar code |
//!
//! The tests check every variant against the reference on random boards.

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
/// [`flips_scalar`] and [`flips_simd`], which the board and the engine use.
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

/// The rays of [`RAYS`] regrouped for vector code: for every square, the
/// four rays toward higher bits, then the four toward lower bits.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[repr(align(32))]
struct VectorRays([[u64; 8]; 64]);

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
static VECTOR_RAYS: VectorRays = VectorRays(RAYS);

/// [`moves_scalar`] with AVX2: the four shift amounts (1, 8, 9, 7) sit in the
/// four lanes of a vector, so each propagation step serves four directions
/// toward higher bits, and a second vector serves the four toward lower
/// bits. Compiled when the build targets AVX2 (the project's default);
/// otherwise it is [`moves_scalar`].
#[inline]
#[must_use]
pub fn moves_simd(p: u64, o: u64, valid: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        use std::arch::x86_64::{
            __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_castsi256_si128,
            _mm256_extracti128_si256, _mm256_or_si256, _mm256_set1_epi64x, _mm256_set_epi64x,
            _mm256_sllv_epi64, _mm256_srlv_epi64, _mm_cvtsi128_si64, _mm_or_si128,
            _mm_unpackhi_epi64,
        };
        // SAFETY: the intrinsics need AVX2, which this cfg branch guarantees
        // the build targets; they touch no memory.
        unsafe {
            let inner = (o & !(FILE_A | FILE_H)) as i64;
            let pv = _mm256_set1_epi64x(p as i64);
            // Lanes 0-3: shifts 1, 8, 9, 7; only the vertical one may wrap.
            let m = _mm256_set_epi64x(inner, inner, o as i64, inner);
            let s = _mm256_set_epi64x(7, 9, 8, 1);
            let s2 = _mm256_add_epi64(s, s);
            let and = |a: __m256i, b: __m256i| _mm256_and_si256(a, b);
            let or = |a: __m256i, b: __m256i| _mm256_or_si256(a, b);
            // Toward higher bits.
            let mut u = and(m, _mm256_sllv_epi64(pv, s));
            u = or(u, and(m, _mm256_sllv_epi64(u, s)));
            let pair_u = and(m, _mm256_sllv_epi64(m, s));
            u = or(u, and(pair_u, _mm256_sllv_epi64(u, s2)));
            u = or(u, and(pair_u, _mm256_sllv_epi64(u, s2)));
            // Toward lower bits.
            let mut d = and(m, _mm256_srlv_epi64(pv, s));
            d = or(d, and(m, _mm256_srlv_epi64(d, s)));
            let pair_d = and(m, _mm256_srlv_epi64(m, s));
            d = or(d, and(pair_d, _mm256_srlv_epi64(d, s2)));
            d = or(d, and(pair_d, _mm256_srlv_epi64(d, s2)));
            let r = or(_mm256_sllv_epi64(u, s), _mm256_srlv_epi64(d, s));
            let h = _mm_or_si128(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
            let h = _mm_or_si128(h, _mm_unpackhi_epi64(h, h));
            (_mm_cvtsi128_si64(h) as u64) & valid & !(p | o)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        moves_scalar(p, o, valid)
    }
}

/// [`flips_scalar`] with AVX2: the four rays toward higher bits in one vector
/// (the first non-opponent square isolated by `x & -x`), the four toward
/// lower bits in another (the highest non-opponent square found by smearing
/// it down; the ray squares above the smear are the candidates). Same
/// contract as [`flips_scalar`]; without AVX2 it is [`flips_scalar`].
#[inline]
#[must_use]
pub fn flips_simd(p: u64, o: u64, sq: u8) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        use std::arch::x86_64::{
            __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256,
            _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_extracti128_si256,
            _mm256_load_si256, _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256,
            _mm256_srli_epi64, _mm256_sub_epi64, _mm_cvtsi128_si64, _mm_or_si128,
            _mm_unpackhi_epi64,
        };
        let rays = &VECTOR_RAYS.0[sq as usize];
        // SAFETY: the intrinsics need AVX2, which this cfg branch guarantees
        // the build targets; the loads read 32 bytes inside `rays`, a row of
        // a 32-byte-aligned table of 64-byte rows, at offsets 0 and 32.
        unsafe {
            let up = _mm256_load_si256(rays.as_ptr().cast::<__m256i>());
            let down = _mm256_load_si256(rays.as_ptr().add(4).cast::<__m256i>());
            let pv = _mm256_set1_epi64x(p as i64);
            let ov = _mm256_set1_epi64x(o as i64);
            let zero = _mm256_setzero_si256();
            let ones = _mm256_set1_epi64x(-1);
            // Higher bits: lowest stopper.
            let stop = _mm256_andnot_si256(ov, up);
            let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
            let miss = _mm256_cmpeq_epi64(_mm256_and_si256(first, pv), zero);
            let fu = _mm256_andnot_si256(miss, _mm256_and_si256(up, _mm256_add_epi64(first, ones)));
            // Lower bits: highest stopper; `x` smears it over every lower bit.
            let mut x = _mm256_andnot_si256(ov, down);
            x = _mm256_or_si256(x, _mm256_srli_epi64(x, 1));
            x = _mm256_or_si256(x, _mm256_srli_epi64(x, 2));
            x = _mm256_or_si256(x, _mm256_srli_epi64(x, 4));
            x = _mm256_or_si256(x, _mm256_srli_epi64(x, 8));
            x = _mm256_or_si256(x, _mm256_srli_epi64(x, 16));
            x = _mm256_or_si256(x, _mm256_srli_epi64(x, 32));
            let top = _mm256_andnot_si256(_mm256_srli_epi64(x, 1), x);
            let miss = _mm256_cmpeq_epi64(_mm256_and_si256(top, pv), zero);
            let fd = _mm256_andnot_si256(miss, _mm256_andnot_si256(x, down));
            let r = _mm256_or_si256(fu, fd);
            let h = _mm_or_si128(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
            let h = _mm_or_si128(h, _mm_unpackhi_epi64(h, h));
            _mm_cvtsi128_si64(h) as u64
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(p, o, sq)
    }
}

#[cfg(test)]
mod vector_tests {
    use super::*;

    #[test]
    fn vector_code_agrees_with_propagation_on_random_boards() {
        let mut s = crate::rng::Rng::new(0x2545_F491_4F6C_DD1D);
        for n in [4u8, 6, 8] {
            let valid = valid_mask(n);
            for i in 0..30_000 {
                // Vary the density: sparse, mixed and nearly full boards.
                let a = s.next_u64() & valid;
                let b = s.next_u64() & valid;
                let fill = match i % 3 {
                    0 => a & b,
                    1 => a,
                    _ => a | b,
                };
                let p = fill & s.next_u64();
                let o = fill & !p;
                assert_eq!(
                    moves_simd(p, o, valid),
                    moves_reference(p, o, valid),
                    "p {p:x} o {o:x}"
                );
                for sq in Bits(valid & !(p | o)) {
                    assert_eq!(
                        flips_simd(p, o, sq),
                        flips_reference(p, o, sq),
                        "p {p:x} o {o:x} sq {sq}"
                    );
                }
            }
        }
    }
}

/// For every square, the four lines through it (row, anti-diagonal, column,
/// diagonal; the square included), up to the 8x8 edge.
const LINES: [[u64; 4]; 64] = build_lines();

const fn build_lines() -> [[u64; 4]; 64] {
    let mut lines = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            lines[sq][d] = RAYS[sq][d] | RAYS[sq][d + 4] | (1u64 << sq);
            d += 1;
        }
        sq += 1;
    }
    lines
}

/// `LAST_FLIPS[pos][line]`: how many discs flip when a disc is placed at
/// index `pos` of a full line (at most 8 squares, lowest bit first) whose
/// set bits are the mover's and whose other squares are the opponent's.
/// Bits beyond the line's end are clear, so a run reaching them flips
/// nothing.
static LAST_FLIPS: [[u8; 256]; 8] = build_last_flips();

const fn build_last_flips() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut count = 0;
            // Toward higher indices.
            let mut j = pos + 1;
            while j < 8 && line & (1 << j) == 0 {
                j += 1;
            }
            if j < 8 {
                count += j - pos - 1;
            }
            // Toward lower indices.
            let mut j = pos;
            while j > 0 && line & (1 << (j - 1)) == 0 {
                j -= 1;
            }
            if j > 0 {
                count += pos - j;
            }
            table[pos][line] = count as u8;
            line += 1;
        }
        pos += 1;
    }
    table
}

/// The bits of `x` selected by `mask`, packed toward bit 0 (BMI2 `pext`
/// where the build has it).
#[inline]
fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build targets BMI2 (this cfg branch); no memory is touched.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut m, mut k) = (0, mask, 0);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << k;
            }
            k += 1;
            m &= m - 1;
        }
        out
    }
}

/// One line through a square, cut to a board: its squares, the index of
/// the square within it, and the other squares as packed line bits.
#[derive(Clone, Copy)]
struct LineCut {
    mask: u64,
    pos: u32,
    others: u32,
}

/// `LINE_CUTS[i][sq]`: the four lines through `sq` on the board of size
/// 4, 6, 8 for `i` = 0, 1, 2.
static LINE_CUTS: [[[LineCut; 4]; 64]; 3] = [
    build_line_cuts(valid_mask(4)),
    build_line_cuts(valid_mask(6)),
    build_line_cuts(valid_mask(8)),
];

const fn build_line_cuts(valid: u64) -> [[LineCut; 4]; 64] {
    let empty = LineCut {
        mask: 0,
        pos: 0,
        others: 0,
    };
    let mut cuts = [[empty; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 4 {
            let mask = LINES[sq][k] & valid;
            let pos = (mask & ((1u64 << sq) - 1)).count_ones();
            let full = (1u32 << mask.count_ones()) - 1;
            cuts[sq][k] = LineCut {
                mask,
                pos,
                others: full & !(1 << pos),
            };
            k += 1;
        }
        sq += 1;
    }
    cuts
}

/// The line tables of one board size for [`LastFlips::counts`].
#[derive(Clone, Copy)]
pub struct LastFlips(&'static [[LineCut; 4]; 64]);

impl LastFlips {
    /// The tables for the board whose squares are `valid` (see [`valid_mask`]).
    #[must_use]
    pub fn new(valid: u64) -> LastFlips {
        const FOUR: u64 = valid_mask(4);
        const SIX: u64 = valid_mask(6);
        LastFlips(match valid {
            FOUR => &LINE_CUTS[0],
            SIX => &LINE_CUTS[1],
            _ => &LINE_CUTS[2],
        })
    }

    /// How many discs flip on `sq`, the only empty square of the board:
    /// `(mover, opponent)`, where the mover owns `p` and the opponent every
    /// other disc. Zero means that player cannot play there. Each of the
    /// four lines through `sq` is one table lookup per player.
    #[inline]
    #[must_use]
    pub fn counts(self, p: u64, sq: u8) -> (u32, u32) {
        let (mut mine, mut theirs) = (0, 0);
        for cut in &self.0[sq as usize] {
            let own = pext(p, cut.mask) as u32;
            let table = &LAST_FLIPS[cut.pos as usize];
            mine += u32::from(table[own as usize]);
            theirs += u32::from(table[(cut.others & !own) as usize]);
        }
        (mine, theirs)
    }
}

#[cfg(test)]
mod last_flip_tests {
    use super::*;

    #[test]
    fn last_flip_counts_agree_with_flips_on_random_full_boards() {
        let mut s = crate::rng::Rng::new(0x51_7CC1_B727_220A);
        for n in [4u8, 6, 8] {
            let valid = valid_mask(n);
            for _ in 0..20_000 {
                let sq = Bits(valid).nth((s.next_u64() % u64::from(n * n)) as usize);
                let sq = sq.expect("a valid square");
                let p = s.next_u64() & valid & !(1u64 << sq);
                let o = valid & !p & !(1u64 << sq);
                let (mine, theirs) = LastFlips::new(valid).counts(p, sq);
                assert_eq!(
                    mine,
                    flips_reference(p, o, sq).count_ones(),
                    "p {p:x} sq {sq}"
                );
                assert_eq!(
                    theirs,
                    flips_reference(o, p, sq).count_ones(),
                    "p {p:x} sq {sq}"
                );
            }
        }
    }
}
