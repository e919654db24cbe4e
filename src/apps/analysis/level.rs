//! [`LevelSearch`]: move values by the engine's 8x8 midgame search
//! ([`MidgameSearch`]) at a strength [`Level`], for the protocols, hints
//! and analysis.
//!
//! The budget's depth is the level (1 to [`Level::MAX`], deeper asks are
//! the strongest level; no depth: the strongest level, cut by the time).
//! The level chooses the midgame depth and the selectivity (Multi-ProbCut);
//! where the values are exact stays the budget's choice: positions with at
//! most [`Budget::wld_empties`] empty squares, and every board other than
//! 8x8, are answered by [`StandardSearch`] exactly as before, so the exact
//! and win/loss/draw answers do not depend on the level.

use super::{children, rank, Budget, Certainty, MoveSearch, MoveValue, StandardSearch};
use crate::engine::midgame::{Level, MidgameSearch, Verdict};
use crate::engine::RelativePosition;
use crate::eval::pattern::SCALE;
use crate::reversi::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The midgame search at a level, the standard search near the end (see
/// the module documentation).
pub struct LevelSearch {
    midgame: Option<Box<MidgameSearch>>,
    standard: StandardSearch,
    nodes: u64,
}

impl Default for LevelSearch {
    fn default() -> Self {
        LevelSearch::new()
    }
}

impl LevelSearch {
    /// A search with empty memory; the midgame search's table (32 MiB) is
    /// made when first needed.
    #[must_use]
    pub fn new() -> LevelSearch {
        LevelSearch {
            midgame: None,
            standard: StandardSearch::new(),
            nodes: 0,
        }
    }

    /// The level a budget asks for: its depth as the level number (the
    /// strongest level without one), exact solving left to the budget.
    #[must_use]
    pub fn level_of(budget: &Budget) -> Level {
        let n = budget.depth.unwrap_or(Level::MAX).clamp(1, Level::MAX);
        Level {
            exact_empties: 0,
            ..Level::new(n)
        }
    }

    /// The midgame search of `p` (an 8x8 position) at `level`.
    fn search(
        &mut self,
        p: &Position,
        level: Level,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Verdict {
        let rel = RelativePosition::from_board(&p.board, p.to_move);
        let midgame = self.midgame.get_or_insert_with(Box::default);
        let v = midgame.search(&rel, level, deadline, Some(stop));
        self.nodes += v.nodes;
        v
    }
}

/// A midgame value (1/[`SCALE`] disc) in discs.
fn discs(value: i32) -> f64 {
    f64::from(value) / f64::from(SCALE)
}

impl MoveSearch for LevelSearch {
    fn rank_moves(
        &mut self,
        position: &Position,
        count: usize,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        self.nodes = 0;
        let empties = position.board.empty().count_ones();
        if position.board.size() != 8 || empties <= budget.wld_empties {
            let values = self
                .standard
                .rank_moves(position, count, budget, stop, progress);
            self.nodes = self.standard.nodes();
            return values;
        }
        let kids = children(position);
        if kids.is_empty() {
            return Vec::new();
        }
        let count = count.clamp(1, kids.len());
        let level = LevelSearch::level_of(budget);
        let start = Instant::now();
        // A budget beyond any clock (a library caller's) is no deadline.
        let deadline = start.checked_add(budget.time);
        let stopped =
            || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
        if count == 1 && kids.len() > 1 {
            // One search per depth so that every deeper answer is heard:
            // the table holds each finished depth's root, so a search to
            // depth d redoes none of 1..d-1.
            let mut best: Vec<MoveValue> = Vec::new();
            for depth in 1..=level.depth {
                let v = self.search(position, Level { depth, ..level }, deadline, stop);
                let stopped_early = v.depth < depth && stopped();
                if stopped_early && !best.is_empty() {
                    break;
                }
                let mv = v.best.unwrap_or(kids[0].0);
                best = vec![MoveValue {
                    mv,
                    value: discs(v.value),
                    certainty: Certainty::Estimate { depth: v.depth },
                    line: vec![mv],
                }];
                progress(&best);
                // Stopped, or the game's end within reach: deeper is the same.
                if v.depth < depth || stopped() {
                    break;
                }
            }
            return best;
        }
        // Several moves (or a forced pass): each searched a ply shallower,
        // deepening round by round (the first round looks 2 plies ahead).
        let mut best: Vec<MoveValue> = Vec::new();
        for depth in 2..=level.depth.max(2) {
            let at = Level {
                depth: depth - 1,
                ..level
            };
            let mut values = Vec::with_capacity(kids.len());
            let mut complete = true;
            let mut abandoned = false;
            for (mv, child) in &kids {
                let v = self.search(child, at, deadline, stop);
                if v.depth < at.depth && !v.exact && stopped() {
                    abandoned = !best.is_empty();
                    break;
                }
                // A child whose game ends within the depth is searched out.
                complete &= v.exact || v.depth < at.depth;
                values.push(MoveValue {
                    mv: *mv,
                    value: -discs(v.value),
                    certainty: if v.exact {
                        Certainty::Exact
                    } else {
                        Certainty::Estimate { depth: v.depth + 1 }
                    },
                    line: vec![*mv],
                });
            }
            if abandoned || values.is_empty() {
                break;
            }
            rank(&mut values);
            values.truncate(count);
            best = values;
            progress(&best);
            if complete || stopped() {
                break;
            }
        }
        best
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn clear(&mut self) {
        self.midgame = None;
        self.standard.clear();
    }
}
