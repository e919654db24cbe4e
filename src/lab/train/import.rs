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
//!
//! [`ImportRun`] applies the rules to every game of the collections given
//! (their form sniffed by [`form_by_name`] and [`form_by_head`], their
//! games read one at a time by a [`CollectionReader`]) and keeps the tally, the
//! [`ImportReport`], the dropped games' list and the theoretical labels.

use super::formats::dropped;
use super::labels::{position_list, Label, LabelSource, ListedPosition};
use super::{canonical, TrainingGame};
use crate::board::symmetry;
use crate::board::Color;
use crate::engine::{parse_obf_file, RelativePosition};
use crate::record::archive::{ArchiveGame, TheoreticalScore};
use crate::record::collection::normalised_moves;
/// The collections' forms and readers, the product's
/// ([`crate::record::collection`]), named here for the lab's callers.
pub use crate::record::collection::{
    form_by_head, form_by_name, known_form, CollectionError, CollectionReader, Form, SNIFFED_BYTES,
};
use crate::record::{standard_score, GameRecord};
use crate::reversi::Position;
use crate::units::Eval;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write as _};
use std::io::{self, Write};

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
    /// Games kept so far.
    kept: u64,
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
            kept: 0,
            games: Vec::new(),
        }
    }

    /// Takes one game from the 8x8 start.
    pub fn add(&mut self, record: &GameRecord) -> Verdict {
        if record.start != Position::start(8) || !record.last().board.is_game_over() {
            return Verdict::Unfinished;
        }
        let moves = record.move_list();
        if !self.seen.insert(normalised_moves(&moves)) {
            return Verdict::Duplicate;
        }
        if let Some(number) = record.positions().iter().find_map(|p| self.ffo_number(p)) {
            return Verdict::Ffo(number);
        }
        let index = self.kept;
        self.kept += 1;
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

/// What became of one collection's games (or of all of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileCounts {
    /// Games read.
    pub read: u64,
    /// Dropped as unfinished.
    pub unfinished: u64,
    /// Dropped as duplicates.
    pub duplicate: u64,
    /// Dropped as passing through an FFO position.
    pub ffo: u64,
    /// Kept.
    pub kept: u64,
    /// Finished games whose stated score is not their moves'.
    pub score_disagrees: u64,
}

impl FileCounts {
    fn add(&mut self, other: &FileCounts) {
        self.read += other.read;
        self.unfinished += other.unfinished;
        self.duplicate += other.duplicate;
        self.ffo += other.ffo;
        self.kept += other.kept;
        self.score_disagrees += other.score_disagrees;
    }

    /// The counts as a row of [`ImportReport::table`], named `name`.
    fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {} | {} | {} | {} | {} |\n",
            self.read, self.unfinished, self.duplicate, self.ffo, self.kept, self.score_disagrees
        )
    }
}

/// The tally of an import: the counts of every collection, in the order
/// read, and the games dropped per FFO position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportReport {
    /// Each collection's name and counts.
    pub files: Vec<(String, FileCounts)>,
    /// Games dropped per FFO position (index 1-79).
    pub ffo_hits: [u64; 80],
}

impl Default for ImportReport {
    fn default() -> ImportReport {
        ImportReport {
            files: Vec::new(),
            ffo_hits: [0; 80],
        }
    }
}

impl ImportReport {
    /// The counts of all collections together.
    #[must_use]
    pub fn total(&self) -> FileCounts {
        let mut total = FileCounts::default();
        for (_, counts) in &self.files {
            total.add(counts);
        }
        total
    }

    /// The report as a Markdown table (a row per collection and one of all
    /// of them), then the FFO positions that dropped games.
    #[must_use]
    pub fn table(&self) -> String {
        let mut table = String::from(
            "| file | games read | unfinished | duplicates | through an FFO position | kept | stated score not the moves' |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        );
        for (name, counts) in &self.files {
            table.push_str(&counts.row(name));
        }
        table.push_str(&self.total().row("all"));
        let hit: Vec<String> = (1..80)
            .filter(|&n| self.ffo_hits[n] > 0)
            .map(|n| format!("#{n}: {}", self.ffo_hits[n]))
            .collect();
        let hit = if hit.is_empty() {
            "none".to_owned()
        } else {
            hit.join(", ")
        };
        table.push_str(&format!(
            "\nGames dropped per FFO position (after duplicates): {hit}\n"
        ));
        table
    }
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.table())
    }
}

/// An import under way: the collections' games given one file at a time,
/// each kept or dropped by the module's rules, tallied, listed when
/// dropped (if asked), and the kept WTHOR games' theoretical scores made
/// labels.
pub struct ImportRun {
    importer: Importer,
    report: ImportReport,
    list_dropped: bool,
    theoretical: Vec<Label>,
    /// Each labelled position's value, `None` once two games value it
    /// differently (a header depth of 60 labels every game's start
    /// position): such a position keeps no label.
    valued: HashMap<(u64, u64), Option<Eval>>,
}

