//! The endgame search far from the end: principal variation search
//! (fail-soft negamax alpha-beta, null windows after the first move) with
//! the transposition table, enhanced transposition cutoffs and stability
//! cutoffs. At [`SHALLOW`] empties or fewer it hands over to the last-empties
//! search.

use super::last::SHALLOW;
use super::order::MoveList;
use super::{bounds, EndgameSolver, SolverKernel, ETC_MIN, INF, NO_MOVE, TT_MIN};
use crate::board::bits;
use crate::board::bits::after;
use std::ops::ControlFlow;

/// At least this many empties: stability cutoffs.
const STABILITY_MIN: u32 = 7;
/// Stability is only tried when alpha is at least this high.
const STABILITY_ALPHA: i32 = 0;

/// How [`EndgameSolver::enter`] ends a node early.
pub(super) enum Exit {
    /// With this score.
    Score(i32),
    /// The side to move passes: the opponent's search answers.
    Pass,
}

impl EndgameSolver {
    /// The exact score if it lies within (alpha, beta); otherwise a bound
    /// on the same side (fail-soft). `n` is the number of empties.
    /// `k` is the kernel the search runs with.
    #[inline(always)]
    pub(super) fn search<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        if n <= SHALLOW {
            if n == 0 {
                self.nodes += 1;
                return self.final_score(p, o);
            }
            self.last_empties(k, p, o, alpha, beta, n)
        } else {
            k.deep(self, p, o, alpha, beta, n)
        }
    }

    /// A node with more than [`SHALLOW`] empties (entered through
    /// [`SolverKernel::deep`], which compiles it with the kernel's CPU
    /// features).
    #[inline(always)]
    pub(super) fn deep<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        n: u32,
    ) -> i32 {
        let (moves, hash) = match self.enter(k, p, o, (&mut alpha, &mut beta), n) {
            ControlFlow::Break(Exit::Score(v)) => return v,
            ControlFlow::Break(Exit::Pass) => return -k.deep(self, o, p, -beta, -alpha, n),
            ControlFlow::Continue(entry) => entry,
        };
        let mut list = MoveList::new();
        if let ControlFlow::Break(v) = self.moves_in_order(k, p, o, moves, hash, beta, n, &mut list)
        {
            return v;
        }
        let (best, best_sq) = self.search_moves(k, p, o, &mut list, alpha, beta, n);
        // A stopped search's bounds are meaningless: never stored.
        if n >= TT_MIN && !self.stopped {
            let (lo, up) = bounds(best, alpha, beta);
            self.table.store(p, o, n, self.level, lo, up, best_sq);
        }
        best
    }

    /// Enters a node (counting it), returning at once when the solve is
    /// stopped: its moves, then a stability cutoff,
    /// the table's bounds (narrowing the window), and a Multi-ProbCut cut
    /// in a selective pass. Breaks with the node's score when the game is
    /// over or one of them decides it, or with [`Exit::Pass`] when the side
    /// to move must pass; else continues with the moves and the table's
    /// best move.
    #[inline(always)]
    pub(super) fn enter<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        (alpha, beta): (&mut i32, &mut i32),
        n: u32,
    ) -> ControlFlow<Exit, (u64, u8)> {
        self.nodes += 1;
        if n >= TT_MIN {
            // The table's slot loads while the moves are generated.
            self.table.prefetch(p, o);
        }
        if self.must_stop() {
            // Stopped: any score will do, it is discarded.
            return ControlFlow::Break(Exit::Score(0));
        }
        let moves = k.moves(p, o, self.valid);
        if moves == 0 {
            if k.moves(o, p, self.valid) == 0 {
                return ControlFlow::Break(Exit::Score(self.final_score(p, o)));
            }
            return ControlFlow::Break(Exit::Pass);
        }
        // Even if every disc of the opponent were stable, the bound could
        // neither cut nor narrow the window: skip the stability search.
        let all_stable_bound = self.valid.count_ones() as i32 - 2 * o.count_ones() as i32;
        if n >= STABILITY_MIN && *alpha >= STABILITY_ALPHA && all_stable_bound < *beta {
            // The opponent's stable discs bound our final score.
            let upper =
                self.valid.count_ones() as i32 - 2 * self.stable(o, p | o).count_ones() as i32;
            if upper <= *alpha {
                return ControlFlow::Break(Exit::Score(upper));
            }
            *beta = (*beta).min(upper);
            if *alpha >= *beta {
                return ControlFlow::Break(Exit::Score(upper));
            }
        }
        let mut hash = NO_MOVE;
        if n >= TT_MIN {
            match self.probe_window(p, o, alpha, beta) {
                ControlFlow::Break(v) => return ControlFlow::Break(Exit::Score(v)),
                ControlFlow::Continue(h) => hash = h,
            }
        }
        if let Some(t) = self.selectivity {
            if *beta - *alpha == 1 {
                if let Some(v) = self.probcut(k, p, o, (*alpha, *beta), n, t) {
                    return ControlFlow::Break(Exit::Score(v));
                }
            }
        }
        ControlFlow::Continue((moves, hash))
    }

    /// Orders `moves` into `list` (`hash` first), then tries an enhanced
    /// transposition cutoff: breaks with the node's score if a child's
    /// stored bound refutes the opponent.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn moves_in_order<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        moves: u64,
        hash: u8,
        beta: i32,
        n: u32,
        list: &mut MoveList,
    ) -> ControlFlow<i32> {
        self.order_inner(k, p, o, moves, hash, n, list);
        if n > ETC_MIN {
            if let Some(v) = self.transposition_cutoff(p, o, list, beta) {
                return ControlFlow::Break(v);
            }
        }
        ControlFlow::Continue(())
    }

    /// Narrows `(alpha, beta)` by the table's bounds on the position:
    /// breaks with the score when they decide the node, else continues with
    /// the stored best move ([`NO_MOVE`] if none).
    #[inline(always)]
    fn probe_window(
        &self,
        p: u64,
        o: u64,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> ControlFlow<i32, u8> {
        let Some(e) = self.table.probe(p, o) else {
            return ControlFlow::Continue(NO_MOVE);
        };
        if e.level < self.level {
            return ControlFlow::Continue(e.best);
        }
        let (lo, up) = (e.lower, e.upper);
        if lo >= *beta {
            return ControlFlow::Break(lo);
        }
        if up <= *alpha || lo == up {
            return ControlFlow::Break(up);
        }
        *alpha = (*alpha).max(lo);
        *beta = (*beta).min(up);
        ControlFlow::Continue(e.best)
    }

    /// Enhanced transposition cutoff: a child already known to refute the
    /// opponent (its stored upper bound at most `-beta`) ends the search
    /// here with that score.
    #[inline(always)]
    fn transposition_cutoff(&self, p: u64, o: u64, list: &MoveList, beta: i32) -> Option<i32> {
        for i in 0..list.len {
            let (sq, f) = (list.sq[i], list.flips[i]);
            if let Some(e) = {
                let (np, no) = after(p, o, sq, f);
                self.table.probe(np, no)
            } {
                let v = -e.upper;
                if v >= beta && e.level >= self.level {
                    return Some(v);
                }
            }
        }
        None
    }

    /// Searches the moves of `list` in order, the first with the window
    /// `(alpha, beta)`, the others with a null window first: the best score
    /// (fail-soft) and its square ([`NO_MOVE`] if no move beat `-INF`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_moves<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        list: &mut MoveList,
        mut alpha: i32,
        beta: i32,
        n: u32,
    ) -> (i32, u8) {
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        for i in 0..list.len {
            let (sq, f) = list.pick(i);
            let (np, no) = after(p, o, sq, f);
            let v = if i == 0 {
                -self.search(k, np, no, -beta, -alpha, n - 1)
            } else {
                let v = -self.search(k, np, no, -alpha - 1, -alpha, n - 1);
                if v > alpha && v < beta {
                    -self.search(k, np, no, -beta, -alpha, n - 1)
                } else {
                    v
                }
            };
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_sq)
    }

    /// A subset of the discs of `own` that can never be flipped: in each of
    /// the four orientations the disc's line is full, or a neighbour on that
    /// line is off the board or another such disc of `own`.
    fn stable(&self, own: u64, occupied: u64) -> u64 {
        let full = if self.valid == !0 {
            full_lines_8x8(occupied)
        } else {
            self.full_lines(occupied)
        };
        const RANK_1: u64 = 0xFF;
        const RANK_8: u64 = 0xFF << 56;
        let (fa, fh) = (bits::FILE_A, bits::FILE_H);
        let wall = !self.valid;
        let mut st = 0u64;
        loop {
            let x = st | wall;
            let h = full[0] | (x << 1) | fa | (x >> 1) | fh;
            let v = full[1] | (x << 8) | (x >> 8) | RANK_1 | RANK_8;
            let d1 = full[2] | (x << 9) | (x >> 9) | fa | fh | RANK_1 | RANK_8;
            let d2 = full[3] | (x << 7) | (x >> 7) | fa | fh | RANK_1 | RANK_8;
            let next = own & h & v & d1 & d2;
            if next == st {
                return st;
            }
            st = next;
        }
    }

    /// The squares of the lines (rows, columns, both diagonals: the four
    /// orientations of [`super::board_lines`]) that `occupied` fills, on
    /// any board, line by line.
    fn full_lines(&self, occupied: u64) -> [u64; 4] {
        let mut full = [0u64; 4];
        for &(line, orientation) in &self.lines {
            if line & !occupied == 0 {
                full[orientation] |= line;
            }
        }
        full
    }
}

