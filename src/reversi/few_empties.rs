//! The exact minimax value and state count of a Reversi position with at
//! most four empty squares, computed without the generic recursion: the
//! shortcut behind [`Game::minimax_subtree`](crate::game::Game::minimax_subtree)
//! for [`Reversi`](super::Reversi).

use super::{Position, Utility};
use crate::board::bits::after;
use crate::board::bits::{kernel_entries, with_best_kernel, Bits, LastFlips};
use crate::board::Color;
use crate::game::{Value, INFINITY};

/// The minimax value (black's point of view) and the number of states
/// minimax visits below and including `p`, when `p` has at most
/// [`MAX_EMPTIES`] empty squares; `None` otherwise.
pub(super) fn minimax_count(p: &Position, utility: Utility) -> Option<(Value, u64)> {
    let empty = p.board.empty();
    if empty.count_ones() > MAX_EMPTIES {
        return None;
    }
    let own = p.board.discs(p.to_move);
    let opp = p.board.discs(p.to_move.other());
    let valid = p.board.valid();
    let solver = FewEmpties {
        valid,
        last: LastFlips::new(valid),
        utility,
    };
    let (value, nodes) = with_best_kernel!(|k| solver.solve(k, own, opp, empty));
    Some(match p.to_move {
        Color::Black => (value, nodes),
        Color::White => (-value, nodes),
    })
}

/// Positions with at most this many empty squares are solved by [`FewEmpties`]
/// instead of the generic recursion (it has one function per level, up to
/// four).
pub(super) const MAX_EMPTIES: u32 = 4;
const _: () = assert!(MAX_EMPTIES <= 4);

/// Plain minimax in negamax form on the two bitboards of a position with
/// few empty squares: the mover's discs `p` against `o`, `empty` the empty
/// squares. Each level has its own function, so a level calls the next one
/// directly (no branch on the number of empties to predict), and the last
/// two levels try their squares without branching on legality: the
/// outcomes of those branches are what a processor predicts worst here.
#[derive(Clone, Copy)]
struct FewEmpties {
    valid: u64,
    last: LastFlips,
    utility: Utility,
}

/// The value for the mover and the number of states minimax visits.
type Counted = (Value, u64);

kernel_entries! {
    /// The levels of [`FewEmpties`] with two to four empties, compiled once
    /// per kernel with its CPU features (see [`crate::board::bits::Kernel`]).
    trait FewEmptiesKernel {
        fn four(s: FewEmpties, p: u64, o: u64, empty: u64) -> Counted = |k| s.four(k, p, o, empty);
        fn three(s: FewEmpties, p: u64, o: u64, empty: u64) -> Counted =
            |k| s.three(k, p, o, empty);
        fn two(s: FewEmpties, p: u64, o: u64, empty: u64) -> Counted = |k| s.two(k, p, o, empty);
    }
}

impl FewEmpties {
    /// At most [`MAX_EMPTIES`] empties.
    /// `k` is the kernel the levels run with.
    fn solve<K: FewEmptiesKernel>(self, k: K, p: u64, o: u64, empty: u64) -> Counted {
        match empty.count_ones() {
            0 => (self.end(p, o), 1),
            1 => self.one(k, p, o, empty.trailing_zeros() as u8),
            2 => k.two(self, p, o, empty),
            3 => k.three(self, p, o, empty),
            _ => k.four(self, p, o, empty),
        }
    }

    /// The utility of the finished game for the mover.
    #[inline]
    fn end(self, p: u64, o: u64) -> Value {
        self.utility
            .score(p.count_ones() as i32 - o.count_ones() as i32)
    }

    #[inline(always)]
    fn four<K: FewEmptiesKernel>(self, k: K, p: u64, o: u64, empty: u64) -> Counted {
        self.expand(k, p, o, empty, K::three, K::four)
    }

    #[inline(always)]
    fn three<K: FewEmptiesKernel>(self, k: K, p: u64, o: u64, empty: u64) -> Counted {
        self.expand(k, p, o, empty, K::two, K::three)
    }

