//! Training data for the pattern evaluation: self-play games with
//! randomised openings, finished by the exact solver, and the labelled
//! positions they give.
//!
//! A training game starts with a few random moves (the opening is drawn at
//! random so the games spread over many positions), continues with the
//! iterative search's moves until few squares are empty, and is then
//! solved exactly: the solver's score is the game's result under perfect
//! play from there, and its principal line finishes the game. Every
//! position of the game is labelled with that result for its side to move:
//! exactly for the positions from the solve on, and for earlier positions
//! as the result of the game the engine actually played on from them.
//!
//! Games are written one per line ([`TrainingGame::to_line`]), so a long
//! generation can be resumed; each game depends only on the seed and its
//! index.

use crate::board::symmetry;
use crate::board::{Color, Square};
use crate::engine::analyze::Limits;
use crate::engine::iterative::{IterativeSearch, MoveOrder, SearchMemory};
use crate::engine::midgame::MidgameSearch;
use crate::engine::probcut::{
    fit_endgame, fit_line, shallow_depth, EndgameFit, ProbCutTable, MAX_CUT_DEPTH,
};
use crate::engine::solve::{shallow_estimate, CUT_DEPTHS};
use crate::engine::{EndgameSolver, RelativePosition, Scoring};
use crate::eval::pattern::fit::Sample;
use crate::eval::pattern::{phase, PatternWeights, PHASES, SCALE};
use crate::eval::Heuristic;
use crate::game::Game;
use crate::lab::shard::{ordered_work, Shard};
use crate::reversi::{Move, Position, Reversi};
use crate::rng::Rng;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

pub mod fits;
pub mod formats;
pub mod import;
pub mod import_files;
pub mod label_stage;
pub mod labels;
pub mod off_path;
pub mod options;
pub mod tables;
pub mod test_sets;

/// How training games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// The seed every game's randomness derives from (with its index).
    pub seed: u64,
    /// The fewest random moves at the start.
    pub random_min: u32,
    /// The most random moves at the start.
    pub random_max: u32,
    /// The depth of the iterative search that plays the middle game.
    pub depth: u32,
    /// The evaluation of that search.
    pub eval: Heuristic,
    /// The game is solved exactly once at most this many squares are empty.
    pub solve_empties: u32,
    /// When set, the middle game is played by the midgame search at this
    /// level (with the pattern evaluation) instead of the iterative
    /// search of `depth` and `eval`.
    pub level: Option<u32>,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            seed: 1,
            random_min: 4,
            random_max: 24,
            depth: 4,
            eval: Heuristic::Strong,
            solve_empties: 18,
            level: None,
        }
    }
}

/// One played training game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingGame {
    /// The game's index (its randomness derives from the seed and this).
    pub index: u64,
    /// Every move from the 8x8 start, passes included, to the end.
    pub moves: Vec<Move>,
    /// The number of moves played before the exact solve.
    pub solved_at: usize,
    /// Black's final disc difference under perfect play from the solve
    /// (empty squares go to the winner).
    pub score: i32,
}

/// Why a line is not a training game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLineError(String);

impl fmt::Display for GameLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameLineError {}

impl TrainingGame {
    /// The game as one line: index, moves (`f5d6...`, `pa` for a pass),
    /// moves before the solve, black's score; separated by tabs.
    #[must_use]
    pub fn to_line(&self) -> String {
        let moves: String = self
            .moves
            .iter()
            .map(|m| match m {
                Move::Place(sq) => sq.to_string(),
                Move::Pass => "pa".to_owned(),
            })
            .collect();
        format!(
            "{}\t{moves}\t{}\t{}",
            self.index, self.solved_at, self.score
        )
    }

