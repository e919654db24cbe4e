//! `reversi table`: the study's table of final scores, black depth x white
//! depth, with the nodes each game took. Progress goes to stderr.

use super::{
    algorithm, depth, eval, json_array, json_flag, order, parse_and_run, quiet_flag, size,
    PlayerSpec, Weights,
};
use anyhow::Result;
use clap::{ArgAction, ArgMatches, Command};
use reversi::apps::study::selfplay::{play_game, play_opening};
use reversi::kit::{value, write_stdout};
use std::fmt::Write as _;
use std::time::Instant;

/// The depth table.
#[derive(Debug)]
struct Args {
    size: u8,
    depths: Vec<u32>,
    side: PlayerSpec,
    json: bool,
    quiet: bool,
}

/// `reversi table`'s options.
pub(super) fn command() -> Command {
    Command::new("reversi table")
        .about("Final scores for black depth x white depth")
        .arg(size("4"))
        .arg(
            depth("depths", "DEPTHS", "The depths, comma-separated")
                .action(ArgAction::Append)
                .value_delimiter(',')
                .default_value("4,6,8"),
        )
        .arg(algorithm("Search algorithm"))
        .arg(order("Move ordering", "natural"))
        .arg(eval("eval", "EVAL", "Evaluation at the depth bound").default_value("disc"))
        .arg(json_flag())
        .arg(quiet_flag())
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            size: value(m, "size"),
            depths: m
                .get_many("depths")
                .expect("--depths has a default")
                .copied()
                .collect(),
            side: PlayerSpec::from_matches(m, value(m, "eval")),
            json: m.get_flag("json"),
            quiet: m.get_flag("quiet"),
        }
    }
}

/// Runs `reversi table ARGS`.
pub fn run(args: &[String]) -> Result<()> {
    parse_and_run(command(), args, Args::from_matches, table)
}

/// Runs `reversi table` as asked.
fn table(a: Args, weights: Weights) -> Result<()> {
    let (start, _) = play_opening(a.size, "").expect("empty opening");
    let k = a.depths.len();
    let mut scores = vec![vec![0; k]; k];
    let mut nodes = vec![vec![0u64; k]; k];
    let t0 = Instant::now();
    for (i, &bd) in a.depths.iter().enumerate() {
        for (j, &wd) in a.depths.iter().enumerate() {
            let at = |depth| PlayerSpec {
                depth: Some(depth),
                ..a.side
            };
            let (black, white) = (at(bd).player(&weights), at(wd).player(&weights));
            let r = play_game(start, Vec::new(), &black, &white, |_| {});
            scores[i][j] = r.score;
            nodes[i][j] = r.nodes();
            if !a.quiet {
                eprintln!(
                    "table: game {}/{}: black depth {bd}, white depth {wd}: score {}, {} nodes ({:.1} s elapsed)",
                    i * k + j + 1,
                    k * k,
                    r.score,
                    r.nodes(),
                    t0.elapsed().as_secs_f64()
                );
            }
        }
    }
    let alg = format!("{:?}", a.side.algorithm).to_lowercase();
    let order = format!("{:?}", a.side.order).to_lowercase();
    let eval = format!("{:?}", a.side.eval).to_lowercase();
    let out = if a.json {
        format!(
            "{{\"size\":{},\"algorithm\":\"{alg}\",\"order\":\"{order}\",\"eval\":\"{eval}\",\"depths\":{},\"scores\":{},\"nodes\":{}}}\n",
            a.size,
            json_array(&a.depths),
            json_array(scores.iter().map(json_array)),
            json_array(nodes.iter().map(json_array)),
        )
    } else {
        let mut s = format!(
            "{n}x{n}, {alg}, order {order}, eval {eval}\n\nFinal score (black minus white); rows: black's depth, columns: white's depth\n",
            n = a.size
        );
        grid(&mut s, &a.depths, &scores);
        s.push_str("\nNodes per game (both sides)\n");
        grid(&mut s, &a.depths, &nodes);
        s
    };
    write_stdout(&out)
}

fn grid<T: std::fmt::Display>(s: &mut String, depths: &[u32], cells: &[Vec<T>]) {
    let _ = write!(s, "{:>8}", "B \\ W");
    for d in depths {
        let _ = write!(s, " {d:>12}");
    }
    s.push('\n');
    for (d, row) in depths.iter().zip(cells) {
        let _ = write!(s, "{d:>8}");
        for v in row {
            let _ = write!(s, " {v:>12}");
        }
        s.push('\n');
    }
}
