//! Perft: the number of leaves of the game tree at a fixed depth, with the
//! published conventions: a pass is a ply, and a finished game counts as one
//! leaf at every deeper depth.

use super::position::RelativePosition;
use crate::board::bits::after;
use crate::board::bits::{kernel_entries, with_best_kernel, Bits};
use crate::board::Square;

/// The number of leaves `depth` plies below `pos`.
///
/// The last ply is counted in bulk (the popcount of the moves), so depth
/// `d` generates moves only for the nodes down to depth `d - 1`.
///
/// ```
/// use reversi::engine::{perft, RelativePosition};
/// assert_eq!(perft(&RelativePosition::start(8), 4), 244);
/// ```
#[must_use]
pub fn perft(pos: &RelativePosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    with_best_kernel!(|k| k.count(pos.player, pos.opponent, pos.valid, depth))
}

kernel_entries! {
    /// Perft's recursion, compiled once per kernel with its CPU features
    /// (see [`crate::board::bits::Kernel`]).
    trait PerftKernel {
        fn count(p: u64, o: u64, valid: u64, depth: u32) -> u64 = |k| count(k, p, o, valid, depth);
    }
}

/// The leaves `depth >= 1` plies below the owner of `p` to move against
/// `o` on `valid`, with the kernel `k`.
#[inline(always)]
fn count<K: PerftKernel>(k: K, p: u64, o: u64, valid: u64, depth: u32) -> u64 {
    let moves = k.moves(p, o, valid);
    if moves == 0 {
        if k.moves(o, p, valid) == 0 {
            return 1; // game over: one leaf at every deeper depth
        }
        return if depth == 1 {
            1
        } else {
            k.count(o, p, valid, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    for sq in Bits(moves) {
        let f = k.flips(p, o, sq);
        total += {
            let (np, no) = after(p, o, sq, f);
            k.count(np, no, valid, depth - 1)
        };
    }
    total
}

/// The leaf count under each first move (in reading order; a forced pass is
/// `None`), for `depth >= 1`. Empty for a finished game.
#[must_use]
pub fn perft_divide(pos: &RelativePosition, depth: u32) -> Vec<(Option<Square>, u64)> {
    if depth == 0 || pos.is_game_over() {
        return Vec::new();
    }
    let moves = pos.moves();
    if moves == 0 {
        return vec![(None, perft(&pos.pass(), depth - 1))];
    }
    Bits(moves)
        .map(|sq| (Some(Square(sq)), perft(&pos.play(sq), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_8x8_counts_to_depth_6() {
        let expected = [1u64, 4, 12, 56, 244, 1396, 8200];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&RelativePosition::start(8), d as u32), n, "depth {d}");
        }
    }

    /// The leaf counts of every board size from the start to depth 7 with
    /// the kernel `k`.
    fn counts<K: PerftKernel>(k: K) -> Vec<u64> {
        let mut all = Vec::new();
        for n in [4u8, 6, 8] {
            let p = RelativePosition::start(n);
            for depth in 1..=7 {
                all.push(k.count(p.player, p.opponent, p.valid, depth));
            }
        }
        all
    }

    #[test]
    fn every_kernel_this_cpu_runs_counts_alike() {
        let portable = counts(crate::board::bits::Portable);
        assert_eq!(portable[14..], [4, 12, 56, 244, 1396, 8200, 55092]);
        #[cfg(target_arch = "x86_64")]
        {
            use crate::board::bits::{Avx2, Avx512};
            if let Some(k) = Avx2::detect() {
                assert_eq!(counts(k), portable, "AVX2");
            }
            if let Some(k) = Avx512::detect() {
                assert_eq!(counts(k), portable, "AVX-512");
            }
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let p = RelativePosition::start(6);
        let parts = perft_divide(&p, 5);
        assert_eq!(parts.len(), 4);
        assert_eq!(parts.iter().map(|x| x.1).sum::<u64>(), perft(&p, 5));
    }
}
