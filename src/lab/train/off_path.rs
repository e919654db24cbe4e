//! The evaluation's second test set, off the experts' path: the positions
//! after every legal move of exactly labelled positions (the held-out
//! positions of expert games, `train heldout`), and the error of value
//! estimates grouped by how many discs the move loses.
//!
//! Experts rarely play a move that loses many discs, so a test set of
//! their positions cannot see how the evaluation values the positions
//! after such moves; yet the search spends most of its nodes below them,
//! and the coach shows their values.

use super::labels::{Label, LabelSource, ListedPosition};
use super::TrainingGame;
use crate::board::bits::Bits;
use crate::board::{symmetry, Color, Square};
use crate::engine::analyze::{Analyzer, Limits, MoveSearch, MoveValue};
use crate::engine::RelativePosition;
use crate::eval::pattern::PatternWeights;
use crate::eval::Eval;
use crate::reversi::{Move, Position};
use std::collections::HashMap;
use std::collections::HashSet;
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// How many discs a move loses against the best move, in classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LossClass {
    /// A best move (loses nothing).
    Best,
    /// Loses 1 to 6 discs.
    Small,
    /// Loses 7 to 16 discs.
    Medium,
    /// Loses more than 16 discs.
    Large,
}

impl LossClass {
    /// Every class, from the best moves to the worst.
    pub const ALL: [LossClass; 4] = [
        LossClass::Best,
        LossClass::Small,
        LossClass::Medium,
        LossClass::Large,
    ];

    /// The class of a move that loses `discs` (at least 0).
    #[must_use]
    pub fn of(discs: i32) -> LossClass {
        match discs {
            i32::MIN..=0 => LossClass::Best,
            1..=6 => LossClass::Small,
            7..=16 => LossClass::Medium,
            _ => LossClass::Large,
        }
    }
}

impl fmt::Display for LossClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LossClass::Best => "best",
            LossClass::Small => "loses 1-6",
            LossClass::Medium => "loses 7-16",
            LossClass::Large => "loses 17+",
        })
    }
}

/// The positions after every legal move of each of `parents` (after a
/// pass where the side to move has none and the game goes on), each in its
/// canonical orientation, numbered from 0 in the parents' order and each
/// parent's moves in square order, with its parent's item as its `game`.
/// A finished parent has none.
#[must_use]
pub fn positions_after_moves(parents: &[Label]) -> Vec<ListedPosition> {
    let mut out = Vec::new();
    for parent in parents {
        let p = RelativePosition::of_8x8(parent.position.player, parent.position.opponent);
        let mut children: Vec<RelativePosition> = Bits(p.moves()).map(|sq| p.play(sq)).collect();
        if children.is_empty() && p.pass().moves() != 0 {
            children.push(p.pass());
        }
        for child in children {
            let ((player, opponent), _) = symmetry::canonical(child.player, child.opponent);
            out.push(ListedPosition {
                item: out.len() as u64,
                game: parent.position.item,
                player,
                opponent,
            });
        }
    }
    out
}

/// The training positions off the players' path: in each of `games`, the
/// positions after the legal moves the player did not make (a pass left
/// out), with `empties` empty squares and a move for their side to move,
/// one in `every` of them kept by a hash of (game, ply, square) so that
/// the sample is the same on every run and for any subset of the games,
/// each once up to the symmetries (and none that a game itself reaches),
/// numbered from 0 in game then move order, with its game's index as its
/// `game`. `every` 1 keeps them all.
#[must_use]
pub fn deviation_list(
    games: &[TrainingGame],
    empties: &RangeInclusive<u32>,
    every: u64,
) -> Vec<ListedPosition> {
    // Every position a game reaches before its end (its final position has
    // no move, so no child kept below can be one).
    let on_path: HashSet<(u64, u64)> = games
        .iter()
        .flat_map(|g| super::positions(&g.moves))
        .map(|p| {
            let r = RelativePosition::from(&p);
            super::canonical(r.player, r.opponent)
        })
        .collect();
    let mut seen = HashSet::new();
    let mut list = Vec::new();
    for g in games {
        for (ply, (p, &played)) in super::positions(&g.moves).iter().zip(&g.moves).enumerate() {
            let r = RelativePosition::from(p);
            // The children have one empty square fewer.
            if !empties.contains(&r.empties().count_ones().saturating_sub(1)) {
                continue;
            }
            let deviations = Bits(r.moves())
                .filter(|&sq| played != Move::Place(Square(sq)) && kept(g.index, ply, sq, every))
                .map(|sq| r.play(sq))
                .filter(|child| child.moves() != 0);
            for child in deviations {
                let key = super::canonical(child.player, child.opponent);
                if !on_path.contains(&key) && seen.insert(key) {
                    list.push(ListedPosition {
                        item: list.len() as u64,
                        game: g.index,
                        player: key.0,
                        opponent: key.1,
                    });
                }
            }
        }
    }
    list
}

