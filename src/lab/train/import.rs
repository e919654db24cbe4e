//! Games of the world's collections (WTHOR, Logistello's; read by
//! [`crate::record::archive`]) made training games: finished games only,
//! each once across all sources, none that passes through an FFO test
//! position.
//!
//! The rules, in the order they are applied to each game:
//! 1. An unfinished game (resigned, lost on time, cut short) is dropped:
//!    a training game is labelled with its final score, and a guessed one
//!    would mislabel every position of the game.
//! 2. A game whose moves, up to the board's symmetries, are those of a
//!    game met before (in any source) is a duplicate and dropped: the
//!    first source given keeps it.
//! 3. A game that passes through any of the 79 FFO endgame test positions
//!    (under any of the 8 symmetries, with the same side to move) is
//!    dropped, so that the evaluation is never shown the solution of a
//!    position it is measured on.
//!
//! A kept game becomes a [`TrainingGame`] numbered in the order kept, its
//! score the final disc difference of its moves (empty squares to the
//! winner), with no exactly solved part (`solved_at` is its length).

use super::labels::{position_list, Label, LabelSource, ListedPosition};
use super::{canonical, TrainingGame};
use crate::board::symmetry;
use crate::board::{Color, Square};
use crate::engine::{parse_obf_file, RelativePosition};
use crate::record::archive::TheoreticalScore;
use crate::record::{standard_score, GameRecord};
use crate::reversi::{Move, Position};
use crate::units::Eval;
use std::collections::{HashMap, HashSet};

/// The FFO endgame test positions #1-#79, in order.
const FFO_FILES: [&str; 4] = [
    include_str!("../../../tests/data/ffo/fforum-1-19.obf"),
    include_str!("../../../tests/data/ffo/fforum-20-39.obf"),
    include_str!("../../../tests/data/ffo/fforum-40-59.obf"),
    include_str!("../../../tests/data/ffo/fforum-60-79.obf"),
];

/// The FFO test positions #1-#79 as (side to move's discs, other side's
/// discs), numbered from 1.
///
/// # Panics
/// Never: the embedded files are checked by the tests.
#[must_use]
pub fn ffo_positions() -> Vec<(u64, u64)> {
    FFO_FILES
        .iter()
        .flat_map(|text| parse_obf_file(text).expect("the FFO files are OBF"))
        .map(|p| (p.position.player, p.position.opponent))
        .collect()
}

/// What became of a game given to an [`Importer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Kept as the training game of this index.
    Kept(u64),
    /// Dropped: the moves do not end the game.
    Unfinished,
    /// Dropped: the same moves (up to symmetry) came before.
    Duplicate,
    /// Dropped: the game passes through this FFO position (1-79).
    Ffo(usize),
}

/// Collects training games from records, applying the module's rules.
pub struct Importer {
    /// FFO positions by their canonical key, with their numbers.
    ffo: HashMap<(u64, u64), usize>,
    /// The normalised move sequences of every finished game met.
    seen: HashSet<Vec<u8>>,
    games: Vec<TrainingGame>,
}

impl Default for Importer {
    fn default() -> Importer {
        Importer::new(&ffo_positions())
    }
}

impl Importer {
    /// An importer that drops the games through `forbidden` positions
    /// (side to move's discs, other side's; numbered from 1 in messages).
    #[must_use]
    pub fn new(forbidden: &[(u64, u64)]) -> Importer {
        let ffo = forbidden
            .iter()
            .enumerate()
            .map(|(i, &(p, o))| (symmetry::canonical(p, o).0, i + 1))
            .collect();
        Importer {
            ffo,
            seen: HashSet::new(),
            games: Vec::new(),
        }
    }

    /// Takes one game from the 8x8 start.
    pub fn add(&mut self, record: &GameRecord) -> Verdict {
        if record.start != Position::start(8) || !record.last().board.is_game_over() {
            return Verdict::Unfinished;
        }
        let moves = record.move_list();
        if !self.seen.insert(normalised(&moves)) {
            return Verdict::Duplicate;
        }
        if let Some(number) = record.positions().iter().find_map(|p| self.ffo_number(p)) {
            return Verdict::Ffo(number);
        }
        let index = self.games.len() as u64;
        self.games.push(TrainingGame {
            index,
            solved_at: moves.len(),
            score: standard_score(&record.last().board),
            moves,
        });
        Verdict::Kept(index)
    }

    /// The number of the FFO position `p` is (under a symmetry), if any.
    #[must_use]
    pub fn ffo_number(&self, p: &Position) -> Option<usize> {
        let mover = p.board.discs(p.to_move);
        let other = p.board.discs(p.to_move.other());
        self.ffo.get(&symmetry::canonical(mover, other).0).copied()
    }

    /// The games kept, numbered from 0 in the order kept.
    #[must_use]
    pub fn into_games(self) -> Vec<TrainingGame> {
        self.games
    }
}

