//! The comparison tables of `reversi usc-report`: for each input board and
//! depths 1-5, how many nodes minimax and alpha-beta search (task 1 against
//! task 2), and how the disc-difference and positional-weights games differ
//! (task 2 against task 3).

use super::{format_moves, play_game, search, Step, Task};
use crate::board::{Board, Color};
use crate::reversi::Position;
use crate::search::NoObserver;
use std::fmt::Write as _;

/// The depths every table covers.
const DEPTHS: std::ops::RangeInclusive<u32> = 1..=5;

/// Both tables, in Markdown, for the named boards (`name`, board with black
/// to move).
#[must_use]
pub fn comparison_report(boards: &[(String, Board)]) -> String {
    let mut out = String::new();
    node_table(&mut out, boards);
    evaluation_table(&mut out, boards);
    out
}

/// Task 1 against task 2: nodes at the first step and over whole games.
fn node_table(out: &mut String, boards: &[(String, Board)]) {
    out.push_str("Nodes searched at the first step (task 1 minimax, task 2 alpha-beta, same evaluation):\n\n");
    out.push_str("| input | depth | task 1 nodes | task 2 nodes | task 2 / task 1 | same first move | same game | task 1 nodes, whole game | task 2 nodes, whole game |\n");
    out.push_str("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |\n");
    for (name, board) in boards {
        for depth in DEPTHS {
            let root = Position {
                board: *board,
                to_move: Color::Black,
            };
            let t1 = search(Task::Minimax, depth, &root, &mut NoObserver);
            let t2 = search(Task::AlphaBeta, depth, &root, &mut NoObserver);
            let g1 = play_game(Task::Minimax, depth, *board, &mut NoObserver);
            let g2 = play_game(Task::AlphaBeta, depth, *board, &mut NoObserver);
            let same_game = format_moves(&g1) == format_moves(&g2);
            let _ = writeln!(
                out,
                "| {name} | {depth} | {} | {} | {:.0}% | {} | {} | {} | {} |",
                t1.nodes,
                t2.nodes,
                100.0 * t2.nodes as f64 / t1.nodes as f64,
                yes(t1.best == t2.best),
                yes(same_game),
                total_nodes(&g1),
                total_nodes(&g2),
            );
        }
    }
}

/// Task 2 against task 3: first moves, the first step that differs, and
/// the final scores of whole games.
fn evaluation_table(out: &mut String, boards: &[(String, Board)]) {
    out.push_str(
        "\nWhole games, task 2 (disc difference) against task 3 (positional weights):\n\n",
    );
    out.push_str("| input | depth | task 2 first move | task 3 first move | first step that differs (task 2 / task 3 move) | task 2 final X-O | task 3 final X-O | task 2 steps | task 3 steps |\n");
    out.push_str("| --- | ---: | --- | --- | ---: | --- | --- | ---: | ---: |\n");
    for (name, board) in boards {
        for depth in DEPTHS {
            let g2 = play_game(Task::AlphaBeta, depth, *board, &mut NoObserver);
            let g3 = play_game(Task::Positional, depth, *board, &mut NoObserver);
            let differs = g2
                .iter()
                .zip(&g3)
                .position(|(a, b)| a.search.best != b.search.best || a.board != b.board)
                .map_or("none".to_string(), |i| {
                    let side = match g2[i].to_move {
                        Color::Black => "BLACK",
                        Color::White => "WHITE",
                    };
                    format!(
                        "{} ({side} {} / {})",
                        i + 1,
                        first_move(&g2[i..]),
                        first_move(&g3[i..])
                    )
                });
            let _ = writeln!(
                out,
                "| {name} | {depth} | {} | {} | {differs} | {} | {} | {} | {} |",
                first_move(&g2),
                first_move(&g3),
                final_score(&g2),
                final_score(&g3),
                g2.len(),
                g3.len(),
            );
        }
    }
}

/// The move of a game's first step (`pass` if it passes).
fn first_move(game: &[Step]) -> String {
    game[0]
        .search
        .best
        .map_or("pass".to_string(), |sq| sq.to_string())
}

/// The final disc counts and difference of a game, as `X-O (+D)`.
fn final_score(game: &[Step]) -> String {
    let b = game.last().expect("a game has a step").board;
    format!(
        "{}-{} ({:+})",
        b.count(Color::Black),
        b.count(Color::White),
        b.disc_difference()
    )
}

/// The nodes searched over all steps of a game.
fn total_nodes(game: &[Step]) -> u64 {
    game.iter().map(|s| s.search.nodes).sum()
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}