/// [`EndgameSolver::full_lines`] on the 8x8 board without a loop over the
/// lines: a row or column is full when the AND of its squares, folded
/// into one bit by shifts, is set; a diagonal is full when no empty
/// square spreads onto it along its direction.
#[inline]
fn full_lines_8x8(occupied: u64) -> [u64; 4] {
    let (fa, fh) = (bits::FILE_A, bits::FILE_H);
    // Rows: bit 8r of `r` is the AND of bits 8r..8r+7.
    let mut r = occupied;
    r &= r >> 4;
    r &= r >> 2;
    r &= r >> 1;
    let rows = (r & fa) * 0xFF;
    // Columns: bit c of `c` is the AND of column c's eight squares.
    let mut c = occupied;
    c &= c >> 32;
    c &= c >> 16;
    c &= c >> 8;
    let columns = (c & 0xFF) * fa;
    // Diagonals: spread the empty squares seven steps both ways.
    let empty = !occupied;
    let (mut d9, mut d7) = (empty, empty);
    for _ in 0..7 {
        d9 |= ((d9 << 9) & !fa) | ((d9 >> 9) & !fh);
        d7 |= ((d7 << 7) & !fh) | ((d7 >> 7) & !fa);
    }
    [rows, columns, !d9, !d7]
}

#[cfg(test)]
mod tests {
    use super::super::{EndgameSolver, Scoring};
    use super::full_lines_8x8;
    use crate::rng::Rng;

    #[test]
    fn full_lines_by_shifts_match_the_line_by_line_count() {
        let mut solver = EndgameSolver::new(Scoring::Standard);
        solver.setup(!0);
        let mut rng = Rng::new(0xF011_11E5);
        let mut seen_full = [0u32; 4];
        for i in 0..20_000 {
            // Mostly nearly full boards, where lines fill.
            let mut occupied = !0u64;
            for _ in 0..i % 12 {
                occupied &= !(1u64 << rng.below(64));
            }
            let expected = solver.full_lines(occupied);
            assert_eq!(full_lines_8x8(occupied), expected, "{occupied:#x}");
            for (count, lines) in seen_full.iter_mut().zip(expected) {
                *count += u32::from(lines != 0);
            }
        }
        assert!(seen_full.iter().all(|&c| c > 1_000), "{seen_full:?}");
    }
}
