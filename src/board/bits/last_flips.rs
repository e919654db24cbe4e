//! Flip counts on the last empty square of a full board, by table lookups
//! per line ([`LastFlips`]).

use super::{valid_mask, Kernel, RAYS};

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
    /// four lines through `sq` is one `pext` of `kernel` and one table
    /// lookup per player.
    #[inline(always)]
    #[must_use]
    pub fn counts<K: Kernel>(self, kernel: K, p: u64, sq: u8) -> (u32, u32) {
        let (mut mine, mut theirs) = (0, 0);
        for cut in &self.0[sq as usize] {
            let own = kernel.pext(p, cut.mask) as u32;
            let table = &LAST_FLIPS[cut.pos as usize];
            mine += u32::from(table[own as usize]);
            theirs += u32::from(table[(cut.others & !own) as usize]);
        }
        (mine, theirs)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{flips_reference, Bits, Portable};
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
                let (mine, theirs) = LastFlips::new(valid).counts(Portable, p, sq);
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
