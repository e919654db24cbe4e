//! Game collections as Othello databases publish them: the French Othello
//! Federation's WTHOR base in its binary form (`.wtb`, with the names of
//! its players and tournaments in `WTHOR.JOU` and `WTHOR.TRN`) and as PGN,
//! and the one-game-a-line `.gam` form of Michael Buro's Logistello.
//!
//! None of these forms writes passes: a side without a legal move passes
//! by itself before the other side's disc (the `.gam` form shows it as two
//! moves of one sign). Every game is replayed and checked; an error names
//! the game (1-based, in the order of the collection) and what is wrong.

use super::{check_move, parse_transcript, GameRecord, MoveError, RecordError, RecordedMove};
use crate::board::{Color, Square};
use crate::game::Game;
use crate::reversi::{Move, Position, Reversi};
use std::fmt;

mod text;
mod wtb;

pub use text::TextReader;
pub use wtb::{parse_wtb, WtbHeader, WtbReader, WthorFile};
use wtb::{u16_at, WTHOR_HEADER};

/// One game of a collection, with what the collection states about it.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchiveGame {
    /// The moves from the 8x8 start, every pass explicit, and the header
    /// (players, tournament or event in `place`, year in `date`) where the
    /// collection names them.
    pub record: GameRecord,
    /// The final score the collection states, black minus white; it may
    /// count the empty squares for the winner or not (WTHOR does both).
    pub stated_score: Option<i32>,
    /// WTHOR `.wtb`: the score of perfect play from the game's position
    /// with [`WthorFile::depth`] empty squares.
    pub theoretical_score: Option<TheoreticalScore>,
}

/// A WTHOR game's theoretical score: the final score of perfect play from
/// the game's position with `empties` empty squares, black minus white
/// (empty squares to the winner).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TheoreticalScore {
    /// The empty squares of the position it is the value of (the file's
    /// depth, 24 in every WTHOR file published).
    pub empties: u32,
    /// Black's final disc difference under perfect play from there.
    pub black_score: i32,
}

impl ArchiveGame {
    fn new(record: GameRecord) -> ArchiveGame {
        ArchiveGame {
            record,
            stated_score: None,
            theoretical_score: None,
        }
    }

    /// Whether the moves end the game (unfinished games are resignations,
    /// time losses or records cut short).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.record.last().board.is_game_over()
    }

    /// Whether the stated score agrees with the moves: `None` when nothing
    /// is stated or the game is unfinished; otherwise whether it is the
    /// final disc difference, counted with the empty squares for the winner
    /// or without them.
    #[must_use]
    pub fn stated_score_agrees(&self) -> Option<bool> {
        let stated = self.stated_score?;
        let last = self.record.last();
        last.board.is_game_over().then(|| {
            stated == super::standard_score(&last.board) || stated == last.board.disc_difference()
        })
    }
}

/// What is wrong with a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArchiveErrorKind {
    /// The binary header is short or holds values that are not WTHOR's.
    Header(String),
    /// The file ends inside a game or a name.
    Truncated,
    /// A `.wtb` move byte that is not a square (`10 * row + column`).
    NotASquare(u8),
    /// A `.wtb` disc count above 64 (a score beyond the board's 64 discs).
    Discs {
        /// Which score: `final` or `theoretical`.
        score: &'static str,
        /// The count given.
        discs: u8,
    },
    /// A move the rules do not allow, with its 1-based number (passes
    /// counted as moves).
    Move {
        /// The move's number.
        number: usize,
        /// Why it is not legal.
        error: MoveError,
    },
    /// A game text (PGN moves, a `.gam` line) that does not read.
    Record(RecordError),
    /// A `.gam` move signed for the side that is not to move.
    WrongSign {
        /// The move's 1-based number.
        number: usize,
        /// The side the sign gives.
        signed: Color,
    },
    /// A line of a form other than the collection's.
    Syntax(String),
    /// Text (PGN, `.gam`) that is not UTF-8.
    NotText,
    /// The input could not be read: the system's reason.
    Read(String),
}

