//! Perft: the number of leaves of the game tree at a fixed depth, with the
//! published conventions: a pass is a ply, and a finished game counts as one
//! leaf at every deeper depth.

use super::position::RelativePosition;
use crate::board::bits::Bits;
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
    count(pos.player, pos.opponent, pos.valid, depth)
}

/// `depth >= 1`.
fn count(p: u64, o: u64, valid: u64, depth: u32) -> u64 {
    let moves = crate::board::bits::moves_simd(p, o, valid);
    if moves == 0 {
        if crate::board::bits::moves_scalar(o, p, valid) == 0 {
            return 1; // game over: one leaf at every deeper depth
        }
        return if depth == 1 {
            1
        } else {
            count(o, p, valid, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    for sq in Bits(moves) {
        let f = crate::board::bits::flips_simd(p, o, sq);
        total += count(o & !f, p | f | (1u64 << sq), valid, depth - 1);
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

    #[test]
    fn divide_sums_to_perft() {
        let p = RelativePosition::start(6);
        let parts = perft_divide(&p, 5);
        assert_eq!(parts.len(), 4);
        assert_eq!(parts.iter().map(|x| x.1).sum::<u64>(), perft(&p, 5));
    }
}
