//! `reversi match`: the computer against itself, with settings per side.

use super::{
    algorithm, board_picture, depth, describe, eval, from_arg, json_array, json_flag, json_moves,
    level, order, parse_and_run, size, time, verdict, EvalArg, PlayerSpec, Weights, LEVEL_HELP,
};
use anyhow::Result;
use clap::{ArgMatches, Command};
use reversi::apps::study::selfplay::{play_game, play_opening, Record};
use reversi::board::Color;
use reversi::kit::{option, usage, value, write_stdout};
use reversi::record::{write_board_string, write_ggf, write_transcript, GameRecord, RecordedMove};
use reversi::reversi::Position;
use std::fmt::Write as _;

/// Self-play: black and white are both the computer.
#[derive(Debug)]
struct Args {
    /// The opening book's options.
    book: crate::cli::options::BookOptions,
    size: u8,
    side: PlayerSpec,
    black_depth: Option<u32>,
    white_depth: Option<u32>,
    black_eval: Option<EvalArg>,
    white_eval: Option<EvalArg>,
    black_level: Option<u32>,
    white_level: Option<u32>,
    opening: String,
    from: Option<String>,
    record: Option<String>,
    json: bool,
}

/// `reversi match`'s options.
pub(super) fn command() -> Command {
    Command::new("reversi match")
        .about("The computer plays itself and reports every move")
        .arg(size("4"))
        .args(crate::cli::options::book_args())
        .arg(depth(
            "depth",
            "DEPTH",
            "Depth bound in plies for both sides (default 4; with --time, a cap)",
        ))
        .arg(depth("black-depth", "BLACK_DEPTH", "Depth bound of black"))
        .arg(depth("white-depth", "WHITE_DEPTH", "Depth bound of white"))
        .arg(algorithm("Search algorithm"))
        .arg(order(
            "Move ordering (best: iterative deepening with ordered moves)",
            "natural",
        ))
        .arg(
            eval(
                "eval",
                "EVAL",
                "Evaluation of both sides at the depth bound",
            )
            .default_value("disc"),
        )
        .arg(eval("black-eval", "BLACK_EVAL", "Evaluation of black"))
        .arg(eval("white-eval", "WHITE_EVAL", "Evaluation of white"))
        .arg(level("level", "LEVEL", LEVEL_HELP).conflicts_with_all([
            "depth",
            "eval",
            "algorithm",
            "order",
            "black-depth",
            "white-depth",
            "black-eval",
            "white-eval",
        ]))
        .arg(
            level(
                "black-level",
                "BLACK_LEVEL",
                "Strength level of black (8x8; see --level); white plays by the other options",
            )
            .conflicts_with_all(["black-depth", "black-eval"]),
        )
        .arg(
            level(
                "white-level",
                "WHITE_LEVEL",
                "Strength level of white (8x8; see --level); black plays by the other options",
            )
            .conflicts_with_all(["white-depth", "white-eval"]),
        )
        .arg(time(
            "Time budget per move in seconds (anytime iterative deepening; with a level, a cap)",
        ))
        .arg(option("opening", "OPENING", "Moves played first, e.g. \"c4 c3\"").default_value(""))
        .arg(from_arg().conflicts_with("opening"))
        .arg(
            option(
                "record",
                "FORMAT",
                "Also write the game as a record: `transcript` (f5d6c3...) or `ggf` \
                 (8x8 only); the last line of the text, or \"record\" in JSON",
            )
            .value_parser(["transcript", "ggf"]),
        )
        .arg(json_flag())
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            book: crate::cli::options::BookOptions::from_matches(m),
            size: value(m, "size"),
            side: PlayerSpec::from_matches(m, value(m, "eval")),
            black_depth: m.get_one("black-depth").copied(),
            white_depth: m.get_one("white-depth").copied(),
            black_eval: m.get_one("black-eval").copied(),
            white_eval: m.get_one("white-eval").copied(),
            black_level: m.get_one("black-level").copied(),
            white_level: m.get_one("white-level").copied(),
            opening: value(m, "opening"),
            from: m.get_one("from").cloned(),
            record: m.get_one("record").cloned(),
            json: m.get_flag("json"),
        }
    }
}

