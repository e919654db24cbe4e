//! The label files: a header line naming the stage's options and its
//! position list, then one [`Label`] a line ([`Label::to_line`]). `train
//! label` writes them, `train heldout` too (its own header,
//! [`super::heldout`]), and `train import --theoretical-labels`.

use super::FormatError;
use crate::lab::shard::{check_listed, header_number, push_shard, FileKind, ListNames, Shard};
use crate::lab::train::labels::{list_checksum, Label, LabelSettings, ListedPosition};
use crate::lines::CappedLines;
use std::io::{self, BufRead, Write};

/// The most labels a label file may hold (each takes 40 bytes in memory).
pub const MAX_LABELS: u64 = 10_000_000;

/// The label files: a header line naming the options.
pub const LABELS: FileKind = FileKind {
    start: "# reversi-lab train label:",
    former: Some("# reversi train label:"),
    kind: "a label file of `reversi-lab train label`",
};

/// The label files of `train import --theoretical-labels`: label files
/// (read as [`LABELS`]) whose header says what they hold, so that the
/// import replaces only its own file, never a `train label` run's.
pub const THEORETICAL: FileKind = FileKind {
    start: "# reversi-lab train label: theoretical scores",
    former: Some("# reversi train label: theoretical scores"),
    kind: "a label file of `reversi-lab train import --theoretical-labels`",
};

/// The header line of an unsplit `train label` run of `settings` with the
/// weights of checksum `weights` over the position `list` (a run of a
/// split appends its shard).
#[must_use]
pub fn header(settings: &LabelSettings, weights: u64, list: &[ListedPosition]) -> String {
    let selectivity = match settings.selectivity {
        Some(s) => format!(" selectivity {s}"),
        None => String::new(),
    };
    format!(
        "{} empties {}-{} exact-empties {} depth {}{selectivity} weights {weights:016x} positions {} list {:016x}",
        LABELS.start,
        settings.empties.start(),
        settings.empties.end(),
        settings.exact_empties,
        settings.depth,
        list.len(),
        list_checksum(list)
    )
}

/// The header line of run `shard` of a `train label` stage ([`header`],
/// then ` off-path 1/N` for `--off-path N` ([`push_off_path`]), then the
/// shard's suffix when the stage is split).
#[must_use]
pub fn run_header(
    settings: &LabelSettings,
    weights: u64,
    list: &[ListedPosition],
    off_path: Option<u64>,
    shard: Shard,
) -> String {
    let mut line = header(settings, weights, list);
    if let Some(every) = off_path {
        push_off_path(&mut line, every);
    }
    push_shard(&mut line, shard);
    line
}

/// Marks the header of a `train label --off-path N` run: its positions
/// are those after moves the players did not make, one in `every`.
pub fn push_off_path(header: &mut String, every: u64) {
    header.push_str(&format!(" off-path 1/{every}"));
}

/// The header line of `train import --theoretical-labels`: `positions`
/// theoretical scores of the games written to `games_file`.
#[must_use]
pub fn theoretical_header(games_file: &str, positions: usize) -> String {
    format!(
        "{} of the WTHOR games of {games_file}, {positions} positions",
        THEORETICAL.start
    )
}

/// The number of the position a label file's line holds, checked by
/// [`Label::parse_line`].
///
/// # Errors
/// What is wrong with the line.
pub fn position_number(line: &str) -> Result<u64, String> {
    Label::parse_line(line)
        .map(|l| l.position.item)
        .map_err(|e| e.to_string())
}

/// The number of the position a continued label file's line holds,
/// checked by [`Label::parse_line`] and against the run's own position
/// `list`: the line must label the list's position of its number.
///
/// # Errors
/// A line that is no label, or labels another position than the list's
/// of its number, or one beyond the list.
pub fn listed_position_number(line: &str, list: &[ListedPosition]) -> Result<u64, String> {
    let held = Label::parse_line(line).map_err(|e| e.to_string())?.position;
    check_listed(list, held.item, &held, GAMES_LIST)?;
    Ok(held.item)
}

/// How messages name the positions of the games' list.
const GAMES_LIST: ListNames = ListNames {
    item: "position",
    of_list: " of the games' list",
    all: "of the games' list",
};

