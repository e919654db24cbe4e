//! `train merge`: the files of the runs of one `generate` or `label`
//! stage split with `--shard K/N` ([`RULES`], read by
//! [`crate::lab::shard::ShardMerge`]) joined into the file one unsplit
//! run writes ([`merged_file`]).

use super::games::{self, game_number};
use super::labels::{self, position_number, MAX_LABELS};
use super::FormatError;
use crate::lab::shard::{MergeRules, Merged};

/// The merge's rules: games or label files, each line numbered by its
/// game or position and kept as it is.
pub const RULES: MergeRules<'static, String> = MergeRules {
    kinds: &[games::GENERATED, labels::LABELS],
    kind: "a games or label file",
    check_header: &any_header,
    again: "stage",
    noun: "number",
    max_items: MAX_LABELS,
    item: &numbered_line,
};

/// Every header of [`RULES`]'s kinds is merged.
fn any_header(_path: &str, _header: &str) -> Result<(), String> {
    Ok(())
}

/// A games file's line numbered by its game, a label file's by its
/// position (by the files' `header`), and the line itself.
fn numbered_line(header: &str, line: &str) -> Result<(u64, String), String> {
    let number = if games::GENERATED.starts(header) {
        game_number
    } else {
        position_number
    };
    number(line).map(|n| (n, line.to_owned()))
}

/// The merged file of the shards' `merged` lines: which of [`RULES`]'
/// kinds it is (0 games, 1 labels) and its text, the header then every
/// line in number order, as an unsplit run writes it.
///
/// # Errors
/// A number missing or doubled, or a label file that holds fewer or more
/// positions than its header counts: a shard is unfinished or edited.
pub fn merged_file(merged: Merged<String>) -> Result<(usize, String), FormatError> {
    let Merged {
        header,
        start,
        items,
    } = merged.ordered().map_err(|e| FormatError(e.0))?;
    if start == 1 {
        labels::check_complete(&header, items.len())?;
    }
    let mut text =
        String::with_capacity(items.iter().map(|(_, l)| l.len() + 1).sum::<usize>() + 200);
    text.push_str(&header);
    text.push('\n');
    for (_, line) in &items {
        text.push_str(line);
        text.push('\n');
    }
    Ok((start, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::train::labels::{Label, LabelSource, ListedPosition};
    use crate::units::Eval;

    fn label_line(item: u64) -> String {
        Label {
            position: ListedPosition {
                item,
                game: 0,
                player: 0x0000_0008_1000_0000,
                opponent: 0x0000_0010_0800_0000,
            },
            value: Eval(0),
            source: LabelSource::Exact,
        }
        .to_line()
    }

    /// The lines in number order after the header; an unfinished merge
    /// refused: a number missing, or fewer labels than the header counts.
    #[test]
    fn a_merge_is_the_header_then_the_lines_in_order() {
        let header = format!("{} empties 60-60 positions 2", labels::LABELS.start);
        let lines: Vec<(u64, String)> = [1, 0]
            .iter()
            .map(|&n| (RULES.item)(&header, &label_line(n)).expect("a label line"))
            .collect();
        assert_eq!(lines[0], (1, label_line(1)));
        let merged = |items: Vec<(u64, String)>, start| Merged {
            header: header.clone(),
            start,
            items,
        };
        assert_eq!(
            merged_file(merged(lines.clone(), 1)),
            Ok((
                1,
                format!("{header}\n{}\n{}\n", label_line(0), label_line(1))
            ))
        );
        assert_eq!(
            merged_file(merged(lines[..1].to_vec(), 1)),
            Err(FormatError(
                "number 0 is missing or doubled: a shard is unfinished (run it again) or edited"
                    .to_owned()
            ))
        );
        assert_eq!(
            merged_file(merged(lines[1..].to_vec(), 1)),
            Err(FormatError(
                "the shards hold 1 of the stage's 2 positions: a shard is unfinished (run it again)"
                    .to_owned()
            ))
        );
        // A games file's count is its lines': no header count checked.
        assert!(merged_file(merged(lines[1..].to_vec(), 0)).is_ok());
        // Under a games header, a label line is no game.
        let games_header = format!("{} seed 1", games::GENERATED.start);
        assert!((RULES.item)(&games_header, &label_line(0)).is_err());
    }
}