impl fmt::Display for ArchiveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArchiveErrorKind::Header(t) => write!(f, "bad header: {t}"),
            ArchiveErrorKind::Truncated => f.write_str("the file is cut short"),
            ArchiveErrorKind::NotASquare(b) => write!(f, "move byte {b} is not a square"),
            ArchiveErrorKind::Discs { score, discs } => write!(
                f,
                "its {score} score gives black {discs} discs, more than the board's 64"
            ),
            ArchiveErrorKind::Move { number, error } => write!(f, "move {number}: {error}"),
            ArchiveErrorKind::Record(e) => e.fmt(f),
            ArchiveErrorKind::WrongSign { number, signed } => write!(
                f,
                "move {number} is signed for {}, who is not to move",
                signed.name()
            ),
            ArchiveErrorKind::Syntax(t) => f.write_str(t),
            ArchiveErrorKind::NotText => f.write_str("not text (not UTF-8)"),
            ArchiveErrorKind::Read(e) => write!(f, "cannot read it: {e}"),
        }
    }
}

/// A collection that could not be read: the game (1-based; 0 for the
/// file's header) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveError {
    /// The game's number in the collection (0: the header).
    pub game: usize,
    /// What.
    pub kind: ArchiveErrorKind,
}

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.game == 0 {
            self.kind.fmt(f)
        } else {
            write!(f, "game {}: {}", self.game, self.kind)
        }
    }
}

impl std::error::Error for ArchiveError {}

fn error(game: usize, kind: ArchiveErrorKind) -> ArchiveError {
    ArchiveError { game, kind }
}

/// A game built a disc at a time, passes inserted where the side to move
/// has no legal move.
struct Replay {
    record: GameRecord,
    position: Position,
}

impl Replay {
    fn new() -> Replay {
        let start = Position::start(8);
        Replay {
            record: GameRecord::new(start),
            position: start,
        }
    }

    /// The side that plays the next disc (after a forced pass, if any).
    fn next_mover(&self) -> Color {
        let p = &self.position;
        if p.board.moves(p.to_move) == 0 && !p.board.is_game_over() {
            p.to_move.other()
        } else {
            p.to_move
        }
    }

    /// Plays a disc at `sq`, passing first if the side to move must.
    fn disc(&mut self, sq: Square) -> Result<(), ArchiveErrorKind> {
        let game = Reversi::DISC_DIFFERENCE;
        if self.next_mover() != self.position.to_move {
            self.record.moves.push(RecordedMove::plain(Move::Pass));
            self.position = game.play(&self.position, Move::Pass);
        }
        let mv = Move::Place(sq);
        check_move(&self.position, mv).map_err(|error| ArchiveErrorKind::Move {
            number: self.record.moves.len() + 1,
            error,
        })?;
        self.record.moves.push(RecordedMove::plain(mv));
        self.position = game.play(&self.position, mv);
        Ok(())
    }
}

impl WthorFile {
    /// Writes the tournament into each game's `place` and the players
    /// into `black` and `white`, from the lists read by
    /// [`parse_wthor_names`] (a number past a list's end leaves the name
    /// unset).
    pub fn name_games(&mut self, tournaments: &[String], players: &[String]) {
        for (game, &numbers) in self.games.iter_mut().zip(&self.numbers) {
            name_game(game, numbers, tournaments, players);
        }
    }
}

/// Writes the tournament of a `.wtb` game whose tournament, black and
/// white player numbers are `numbers` into its `place`, and its players
/// into `black` and `white`, from the lists read by [`parse_wthor_names`]
/// (a number past a list's end leaves the name unset).
pub fn name_game(
    game: &mut ArchiveGame,
    [t, b, w]: [u16; 3],
    tournaments: &[String],
    players: &[String],
) {
    let name = |list: &[String], n: u16| list.get(usize::from(n)).cloned();
    let info = &mut game.record.info;
    info.place = name(tournaments, t);
    info.black = name(players, b);
    info.white = name(players, w);
}

/// Which WTHOR name file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameFile {
    /// `WTHOR.JOU`: players, 20 bytes a name.
    Players,
    /// `WTHOR.TRN`: tournaments, 26 bytes a name.
    Tournaments,
}

