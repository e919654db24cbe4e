//! The standard names of Othello openings (`data/openings.txt`, read at
//! compile time): each name with its line of moves from the start, and
//! the name of the opening a game is in.
//!
//! An opening is known by the position its line reaches, in any of the
//! four symmetries that keep the start position (the identity, the half
//! turn and the two diagonal reflections: the first move f5, c4, d3 or
//! e6 of the same line), so a transposition into a named position is
//! named too. A game is in the opening of the last named position it went
//! through: after the Tiger's fifth move a game stays "Tiger" until a
//! longer named line (the Stephenson, say) is reached.

use crate::board::{symmetry, Color, Square};
use crate::reversi::Position;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table as written in the repository.
static TABLE: &str = include_str!("../../data/openings.txt");

/// One named opening: its name and its line from the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The opening's name (two names separated by a comma where it has
    /// two).
    pub name: &'static str,
    /// Its moves from the start, black first (no passes).
    pub moves: Vec<Square>,
}

/// Why a line of the table is not an opening (found by the table's test;
/// the shipped table has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError(pub String);

/// The named openings and the positions that name them.
#[derive(Debug)]
pub struct Openings {
    all: Vec<Opening>,
    /// The position a line reaches (black's discs, white's discs, the side
    /// to move), in each of the four symmetries, to its opening's index.
    by_position: HashMap<(u64, u64, Color), usize>,
}

/// The symmetries (numbered as in [`symmetry::all`]) under which the 8x8
/// start position is itself.
fn start_symmetries() -> Vec<usize> {
    let start = Position::start(8).board;
    let (b, w) = (start.discs(Color::Black), start.discs(Color::White));
    (0..8)
        .filter(|&s| symmetry::image(b, s) == b && symmetry::image(w, s) == w)
        .collect()
}

/// The positions along `moves` from the start; `Err` names the first
/// illegal move.
fn line_positions(moves: &[Square]) -> Result<Vec<Position>, String> {
    let mut p = Position::start(8);
    let mut out = vec![p];
    for (i, &sq) in moves.iter().enumerate() {
        let board = p
            .board
            .play(p.to_move, sq)
            .ok_or_else(|| format!("move {} ({sq}) is not legal", i + 1))?;
        p = Position {
            board,
            to_move: p.to_move.other(),
        };
        if p.board.moves(p.to_move) == 0 {
            return Err(format!(
                "after move {} ({sq}) the side to move must pass",
                i + 1
            ));
        }
        out.push(p);
    }
    Ok(out)
}

/// Reads one line of the table: the moves written together (`f5d6c3`),
/// then the name.
fn parse_line(line: &'static str) -> Result<Opening, String> {
    let (moves, name) = line
        .split_once(char::is_whitespace)
        .ok_or("a line is the moves, then the name")?;
    let name = name.trim();
    if name.is_empty() {
        return Err("the opening has no name".into());
    }
    if moves.len() % 2 != 0 || moves.is_empty() {
        return Err(format!("{moves:?} is not a list of squares"));
    }
    let squares = (0..moves.len())
        .step_by(2)
        .map(|i| {
            moves[i..i + 2]
                .parse::<Square>()
                .map_err(|_| format!("{:?} is not a square", &moves[i..i + 2]))
        })
        .collect::<Result<Vec<_>, _>>()?;
    line_positions(&squares)?;
    Ok(Opening {
        name,
        moves: squares,
    })
}

impl Openings {
    /// The table from its text (`#` lines and blank lines skipped).
    ///
    /// # Errors
    /// A line that is not an opening (its moves illegal from the start,
    /// or no name), or a position named twice, with the line's number.
    pub fn parse(text: &'static str) -> Result<Openings, TableError> {
        let symmetries = start_symmetries();
        let mut all = Vec::new();
        let mut by_position = HashMap::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |e: String| TableError(format!("line {}: {e}", number + 1));
            let opening = parse_line(line).map_err(err)?;
            let end = *line_positions(&opening.moves)
                .map_err(err)?
                .last()
                .expect("the start at least");
            let (b, w) = (end.board.discs(Color::Black), end.board.discs(Color::White));
            for &s in &symmetries {
                let key = (symmetry::image(b, s), symmetry::image(w, s), end.to_move);
                if let Some(&other) = by_position.get(&key) {
                    if other != all.len() {
                        let named: &Opening = &all[other];
                        return Err(err(format!("its position is {:?}'s", named.name)));
                    }
                }
                by_position.insert(key, all.len());
            }
            all.push(opening);
        }
        Ok(Openings { all, by_position })
    }

    /// Every named opening, in the table's order.
    #[must_use]
    pub fn all(&self) -> &[Opening] {
        &self.all
    }

    /// The opening whose line reaches `position` (in any of the four
    /// symmetries of the start), if one does.
    #[must_use]
    pub fn at(&self, position: &Position) -> Option<&Opening> {
        if position.board.size() != 8 {
            return None;
        }
        let b = position.board;
        let key = (
            b.discs(Color::Black),
            b.discs(Color::White),
            position.to_move,
        );
        self.by_position.get(&key).map(|&i| &self.all[i])
    }

    /// The opening a game is in: that of the last of its `positions`
    /// (from the first on) that a named line reaches.
    #[must_use]
    pub fn of_game(&self, positions: &[Position]) -> Option<&Opening> {
        positions.iter().rev().find_map(|p| self.at(p))
    }
}