    /// Reads a line written by [`TrainingGame::to_line`], checking that the
    /// moves are legal and end the game, and that the score is the final
    /// position's (black's discs minus white's, empty squares to the
    /// winner).
    ///
    /// # Errors
    /// What is wrong with the line.
    pub fn parse_line(line: &str) -> Result<TrainingGame, GameLineError> {
        let err = |m: String| Err(GameLineError(m));
        let fields: Vec<&str> = line.split('\t').collect();
        let [index, moves, solved_at, score] = fields[..] else {
            return err(format!(
                "has {} tab-separated fields, expected 4",
                fields.len()
            ));
        };
        let number = |name: &str, text: &str| {
            text.parse::<i64>()
                .map_err(|_| GameLineError(format!("{name} {text:?} is not a number")))
        };
        let index = u64::try_from(number("index", index)?)
            .map_err(|_| GameLineError("index is negative".into()))?;
        let solved_at = usize::try_from(number("solve ply", solved_at)?)
            .map_err(|_| GameLineError("solve ply is negative".into()))?;
        let score = i32::try_from(number("score", score)?)
            .ok()
            .filter(|s| (-64..=64).contains(s))
            .ok_or_else(|| GameLineError("score is not within -64..64".into()))?;
        if moves.len() % 2 != 0 || !moves.is_ascii() {
            return err("moves are not pairs of characters".into());
        }
        let game = Reversi::DISC_DIFFERENCE;
        let mut p = Position::start(8);
        let mut list = Vec::with_capacity(moves.len() / 2);
        for (i, pair) in moves.as_bytes().chunks(2).enumerate() {
            let text = std::str::from_utf8(pair).expect("ascii");
            let mv = if text == "pa" {
                Move::Pass
            } else {
                let sq: Square = text.parse().map_err(|_| {
                    GameLineError(format!("move {} {text:?} is not a square", i + 1))
                })?;
                Move::Place(sq)
            };
            if !game.moves(&p).any(|m| m == mv) {
                return err(format!("move {} ({text}) is not legal", i + 1));
            }
            p = game.play(&p, mv);
            list.push(mv);
        }
        if !game.is_terminal(&p) {
            return err("the moves do not end the game".into());
        }
        let d = p.board.disc_difference();
        let final_score = d + d.signum() * p.board.empty().count_ones() as i32;
        if score != final_score {
            return err(format!(
                "score {score} contradicts the moves, which end the game at {final_score}"
            ));
        }
        if solved_at > list.len() {
            return err("the solve ply is past the end of the game".into());
        }
        Ok(TrainingGame {
            index,
            moves: list,
            solved_at,
            score,
        })
    }
}

/// Plays training games: the random opening, the middle game by the
/// settings' search, the exact solve. Keep one per thread: a game depends
/// only on the settings and its index, never on the games played before.
pub struct GamePlayer {
    settings: GameSettings,
    solver: EndgameSolver,
    midgame: Option<MidgameSearch>,
}

impl fmt::Debug for GamePlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GamePlayer({:?})", self.settings)
    }
}

impl GamePlayer {
    /// A player of games of `settings` (a midgame search of `weights` when
    /// they name a level).
    #[must_use]
    pub fn new(settings: GameSettings, weights: &Arc<PatternWeights>) -> GamePlayer {
        GamePlayer {
            settings,
            solver: training_solver(),
            midgame: settings
                .level
                // Its solver never runs: the final solve comes first.
                .map(|_| MidgameSearch::with_table_bits(Arc::clone(weights), 18, 10)),
        }
    }

