//! Time of an opening book lookup: `cargo bench --bench book`.
//!
//! Builds the book of every position of the first 6 plies (`reversi book
//! new --depth 6`, its last ply valued by a level-1 search), then looks up
//! every position of the book under each of its eight images (each lookup
//! turns the position to its key, finds the entry and turns its moves back)
//! and prints the mean time per lookup.

use reversi::engine::book::{position_of, Book};
use reversi::engine::RelativePosition;
use reversi::eval::pattern::symmetry::image;
use reversi::lab::book::{plan_new, search_and_merge, MAX_POSITIONS};
use std::time::Instant;

fn main() {
    let mut book = Book::new();
    plan_new(&mut book, &[], 6, MAX_POSITIONS).expect("a small plan");
    search_and_merge(&mut book, 1, 2, &mut |_, _| {});
    let positions: Vec<RelativePosition> = book
        .sorted()
        .iter()
        .flat_map(|&(key, _)| {
            let p = position_of(key);
            (0..8).map(move |s| RelativePosition::of_8x8(image(p.player, s), image(p.opponent, s)))
        })
        .collect();
    let rounds = 20;
    let start = Instant::now();
    let mut moves = 0usize;
    for _ in 0..rounds {
        for p in &positions {
            moves += book.lookup(p).map_or(0, |e| e.ranked().len());
        }
    }
    let each = start.elapsed().as_secs_f64() / (rounds * positions.len()) as f64;
    println!(
        "{} positions, {} lookups (each position under its 8 images, {rounds} rounds): {:.3} µs a lookup ({} moves)",
        book.len(),
        rounds * positions.len(),
        each * 1e6,
        std::hint::black_box(moves)
    );
}
