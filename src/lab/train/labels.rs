//! Positions labelled by search: the training targets of the phases that
//! exact solving cannot reach.
//!
//! A label stage takes the positions of a games file whose empty squares
//! fall in a range, each once up to the board's symmetries and in the
//! order of the games (the stage's *position list*), and labels each with
//! the value of a full-width search of the pattern evaluation to a fixed
//! depth, or with its exact score when few squares are empty. Trained from
//! the end of the game toward the start, each stage's search leaves fall
//! in phases an earlier stage has trained, so its labels inherit their
//! accuracy instead of a weak game's result.
//!
//! Every label depends only on the position, the settings and the weights
//! (the search's table is emptied before each position), so a stage split
//! into shards ([`crate::lab::shard::Shard`]) and merged gives the same file as one
//! run.

use super::{canonical, is_held_out, positions, TrainingGame};
use crate::engine::midgame::{Level, MidgameSearch};
use crate::engine::RelativePosition;
use crate::eval::pattern::fit::Sample;
use crate::eval::pattern::PatternWeights;
use crate::lab::shard::{Resumable, Shard, StageEvent};
use crate::units::Eval;
use std::collections::HashSet;
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// How a label stage labels its positions.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelSettings {
    /// The positions labelled: those with this many empty squares.
    pub empties: RangeInclusive<u32>,
    /// Positions with at most this many empty squares get their exact
    /// score.
    pub exact_empties: u32,
    /// Plies of the full-width search that labels the others (0: the
    /// evaluation itself, to measure it).
    pub depth: u32,
    /// Multi-ProbCut in that search at this many standard deviations
    /// (`None`: full width).
    pub selectivity: Option<f64>,
}

/// One position of a stage's list, in the canonical orientation (the
/// smallest of its eight images).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListedPosition {
    /// The position's number in the list.
    pub item: u64,
    /// The first game it occurs in (which decides whether it is held out).
    pub game: u64,
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

/// How a label was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelSource {
    /// The exact final score (empty squares to the winner).
    Exact,
    /// A full-width search of this many plies.
    Search(u32),
}

/// A labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    /// The position.
    pub position: ListedPosition,
    /// Its value for the side to move.
    pub value: Eval,
    /// How the value was found.
    pub source: LabelSource,
}

/// Why a line is not a label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelLineError(String);

impl fmt::Display for LabelLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LabelLineError {}

impl fmt::Display for LabelSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabelSource::Exact => f.write_str("exact"),
            LabelSource::Search(d) => write!(f, "d{d}"),
        }
    }
}

/// The deepest search a label may name.
pub const MAX_LABEL_DEPTH: u32 = 60;

/// Whether `value` (1/64 disc) is within the scores' range, -64..64 discs.
fn value_in_range(value: i32) -> bool {
    value.unsigned_abs() <= (64 * Eval::PER_DISC).unsigned_abs()
}

/// A label's position: canonical, two sides that share no square, at
/// least the 4 discs of the start.
fn check_position(player: u64, opponent: u64) -> Result<(), LabelLineError> {
    if player & opponent != 0 {
        return Err(LabelLineError("the two sides share a square".into()));
    }
    if canonical(player, opponent) != (player, opponent) {
        return Err(LabelLineError(
            "the position is not in its canonical orientation".into(),
        ));
    }
    let counted = 64 - (player | opponent).count_ones();
    if counted > 60 {
        return Err(LabelLineError(format!(
            "holds a position of {} discs, fewer than the 4 every game starts with",
            64 - counted
        )));
    }
    Ok(())
}

impl Label {
    /// The label as one line: the item, the game, the side to move's and
    /// the other side's discs (16 hexadecimal digits each), the number of
    /// empty squares, the value in 1/64 disc for the side to move and the
    /// source (`exact` or `d` and the depth); separated by tabs.
    #[must_use]
    pub fn to_line(&self) -> String {
        let p = &self.position;
        format!(
            "{}\t{}\t{:016x}\t{:016x}\t{}\t{}\t{}",
            p.item,
            p.game,
            p.player,
            p.opponent,
            64 - (p.player | p.opponent).count_ones(),
            self.value.0,
            self.source
        )
    }