/// Where an import writes as it goes: the kept games' lines
/// ([`TrainingGame::to_line`], the games file's body) and, when asked,
/// the dropped-games list's lines ([`dropped::line`], after its header).
pub struct Sinks<'a> {
    /// The kept games' lines.
    pub games: &'a mut dyn Write,
    /// The dropped games' lines, when listed.
    pub dropped: Option<&'a mut dyn Write>,
}

/// Why [`ImportRun::add_file`] stopped.
#[derive(Debug)]
pub enum ImportError<E> {
    /// The collection's reader failed.
    Collection(E),
    /// Writing a kept game failed.
    Games(io::Error),
    /// Writing a dropped game failed.
    Dropped(io::Error),
}

/// What an import made besides the lines written to its [`Sinks`]: how
/// many games were kept, the theoretical labels and the tally.
pub struct Imported {
    /// How many games were kept (and written).
    pub kept: u64,
    /// The theoretical labels of the kept WTHOR `.wtb` games.
    pub theoretical: Vec<Label>,
    /// The tally.
    pub report: ImportReport,
    /// Theoretical labels left out because games value their position
    /// differently: how many labels, of how many positions.
    pub theoretical_left_out: (usize, usize),
}

impl Imported {
    /// The import's table ([`ImportReport::table`]) and, when the
    /// theoretical labels were written (`labels_written`) and some left
    /// out, the line saying how many.
    #[must_use]
    pub fn table(&self, labels_written: bool) -> String {
        let mut table = self.report.table();
        let (left_out, positions) = self.theoretical_left_out;
        if labels_written && left_out > 0 {
            let _ = writeln!(
                table,
                "Theoretical scores left out: {left_out} games' of {positions} positions that games value differently"
            );
        }
        table
    }
}

impl ImportRun {
    /// A run dropping the games through the FFO positions; `list_dropped`:
    /// whether to list the dropped games.
    #[must_use]
    pub fn new(list_dropped: bool) -> ImportRun {
        ImportRun::with(Importer::default(), list_dropped)
    }

    /// A run of `importer`'s rules; `list_dropped`: whether to list the
    /// dropped games.
    #[must_use]
    pub fn with(importer: Importer, list_dropped: bool) -> ImportRun {
        ImportRun {
            importer,
            report: ImportReport::default(),
            list_dropped,
            theoretical: Vec::new(),
            valued: HashMap::new(),
        }
    }

    /// Takes every game of the collection `name`, in order, as `games`
    /// reads them (one at a time: nothing of a game is kept but its
    /// duplicates' key and its theoretical label), writing the kept and
    /// dropped games' lines to `sinks` as they come; returns its counts.
    ///
    /// # Errors
    /// The first error `games` gives or the first write that fails: the
    /// collection's counts are then not in the report.
    pub fn add_file<E>(
        &mut self,
        name: &str,
        games: impl IntoIterator<Item = Result<ArchiveGame, E>>,
        sinks: &mut Sinks<'_>,
    ) -> Result<FileCounts, ImportError<E>> {
        let mut counts = FileCounts::default();
        for (i, game) in games.into_iter().enumerate() {
            let game = game.map_err(ImportError::Collection)?;
            self.add_game(name, i + 1, &game, &mut counts, sinks)?;
        }
        self.report.files.push((name.to_owned(), counts));
        Ok(counts)
    }

    /// Takes game `number` of the collection `name` into `counts`.
    fn add_game<E>(
        &mut self,
        name: &str,
        number: usize,
        game: &ArchiveGame,
        counts: &mut FileCounts,
        sinks: &mut Sinks<'_>,
    ) -> Result<(), ImportError<E>> {
        counts.read += 1;
        if game.stated_score_agrees() == Some(false) {
            counts.score_disagrees += 1;
        }
        let why = match self.importer.add(&game.record) {
            Verdict::Kept(index) => {
                counts.kept += 1;
                if let Some(kept) = self.importer.games.pop() {
                    writeln!(sinks.games, "{}", kept.to_line()).map_err(ImportError::Games)?;
                }
                let item = self.theoretical.len() as u64;
                let label = game
                    .theoretical_score
                    .and_then(|t| theoretical_label(item, index, &game.record, t));
                if let Some(label) = label {
                    let key = (label.position.player, label.position.opponent);
                    let value = self.valued.entry(key).or_insert(Some(label.value));
                    if *value != Some(label.value) {
                        *value = None;
                    }
                    self.theoretical.push(label);
                }
                return Ok(());
            }
            Verdict::Unfinished => {
                counts.unfinished += 1;
                "unfinished".to_owned()
            }
            Verdict::Duplicate => {
                counts.duplicate += 1;
                "duplicate".to_owned()
            }
            Verdict::Ffo(n) => {
                counts.ffo += 1;
                self.report.ffo_hits[n] += 1;
                format!("FFO #{n}")
            }
        };
        if let (true, Some(list)) = (self.list_dropped, &mut sinks.dropped) {
            let line = dropped::line(name, number, &why, &game.record);
            writeln!(list, "{line}").map_err(ImportError::Dropped)?;
        }
        Ok(())
    }

