//! The last few empties (at most [`SHALLOW`]): no move generation, no
//! table. The empty squares are listed once, where the search enters this
//! phase, with the parity of each quadrant (whether it holds an odd number
//! of empties), and passed down: each node tries the squares of its odd
//! quadrants first, then the others (parity ordering), each group in the
//! list's order (corners first, the squares next to corners last; see
//! [`square_classes`]), and each square only if it touches an opponent
//! disc and flips something.
//! Two, three and four empties have their own functions (no loops over
//! a variable list); the last empty square is scored without playing it,
//! from the number of discs each side would flip there
//! ([`crate::board::bits::LastFlips`]).
//!
//! Every position visited counts as one node, as in the rest of the
//! solver: a side that must pass counts once more, and so does the
//! opponent's move on the last square when the mover cannot play it.

use super::{EndgameSolver, SolverKernel, INF};
use crate::board::bits::{after, Bits, Kernel, FILE_A};

/// The squares of the first row.
const RANK_1: u64 = 0xFF;

/// At most this many empties: the last-empties search of this module.
pub(super) const SHALLOW: u32 = 5;
/// [`SHALLOW`] as an array length.
const SHALLOW_LEN: usize = SHALLOW as usize;
const _: () = assert!(SHALLOW >= 4);

/// For every square, the squares around it (on the 8x8 word; squares off a
/// smaller board are never occupied, so they need no mask): a move there
/// flips nothing unless one of them holds an opponent disc.
static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut m = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (rr, cc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
                    m |= 1u64 << (rr * 8 + cc);
                }
                dc += 1;
            }
            dr += 1;
        }
        table[sq] = m;
        sq += 1;
    }
    table
}

/// The valid squares of a board in five classes, in the order the
/// last-empties search tries them within a parity group: corners, the
/// other edge squares (not next to a corner), the inner squares not
/// diagonally next to a corner, the edge squares next to a corner (C),
/// the squares diagonally next to a corner (X).
/// `n` is the board's side and `corners` its corners.
pub(super) fn square_classes(valid: u64, n: u8, corners: u64) -> [u64; 5] {
    let (mut next_to, mut diagonal) = (0u64, 0u64);
    for c in Bits(corners) {
        let around = NEIGHBOURS[c as usize] & valid;
        let (r, col) = (c / 8, c % 8);
        for sq in Bits(around) {
            if sq / 8 != r && sq % 8 != col {
                diagonal |= 1u64 << sq;
            } else {
                next_to |= 1u64 << sq;
            }
        }
    }
    let last = u32::from(n) - 1;
    let edges = valid & (FILE_A | RANK_1 | (FILE_A << last) | (RANK_1 << (8 * last)));
    let c = next_to & !diagonal;
    let x = diagonal & !edges;
    [corners, edges & !corners & !c, valid & !edges & !x, c, x]
}

/// The discs of `o` that the owner of `p` flips by playing on the empty
/// square `sq` (empty if the move is illegal), skipping the flip
/// computation when no opponent disc touches the square.
#[inline(always)]
fn flips_near<K: Kernel>(k: K, p: u64, o: u64, sq: u8) -> u64 {
    if NEIGHBOURS[sq as usize] & o == 0 {
        0
    } else {
        k.flips(p, o, sq)
    }
}

/// `squares` without its element at index `skip` (order kept); `M` must be
/// `N - 1`.
#[inline(always)]
fn without<const N: usize, const M: usize>(squares: [u8; N], skip: usize) -> [u8; M] {
    debug_assert_eq!(M + 1, N);
    let mut out = [0u8; M];
    for j in 0..M {
        out[j] = squares[j + usize::from(j >= skip)];
    }
    out
}

