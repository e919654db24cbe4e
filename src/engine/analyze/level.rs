//! The ranking at a strength level: the moves of an 8x8 position valued by
//! the midgame search ([`MidgameSearch`]) at a [`Level`] whose exact
//! solving is left to the limits (the parent module proves the values near
//! the end, so exact answers never depend on the level).

use super::{children, rank, Certainty, MoveValue};
use crate::engine::midgame::{Level, MidgameSearch};
use crate::reversi::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The best `count` moves of the 8x8 position `position` at `level`, with
/// the positions visited; `progress` hears each deeper ranking.
pub(super) fn rank_at_level(
    midgame: &mut MidgameSearch,
    position: &Position,
    count: usize,
    level: Level,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&[MoveValue]),
) -> (Vec<MoveValue>, u64) {
    let kids = children(position);
    if kids.is_empty() {
        return (Vec::new(), 0);
    }
    let mut nodes = 0;
    midgame.prepare_for(level);
    // The value of `p` at `level`, and the line the search expects from it.
    let mut search = |p: &Position, level: Level| {
        let pos = p.into();
        let v = midgame.search(&pos, level, deadline, Some(stop));
        nodes += v.nodes;
        let line = midgame.principal_line(&pos, v.depth);
        (v, line)
    };
    let count = count.clamp(1, kids.len());
    let stopped = || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let mut best: Vec<MoveValue> = Vec::new();
    if count == 1 && kids.len() > 1 {
        // One search per depth so that every deeper answer is heard: the
        // table holds each finished depth's root, so a search to depth d
        // redoes none of 1..d-1.
        for depth in 1..=level.depth {
            let (v, line) = search(position, Level { depth, ..level });
            let stopped_early = v.depth < depth && stopped();
            if stopped_early && !best.is_empty() {
                break;
            }
            let mv = v.best.unwrap_or(kids[0].0);
            best = vec![MoveValue {
                mv,
                value: v.value.discs(),
                certainty: Certainty::Estimate { depth: v.depth },
                line: if line.first() == Some(&mv) {
                    line
                } else {
                    vec![mv]
                },
            }];
            progress(&best);
            // Stopped, or the game's end within reach: deeper is the same.
            if v.depth < depth || stopped() {
                break;
            }
        }
        return (best, nodes);
    }
    // Several moves (or a forced pass): each searched a ply shallower,
    // deepening round by round (the first round looks 2 plies ahead).
    for depth in 2..=level.depth.max(2) {
        let at = Level {
            depth: depth - 1,
            ..level
        };
        let mut values = Vec::with_capacity(kids.len());
        let mut complete = true;
        let mut abandoned = false;
        for (mv, child) in &kids {
            let (v, line) = search(child, at);
            if v.depth < at.depth && !v.exact && stopped() {
                abandoned = !best.is_empty();
                break;
            }
            // A child whose game ends within the depth is searched out.
            complete &= v.exact || v.depth < at.depth;
            values.push(MoveValue {
                mv: *mv,
                value: -v.value.discs(),
                certainty: if v.exact {
                    Certainty::Exact
                } else {
                    Certainty::Estimate { depth: v.depth + 1 }
                },
                line: std::iter::once(*mv).chain(line).collect(),
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
    (best, nodes)
}