    /// Plays game `index`.
    pub fn play(&mut self, index: u64) -> TrainingGame {
        let settings = &self.settings;
        let mut rng = Rng::new(settings.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let game = Reversi::DISC_DIFFERENCE;
        let mut p = Position::start(8);
        let mut moves = Vec::new();
        let random = settings.random_min as usize
            + rng.below((settings.random_max.saturating_sub(settings.random_min) + 1) as usize);
        let search = IterativeSearch {
            order: MoveOrder::Best,
            prune: true,
            eval: settings.eval,
        };
        let mut memory = SearchMemory::default();
        // The level's own exact solve is left to the final solve, so the
        // moves before it never depend on the solver's table.
        let level = Limits {
            level: settings.level,
            exact_empties: settings.solve_empties,
            ..Limits::default()
        }
        .level_on(8);
        if let Some(midgame) = &mut self.midgame {
            midgame.forget();
        }
        while !game.is_terminal(&p) && p.board.empty().count_ones() > settings.solve_empties {
            let legal: Vec<Move> = game.moves(&p).collect();
            let mv = if legal.len() == 1 {
                legal[0]
            } else if moves.len() < random {
                *rng.pick(&legal)
            } else if let (Some(level), Some(midgame)) = (level, &mut self.midgame) {
                midgame
                    .search(&RelativePosition::from(&p), level, None, None)
                    .best
                    .expect("a game that is not over has a move")
            } else {
                search
                    .fixed_in(&p, settings.depth, &mut memory)
                    .best
                    .expect("a game that is not over has a move")
            };
            p = game.play(&p, mv);
            moves.push(mv);
        }
        let solved_at = moves.len();
        let relative = RelativePosition::from(&p);
        let solution = self.solver.solve(&relative);
        moves.extend(self.solver.principal_line(&relative, solution.score));
        let score = match p.to_move {
            Color::Black => solution.score.0,
            Color::White => -solution.score.0,
        };
        TrainingGame {
            index,
            moves,
            solved_at,
            score,
        }
    }
}

/// The position list of a `train label` stage: the games' own positions
/// ([`labels::position_list`]) or, with `off_path` N, one in N of the
/// positions after the moves their players did not make
/// ([`off_path::deviation_list`]).
#[must_use]
pub fn stage_list(
    games: &[TrainingGame],
    empties: &std::ops::RangeInclusive<u32>,
    off_path: Option<u64>,
) -> Vec<labels::ListedPosition> {
    match off_path {
        Some(every) => off_path::deviation_list(games, empties, every),
        None => labels::position_list(games, empties),
    }
}

/// A solver sized for training games' endgames.
#[must_use]
pub fn training_solver() -> EndgameSolver {
    EndgameSolver::with_table_bits(Scoring::Standard, 18)
}

/// Plays the games of `shard` numbered `shard.item(k)` for `k` in `ks` on
/// `threads` threads (the middle game searched with `weights` when the
/// settings name a level) and hands each to `deliver` in order.
/// `deliver` returns `false` to stop early.
pub fn generate(
    settings: &GameSettings,
    weights: &Arc<PatternWeights>,
    shard: Shard,
    ks: std::ops::Range<u64>,
    threads: usize,
    deliver: impl FnMut(TrainingGame) -> bool,
) {
    ordered_work(
        ks.end.saturating_sub(ks.start),
        threads,
        || GamePlayer::new(*settings, weights),
        |player, k| player.play(shard.item(ks.start + k)),
        deliver,
    );
}

/// Fits the Multi-ProbCut table: for up to `per_phase` positions of each
/// phase among `samples` with more than `max_depth` empty squares, spread
/// evenly over the phase's samples in their order (so that a sample of
/// games in order gives positions of all its games, not of its first few),
/// the root values of a full search to `max_depth`; then, per depth and
/// phase, the line predicting each depth's value from its shallow depth's
/// (on `threads` threads, the searches evaluating with `weights`;
/// `progress` hears of each position).
pub fn fit_probcut(
    samples: &[Sample],
    weights: &Arc<PatternWeights>,
    per_phase: usize,
    max_depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> ProbCutTable {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let max_depth = max_depth.min(MAX_CUT_DEPTH);
    let chosen: Vec<(usize, RelativePosition)> = spread_by_phase(samples, per_phase, max_depth)
        .into_iter()
        .map(|(k, s)| {
            (
                k,
                RelativePosition {
                    player: s.p,
                    opponent: s.o,
                    valid: u64::MAX,
                },
            )
        })
        .collect();
    let next = AtomicUsize::new(0);
    let values = Mutex::new(vec![Vec::new(); chosen.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut search = MidgameSearch::new(Arc::clone(weights));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= chosen.len() {
                        return;
                    }
                    let v = search.iteration_values(&chosen[i].1, max_depth);
                    values.lock().expect("no panics")[i] = v;
                    progress(i + 1, chosen.len());
                }
            });
        }
    });
    let values = values.into_inner().expect("no panics");
    let mut table = ProbCutTable::default();
    let scale = f64::from(SCALE);
    for depth in 3..=max_depth {
        let shallow = shallow_depth(depth);
        for k in 0..PHASES {
            let pairs: Vec<(f64, f64)> = chosen
                .iter()
                .zip(&values)
                .filter(|((phase, _), _)| *phase == k)
                .map(|(_, v)| {
                    (
                        f64::from(v[shallow as usize - 1]) / scale,
                        f64::from(v[depth as usize - 1]) / scale,
                    )
                })
                .collect();
            if let Some(cut) = fit_line(&pairs) {
                table.set(depth, k, cut);
            }
        }
    }
    table
}

