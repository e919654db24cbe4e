//! The depth study's subcommands: `play` with options,
//! `match`, `table`, `tournament` and `tree`. Each parses its options with
//! clap (errors exit with status 2), calls `reversi::apps::study` and formats.

mod ordering;
mod play;
mod selfplay;
mod table;
mod tournament;
mod tree;

pub use ordering::run as ordering;
pub use play::run as play;
pub use selfplay::run as matches;
pub use table::run as table;
pub use tournament::run as tournament;
pub use tree::run as tree;

use super::size_arg;
use clap::builder::PossibleValue;
use clap::{value_parser, Arg, ArgMatches, Command, ValueEnum};
use reversi::apps::study::selfplay::Player;
use reversi::board::{Board, PictureStyle};
use reversi::engine::iterative::MoveOrder;
use reversi::engine::midgame::Level;
use reversi::eval::pattern::PatternWeights;
use reversi::eval::{Evaluation, Heuristic};
use reversi::game::Game;
use reversi::kit::{flag, option, usage};
use reversi::reversi::Move;
use reversi::search::Algorithm;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

/// `--algorithm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlgorithmArg {
    /// Plain minimax.
    Minimax,
    /// Alpha-beta pruning.
    Alphabeta,
}

impl ValueEnum for AlgorithmArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[AlgorithmArg::Minimax, AlgorithmArg::Alphabeta]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            AlgorithmArg::Minimax => PossibleValue::new("minimax").help("Plain minimax"),
            AlgorithmArg::Alphabeta => PossibleValue::new("alphabeta").help("Alpha-beta pruning"),
        })
    }
}

impl AlgorithmArg {
    fn get(self) -> Algorithm {
        match self {
            AlgorithmArg::Minimax => Algorithm::Minimax,
            AlgorithmArg::Alphabeta => Algorithm::AlphaBeta,
        }
    }
}

/// `--order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderArg {
    /// Reading order of the squares (the library's counted searches).
    Natural,
    /// Previous iteration's best move, corners, fewest opponent replies.
    Best,
}

impl ValueEnum for OrderArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[OrderArg::Natural, OrderArg::Best]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            OrderArg::Natural => PossibleValue::new("natural")
                .help("Reading order of the squares (the library's counted searches)"),
            OrderArg::Best => PossibleValue::new("best")
                .help("Previous iteration's best move, corners, fewest opponent replies"),
        })
    }
}

impl OrderArg {
    fn get(self) -> MoveOrder {
        match self {
            OrderArg::Natural => MoveOrder::Natural,
            OrderArg::Best => MoveOrder::Best,
        }
    }
}

/// `--eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalArg {
    /// Disc difference (the study's `h`).
    Disc,
    /// Positional weights.
    Weights,
    /// Mobility, corners, stability, parity.
    Strong,
    /// The trained pattern evaluation (8x8 only).
    Pattern,
}

impl ValueEnum for EvalArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            EvalArg::Disc,
            EvalArg::Weights,
            EvalArg::Strong,
            EvalArg::Pattern,
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            EvalArg::Disc => PossibleValue::new("disc").help("Disc difference (the study's `h`)"),
            EvalArg::Weights => PossibleValue::new("weights").help("Positional weights"),
            EvalArg::Strong => {
                PossibleValue::new("strong").help("Mobility, corners, stability, parity")
            }
            EvalArg::Pattern => PossibleValue::new("pattern")
                .help("The trained pattern evaluation (8x8 only; see --weights)"),
        })
    }
}

impl EvalArg {
    fn get(self) -> Heuristic {
        match self {
            EvalArg::Disc => Heuristic::Disc,
            EvalArg::Weights => Heuristic::Weights,
            EvalArg::Strong => Heuristic::Strong,
            EvalArg::Pattern => Heuristic::Pattern,
        }
    }
}

/// A study command's `--weights`, read: the pattern weights of its sides'
/// `pattern` evaluation and levels (`None`: the embedded ones), passed to
/// each search that evaluates.
#[derive(Clone, Debug, Default)]
struct Weights(Option<Arc<PatternWeights>>);

impl Weights {
    /// `eval` reading these weights.
    fn evaluation(&self, eval: EvalArg) -> Evaluation {
        match &self.0 {
            Some(w) => Evaluation {
                heuristic: eval.get(),
                weights: Arc::clone(w),
            },
            None => Evaluation::new(eval.get()),
        }
    }
}

