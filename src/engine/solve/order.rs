//! Move ordering: the hash move first, then the fewest replies for the
//! opponent (corners weighing more), own corners early and the opponent's
//! potential mobility. Far from the end the moves are ranked instead by a
//! shallow search of each child: on 8x8 with the trained pattern
//! evaluation (from [`PATTERN_ORDER_MIN`] empties), on smaller boards at
//! the root only, with the `strong` heuristic evaluation.
//!
//! The ordering decides only how fast a solve is: any evaluation, even
//! random weights, gives the same exact scores.

use super::{EndgameSolver, SolverKernel, ETC_MIN, NO_MOVE};
use crate::board::bits::after;
use crate::board::bits::{self, Bits};
use crate::board::Color;
use crate::engine::iterative::{IterativeSearch, MoveOrder};
use crate::engine::position::RelativePosition;
use crate::eval::pattern::{PatternWeights, SCALE};
use crate::eval::Heuristic;

/// Extra weight of an opponent reply on a corner in the move ordering (a
/// plain reply weighs 16).
const CORNER_REPLY_WEIGHT: i32 = 48;
/// Weight of the opponent's potential mobility in the move ordering.
const POT_WEIGHT: i32 = 12;

/// Root positions of boards smaller than 8x8 with at least this many
/// empties have their moves ordered by a shallow heuristic search (the
/// exact search's cost hangs on finding the best root move early).
const ROOT_ESTIMATE_MIN: u32 = 18;

/// Plies of the heuristic search that orders root moves.
const ROOT_ESTIMATE_DEPTH: u32 = 6;

/// Nodes of an 8x8 board with at least this many empties order their
/// moves (after the hash move) by a shallow search with the pattern
/// evaluation. (Smaller boards have no pattern evaluation; there such
/// nodes are many and their subtrees small.)
const PATTERN_ORDER_MIN: u32 = 14;

/// Plies of the pattern search that orders the moves of a node with `n`
/// empties (the child is searched one ply less).
#[inline]
fn pattern_order_depth(n: u32) -> u32 {
    match n {
        0..=15 => 1,
        16..=21 => 2,
        _ => 3,
    }
}

/// Plies of the pattern search that orders the root's moves on 8x8 (4
/// plies: 235 M nodes on FFO #40-#44; 6: 130 M; 8: 124 M but slower).
const ROOT_PATTERN_DEPTH: u32 = 6;

/// Weight, in the pattern evaluation's units (1/64 disc), of each reply
/// the opponent has after a move, added to the pattern ordering's key
/// (0: 136 M nodes on FFO #40-#44, 32: 130 M).
const REPLY_WEIGHT: i32 = 32;

impl EndgameSolver {
    /// The moves of the root `pos` (which has some) with their flips, in
    /// search order: by [`EndgameSolver::order`], then on 8x8 with at least
    /// [`PATTERN_ORDER_MIN`] empties by [`pattern_keys`] (a
    /// [`ROOT_PATTERN_DEPTH`]-ply search), on smaller boards with at least
    /// [`ROOT_ESTIMATE_MIN`] empties by [`estimate`] (ties keep their
    /// order).
    pub(super) fn root_order<K: SolverKernel>(
        &mut self,
        k: K,
        pos: &RelativePosition,
    ) -> Vec<(u8, u64)> {
        let (p, o) = (pos.player, pos.opponent);
        let hash = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
        let mut list = MoveList::new();
        k.order(self, p, o, pos.moves(), hash, &mut list);
        let n = pos.empties().count_ones();
        if let (Some(w), true) = (self.weights.as_deref(), n >= PATTERN_ORDER_MIN) {
            let depth = ROOT_PATTERN_DEPTH.min(n);
            pattern_keys(k, w, (p, o), &mut list, hash, depth, &mut self.nodes);
        }
        let mut ordered: Vec<(u8, u64)> = (0..list.len).map(|i| list.pick(i)).collect();
        if self.weights.is_none() && n >= ROOT_ESTIMATE_MIN {
            sort_by_estimate(pos, &mut ordered);
        }
        ordered
    }

    /// Orders `moves` for a node below the root with `n` empties: by
    /// [`EndgameSolver::order`], then, on 8x8 with at least
    /// [`PATTERN_ORDER_MIN`] empties, by [`pattern_keys`] after the hash
    /// move.
    /// The one- and the multi-thread searches (`deep`, `split`) order alike.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn order_inner<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        moves: u64,
        hash: u8,
        n: u32,
        list: &mut MoveList,
    ) {
        k.order(self, p, o, moves, hash, list);
        if n > ETC_MIN {
            // The children's slots load while the moves are ordered, for
            // the enhanced transposition cutoff that follows.
            for i in 0..list.len {
                let (np, no) = after(p, o, list.sq[i], list.flips[i]);
                self.table.prefetch(np, no);
            }
        }
        if let (Some(w), true) = (self.weights.as_deref(), n >= PATTERN_ORDER_MIN) {
            let depth = pattern_order_depth(n);
            pattern_keys(k, w, (p, o), list, hash, depth, &mut self.nodes);
        }
    }

    /// Orders `moves` for a node: the hash move first, then fewest replies
    /// for the opponent (corners counting four times), own corners early.
    /// Entered through [`SolverKernel::order`], which compiles it with the
    /// kernel's CPU features.
    #[inline(always)]
    pub(super) fn order<K: SolverKernel>(
        &self,
        k: K,
        p: u64,
        o: u64,
        moves: u64,
        hash: u8,
        list: &mut MoveList,
    ) {
        list.len = 0;
        for sq in Bits(moves) {
            let f = k.flips(p, o, sq);
            let key = if sq == hash {
                -1000
            } else {
                let (np, no) = after(p, o, sq, f);
                let replies = k.moves(np, no, self.valid);
                let mut k = 16 * replies.count_ones() as i32
                    + CORNER_REPLY_WEIGHT * (replies & self.corners).count_ones() as i32;
                if (1u64 << sq) & self.corners != 0 {
                    k -= 24;
                }
                // Potential mobility: the empty squares next to our discs,
                // where the opponent may find moves later.
                let empties = self.valid & !(np | no);
                k += POT_WEIGHT * (neighbours(no) & empties).count_ones() as i32;
                k
            };
            list.push(sq, f, key);
        }
    }
}