/// Checks that a label file of `header` (a stage's whole run, as a merge
/// writes it) holds `labels` labels, the positions its header counts
/// (`positions N`; a header that counts none is not checked).
///
/// # Errors
/// When the labels are fewer or more: a shard is unfinished.
pub fn check_complete(header: &str, labels: usize) -> Result<(), FormatError> {
    // `positions N` (a stage's header) or `N positions` (the theoretical
    // labels').
    let before = || {
        let words: Vec<&str> = header.split([' ', ',']).collect();
        words
            .windows(2)
            .find(|w| w[1] == "positions")
            .and_then(|w| w[0].parse().ok())
    };
    match header_number(header, "positions").or_else(before) {
        Some(positions) if positions != labels as u64 => Err(FormatError(format!(
            "the shards hold {labels} of the stage's {positions} positions: a shard is unfinished (run it again)"
        ))),
        _ => Ok(()),
    }
}

/// Reads the rest of a label file named `name` whose first line, `first`,
/// has been read from `lines`: `first` must be a label file's header, then
/// one label per line, each checked by [`Label::parse_line`]; at most
/// [`MAX_LABELS`] labels, read a line at a time. Returns the header and
/// the labels. (A label file, text or packed, is read by
/// [`super::read_label_file`].)
///
/// # Errors
/// A file of another kind, a line that is not a label (or is too long, or
/// not text), too many labels, or a read error; each message names
/// `name`.
pub fn read_rest<R: BufRead>(
    first: &str,
    lines: &mut CappedLines<R>,
    name: &str,
) -> Result<(String, Vec<Label>), FormatError> {
    if !LABELS.starts(first) {
        return Err(FormatError(format!("{name} is not {}", LABELS.kind)));
    }
    let header = first.to_owned();
    let mut labels = Vec::new();
    while let Some(line) = lines.next_line()? {
        if labels.len() as u64 >= MAX_LABELS {
            return Err(FormatError(format!(
                "{name} holds more than {MAX_LABELS} labels"
            )));
        }
        labels.push(
            Label::parse_line(line.text)
                .map_err(|e| FormatError(format!("{name} line {} {e}", line.number)))?,
        );
    }
    Ok((header, labels))
}