    /// A node whose children are solved by `child`; after a pass the
    /// opponent's node (same empties) is solved by `same`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn expand<K: FewEmptiesKernel>(
        self,
        k: K,
        p: u64,
        o: u64,
        empty: u64,
        child: impl Fn(K, FewEmpties, u64, u64, u64) -> Counted,
        same: impl Fn(K, FewEmpties, u64, u64, u64) -> Counted,
    ) -> Counted {
        let moves = k.moves(p, o, self.valid);
        if moves == 0 {
            if k.moves(o, p, self.valid) == 0 {
                return (self.end(p, o), 1);
            }
            // A forced pass: one more state, then the opponent's subtree.
            let (v, n) = same(k, self, o, p, empty);
            return (-v, n + 1);
        }
        let (mut best, mut nodes) = (-INFINITY, 1);
        for sq in Bits(moves) {
            let f = k.flips(p, o, sq);
            let (np, no) = after(p, o, sq, f);
            let (v, n) = child(k, self, np, no, empty & !(1u64 << sq));
            best = best.max(-v);
            nodes += n;
        }
        (best, nodes)
    }

    /// Two empty squares: both are tried, an illegal one (no flips)
    /// contributing nothing.
    #[inline(always)]
    fn two<K: FewEmptiesKernel>(self, k: K, p: u64, o: u64, empty: u64) -> Counted {
        let a = empty.trailing_zeros() as u8;
        let b = (empty & (empty - 1)).trailing_zeros() as u8;
        let (fa, fb) = (k.flips(p, o, a), k.flips(p, o, b));
        if fa | fb == 0 {
            if k.flips(o, p, a) | k.flips(o, p, b) == 0 {
                return (self.end(p, o), 1);
            }
            let (v, n) = k.two(self, o, p, empty);
            return (-v, n + 1);
        }
        let (va, na) = {
            let (np, no) = after(p, o, a, fa);
            self.one(k, np, no, b)
        };
        let (vb, nb) = {
            let (np, no) = after(p, o, b, fb);
            self.one(k, np, no, a)
        };
        let (va, na) = if fa != 0 { (-va, na) } else { (-INFINITY, 0) };
        let (vb, nb) = if fb != 0 { (-vb, nb) } else { (-INFINITY, 0) };
        (va.max(vb), 1 + na + nb)
    }

    /// One empty square `sq`: the mover plays it (two states), or passes
    /// and the opponent plays it (three), or the game is over (one). Only
    /// flip counts are needed, read from line tables, and nothing branches.
    #[inline(always)]
    fn one<K: FewEmptiesKernel>(self, k: K, p: u64, o: u64, sq: u8) -> Counted {
        let d = p.count_ones() as i32 - o.count_ones() as i32;
        let (mine, theirs) = self.last.counts(k, p, sq);
        let mover = i32::from(mine != 0);
        let opponent = i32::from(mine == 0 && theirs != 0);
        let d = d + mover * (2 * mine as i32 + 1) - opponent * (2 * theirs as i32 + 1);
        let nodes = 1 + mover as u64 + 2 * opponent as u64;
        (self.utility.score(d), nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bits::Portable;
    use crate::reversi::{random_position, Reversi};
    use crate::rng::Rng;

    /// The value and count of random positions of every size with at most
    /// four empties, solved with the kernel `k`.
    fn solve_all<K: FewEmptiesKernel>(k: K) -> Vec<Counted> {
        let mut rng = Rng::new(0xF00D_CAFE_1234_5678);
        let mut all = Vec::new();
        for n in [4u8, 6, 8] {
            for _ in 0..300 {
                let plies = usize::from(n * n) - 4 - rng.pick(&[0, 1, 2, 3]);
                let p = random_position(n, plies, &mut rng);
                let empty = p.board.empty();
                if empty.count_ones() > MAX_EMPTIES {
                    continue;
                }
                let valid = p.board.valid();
                let solver = FewEmpties {
                    valid,
                    last: LastFlips::new(valid),
                    utility: Reversi::DISC_DIFFERENCE.utility,
                };
                let (own, opp) = (p.board.discs(p.to_move), p.board.discs(p.to_move.other()));
                all.push(solver.solve(k, own, opp, empty));
            }
        }
        all
    }

    #[test]
    fn every_kernel_this_cpu_runs_counts_alike() {
        let portable = solve_all(Portable);
        assert!(portable.len() > 800, "{} positions", portable.len());
        #[cfg(target_arch = "x86_64")]
        {
            use crate::board::bits::{Avx2, Avx512};
            if let Some(k) = Avx2::detect() {
                assert_eq!(solve_all(k), portable, "AVX2");
            }
            if let Some(k) = Avx512::detect() {
                assert_eq!(solve_all(k), portable, "AVX-512");
            }
        }
    }
}