/// Parses a study command's `args` with `command` plus `--weights FILE`
/// into its typed request (`typed`) and reads those weights, refusing the
/// pattern evaluation off 8x8; then runs the request with `run` and the
/// weights (or prints the help asked for).
fn parse_and_run<T>(
    command: Command,
    args: &[String],
    typed: impl FnOnce(&ArgMatches) -> T,
    run: impl FnOnce(T, Weights) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let command = command.arg(option(
        "weights",
        "FILE",
        "Pattern weights for --eval pattern and the levels (default: the trained weights built in)",
    ));
    reversi::kit::parse_and_run(
        command,
        args,
        |m| {
            checked(m)?;
            let weights = match m.get_one::<String>("weights") {
                Some(path) => Some(Arc::new(reversi::kit::readers::read_weights(path)?)),
                None => None,
            };
            Ok((typed(m), Weights(weights)))
        },
        |(request, weights)| run(request, weights),
    )
}

/// Refuses the pattern evaluation and the levels off 8x8.
fn checked(m: &ArgMatches) -> anyhow::Result<()> {
    let size = m
        .try_get_one::<u8>("size")
        .ok()
        .flatten()
        .copied()
        .unwrap_or(8);
    for id in ["level", "black-level", "white-level", "vs-level"] {
        if let (Ok(Some(_)), false) = (m.try_get_one::<u32>(id), Level::plays_on(size)) {
            return usage(format!(
                "--{id} plays 8x8 only (the engine's midgame search); use --size 8, or --depth \
                 and --eval on smaller boards"
            ));
        }
    }
    for id in ["eval", "vs", "black-eval", "white-eval"] {
        if let Ok(Some(EvalArg::Pattern)) = m.try_get_one::<EvalArg>(id) {
            if size != 8 {
                return usage(format!(
                    "--{id} pattern evaluates 8x8 positions only; use --size 8 or another evaluation"
                ));
            }
        }
    }
    Ok(())
}

/// Parses a depth bound: a whole number of plies, at least 1.
fn parse_depth(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(d) if d >= 1 => Ok(d),
        _ => Err(format!(
            "{s:?} is not a depth (a whole number of plies, at least 1)"
        )),
    }
}

/// Parses `--time SECS`: a positive number of seconds.
fn parse_time(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() && t < 1e6 => Ok(Duration::from_secs_f64(t)),
        _ => Err(format!("{s:?} is not a positive number of seconds")),
    }
}

/// `--size <SIZE>` for the study, with its default.
fn size(default: &'static str) -> Arg {
    size_arg("Board size: 4, 6 or 8").default_value(default)
}

/// `--LONG <VALUE>`: a depth bound in plies (see [`parse_depth`]).
fn depth(long: &'static str, value: &'static str, help: &'static str) -> Arg {
    option(long, value, help).value_parser(parse_depth)
}

/// `--LONG <VALUE>`: a strength level of the engine, 1 to [`Level::MAX`].
fn level(long: &'static str, value: &'static str, help: &'static str) -> Arg {
    option(long, value, help).value_parser(value_parser!(u32).range(1..=i64::from(Level::MAX)))
}

/// What `--level` means, for the help of the commands that take it.
const LEVEL_HELP: &str = "The engine's strength level, 1-30 (8x8 only): the engine's midgame \
     search (pattern evaluation, principal-variation search, transposition table) N plies \
     deep, exact from N+8 empty squares (at most 24), Multi-ProbCut from level 5; \
     --time caps each move. Replaces --depth, --eval, --algorithm and --order";

/// `--time <TIME>` (see [`parse_time`]).
fn time(help: &'static str) -> Arg {
    option("time", "TIME", help).value_parser(parse_time)
}

/// `--LONG <VALUE>`: an evaluation ([`EvalArg`]).
fn eval(long: &'static str, value: &'static str, help: &'static str) -> Arg {
    option(long, value, help).value_parser(value_parser!(EvalArg))
}

/// `--algorithm <ALGORITHM>`, alpha-beta by default.
fn algorithm(help: &'static str) -> Arg {
    option("algorithm", "ALGORITHM", help)
        .value_parser(value_parser!(AlgorithmArg))
        .default_value("alphabeta")
}

/// `--order <ORDER>` with its default.
fn order(help: &'static str, default: &'static str) -> Arg {
    option("order", "ORDER", help)
        .value_parser(value_parser!(OrderArg))
        .default_value(default)
}

/// `--json`.
fn json_flag() -> Arg {
    flag("json", "Print one JSON object instead of text")
}

/// `-q, --quiet`.
fn quiet_flag() -> Arg {
    flag("quiet", "No progress on stderr").short('q')
}

