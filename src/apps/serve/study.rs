//! The study page's two runs, reporting progress as they go and stopping
//! between searches when asked:
//!
//! - a *match*: alpha-beta plays both sides at a fixed depth; at every
//!   position minimax searches too, so each move has both node counts (the
//!   same value, and the same move, by first-best tie-breaking);
//! - a *depth table*: black at depth `b` against white at depth `w` for all
//!   `b, w` up to a bound, each game's final disc difference.
//!
//! Both use the library's counted searches ([`crate::search`]) on the
//! study's game ([`Reversi::DISC_DIFFERENCE`]).

use crate::apps::study::selfplay::{play_game, Player};
use crate::eval::Heuristic;
use crate::game::{Game, Value};
use crate::reversi::{Move, Position, Reversi};
use crate::search::{alphabeta_with, minimax_with, Limit, NoObserver};
use std::sync::atomic::{AtomicBool, Ordering};

/// One move of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchMove {
    /// The move played (alpha-beta's choice).
    pub mv: Move,
    /// The value of the position it was chosen in.
    pub value: Value,
    /// States alpha-beta visited for it.
    pub alphabeta: u64,
    /// States minimax visited for the same position.
    pub minimax: u64,
}

/// Plays a match on a board of `size` at `depth` plies with `eval`, calling
/// `progress` after every move. Returns the final disc difference, or
/// `None` if `stop` was set.
pub fn run_match(
    size: u8,
    depth: u32,
    eval: Heuristic,
    stop: &AtomicBool,
    mut progress: impl FnMut(&MatchMove),
) -> Option<Value> {
    let game = Reversi::DISC_DIFFERENCE;
    let limit = Limit::depth(depth, eval);
    let mut p = Position::start(size);
    while !game.is_terminal(&p) {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let ab = alphabeta_with(&game, &p, &limit, &mut NoObserver);
        let mm = minimax_with(&game, &p, &limit, &mut NoObserver);
        let mv = ab.best?;
        progress(&MatchMove {
            mv,
            value: ab.value,
            alphabeta: ab.nodes,
            minimax: mm.nodes,
        });
        p = game.play(&p, mv);
    }
    Some(game.utility(&p))
}

/// One game of a depth table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableCell {
    /// Black's depth.
    pub black: u32,
    /// White's depth.
    pub white: u32,
    /// Final black discs minus white discs.
    pub score: Value,
    /// States both sides visited.
    pub nodes: u64,
}

/// Plays black at depth `b` against white at depth `w` for `b, w` in
/// `1..=max_depth` (alpha-beta, natural order, `eval`), calling `progress`
/// after every game. Returns `false` if `stop` was set.
pub fn run_table(
    size: u8,
    max_depth: u32,
    eval: Heuristic,
    stop: &AtomicBool,
    mut progress: impl FnMut(&TableCell),
) -> bool {
    for black in 1..=max_depth {
        for white in 1..=max_depth {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            let side = |d| Player {
                eval,
                ..Player::at_depth(d)
            };
            let record = play_game(
                Position::start(size),
                Vec::new(),
                &side(black),
                &side(white),
                |_| {},
            );
            progress(&TableCell {
                black,
                white,
                score: record.score,
                nodes: record.nodes(),
            });
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_counts_fewer_alphabeta_nodes_with_the_same_values() {
        let stop = AtomicBool::new(false);
        let mut moves = Vec::new();
        let score = run_match(4, 4, Heuristic::Disc, &stop, |m| moves.push(*m)).unwrap();
        assert!(!moves.is_empty());
        let game = Reversi::DISC_DIFFERENCE;
        let mut p = Position::start(4);
        for m in &moves {
            assert!(m.alphabeta <= m.minimax);
            let mm = minimax_with(
                &game,
                &p,
                &Limit::depth(4, Heuristic::Disc),
                &mut NoObserver,
            );
            assert_eq!(
                (mm.value, mm.best, mm.nodes),
                (m.value, Some(m.mv), m.minimax)
            );
            p = game.play(&p, m.mv);
        }
        assert!(game.is_terminal(&p));
        assert_eq!(score, game.utility(&p));
    }

    #[test]
    fn a_table_has_every_pair_and_stops_when_asked() {
        let stop = AtomicBool::new(false);
        let mut cells = Vec::new();
        assert!(run_table(4, 2, Heuristic::Disc, &stop, |c| cells.push(*c)));
        let pairs: Vec<(u32, u32)> = cells.iter().map(|c| (c.black, c.white)).collect();
        assert_eq!(pairs, vec![(1, 1), (1, 2), (2, 1), (2, 2)]);
        stop.store(true, Ordering::Relaxed);
        assert!(!run_table(4, 2, Heuristic::Disc, &stop, |_| {}));
        assert!(run_match(4, 2, Heuristic::Disc, &stop, |_| {}).is_none());
    }
}