/// Whether the move to `square` at `ply` of game `game` is one of the
/// `every` that [`deviation_list`] keeps (splitmix64's finaliser over the
/// three, so that neighbouring moves are kept independently).
fn kept(game: u64, ply: usize, square: u8, every: u64) -> bool {
    let mut z = game
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add((ply as u64) << 8 | u64::from(square));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    every <= 1 || z.is_multiple_of(every)
}

/// The errors of estimates of moves' values in one class of loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassError {
    /// The class.
    pub class: LossClass,
    /// How many moves.
    pub moves: usize,
    /// The mean absolute error of the estimated move values, in discs.
    pub mean_abs_error: f64,
    /// The mean of estimate minus exact value, in discs (positive: the
    /// estimates value the moves too kindly).
    pub bias: f64,
}

/// The rows of [`errors_by_loss`] as a Markdown table titled `title`.
#[must_use]
pub fn loss_table(title: &str, rows: &[ClassError]) -> String {
    let mut s = format!(
        "{title}\n| the move | moves | mean error (discs) | bias (discs) |\n| --- | ---: | ---: | ---: |\n"
    );
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {:.2} | {:+.2} |\n",
            r.class, r.moves, r.mean_abs_error, r.bias
        ));
    }
    let moves: usize = rows.iter().map(|r| r.moves).sum();
    if moves > 0 {
        let weighted = |f: fn(&ClassError) -> f64| {
            rows.iter().map(|r| f(r) * r.moves as f64).sum::<f64>() / moves as f64
        };
        s.push_str(&format!(
            "| all | {moves} | {:.2} | {:+.2} |\n",
            weighted(|r| r.mean_abs_error),
            weighted(|r| r.bias)
        ));
    }
    s
}

/// The error of `estimate` (a value of a child position, for its side to
/// move) on the moves of `children`, exact labels of positions after the
/// moves of the exact labels `parents` (each child's `game` is its
/// parent's item), grouped by the move's loss: a move's value is minus its
/// child's, and its loss the parent's value minus the move's. Classes with
/// no move are left out.
///
/// # Errors
/// A child whose parent is not among `parents`, or a label that is not
/// exact.
pub fn errors_by_loss(
    parents: &[Label],
    children: &[Label],
    estimate: impl Fn(&Label) -> Eval,
) -> Result<Vec<ClassError>, String> {
    errors_by_loss_where_known(parents, children, |c| Some(estimate(c)), LossBy::Exact)
}

/// [`errors_by_loss`] with the moves grouped by their *estimated* loss:
/// the best estimated move of the parent minus the move's estimate,
/// rounded to whole discs. A static evaluation regresses toward its mean
/// when grouped by the exact loss (the best moves look worse than they
/// are, the worst better), which no least-squares fit can remove; grouped
/// by what it estimates, a bias is its own.
///
/// # Errors
/// As [`errors_by_loss`].
pub fn errors_by_estimated_loss(
    parents: &[Label],
    children: &[Label],
    estimate: impl Fn(&Label) -> Eval,
) -> Result<Vec<ClassError>, String> {
    errors_by_loss_where_known(parents, children, |c| Some(estimate(c)), LossBy::Estimate)
}

/// Which loss [`errors_by_loss_where_known`] groups the moves by.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LossBy {
    /// The exact loss.
    Exact,
    /// The loss the estimates give.
    Estimate,
}