/// Reads `WTHOR.JOU` or `WTHOR.TRN`: a 16-byte header (the number of
/// names in bytes 8-9), then fixed-length names (Latin-1, ended by a zero
/// byte). A name's index is the number the games give.
///
/// # Errors
/// [`ArchiveError`] when the file is shorter than its header says.
pub fn parse_wthor_names(bytes: &[u8], which: NameFile) -> Result<Vec<String>, ArchiveError> {
    let size = match which {
        NameFile::Players => 20,
        NameFile::Tournaments => 26,
    };
    if bytes.len() < WTHOR_HEADER {
        return Err(error(0, ArchiveErrorKind::Truncated));
    }
    let count = usize::from(u16_at(bytes, 8));
    let body = &bytes[WTHOR_HEADER..];
    if body.len() < count * size {
        return Err(error(0, ArchiveErrorKind::Truncated));
    }
    Ok(body
        .chunks_exact(size)
        .take(count)
        .map(|raw| {
            raw.iter()
                .take_while(|&&b| b != 0)
                .map(|&b| char::from(b))
                .collect::<String>()
                .trim()
                .to_owned()
        })
        .collect())
}

/// The longest line of a PGN or `.gam` collection, in bytes (a game's
/// moves on one line take about 200).
pub const MAX_COLLECTION_LINE: usize = 1 << 16;

/// The most text one PGN game may hold, its tags and moves together, in
/// bytes (a game's take under 1,000).
pub const MAX_GAME_TEXT: usize = 1 << 16;

/// A reader's next item from `read` (`Ok(None)` at the end), `failed`
/// set when it is an error: the readers end after their first error.
fn fused<T>(
    read: Result<Option<T>, ArchiveError>,
    failed: &mut bool,
) -> Option<Result<T, ArchiveError>> {
    let item = read.transpose();
    *failed = matches!(item, Some(Err(_)));
    item
}

/// Reads a PGN file of WTHOR games: per game, header lines
/// `[Tag "value"]` (`Event`, `Date`, `Black`, `White`, `Result` "B-W" with
/// the final discs of each side), then numbered moves `1. F5 D6`, passes
/// left out (a blank line between the tags and the moves allowed). Games
/// are separated by blank lines after their moves or by the next header.
/// [`TextReader::pgn`] reads the same form a game at a time.
///
/// # Errors
/// [`ArchiveError`] naming the game: a line that is neither a tag nor
/// moves, a move that is not legal, a line longer than
/// [`MAX_COLLECTION_LINE`] or a game longer than [`MAX_GAME_TEXT`].
pub fn parse_pgn(text: &str) -> Result<Vec<ArchiveGame>, ArchiveError> {
    TextReader::pgn(text.as_bytes()).collect()
}

/// Writes an 8x8 game from the standard start as one PGN game, the form
/// [`parse_pgn`] reads: the tags `Event`, `Date`, `Black`, `White` (`?`
/// where the record does not say), `Result` (each side's discs with the
/// empty squares to the winner, split on a draw, so that black minus white
/// is the standard final score; `*` while the game goes on), then the
/// numbered moves, ten to a line, passes left out, each variation in
/// parentheses after the move it replaces.
///
/// `None` for another board size or start position: PGN has no way to
/// write them.
#[must_use]
pub fn write_pgn(record: &GameRecord) -> Option<String> {
    if record.start != Position::start(8) {
        return None;
    }
    let info = &record.info;
    // A tag's value stays on its line.
    let value = |v: &Option<String>| {
        v.as_deref()
            .map_or_else(|| "?".to_string(), |t| t.replace(['\r', '\n'], " "))
    };
    let last = record.last().board;
    let result = if last.is_game_over() {
        let (black, white) = (last.count(Color::Black), last.count(Color::White));
        let empty = 64 - black - white;
        let (b, w) = match black.cmp(&white) {
            std::cmp::Ordering::Greater => (black + empty, white),
            std::cmp::Ordering::Less => (black, white + empty),
            std::cmp::Ordering::Equal => (black + empty / 2, white + empty - empty / 2),
        };
        format!("{b}-{w}")
    } else {
        "*".to_string()
    };
    let mut s = String::new();
    for (tag, v) in [
        ("Event", value(&info.place)),
        ("Date", value(&info.date)),
        ("Black", value(&info.black)),
        ("White", value(&info.white)),
        ("Result", result.clone()),
    ] {
        s.push_str(&format!("[{tag} \"{v}\"]\n"));
    }
    s.push('\n');
    s.push_str(&super::pgn::write_move_text(record, &result));
    s.push('\n');
    Some(s)
}