/// The shipped table (`data/openings.txt`), read once.
///
/// # Panics
/// Never for the shipped table (its test reads it).
#[must_use]
pub fn openings() -> &'static Openings {
    static OPENINGS: OnceLock<Openings> = OnceLock::new();
    OPENINGS.get_or_init(|| Openings::parse(TABLE).expect("the shipped openings table is valid"))
}

/// The name of the opening a game is in ([`Openings::of_game`] of the
/// shipped table).
#[must_use]
pub fn opening_name(positions: &[Position]) -> Option<&'static str> {
    openings().of_game(positions).map(|o| o.name)
}

impl super::GameRecord {
    /// The name of the opening the game is in ([`opening_name`] of its
    /// positions), if one is named.
    #[must_use]
    pub fn opening(&self) -> Option<&'static str> {
        opening_name(&self.positions())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_transcript;

    fn positions(transcript: &str) -> Vec<Position> {
        parse_transcript(transcript, Position::start(8))
            .expect("a legal transcript")
            .positions()
    }

    /// The line written with each move's square under symmetry `s`.
    fn transcript_under(moves: &[Square], s: usize) -> String {
        moves
            .iter()
            .map(|m| Square(symmetry::square_image(m.0, s)).to_string())
            .collect()
    }

    #[test]
    fn the_shipped_table_reads_and_every_line_is_legal_from_the_start() {
        let table = Openings::parse(TABLE).expect("the shipped table");
        assert!(table.all().len() >= 70, "{} openings", table.all().len());
        for o in table.all() {
            // Replayed by the record reader, independently of the table's
            // own replay.
            let line: String = o.moves.iter().map(ToString::to_string).collect();
            let game = parse_transcript(&line, Position::start(8)).expect(o.name);
            assert_eq!(game.moves.len(), o.moves.len(), "{}", o.name);
            assert_eq!(o.moves[0].to_string(), "f5", "{} starts with f5", o.name);
            // Written into JSON as they are.
            assert!(!o.name.contains(['"', '\\']), "{}", o.name);
        }
    }

    #[test]
    fn the_four_symmetries_of_the_start_are_the_first_moves_f5_c4_d3_e6() {
        let s = start_symmetries();
        assert_eq!(s.len(), 4);
        let f5: Square = "f5".parse().unwrap();
        let mut firsts: Vec<String> = s
            .iter()
            .map(|&s| Square(symmetry::square_image(f5.0, s)).to_string())
            .collect();
        firsts.sort();
        assert_eq!(firsts, ["c4", "d3", "e6", "f5"]);
    }

    #[test]
    fn every_opening_is_named_in_each_of_the_four_symmetries() {
        let table = openings();
        for o in table.all() {
            for &s in &start_symmetries() {
                let line = transcript_under(&o.moves, s);
                let game = positions(&line);
                let named = table.of_game(&game).map(|o| o.name);
                assert_eq!(named, Some(o.name), "{line}");
            }
        }
    }

    #[test]
    fn known_names_by_their_lines_in_every_orientation() {
        // Written from the usual notation, not from the table.
        // The Tiger, f5 d6 c3 d3 c4, in the four orientations.
        for line in ["f5d6c3d3c4", "c4e3f6e6f5", "d3c5f6f5e6", "e6f4c3c4d3"] {
            assert_eq!(opening_name(&positions(line)), Some("Tiger"), "{line}");
        }
        // Mirrored in a column, the line is not legal from the start: the
        // other four symmetries are no openings' orientations.
        assert!(parse_transcript("d5", Position::start(8)).is_err());
        assert_eq!(
            opening_name(&positions("f5d6")),
            Some("Perpendicular Opening")
        );
        assert_eq!(opening_name(&positions("f5f6")), Some("Diagonal Opening"));
        assert_eq!(opening_name(&positions("f5f4")), Some("Parallel Opening"));
        assert_eq!(
            opening_name(&positions("f5d6c3d3c4f4f6")),
            Some("Stephenson")
        );
        assert_eq!(
            opening_name(&positions("f5d6c5f4e3c6d3f6e6d7")),
            Some("Rose")
        );
        assert_eq!(opening_name(&positions("f5f6e6f4e3")), Some("Cow"));
        assert_eq!(
            opening_name(&positions("f5f6e6f4c3")),
            Some("Buffalo, Kenichi Variation")
        );
        // A named line goes on naming the game after it.
        assert_eq!(opening_name(&positions("f5d6c3d3c4f4")), Some("Tiger"));
        // The start and the first move are no opening.
        assert_eq!(opening_name(&positions("")), None);
        assert_eq!(opening_name(&positions("f5")), None);
    }

    #[test]
    fn a_transposition_into_a_named_position_is_named() {
        // The Tiger's position reached with black's moves in another
        // order: f5 d6 c4 d3 c3 (c4 before c3).
        let game = positions("f5d6c4d3c3");
        let tiger = positions("f5d6c3d3c4");
        assert_eq!(game.last(), tiger.last());
        assert_eq!(opening_name(&game), Some("Tiger"));
    }

    #[test]
    fn bad_tables_are_refused_with_their_line() {
        let bad = |text: &'static str| Openings::parse(text).unwrap_err().0;
        assert!(bad("# c\nf5d6c3d3c4\n").starts_with("line 2:"));
        assert!(bad("f5f5 X\n").contains("not legal"));
        assert!(bad("f5z9 X\n").contains("not a square"));
        assert!(bad("f5d6 A\nc4e3 B\n").contains("\"A\""));
    }
}