    /// Reads a line written by [`Label::to_line`], checking that the
    /// position is canonical and holds at least the 4 discs of the start,
    /// that its empty squares are counted right and that the value is
    /// within the scores' range.
    ///
    /// # Errors
    /// What is wrong with the line.
    pub fn parse_line(line: &str) -> Result<Label, LabelLineError> {
        let err = |m: String| Err(LabelLineError(m));
        let fields: Vec<&str> = line.split('\t').collect();
        let [item, game, player, opponent, empties, value, source] = fields[..] else {
            return err(format!(
                "has {} tab-separated fields, expected 7",
                fields.len()
            ));
        };
        let number = |name: &str, text: &str| {
            (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| text.parse::<u64>().ok())
                .flatten()
                .ok_or_else(|| LabelLineError(format!("{name} {text:?} is not a number")))
        };
        let bits = |name: &str, text: &str| {
            (text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| u64::from_str_radix(text, 16).ok())
                .flatten()
                .ok_or_else(|| LabelLineError(format!("{name} {text:?} is not 16 hex digits")))
        };
        let (player, opponent) = (bits("player", player)?, bits("opponent", opponent)?);
        check_position(player, opponent)?;
        let counted = 64 - (player | opponent).count_ones();
        if number("empties", empties)? != u64::from(counted) {
            return err(format!(
                "says {empties} empty squares, the position has {counted}"
            ));
        }
        let value = value
            .parse()
            .ok()
            .filter(|&v| value_in_range(v))
            .ok_or_else(|| {
                LabelLineError(format!("value {value:?} is not within -64..64 discs"))
            })?;
        let source = match source {
            "exact" => LabelSource::Exact,
            s => match s.strip_prefix('d').map(|d| number("depth", d)) {
                Some(Ok(d)) if d <= u64::from(MAX_LABEL_DEPTH) => LabelSource::Search(d as u32),
                _ => return err(format!("source {s:?} is not exact or d and a depth")),
            },
        };
        Ok(Label {
            position: ListedPosition {
                item: number("item", item)?,
                game: number("game", game)?,
                player,
                opponent,
            },
            value: Eval(value),
            source,
        })
    }

    /// Checks what [`Label::parse_line`] checks of a line's label, for
    /// labels read from elsewhere (a packed file): a canonical position of
    /// two sides that share no square with at least the 4 discs of the
    /// start, a value within the scores' range, a search of at most
    /// [`MAX_LABEL_DEPTH`] plies.
    ///
    /// # Errors
    /// What is wrong with the label.
    pub fn check(&self) -> Result<(), LabelLineError> {
        check_position(self.position.player, self.position.opponent)?;
        if !value_in_range(self.value.0) {
            return Err(LabelLineError(format!(
                "value {} is not within -64..64 discs",
                self.value.0
            )));
        }
        match self.source {
            LabelSource::Search(d) if d > MAX_LABEL_DEPTH => Err(LabelLineError(format!(
                "source d{d} searches deeper than {MAX_LABEL_DEPTH} plies"
            ))),
            _ => Ok(()),
        }
    }

    /// The label as a training sample.
    #[must_use]
    pub fn sample(&self) -> Sample {
        Sample {
            p: self.position.player,
            o: self.position.opponent,
            target: self.value.0 as f32 / Eval::PER_DISC as f32,
        }
    }
}