/// One PGN game from its tags and move text.
fn pgn_game(tags: &[(String, String)], moves: &str) -> Result<ArchiveGame, ArchiveErrorKind> {
    // Move numbers, a result, comments and glyphs are not moves; the main
    // line and each variation are transcripts from the start.
    let text = super::pgn::read_move_text(moves).map_err(ArchiveErrorKind::Syntax)?;
    let line = |names: &[String]| {
        parse_transcript(&names.join(" "), Position::start(8)).map_err(ArchiveErrorKind::Record)
    };
    let mut record = line(&text.main)?;
    let main = record.move_list();
    for names in &text.variations {
        let v = line(names)?.move_list();
        record
            .variations
            .extend(super::pgn::variation_of(&main, &v));
    }
    let mut game = ArchiveGame::new(record);
    for (name, value) in tags {
        let info = &mut game.record.info;
        let value = Some(value.clone());
        match name.as_str() {
            "Event" => info.place = value,
            "Date" => info.date = value,
            "Black" => info.black = value,
            "White" => info.white = value,
            "Result" => {
                game.stated_score = value
                    .as_deref()
                    .and_then(|v| v.split_once('-'))
                    .and_then(|(b, w)| Some(b.parse::<i32>().ok()? - w.parse::<i32>().ok()?));
                game.record.info.result = value;
            }
            _ => {}
        }
    }
    Ok(game)
}

/// Reads one line of Logistello's game file (`logbook.gam`):
/// `+d3-c3+c4...: -04 10`, each move signed `+` for black and `-` for
/// white (a pass shows as two moves of one sign), then `:`, black's final
/// disc difference (empty squares to the winner) and one more field.
///
/// # Errors
/// [`ArchiveErrorKind`]: a move that is not `+`/`-` and a square, one
/// signed for the side not to move, an illegal move, no score.
pub fn parse_gam_line(line: &str) -> Result<ArchiveGame, ArchiveErrorKind> {
    let syntax =
        |why: &str| ArchiveErrorKind::Syntax(format!("{why} (a .gam line: +d3-c3...: -04 10)"));
    let (moves, tail) = line.split_once(':').ok_or_else(|| syntax("no \":\""))?;
    let score = tail
        .split_whitespace()
        .next()
        .and_then(|s| s.parse::<i32>().ok())
        .ok_or_else(|| syntax("no score after \":\""))?;
    let bytes = moves.trim().as_bytes();
    if bytes.len() % 3 != 0 {
        return Err(syntax("moves are not sign, column, row"));
    }
    let mut replay = Replay::new();
    for (i, m) in bytes.chunks_exact(3).enumerate() {
        let signed = match m[0] {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return Err(syntax(&format!("move {} has no sign", i + 1))),
        };
        let (col, row) = (m[1].to_ascii_lowercase(), m[2]);
        if !(b'a'..=b'h').contains(&col) || !(b'1'..=b'8').contains(&row) {
            return Err(syntax(&format!("move {} is not a square", i + 1)));
        }
        if replay.next_mover() != signed {
            return Err(ArchiveErrorKind::WrongSign {
                number: replay.record.moves.len() + 1,
                signed,
            });
        }
        replay.disc(Square::new(row - b'1', col - b'a'))?;
    }
    let mut game = ArchiveGame::new(replay.record);
    game.stated_score = Some(score);
    Ok(game)
}

/// Reads a whole `.gam` file, a game a line (empty lines skipped);
/// [`TextReader::gam`] reads it a game at a time.
///
/// # Errors
/// [`ArchiveError`] naming the game (its line among the non-empty ones).
pub fn parse_gam(text: &str) -> Result<Vec<ArchiveGame>, ArchiveError> {
    TextReader::gam(text.as_bytes()).collect()
}

/// Whether `text` looks like a `.gam` line (a signed square first).
#[must_use]
pub fn is_gam_line(text: &str) -> bool {
    let b = text.trim_start().as_bytes();
    b.len() >= 3
        && matches!(b[0], b'+' | b'-')
        && b[1].is_ascii_alphabetic()
        && b[2].is_ascii_digit()
        && text.contains(':')
}

