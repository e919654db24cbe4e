//! `reversi match`: the computer against itself, with settings per side.

use super::{
    board_picture, color_name, describe, json_array, json_moves, parse, parse_depth, parse_size,
    parse_time, player, verdict, AlgorithmArg, EvalArg, OrderArg,
};
use crate::cli::{usage, write_stdout};
use anyhow::Result;
use reversi::board::Color;
use reversi::study::selfplay::{play_game, play_opening, Record};
use std::fmt::Write as _;
use std::time::Duration;

/// Self-play: black and white are both the computer.
#[derive(clap::Parser, Debug)]
#[command(
    name = "reversi match",
    about = "The computer plays itself and reports every move"
)]
struct Args {
    /// Board size: 4, 6 or 8.
    #[arg(long, default_value = "4", value_parser = parse_size)]
    size: u8,
    /// Depth bound in plies for both sides (default 4; with --time, a cap).
    #[arg(long, value_parser = parse_depth)]
    depth: Option<u32>,
    /// Depth bound of black.
    #[arg(long, value_parser = parse_depth)]
    black_depth: Option<u32>,
    /// Depth bound of white.
    #[arg(long, value_parser = parse_depth)]
    white_depth: Option<u32>,
    /// Search algorithm.
    #[arg(long, value_enum, default_value = "alphabeta")]
    algorithm: AlgorithmArg,
    /// Move ordering (best: iterative deepening with ordered moves).
    #[arg(long, value_enum, default_value = "natural")]
    order: OrderArg,
    /// Evaluation of both sides at the depth bound.
    #[arg(long, value_enum, default_value = "disc")]
    eval: EvalArg,
    /// Evaluation of black.
    #[arg(long, value_enum)]
    black_eval: Option<EvalArg>,
    /// Evaluation of white.
    #[arg(long, value_enum)]
    white_eval: Option<EvalArg>,
    /// Time budget per move in seconds (anytime iterative deepening).
    #[arg(long, value_parser = parse_time)]
    time: Option<Duration>,
    /// Moves played first, e.g. "c4 c3".
    #[arg(long, default_value = "")]
    opening: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `reversi match ARGS`.
pub fn run(args: &[String]) -> Result<()> {
    let a: Args = parse("match", args);
    let black = player(
        a.black_depth.or(a.depth),
        a.time,
        a.algorithm,
        a.order,
        a.black_eval.unwrap_or(a.eval),
    );
    let white = player(
        a.white_depth.or(a.depth),
        a.time,
        a.algorithm,
        a.order,
        a.white_eval.unwrap_or(a.eval),
    );
    let (start, opening) = match play_opening(a.size, &a.opening) {
        Ok(x) => x,
        Err(e) => return usage(e),
    };
    let record = play_game(start, opening, &black, &white, |_| {});
    let text = if a.json {
        json(a.size, &record)
    } else {
        let mut s = format!(
            "Match on {n}x{n}\n  black: {}\n  white: {}\n",
            describe(&black),
            describe(&white),
            n = a.size
        );
        s.push_str(&text(&record));
        s
    };
    write_stdout(&text)
}

/// The record as one JSON object.
pub(super) fn json(size: u8, r: &Record) -> String {
    let c = &r.choices;
    format!(
        "{{\"size\":{size},\"moves\":{},\"opening\":{},\"nodes\":{},\"millis\":{},\"depths\":{},\"values\":{},\"score\":{},\"total_nodes\":{}}}\n",
        json_moves(&r.moves),
        r.opening,
        json_array(c.iter().map(|x| x.nodes)),
        json_array(c.iter().map(|x| format!("{:.3}", x.time.as_secs_f64() * 1e3))),
        json_array(c.iter().map(|x| x.depth)),
        json_array(c.iter().map(|x| x.value)),
        r.score,
        r.nodes()
    )
}

/// The record as text: one line per move, the final board and the score.
pub(super) fn text(r: &Record) -> String {
    let mut s = String::new();
    let mut color = Color::Black;
    for (i, mv) in r.moves.iter().enumerate() {
        if i < r.opening {
            let _ = writeln!(
                s,
                "{:>3}. {:<5} {:<4}  (opening)",
                i + 1,
                color_name(color),
                mv.to_string()
            );
        } else {
            let c = &r.choices[i - r.opening];
            let _ = writeln!(
                s,
                "{:>3}. {:<5} {:<4}  value {:>4}  nodes {:>10}  depth {:>2}  {:>8.3} s",
                i + 1,
                color_name(color),
                mv.to_string(),
                c.value,
                c.nodes,
                c.depth,
                c.time.as_secs_f64()
            );
        }
        color = color.other();
    }
    s.push_str(&board_picture(&r.last.board, 0));
    let (mut nb, mut nw) = (0u64, 0u64);
    for (i, c) in r.choices.iter().enumerate() {
        if (r.opening + i).is_multiple_of(2) {
            nb += c.nodes;
        } else {
            nw += c.nodes;
        }
    }
    let _ = writeln!(
        s,
        "Score (black minus white): {} ({})\nNodes: black {nb}, white {nw}, total {}",
        r.score,
        verdict(r.score),
        nb + nw
    );
    s
}
