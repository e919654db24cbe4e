//! The last few empties (at most five): no move generation, every empty
//! square is tried directly (its flips are empty if it is illegal), the
//! squares of quadrants with an odd number of empties first (parity); the
//! last empty square is a special case.

use super::{EndgameSolver, SolverKernel, INF};
use crate::board::bits::after;
use crate::board::bits::Bits;

impl EndgameSolver {
    /// The squares of the quadrants with an odd number of empties.
    #[inline(always)]
    fn odd_squares(&self, empties: u64) -> u64 {
        let mut m = 0;
        for q in self.quadrants {
            if (empties & q).count_ones() & 1 == 1 {
                m |= q;
            }
        }
        m
    }

    /// The last few empties (`1 <= n <= SHALLOW`), odd quadrants first.
    /// `passed` is set when the opponent just passed. Entered through
    /// [`SolverKernel::shallow`], which compiles it with the kernel's CPU
    /// features.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shallow<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        passed: bool,
    ) -> i32 {
        if n == 1 {
            return self.last1(k, p, o);
        }
        self.nodes += 1;
        let empties = self.valid & !(p | o);
        let odd = self.odd_squares(empties);
        let mut best = -INF;
        for group in [empties & odd, empties & !odd] {
            for sq in Bits(group) {
                let f = k.flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let (np, no) = after(p, o, sq, f);
                let v = -k.shallow(self, np, no, -beta, -alpha, n - 1, false);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best == -INF {
            if passed {
                return self.final_score(p, o);
            }
            return -k.shallow(self, o, p, -beta, -alpha, n, true);
        }
        best
    }

    /// One empty square: play it if the mover can, else the opponent.
    #[inline(always)]
    fn last1<K: SolverKernel>(&mut self, k: K, p: u64, o: u64) -> i32 {
        self.nodes += 1;
        let sq = (self.valid & !(p | o)).trailing_zeros() as u8;
        let f = k.flips(p, o, sq);
        if f != 0 {
            let k = f.count_ones() as i32;
            return p.count_ones() as i32 + 2 * k + 1 - o.count_ones() as i32;
        }
        let f = k.flips(o, p, sq);
        if f != 0 {
            self.nodes += 1;
            let k = f.count_ones() as i32;
            return p.count_ones() as i32 - 2 * k - 1 - o.count_ones() as i32;
        }
        self.final_score(p, o)
    }
}