/// Writes a label file: `header`, then each label a line.
///
/// # Errors
/// `out`'s write errors.
pub fn write(out: &mut impl Write, header: &str, labels: &[Label]) -> io::Result<()> {
    writeln!(out, "{header}")?;
    for label in labels {
        writeln!(out, "{}", label.to_line())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::symmetry::canonical;
    use crate::lab::train::labels::LabelSource;
    use crate::units::Eval;

    /// The start position's canonical image as item `item`, valued `value`.
    fn label(item: u64, value: i32, source: LabelSource) -> Label {
        let ((player, opponent), _) = canonical(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        Label {
            position: ListedPosition {
                item,
                game: 3,
                player,
                opponent,
            },
            value: Eval(value),
            source,
        }
    }

    /// An exact label and a searched one, of items 0 and 1.
    fn two_labels() -> [Label; 2] {
        [
            label(0, 64, LabelSource::Exact),
            label(1, -3, LabelSource::Search(4)),
        ]
    }

    /// A header of settings of `empties` over `list`.
    fn a_header(list: &[ListedPosition]) -> String {
        let settings = LabelSettings {
            empties: 50..=52,
            exact_empties: 0,
            depth: 4,
            selectivity: None,
        };
        header(&settings, 0x1234, list)
    }

    #[test]
    fn a_written_file_reads_back_with_its_header() {
        let labels = two_labels();
        let list: Vec<ListedPosition> = labels.iter().map(|l| l.position).collect();
        let head = a_header(&list);
        assert_eq!(
            head,
            format!(
                "# reversi-lab train label: empties 50-52 exact-empties 0 depth 4 weights 0000000000001234 positions 2 list {:016x}",
                list_checksum(&list)
            )
        );
        let mut bytes = Vec::new();
        write(&mut bytes, &head, &labels).expect("a Vec");
        let (read_header, read_labels) =
            super::super::read_labels(&bytes[..], "l").expect("labels");
        assert_eq!(read_header, head);
        assert_eq!(read_labels, labels);
        // A file written before the lab had its own binary reads the same,
        // its header as it is.
        let old =
            String::from_utf8(bytes)
                .expect("text")
                .replacen("# reversi-lab ", "# reversi ", 1);
        assert!(old.starts_with("# reversi train label: empties 50-52 "));
        let (old_header, old_labels) =
            super::super::read_labels(old.as_bytes(), "l").expect("old labels");
        assert_eq!(
            (old_header.as_str(), old_labels),
            (old.lines().next().unwrap(), labels.to_vec())
        );
        assert_eq!(
            position_number(&labels[1].to_line()),
            Ok(1),
            "the line's item"
        );
    }

    #[test]
    fn a_merged_file_holds_the_positions_its_header_counts() {
        let head = a_header(&[]).replace("positions 0", "positions 3");
        assert_eq!(check_complete(&head, 3), Ok(()));
        assert_eq!(
            check_complete(&head, 2),
            Err(FormatError(
                "the shards hold 2 of the stage's 3 positions: a shard is unfinished (run it again)"
                    .to_owned()
            ))
        );
        // The theoretical labels' header counts its positions too; a
        // header without a count is not checked.
        assert!(check_complete(&theoretical_header("g", 5), 4).is_err());
        assert_eq!(check_complete("# reversi-lab train label: x", 7), Ok(()));
    }

    #[test]
    fn selectivity_and_theoretical_headers() {
        let settings = LabelSettings {
            empties: 7..=7,
            exact_empties: 3,
            depth: 2,
            selectivity: Some(1.5),
        };
        assert_eq!(
            header(&settings, 1, &[]),
            "# reversi-lab train label: empties 7-7 exact-empties 3 depth 2 selectivity 1.5 weights 0000000000000001 positions 0 list cbf29ce484222325"
        );
        let head = theoretical_header("g.txt", 2);
        assert_eq!(
            head,
            "# reversi-lab train label: theoretical scores of the WTHOR games of g.txt, 2 positions"
        );
        assert!(LABELS.starts(&head));
    }

    #[test]
    fn other_files_and_bad_labels_are_refused() {
        let refused = |text: &str| {
            super::super::read_labels(text.as_bytes(), "l.txt")
                .expect_err(text)
                .0
        };
        assert_eq!(
            refused(""),
            "l.txt is empty: not a label file of `reversi-lab train label`"
        );
        assert_eq!(
            refused("# reversi-lab train generate: x\n"),
            "l.txt is not a label file of `reversi-lab train label`"
        );
        let head = a_header(&[]);
        // No disc at all: 64 empty squares, which no game reaches.
        let no_disc = format!("{head}\n0\t0\t0000000000000000\t0000000000000000\t64\t0\texact\n");
        assert_eq!(
            refused(&no_disc),
            "l.txt line 2 holds a position of 0 discs, fewer than the 4 every game starts with"
        );
        // A value of the smallest integer (1/64 disc): not a training
        // target.
        let smallest = label(0, 0, LabelSource::Exact)
            .to_line()
            .replace("\t0\texact", "\t-2147483648\texact");
        assert_eq!(
            refused(&format!("{head}\n{smallest}\n")),
            "l.txt line 2 value \"-2147483648\" is not within -64..64 discs"
        );
    }

    /// A continued file's line must label the list's position of its
    /// number; the run's header adds the off-path sample and the shard.
    #[test]
    fn a_line_labels_the_listed_position_of_its_number() {
        let labels = two_labels();
        let list: Vec<ListedPosition> = labels.iter().map(|l| l.position).collect();
        assert_eq!(listed_position_number(&labels[1].to_line(), &list), Ok(1));
        assert_eq!(
            listed_position_number(&labels[1].to_line(), &list[..1]),
            Err("holds position 1, beyond the 1 of the games' list".to_owned())
        );
        // Position 1 after f5 instead of the start's.
        let ((player, opponent), _) = canonical(0x0000_0010_0000_0000, 0x0000_0008_1c00_0000);
        let mut other = labels[1];
        (other.position.player, other.position.opponent) = (player, opponent);
        assert_eq!(
            listed_position_number(&other.to_line(), &list),
            Err("holds another position than position 1 of the games' list".to_owned())
        );
        assert!(listed_position_number("1\tx", &list).is_err());
        let settings = LabelSettings {
            empties: 50..=52,
            exact_empties: 0,
            depth: 4,
            selectivity: None,
        };
        let whole = header(&settings, 0x1234, &list);
        assert_eq!(
            run_header(&settings, 0x1234, &list, None, Shard::WHOLE),
            whole
        );
        let shard: Shard = "2/3".parse().expect("a shard");
        assert_eq!(
            run_header(&settings, 0x1234, &list, Some(5), shard),
            format!("{whole} off-path 1/5 shard 2/3")
        );
    }
}
