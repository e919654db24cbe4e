//! States per second of the counted searches on the 4x4 start position
//! (`reversi 300 1 0000021001200000` and `500`): `cargo bench --bench tiny`.

use reversi::reversi::{Position, Reversi};
use reversi::search::{alphabeta, minimax, Outcome};
use std::time::{Duration, Instant};

/// Runs `f` repeatedly for about a second; returns the best time of one run.
fn best_time<M>(f: impl Fn() -> Outcome<M>) -> (Duration, u64) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        let t = Instant::now();
        let out = std::hint::black_box(f());
        best = best.min(t.elapsed());
        nodes = out.nodes;
    }
    (best, nodes)
}

fn main() {
    let game = Reversi::WIN_LOSS;
    let root = Position::start(4);
    let runs: [(&str, Box<dyn Fn() -> (Duration, u64)>); 2] = [
        (
            "minimax   (FLAG 300)",
            Box::new(|| best_time(|| minimax(&game, &root))),
        ),
        (
            "alphabeta (FLAG 500)",
            Box::new(|| best_time(|| alphabeta(&game, &root))),
        ),
    ];
    for (name, run) in runs {
        let (t, nodes) = run();
        let rate = nodes as f64 / t.as_secs_f64();
        println!(
            "{name}: {nodes} states in {:.3} ms = {:.1} M states/s",
            t.as_secs_f64() * 1e3,
            rate / 1e6
        );
    }
}
