//! The dropped-games list of `train import --dropped`: a header line, then
//! one dropped game a line: its collection file, its number there (from
//! 1), why it was dropped and its moves, separated by tabs.

use crate::lab::shard::FileKind;
use crate::record::{write_transcript, GameRecord};

/// The dropped-games lists.
pub const DROPPED: FileKind = FileKind {
    start: "# reversi-lab train import, dropped:",
    former: Some("# reversi train import, dropped:"),
    kind: "a dropped-games list of `reversi-lab train import`",
};

/// The header line of a dropped-games list.
#[must_use]
pub fn header() -> String {
    format!("{} file, game, why, moves", DROPPED.start)
}

/// The line of game `number` (from 1) of the collection `file`, dropped
/// for `why`.
#[must_use]
pub fn line(file: &str, number: usize, why: &str, record: &GameRecord) -> String {
    format!("{file}\t{number}\t{why}\t{}", write_transcript(record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_transcript;
    use crate::reversi::Position;

    #[test]
    fn header_and_lines() {
        assert_eq!(
            header(),
            "# reversi-lab train import, dropped: file, game, why, moves"
        );
        assert!(DROPPED.starts(&header()));
        let record = parse_transcript("f5d6", Position::start(8)).expect("a record");
        assert_eq!(
            line("a.pgn", 3, "unfinished", &record),
            "a.pgn\t3\tunfinished\tf5d6"
        );
    }
}
