//! Time per move of the engine's strength levels:
//! `cargo bench --bench levels`.
//!
//! Each level searches the same 10 middle-game positions (20 random plies
//! from the start, 40 empty squares, seed 7), each with a fresh
//! `MidgameSearch` (as the first move of a game: no table from earlier
//! moves), without a time limit; printed: mean and slowest time per move,
//! mean nodes.

mod common;

use reversi::engine::midgame::{Level, MidgameSearch};
use reversi::engine::RelativePosition as Position;
use reversi::reversi::random_position;
use reversi::rng::Rng;
use std::time::Instant;

fn main() {
    let levels = common::levels_from_args(&[1, 2, 4, 6, 8, 10, 12, 14]);
    let mut rng = Rng::new(7);
    let positions: Vec<Position> = (0..10)
        .map(|_| {
            let p = random_position(8, 20, &mut rng);
            Position::from_board(&p.board, p.to_move)
        })
        .collect();
    println!("level | mean s/move | slowest s | mean nodes");
    for n in levels {
        let level = Level::new(n);
        let (mut total, mut slowest, mut nodes) = (0.0f64, 0.0f64, 0u64);
        for pos in &positions {
            let mut search = MidgameSearch::default();
            let t = Instant::now();
            let v = search.search(pos, level, None, None);
            let secs = t.elapsed().as_secs_f64();
            std::hint::black_box(v.best);
            total += secs;
            slowest = slowest.max(secs);
            nodes += v.nodes;
        }
        let k = positions.len() as f64;
        println!(
            "{n:>5} | {:>11.4} | {slowest:>9.4} | {:>10.0}",
            total / k,
            nodes as f64 / k
        );
    }
}