/// The search order of `squares` under `parity` (a bit per quadrant with
/// an odd number of empties; `quadrant` gives each square's bit): the
/// squares of odd quadrants first, the list's order within each group.
/// Returns each square's index in `squares`.
#[inline(always)]
fn parity_order<const N: usize>(squares: &[u8; N], parity: u8, quadrant: &[u8; 64]) -> [u8; N] {
    let mut order = [0u8; N];
    let mut k = 0;
    for odd in [true, false] {
        for (i, &sq) in squares.iter().enumerate() {
            if (parity & quadrant[sq as usize] != 0) == odd {
                order[k] = i as u8;
                k += 1;
            }
        }
    }
    order
}

impl EndgameSolver {
    /// The exact score of a position with `n` empties (`1 <= n <=
    /// SHALLOW`) if it lies within (alpha, beta), else a bound on the same
    /// side (fail-soft): lists the empties and their parity and enters the
    /// function for `n`.
    #[inline(always)]
    pub(super) fn last_empties<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        // The empties in class order, and the parity of the quadrants.
        let mut squares = [0u8; SHALLOW_LEN];
        let mut parity = 0u8;
        let empties = self.valid & !(p | o);
        let mut i = 0;
        for class in self.square_classes {
            for sq in Bits(empties & class) {
                squares[i] = sq;
                i += 1;
                parity ^= self.quadrant[sq as usize];
            }
        }
        let [a, b, c, d, ..] = squares;
        match n {
            1 => self.last1(k, p, o, a),
            2 => k.solve2(self, p, o, alpha, beta, [a, b], false),
            3 => k.solve3(self, p, o, alpha, beta, [a, b, c], parity, false),
            4 => k.solve4(self, p, o, alpha, beta, [a, b, c, d], parity, false),
            _ => k.shallow(
                self,
                p,
                o,
                alpha,
                beta,
                (squares, n as usize),
                parity,
                false,
            ),
        }
    }

    /// `5 <= n <= SHALLOW` empties, `squares[..n]` in class order, odd
    /// quadrants first. `passed` is set when the opponent just passed.
    /// Entered through [`SolverKernel::shallow`], which compiles it with
    /// the kernel's CPU features.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shallow<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        (squares, n): ([u8; SHALLOW_LEN], usize),
        parity: u8,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for odd in [true, false] {
            for i in 0..n {
                let sq = squares[i];
                let q = self.quadrant[sq as usize];
                if (parity & q != 0) != odd {
                    continue;
                }
                let f = flips_near(k, p, o, sq);
                if f == 0 {
                    continue;
                }
                let (np, no) = after(p, o, sq, f);
                let v = if n == 5 {
                    let rest: [u8; 4] = without(
                        [squares[0], squares[1], squares[2], squares[3], squares[4]],
                        i,
                    );
                    -k.solve4(self, np, no, -beta, -alpha, rest, parity ^ q, false)
                } else {
                    let mut rest = squares;
                    rest.copy_within(i + 1..n, i);
                    -k.shallow(
                        self,
                        np,
                        no,
                        -beta,
                        -alpha,
                        (rest, n - 1),
                        parity ^ q,
                        false,
                    )
                };
                if raises(v, &mut best, &mut alpha, beta) {
                    return v;
                }
            }
        }
        if best == -INF {
            if passed {
                return self.final_score(p, o);
            }
            return -k.shallow(self, o, p, -beta, -alpha, (squares, n), parity, true);
        }
        best
    }

    /// Four empties, `squares` in class order.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn solve4<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        squares: [u8; 4],
        parity: u8,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for i in parity_order(&squares, parity, &self.quadrant) {
            let i = usize::from(i);
            let sq = squares[i];
            let f = flips_near(k, p, o, sq);
            if f == 0 {
                continue;
            }
            let (np, no) = after(p, o, sq, f);
            let q = self.quadrant[sq as usize];
            let v = -k.solve3(
                self,
                np,
                no,
                -beta,
                -alpha,
                without(squares, i),
                parity ^ q,
                false,
            );
            if raises(v, &mut best, &mut alpha, beta) {
                return v;
            }
        }
        if best == -INF {
            if passed {
                return self.final_score(p, o);
            }
            return -k.solve4(self, o, p, -beta, -alpha, squares, parity, true);
        }
        best
    }

    /// Three empties, `squares` in class order.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn solve3<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        squares: [u8; 3],
        parity: u8,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for i in parity_order(&squares, parity, &self.quadrant) {
            let i = usize::from(i);
            let sq = squares[i];
            let f = flips_near(k, p, o, sq);
            if f == 0 {
                continue;
            }
            let (np, no) = after(p, o, sq, f);
            let v = -k.solve2(self, np, no, -beta, -alpha, without(squares, i), false);
            if raises(v, &mut best, &mut alpha, beta) {
                return v;
            }
        }
        if best == -INF {
            if passed {
                return self.final_score(p, o);
            }
            return -k.solve3(self, o, p, -beta, -alpha, squares, parity, true);
        }
        best
    }

    /// Two empties, `squares` in class order (with two empties the parity
    /// order is always the list's order: both squares share a quadrant,
    /// which is then even, or lie in two odd ones).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn solve2<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        [a, b]: [u8; 2],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for (sq, last) in [(a, b), (b, a)] {
            let f = flips_near(k, p, o, sq);
            if f == 0 {
                continue;
            }
            let (np, no) = after(p, o, sq, f);
            let v = -self.last1(k, np, no, last);
            if raises(v, &mut best, &mut alpha, beta) {
                return v;
            }
        }
        if best == -INF {
            if passed {
                return self.final_score(p, o);
            }
            return -k.solve2(self, o, p, -beta, -alpha, [a, b], true);
        }
        best
    }

    /// One empty square, `sq`: the mover plays it if they can, else the
    /// opponent; the score follows from the number of discs the move would
    /// flip, without playing it.
    #[inline(always)]
    fn last1<K: SolverKernel>(&mut self, k: K, p: u64, o: u64, sq: u8) -> i32 {
        self.nodes += 1;
        let diff = p.count_ones() as i32 - o.count_ones() as i32;
        let (mine, theirs) = self.last_flips.counts(k, p, sq);
        if mine != 0 {
            return diff + 2 * mine as i32 + 1;
        }
        if theirs != 0 {
            self.nodes += 1;
            return diff - 2 * theirs as i32 - 1;
        }
        self.final_score(p, o)
    }
}