/// The values that a ranking of each parent's moves gives the positions
/// after them, for [`errors_by_loss_of_ranking`]: keyed by the parent's item
/// and the child's canonical form, minus the move's value (a child's value
/// is for its own side to move).
#[derive(Clone, Debug, Default)]
pub struct RankedChildren(HashMap<(u64, u64, u64), Eval>);

impl RankedChildren {
    /// Ranks every move of each parent with `rank` (given the parent as a
    /// [`Position`] with black to move, it returns every legal move's
    /// value, as `hint --moves 64` or the coach does) and keeps each
    /// move's value as its child's.
    pub fn rank(parents: &[Label], mut rank: impl FnMut(&Position) -> Vec<MoveValue>) -> Self {
        let mut values = HashMap::new();
        for parent in parents {
            let r = RelativePosition::of_8x8(parent.position.player, parent.position.opponent);
            let position = Position {
                board: r.to_board(Color::Black),
                to_move: Color::Black,
            };
            for v in rank(&position) {
                let child = match v.mv {
                    Move::Place(sq) => r.play(sq.0),
                    Move::Pass => r.pass(),
                };
                let ((player, opponent), _) = symmetry::canonical(child.player, child.opponent);
                values.insert(
                    (parent.position.item, player, opponent),
                    Eval(-v.value.to_eval().0),
                );
            }
        }
        RankedChildren(values)
    }

    /// The value the ranking gave `child` (a position after a move of its
    /// parent, `child.position.game`), if it ranked that move.
    #[must_use]
    pub fn get(&self, child: &Label) -> Option<Eval> {
        let p = &child.position;
        self.0.get(&(p.game, p.player, p.opponent)).copied()
    }
}

/// [`errors_by_loss`] of the moves' values in a ranking of each parent's
/// moves ([`RankedChildren`]) instead of a static estimate.
///
/// # Errors
/// As [`errors_by_loss`], and a move the ranking left out.
pub fn errors_by_loss_of_ranking(
    parents: &[Label],
    children: &[Label],
    ranked: &RankedChildren,
) -> Result<Vec<ClassError>, String> {
    errors_by_loss_where_known(parents, children, |c| ranked.get(c), LossBy::Exact)
}

message_error! {
    /// Why a held-out file cannot give the parents of `train
    /// heldout-moves`: one of its positions is not labelled exactly (the
    /// message names it).
    pub struct NotExact(pub String);
}

/// The parents whose moves `train heldout-moves` measures: `count` of the
/// exact labels `all` (all of them when `None`, never more than all),
/// spread evenly over them in their order.
///
/// # Errors
/// [`NotExact`] naming the first label of `all` that is not exact.
pub fn spread_parents(all: &[Label], count: Option<usize>) -> Result<Vec<Label>, NotExact> {
    if let Some(l) = all.iter().find(|l| l.source != LabelSource::Exact) {
        return Err(NotExact(format!(
            "position {} is not labelled exactly; give a `train heldout` file",
            l.position.item
        )));
    }
    let count = count.unwrap_or(all.len()).min(all.len());
    Ok((0..count).map(|i| all[i * all.len() / count]).collect())
}

/// The fewest and the most empty squares of the positions of `list`
/// (`(0, 0)` for none).
#[must_use]
pub fn empties_span(list: &[ListedPosition]) -> (u32, u32) {
    let empties = |p: &ListedPosition| 64 - (p.player | p.opponent).count_ones();
    let fewest = list.iter().map(empties).min().unwrap_or(0);
    let most = list.iter().map(empties).max().unwrap_or(0);
    (fewest, most)
}