/// A side's settings as the study commands read them once (`--depth`,
/// `--time`, `--algorithm`, `--order`, `--eval`, `--level`; those a
/// command lacks are none), a side's own options (`--black-level`,
/// `--vs-depth`, ...) put in by struct update; [`PlayerSpec::player`]
/// makes the player.
#[derive(Clone, Copy, Debug)]
struct PlayerSpec {
    depth: Option<u32>,
    time: Option<Duration>,
    algorithm: AlgorithmArg,
    order: OrderArg,
    eval: EvalArg,
    level: Option<u32>,
}

impl PlayerSpec {
    /// The settings `m` gives, with the evaluation `eval` (each command
    /// has its own default).
    fn from_matches(m: &ArgMatches, eval: EvalArg) -> PlayerSpec {
        let some = |id| m.try_get_one(id).ok().flatten().copied();
        PlayerSpec {
            depth: some("depth"),
            time: m.try_get_one("time").ok().flatten().copied(),
            algorithm: m.get_one("algorithm").copied().expect("a default"),
            order: m.get_one("order").copied().expect("a default"),
            eval,
            level: some("level"),
        }
    }

    /// The player: with a time budget the depth only caps the search;
    /// without one the depth defaults to 4. With a level (8x8) the
    /// engine's midgame search plays at that level, the time capping each
    /// move.
    fn player(self, weights: &Weights) -> Player {
        Player {
            depth: self
                .depth
                .or(if self.time.is_none() { Some(4) } else { None }),
            time: self.time,
            algorithm: self.algorithm.get(),
            order: self.order.get(),
            eval: self.eval.get(),
            level: self.level,
            weights: weights.0.clone(),
            book: None,
        }
    }
}

/// `--from RECORD`: a game record whose end a game starts from.
fn from_arg() -> Arg {
    option(
        "from",
        "RECORD",
        "Start from the end of a game record: a transcript (f5d6c3), a GGF game, \
         a board string (64 of -/X/O then X or O to move), or a file holding one",
    )
    .allow_hyphen_values(true)
}

/// A short description of a side's settings.
fn describe(p: &Player) -> String {
    let mut s = String::new();
    if let Some(level) = p.level {
        let _ = write!(s, "level {level}");
        if let Some(t) = p.time {
            let _ = write!(s, ", time {} s", t.as_secs_f64());
        }
        return s;
    }
    if let Some(d) = p.depth {
        let _ = write!(s, "depth {d}");
    }
    if let Some(t) = p.time {
        let _ = write!(
            s,
            "{}time {} s",
            if s.is_empty() { "" } else { ", " },
            t.as_secs_f64()
        );
    }
    let alg = match p.algorithm {
        Algorithm::Minimax => "minimax",
        Algorithm::AlphaBeta => "alphabeta",
    };
    let order = match p.order {
        MoveOrder::Natural => "natural",
        MoveOrder::Best => "best",
    };
    let _ = write!(s, ", {alg}, order {order}, eval {}", p.eval);
    s
}

/// The board with column letters and row numbers; empty squares `.`,
/// squares in `marks` `*`.
fn board_picture(board: &Board, marks: u64) -> String {
    board.picture(PictureStyle::PLAIN, marks)
}

/// Who won a game with final `score` (black minus white).
fn verdict(score: i32) -> &'static str {
    match score.signum() {
        1 => "black wins",
        -1 => "white wins",
        _ => "draw",
    }
}

/// Moves as a JSON array of strings.
fn json_moves(moves: &[Move]) -> String {
    let items: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
    format!("[{}]", items.join(","))
}

/// Numbers as a JSON array.
fn json_array<T: std::fmt::Display>(xs: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = xs.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(","))
}

/// The number of lines of `plies` moves from `root` (shorter where the
/// game ends first), as [`reversi::apps::study::selfplay::openings`] lists
/// them, if at most `cap`; `None` if there are more.
fn lines_within<G: Game>(game: &G, root: &G::State, plies: u32, cap: u64) -> Option<u64> {
    fn count<G: Game>(game: &G, s: &G::State, left: u32, seen: &mut u64, cap: u64) -> bool {
        if left == 0 || game.is_terminal(s) {
            *seen += 1;
            return *seen <= cap;
        }
        game.moves(s)
            .all(|mv| count(game, &game.play(s, mv), left - 1, seen, cap))
    }
    let mut seen = 0;
    count(game, root, plies, &mut seen, cap).then_some(seen)
}

/// The study's subcommands, for checking their definitions.
#[cfg(test)]
pub(super) fn commands() -> [clap::Command; 6] {
    [
        ordering::command(),
        play::command(),
        selfplay::command(),
        table::command(),
        tournament::command(),
        tree::command(),
    ]
}
