//! Speed of the pattern evaluation and of the engine's midgame search:
//! `cargo bench --bench eval`.
//!
//! - evaluations per second of `PatternWeights::evaluate` (the embedded
//!   weights) over 10,000 random reachable 8x8 positions;
//! - the midgame search at fixed depths from the start position and from
//!   random middle-game positions: nodes, time and nodes per second.

use reversi::engine::midgame::{Level, MidgameSearch};
use reversi::engine::RelativePosition as Position;
use reversi::eval::pattern::PatternWeights;
use reversi::reversi::random_position;
use reversi::rng::Rng;
use std::time::{Duration, Instant};

fn main() {
    let weights = PatternWeights::embedded();
    let mut rng = Rng::new(2024);
    let positions: Vec<(u64, u64)> = (0..10_000)
        .map(|_| {
            let plies = 10 + rng.below(45);
            let p = random_position(8, plies, &mut rng);
            (p.board.discs(p.to_move), p.board.discs(p.to_move.other()))
        })
        .collect();
    let mut best = Duration::MAX;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) {
        let t = Instant::now();
        let sum: i64 = positions
            .iter()
            .map(|&(p, o)| i64::from(weights.evaluate(p, o)))
            .sum();
        std::hint::black_box(sum);
        best = best.min(t.elapsed());
    }
    println!(
        "pattern evaluation: {} positions in {:.2} ms = {:.2} M evaluations/s ({:.0} ns each)",
        positions.len(),
        best.as_secs_f64() * 1e3,
        positions.len() as f64 / best.as_secs_f64() / 1e6,
        best.as_secs_f64() * 1e9 / positions.len() as f64
    );
    for depth in [6, 8, 10] {
        let mut search = MidgameSearch::new(std::sync::Arc::new(weights.clone()));
        let level = Level {
            depth,
            exact_empties: 0,
            selectivity: None,
        };
        let mut rng = Rng::new(7);
        let (mut nodes, t) = (0, Instant::now());
        for _ in 0..10 {
            let p = random_position(8, 20, &mut rng);
            let pos = Position::from_board(&p.board, p.to_move);
            nodes += search.search(&pos, level, None, None).nodes;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "midgame search depth {depth}: 10 positions after 20 random plies, {nodes} nodes in {secs:.2} s = {:.2} M nodes/s",
            nodes as f64 / secs / 1e6
        );
    }
}