    /// The import's result: the theoretical labels of positions that games
    /// value differently left out, the others numbered anew in order.
    #[must_use]
    pub fn finish(self) -> Imported {
        let mut theoretical = self.theoretical;
        let labelled = theoretical.len();
        let valued = self.valued;
        theoretical.retain(|l| valued[&(l.position.player, l.position.opponent)].is_some());
        for (item, label) in theoretical.iter_mut().enumerate() {
            label.position.item = item as u64;
        }
        let contradicted = valued.values().filter(|v| v.is_none()).count();
        Imported {
            kept: self.importer.kept,
            theoretical_left_out: (labelled - theoretical.len(), contradicted),
            theoretical,
            report: self.report,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::record::parse_game;
    use crate::reversi::Move;

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

    /// An archive game of `record` stating `stated`.
    fn archived(record: GameRecord, stated: Option<i32>) -> ArchiveGame {
        ArchiveGame {
            record,
            stated_score: stated,
            theoretical_score: None,
        }
    }

    /// `games` as a reader that finds nothing wrong gives them.
    fn read(
        games: &[ArchiveGame],
    ) -> impl Iterator<Item = Result<ArchiveGame, CollectionError>> + '_ {
        games.iter().cloned().map(Ok)
    }

    #[test]
    fn an_import_run_tallies_lists_and_reports_every_game() {
        let finished = game(LINE);
        let mut run = ImportRun::with(Importer::new(&[]), true);
        let (mut kept, mut dropped) = (Vec::new(), Vec::new());
        let mut sinks = Sinks {
            games: &mut kept,
            dropped: Some(&mut dropped),
        };
        // A stated score no game can end with.
        let a = [
            archived(finished.clone(), Some(100)),
            archived(game("f5d6c3"), None),
        ];
        let counts = run.add_file("a.gam", read(&a), &mut sinks).expect("read");
        assert_eq!(
            (
                counts.read,
                counts.unfinished,
                counts.kept,
                counts.score_disagrees
            ),
            (2, 1, 1, 1)
        );
        // The same game under a symmetry that keeps the start.
        let start = Position::start(8).board.discs(Color::Black);
        let s = (1..8)
            .find(|&s| symmetry::image(start, s) == start)
            .expect("a symmetry of the start");
        let copy = image(&finished, s);
        run.add_file("b.pgn", read(&[archived(copy.clone(), None)]), &mut sinks)
            .expect("read");
        let done = run.finish();
        assert_eq!(done.kept, 1);
        assert!(done.theoretical.is_empty());
        let kept_line = TrainingGame::parse_line(std::str::from_utf8(&kept).unwrap().trim_end());
        assert_eq!(kept_line.expect("a game").moves, finished.move_list());
        assert_eq!(
            String::from_utf8(dropped).expect("text"),
            format!(
                "a.gam\t2\tunfinished\tf5d6c3\nb.pgn\t1\tduplicate\t{}\n",
                crate::record::write_transcript(&copy)
            )
        );
        assert_eq!(
            done.report.to_string(),
            "| file | games read | unfinished | duplicates | through an FFO position | kept | stated score not the moves' |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n| a.gam | 2 | 1 | 0 | 0 | 1 | 1 |\n| b.pgn | 1 | 0 | 1 | 0 | 0 | 0 |\n| all | 3 | 1 | 1 | 0 | 1 | 1 |\n\nGames dropped per FFO position (after duplicates): none\n"
        );

        // A game through a forbidden position: counted per position, and
        // not listed when no list is asked for.
        let p = finished.positions()[20];
        let forbidden = (p.board.discs(p.to_move), p.board.discs(p.to_move.other()));
        let mut run = ImportRun::with(Importer::new(&[(0, 0), forbidden]), false);
        let (mut kept, mut dropped) = (Vec::new(), Vec::new());
        let mut sinks = Sinks {
            games: &mut kept,
            dropped: Some(&mut dropped),
        };
        run.add_file("c.gam", read(&[archived(finished, None)]), &mut sinks)
            .expect("read");
        let done = run.finish();
        assert!(done.kept == 0 && kept.is_empty() && dropped.is_empty());
        assert_eq!(done.report.total().ffo, 1);
        assert!(done
            .report
            .table()
            .ends_with("\nGames dropped per FFO position (after duplicates): #2: 1\n"));
    }

    /// The left-out line follows the tally only when labels were written
    /// and some were left out.
    #[test]
    fn the_table_says_which_theoretical_scores_were_left_out() {
        let done = |left_out| Imported {
            kept: 0,
            theoretical: Vec::new(),
            report: ImportReport::default(),
            theoretical_left_out: left_out,
        };
        let tally = ImportReport::default().table();
        assert!(tally.ends_with("(after duplicates): none\n"), "{tally}");
        assert_eq!(done((3, 1)).table(false), tally);
        assert_eq!(done((0, 0)).table(true), tally);
        assert_eq!(
            done((3, 1)).table(true),
            format!("{tally}Theoretical scores left out: 3 games' of 1 positions that games value differently\n")
        );
    }
}
