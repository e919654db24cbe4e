//! `reversi tree FLAG PLAYER BOARD`: the tree that the Tiny contract's FLAG
//! 300 (minimax) or 500 (alpha-beta) searches, as Graphviz DOT on stdout.

use super::{depth, eval, parse_and_run, EvalArg, Weights};
use crate::cli::memory::tree_size_within;
use anyhow::Result;
use clap::{value_parser, Arg, ArgMatches, Command};
use reversi::board::{Board, Color};
use reversi::kit::{option, usage, value, write_stdout};
use reversi::reversi::{Position, Reversi};
use reversi::search::DotTree;
use reversi::search::{Algorithm, Limit};

/// The searched tree as DOT.
#[derive(Debug)]
struct Args {
    flag: String,
    player: String,
    board: String,
    depth: Option<u32>,
    eval: EvalArg,
    max_nodes: u64,
}

/// The default of `--max-nodes`: the recorded tree and its DOT text take
/// about 200 bytes a node, so 2,000,000 nodes are about 400 MB.
const MAX_NODES: &str = "2000000";

/// `reversi tree`'s arguments.
pub(super) fn command() -> Command {
    let positional = |id: &'static str, name: &'static str, help: &'static str| {
        Arg::new(id).value_name(name).required(true).help(help)
    };
    Command::new("reversi tree")
        .about("The tree searched by FLAG 300 (minimax) or 500 (alpha-beta) as Graphviz DOT")
        .arg(positional(
            "flag",
            "FLAG",
            "300 (minimax) or 500 (alpha-beta)",
        ))
        .arg(positional(
            "player",
            "PLAYER",
            "1 (dark, MAX) or 2 (light, MIN) to move",
        ))
        .arg(positional(
            "board",
            "BOARD",
            "The board as 16, 36 or 64 digits 0/1/2 in reading order",
        ))
        .arg(depth(
            "depth",
            "DEPTH",
            "Depth bound in plies: searches the study's game (disc difference at \
             the end, the evaluation at the bound) instead of the Tiny contract's \
             win/loss game to the end",
        ))
        .arg(eval("eval", "EVAL", "Evaluation at the depth bound").default_value("disc"))
        .arg(
            option(
                "max-nodes",
                "MAX_NODES",
                "Refuse a tree whose minimax search (for FLAG 500, the upper bound of \
                 what alpha-beta searches) has more nodes than this: the drawing takes \
                 about 200 bytes of memory a node",
            )
            .value_parser(value_parser!(u64).range(1..))
            .default_value(MAX_NODES),
        )
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            flag: value(m, "flag"),
            player: value(m, "player"),
            board: value(m, "board"),
            depth: m.get_one("depth").copied(),
            eval: value(m, "eval"),
            max_nodes: value(m, "max-nodes"),
        }
    }
}

/// Runs `reversi tree ARGS`.
pub fn run(args: &[String]) -> Result<()> {
    parse_and_run(command(), args, Args::from_matches, tree)
}

/// Runs `reversi tree` as asked.
fn tree(a: Args, weights: Weights) -> Result<()> {
    let algorithm = match a.flag.as_str() {
        "300" => Algorithm::Minimax,
        "500" => Algorithm::AlphaBeta,
        f => {
            return usage(format!(
                "FLAG {f:?} is not 300 (minimax) or 500 (alpha-beta)"
            ))
        }
    };
    let to_move = match a.player.as_str() {
        "1" => Color::Black,
        "2" => Color::White,
        p => return usage(format!("PLAYER {p:?} is not 1 (dark) or 2 (light)")),
    };
    let board = match Board::from_digits(&a.board) {
        Ok(b) => b,
        Err(e) => return usage(format!("BOARD {:?} {e}; use the digits 0, 1, 2", a.board)),
    };
    let root = Position { board, to_move };
    let size = match a.depth {
        Some(_) => tree_size_within(&Reversi::DISC_DIFFERENCE, &root, a.depth, a.max_nodes),
        None => tree_size_within(&Reversi::WIN_LOSS, &root, None, a.max_nodes),
    };
    if size.is_none() {
        return usage(format!(
            "the tree has more than {} nodes (--max-nodes; the full minimax tree is counted, \
             an upper bound for FLAG 500); give a --depth, a fuller board, or a larger \
             --max-nodes (about 200 bytes of memory a node)",
            a.max_nodes
        ));
    }
    let dot = if let Some(d) = a.depth {
        let game = Reversi::DISC_DIFFERENCE;
        let mut t = DotTree::new(&game);
        algorithm.run(
            &game,
            &root,
            &Limit::depth(d, weights.evaluation(a.eval)),
            &mut t,
        );
        t.to_dot()
    } else {
        let game = Reversi::WIN_LOSS;
        let mut t = DotTree::new(&game);
        algorithm.run(&game, &root, &Limit::NONE, &mut t);
        t.to_dot()
    };
    write_stdout(&dot)
}