/// The exact label, numbered `item`, a WTHOR theoretical score gives: the
/// position of game `game` (its training index) with
/// `theoretical.empties` empty squares where the side to move has a move
/// (after a pass there, if one is forced), in canonical orientation,
/// valued for the side to move. `None` when the game never reaches that
/// count with a move to make (it ended earlier), or when the score is no
/// final score (beyond 64 discs: a label its readers would refuse).
///
/// The scores are perfect play (a sample checked against the solver agrees
/// on every game: docs/TRAINING.md), so they label like `train label`'s
/// exact solves, at no cost.
#[must_use]
pub fn theoretical_label(
    item: u64,
    game: u64,
    record: &GameRecord,
    theoretical: TheoreticalScore,
) -> Option<Label> {
    if theoretical.black_score.unsigned_abs() > 64 {
        return None;
    }
    let (at, relative) = record
        .positions()
        .into_iter()
        .filter(|p| p.board.empty().count_ones() == theoretical.empties)
        .map(|p| (p, RelativePosition::from(&p)))
        .find(|(_, r)| r.moves() != 0)?;
    let (player, opponent) = canonical(relative.player, relative.opponent);
    let score = match at.to_move {
        Color::Black => theoretical.black_score,
        Color::White => -theoretical.black_score,
    };
    Some(Label {
        position: ListedPosition {
            item,
            game,
            player,
            opponent,
        },
        value: Eval(score * Eval::PER_DISC),
        source: LabelSource::Exact,
    })
}

/// The moves of a game from the start as square numbers (64 for a pass),
/// under the symmetry of the start position that makes the first move f5:
/// one key for a game and its three images that start the same way.
fn normalised(moves: &[Move]) -> Vec<u8> {
    let start = Position::start(8).board;
    let (black, white) = (start.discs(Color::Black), start.discs(Color::White));
    let f5 = Square::new(4, 5).0;
    let s = match moves.first() {
        Some(Move::Place(first)) => (0..8)
            .find(|&s| {
                symmetry::image(black, s) == black
                    && symmetry::image(white, s) == white
                    && symmetry::square_image(first.0, s) == f5
            })
            .unwrap_or(0),
        _ => 0,
    };
    moves
        .iter()
        .map(|m| match m {
            Move::Place(sq) => symmetry::square_image(sq.0, s),
            Move::Pass => 64,
        })
        .collect()
}

