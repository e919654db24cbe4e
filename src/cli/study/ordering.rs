//! `reversi ordering`: the pruning gain of move ordering, measured on the
//! same positions: a natural-order alpha-beta game is played, and at each of
//! its positions alpha-beta runs in natural order, with ordered moves at the
//! full depth, and with ordered iterative deepening (all iterations counted).

use super::{depth, eval, json_array, json_flag, parse_and_run, size, EvalArg, Weights};
use anyhow::Result;
use clap::{ArgMatches, Command};
use reversi::engine::iterative::{IterativeSearch, MoveOrder};
use reversi::game::{Game, Value};
use reversi::kit::{value, write_stdout};
use reversi::reversi::{Position, Reversi};
use reversi::search::{alphabeta_with, Limit, NoObserver};
use std::fmt::Write as _;

/// The ordering measurement.
#[derive(Debug)]
struct Args {
    size: u8,
    depth: u32,
    eval: EvalArg,
    json: bool,
}

/// `reversi ordering`'s options.
pub(super) fn command() -> Command {
    Command::new("reversi ordering")
        .about("Nodes of alpha-beta in natural order vs ordered, on the positions of one game")
        .arg(size("6"))
        .arg(depth("depth", "DEPTH", "Depth bound in plies").default_value("6"))
        .arg(eval("eval", "EVAL", "Evaluation at the depth bound").default_value("disc"))
        .arg(json_flag())
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            size: value(m, "size"),
            depth: value(m, "depth"),
            eval: value(m, "eval"),
            json: m.get_flag("json"),
        }
    }
}

/// The measurement's searches disagreed: at a position of the game the
/// ordered search valued it otherwise than natural-order alpha-beta (or
/// the game's search chose no move), which only a defect of a search
/// does. The measurement stops with it instead of counting nodes of wrong
/// searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SearchesDisagree {
    /// The position after `ply` moves: natural order's value, the ordered
    /// search's.
    Value {
        ply: usize,
        natural: Value,
        ordered: Value,
    },
    /// The position after `ply` moves, not over, got no move.
    NoMove { ply: usize },
}

impl std::fmt::Display for SearchesDisagree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchesDisagree::Value {
                ply,
                natural,
                ordered,
            } => write!(
                f,
                "ordering changed a value after {ply} moves: natural order {natural}, ordered {ordered} (a defect of the search)"
            ),
            SearchesDisagree::NoMove { ply } => write!(
                f,
                "the natural-order search chose no move after {ply} moves of a game not over (a defect of the search)"
            ),
        }
    }
}

impl std::error::Error for SearchesDisagree {}

/// Runs `reversi ordering ARGS`.
pub fn run(args: &[String]) -> Result<()> {
    parse_and_run(command(), args, Args::from_matches, ordering)
}

/// Runs `reversi ordering` as asked.
fn ordering(a: Args, weights: Weights) -> Result<()> {
    let game = Reversi::DISC_DIFFERENCE;
    let eval = weights.evaluation(a.eval);
    let engine = IterativeSearch {
        order: MoveOrder::Best,
        prune: true,
        eval: eval.clone(),
    };
    let mut p = Position::start(a.size);
    let (mut natural, mut fixed, mut deep) = (Vec::new(), Vec::new(), Vec::new());
    let mut moves = Vec::new();
    while !game.is_terminal(&p) {
        let lib = alphabeta_with(
            &game,
            &p,
            &Limit::depth(a.depth, eval.clone()),
            &mut NoObserver,
        );
        let f = engine.fixed(&p, a.depth);
        let d = engine.deepen(&p, Some(a.depth), None);
        let ply = moves.len();
        if f.value != lib.value {
            return Err(SearchesDisagree::Value {
                ply,
                natural: lib.value,
                ordered: f.value,
            }
            .into());
        }
        natural.push(lib.nodes);
        fixed.push(f.nodes);
        deep.push(d.nodes);
        let mv = lib.best.ok_or(SearchesDisagree::NoMove { ply })?;
        moves.push(mv);
        p = game.play(&p, mv);
    }
    let (tn, tf, td): (u64, u64, u64) =
        (natural.iter().sum(), fixed.iter().sum(), deep.iter().sum());
    let out = if a.json {
        format!(
            "{{\"size\":{},\"depth\":{},\"natural\":{},\"ordered\":{},\"deepening\":{},\"total_natural\":{tn},\"total_ordered\":{tf},\"total_deepening\":{td}}}\n",
            a.size,
            a.depth,
            json_array(&natural),
            json_array(&fixed),
            json_array(&deep)
        )
    } else {
        let mut s = format!(
            "{n}x{n}, alpha-beta depth {}, eval {}: nodes per move on the natural-order game\n{:>4} {:<5} {:>10} {:>10} {:>10}\n",
            a.depth,
            eval.heuristic,
            "ply",
            "move",
            "natural",
            "ordered",
            "ordered+ID",
            n = a.size
        );
        for (i, m) in moves.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:>4} {:<5} {:>10} {:>10} {:>10}",
                i + 1,
                m.to_string(),
                natural[i],
                fixed[i],
                deep[i]
            );
        }
        let pct = |x: u64| 100.0 * x as f64 / tn as f64;
        let _ = writeln!(
            s,
            "total     {tn:>10} {tf:>10} {td:>10}\nshare of natural: ordered {:.1}%, ordered with iterative deepening {:.1}%",
            pct(tf),
            pct(td)
        );
        s
    };
    write_stdout(&out)
}

#[cfg(test)]
mod tests {
    use super::SearchesDisagree;

    #[test]
    fn a_disagreement_is_one_line_naming_the_position_and_both_values() {
        let e = SearchesDisagree::Value {
            ply: 7,
            natural: 2,
            ordered: -4,
        };
        assert_eq!(
            e.to_string(),
            "ordering changed a value after 7 moves: natural order 2, ordered -4 (a defect of the search)"
        );
        let e = anyhow::Error::from(SearchesDisagree::NoMove { ply: 0 });
        assert!(e
            .to_string()
            .starts_with("the natural-order search chose no move after 0 moves"));
    }
}