/// [`errors_by_loss_of_ranking`] of the values that level `level` (with
/// `weights`, no clock) gives every move of each parent, as `reversi hint
/// --level L --moves 64` ranks them: a fresh [`Analyzer`] for each parent,
/// so that no table is carried from one to the next. `ranked` hears how
/// many parents are done after each.
///
/// # Errors
/// As [`errors_by_loss_of_ranking`].
pub fn level_errors_by_loss(
    parents: &[Label],
    children: &[Label],
    weights: &Arc<PatternWeights>,
    level: u32,
    mut ranked: impl FnMut(usize),
) -> Result<Vec<ClassError>, String> {
    let limits = Limits {
        level: Some(level),
        time: None,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut done = 0;
    let ranking = RankedChildren::rank(parents, |p| {
        let mut engine = Analyzer::new().with_weights(Arc::clone(weights));
        let values = engine.rank_moves(p, 64, &limits, &stop, &mut |_| {});
        done += 1;
        ranked(done);
        values
    });
    errors_by_loss_of_ranking(parents, children, &ranking)
}

fn errors_by_loss_where_known(
    parents: &[Label],
    children: &[Label],
    estimate: impl Fn(&Label) -> Option<Eval>,
    by: LossBy,
) -> Result<Vec<ClassError>, String> {
    let by_item: HashMap<u64, &Label> = parents.iter().map(|p| (p.position.item, p)).collect();
    // The best estimated move of each parent: minus its child's estimate.
    let mut best_estimate: HashMap<u64, i32> = HashMap::new();
    for child in children {
        if let Some(e) = estimate(child) {
            let value = -e.0;
            best_estimate
                .entry(child.position.game)
                .and_modify(|b| *b = (*b).max(value))
                .or_insert(value);
        }
    }
    let mut sums: HashMap<LossClass, (usize, f64, f64)> = HashMap::new();
    for child in children {
        let parent = by_item.get(&child.position.game).ok_or_else(|| {
            format!(
                "position {} follows position {}, which the parents do not hold",
                child.position.item, child.position.game
            )
        })?;
        for label in [*parent, child] {
            if label.source != LabelSource::Exact {
                return Err(format!(
                    "position {} is not labelled exactly",
                    label.position.item
                ));
            }
        }
        let exact_move = -child.value.0;
        let loss = (parent.value.0 - exact_move) / Eval::PER_DISC;
        let estimated = estimate(child).ok_or_else(|| {
            format!(
                "position {} (after a move of position {}) has no estimate",
                child.position.item, child.position.game
            )
        })?;
        let error = f64::from(-estimated.0 - exact_move) / f64::from(Eval::PER_DISC);
        let class = match by {
            LossBy::Exact => LossClass::of(loss),
            LossBy::Estimate => {
                let best = best_estimate[&child.position.game];
                let estimated_loss = f64::from(best + estimated.0) / f64::from(Eval::PER_DISC);
                LossClass::of(estimated_loss.round() as i32)
            }
        };
        let sum = sums.entry(class).or_default();
        sum.0 += 1;
        sum.1 += error.abs();
        sum.2 += error;
    }
    Ok(LossClass::ALL
        .iter()
        .filter_map(|&class| {
            let &(moves, abs, signed) = sums.get(&class)?;
            Some(ClassError {
                class,
                moves,
                mean_abs_error: abs / moves as f64,
                bias: signed / moves as f64,
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EndgameSolver, Scoring};
    use crate::game::Game;
    use crate::reversi::Reversi;

    fn exact(item: u64, game: u64, player: u64, opponent: u64) -> Label {
        let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 16);
        let score = solver
            .solve(&RelativePosition::of_8x8(player, opponent))
            .score;
        Label {
            position: ListedPosition {
                item,
                game,
                player,
                opponent,
            },
            value: score.eval(),
            source: LabelSource::Exact,
        }
    }

    /// A position of a random game about `empties` empty squares from
    /// its end, the game still going on.
    fn late_position(empties: u32, seed: u64) -> (u64, u64) {
        let mut rng = crate::rng::Rng::new(seed);
        loop {
            let p = crate::reversi::random_position(8, 60 - empties as usize, &mut rng);
            let r = RelativePosition::from(&p);
            if !r.is_game_over() {
                return (r.player, r.opponent);
            }
        }
    }

    /// A random finished game of index `index`.
    fn random_training_game(index: u64) -> TrainingGame {
        let game = Reversi::DISC_DIFFERENCE;
        let mut rng = crate::rng::Rng::new(index + 100);
        let mut p = Position::start(8);
        let mut moves = Vec::new();
        loop {
            let legal: Vec<Move> = game.moves(&p).collect();
            if legal.is_empty() {
                break;
            }
            let mv = *rng.pick(&legal);
            moves.push(mv);
            p = game.play(&p, mv);
        }
        TrainingGame {
            index,
            moves,
            solved_at: 0,
            score: 0,
        }
    }

    /// Against a slow reference over boards and colours: every position
    /// after a move not played, with the empties asked and a move to make,
    /// off every game's path, once up to symmetry; a sample of one in 3
    /// is a subset of about a third, the same for the games alone.
    #[test]
    fn deviations_are_the_positions_after_the_moves_not_played() {
        let games: Vec<TrainingGame> = (0..6).map(random_training_game).collect();
        let empties = 20..=40;
        let game = Reversi::DISC_DIFFERENCE;
        let canonical_of = |p: &Position| {
            let r = RelativePosition::from(p);
            symmetry::canonical(r.player, r.opponent).0
        };
        let mut path = HashSet::new();
        for g in &games {
            let mut p = Position::start(8);
            for &mv in &g.moves {
                p = game.play(&p, mv);
                path.insert(canonical_of(&p));
            }
        }
        let mut expected = Vec::new();
        for g in &games {
            let mut p = Position::start(8);
            for &played in &g.moves {
                for mv in game.moves(&p) {
                    let child = game.play(&p, mv);
                    let e = child.board.empty().count_ones();
                    let key = canonical_of(&child);
                    if mv != played
                        && mv != Move::Pass
                        && empties.contains(&e)
                        && game.moves(&child).any(|m| m != Move::Pass)
                        && !path.contains(&key)
                        && !expected.contains(&key)
                    {
                        expected.push(key);
                    }
                }
                p = game.play(&p, played);
            }
        }
        let all = deviation_list(&games, &empties, 1);
        let got: Vec<(u64, u64)> = all.iter().map(|l| (l.player, l.opponent)).collect();
        assert_eq!(got, expected);
        assert!(all.iter().enumerate().all(|(i, l)| l.item == i as u64));
        let third = deviation_list(&games, &empties, 3);
        assert!(third.iter().all(|l| got.contains(&(l.player, l.opponent))));
        let share = third.len() as f64 / all.len() as f64;
        assert!(
            (0.2..0.47).contains(&share),
            "{} of {}",
            third.len(),
            all.len()
        );
        let alone = deviation_list(&games[2..3], &empties, 3);
        assert!(alone.iter().all(|l| l.game == 2));
    }

    #[test]
    fn loss_classes_have_their_stated_bounds() {
        let classes: Vec<_> = [0, 1, 6, 7, 16, 17, 64].map(LossClass::of).into();
        assert_eq!(
            classes,
            [
                LossClass::Best,
                LossClass::Small,
                LossClass::Small,
                LossClass::Medium,
                LossClass::Medium,
                LossClass::Large,
                LossClass::Large
            ]
        );
    }

    #[test]
    fn every_legal_move_gives_one_position_after_it() {
        let start = Position::start(8);
        let r = RelativePosition::from(&start);
        // (Not solved: the value plays no part in the positions.)
        let parent = Label {
            position: ListedPosition {
                item: 7,
                game: 0,
                player: r.player,
                opponent: r.opponent,
            },
            value: Eval(0),
            source: LabelSource::Exact,
        };
        let after = positions_after_moves(&[parent]);
        assert_eq!(after.len(), 4, "four opening moves");
        // The four openings are one position up to symmetry.
        assert!(after
            .iter()
            .all(|c| (c.player, c.opponent) == (after[0].player, after[0].opponent)));
        assert!(after.iter().all(|c| c.game == 7));
        assert_eq!(
            after.iter().map(|c| c.item).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        // Black played: the side to move after it is white, with 1 disc.
        assert_eq!(after[0].player.count_ones(), 1);
        assert_eq!(after[0].opponent.count_ones(), 4);
        assert_eq!(start.to_move, Color::Black);
    }

    /// Against the solver: the best moves' children are exactly minus the
    /// parent, every loss is at least 0, and the exact values as their own
    /// estimate have no error.
    #[test]
    fn losses_are_the_parent_minus_each_move_and_exact_estimates_err_by_nothing() {
        let parents: Vec<Label> = (0..4)
            .map(|seed| {
                let (p, o) = late_position(12, seed);
                exact(seed, 0, p, o)
            })
            .collect();
        let after = positions_after_moves(&parents);
        let children: Vec<Label> = after
            .iter()
            .map(|c| exact(c.item, c.game, c.player, c.opponent))
            .collect();
        for parent in &parents {
            let best = children
                .iter()
                .filter(|c| c.position.game == parent.position.item)
                .map(|c| -c.value.0)
                .max()
                .expect("a move");
            assert_eq!(
                best, parent.value.0,
                "the best move keeps the parent's value"
            );
        }
        let rows = errors_by_loss(&parents, &children, |c| c.value).unwrap();
        assert_eq!(rows.iter().map(|r| r.moves).sum::<usize>(), children.len());
        assert!(rows
            .iter()
            .all(|r| r.mean_abs_error == 0.0 && r.bias == 0.0));
        assert_eq!(rows[0].class, LossClass::Best);
        // An estimate one disc too high for every child: every move one
        // disc too low.
        let low = errors_by_loss(&parents, &children, |c| Eval(c.value.0 + 64)).unwrap();
        assert!(low
            .iter()
            .all(|r| r.bias == -1.0 && r.mean_abs_error == 1.0));
        // A ranking that solves every move exactly errs by nothing; one
        // that leaves a move out is refused.
        let limits = crate::engine::analyze::Limits {
            depth: Some(2),
            time: None,
            exact_empties: 20,
            wld_empties: 20,
            ..crate::engine::analyze::Limits::default()
        };
        let mut engine = crate::engine::analyze::Analyzer::new();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let ranked = RankedChildren::rank(&parents, |p| {
            use crate::engine::analyze::MoveSearch;
            engine.rank_moves(p, 64, &limits, &stop, &mut |_| {})
        });
        let rows = errors_by_loss_of_ranking(&parents, &children, &ranked).unwrap();
        assert_eq!(rows.iter().map(|r| r.moves).sum::<usize>(), children.len());
        assert!(
            rows.iter()
                .all(|r| r.mean_abs_error == 0.0 && r.bias == 0.0),
            "{rows:?}"
        );
        let first_only = RankedChildren::rank(&parents, |p| {
            use crate::engine::analyze::MoveSearch;
            engine.rank_moves(p, 1, &limits, &stop, &mut |_| {})
        });
        assert!(errors_by_loss_of_ranking(&parents, &children, &first_only)
            .unwrap_err()
            .contains("has no estimate"));
        // A child of no parent is refused.
        let orphan = Label {
            position: ListedPosition {
                game: 99,
                ..children[0].position
            },
            ..children[0]
        };
        assert!(errors_by_loss(&parents, &[orphan], |c| c.value).is_err());

        // By the estimated loss: exact estimates class every move as the
        // exact loss does.
        let exact_rows = errors_by_loss(&parents, &children, |c| c.value).unwrap();
        let estimated_rows = errors_by_estimated_loss(&parents, &children, |c| c.value).unwrap();
        assert_eq!(estimated_rows, exact_rows);
        // An estimate that values every move alike (every child 0): every
        // move is a best move by the estimate, its error the move's value.
        let flat = errors_by_estimated_loss(&parents, &children, |_| Eval(0)).unwrap();
        assert_eq!(flat.len(), 1);
        assert_eq!(flat[0].class, LossClass::Best);
        assert_eq!(flat[0].moves, children.len());
        let mean_move = children
            .iter()
            .map(|c| f64::from(c.value.0) / 64.0)
            .sum::<f64>()
            / children.len() as f64;
        assert!((flat[0].bias - mean_move).abs() < 1e-9, "{flat:?}");
        // An estimate that swaps the best and the worst moves of a parent
        // puts the best in the worst move's class, too harsh, and the
        // worst in "best", too kind.
        let by_parent = |item: u64| -> Vec<&Label> {
            children
                .iter()
                .filter(|c| c.position.game == item)
                .collect()
        };
        let moves = by_parent(parents[0].position.item);
        let best = moves.iter().min_by_key(|c| c.value.0).unwrap().position;
        let worst = moves.iter().max_by_key(|c| c.value.0).unwrap().position;
        let swapped = |c: &Label| {
            if c.position == best {
                Eval(moves.iter().map(|c| c.value.0).max().unwrap())
            } else if c.position == worst {
                Eval(moves.iter().map(|c| c.value.0).min().unwrap())
            } else {
                c.value
            }
        };
        let only_first: Vec<Label> = moves.iter().map(|c| **c).collect();
        let rows = errors_by_estimated_loss(&parents[..1], &only_first, swapped).unwrap();
        let exact_first = errors_by_loss(&parents[..1], &only_first, |c| c.value).unwrap();
        let worst_class = exact_first.last().unwrap().class;
        if worst_class != LossClass::Best {
            let best_row = rows.iter().find(|r| r.class == LossClass::Best).unwrap();
            assert!(
                best_row.bias > 0.0,
                "the worst move valued as the best: {rows:?}"
            );
            let worst_row = rows.iter().find(|r| r.class == worst_class).unwrap();
            assert!(worst_row.bias < 0.0, "{rows:?}");
        }
    }

    #[test]
    fn parents_are_spread_evenly_and_must_be_exact() {
        let (p, o) = late_position(12, 1);
        let all: Vec<Label> = (0..10)
            .map(|item| Label {
                position: ListedPosition {
                    item,
                    game: 0,
                    player: p,
                    opponent: o,
                },
                value: Eval(0),
                source: LabelSource::Exact,
            })
            .collect();
        let items = |count| -> Vec<u64> {
            spread_parents(&all, count)
                .expect("exact")
                .iter()
                .map(|l| l.position.item)
                .collect()
        };
        assert_eq!(items(Some(3)), [0, 3, 6]);
        assert_eq!(items(Some(4)), [0, 2, 5, 7]);
        assert_eq!(items(None), (0..10).collect::<Vec<_>>());
        assert_eq!(items(Some(25)), (0..10).collect::<Vec<_>>());
        assert_eq!(items(Some(0)), Vec::<u64>::new());
        assert!(spread_parents(&[], None).expect("none").is_empty());
        let mut searched = all.clone();
        searched[7].source = LabelSource::Search(4);
        assert_eq!(
            spread_parents(&searched, Some(2)),
            Err(NotExact(
                "position 7 is not labelled exactly; give a `train heldout` file".to_owned()
            ))
        );
        // The start (60 empty squares) and a position of 12.
        let start = RelativePosition::from(&Position::start(8));
        let list = [
            all[0].position,
            ListedPosition {
                player: start.player,
                opponent: start.opponent,
                ..all[1].position
            },
        ];
        assert_eq!(empties_span(&list), (12, 60));
        assert_eq!(empties_span(&list[..1]), (12, 12));
        assert_eq!(empties_span(&[]), (0, 0));
    }

    /// Level 4 solves 12 empty squares exactly: its move list errs by
    /// nothing, and it hears of each parent once, in order.
    #[test]
    fn a_level_that_solves_errs_by_nothing() {
        let parents: Vec<Label> = (0..3)
            .map(|seed| {
                let (p, o) = late_position(12, seed + 10);
                exact(seed, 0, p, o)
            })
            .collect();
        let children: Vec<Label> = positions_after_moves(&parents)
            .iter()
            .map(|c| exact(c.item, c.game, c.player, c.opponent))
            .collect();
        let weights = PatternWeights::shared_embedded();
        let mut heard = Vec::new();
        let rows = level_errors_by_loss(&parents, &children, weights, 4, |done| heard.push(done))
            .expect("every move ranked");
        assert_eq!(heard, [1, 2, 3]);
        assert_eq!(rows.iter().map(|r| r.moves).sum::<usize>(), children.len());
        assert!(
            rows.iter()
                .all(|r| r.mean_abs_error == 0.0 && r.bias == 0.0),
            "{rows:?}"
        );
    }
}
