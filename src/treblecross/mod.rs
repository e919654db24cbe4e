//! (n,k)-Ring Treblecross: N cells in a ring, both players place an X on an
//! empty cell, and the move that makes K or more consecutive X (counting
//! around the ring) wins for the mover. When N < K the ring fills without a
//! run and the game is a draw.
//!
//! - [`RingTreblecross`] is the game as a [`Game`], so the plain counted
//!   searches of [`crate::search`] give the reference answers (exponential:
//!   seconds at N = 11).
//! - [`RingSolver`] gives the same exact values and first-best successors fast,
//!   by game theory; see the [`solver`] module for the method.
//! - [`contract`] is the assignment's front end without its I/O: the
//!   arguments, the lines of each FLAG and the interactive game.
//!
//! The rule helpers ([`has_run`], [`completes`]) take the ring as a slice of
//! `bool` (`true` = X) and work for every N >= 1 and K >= 1.

pub mod contract;
pub mod solver;

pub use solver::{MemoSizes, RingOutcome, RingSolver, MEMO_LIMIT};

use crate::game::{Game, Side, Value};

/// The rules of one (n,k)-Ring Treblecross: a ring of `n` cells, runs of
/// `k` or more win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingTreblecross {
    /// The number of cells of the ring (at least 1).
    pub n: usize,
    /// The winning run length (at least 1).
    pub k: usize,
}

/// A position: which cells hold an X, and who moves next.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ring {
    /// `cells[i]` is `true` when cell `i` holds an X.
    pub cells: Vec<bool>,
    /// The side to move.
    pub to_move: Side,
}

impl Ring {
    /// The ring of `n` cells with X on `positions` (repeats allowed), `to_move` to play.
    ///
    /// # Panics
    /// If a position is not below `n`.
    #[must_use]
    pub fn new(n: usize, positions: &[usize], to_move: Side) -> Ring {
        let mut cells = vec![false; n];
        for &p in positions {
            cells[p] = true;
        }
        Ring { cells, to_move }
    }

    /// The position after an X on the empty cell `cell`, the other side to move.
    #[must_use]
    pub fn after(&self, cell: usize) -> Ring {
        let mut cells = self.cells.clone();
        cells[cell] = true;
        Ring {
            cells,
            to_move: self.to_move.other(),
        }
    }

    /// The empty cells in index order (the successor order).
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, &x)| !x)
            .map(|(i, _)| i)
    }
}

/// Whether the ring holds K or more consecutive X somewhere (around the ring).
#[must_use]
pub fn has_run(cells: &[bool], k: usize) -> bool {
    let n = cells.len();
    if n < k {
        return false;
    }
    let Some(start) = cells.iter().position(|&x| !x) else {
        return true; // full ring of n >= k cells
    };
    let mut run = 0;
    for step in 1..=n {
        if cells[(start + step) % n] {
            run += 1;
            if run >= k {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Whether an X on the empty cell `cell` makes a run of K or more.
#[must_use]
pub fn completes(cells: &[bool], k: usize, cell: usize) -> bool {
    let n = cells.len();
    if n < k {
        return false;
    }
    let mut left = 0;
    while left < n - 1 && cells[(cell + n - 1 - left) % n] {
        left += 1;
    }
    if left == n - 1 {
        return true; // every other cell is filled: a run of n >= k
    }
    let mut right = 0;
    while cells[(cell + 1 + right) % n] {
        right += 1;
    }
    left + right + 1 >= k
}

impl RingTreblecross {
    /// The rules for a ring of `n` cells and runs of `k`.
    #[must_use]
    pub const fn new(n: usize, k: usize) -> RingTreblecross {
        RingTreblecross { n, k }
    }
}

impl Game for RingTreblecross {
    type State = Ring;
    type Move = usize;
    type Moves = std::vec::IntoIter<usize>;

    fn side(&self, state: &Ring) -> Side {
        state.to_move
    }

    /// The empty cells in index order; none once a run stands (or the ring is full).
    fn moves(&self, state: &Ring) -> Self::Moves {
        if has_run(&state.cells, self.k) {
            return Vec::new().into_iter();
        }
        state.empty_cells().collect::<Vec<_>>().into_iter()
    }

    fn play(&self, state: &Ring, mv: usize) -> Ring {
        state.after(mv)
    }

    /// A standing run was made by the side that just moved; a full ring
    /// without a run is a draw.
    fn utility(&self, state: &Ring) -> Value {
        if has_run(&state.cells, self.k) {
            match state.to_move {
                Side::Max => -1,
                Side::Min => 1,
            }
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::minimax;

    #[test]
    fn spec_values_by_plain_minimax() {
        let g = RingTreblecross::new(7, 3);
        assert_eq!(minimax(&g, &Ring::new(7, &[], Side::Max)).value, -1);
        let g = RingTreblecross::new(10, 3);
        let out = minimax(&g, &Ring::new(10, &[5], Side::Max));
        assert_eq!((out.value, out.best), (1, Some(0)));
        let g = RingTreblecross::new(6, 3);
        assert_eq!(minimax(&g, &Ring::new(6, &[1, 5], Side::Max)).best, Some(0));
    }

    #[test]
    fn runs_wrap_around() {
        assert!(has_run(&[true, false, true, true], 3));
        assert!(!has_run(&[true, false, true, false], 2));
        assert!(has_run(&[true, true], 2));
        assert!(!has_run(&[true, true], 3));
        assert!(completes(&[true, false, false, true], 3, 1));
        assert!(!completes(&[true, false, false, false, true], 4, 1));
        assert!(completes(&[false, true, true], 3, 0));
    }
}