/// The position list of a stage over a label file's positions (`train
/// label --positions`: a held-out set searched at a depth, say): those of
/// `labels` with `empties` empty squares, in the file's order, each once,
/// keeping their games (which decide what is held out), numbered from 0.
#[must_use]
pub fn labelled_list(labels: &[Label], empties: &RangeInclusive<u32>) -> Vec<ListedPosition> {
    let mut seen = HashSet::new();
    let mut list = Vec::new();
    for label in labels {
        let p = label.position;
        let counted = 64 - (p.player | p.opponent).count_ones();
        if empties.contains(&counted) && seen.insert((p.player, p.opponent)) {
            list.push(ListedPosition {
                item: list.len() as u64,
                ..p
            });
        }
    }
    list
}

/// The position list of a stage: the positions of `games` (in game order,
/// then move order) with `empties` empty squares whose side to move has a
/// move, each once up to the symmetries, numbered from 0.
#[must_use]
pub fn position_list(games: &[TrainingGame], empties: &RangeInclusive<u32>) -> Vec<ListedPosition> {
    let mut seen = HashSet::new();
    let mut list = Vec::new();
    for g in games {
        for p in positions(&g.moves) {
            if !empties.contains(&p.board.empty().count_ones()) {
                continue;
            }
            let relative = RelativePosition::from(&p);
            if relative.moves() == 0 {
                continue;
            }
            let (player, opponent) = canonical(relative.player, relative.opponent);
            if seen.insert((player, opponent)) {
                list.push(ListedPosition {
                    item: list.len() as u64,
                    game: g.index,
                    player,
                    opponent,
                });
            }
        }
    }
    list
}

/// A checksum of a position list (FNV-1a over its positions and games), so
/// that shards of different lists are never merged.
#[must_use]
pub fn list_checksum(list: &[ListedPosition]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in list {
        for word in [p.game, p.player, p.opponent] {
            for b in word.to_le_bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    h
}

/// A value within the scores' range (an evaluation may stray beyond it).
fn clamped(value: i32) -> Eval {
    let max = 64 * Eval::PER_DISC;
    Eval(value.clamp(-max, max))
}

/// Labels positions one after another; keep one per thread.
pub struct Labeller {
    search: MidgameSearch,
    weights: Arc<PatternWeights>,
    settings: LabelSettings,
}

impl fmt::Debug for Labeller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Labeller({:?})", self.settings)
    }
}

impl Labeller {
    /// A labeller searching with `weights`.
    #[must_use]
    pub fn new(settings: LabelSettings, weights: &Arc<PatternWeights>) -> Labeller {
        // Exact labels of 16 or more empty squares are worth a larger
        // table for the solver (its score never depends on it).
        let solver_bits = if settings.exact_empties >= 16 { 22 } else { 16 };
        Labeller {
            search: MidgameSearch::with_table_bits(Arc::clone(weights), 16, solver_bits),
            weights: Arc::clone(weights),
            settings,
        }
    }

    /// The label of `position` (which must have a move), the same whatever
    /// this labeller labelled before.
    pub fn label(&mut self, position: ListedPosition) -> Label {
        let pos = RelativePosition::of_8x8(position.player, position.opponent);
        let empties = pos.empties().count_ones();
        if self.settings.depth == 0 && empties > self.settings.exact_empties {
            return Label {
                position,
                value: clamped(self.weights.evaluate(pos.player, pos.opponent)),
                source: LabelSource::Search(0),
            };
        }
        self.search.forget();
        let level = Level {
            depth: self.settings.depth,
            exact_empties: self.settings.exact_empties,
            selectivity: self.settings.selectivity,
        };
        let verdict = self.search.search(&pos, level, None, None);
        Label {
            position,
            value: clamped(verdict.value.0),
            source: if verdict.exact {
                LabelSource::Exact
            } else {
                LabelSource::Search(verdict.depth)
            },
        }
    }
}