/// Up to `per_phase` of `samples` of each phase with more than
/// `min_empties` empty squares, with their phases: the `i`-th of `n` taken
/// from a phase's `m` samples is its `i * m / n`-th, in order.
fn spread_by_phase(
    samples: &[Sample],
    per_phase: usize,
    min_empties: u32,
) -> Vec<(usize, &Sample)> {
    let mut by_phase: Vec<Vec<&Sample>> = vec![Vec::new(); PHASES];
    for s in samples.iter().filter(|s| s.empties() > min_empties) {
        by_phase[phase(s.empties())].push(s);
    }
    let mut chosen = Vec::new();
    for (k, phase_samples) in by_phase.iter().enumerate() {
        let taken = per_phase.min(phase_samples.len());
        for i in 0..taken {
            chosen.push((k, phase_samples[i * phase_samples.len() / taken]));
        }
    }
    chosen
}

/// The fewest empty squares of a position the endgame model is fitted on.
pub const ENDGAME_FIT_MIN_EMPTIES: u32 = 8;

/// Fits the endgame solver's model of its cut error
/// ([`crate::engine::probcut::EndgameSigma`]): every exactly scored
/// position of `games` (from each game's solve on, once up to symmetry)
/// and of `exact` (exact labels: positions with their exact scores) with
/// at least [`ENDGAME_FIT_MIN_EMPTIES`] empty squares gives, at each of
/// the solver's cut depths ([`CUT_DEPTHS`]), the error of the solver's
/// estimate ([`shallow_estimate`] with `weights`) against its exact score;
/// then [`fit_endgame`] over the (empties, depth) cells of at least
/// `min_count` positions. `None` when those cells do not determine the
/// model.
#[must_use]
pub fn fit_endgame_sigma(
    games: &[TrainingGame],
    exact: &[Sample],
    weights: &PatternWeights,
    min_count: usize,
) -> Option<EndgameFit> {
    let (train, held) = samples(games, true);
    let scale = f64::from(SCALE);
    let mut seen = HashSet::new();
    let residuals: Vec<(u32, u32, f64)> = train
        .iter()
        .chain(&held)
        .chain(exact)
        .filter(|s| s.empties() >= ENDGAME_FIT_MIN_EMPTIES && seen.insert(canonical(s.p, s.o)))
        .flat_map(|s| {
            CUT_DEPTHS.map(|d| {
                let estimate = f64::from(shallow_estimate(weights, s.p, s.o, d)) / scale;
                (s.empties(), d, f64::from(s.target) - estimate)
            })
        })
        .collect();
    fit_endgame(&residuals, min_count)
}

/// Whether game `index` belongs to the held-out tenth.
#[must_use]
pub const fn is_held_out(index: u64) -> bool {
    index % 10 == 9
}

