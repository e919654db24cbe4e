//! `reversi tournament`: one evaluation against another at equal settings,
//! over every opening of a few plies, each played with both colours.
//! Progress goes to stderr.

use super::{
    algorithm, depth, describe, eval, json_flag, level, lines_within, order, parse_and_run,
    quiet_flag, size, time, EvalArg, PlayerSpec, Weights,
};
use anyhow::Result;
use clap::{value_parser, ArgMatches, Command};
use reversi::apps::study::selfplay::Player;
use reversi::apps::study::tournament::{tournament, Standings};
use reversi::kit::{option, usage, value, write_stdout};
use reversi::reversi::{Position, Reversi};
use reversi::units::Discs;
use std::time::Instant;

/// The tournament.
#[derive(Debug)]
struct Args {
    /// The opening book's options.
    book: crate::cli::options::BookOptions,
    /// `--vs-no-book`: the opponent plays without a book.
    vs_no_book: bool,
    size: u8,
    side: PlayerSpec,
    vs: EvalArg,
    vs_depth: Option<u32>,
    vs_level: Option<u32>,
    vs_weights: Option<String>,
    plies: u32,
    max_openings: u64,
    json: bool,
    quiet: bool,
}

/// `reversi tournament`'s options.
pub(super) fn command() -> Command {
    Command::new("reversi tournament")
        .about("--eval against --vs over all openings of --plies plies, both colours")
        .arg(size("6"))
        .args(crate::cli::options::book_args())
        .arg(reversi::kit::flag(
            "vs-no-book",
            "The opponent searches every position: no opening book (the side under \
             test keeps --book)",
        ))
        .arg(depth(
            "depth",
            "DEPTH",
            "Depth bound of both sides (default 4; with --time, a cap)",
        ))
        .arg(time("Time budget per move in seconds"))
        .arg(eval("eval", "EVAL", "The evaluation under test").default_value("strong"))
        .arg(eval("vs", "VS", "The opponent's evaluation").default_value("disc"))
        .arg(depth(
            "vs-depth",
            "VS_DEPTH",
            "The opponent's depth bound (default: the same as --depth)",
        ))
        .arg(
            level(
                "level",
                "LEVEL",
                "The side under test plays the engine's midgame search at this strength \
                 level (1-30, 8x8; see `reversi play --help`) instead of --eval",
            )
            .conflicts_with("eval"),
        )
        .arg(
            level(
                "vs-level",
                "VS_LEVEL",
                "The opponent plays at this strength level (1-30, 8x8) instead of --vs",
            )
            .conflicts_with_all(["vs", "vs-depth"]),
        )
        .arg(option(
            "vs-weights",
            "FILE",
            "The pattern weights of the opponent's level (default: those of --weights, \
             or the trained weights built in): weights against weights",
        ))
        .arg(
            option(
                "plies",
                "PLIES",
                "Length of the openings in plies (all of them are played)",
            )
            .value_parser(value_parser!(u32))
            .default_value("4"),
        )
        .arg(
            option(
                "max-openings",
                "MAX_OPENINGS",
                "Refuse more openings than this (each is two games, and all are held \
                 in memory)",
            )
            .value_parser(value_parser!(u64).range(1..))
            .default_value("100000"),
        )
        .arg(algorithm("Search algorithm"))
        .arg(order(
            "Move ordering (the same moves up to ties; best is faster)",
            "best",
        ))
        .arg(json_flag())
        .arg(quiet_flag())
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            book: crate::cli::options::BookOptions::from_matches(m),
            vs_no_book: m.get_flag("vs-no-book"),
            size: value(m, "size"),
            side: PlayerSpec::from_matches(m, value(m, "eval")),
            vs: value(m, "vs"),
            vs_depth: m.get_one("vs-depth").copied(),
            vs_level: m.get_one("vs-level").copied(),
            vs_weights: m.get_one("vs-weights").cloned(),
            plies: value(m, "plies"),
            max_openings: value(m, "max-openings"),
            json: m.get_flag("json"),
            quiet: m.get_flag("quiet"),
        }
    }
}

/// Runs `reversi tournament ARGS`.
pub fn run(args: &[String]) -> Result<()> {
    parse_and_run(command(), args, Args::from_matches, run_tournament)
}

/// The two sides of `reversi tournament`: the side under test and its
/// opponent (`--vs...`), each with its weights and book.
fn sides(a: &Args, weights: &Weights) -> Result<(Player, Player)> {
    let mut me = a.side.player(weights);
    me.book = a.book.book_and_randomness()?;
    let mut other = PlayerSpec {
        depth: a.vs_depth.or(a.side.depth),
        eval: a.vs,
        level: a.vs_level,
        ..a.side
    }
    .player(weights);
    if !a.vs_no_book {
        other.book.clone_from(&me.book);
    }
    if let Some(path) = &a.vs_weights {
        if a.vs_level.is_none() {
            return usage("--vs-weights is for --vs-level's search: give --vs-level too");
        }
        other.weights = Some(std::sync::Arc::new(reversi::kit::readers::read_weights(
            path,
        )?));
    }
    Ok((me, other))
}