/// Labels the positions of `shard` among `list`, from the shard's `skip`th
/// on, on `threads` threads, handing each label to `deliver` in order
/// (`deliver` returns `false` to stop).
pub fn label_positions(
    list: &[ListedPosition],
    settings: &LabelSettings,
    weights: &Arc<PatternWeights>,
    shard: Shard,
    skip: u64,
    threads: usize,
    deliver: impl FnMut(Label) -> bool,
) {
    let total = shard.items_below(list.len() as u64);
    crate::lab::shard::ordered_work(
        total.saturating_sub(skip),
        threads,
        || Labeller::new(settings.clone(), weights),
        |labeller, k| labeller.label(list[shard.item(skip + k) as usize]),
        deliver,
    );
}

/// The training and held-out samples of `labels`, split by their games
/// like [`super::samples`].
#[must_use]
pub fn label_samples(labels: &[Label]) -> (Vec<Sample>, Vec<Sample>) {
    let (held, train): (Vec<&Label>, Vec<&Label>) =
        labels.iter().partition(|l| is_held_out(l.position.game));
    (
        train.iter().map(|l| l.sample()).collect(),
        held.iter().map(|l| l.sample()).collect(),
    )
}

/// What a fit makes of a position that several labels label.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Duplicates {
    /// The first label given is kept (give the exact files first).
    #[default]
    First,
    /// An exact label is kept (the first one); a position labelled only by
    /// searches takes the mean of their values, rounded to the nearest
    /// unit. Labels of an odd and an even depth on the same positions so
    /// even out the search's parity swing.
    MeanOfSearches,
}

/// `labels` with each position once, in the order of its first label, as
/// `duplicates` says.
#[must_use]
pub fn unique_labels(labels: &[Label], duplicates: Duplicates) -> Vec<Label> {
    let mut first = std::collections::HashMap::new();
    let mut unique: Vec<Label> = Vec::new();
    // The searches' values of each kept label, summed, and their count.
    let mut sums: Vec<(i64, i64)> = Vec::new();
    for label in labels {
        let key = (label.position.player, label.position.opponent);
        match first.get(&key) {
            None => {
                first.insert(key, unique.len());
                unique.push(*label);
                sums.push((i64::from(label.value.0), 1));
            }
            Some(&k) if duplicates == Duplicates::MeanOfSearches => {
                let kept = &mut unique[k];
                match (kept.source, label.source) {
                    (LabelSource::Exact, _) => {}
                    (LabelSource::Search(_), LabelSource::Exact) => {
                        *kept = *label;
                        sums[k] = (i64::from(label.value.0), 1);
                    }
                    (LabelSource::Search(_), LabelSource::Search(_)) => {
                        sums[k].0 += i64::from(label.value.0);
                        sums[k].1 += 1;
                    }
                }
            }
            Some(_) => {}
        }
    }
    if duplicates == Duplicates::MeanOfSearches {
        for (label, &(sum, count)) in unique.iter_mut().zip(&sums) {
            if count > 1 {
                // Rounded to the nearest, halves away from zero.
                let mean = (2 * sum + sum.signum() * count) / (2 * count);
                label.value = Eval(i32::try_from(mean).expect("a mean of label values"));
            }
        }
    }
    unique
}

/// The training and held-out samples of `games` (labelled by their
/// results, see [`super::samples`]) and `labels` together: a position that
/// a label labels takes the label, and a position labelled twice the label
/// `duplicates` says ([`unique_labels`]).
#[must_use]
pub fn combined_samples(
    games: &[TrainingGame],
    labels: &[Label],
    duplicates: Duplicates,
) -> (Vec<Sample>, Vec<Sample>) {
    let unique = unique_labels(labels, duplicates);
    let seen: HashSet<(u64, u64)> = unique
        .iter()
        .map(|l| (l.position.player, l.position.opponent))
        .collect();
    let (mut train, mut held) = super::samples(games, false);
    let labelled = |s: &Sample| seen.contains(&canonical(s.p, s.o));
    train.retain(|s| !labelled(s));
    held.retain(|s| !labelled(s));
    let (more_train, more_held) = label_samples(&unique);
    train.extend(more_train);
    held.extend(more_held);
    (train, held)
}

