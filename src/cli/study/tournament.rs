//! `reversi tournament`: one evaluation against another at equal settings,
//! over every opening of a few plies, each played with both colours.
//! Progress goes to stderr.

use super::{parse, parse_depth, parse_size, parse_time, player, AlgorithmArg, EvalArg, OrderArg};
use crate::cli::write_stdout;
use anyhow::Result;
use reversi::game::Game;
use reversi::reversi::{Position, Reversi};
use reversi::study::selfplay::{openings, play_game};
use std::time::{Duration, Instant};

/// The tournament.
#[derive(clap::Parser, Debug)]
#[command(
    name = "reversi tournament",
    about = "--eval against --vs over all openings of --plies plies, both colours"
)]
struct Args {
    /// Board size: 4, 6 or 8.
    #[arg(long, default_value = "6", value_parser = parse_size)]
    size: u8,
    /// Depth bound of both sides (default 4; with --time, a cap).
    #[arg(long, value_parser = parse_depth)]
    depth: Option<u32>,
    /// Time budget per move in seconds.
    #[arg(long, value_parser = parse_time)]
    time: Option<Duration>,
    /// The evaluation under test.
    #[arg(long, value_enum, default_value = "strong")]
    eval: EvalArg,
    /// The opponent's evaluation.
    #[arg(long, value_enum, default_value = "disc")]
    vs: EvalArg,
    /// The opponent's depth bound (default: the same as --depth).
    #[arg(long, value_parser = parse_depth)]
    vs_depth: Option<u32>,
    /// Length of the openings in plies (all of them are played).
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// Search algorithm.
    #[arg(long, value_enum, default_value = "alphabeta")]
    algorithm: AlgorithmArg,
    /// Move ordering (the same moves up to ties; best is faster).
    #[arg(long, value_enum, default_value = "best")]
    order: OrderArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `reversi tournament ARGS`.
pub fn run(args: &[String]) -> Result<()> {
    let a: Args = parse("tournament", args);
    let me = player(a.depth, a.time, a.algorithm, a.order, a.eval);
    let other = player(a.vs_depth.or(a.depth), a.time, a.algorithm, a.order, a.vs);
    let lines = openings(a.size, a.plies);
    let game = Reversi::DISC_DIFFERENCE;
    let (mut wins, mut draws, mut losses, mut margin) = (0u32, 0u32, 0u32, 0i64);
    let mut as_black = [0u32; 3];
    let mut as_white = [0u32; 3];
    let total = lines.len() * 2;
    let t0 = Instant::now();
    for (i, line) in lines.iter().enumerate() {
        let mut start = Position::start(a.size);
        for &m in line {
            start = game.play(&start, m);
        }
        for me_black in [true, false] {
            let (b, w) = if me_black {
                (&me, &other)
            } else {
                (&other, &me)
            };
            let r = play_game(start, line.clone(), b, w, |_| {});
            let mine = if me_black { r.score } else { -r.score };
            margin += i64::from(mine);
            let k = match mine.signum() {
                1 => {
                    wins += 1;
                    0
                }
                0 => {
                    draws += 1;
                    1
                }
                _ => {
                    losses += 1;
                    2
                }
            };
            if me_black {
                as_black[k] += 1;
            } else {
                as_white[k] += 1;
            }
        }
        if !a.quiet && ((i + 1) % 10 == 0 || i + 1 == lines.len()) {
            eprintln!(
                "tournament: {}/{total} games, {wins} wins {draws} draws {losses} losses ({:.1} s)",
                2 * (i + 1),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    let eval = format!("{:?}", a.eval).to_lowercase();
    let vs = format!("{:?}", a.vs).to_lowercase();
    let rate = 100.0 * f64::from(wins) / total as f64;
    let avg = margin as f64 / total as f64;
    let out = if a.json {
        format!(
            "{{\"size\":{},\"eval\":\"{eval}\",\"vs\":\"{vs}\",\"depth\":{},\"plies\":{},\"games\":{total},\"wins\":{wins},\"draws\":{draws},\"losses\":{losses},\"win_rate\":{rate:.1},\"average_margin\":{avg:.2}}}\n",
            a.size,
            me.depth.map_or("null".to_string(), |d| d.to_string()),
            a.plies
        )
    } else {
        format!(
            "{n}x{n}: {eval} against {vs}{}, {}, all {} openings of {} plies, both colours\n\
             games {total}: {wins} wins, {draws} draws, {losses} losses for {eval} ({rate:.1}% wins)\n\
             as black: {} wins, {} draws, {} losses; as white: {} wins, {} draws, {} losses\n\
             average final margin for {eval}: {avg:+.2} discs\n",
            a.vs_depth.map_or(String::new(), |d| format!(" at depth {d}")),
            super::describe(&me).replace(&format!(", eval {eval}"), ""),
            lines.len(),
            a.plies,
            as_black[0],
            as_black[1],
            as_black[2],
            as_white[0],
            as_white[1],
            as_white[2],
            n = a.size
        )
    };
    write_stdout(&out)
}
