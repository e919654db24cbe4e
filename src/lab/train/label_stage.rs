//! `train label`'s stage in one call: the positions listed from a games
//! file or a label file, labelled into the run's resumable label file
//! ([`label_into`]), progress reported to a callback.

use super::formats::labels::{self, listed_position_number, LABELS, MAX_LABELS};
use super::formats::{read_games_file, read_labels_file};
use super::labels::{label_into, labelled_list, LabelSettings};
use super::stage_list;
use crate::eval::pattern::weights_or_embedded;
use crate::files::usage;
use crate::lab::shard::{Resumable, Shard, StageEvent};
use anyhow::Result;

/// A run of `train label`: where its positions come from, how they are
/// labelled, and its shard of them.
#[derive(Clone, Copy, Debug)]
pub struct LabelStage<'a> {
    /// A games file whose positions are labelled.
    pub games: Option<&'a str>,
    /// Instead, a label file whose positions are labelled.
    pub positions: Option<&'a str>,
    /// The label file written (continued).
    pub out: &'a str,
    /// How the positions are labelled.
    pub settings: &'a LabelSettings,
    /// The weights of the search (`None`: the embedded ones).
    pub weights: Option<&'a str>,
    /// Off the games' path: one in N of the positions after the moves
    /// not played.
    pub off_path: Option<u64>,
    /// The run's shard of the positions.
    pub shard: Shard,
    /// Worker threads.
    pub threads: usize,
    /// Whether a label file of other options is started over.
    pub force: bool,
}

/// Runs the stage `r`, reporting to `report`.
///
/// # Errors
/// No input given, an input or the weights refused, or a label file
/// refused or that cannot be written
/// ([`UsageError`](crate::files::UsageError)).
pub fn label(r: &LabelStage, report: &mut dyn FnMut(StageEvent)) -> Result<()> {
    let settings = r.settings;
    let weights = weights_or_embedded(r.weights)?;
    let list = match (r.positions, r.games) {
        (Some(path), _) => labelled_list(&read_labels_file(path)?.1, &settings.empties),
        (None, Some(path)) => stage_list(&read_games_file(path)?, &settings.empties, r.off_path),
        (None, None) => return usage("give --games or --positions"),
    };
    let header_line = labels::run_header(settings, weights.checksum(), &list, r.off_path, r.shard);
    let check = |line: &str| listed_position_number(line, &list);
    let file = Resumable {
        signature: LABELS,
        noun: "position",
        out: r.out,
        header_line: &header_line,
        force: r.force,
        item: &check,
        shard: r.shard,
        items: list.len() as u64,
        max_lines: MAX_LABELS,
        progress: ("label", "positions"),
    };
    label_into(&file, &list, settings, &weights, r.threads, report)
}