/// Labels the positions of `list` that `file`'s shard holds into the
/// label file `file` (continued from where it stopped) on `threads`
/// threads, reporting its progress to `report`: `train label`'s and the
/// test sets' stage.
///
/// # Errors
/// A label file refused or that cannot be written.
pub fn label_into(
    file: &Resumable,
    list: &[ListedPosition],
    settings: &LabelSettings,
    weights: &Arc<PatternWeights>,
    threads: usize,
    report: &mut dyn FnMut(StageEvent),
) -> anyhow::Result<()> {
    let shard = file.shard;
    file.run(
        |ks, deliver| {
            label_positions(list, settings, weights, shard, ks.start, threads, |label| {
                deliver(label.to_line())
            });
        },
        report,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EndgameSolver, Scoring};
    use crate::eval::pattern::PatternWeights;

    fn games(n: u64) -> Vec<TrainingGame> {
        crate::lab::train::test_games(n, 10)
    }

    #[test]
    fn duplicates_keep_the_first_label_or_the_mean_of_the_searches() {
        let at = |item: u64, player: u64| ListedPosition {
            item,
            game: item,
            player,
            opponent: 1 << 63,
        };
        let label = |position, value, source| Label {
            position,
            value: Eval(value),
            source,
        };
        let (a, b, c, d) = (at(0, 1), at(1, 2), at(2, 4), at(3, 8));
        let labels = [
            label(a, 101, LabelSource::Search(8)),
            label(b, 40, LabelSource::Search(8)),
            label(c, -7, LabelSource::Search(8)),
            label(d, 300, LabelSource::Exact),
            label(b, 64, LabelSource::Exact),
            label(a, 150, LabelSource::Search(9)),
            label(c, -10, LabelSource::Search(9)),
            label(d, 0, LabelSource::Search(9)),
            label(a, -2, LabelSource::Search(10)),
        ];
        let values = |d| -> Vec<(u64, i32)> {
            unique_labels(&labels, d)
                .iter()
                .map(|l| (l.position.player, l.value.0))
                .collect()
        };
        assert_eq!(
            values(Duplicates::First),
            [(1, 101), (2, 40), (4, -7), (8, 300)]
        );
        // a: (101 + 150 - 2) / 3 = 83; b: the exact label wins over the
        // search before it; c: -8.5 rounded away from zero; d: exact first.
        assert_eq!(
            values(Duplicates::MeanOfSearches),
            [(1, 83), (2, 64), (4, -9), (8, 300)]
        );
        let kept = unique_labels(&labels, Duplicates::MeanOfSearches);
        assert_eq!(kept[1].source, LabelSource::Exact);
        let (train, held) = combined_samples(&[], &labels, Duplicates::MeanOfSearches);
        assert_eq!(train.len() + held.len(), 4);
    }

    #[test]
    fn a_label_files_list_keeps_its_order_and_games_once_each_in_range() {
        let games = games(4);
        let list = position_list(&games, &(8..=30));
        let mut labels: Vec<Label> = list
            .iter()
            .rev()
            .map(|&position| Label {
                position,
                value: Eval(64),
                source: LabelSource::Exact,
            })
            .collect();
        labels.push(labels[2]);
        let taken = labelled_list(&labels, &(10..=20));
        let expected: Vec<(u64, u64, u64)> = list
            .iter()
            .rev()
            .filter(|p| (10..=20).contains(&(64 - (p.player | p.opponent).count_ones())))
            .map(|p| (p.game, p.player, p.opponent))
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(
            taken
                .iter()
                .map(|p| (p.game, p.player, p.opponent))
                .collect::<Vec<_>>(),
            expected
        );
        assert!(taken.iter().enumerate().all(|(i, p)| p.item == i as u64));
    }

    #[test]
    fn the_list_is_unique_canonical_and_in_range() {
        let games = games(6);
        let list = position_list(&games, &(8..=20));
        assert!(list.len() > 20);
        let keys: HashSet<(u64, u64)> = list.iter().map(|p| (p.player, p.opponent)).collect();
        assert_eq!(keys.len(), list.len());
        for (i, p) in list.iter().enumerate() {
            assert_eq!(p.item, i as u64);
            assert_eq!(canonical(p.player, p.opponent), (p.player, p.opponent));
            assert!((8..=20).contains(&(64 - (p.player | p.opponent).count_ones())));
        }
        assert_ne!(list_checksum(&list), list_checksum(&list[1..]));
        // A stage's list: the games' positions, or with --off-path the
        // positions off their path, none of which a game reaches.
        assert_eq!(super::super::stage_list(&games, &(8..=20), None), list);
        let off = super::super::stage_list(&games, &(8..=20), Some(1));
        assert!(!off.is_empty() && off.iter().all(|p| !keys.contains(&(p.player, p.opponent))));
    }

    #[test]
    fn labels_are_exact_or_searched_and_independent_of_history() {
        let games = games(4);
        let list = position_list(&games, &(8..=16));
        let settings = LabelSettings {
            empties: 8..=16,
            exact_empties: 10,
            depth: 3,
            selectivity: None,
        };
        let weights = Arc::clone(PatternWeights::shared_embedded());
        let mut labeller = Labeller::new(settings.clone(), &weights);
        let labels: Vec<Label> = list.iter().map(|&p| labeller.label(p)).collect();
        // Backwards, a fresh labeller gives the same labels.
        let mut other = Labeller::new(settings, &weights);
        for (p, l) in list.iter().zip(&labels).rev() {
            assert_eq!(other.label(*p), *l);
        }
        let mut solver = EndgameSolver::new(Scoring::Standard);
        for l in &labels {
            let empties = 64 - (l.position.player | l.position.opponent).count_ones();
            let pos = RelativePosition::of_8x8(l.position.player, l.position.opponent);
            if empties <= 10 {
                assert_eq!(l.source, LabelSource::Exact);
                // The exact label is the solver's score, checked
                // independently.
                assert_eq!(l.value, solver.solve(&pos).score.eval());
            } else {
                assert_eq!(l.source, LabelSource::Search(3));
            }
            assert_eq!(Label::parse_line(&l.to_line()), Ok(*l));
        }
    }

    #[test]
    fn bad_lines_are_refused() {
        let games = games(1);
        let list = position_list(&games, &(20..=30));
        let settings = LabelSettings {
            empties: 20..=30,
            exact_empties: 0,
            depth: 2,
            selectivity: None,
        };
        let l = Labeller::new(settings, PatternWeights::shared_embedded()).label(list[0]);
        let line = l.to_line();
        let fields: Vec<&str> = line.split('\t').collect();
        let with = |i: usize, v: &str| {
            let mut f = fields.clone();
            f[i] = v;
            f.join("\t")
        };
        // The mirror image of the position is not canonical (or is the
        // same position).
        let mirrored = crate::board::symmetry::all(l.position.player)[1];
        let mirrored_o = crate::board::symmetry::all(l.position.opponent)[1];
        let not_canonical = (mirrored, mirrored_o) != (l.position.player, l.position.opponent);
        let (mp, mo) = (format!("{mirrored:016x}"), format!("{mirrored_o:016x}"));
        let mirrored_line = with(2, &mp).replace(fields[3], &mo);
        for bad in [
            String::new(),
            line.replace('\t', " "),
            format!("{line}\t"),
            with(0, "-1"),
            with(1, "x"),
            with(2, "00"),
            with(3, fields[2]),
            with(4, "61"),
            with(5, "4097"),
            with(5, "1.5"),
            with(6, "d61"),
            with(6, "search"),
        ] {
            assert!(Label::parse_line(&bad).is_err(), "{bad:?}");
        }
        if not_canonical {
            assert!(Label::parse_line(&mirrored_line).is_err());
        }
        assert_eq!(Label::parse_line(&line), Ok(l));
    }
}