/// Takes `v` as the best value so far when it is better, raising `alpha`
/// with it; returns whether it reaches `beta` (a cutoff).
#[inline(always)]
fn raises(v: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::{EndgameSolver, Scoring, SolverKernel, INF};
    use crate::board::bits::{
        after, flips_reference, moves_reference, valid_mask, with_best_kernel, Bits, Portable,
    };
    use crate::rng::Rng;

    /// The exact final score of the mover `p` against `o` on `valid` by
    /// plain negamax over every move, with the reference move generator.
    fn brute_force(p: u64, o: u64, valid: u64, scoring: Scoring) -> i32 {
        let moves = moves_reference(p, o, valid);
        if moves == 0 {
            if moves_reference(o, p, valid) == 0 {
                let d = p.count_ones() as i32 - o.count_ones() as i32;
                let empties = (valid & !(p | o)).count_ones() as i32;
                return match scoring {
                    Scoring::DiscsOnly => d,
                    Scoring::Standard => d + d.signum() * empties,
                };
            }
            return -brute_force(o, p, valid, scoring);
        }
        Bits(moves)
            .map(|sq| {
                let (np, no) = after(p, o, sq, flips_reference(p, o, sq));
                -brute_force(np, no, valid, scoring)
            })
            .max()
            .expect("some move")
    }

    /// A random position on `valid` with exactly `n` empty squares (not
    /// necessarily reachable from the start: passes and finished games
    /// come often); the empties are half the time gathered around a random
    /// square, and the other squares are the mover's or the opponent's at
    /// random.
    fn random_position(rng: &mut Rng, valid: u64, n: u32) -> (u64, u64) {
        let squares: Vec<u8> = Bits(valid).collect();
        let mut empty = 0u64;
        if rng.below(2) == 0 {
            let centre = *rng.pick(&squares);
            let mut near = (super::NEIGHBOURS[centre as usize] | 1u64 << centre) & valid;
            while empty.count_ones() < n && near != 0 {
                let sq = *rng.pick(&Bits(near).collect::<Vec<_>>());
                empty |= 1u64 << sq;
                near &= !(1u64 << sq);
            }
        }
        while empty.count_ones() < n {
            empty |= 1u64 << rng.pick(&squares);
        }
        let p = rng.next_u64() & valid & !empty;
        (p, valid & !empty & !p)
    }

    /// Checks the last-empties search (through [`EndgameSolver::search`],
    /// which hands every node with at most `SHALLOW` empties to it) with
    /// kernel `k` on random positions of 1 to 6 empties against
    /// [`brute_force`], with full, null and random windows: inside the
    /// window the exact score, outside it a bound on the same side.
    fn agrees_with_brute_force<K: SolverKernel>(k: K) -> usize {
        let mut rng = Rng::new(0x1A57_E3B7_1E5C_0DE5);
        let mut checked = 0;
        for scoring in [Scoring::Standard, Scoring::DiscsOnly] {
            let mut solver = EndgameSolver::with_table_bits(scoring, 10);
            for size in [8u8, 6, 4] {
                let valid = valid_mask(size);
                solver.setup(valid);
                for round in 0..3_000 {
                    let n = 1 + round % 6;
                    let (p, o) = random_position(&mut rng, valid, n);
                    let exact = brute_force(p, o, valid, scoring);
                    let r = (rng.next_u64() % 9) as i32 - 4;
                    let windows = [
                        (-INF, INF),
                        (exact - 1, exact + 1),
                        (exact - 1, exact),
                        (exact, exact + 1),
                        (exact + r - 3, exact + r),
                        (exact + r, exact + r + 3),
                    ];
                    for (alpha, beta) in windows {
                        let v = solver.search(k, p, o, alpha, beta, n);
                        let ok = if v <= alpha {
                            exact <= v
                        } else if v >= beta {
                            exact >= v
                        } else {
                            exact == v
                        };
                        assert!(
                            ok,
                            "{size}x{size} p {p:#x} o {o:#x} ({alpha}, {beta}): {v}, exact {exact}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        checked
    }

    #[test]
    fn square_classes_partition_the_board() {
        for n in [4u8, 6, 8] {
            let valid = valid_mask(n);
            let last = n - 1;
            let corner = |r: u8, c: u8| 1u64 << (r * 8 + c);
            let corners = corner(0, 0) | corner(0, last) | corner(last, 0) | corner(last, last);
            let classes = super::square_classes(valid, n, corners);
            let mut seen = 0u64;
            for class in classes {
                assert_eq!(seen & class, 0, "{n}x{n}: classes overlap");
                seen |= class;
            }
            assert_eq!(seen, valid, "{n}x{n}: classes cover the board");
            // a1 corner, b1 and a2 next to it, b2 diagonally next to it.
            assert_eq!(classes[0], corners);
            assert_eq!(
                classes[3] & (corner(0, 1) | corner(1, 0)),
                corner(0, 1) | corner(1, 0)
            );
            assert_ne!(classes[4] & corner(1, 1), 0);
        }
        // On 8x8: c1 is an edge square, c3 an inner one.
        let classes = super::square_classes(!0, 8, 0x8100_0000_0000_0081);
        assert_ne!(classes[1] & (1 << 2), 0);
        assert_ne!(classes[2] & (1 << 18), 0);
    }

    #[test]
    fn last_empties_agree_with_brute_force_portable() {
        assert!(agrees_with_brute_force(Portable) > 100_000);
    }

    #[test]
    fn last_empties_agree_with_brute_force_best_kernel() {
        assert!(with_best_kernel!(|k| agrees_with_brute_force(k)) > 100_000);
    }
}