/// The held-out test positions: the positions of `held_out` games with
/// `empties` empty squares whose side to move has a move, each once up to
/// the symmetries, none that occurs (under a symmetry) in any of the
/// `training` games; of those, `count` spread evenly over the list (all
/// if fewer), numbered from 0. Also returns how many were left out for
/// occurring in training.
#[must_use]
pub fn held_out_positions(
    held_out: &[TrainingGame],
    training: &[TrainingGame],
    empties: &std::ops::RangeInclusive<u32>,
    count: usize,
) -> (Vec<ListedPosition>, usize) {
    let mut seen = HashSet::new();
    for g in training {
        let mut p = Position::start(8);
        for &mv in &g.moves {
            if empties.contains(&p.board.empty().count_ones()) {
                let (m, o) = (p.board.discs(p.to_move), p.board.discs(p.to_move.other()));
                seen.insert(symmetry::canonical(m, o).0);
            }
            p = crate::game::Game::play(&crate::reversi::Reversi::DISC_DIFFERENCE, &p, mv);
        }
    }
    let all = position_list(held_out, empties);
    let (unseen, in_training): (Vec<ListedPosition>, Vec<ListedPosition>) = all
        .into_iter()
        .partition(|l| !seen.contains(&(l.player, l.opponent)));
    let n = unseen.len();
    let picked: Vec<ListedPosition> = if n <= count {
        unseen
    } else {
        (0..count).map(|k| unseen[k * n / count]).collect()
    };
    let list = picked
        .into_iter()
        .enumerate()
        .map(|(i, l)| ListedPosition {
            item: i as u64,
            ..l
        })
        .collect();
    (list, in_training.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_game;

    fn game(text: &str) -> GameRecord {
        parse_game(text, 8).unwrap()
    }

    /// A finished game (Logistello's, from d3).
    const LINE: &str = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10";

    /// `record`'s moves under symmetry `s`.
    fn image(record: &GameRecord, s: usize) -> GameRecord {
        let text: String = record
            .move_list()
            .iter()
            .filter_map(|m| match m {
                Move::Place(sq) => Some(Square(symmetry::square_image(sq.0, s)).to_string()),
                Move::Pass => None,
            })
            .collect();
        game(&text)
    }

    #[test]
    fn the_ffo_files_hold_79_positions() {
        let all = ffo_positions();
        assert_eq!(all.len(), 79);
        let distinct: HashSet<_> = all
            .iter()
            .map(|&(p, o)| symmetry::canonical(p, o).0)
            .collect();
        assert_eq!(distinct.len(), 79);
    }

    #[test]
    fn symmetric_copies_are_duplicates_and_unfinished_games_are_dropped() {
        let mut importer = Importer::new(&[]);
        let original = game(LINE);
        assert_eq!(importer.add(&original), Verdict::Kept(0));
        let mut images = 0;
        for s in 1..8 {
            let start = Position::start(8).board;
            if symmetry::image(start.discs(Color::Black), s) != start.discs(Color::Black) {
                continue;
            }
            images += 1;
            assert_eq!(importer.add(&image(&original, s)), Verdict::Duplicate);
        }
        assert_eq!(images, 3);
        assert_eq!(importer.add(&game("f5d6c3")), Verdict::Unfinished);
        let games = importer.into_games();
        assert_eq!(games[0].score, -4);
        assert_eq!(
            TrainingGame::parse_line(&games[0].to_line()).unwrap(),
            games[0]
        );
    }

    #[test]
    fn a_game_through_a_forbidden_position_is_dropped_under_any_symmetry() {
        let original = game(LINE);
        let positions = original.positions();
        let p = positions[30];
        let forbidden = (p.board.discs(p.to_move), p.board.discs(p.to_move.other()));
        for s in [0, 3, 4, 7] {
            let mut importer = Importer::new(&[(1, 2), forbidden]);
            assert_eq!(importer.add(&image(&original, s)), Verdict::Ffo(2));
        }
        // The same discs with the other side to move are another position.
        let swapped = (forbidden.1, forbidden.0);
        let key = symmetry::canonical(swapped.0, swapped.1).0;
        let through = positions.iter().any(|q| {
            let (m, o) = (q.board.discs(q.to_move), q.board.discs(q.to_move.other()));
            symmetry::canonical(m, o).0 == key
        });
        let expected = if through {
            Verdict::Ffo(1)
        } else {
            Verdict::Kept(0)
        };
        assert_eq!(Importer::new(&[swapped]).add(&original), expected);
    }

    #[test]
    fn a_theoretical_score_labels_its_position_for_the_side_to_move() {
        use crate::engine::solve::{EndgameSolver, Scoring};
        let record = game(LINE);
        for empties in [10, 11, 12] {
            let at = record
                .positions()
                .into_iter()
                .find(|p| p.board.empty().count_ones() == empties)
                .unwrap();
            // The exact score of that position, black minus white, as a
            // theoretical score states it.
            let mover_score = EndgameSolver::new(Scoring::Standard)
                .solve(&RelativePosition::from(&at))
                .score
                .0;
            let black_score = if at.to_move == Color::Black {
                mover_score
            } else {
                -mover_score
            };
            let label = theoretical_label(
                3,
                7,
                &record,
                TheoreticalScore {
                    empties,
                    black_score,
                },
            )
            .unwrap();
            assert_eq!(label.value, Eval(mover_score * Eval::PER_DISC));
            assert_eq!((label.position.item, label.position.game), (3, 7));
            let relative = RelativePosition::from(&at);
            assert_eq!(
                (label.position.player, label.position.opponent),
                canonical(relative.player, relative.opponent)
            );
            assert_eq!(Label::parse_line(&label.to_line()), Ok(label));
        }
        let ended = TheoreticalScore {
            empties: 0,
            black_score: -4,
        };
        assert_eq!(theoretical_label(0, 0, &record, ended), None);
        // A score beyond 64 discs (a corrupt score byte) makes no label.
        for black_score in [66, -66, 446] {
            let impossible = TheoreticalScore {
                empties: 10,
                black_score,
            };
            assert_eq!(theoretical_label(0, 0, &record, impossible), None);
        }
    }

    #[test]
    fn held_out_positions_leave_out_the_training_ones_and_spread_evenly() {
        let g = |text: &str, index: u64| {
            let r = game(text);
            TrainingGame {
                index,
                moves: r.move_list(),
                solved_at: r.moves.len(),
                score: r.final_score().unwrap_or(0),
            }
        };
        let a = g(LINE, 0);
        let second = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-a6+b4-a5+a4-e8+b8-h7+g8-b7+g2-g3+h2-a1+f1-e2+h3-a3+a8-a7+h8-g7+a2-b1-g1+h1: +00 10";
        let b = g(second, 1);
        let range = 20..=24;
        let (all, none_seen) = held_out_positions(&[a.clone(), b.clone()], &[], &range, 100);
        assert_eq!(none_seen, 0);
        let (only_b, seen) = held_out_positions(
            &[a.clone(), b.clone()],
            std::slice::from_ref(&a),
            &range,
            100,
        );
        assert_eq!(only_b.len() + seen, all.len());
        assert!(only_b.iter().all(|l| l.game == 1));
        assert!(seen >= 5, "game a's own 20-24 empties");
        let (three, _) = held_out_positions(&[a, b], &[], &range, 3);
        assert_eq!(three.len(), 3);
        assert_eq!(three.iter().map(|l| l.item).collect::<Vec<_>>(), [0, 1, 2]);
    }
}
