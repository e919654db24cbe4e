//! The games files: a header line, then one [`TrainingGame`] a line
//! ([`TrainingGame::to_line`]). `train generate` writes them (its header
//! names the settings every game was played with), `train import` too
//! (its header counts the games and the collections).

use super::{lines, FormatError};
use crate::lab::shard::FileKind;
use crate::lab::train::{GameSettings, TrainingGame};
use std::io::{self, BufRead, Write};

/// The most games a games file may hold (20 times the shipped weights'
/// 100,000): `fit` holds every game and its positions in memory.
pub const MAX_GAMES: u64 = 2_000_000;

/// The games files `train generate` writes: a header line naming the
/// options.
pub const GENERATED: FileKind = FileKind {
    start: "# reversi-lab train generate:",
    former: Some("# reversi train generate:"),
    kind: "a games file of `reversi-lab train generate`",
};

/// The games files `train import` writes.
pub const IMPORTED: FileKind = FileKind {
    start: "# reversi-lab train import:",
    former: Some("# reversi train import:"),
    kind: "a games file of `reversi-lab train import`",
};

/// The header line of an unsplit `train generate` run: the settings every
/// game is played with, and the weights by their checksum `weights` when
/// a level plays (a run of a split appends its shard).
#[must_use]
pub fn header(s: &GameSettings, weights: u64) -> String {
    let player = match s.level {
        None => format!("depth {} eval {}", s.depth, s.eval),
        Some(level) => format!("level {level} weights {weights:016x}"),
    };
    format!(
        "{} seed {} random {}-{} {player} solve-empties {}",
        GENERATED.start, s.seed, s.random_min, s.random_max, s.solve_empties
    )
}

/// The header line of `train import`'s games file of `games` games from
/// `files` collections.
#[must_use]
pub fn imported_header(games: usize, files: usize) -> String {
    format!("{} {games} games from {files} files", IMPORTED.start)
}

/// The number of the game a games file's line holds, checked by
/// [`TrainingGame::parse_line`].
///
/// # Errors
/// What is wrong with the line.
pub fn game_number(line: &str) -> Result<u64, String> {
    TrainingGame::parse_line(line)
        .map(|g| g.index)
        .map_err(|e| e.to_string())
}

/// Reads every game of a games file named `name` (`#` lines and empty
/// lines skipped), each line checked by [`TrainingGame::parse_line`]: at
/// most [`MAX_GAMES`] games and at least one, read a line at a time.
///
/// # Errors
/// A line that is not a game (or is too long, or not text), too many
/// games, none, or a read error; each message names `name`.
pub fn read(input: impl BufRead, name: &str) -> Result<Vec<TrainingGame>, FormatError> {
    let mut lines = lines(input, name);
    let mut games = Vec::new();
    while let Some(line) = lines.next_line()? {
        if line.text.starts_with('#') || line.text.is_empty() {
            continue;
        }
        if games.len() as u64 >= MAX_GAMES {
            return Err(FormatError(format!(
                "{name} holds more than {MAX_GAMES} games"
            )));
        }
        games.push(
            TrainingGame::parse_line(line.text)
                .map_err(|e| FormatError(format!("{name} line {} {e}", line.number)))?,
        );
    }
    if games.is_empty() {
        // Nothing to label, fit or measure: an empty result would look
        // like a finished stage.
        return Err(FormatError(format!("{name} holds no game")));
    }
    Ok(games)
}

/// Writes a games file: `header`, then each game a line.
///
/// # Errors
/// `out`'s write errors.
pub fn write(out: &mut impl Write, header: &str, games: &[TrainingGame]) -> io::Result<()> {
    writeln!(out, "{header}")?;
    for g in games {
        writeln!(out, "{}", g.to_line())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Heuristic;
    use crate::lab::train::GamePlayer;

    /// Training game `index` of quick settings.
    fn game(index: u64) -> TrainingGame {
        let settings = GameSettings {
            depth: 1,
            solve_empties: 8,
            ..GameSettings::default()
        };
        GamePlayer::new(
            settings,
            crate::eval::pattern::PatternWeights::shared_embedded(),
        )
        .play(index)
    }

    #[test]
    fn a_written_file_reads_back_and_header_lines_are_skipped() {
        let games = vec![game(0), game(1)];
        let mut bytes = Vec::new();
        write(&mut bytes, &imported_header(2, 1), &games).expect("a Vec");
        let text = String::from_utf8(bytes.clone()).expect("text");
        assert!(text.starts_with("# reversi-lab train import: 2 games from 1 files\n0\t"));
        assert!(IMPORTED.starts(&text));
        assert_eq!(read(&bytes[..], "g").expect("games"), games);
        // Comment and empty lines anywhere are skipped.
        let spaced = text.replace("\n1\t", "\n\n# note\n1\t");
        assert_eq!(read(spaced.as_bytes(), "g").expect("games"), games);
        // The former spelling of the header reads the same.
        let old = text.replacen("# reversi-lab ", "# reversi ", 1);
        assert!(IMPORTED.starts(&old) && old.starts_with("# reversi train import: "));
        assert_eq!(read(old.as_bytes(), "g").expect("games"), games);
    }

    #[test]
    fn the_generate_header_names_the_player_and_its_weights_only_at_a_level() {
        let mut s = GameSettings::default();
        assert_eq!(
            header(&s, 0xabc),
            "# reversi-lab train generate: seed 1 random 4-24 depth 4 eval strong solve-empties 18"
        );
        s.level = Some(6);
        s.eval = Heuristic::Disc;
        assert_eq!(
            header(&s, 0xabc),
            "# reversi-lab train generate: seed 1 random 4-24 level 6 weights 0000000000000abc solve-empties 18"
        );
        assert!(GENERATED.starts(&header(&s, 0)));
        assert!(!IMPORTED.starts(&header(&s, 0)));
    }

    #[test]
    fn files_without_games_or_with_bad_lines_are_refused() {
        for text in ["", "# reversi-lab train generate: a header alone\n", "\n\n"] {
            assert_eq!(
                read(text.as_bytes(), "g.txt").expect_err("no game").0,
                "g.txt holds no game"
            );
        }
        let e = read(&b"# h\n0\tf5\t0\n"[..], "g.txt").expect_err("three fields");
        assert!(e.0.starts_with("g.txt line 2 "), "{e}");
        let long = format!("# h\n{}\n", "1".repeat(crate::lab::shard::MAX_LINE + 1));
        let e = read(long.as_bytes(), "g.txt").expect_err("too long");
        assert_eq!(
            e.0,
            "g.txt line 2 is longer than 1024 bytes; it is not a line of this file"
        );
    }

    #[test]
    fn a_game_line_gives_its_number() {
        assert_eq!(game_number(&game(7).to_line()), Ok(7));
        assert!(game_number("7\tf5").is_err());
    }
}