/// The labelled positions of `games`, split into training and held-out
/// sets by game, each position once up to the board's symmetries (a
/// held-out position that also occurs in training is dropped). Finished
/// positions are left out; `exact_only` keeps only the positions from the
/// solve on.
#[must_use]
pub fn samples(games: &[TrainingGame], exact_only: bool) -> (Vec<Sample>, Vec<Sample>) {
    let mut seen_train = HashSet::new();
    let mut train = Vec::new();
    let mut held = Vec::new();
    for held_out in [false, true] {
        let mut seen_here = HashSet::new();
        for g in games.iter().filter(|g| is_held_out(g.index) == held_out) {
            for (ply, p) in positions(&g.moves).into_iter().enumerate() {
                if exact_only && ply < g.solved_at {
                    continue;
                }
                let mover = p.board.discs(p.to_move);
                let other = p.board.discs(p.to_move.other());
                let key = canonical(mover, other);
                if seen_train.contains(&key) || !seen_here.insert(key) {
                    continue;
                }
                let target = match p.to_move {
                    Color::Black => g.score,
                    Color::White => -g.score,
                } as f32;
                let sample = Sample {
                    p: mover,
                    o: other,
                    target,
                };
                if held_out {
                    held.push(sample);
                } else {
                    train.push(sample);
                }
            }
        }
        if !held_out {
            seen_train = seen_here;
        }
    }
    (train, held)
}

/// The positions before each move of `moves` (the final position is left
/// out: nothing is evaluated there).
fn positions(moves: &[Move]) -> Vec<Position> {
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = Position::start(8);
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        out.push(p);
        p = game.play(&p, mv);
    }
    out
}

/// The smallest of the eight symmetric images of a position.
fn canonical(p: u64, o: u64) -> (u64, u64) {
    symmetry::canonical(p, o).0
}

