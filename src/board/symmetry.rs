//! The eight symmetries of the 8x8 board as bitboard maps (square
//! `row * 8 + col`, a1 = bit 0 in the top-left corner).

/// Reverses the columns of every row (a1 <-> h1).
#[inline]
#[must_use]
pub const fn mirror_columns(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Reverses the rows (a1 <-> a8).
#[inline]
#[must_use]
pub const fn mirror_rows(x: u64) -> u64 {
    x.swap_bytes()
}

/// Swaps rows and columns (the a1-h8 diagonal stays).
#[inline]
#[must_use]
pub const fn transpose(x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (x ^ (x << 28));
    let x = x ^ t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    let x = x ^ t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The images of `x` under the eight symmetries, in a fixed order: the
/// identity, columns mirrored, rows mirrored, both (a half turn), and the
/// same four transposed.
#[inline]
#[must_use]
pub fn all(x: u64) -> [u64; 8] {
    let h = mirror_columns(x);
    let v = mirror_rows(x);
    let hv = mirror_rows(h);
    [
        x,
        h,
        v,
        hv,
        transpose(x),
        transpose(h),
        transpose(v),
        transpose(hv),
    ]
}

/// The image of `x` under symmetry `s` (numbered as in [`all`]).
///
/// # Panics
/// If `s` is 8 or more.
#[inline]
#[must_use]
pub fn image(x: u64, s: usize) -> u64 {
    match s {
        0 => x,
        1 => mirror_columns(x),
        2 => mirror_rows(x),
        3 => mirror_rows(mirror_columns(x)),
        4 => transpose(x),
        5 => transpose(mirror_columns(x)),
        6 => transpose(mirror_rows(x)),
        7 => transpose(mirror_rows(mirror_columns(x))),
        _ => panic!("symmetry {s} of 8"),
    }
}

/// The symmetry that undoes each one (numbered as in [`all`]): the
/// mirrors, the half turn and the two transpositions are their own
/// inverses; the two quarter turns undo each other.
pub const INVERSE: [usize; 8] = [0, 1, 2, 3, 4, 6, 5, 7];

/// The square (`row * 8 + col`) that square `sq` goes to under symmetry
/// `s`.
#[inline]
#[must_use]
pub fn square_image(sq: u8, s: usize) -> u8 {
    image(1u64 << sq, s).trailing_zeros() as u8
}

/// The smallest of the eight images of the position where one side has
/// the discs `p` and the other `o` (compared as the pair `(p, o)`), and
/// the symmetry that gives it: one key for a position and its seven
/// images.
#[inline]
#[must_use]
pub fn canonical(p: u64, o: u64) -> ((u64, u64), usize) {
    let (ps, os) = (all(p), all(o));
    (0..8)
        .map(|s| ((ps[s], os[s]), s))
        .min()
        .expect("eight images")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The square a symmetry sends (row, col) to, square by square.
    fn naive(x: u64, f: impl Fn(u32, u32) -> (u32, u32)) -> u64 {
        let mut out = 0;
        for sq in 0..64 {
            if x >> sq & 1 == 1 {
                let (r, c) = f(sq / 8, sq % 8);
                out |= 1u64 << (r * 8 + c);
            }
        }
        out
    }

    #[test]
    fn maps_agree_with_square_by_square_images() {
        let mut rng = Rng::new(0x5EED);
        for _ in 0..1000 {
            let x = rng.next_u64();
            assert_eq!(mirror_columns(x), naive(x, |r, c| (r, 7 - c)));
            assert_eq!(mirror_rows(x), naive(x, |r, c| (7 - r, c)));
            assert_eq!(transpose(x), naive(x, |r, c| (c, r)));
            let images = all(x);
            // Eight distinct maps: a single disc goes to eight places
            // unless it lies on a symmetry axis.
            let one = 1u64 << 1; // b1
            let spread: u64 = all(one).iter().fold(0, |a, b| a | b);
            assert_eq!(spread.count_ones(), 8);
            for image in images {
                assert_eq!(image.count_ones(), x.count_ones());
            }
            for (s, &expected) in images.iter().enumerate() {
                assert_eq!(super::image(x, s), expected);
                assert_eq!(super::image(expected, INVERSE[s]), x, "symmetry {s}");
            }
        }
    }

    #[test]
    fn a_position_and_its_images_share_one_canonical_form() {
        let mut rng = Rng::new(0xB00C);
        for _ in 0..200 {
            let (p, o) = (rng.next_u64(), rng.next_u64());
            let (p, o) = (p & !o, o & !p);
            let (key, s) = canonical(p, o);
            assert_eq!(key, (image(p, s), image(o, s)));
            for t in 0..8 {
                assert_eq!(canonical(image(p, t), image(o, t)).0, key);
            }
            for sq in 0..64u8 {
                let there = square_image(sq, s);
                assert_eq!(1u64 << there, image(1u64 << sq, s));
                assert_eq!(square_image(there, INVERSE[s]), sq);
            }
        }
    }
}
