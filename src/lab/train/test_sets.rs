//! The evaluation's test sets (`train heldout`, `train heldout-moves`):
//! their positions listed, solved exactly into a label file (resumable:
//! [`Resumable`]), read back and measured, each stage one call that reads
//! its inputs by their paths and reports its progress to a callback.

use super::formats::labels::{listed_position_number, LABELS};
use super::formats::{games::MAX_GAMES, heldout, read_games_file, read_labels_file};
use super::import::held_out_positions;
use super::labels::{label_into, Label, LabelSettings, ListedPosition};
use super::off_path;
use super::tables::{MovesTable, TestTable};
use crate::eval::pattern::{weights_or_embedded, PatternWeights};
use crate::files::{usage, UsageError};
use crate::lab::shard::{Resumable, Shard, StageEvent};
use anyhow::Result;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// A test set's label file solved exactly (`heldout`, `heldout-moves`):
/// where, and how.
#[derive(Clone, Copy, Debug)]
pub struct SolvedSet<'a> {
    /// The label file (`--out`).
    pub out: &'a str,
    /// The weights measured, whose search also orders the solver's moves
    /// (`None`: the embedded ones).
    pub weights: Option<&'a str>,
    /// Whether a file of another list is started over.
    pub force: bool,
    /// Worker threads.
    pub threads: usize,
}

impl SolvedSet<'_> {
    /// Solves the positions of `list` into the file (created with
    /// `header_line`, or continued), the progress named `stage`, then
    /// reads all its labels back.
    fn solve(
        &self,
        stage: &'static str,
        header_line: &str,
        list: &[ListedPosition],
        settings: &LabelSettings,
        weights: &Arc<PatternWeights>,
        report: &mut dyn FnMut(StageEvent),
    ) -> Result<Vec<Label>> {
        let check = |line: &str| listed_position_number(line, list);
        let file = Resumable {
            signature: LABELS,
            noun: "position",
            out: self.out,
            header_line,
            force: self.force,
            item: &check,
            shard: Shard::WHOLE,
            items: list.len() as u64,
            max_lines: list.len() as u64,
            progress: (stage, "positions"),
        };
        label_into(&file, list, settings, weights, self.threads, report)?;
        Ok(read_labels_file(self.out)?.1)
    }
}

/// `train heldout`: the held-out games' positions with `empties` empty
/// squares, none of a `training` game's, `positions` of them spread
/// evenly.
#[derive(Clone, Debug)]
pub struct Heldout<'a> {
    /// The held-out games file.
    pub games: &'a str,
    /// The training games files.
    pub training: &'a [String],
    /// The empty squares of the positions.
    pub empties: RangeInclusive<u32>,
    /// How many positions.
    pub positions: usize,
    /// The label file solved.
    pub set: SolvedSet<'a>,
}

/// Builds `train heldout`'s test set, solved exactly into its label file,
/// and measures the weights on it: the whole command but its printing.
///
/// # Errors
/// An input file refused, too many training games, or a label file
/// refused or that cannot be written ([`UsageError`]).
pub fn heldout(r: &Heldout, report: &mut dyn FnMut(StageEvent)) -> Result<TestTable> {
    let weights = &weights_or_embedded(r.set.weights)?;
    let held = read_games_file(r.games)?;
    let mut training = Vec::new();
    for path in r.training {
        training.extend(read_games_file(path)?);
        if training.len() as u64 > MAX_GAMES {
            return usage(format!(
                "the --training files hold more than {MAX_GAMES} games"
            ));
        }
    }
    let (list, in_training) = held_out_positions(&held, &training, &r.empties, r.positions);
    report(StageEvent::Note(format!(
        "heldout: {} positions of {} games ({in_training} left out as training positions)",
        list.len(),
        held.len()
    )));
    let header_line = heldout::header(&r.empties, &list);
    let settings = heldout::settings(r.empties.clone());
    let labels = r
        .set
        .solve("heldout", &header_line, &list, &settings, weights, report)?;
    let samples: Vec<_> = labels.iter().map(Label::sample).collect();
    Ok(TestTable::measure(weights, &samples, r.set.out))
}

/// `train heldout-moves`: the positions after every legal move of the
/// exact positions of the `train heldout` file `heldout` (`positions` of
/// them spread evenly, or all), and the move lists of `levels` measured.
#[derive(Clone, Debug)]
pub struct HeldoutMoves<'a> {
    /// The held-out label file.
    pub heldout: &'a str,
    /// How many of its positions (`None`: all).
    pub positions: Option<usize>,
    /// The levels whose move lists are measured.
    pub levels: &'a [u32],
    /// The label file solved.
    pub set: SolvedSet<'a>,
}

/// Builds `train heldout-moves`' test set, solved exactly into its label
/// file, and measures the weights on it (and the levels' move lists).
///
/// # Errors
/// An input file refused, no position with a legal move, or a label file
/// refused or that cannot be written ([`UsageError`]).
pub fn heldout_moves(r: &HeldoutMoves, report: &mut dyn FnMut(StageEvent)) -> Result<MovesTable> {
    let weights = &weights_or_embedded(r.set.weights)?;
    let (_, all) = read_labels_file(r.heldout)?;
    let parents = off_path::spread_parents(&all, r.positions)
        .map_err(|e| UsageError(format!("{}: {e}", r.heldout)))?;
    let list = off_path::positions_after_moves(&parents);
    if list.is_empty() {
        return usage(format!("{}: no position with a legal move", r.heldout));
    }
    let (fewest, most) = off_path::empties_span(&list);
    report(StageEvent::Note(format!(
        "heldout-moves: {} positions after the moves of {} held-out positions ({fewest}-{most} empties)",
        list.len(),
        parents.len()
    )));
    let parent_list: Vec<ListedPosition> = parents.iter().map(|l| l.position).collect();
    let header_line = heldout::after_moves_header(&parent_list, &list);
    let settings = heldout::settings(fewest..=most);
    let children = r.set.solve(
        "heldout-moves",
        &header_line,
        &list,
        &settings,
        weights,
        report,
    )?;
    let out = r.set.out;
    let in_out = |e: String| UsageError(format!("{out}: {e}"));
    let mut table = MovesTable::measure(weights, &parents, &children, out).map_err(in_out)?;
    for &level in r.levels {
        let rows = off_path::level_errors_by_loss(&parents, &children, weights, level, |done| {
            report(StageEvent::Note(format!(
                "heldout-moves: level {level}: {done} of {} positions ranked",
                parents.len()
            )));
        })
        .map_err(in_out)?;
        table.levels.push((level, rows));
    }
    Ok(table)
}
