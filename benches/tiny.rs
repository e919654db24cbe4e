//! States per second of the counted searches on the 4x4 start position
//! (`reversi 300 1 0000021001200000` and `500`): `cargo bench --bench tiny`.

use reversi::reversi::{Position, Reversi};
use reversi::search::{alphabeta, minimax, SearchResult};
use std::time::{Duration, Instant};

/// Runs `f` repeatedly for about a second; returns the best time of one run.
fn best_time<M>(f: impl Fn() -> SearchResult<M>) -> (Duration, u64) {
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
    let minimax_run = best_time(|| minimax(&game, &root));
    let alphabeta_run = best_time(|| alphabeta(&game, &root));
    let runs = [
        ("minimax   (FLAG 300)", minimax_run),
        ("alphabeta (FLAG 500)", alphabeta_run),
    ];
    for (name, (t, nodes)) in runs {
        let rate = nodes as f64 / t.as_secs_f64();
        println!(
            "{name}: {nodes} states in {:.3} ms = {:.1} M states/s",
            t.as_secs_f64() * 1e3,
            rate / 1e6
        );
    }
}
