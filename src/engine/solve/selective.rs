//! Selective passes before the exact proof (on 8x8, far from the end):
//! the whole solve is run first with Multi-ProbCut, a node being cut when
//! a shallow search with the pattern evaluation predicts its exact score
//! outside the window with a given confidence, at growing confidences.
//! Each pass fills the shared table with best moves for the next; its
//! bounds are tagged with the pass's level, so the exact pass uses their
//! moves only and its score never depends on the evaluation.
//!
//! The standard deviation of the estimate's error is the endgame model of
//! the solver's Multi-ProbCut table ([`crate::engine::probcut::EndgameSigma`],
//! the `endgame` line of `data/probcut.txt` by default), which `reversi
//! train probcut` fits with [`shallow_estimate`] at [`CUT_DEPTHS`]; without
//! a model there are no selective passes.

use super::order::{pattern_search, PATTERN_INF};
use super::{EndgameSolver, RootProgress, Solution, SolverKernel, INF};
use crate::board::bits::with_best_kernel;
use crate::engine::position::RelativePosition;
use crate::engine::tt::EXACT;
use crate::eval::pattern::{PatternWeights, SCALE};

/// The confidence of each selective pass in standard deviations of the
/// estimate's error (a cut is right about 73% and then 87% of the time if
/// the error is normal); the exact pass follows. More passes (95%, 98%,
/// 99%, as in Edax) cost more than they saved below [`DEEP_PASSES_MIN`]
/// empties: on FFO #40-#44 the passes 73%, 87% gave 161 M nodes in all,
/// the five passes 257 M, 73% alone 193 M, none 249 M (with cuts from 12
/// empties on).
const PASSES: [f64; 2] = [1.1, 1.5];

/// The passes of roots with at least [`DEEP_PASSES_MIN`] empties: two more
/// (95%, 99%), which there pay: FFO #50-#52 and #56 on two threads took
/// 122 s instead of 134 s (#51 23 s instead of 36 s); a 99.9% pass
/// more gained nothing.
const DEEP_PASSES: [f64; 4] = [1.1, 1.5, 2.0, 2.6];

/// Roots with at least this many empties get [`DEEP_PASSES`].
const DEEP_PASSES_MIN: u32 = 24;

/// 8x8 roots with at least this many empties get the selective passes
/// (below, the passes cost more than they save).
pub(super) const PASSES_MIN: u32 = 20;

/// In a selective pass, nodes with at least this many empties may be cut
/// (from 10: 147 M nodes on FFO #40-#44; from 12: 161 M; from 14: 193 M).
const CUT_MIN: u32 = 10;

/// The depths of the shallow pattern searches that predict exact scores in
/// the selective passes (even depths: odd ones are biased), shallowest
/// first.
pub const CUT_DEPTHS: [u32; 3] = [0, 2, 4];

/// Plies of the shallow pattern search that predicts the exact score of a
/// node with `n` empties.
#[inline]
fn cut_depth(n: u32) -> u32 {
    match n {
        0..=15 => CUT_DEPTHS[0],
        16..=21 => CUT_DEPTHS[1],
        _ => CUT_DEPTHS[2],
    }
}

/// The estimate of the exact score (for the mover `p` against `o` on the
/// full 8x8 board) that the selective passes cut with: the value of the
/// `depth`-ply negamax search with the pattern evaluation `weights` at the
/// leaves and the disc difference at the end of the game, in the
/// evaluation's units ([`SCALE`] per disc).
#[must_use]
pub fn shallow_estimate(weights: &PatternWeights, p: u64, o: u64, depth: u32) -> i32 {
    let mut nodes = 0;
    with_best_kernel!(|k| pattern_search(
        k,
        weights,
        p,
        o,
        depth,
        (-PATTERN_INF, PATTERN_INF),
        &mut nodes
    ))
}

impl EndgameSolver {
    /// Runs the selective passes for the root `pos` (when it is an 8x8
    /// board with at least [`PASSES_MIN`] empties, fewer in some tests),
    /// each in a narrow window around the previous one's score; returns the
    /// positions they visited and the last pass's score (`None` without
    /// passes), and leaves the solver set for the exact pass.
    pub(super) fn selective_passes(
        &mut self,
        pos: &RelativePosition,
        threads: usize,
    ) -> (u64, Option<i32>) {
        self.setup(pos.valid);
        let empties = pos.empties().count_ones();
        if self.weights.is_none() || self.endgame_sigma.is_none() || empties < self.passes_min {
            return (0, None);
        }
        let passes: &[f64] = if empties >= DEEP_PASSES_MIN {
            &DEEP_PASSES
        } else {
            &PASSES
        };
        let (mut nodes, mut guess) = (0, None);
        for (level, &t) in passes.iter().enumerate() {
            self.selectivity = Some(t);
            self.level = level as u8;
            let s = self.solve_near(pos, guess, threads, &mut |_| {});
            nodes += s.nodes;
            guess = Some(s.score.0);
        }
        self.selectivity = None;
        self.level = EXACT;
        (nodes, guess)
    }

