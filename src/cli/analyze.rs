//! `reversi analyze GAME`: every move of a game with the value of the move
//! played, the best move and its value, the discs lost, and the total per
//! player.

use super::hint::{move_certainty_json, name, opening_json, value_columns, CUT_NOTE};
use super::options::{book_args, limits_args, until_arg, RecordQuery};
use anyhow::Result;
use clap::{Arg, Command};
use reversi::board::Color;
use reversi::engine::analyze::{analyze_game, MoveAnalysis, MoveValue};
use reversi::kit::{flag, write_stdout};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

/// `reversi analyze`'s arguments.
pub(super) fn command() -> Command {
    Command::new("reversi analyze")
        .about(
            "Analyse every move of an 8x8 game: the value of the move played, the best move \
             and its value, the discs lost (values in discs for the side to move; exact \
             with at most --exact empty squares)",
        )
        .arg(
            Arg::new("game")
                .value_name("GAME")
                .required(true)
                .allow_hyphen_values(true)
                .help(
                    "A transcript (f5d6c3...), a GGF game, a board string followed by moves, \
                     or a file holding one (also a PGN game or a Logistello .gam line)",
                ),
        )
        .arg(
            Arg::new("more")
                .value_name("MORE")
                .num_args(0..)
                .help("More words of the record (the side to move, moves), joined with spaces"),
        )
        .arg(until_arg(
            "Analyse only the record's first N moves (a pass counts as one)",
        ))
        .args(limits_args(None))
        .args(book_args())
        .arg(flag("json", "One JSON object"))
}

/// Runs `reversi analyze ...` (`args[0]` is `analyze`).
pub fn run(args: &[String]) -> Result<()> {
    reversi::kit::parse_and_run(
        command(),
        &args[1..],
        |m| RecordQuery::from_matches(m, "game", "more"),
        analyze,
    )
}

/// The columns of a move's row that the JSON and the table both show,
/// read once: its number, the colour to move, the move played and the
/// best move.
struct Row {
    number: usize,
    colour: &'static str,
    played: String,
    best: String,
}

impl Row {
    fn of(x: &MoveAnalysis) -> Row {
        Row {
            number: x.index + 1,
            colour: x.position.to_move.name(),
            played: name(x.played),
            best: name(x.best.mv),
        }
    }
}

fn analyze(r: RecordQuery) -> Result<()> {
    let game = r.game(8)?;
    let limits = r.engine.limits.limits_at_default_level()?;
    let quiet = AtomicBool::new(false);
    let mut search = r.engine.analyzer(0)?;
    let a = analyze_game(&mut search, &game, &limits, &quiet, &mut |_| {});
    let opening = game.opening();
    let mut s = String::new();
    if r.json {
        let items: Vec<String> = a
            .moves
            .iter()
            .map(|x| {
                let row = Row::of(x);
                format!(
                    "{{\"number\":{},\"color\":\"{}\",\"played\":\"{}\",\"value\":{:.2},\"best\":\"{}\",\"best_value\":{:.2},\"loss\":{:.2},\"exact\":{},{}}}",
                    row.number,
                    row.colour,
                    row.played,
                    x.played_value,
                    row.best,
                    x.best.value,
                    x.loss,
                    x.exact,
                    move_certainty_json(&x.best)
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "{{\"opening\":{},\"moves\":[{}],\"loss\":{{\"black\":{:.2},\"white\":{:.2}}},\"cut\":{},\"score\":{}}}",
            opening_json(opening),
            items.join(","),
            a.total_loss[0],
            a.total_loss[1],
            a.moves.iter().filter(|m| m.cut).count(),
            a.final_score.map_or("null".to_string(), |v| v.to_string())
        );
    } else {
        let _ = writeln!(
            s,
            "  #  colour  played   value   best   value    loss  certainty"
        );
        for x in &a.moves {
            // A proof of win/loss/draw as `hint` shows it: the estimate
            // that agrees, marked `~`, and the outcome proved.
            let played = MoveValue {
                mv: x.played,
                value: x.played_value,
                certainty: x.played_certainty,
                line: Vec::new(),
            };
            let (played_value, _) = value_columns(&played);
            let (best_value, certainty) = value_columns(&x.best);
            let row = Row::of(x);
            let _ = writeln!(
                s,
                "{:>3}  {:<6}  {:<5} {played_value:>7}   {:<5} {best_value:>7}  {:>6.2}  {certainty}",
                row.number, row.colour, row.played, row.best, x.loss,
            );
        }
        for (i, c) in [Color::Black, Color::White].into_iter().enumerate() {
            let n = a.moves.iter().filter(|x| x.position.to_move == c).count();
            let _ = writeln!(
                s,
                "{}: {n} move{}, total loss {:.2} discs",
                c.name(),
                if n == 1 { "" } else { "s" },
                a.total_loss[i]
            );
        }
        if let Some(name) = opening {
            let _ = writeln!(s, "opening: {name}");
        }
        if let Some(score) = a.final_score {
            let _ = writeln!(s, "final score (black minus white): {score:+}");
        }
        let cut = a.moves.iter().filter(|m| m.cut).count();
        if cut > 0 {
            let _ = write!(s, "{cut} of {} positions {CUT_NOTE}", a.moves.len());
        }
    }
    write_stdout(&s)
}
