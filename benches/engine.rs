//! Engine benchmarks with plain `std::time` (no harness):
//!
//! ```text
//! cargo bench --bench engine                 # everything below
//! cargo bench --bench engine -- perft 10 11  # perft depths on 8x8
//! cargo bench --bench engine -- ffo 1-19 40-44
//! cargo bench --bench engine -- threads 2 ffo 40-44
//! cargo bench --bench engine -- six 18 20 22 24      # 6x6 sub-positions
//! ```
//!
//! FFO sets name the positions' numbers in `tests/data/ffo/`; each position
//! is solved (with one thread unless `threads N` comes first) and printed
//! with its time, CPU time of the main thread, and nodes.

use reversi::engine::{parse_obf_file, perft, EndgameSolver, RelativePosition, Scoring};
use std::time::Instant;

/// CPU time of this thread in seconds (from /proc; 0 where unavailable):
/// on a shared machine it is steadier than the wall time.
fn cpu_secs() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn bench_perft(depth: u32) {
    let (t, c) = (Instant::now(), cpu_secs());
    let n = perft(&RelativePosition::start(8), depth);
    let (s, c) = (t.elapsed().as_secs_f64(), cpu_secs() - c);
    println!(
        "perft {depth}: {n} leaves in {s:.3} s ({c:.3} s CPU), {:.1} M leaves/s",
        n as f64 / s / 1e6
    );
}

/// Positions `from..=to` of the FFO files.
fn bench_ffo(from: usize, to: usize, threads: usize) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ffo/");
    let mut all = Vec::new();
    for (first, name) in [
        (1, "fforum-1-19.obf"),
        (20, "fforum-20-39.obf"),
        (40, "fforum-40-59.obf"),
        (60, "fforum-60-79.obf"),
    ] {
        let text = std::fs::read_to_string(format!("{dir}{name}")).expect("FFO file");
        for (i, p) in parse_obf_file(&text)
            .expect("valid OBF")
            .into_iter()
            .enumerate()
        {
            all.push((first + i, p));
        }
    }
    let mut solver = EndgameSolver::new(Scoring::Standard);
    let (mut nodes, t_all, c_all) = (0u64, Instant::now(), cpu_secs());
    for (number, p) in all.iter().filter(|(n, _)| (from..=to).contains(n)) {
        let (t, c) = (Instant::now(), cpu_secs());
        let s = solver.solve_parallel(&p.position, threads, &mut |_| {});
        let (secs, cpu) = (t.elapsed().as_secs_f64(), cpu_secs() - c);
        nodes += s.nodes;
        println!(
            "ffo #{number}: {} empties, score {:+}, {} nodes, {secs:.3} s ({cpu:.3} s CPU), {:.1} M nodes/s",
            p.position.empties().count_ones(),
            s.score,
            s.nodes,
            s.nodes as f64 / secs / 1e6
        );
    }
    let (secs, cpu) = (t_all.elapsed().as_secs_f64(), cpu_secs() - c_all);
    println!(
        "ffo #{from}-#{to}: {nodes} nodes in {secs:.3} s ({cpu:.3} s CPU), {:.1} M nodes/s",
        nodes as f64 / secs / 1e6
    );
}

/// 6x6 from the start played down to `empties` empty squares (each side
/// plays the move leaving the other the fewest moves, the lowest square
/// on ties; passes as they come), then solved: how
/// the solve time grows toward the 32 empties of the start.
fn bench_six(empties: u32, threads: usize) {
    let mut pos = RelativePosition::start(6);
    let mut plies = Vec::new();
    while pos.empties().count_ones() > empties && !pos.is_game_over() {
        let m = pos.moves();
        if m == 0 {
            pos = pos.pass();
            plies.push("pass".to_string());
        } else {
            let sq = reversi::board::bits::Bits(m)
                .min_by_key(|&sq| pos.play(sq).moves().count_ones())
                .expect("a move");
            plies.push(reversi::board::Square(sq).to_string());
            pos = pos.play(sq);
        }
    }
    let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 24);
    let (t, c) = (Instant::now(), cpu_secs());
    let s = solver.solve_parallel(&pos, threads, &mut |_| {});
    let (secs, cpu) = (t.elapsed().as_secs_f64(), cpu_secs() - c);
    println!(
        "6x6 after {} ({} empties): score {:+} for the side to move, {} nodes, {secs:.3} s ({cpu:.3} s CPU), {:.1} M nodes/s",
        plies.join(" "),
        pos.empties().count_ones(),
        s.score,
        s.nodes,
        s.nodes as f64 / secs / 1e6
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let args: Vec<&str> = if args.is_empty() {
        vec!["perft", "10", "11", "12", "ffo", "1-19", "20-39", "40-44"]
    } else {
        args.iter().map(String::as_str).collect()
    };
    let (mut mode, mut threads) = ("", 1);
    for a in args {
        match a {
            "perft" | "ffo" | "threads" | "six" => mode = a,
            _ if mode == "six" => bench_six(a.parse().expect("empties"), threads),
            _ if mode == "threads" => threads = a.parse().expect("a thread count"),
            _ if mode == "perft" => bench_perft(a.parse().expect("a depth")),
            _ if mode == "ffo" => {
                let (f, t) = a.split_once('-').unwrap_or((a, a));
                let (f, t) = (f.parse().expect("a number"), t.parse().expect("a number"));
                bench_ffo(f, t, threads);
            }
            _ => panic!(
                "usage: engine [perft DEPTH...] [threads N] [ffo FROM-TO...] [six EMPTIES...]"
            ),
        }
    }
}