    /// Searches `pos` first in the narrow window `(guess - 1, guess + 1)`
    /// (with [`super::Scoring::Standard`] every score is even, so only
    /// `guess` itself lies inside), then, if the score falls outside, again with the window
    /// open on that side; without a guess, with the full window. The
    /// score is the exact value of the current pass; the nodes of both
    /// searches are counted.
    pub(super) fn solve_near(
        &mut self,
        pos: &RelativePosition,
        guess: Option<i32>,
        threads: usize,
        progress: &mut (dyn FnMut(RootProgress) + Send),
    ) -> Solution {
        let Some(g) = guess else {
            return self.window(pos, (-INF, INF), threads, progress);
        };
        let first = self.window(pos, (g - 1, g + 1), threads, progress);
        let (alpha, beta) = if first.score.0 < g {
            (-INF, first.score.0 + 1)
        } else if first.score.0 > g {
            (first.score.0 - 1, INF)
        } else {
            return first;
        };
        let mut s = self.window(pos, (alpha, beta), threads, progress);
        s.nodes += first.nodes;
        s
    }

    /// Multi-ProbCut in a selective pass at a node with `n` empties:
    /// `beta` (or `alpha`) when the shallow pattern search predicts an
    /// exact score at or above `beta` (at or below `alpha`) with `t`
    /// standard deviations (of the solver's endgame model) to spare.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut<K: SolverKernel>(
        &mut self,
        k: K,
        p: u64,
        o: u64,
        (alpha, beta): (i32, i32),
        n: u32,
        t: f64,
    ) -> Option<i32> {
        let w = self.weights.as_deref()?;
        if n < CUT_MIN {
            return None;
        }
        let depth = cut_depth(n);
        let margin = t * self.endgame_sigma?.sigma(n, depth);
        let scale = f64::from(SCALE);
        let high = ((f64::from(beta) + margin) * scale).ceil() as i32;
        if beta < 64 && pattern_search(k, w, p, o, depth, (high - 1, high), &mut self.nodes) >= high
        {
            return Some(beta);
        }
        let low = ((f64::from(alpha) - margin) * scale).floor() as i32;
        if alpha > -64 && pattern_search(k, w, p, o, depth, (low, low + 1), &mut self.nodes) <= low
        {
            return Some(alpha);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solve::Scoring;
    use crate::eval::pattern::{PatternWeights, PHASES, WEIGHTS_PER_PHASE};
    use crate::rng::Rng;
    use std::sync::Arc;

    /// Weights with every value drawn uniformly from -`spread`..`spread`
    /// discs.
    fn random_weights(rng: &mut Rng, spread: f64) -> Arc<PatternWeights> {
        let phases: Vec<Vec<f64>> = (0..PHASES)
            .map(|_| {
                (0..WEIGHTS_PER_PHASE)
                    .map(|_| (rng.below(2001) as f64 / 1000.0 - 1.0) * spread)
                    .collect()
            })
            .collect();
        Arc::new(PatternWeights::from_discs(&phases))
    }

    /// Solves with the trained, random and zero weights agree on every
    /// score (and the principal line exists), although the selective
    /// passes and the ordering differ (so do the node counts). (The trained
    /// weights negated are a worse adversary: the same scores, but 200 to
    /// 1,000 times the nodes.)
    #[test]
    fn scores_do_not_depend_on_the_weights() {
        let mut rng = Rng::new(0x5e1e_c71e);
        let weights = [
            Arc::new(PatternWeights::embedded().clone()),
            random_weights(&mut rng, 4.0),
            Arc::new(PatternWeights::zero()),
        ];
        for _ in 0..12 {
            // 16 or 17 empties, with the passes from 14 empties on (cuts
            // from CUT_MIN = 10): every part runs, in milliseconds.
            let p = crate::reversi::random_position(8, 44, &mut rng);
            let pos = RelativePosition::from_board(&p.board, p.to_move);
            assert!(pos.empties().count_ones() >= 16);
            let mut results = Vec::new();
            for w in &weights {
                let mut solver = EndgameSolver::new(Scoring::Standard);
                solver.passes_min = 14;
                solver.set_weights(Arc::clone(w));
                let s = solver.solve(&pos);
                let line = solver.principal_line(&pos, s.score);
                results.push((s.score, s.nodes, line.len()));
            }
            let (score, nodes, _) = results[0];
            for &(other, other_nodes, line) in &results[1..] {
                assert_eq!(other, score, "{pos:?}: {results:?}");
                assert_ne!(other_nodes, nodes, "the weights changed nothing");
                assert!(line > 0);
            }
        }
    }
}
