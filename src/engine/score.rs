//! The score and bound helpers of the engine's searches (the endgame
//! solver and the midgame search): the final score of a finished game and
//! the bounds that a fail-soft result gives.

/// How a finished game with empty squares is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scoring {
    /// Empty squares go to the winner (standard Othello, FFO, Edax).
    #[default]
    Standard,
    /// The plain disc difference.
    DiscsOnly,
}

/// The final score of a finished game for the side with discs `p` against
/// `o`, on the board whose squares are `valid`.
#[inline]
#[must_use]
pub(crate) fn final_score(p: u64, o: u64, valid: u64, scoring: Scoring) -> i32 {
    let diff = p.count_ones() as i32 - o.count_ones() as i32;
    match scoring {
        Scoring::DiscsOnly => diff,
        Scoring::Standard => {
            let e = (valid & !(p | o)).count_ones() as i32;
            diff + diff.signum() * e
        }
    }
}

/// The bounds a search result `best` gives with the window `(alpha, beta)`
/// it was searched with (fail-soft): an upper bound at or below `alpha`, a
/// lower bound at or above `beta`, exact in between; `unbounded` stands for
/// the missing side.
#[inline]
#[must_use]
pub(crate) fn bounds(best: i32, alpha: i32, beta: i32, unbounded: i32) -> (i32, i32) {
    if best <= alpha {
        (-unbounded, best)
    } else if best >= beta {
        (best, unbounded)
    } else {
        (best, best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_bounds() {
        // 3 discs against 1 with 4 squares empty on a 2x4 board.
        let valid = 0xFF;
        assert_eq!(final_score(0b111, 0b1000, valid, Scoring::Standard), 6);
        assert_eq!(final_score(0b1000, 0b111, valid, Scoring::Standard), -6);
        assert_eq!(final_score(0b1000, 0b111, valid, Scoring::DiscsOnly), -2);
        assert_eq!(final_score(0b1, 0b10, valid, Scoring::Standard), 0);
        assert_eq!(bounds(-3, -2, 5, 64), (-64, -3));
        assert_eq!(bounds(5, -2, 5, 64), (5, 64));
        assert_eq!(bounds(1, -2, 5, 64), (1, 1));
    }
}