/// Whether `text` looks like PGN (a tag line or a numbered move first).
#[must_use]
pub fn is_pgn(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('[')
        || t.split_whitespace().next().is_some_and(|w| {
            w.len() > 1 && w.ends_with('.') && w[..w.len() - 1].chars().all(|c| c.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{parse_game, standard_score, write_transcript};
    use std::io;

    /// Two Logistello games as published: the second ends with a pass of
    /// black (`-b1-g1`), and each states its final score.
    const GAM: &str = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10
+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-a6+b4-a5+a4-e8+b8-h7+g8-b7+g2-g3+h2-a1+f1-e2+h3-a3+a8-a7+h8-g7+a2-b1-g1+h1: +00 10
";

    /// The first game of WTHOR's 2016 file: black ended with 35 discs,
    /// perfect play from 24 empties gives 32.
    const WTB_MOVES: &str = "f5d6c3d3c4f4f6g5c6e3d7c5e6d8g4c7f2f3c2d2e1d1g3f1e2g1h4e7f7g6h5g8b5b6a6b4c8b3a4a3b1h3f8h6h8b8g2b7a8a7e8h1h2a5b2a1a2c1h7g7";

    fn wtb(games: &[(&str, u8, u8)]) -> Vec<u8> {
        let mut bytes = vec![0u8; 16];
        bytes[4..8].copy_from_slice(&(games.len() as u32).to_le_bytes());
        bytes[10..12].copy_from_slice(&2016u16.to_le_bytes());
        bytes[12] = 8;
        bytes[14] = 24;
        for (i, (moves, actual, theoretical)) in games.iter().enumerate() {
            let n = i as u16;
            for v in [n, n + 1, n + 2] {
                bytes.extend(v.to_le_bytes());
            }
            bytes.extend([*actual, *theoretical]);
            let mut squares: Vec<u8> = moves
                .as_bytes()
                .chunks(2)
                .map(|m| 10 * (m[1] - b'0') + (m[0] - b'a' + 1))
                .collect();
            squares.resize(60, 0);
            bytes.extend(squares);
        }
        bytes
    }

    #[test]
    fn gam_lines_replay_with_passes_and_their_scores_agree() {
        let games = parse_gam(GAM).unwrap();
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(g.is_finished());
            assert_eq!(g.stated_score_agrees(), Some(true));
        }
        assert_eq!(games[0].stated_score, Some(-4));
        let second = &games[1].record;
        let passes = second.moves.iter().filter(|m| m.mv == Move::Pass).count();
        assert_eq!(passes, 1);
        assert_eq!(second.final_score(), Some(0));
        // The same line through the one-record reader.
        let line = GAM.lines().nth(1).unwrap();
        assert_eq!(parse_game(line, 8).unwrap(), *second);
    }

    #[test]
    fn gam_signs_and_squares_are_checked() {
        assert_eq!(
            parse_gam_line("+d3+c3: +00 10"),
            Err(ArchiveErrorKind::WrongSign {
                number: 2,
                signed: Color::Black
            })
        );
        assert!(matches!(
            parse_gam_line("+d3-d3: +00 10"),
            Err(ArchiveErrorKind::Move { number: 2, .. })
        ));
        assert!(matches!(
            parse_gam_line("+d3-c3"),
            Err(ArchiveErrorKind::Syntax(_))
        ));
        let e = parse_gam("+d3-c3: 0 10\n\n+d3-z9: 0 10\n").unwrap_err();
        assert_eq!(e.game, 2);
    }

    #[test]
    fn pgn_games_read_like_their_gam_twins() {
        let gam = parse_gam(GAM).unwrap();
        let mut pgn = String::new();
        for (i, g) in gam.iter().enumerate() {
            pgn.push_str(&format!(
                "[Event \"Test - {i}\"]\n[Date \"1995\"]\n[Black \"B{i}\"]\n[White \"W{i}\"]\n[Result \"33-31\"]\n"
            ));
            let squares: Vec<String> = g
                .record
                .moves
                .iter()
                .filter_map(|m| match m.mv {
                    Move::Place(sq) => Some(sq.to_string().to_uppercase()),
                    Move::Pass => None,
                })
                .collect();
            for (k, pair) in squares.chunks(2).enumerate() {
                pgn.push_str(&format!("{}. {}\n", k + 1, pair.join(" ")));
            }
            pgn.push('\n');
        }
        let read = parse_pgn(&pgn).unwrap();
        assert_eq!(read.len(), 2);
        for (i, (p, g)) in read.iter().zip(&gam).enumerate() {
            assert_eq!(p.record.moves, g.record.moves);
            assert_eq!(
                p.record.info.black.as_deref(),
                Some(format!("B{i}").as_str())
            );
            assert_eq!(
                p.record.info.place.as_deref(),
                Some(format!("Test - {i}").as_str())
            );
            assert_eq!(p.stated_score, Some(2));
        }
        // One game alone through the one-record reader.
        let first = pgn.split("\n\n").next().unwrap();
        assert_eq!(parse_game(first, 8).unwrap().moves, gam[0].record.moves);
        // Two games are not one record.
        assert!(parse_game(&pgn, 8).is_err());
        // An illegal move names its game.
        let bad = format!("{pgn}[Event \"x\"]\n1. F5 F5\n");
        let e = parse_pgn(&bad).unwrap_err();
        assert_eq!(e.game, 3);
        assert!(e.to_string().starts_with("game 3: "), "{e}");
    }

    #[test]
    fn wtb_games_replay_with_their_scores_and_names() {
        let bytes = wtb(&[(WTB_MOVES, 35, 32), (GAM_SQUARES, 30, 30)]);
        let mut file = parse_wtb(&bytes).unwrap();
        assert_eq!((file.year, file.depth, file.games.len()), (2016, 24, 2));
        let first = &file.games[0];
        assert_eq!(write_transcript(&first.record), WTB_MOVES);
        assert_eq!(first.stated_score, Some(6));
        assert_eq!(
            first.theoretical_score,
            Some(TheoreticalScore {
                empties: 24,
                black_score: 0
            })
        );
        assert_eq!(
            first.stated_score,
            Some(standard_score(&first.record.last().board))
        );
        // The pass of the second game is inferred.
        assert_eq!(
            file.games[1].record.moves,
            parse_gam(GAM).unwrap()[1].record.moves
        );
        let names: Vec<String> = (0..5).map(|i| format!("name {i}")).collect();
        file.name_games(&names, &names);
        let info = &file.games[1].record.info;
        assert_eq!(
            (
                info.place.as_deref(),
                info.black.as_deref(),
                info.white.as_deref()
            ),
            (Some("name 1"), Some("name 2"), Some("name 3"))
        );
    }

    /// The second `.gam` game's squares, signs and pass left out.
    const GAM_SQUARES: &str = "d3c3c4e3c2b3d2e1d1c1f4d6e6g4b2f6d7c8e7d8f3f5g5h4h6f2f7h5g6c6c5c7b6b5f8a6b4a5a4e8b8h7g8b7g2g3h2a1f1e2h3a3a8a7h8g7a2b1g1h1";

    #[test]
    fn wtb_errors_name_the_game() {
        let good = wtb(&[(WTB_MOVES, 35, 32), ("f5f5", 0, 0)]);
        let e = parse_wtb(&good).unwrap_err();
        assert_eq!(e.game, 2);
        assert!(matches!(e.kind, ArchiveErrorKind::Move { number: 2, .. }));
        let cut = &good[..good.len() - 1];
        assert_eq!(
            parse_wtb(cut).unwrap_err().kind,
            ArchiveErrorKind::Truncated
        );
        let mut off = wtb(&[(WTB_MOVES, 35, 32)]);
        off[16 + 8] = 19;
        assert_eq!(
            parse_wtb(&off).unwrap_err(),
            ArchiveError {
                game: 1,
                kind: ArchiveErrorKind::NotASquare(19)
            }
        );
        let mut big = wtb(&[]);
        big[12] = 10;
        assert!(matches!(
            parse_wtb(&big).unwrap_err().kind,
            ArchiveErrorKind::Header(_)
        ));
    }

    #[test]
    fn wtb_disc_bytes_above_64_and_depths_above_60_are_refused() {
        // A black disc count of 65-255 (a score of up to 446) in either
        // score byte names its game.
        for (at, byte) in [(6, 65u8), (7, 65), (6, 255), (7, 200)] {
            let mut bytes = wtb(&[(WTB_MOVES, 35, 32), (WTB_MOVES, 35, 32)]);
            bytes[16 + 68 + at] = byte;
            let e = parse_wtb(&bytes).unwrap_err();
            assert_eq!(e.game, 2, "{e}");
            assert!(e.to_string().contains(&byte.to_string()), "{e}");
        }
        // 64 discs is a whole board, and 60 empty squares the start.
        let full = wtb(&[(WTB_MOVES, 64, 0)]);
        assert!(parse_wtb(&full).is_ok());
        for depth in [61u8, 64, 255] {
            let mut bytes = wtb(&[(WTB_MOVES, 35, 32)]);
            bytes[14] = depth;
            let e = parse_wtb(&bytes).unwrap_err();
            assert_eq!(e.game, 0, "{e}");
            assert!(matches!(e.kind, ArchiveErrorKind::Header(_)), "{e}");
        }
        let mut sixty = wtb(&[(WTB_MOVES, 35, 32)]);
        sixty[14] = 60;
        assert_eq!(parse_wtb(&sixty).unwrap().depth, 60);
    }

    #[test]
    fn the_readers_give_a_game_at_a_time_whatever_the_reads() {
        // Through a buffer of 3 bytes: the games of the whole-text readers.
        let gam: Vec<ArchiveGame> =
            TextReader::gam(io::BufReader::with_capacity(3, GAM.as_bytes()))
                .collect::<Result<_, _>>()
                .unwrap();
        assert_eq!(gam, parse_gam(GAM).unwrap());
        let crlf = GAM.replace('\n', "\r\n");
        assert_eq!(parse_gam(&crlf).unwrap(), gam);
        let bytes = wtb(&[(WTB_MOVES, 35, 32), (GAM_SQUARES, 30, 30)]);
        let mut reader = WtbReader::new(
            io::BufReader::with_capacity(5, &bytes[..]),
            bytes.len() as u64,
        )
        .unwrap();
        let (first, numbers) = reader.next_game().unwrap().unwrap();
        assert_eq!(numbers, [0, 1, 2]);
        assert_eq!(first, parse_wtb(&bytes).unwrap().games[0]);
        assert!(reader.next_game().unwrap().is_ok());
        assert!(reader.next_game().is_none());
        // A file shorter than the length it had when its header was
        // checked: the game cut short is named, and the reading ends.
        let mut cut = WtbReader::new(&bytes[..bytes.len() - 1], bytes.len() as u64).unwrap();
        assert!(cut.next().unwrap().is_ok());
        assert_eq!(
            cut.next().unwrap().unwrap_err(),
            error(2, ArchiveErrorKind::Truncated)
        );
        assert!(cut.next().is_none());
    }

    #[test]
    fn a_text_collection_holds_lines_and_games_of_bounded_length() {
        let long = format!("{}\n", "x".repeat(MAX_COLLECTION_LINE + 1));
        let e = parse_gam(&format!("{}\n{long}", GAM.lines().next().unwrap())).unwrap_err();
        assert_eq!(e.game, 2, "{e}");
        assert!(e.to_string().contains("longer than 65536 bytes"), "{e}");
        // One game of many short move lines, more text than any game has.
        let moves = "1. F5 D6\n".repeat(MAX_GAME_TEXT / 8);
        let e = parse_pgn(&format!("[Event \"x\"]\n{moves}")).unwrap_err();
        assert_eq!(e.game, 1, "{e}");
        assert!(e.to_string().contains("text is longer than"), "{e}");
        let e = TextReader::gam(&b"+d3-c3: 0 10\n+d3\xff: 0 10\n"[..])
            .nth(1)
            .unwrap()
            .unwrap_err();
        assert_eq!(e, error(2, ArchiveErrorKind::NotText));
    }

    #[test]
    fn name_files_read_fixed_length_latin1_names() {
        let mut bytes = vec![0u8; 16];
        bytes[8] = 2;
        let mut name = |text: &[u8]| {
            let mut raw = text.to_vec();
            raw.resize(20, 0);
            bytes.extend(raw);
        };
        name(b"Tastet Marc");
        name(b"L\xe9on");
        assert_eq!(
            parse_wthor_names(&bytes, NameFile::Players).unwrap(),
            ["Tastet Marc", "L\u{e9}on"]
        );
        assert!(parse_wthor_names(&bytes, NameFile::Tournaments).is_err());
    }

    #[test]
    fn a_blank_line_between_a_pgn_games_tags_and_moves_keeps_one_game() {
        let one = "[Event \"a\"]\n[Result \"*\"]\n\n1. f5 d6 2. c3 *\n";
        let games = parse_pgn(one).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(write_transcript(&games[0].record), "f5d6c3");
        assert_eq!(games[0].record.info.place.as_deref(), Some("a"));
        let two = format!("{one}\n{}", one.replace("f5 d6 2. c3", "f5 f6"));
        let games = parse_pgn(&two).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(write_transcript(&games[1].record), "f5f6");
        // Without blank lines: a new header starts the next game.
        let tight = "[Event \"a\"]\n1. f5 d6\n[Event \"b\"]\n1. f5 f6\n";
        assert_eq!(parse_pgn(tight).unwrap().len(), 2);
    }

    #[test]
    fn written_pgn_reads_back_to_the_same_game_and_score() {
        for (i, g) in parse_gam(GAM).unwrap().into_iter().enumerate() {
            let mut record = g.record;
            record.info.black = Some(format!("Black \"{i}\"\nplayer"));
            let text = write_pgn(&record).unwrap();
            assert!(
                text.contains("[Black \"Black \"0\" player\"]") || i == 1,
                "{text}"
            );
            let back = parse_pgn(&text).unwrap();
            assert_eq!(back.len(), 1, "{text}");
            // Passes are not written; the reader puts them back.
            assert_eq!(back[0].record.moves, record.moves, "{text}");
            assert_eq!(back[0].stated_score, record.final_score(), "{text}");
            assert_eq!(back[0].stated_score_agrees(), Some(true));
            assert_eq!(parse_game(&text, 8).unwrap().moves, record.moves);
        }
        // A game under way: its result is `*`, its moves read back.
        let mut on = parse_transcript("f5d6c3", Position::start(8)).unwrap();
        on.info.place = Some("here".into());
        let text = write_pgn(&on).unwrap();
        assert!(
            text.contains("[Result \"*\"]") && text.ends_with("1. f5 d6 2. c3 *\n"),
            "{text}"
        );
        let back = parse_pgn(&text).unwrap();
        assert_eq!(back[0].record.moves, on.moves);
        assert_eq!(back[0].record.info.place.as_deref(), Some("here"));
        assert_eq!(back[0].stated_score, None);
        // No moves at all still reads back as the start.
        let empty = write_pgn(&GameRecord::new(Position::start(8))).unwrap();
        assert!(parse_game(&empty, 8).unwrap().moves.is_empty(), "{empty}");
        // PGN holds 8x8 games from the standard start only.
        assert_eq!(write_pgn(&GameRecord::new(Position::start(6))), None);
        let (elsewhere, _) = crate::record::parse_board_string(
            &format!(
                "{}X",
                "-".repeat(27) + "XO" + &"-".repeat(6) + "OX" + &"-".repeat(27)
            ),
            8,
        )
        .unwrap();
        assert_ne!(elsewhere, Position::start(8));
        assert_eq!(write_pgn(&GameRecord::new(elsewhere)), None);
    }

    /// A game's variations are written in parentheses after the move each
    /// replaces and read back as they were, passes and all; comments and
    /// glyphs are read past (a PGN game with a `{comment}` was refused).
    #[test]
    fn pgn_variations_round_trip_and_comments_are_read_past() {
        let mut g = parse_transcript(WTB_MOVES, Position::start(8)).unwrap();
        let line = |t: &str| parse_transcript(t, Position::start(8)).unwrap().move_list();
        let main = g.move_list();
        // Late in the game: another legal move at move 41, then two more.
        let mut late = main[..40].to_vec();
        let mut p = g.positions()[40];
        let rules = crate::reversi::Reversi::DISC_DIFFERENCE;
        for k in 0..3 {
            let mv = rules
                .moves(&p)
                .find(|m| k > 0 || *m != main[40])
                .expect("a move");
            late.push(mv);
            p = rules.play(&p, mv);
        }
        for other in [line("f5d6c3d3c4f4f6f3"), line("f5f6"), late] {
            g.variations
                .extend(super::super::pgn::variation_of(&main, &other));
        }
        assert_eq!(g.variations.len(), 3);
        // They are written (and read back) in the game's order.
        g.variations.sort_by_key(|v| v.at);
        let text = write_pgn(&g).unwrap();
        assert!(text.contains("1. f5 d6 ( 1... f6 ) 2. c3"), "{text}");
        let back = parse_game(&text, 8).unwrap();
        assert_eq!(back.moves, g.moves);
        assert_eq!(back.variations, g.variations);
        let commented = "[Event \"x\"]\n\n1. F5 {the start} D6 $2 2. C3!? ; why not\nD3 *\n";
        assert_eq!(
            parse_game(commented, 8).unwrap().move_list(),
            line("f5d6c3d3")
        );
    }
}
