//! `reversi hint POSITION`: the best moves of a position with their values
//! (exact near the end). Also the move and certainty texts that `analyze`
//! and the protocols print, and the protocols' capped command reader; the
//! shared options are [`super::options`]'s.

use super::options::{book_args, limits_args, until_arg, RecordQuery};
use anyhow::Result;
use clap::{Arg, ArgMatches, Command};
use reversi::engine::analyze::{Certainty, MoveSearch, MoveValue};
use reversi::kit::{flag, option, value, write_stdout};
use reversi::record::write_board_string;
use reversi::reversi::Move;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The name of a move: `f5` or `pass`.
pub(super) fn name(m: Move) -> String {
    m.to_string()
}

/// The value and certainty columns of a move as `hint` writes them: the
/// value in discs and how sure it is (the certainty's text), or for a
/// proof of win/loss/draw the estimate that agrees with it, marked `~`, and
/// the outcome proved (`~-22.00  proved loss`): a proof is never shown as
/// a count of discs.
pub(super) fn value_columns(v: &MoveValue) -> (String, String) {
    match v.proved_outcome() {
        Some(outcome) => (format!("~{:+.2}", v.value), format!("proved {outcome}")),
        None => (format!("{:+.2}", v.value), v.certainty.to_string()),
    }
}

/// The JSON fields of a move's certainty: for a proof of win/loss/draw
/// also the `outcome` proved (the value is then the estimate that agrees
/// with it).
pub(super) fn move_certainty_json(v: &MoveValue) -> String {
    let fields = certainty_json(v.certainty);
    match v.proved_outcome() {
        Some(outcome) => format!("{fields},\"outcome\":\"{outcome}\""),
        None => fields,
    }
}

/// The JSON fields of a certainty: its kind ([`Certainty::kind`]) and
/// the estimate's depth or the book's level and games.
pub(super) fn certainty_json(c: Certainty) -> String {
    let kind = format!("\"certainty\":\"{}\"", c.kind());
    match c {
        Certainty::Estimate { depth } => format!("{kind},\"depth\":{depth}"),
        Certainty::Book { level, games } => format!("{kind},\"level\":{level},\"games\":{games}"),
        Certainty::Exact | Certainty::WinLossDraw => kind,
    }
}

/// The opening as a JSON value: its name (the table's names hold no
/// quote or backslash) or `null`.
pub(super) fn opening_json(opening: Option<&str>) -> String {
    opening.map_or_else(|| "null".to_string(), |n| format!("\"{n}\""))
}

fn line_text(v: &MoveValue) -> String {
    v.line
        .iter()
        .map(|&m| name(m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `reversi hint`'s arguments.
pub(super) fn command() -> Command {
    Command::new("reversi hint")
        .about(
            "The best moves of a position with their values in discs for the side to \
             move: exact near the end, else an estimate of the midgame search",
        )
        .arg(
            Arg::new("position")
                .value_name("POSITION")
                .required(true)
                .allow_hyphen_values(true)
                .help(
                    "A board string (64 of -/X/O then X or O to move), optionally followed \
                     by moves; a transcript from the start (f5d6c3); a GGF game; or a file \
                     holding one (also a PGN game or a Logistello .gam line). The position \
                     is the one after the last move (or after --until's)",
                ),
        )
        .arg(
            option("moves", "N", "How many moves to show (1-64)")
                .value_parser(clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))
                .default_value("3"),
        )
        .arg(
            Arg::new("more")
                .value_name("MORE")
                .num_args(0..)
                .help("More words of the record (the side to move, moves), joined with spaces"),
        )
        .arg(until_arg(
            "The position after the record's first N moves (a pass counts as one) \
             instead of its last",
        ))
        .args(limits_args(None))
        .args(book_args())
        .arg(flag("json", "One JSON object"))
}

/// `reversi hint`'s request: the record whose last position is asked
/// for, and how many moves to show.
struct Request {
    query: RecordQuery,
    moves: usize,
}

impl Request {
    fn from_matches(m: &ArgMatches) -> Result<Request> {
        Ok(Request {
            query: RecordQuery::from_matches(m, "position", "more")?,
            moves: value(m, "moves"),
        })
    }
}

/// Runs `reversi hint ...` (`args[0]` is `hint`).
pub fn run(args: &[String]) -> Result<()> {
    reversi::kit::parse_and_run(command(), &args[1..], Request::from_matches, hint)
}

fn hint(r: Request) -> Result<()> {
    let game = r.query.game(8)?;
    let p = game.last();
    let limits = r.query.engine.limits.limits_at_default_level()?;
    let count = r.moves;
    let start = Instant::now();
    let mut search = r.query.engine.analyzer(0)?;
    let values = search.rank_moves(
        &p,
        count.max(1),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let millis = start.elapsed().as_millis();
    let board = write_board_string(&p);
    let opening = game.opening();
    let text = if r.query.json {
        let items: Vec<String> = values
            .iter()
            .map(|v| {
                format!(
                    "{{\"move\":\"{}\",\"value\":{:.2},{},\"line\":\"{}\"}}",
                    name(v.mv),
                    v.value,
                    move_certainty_json(v),
                    line_text(v)
                )
            })
            .collect();
        format!(
            "{{\"position\":\"{board}\",\"empties\":{},\"opening\":{},\"moves\":[{}],\"cut\":{},\"nodes\":{},\"millis\":{millis}}}\n",
            p.board.empty().count_ones(),
            opening_json(opening),
            items.join(","),
            search.was_cut(),
            search.nodes()
        )
    } else if values.is_empty() {
        format!("{board}\nthe game is over\n")
    } else {
        let mut s = format!("{board}\n");
        if let Some(name) = opening {
            s.push_str(&format!("opening: {name}\n"));
        }
        for v in &values {
            let (value, certainty) = value_columns(v);
            s.push_str(&format!(
                "{:<4} {value:>7}  {certainty:<14} {}\n",
                name(v.mv),
                line_text(v)
            ));
        }
        if search.was_cut() {
            s.push_str(CUT_NOTE);
        }
        s
    };
    write_stdout(&text)
}

/// The line `hint` and `analyze` end with when `--time` cut a search: its
/// values are then those of shallower searches than the level or depth
/// asks, and may differ from one machine to another.
pub(super) const CUT_NOTE: &str =
    "cut by --time: values of shallower searches than asked (they depend on the machine)\n";

/// The longest command line the protocols read (a GGF game of 60 moves
/// with evaluations and times is under 2 KB); the rest of a longer line is
/// skipped, so a line without end cannot fill the memory.
const MAX_LINE: usize = 1 << 20;

/// Reads one command line (without its end) into `buf`, at most
/// [`MAX_LINE`] bytes of it; `false` at the end of the input.
pub(super) fn read_command(
    input: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
) -> std::io::Result<bool> {
    use reversi::lines::{read_line_capped, LineRead};
    match read_line_capped(input, MAX_LINE, buf)? {
        LineRead::Line => Ok(true),
        LineRead::TooLong => {
            input.skip_until(b'\n')?;
            Ok(true)
        }
        LineRead::End => Ok(false),
    }
}
