//! The midgame search's node rate and time to depth on real positions:
//! `cargo bench --bench midgame [-- LEVEL ...]` (default: levels 14 and 16).
//!
//! The positions are the 40 of `tests/data/midgame/bench-positions.tsv`
//! (games of WTHOR 2023, held out of training: 20 after ply 20, 20 after
//! ply 30). Each is ranked as `reversi hint --level L --no-book --moves 1
//! --threads 1` ranks it (the engine API, a fresh analyzer per position,
//! no clock); printed per set: nodes, wall and CPU seconds (of this thread,
//! steadier on a shared machine) and nodes per CPU second.
//! `scripts/midgame_vs_zebra.sh` runs the same positions beside Zebra.

mod common;

use reversi::engine::analyze::{Analyzer, Limits, MoveSearch};
use reversi::record::parse_transcript;
use reversi::reversi::Position;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// CPU time of this thread in seconds (from /proc; 0 where unavailable).
fn cpu_secs() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// The benchmark's positions as (ply, position).
fn positions() -> Vec<(u32, Position)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/midgame/bench-positions.tsv"
    );
    std::fs::read_to_string(path)
        .expect("bench positions")
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let record = parse_transcript(fields[2], Position::start(8)).expect("a transcript");
            (fields[1].parse().expect("a ply"), record.last())
        })
        .collect()
}

fn main() {
    let levels = common::levels_from_args(&[14, 16]);
    let all = positions();
    let stop = AtomicBool::new(false);
    println!("level | after ply | positions | nodes | wall s | CPU s | M nodes/CPU s");
    for level in levels {
        let limits = Limits {
            level: Some(level),
            time: None,
            threads: 1,
            ..Limits::default()
        };
        for ply in [20, 30] {
            let (mut nodes, mut count) = (0u64, 0);
            let (t, c) = (Instant::now(), cpu_secs());
            for (_, position) in all.iter().filter(|(p, _)| *p == ply) {
                let mut analyzer = Analyzer::new();
                let best = analyzer.rank_moves(position, 1, &limits, &stop, &mut |_| {});
                std::hint::black_box(best);
                nodes += analyzer.nodes();
                count += 1;
            }
            let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_secs() - c);
            println!(
                "{level:>5} | {ply:>9} | {count:>9} | {nodes:>5} | {wall:>6.2} | {cpu:>5.2} | {:.2}",
                nodes as f64 / cpu / 1e6
            );
        }
    }
}