/// Runs `reversi match ARGS`.
pub fn run(args: &[String]) -> Result<()> {
    parse_and_run(command(), args, Args::from_matches, matches)
}

/// Runs `reversi match` as asked.
fn matches(a: Args, weights: Weights) -> Result<()> {
    let book = a.book.book_and_randomness()?;
    let side = a.side;
    let mut black = PlayerSpec {
        depth: a.black_depth.or(side.depth),
        eval: a.black_eval.unwrap_or(side.eval),
        level: a.black_level.or(side.level),
        ..side
    }
    .player(&weights);
    let mut white = PlayerSpec {
        depth: a.white_depth.or(side.depth),
        eval: a.white_eval.unwrap_or(side.eval),
        level: a.white_level.or(side.level),
        ..side
    }
    .player(&weights);
    black.book.clone_from(&book);
    white.book = book;
    if a.record.as_deref() == Some("ggf") && a.size != 8 {
        return usage("--record ggf writes 8x8 games only (GGF); use --record transcript");
    }
    let (first, start, opening) = match &a.from {
        Some(from) => {
            let g = crate::cli::options::read_record(from, a.size)?;
            if g.last().board.is_game_over() {
                return usage(
                    "--from gives a finished position (neither side has a move): there is no game to play",
                );
            }
            (g.start, g.last(), g.move_list())
        }
        None => match play_opening(a.size, &a.opening) {
            Ok((start, opening)) => (Position::start(a.size), start, opening),
            Err(e) => return usage(e),
        },
    };
    let record = play_game(start, opening, &black, &white, |_| {});
    let written = a.record.as_deref().map(|format| {
        let mut g = GameRecord::new(first);
        g.moves = record
            .moves
            .iter()
            .map(|&m| RecordedMove::plain(m))
            .collect();
        g.info.black = Some(format!("reversi ({})", describe(&black)));
        g.info.white = Some(format!("reversi ({})", describe(&white)));
        if format == "ggf" {
            write_ggf(&g)
        } else if first == Position::start(a.size) {
            write_transcript(&g)
        } else {
            // Another start: the board string first, as --from reads it.
            format!("{} {}", write_board_string(&first), write_transcript(&g))
        }
    });
    let mut text = if a.json {
        json(a.size, &record)
    } else {
        let mut s = format!(
            "Match on {n}x{n}\n  black: {}\n  white: {}\n",
            describe(&black),
            describe(&white),
            n = a.size
        );
        s.push_str(&text(&record, first.to_move));
        s
    };
    if let Some(w) = written {
        if a.json {
            text.truncate(text.len() - 2);
            text.push_str(&format!(
                ",\"record\":\"{}\"}}\n",
                w.replace('\\', "\\\\").replace('"', "\\\"")
            ));
        } else {
            text.push_str(&w);
            text.push('\n');
        }
    }
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
        json_array(c.iter().map(|x| x.black_value)),
        r.score,
        r.nodes()
    )
}

/// The record as text: one line per move, the final board and the score.
pub(super) fn text(r: &Record, first: Color) -> String {
    let mut s = String::new();
    let mut color = first;
    for (i, mv) in r.moves.iter().enumerate() {
        if i < r.opening {
            let _ = writeln!(
                s,
                "{:>3}. {:<5} {:<4}  (opening)",
                i + 1,
                color.name(),
                mv.to_string()
            );
        } else {
            let c = &r.choices[i - r.opening];
            let _ = writeln!(
                s,
                "{:>3}. {:<5} {:<4}  value {:>4}  nodes {:>10}  depth {:>2}  {:>8.3} s",
                i + 1,
                color.name(),
                mv.to_string(),
                c.black_value,
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
        if (r.opening + i).is_multiple_of(2) == (first == Color::Black) {
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