/// The value for the mover (`p` against `o` on `valid`) of playing `sq`
/// with flips `f`, by a `depth`-ply alpha-beta search (the child searched
/// `depth - 1` plies) with the `strong` heuristic evaluation.
fn estimate(p: u64, o: u64, valid: u64, (sq, f): (u8, u64), depth: u32) -> i32 {
    let search = IterativeSearch {
        order: MoveOrder::Best,
        prune: true,
        eval: Heuristic::Strong,
    };
    // The mover plays Black, so the evaluation (Black's point of view) of
    // the child, where White moves, is the mover's value.
    let child = crate::reversi::Position {
        board: RelativePosition {
            player: p,
            opponent: o,
            valid,
        }
        .after(sq, f)
        .to_board(Color::White),
        to_move: Color::White,
    };
    search.fixed(&child, depth - 1).value
}

/// Orders the root moves `ordered` (square and flips) of `pos` best first by
/// [`estimate`]; ties keep their order.
fn sort_by_estimate(pos: &RelativePosition, ordered: &mut [(u8, u64)]) {
    let (p, o, valid) = (pos.player, pos.opponent, pos.valid);
    let mut keyed: Vec<(i32, (u8, u64))> = ordered
        .iter()
        .map(|&m| (estimate(p, o, valid, m, ROOT_ESTIMATE_DEPTH), m))
        .collect();
    keyed.sort_by_key(|&(v, _)| -v);
    for (slot, (_, m)) in ordered.iter_mut().zip(keyed) {
        *slot = m;
    }
}

/// Replaces the ordering keys of `list` (moves of `p` against `o` on the
/// full 8x8 board) by the value of each child for the opponent by a
/// `depth - 1`-ply [`pattern_search`], lowest (best for the mover) first;
/// the hash move stays first.
#[inline(always)]
fn pattern_keys<K: SolverKernel>(
    k: K,
    w: &PatternWeights,
    (p, o): (u64, u64),
    list: &mut MoveList,
    hash: u8,
    depth: u32,
    nodes: &mut u64,
) {
    for i in 0..list.len {
        let (sq, f) = (list.sq[i], list.flips[i]);
        list.key[i] = if sq == hash {
            i32::MIN
        } else {
            let (np, no) = after(p, o, sq, f);
            let replies = k.moves(np, no, !0).count_ones() as i32;
            pattern_search(k, w, np, no, depth - 1, (-PATTERN_INF, PATTERN_INF), nodes)
                + REPLY_WEIGHT * replies
        };
    }
}

/// Larger than any pattern value.
pub(super) const PATTERN_INF: i32 = 1 << 20;

/// The value for the mover `p` (against `o`, full 8x8 board) of a
/// `depth`-ply negamax alpha-beta search (fail-soft within
/// `(alpha, beta)`) with the pattern evaluation `w` at the leaves and the
/// disc difference (in the evaluation's units) at the end of the game.
/// Adds the positions it visits to `nodes`.
pub(super) fn pattern_search<K: SolverKernel>(
    k: K,
    w: &PatternWeights,
    p: u64,
    o: u64,
    depth: u32,
    (mut alpha, beta): (i32, i32),
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 {
        return w.evaluate(p, o);
    }
    let moves = k.moves(p, o, !0);
    if moves == 0 {
        if k.moves(o, p, !0) == 0 {
            return SCALE * (p.count_ones() as i32 - o.count_ones() as i32);
        }
        return -pattern_search(k, w, o, p, depth, (-beta, -alpha), nodes);
    }
    let mut best = -PATTERN_INF;
    for sq in Bits(moves) {
        let f = k.flips(p, o, sq);
        let (np, no) = after(p, o, sq, f);
        let v = -pattern_search(k, w, np, no, depth - 1, (-beta, -alpha), nodes);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The squares next to any disc of `b` (on the 8x8 word; callers mask).
#[inline]
fn neighbours(b: u64) -> u64 {
    let ew = ((b << 1) & !bits::FILE_A) | ((b >> 1) & !bits::FILE_H);
    let row = b | ew;
    ew | (row << 8) | (row >> 8)
}

/// The moves of a node with their flips and ordering keys; moves are
/// picked lowest key first (first in reading order on ties).
pub(super) struct MoveList {
    pub(super) sq: [u8; 64],
    pub(super) flips: [u64; 64],
    key: [i32; 64],
    pub(super) len: usize,
}

impl MoveList {
    #[inline]
    pub(super) fn new() -> MoveList {
        MoveList {
            sq: [0; 64],
            flips: [0; 64],
            key: [0; 64],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, sq: u8, flips: u64, key: i32) {
        self.sq[self.len] = sq;
        self.flips[self.len] = flips;
        self.key[self.len] = key;
        self.len += 1;
    }

    /// Moves the best remaining move to slot `i` and returns it.
    #[inline]
    pub(super) fn pick(&mut self, i: usize) -> (u8, u64) {
        let mut b = i;
        for j in i + 1..self.len {
            if self.key[j] < self.key[b] {
                b = j;
            }
        }
        self.sq.swap(i, b);
        self.flips.swap(i, b);
        self.key.swap(i, b);
        (self.sq[i], self.flips[i])
    }
}