/// Quick training games for the tests: games `0..count` of the default
/// seed at depth 2, solved from `solve_empties` empty squares.
#[cfg(test)]
pub(crate) fn test_games(count: u64, solve_empties: u32) -> Vec<TrainingGame> {
    let settings = GameSettings {
        depth: 2,
        solve_empties,
        ..GameSettings::default()
    };
    let mut player = GamePlayer::new(settings, PatternWeights::shared_embedded());
    (0..count).map(|i| player.play(i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(settings: GameSettings) -> GamePlayer {
        GamePlayer::new(
            settings,
            crate::eval::pattern::PatternWeights::shared_embedded(),
        )
    }

    fn quick() -> GameSettings {
        GameSettings {
            depth: 2,
            solve_empties: 12,
            ..GameSettings::default()
        }
    }

    #[test]
    fn probcut_positions_are_spread_over_each_phases_samples() {
        let games = test_games(12, 10);
        let (samples, _) = samples(&games, false);
        let chosen = spread_by_phase(&samples, 5, 8);
        for k in 0..PHASES {
            let of_phase: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.empties() > 8 && phase(s.empties()) == k)
                .collect();
            let taken: Vec<&Sample> = chosen.iter().filter(|c| c.0 == k).map(|c| c.1).collect();
            assert_eq!(taken.len(), of_phase.len().min(5), "phase {k}");
            for (i, s) in taken.iter().enumerate() {
                assert!(std::ptr::eq(*s, of_phase[i * of_phase.len() / taken.len()]));
            }
            // The last one taken lies in the last fifth of the phase's samples.
            if of_phase.len() >= 10 {
                let last = of_phase
                    .iter()
                    .position(|s| std::ptr::eq(*s, *taken.last().unwrap()));
                assert!(last.unwrap() * 5 >= 4 * (of_phase.len() - 1), "phase {k}");
            }
        }
    }

    #[test]
    fn games_are_reproducible_legal_and_exact() {
        let settings = quick();
        let mut player = player(settings);
        for index in 0..4 {
            let g = player.play(index);
            assert_eq!(
                g,
                GamePlayer::new(
                    settings,
                    crate::eval::pattern::PatternWeights::shared_embedded()
                )
                .play(index)
            );
            let line = g.to_line();
            assert_eq!(TrainingGame::parse_line(&line).unwrap(), g);
            // The score is the exact value at the solve: an independent
            // solve of that position agrees, and the line played from it
            // ends with that score.
            let at = positions(&g.moves)[g.solved_at];
            let exact = EndgameSolver::new(Scoring::Standard)
                .solve(&RelativePosition::from(&at))
                .score
                .0;
            let black = if at.to_move == Color::Black {
                exact
            } else {
                -exact
            };
            assert_eq!(g.score, black, "game {index}");
            let game = Reversi::DISC_DIFFERENCE;
            let end = g
                .moves
                .iter()
                .fold(Position::start(8), |p, &m| game.play(&p, m));
            let d = end.board.disc_difference();
            let empty = end.board.empty().count_ones() as i32;
            let standard = d + d.signum() * empty;
            assert_eq!(standard, g.score, "game {index}");
        }
    }

    #[test]
    fn bad_lines_are_refused() {
        let g = player(quick()).play(0);
        let line = g.to_line();
        let (head, _) = line.rsplit_once('\t').expect("four fields");
        assert_eq!(
            TrainingGame::parse_line(&format!("{head}\t{}", g.score)),
            Ok(g.clone())
        );
        for bad in [
            "",
            "1\tf5\t0",
            &line.replace("\t", " "),
            &format!("{line}x"),
            &line.replacen('\t', "\tzz", 1),
            &format!("{}\t{}\t0\t0", g.index, "f5d6"),
            // The right moves with another score.
            &format!("{head}\t{}", g.score + 2),
            &format!("{head}\t{}", -g.score - 1),
        ] {
            assert!(TrainingGame::parse_line(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn samples_are_unique_and_split_by_game() {
        let settings = quick();
        let mut player = player(settings);
        let games: Vec<TrainingGame> = (0..20).map(|i| player.play(i)).collect();
        let (train, held) = samples(&games, false);
        assert!(!train.is_empty() && !held.is_empty());
        let keys: HashSet<(u64, u64)> = train.iter().map(|s| canonical(s.p, s.o)).collect();
        assert_eq!(keys.len(), train.len());
        assert!(held.iter().all(|s| !keys.contains(&canonical(s.p, s.o))));
        let (exact, _) = samples(&games, true);
        assert!(exact.len() < train.len());
        assert!(exact.iter().all(|s| s.empties() <= settings.solve_empties));
    }

    #[test]
    fn the_endgame_fit_measures_the_solved_positions() {
        let settings = quick();
        let mut player = player(settings);
        let games: Vec<TrainingGame> = (0..10).map(|i| player.play(i)).collect();
        let weights = crate::eval::pattern::PatternWeights::embedded();
        let fit = fit_endgame_sigma(&games, &[], weights, 3).expect("a model");
        // Cells for 8 to 12 empties at each cut depth, each counting the
        // distinct solved positions with that many empties.
        let (train, held) = samples(&games, true);
        for c in &fit.cells {
            assert!((8..=settings.solve_empties).contains(&c.empties), "{c:?}");
            assert!(CUT_DEPTHS.contains(&c.depth), "{c:?}");
            let positions = train
                .iter()
                .chain(&held)
                .filter(|s| s.empties() == c.empties)
                .count();
            assert_eq!(c.count, positions, "{c:?}");
            assert!(c.sigma > 0.0 && c.sigma >= c.bias.abs(), "{c:?}");
        }
        assert!(fit.cells.iter().any(|c| c.depth == 4));
        // Weights that know nothing estimate 0 at depth 0: the error there
        // is the exact score itself.
        let zero = crate::eval::pattern::PatternWeights::zero();
        let fit = fit_endgame_sigma(&games, &[], &zero, 3).expect("a model");
        let c = fit.cells.iter().find(|c| c.depth == 0).expect("a cell");
        let scores: Vec<f64> = train
            .iter()
            .chain(&held)
            .filter(|s| s.empties() == c.empties)
            .map(|s| f64::from(s.target))
            .collect();
        let rms = (scores.iter().map(|x| x * x).sum::<f64>() / scores.len() as f64).sqrt();
        assert!((c.sigma - rms).abs() < 1e-9, "{c:?} {rms}");
    }
}
