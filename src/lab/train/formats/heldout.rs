//! The label file of `train heldout`: a label file ([`super::labels`])
//! whose header names the held-out list instead of a search, every
//! position solved exactly.

use super::labels::LABELS;
use crate::lab::train::labels::{list_checksum, LabelSettings, ListedPosition};
use std::ops::RangeInclusive;

/// The labelling of the held-out positions with `empties` empty squares:
/// each solved exactly (no search, the evaluation's depth 0 unused).
#[must_use]
pub fn settings(empties: RangeInclusive<u32>) -> LabelSettings {
    LabelSettings {
        exact_empties: *empties.end(),
        empties,
        depth: 0,
        selectivity: None,
    }
}

/// The header line of the held-out labels of `list`, its positions of
/// `empties` empty squares.
#[must_use]
pub fn header(empties: &RangeInclusive<u32>, list: &[ListedPosition]) -> String {
    format!(
        "{} heldout empties {}-{} exact positions {} list {:016x}",
        LABELS.start,
        empties.start(),
        empties.end(),
        list.len(),
        list_checksum(list)
    )
}

/// The header line of the labels of `list`, the positions after every
/// legal move of the held-out positions `parents` ([`crate::lab::train::off_path`]).
#[must_use]
pub fn after_moves_header(parents: &[ListedPosition], list: &[ListedPosition]) -> String {
    format!(
        "{} heldout-moves of {} positions {:016x} exact positions {} list {:016x}",
        LABELS.start,
        parents.len(),
        list_checksum(parents),
        list.len(),
        list_checksum(list)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_solved_and_the_header_names_the_list() {
        let s = settings(20..=24);
        assert_eq!((s.exact_empties, s.depth, s.selectivity), (24, 0, None));
        assert_eq!(s.empties, 20..=24);
        let list = [ListedPosition {
            item: 0,
            game: 1,
            player: 2,
            opponent: 4,
        }];
        assert_eq!(
            header(&s.empties, &list),
            format!(
                "# reversi-lab train label: heldout empties 20-24 exact positions 1 list {:016x}",
                list_checksum(&list)
            )
        );
    }
}