/// Runs `reversi tournament` as asked.
fn run_tournament(a: Args, weights: Weights) -> Result<()> {
    let (me, other) = sides(&a, &weights)?;
    let start = Position::start(a.size);
    let Some(openings) = lines_within(&Reversi::DISC_DIFFERENCE, &start, a.plies, a.max_openings)
    else {
        return usage(format!(
            "{n}x{n} has more than {} openings of {} plies (--max-openings), each played \
             twice; give fewer --plies or a larger --max-openings",
            a.max_openings,
            a.plies,
            n = a.size
        ));
    };
    let t0 = Instant::now();
    let quiet = a.quiet;
    if !quiet {
        // At once, then every 10 openings or every 2 seconds: a slow
        // level's first 10 openings took 25 s without a word.
        eprintln!(
            "tournament: {} games ({openings} openings of {} plies, each with both colours)",
            2 * openings,
            a.plies
        );
    }
    let mut said = Instant::now();
    let s = tournament(a.size, a.plies, &me, &other, |s, done, all| {
        let due = done % 10 == 0 || done == all || said.elapsed().as_secs_f64() >= 2.0;
        if !quiet && due {
            said = Instant::now();
            eprintln!(
                "tournament: {}/{} games, {} wins {} draws {} losses ({:.1} s)",
                s.games,
                2 * all,
                s.wins(),
                s.draws(),
                s.losses(),
                t0.elapsed().as_secs_f64()
            );
        }
    });
    let out = if a.side.level.is_some() || a.vs_level.is_some() {
        leveled_report(&a, &me, &other, &s)
    } else {
        plain_report(&a, &me, &s)
    };
    write_stdout(&out)
}

/// The standings of a tournament where a side plays at a level: each side
/// named with its settings, and the book's share of the side under test's
/// moves when it has one (text or `--json`).
fn leveled_report(a: &Args, me: &Player, other: &Player, s: &Standings) -> String {
    let (total, wins, draws, losses) = (s.games, s.wins(), s.draws(), s.losses());
    let eval = format!("{:?}", a.side.eval).to_lowercase();
    let vs = format!("{:?}", a.vs).to_lowercase();
    let rate = s.win_rate();
    let avg = Discs(s.margin as f64 / f64::from(total));
    let label = |p: &Player, level: Option<u32>, eval: &str| {
        let d = describe(p);
        match level {
            Some(_) => d,
            None => format!("{eval} ({})", d.replace(&format!(", eval {eval}"), "")),
        }
    };
    let name =
        |level: Option<u32>, eval: &str| level.map_or(eval.to_string(), |n| format!("level {n}"));
    let (me_name, mut vs_name) = (name(a.side.level, &eval), name(a.vs_level, &vs));
    if let Some(path) = &a.vs_weights {
        vs_name = format!("{vs_name} with {path}");
    }
    // (A side with a level plays 8x8 only: other sizes are refused.)
    let booked = me.book.is_some() && a.side.level.is_some();
    if a.json {
        let book = if booked {
            format!(
                ",\"book_moves_per_game\":{:.2},\"average_last_book_ply\":{}",
                s.book_moves_per_game(),
                s.average_last_book_ply()
                    .map_or("null".to_string(), |x| format!("{x:.1}"))
            )
        } else {
            String::new()
        };
        return format!(
            "{{\"size\":{},\"eval\":\"{me_name}\",\"vs\":\"{vs_name}\",\"settings\":\"{}\",\"vs_settings\":\"{}\",\"plies\":{},\"games\":{total},\"wins\":{wins},\"draws\":{draws},\"losses\":{losses},\"win_rate\":{rate:.1},\"average_margin\":{avg:.2}{book}}}\n",
            a.size,
            describe(me),
            describe(other),
            a.plies
        );
    }
    let book = if booked {
        format!(
            "book moves of {me_name}: {:.2} a game{}\n",
            s.book_moves_per_game(),
            s.average_last_book_ply().map_or(String::new(), |x| format!(
                ", the last at ply {x:.1} on average"
            ))
        )
    } else {
        String::new()
    };
    format!(
        "{n}x{n}: {} against {}, all {} openings of {} plies, both colours\n{}{book}",
        label(me, a.side.level, &eval),
        label(other, a.vs_level, &vs),
        total / 2,
        a.plies,
        results(s, &me_name),
        n = a.size
    )
}

/// The standings of a tournament of two evaluations at depths (text or
/// `--json`).
fn plain_report(a: &Args, me: &Player, s: &Standings) -> String {
    let (total, wins, draws, losses) = (s.games, s.wins(), s.draws(), s.losses());
    let eval = format!("{:?}", a.side.eval).to_lowercase();
    let vs = format!("{:?}", a.vs).to_lowercase();
    let rate = s.win_rate();
    let avg = Discs(s.margin as f64 / f64::from(total));
    if a.json {
        return format!(
            "{{\"size\":{},\"eval\":\"{eval}\",\"vs\":\"{vs}\",\"depth\":{},\"plies\":{},\"games\":{total},\"wins\":{wins},\"draws\":{draws},\"losses\":{losses},\"win_rate\":{rate:.1},\"average_margin\":{avg:.2}}}\n",
            a.size,
            me.depth.map_or("null".to_string(), |d| d.to_string()),
            a.plies
        );
    }
    format!(
        "{n}x{n}: {eval} against {vs}{}, {}, all {} openings of {} plies, both colours\n{}",
        a.vs_depth
            .map_or(String::new(), |d| format!(" at depth {d}")),
        describe(me).replace(&format!(", eval {eval}"), ""),
        total / 2,
        a.plies,
        results(s, &eval),
        n = a.size
    )
}

/// The results' three lines of a tournament's text report for the side
/// under test, called `name`: games, colours, margin.
fn results(s: &Standings, name: &str) -> String {
    let (as_black, as_white) = (s.as_black, s.as_white);
    format!(
        "games {}: {} wins, {} draws, {} losses for {name} ({:.1}% wins)\n\
         as black: {} wins, {} draws, {} losses; as white: {} wins, {} draws, {} losses\n\
         average final margin for {name}: {:+.2} discs\n",
        s.games,
        s.wins(),
        s.draws(),
        s.losses(),
        s.win_rate(),
        as_black[0],
        as_black[1],
        as_black[2],
        as_white[0],
        as_white[1],
        as_white[2],
        Discs(s.margin as f64 / f64::from(s.games)),
    )
}
