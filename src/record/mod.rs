//! Game records: the texts Othello programs exchange games and positions in.
//!
//! - Move transcripts (`f5d6c3d3c4`): squares one after another, in any
//!   case, optionally separated by spaces, commas or dashes; a forced pass
//!   may be written `PA` (or `pass`) or left out.
//! - GGF, the Generic Game Format of the GGS server and of NBoard, for 8x8
//!   games: `(;GM[Othello]PB[..]PW[..]RE[..]TI[..]TY[8]BO[8 <board> <side>]B[F5]W[D6//1.2];)`.
//! - Board strings: the squares in reading order (`-` empty, `X` or `*`
//!   black, `O` white), then the side to move (`X`/`*` or `O`), the form
//!   `reversi solve --obf` reads.
//! - Game collections ([`archive`]): the WTHOR database (binary `.wtb` with
//!   its name files, and PGN) and Logistello's `.gam` lines; [`parse_game`]
//!   also reads one PGN game or one `.gam` line.
//! - Edax's binary opening book (`book.dat`), read and written byte for
//!   byte by [`edax_book`].
//! - The standard names of the openings ([`openings`]: a table of named
//!   lines, and the opening a game is in).
//!
//! Parsing checks every move against the rules; errors are typed
//! ([`RecordError`]) and say where in the record the problem is (the move
//! number and the character).

pub mod archive;
pub mod edax_book;
mod ggf;
pub mod openings;
mod transcript;

pub use ggf::{parse_ggf, write_ggf};
pub use transcript::{parse_transcript, write_transcript};

use crate::board::{Board, Color, Square};
use crate::game::Game;
use crate::reversi::{Move, Position, Reversi};
use std::fmt;

/// One move of a record, with what a program said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedMove {
    /// The move.
    pub mv: Move,
    /// The evaluation given with it (GGF `B[F5/1.5]`), if any.
    pub eval: Option<f64>,
    /// The seconds it took (GGF `B[F5//2.3]`), if given.
    pub seconds: Option<f64>,
}

impl RecordedMove {
    /// A move without evaluation or time.
    #[must_use]
    pub const fn plain(mv: Move) -> RecordedMove {
        RecordedMove {
            mv,
            eval: None,
            seconds: None,
        }
    }
}

/// What a GGF record says about the game besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// `PC`: where it was played.
    pub place: Option<String>,
    /// `DT`: when.
    pub date: Option<String>,
    /// `PB`: the black player.
    pub black: Option<String>,
    /// `PW`: the white player.
    pub white: Option<String>,
    /// `RE`: the result as written (black's disc difference, e.g. `+10.000`).
    pub result: Option<String>,
    /// `TI`: the time control as written.
    pub time: Option<String>,
}

/// A game: its start position, its moves (every pass explicit) and its
/// header.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The position before the first move.
    pub start: Position,
    /// The moves in order; a forced pass is a move of its own.
    pub moves: Vec<RecordedMove>,
    /// The header of a GGF record.
    pub info: GameInfo,
}

impl GameRecord {
    /// A game with no moves yet from `start`.
    #[must_use]
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            start,
            moves: Vec::new(),
            info: GameInfo::default(),
        }
    }

    /// The position after all moves.
    #[must_use]
    pub fn last(&self) -> Position {
        self.positions().pop().unwrap_or(self.start)
    }

    /// The position before each move and the final one (`moves.len() + 1`
    /// positions).
    #[must_use]
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut p = self.start;
        out.push(p);
        for m in &self.moves {
            p = Reversi::DISC_DIFFERENCE.play(&p, m.mv);
            out.push(p);
        }
        out
    }

    /// The moves alone.
    #[must_use]
    pub fn move_list(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// Plays `mv` at the end of the game if it is legal there.
    ///
    /// # Errors
    /// [`MoveError`] when the game is over or the move is not legal.
    pub fn push(&mut self, mv: RecordedMove) -> Result<(), MoveError> {
        let p = self.last();
        check_move(&p, mv.mv)?;
        self.moves.push(mv);
        Ok(())
    }

    /// The game cut after its first `moves` moves (a forced pass counts as
    /// one), header kept: what `--until N` asks of a record.
    ///
    /// # Errors
    /// [`RecordTooShort`] when the game has fewer than `moves` moves.
    pub fn until(&self, moves: usize) -> Result<GameRecord, RecordTooShort> {
        if moves > self.moves.len() {
            return Err(RecordTooShort(format!(
                "the record holds {} moves, not {moves}",
                self.moves.len()
            )));
        }
        let mut cut = self.clone();
        cut.moves.truncate(moves);
        Ok(cut)
    }

    /// Takes back the last move (`None` at the start).
    pub fn pop(&mut self) -> Option<RecordedMove> {
        self.moves.pop()
    }

    /// The final score with the standard rule (empty squares go to the
    /// winner), black minus white, if the game is over.
    #[must_use]
    pub fn final_score(&self) -> Option<i32> {
        let p = self.last();
        p.board.is_game_over().then(|| standard_score(&p.board))
    }
}

message_error! {
    /// Why a record cannot be cut after a number of moves: it has fewer.
    pub struct RecordTooShort(pub String);
}

/// Black's discs minus white's, the empty squares going to the winner (the
/// standard rule of tournament Othello).
#[must_use]
pub fn standard_score(board: &Board) -> i32 {
    let d = board.disc_difference();
    let empty = board.empty().count_ones() as i32;
    d + d.signum() * empty
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Neither side can move any more.
    GameOver,
    /// The square is taken or flips nothing.
    Illegal {
        /// The square.
        square: Square,
        /// The side to move.
        color: Color,
    },
    /// A pass while the side to move has a legal move.
    PassNotForced {
        /// The side to move.
        color: Color,
    },
    /// A disc while the side to move has no legal move (it must pass).
    MustPass {
        /// The side to move.
        color: Color,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => f.write_str("the game is already over"),
            MoveError::Illegal { square, color } => {
                write!(f, "{square} is not a legal move for {}", color.name())
            }
            MoveError::PassNotForced { color } => {
                write!(f, "{} cannot pass: it has a legal move", color.name())
            }
            MoveError::MustPass { color } => {
                write!(f, "{} has no legal move and must pass", color.name())
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Checks that `mv` is legal in `p`.
///
/// # Errors
/// [`MoveError`] saying why not.
pub fn check_move(p: &Position, mv: Move) -> Result<(), MoveError> {
    let board = &p.board;
    if board.is_game_over() {
        return Err(MoveError::GameOver);
    }
    let own = board.moves(p.to_move);
    match mv {
        Move::Pass if own != 0 => Err(MoveError::PassNotForced { color: p.to_move }),
        Move::Pass => Ok(()),
        Move::Place(_) if own == 0 => Err(MoveError::MustPass { color: p.to_move }),
        Move::Place(sq) if board.contains(sq) && own & sq.bit() != 0 => Ok(()),
        Move::Place(square) => Err(MoveError::Illegal {
            square,
            color: p.to_move,
        }),
    }
}

/// Where in a record a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    /// 1-based number of the move concerned, if the problem is a move.
    pub move_number: Option<usize>,
    /// 1-based character position in the text.
    pub character: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.move_number {
            Some(n) => write!(f, "move {n} (character {})", self.character),
            None => write!(f, "character {}", self.character),
        }
    }
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// A move that the rules do not allow there.
    Move(MoveError),
    /// Text that is not a square (`f5`), a pass or a separator.
    NotAMove(String),
    /// A square outside the board.
    OffBoard(String),
    /// A board of another size than the one expected.
    BoardSize(String),
    /// A board string with a wrong character or length.
    Board(String),
    /// A side to move other than `X`, `*`, `O`.
    SideToMove(String),
    /// GGF: the record does not start with `(;`.
    NoGameStart,
    /// GGF: a `[` without its `]`.
    UnclosedBracket,
    /// GGF: the record ends without `;)`.
    NoGameEnd,
    /// GGF: text after the game's `;)` (a second game, or anything but
    /// whitespace): a record holds one game.
    AfterGameEnd,
    /// GGF: a tag name not followed by `[`.
    TagWithoutValue(String),
    /// GGF: a move by the colour that is not to move.
    WrongColor {
        /// The colour of the move (`B` or `W`).
        played: Color,
        /// The colour to move.
        to_move: Color,
    },
    /// GGF: a game of something other than Othello.
    NotOthello(String),
    /// A PGN game or a `.gam` line that does not read (see [`archive`]).
    Collection(String),
    /// Nothing to read.
    Empty,
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordErrorKind::Move(e) => e.fmt(f),
            RecordErrorKind::NotAMove(t) => {
                write!(f, "{t:?} is not a move (a square like f5, or PA)")
            }
            RecordErrorKind::OffBoard(t) => write!(f, "{t} is not a square of the board"),
            RecordErrorKind::BoardSize(t) => write!(f, "board size {t}: only 8x8 games are read"),
            RecordErrorKind::Board(t) => write!(f, "bad board: {t}"),
            RecordErrorKind::SideToMove(t) => {
                write!(
                    f,
                    "{t:?} is not a side to move (X or * for black, O for white)"
                )
            }
            RecordErrorKind::NoGameStart => f.write_str("a GGF game starts with \"(;\""),
            RecordErrorKind::UnclosedBracket => f.write_str("\"[\" without its \"]\""),
            RecordErrorKind::NoGameEnd => f.write_str("the GGF game does not end with \";)\""),
            RecordErrorKind::AfterGameEnd => {
                f.write_str("text after the end of the GGF game (a record holds one game)")
            }
            RecordErrorKind::TagWithoutValue(t) => write!(f, "tag {t} without a [value]"),
            RecordErrorKind::WrongColor { played, to_move } => write!(
                f,
                "a move by {} but {} is to move",
                played.name(),
                to_move.name()
            ),
            RecordErrorKind::NotOthello(g) => write!(f, "GM[{g}] is not an Othello game"),
            RecordErrorKind::Collection(t) => f.write_str(t),
            RecordErrorKind::Empty => f.write_str("the record is empty"),
        }
    }
}

/// A record that could not be read: what and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// Where.
    pub at: Location,
    /// What.
    pub kind: RecordErrorKind,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: {}", self.at, self.kind)
    }
}

impl std::error::Error for RecordError {}

impl RecordError {
    fn new(character: usize, move_number: Option<usize>, kind: RecordErrorKind) -> RecordError {
        RecordError {
            at: Location {
                move_number,
                character,
            },
            kind,
        }
    }
}

/// The colour a board-string character stands for: `Some(None)` empty.
fn board_char(c: char) -> Option<Option<Color>> {
    match c {
        '-' | '.' | '_' => Some(None),
        'X' | 'x' | '*' | 'B' | 'b' => Some(Some(Color::Black)),
        'O' | 'o' | 'W' | 'w' => Some(Some(Color::White)),
        _ => None,
    }
}

/// The side to move a character stands for.
fn side_char(s: &str) -> Option<Color> {
    match s {
        "X" | "x" | "*" | "B" | "b" | "black" => Some(Color::Black),
        "O" | "o" | "W" | "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Reads `size * size` squares from `chars` (whitespace skipped) and
/// returns the board and the number of characters consumed. `offset` is the
/// 0-based character position of `chars` in the whole record (for errors).
fn read_squares(chars: &[char], size: u8, offset: usize) -> Result<(Board, usize), RecordError> {
    let n = usize::from(size);
    let (mut black, mut white) = (0u64, 0u64);
    let mut k = 0;
    let mut i = 0;
    while k < n * n {
        let Some(&c) = chars.get(i) else {
            return Err(RecordError::new(
                offset + i + 1,
                None,
                RecordErrorKind::Board(format!("{k} squares, expected {}", n * n)),
            ));
        };
        i += 1;
        if c.is_whitespace() {
            continue;
        }
        let Some(colour) = board_char(c) else {
            return Err(RecordError::new(
                offset + i,
                None,
                RecordErrorKind::Board(format!("{c:?} is not a square (-, X, * or O)")),
            ));
        };
        let sq = Square::new((k / n) as u8, (k % n) as u8);
        match colour {
            Some(Color::Black) => black |= sq.bit(),
            Some(Color::White) => white |= sq.bit(),
            None => {}
        }
        k += 1;
    }
    let board = Board::from_bits(black, white, size).expect("squares of the board");
    Ok((board, i))
}

/// Parses a board string: `size * size` squares (`-` empty, `X`/`*` black,
/// `O` white; spaces between rows allowed), then the side to move (`X`/`*`
/// or `O`) after optional spaces. Returns the position and the rest of
/// the text (which may hold moves).
///
/// # Errors
/// [`RecordError`] on a bad character, a short board or a missing side.
pub fn parse_board_string(text: &str, size: u8) -> Result<(Position, &str), RecordError> {
    let chars: Vec<char> = text.chars().collect();
    let lead = chars.iter().take_while(|c| c.is_whitespace()).count();
    let (board, used) = read_squares(&chars[lead..], size, lead)?;
    let mut i = lead + used;
    while chars.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    let start = i;
    while chars.get(i).is_some_and(|c| !c.is_whitespace()) {
        i += 1;
    }
    let word: String = chars[start..i].iter().collect();
    let Some(to_move) = side_char(&word) else {
        return Err(RecordError::new(
            start + 1,
            None,
            RecordErrorKind::SideToMove(word),
        ));
    };
    let rest_byte = text.char_indices().nth(i).map_or(text.len(), |(b, _)| b);
    Ok((Position { board, to_move }, &text[rest_byte..]))
}

/// Writes a position as a board string: the squares (`-`, `X`, `O`), a
/// space and the side to move (`X` or `O`), as `reversi solve --obf` reads.
#[must_use]
pub fn write_board_string(p: &Position) -> String {
    let mut s = p.board.format_with(['-', 'X', 'O'], "");
    s.push(' ');
    s.push(match p.to_move {
        Color::Black => 'X',
        Color::White => 'O',
    });
    s
}

/// Reads any of the record forms for a board of `size`: a GGF game (text
/// starting with `(;`, 8x8 only), one PGN game (text starting with a tag
/// `[Event "..."]` or a numbered move `1.`, 8x8 only), one Logistello
/// `.gam` line (`+d3-c3...: -04 10`, 8x8 only), a board string optionally
/// followed by a transcript of moves from it, or a transcript from the
/// start position. The text is one game whole: a second game, or text
/// after the game, is refused. A leading UTF-8 byte-order mark is skipped.
///
/// # Errors
/// [`RecordError`] naming the place of the first problem.
pub fn parse_game(text: &str, size: u8) -> Result<GameRecord, RecordError> {
    // A UTF-8 byte-order mark (as editors save files) is no character of
    // the record.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim_start();
    if trimmed.starts_with("(;") || trimmed.starts_with('(') {
        if size != 8 {
            return Err(RecordError::new(
                1,
                None,
                RecordErrorKind::BoardSize(size.to_string()),
            ));
        }
        return parse_ggf(text);
    }
    if archive::is_pgn(trimmed) || archive::is_gam_line(trimmed) {
        if size != 8 {
            return Err(RecordError::new(
                1,
                None,
                RecordErrorKind::BoardSize(size.to_string()),
            ));
        }
        return parse_collection_game(trimmed);
    }
    let first: String = trimmed.chars().take_while(|c| !c.is_whitespace()).collect();
    let cells = usize::from(size) * usize::from(size);
    // Squares always hold a digit; a board string's first row never does.
    let looks_like_board = !first.is_empty()
        && !first.chars().any(|c| c.is_ascii_digit())
        && first.chars().next().and_then(board_char).is_some()
        && first.chars().count() >= usize::from(size).min(cells);
    if looks_like_board {
        let (start, rest) = parse_board_string(text, size)?;
        let offset = text[..text.len() - rest.len()].chars().count();
        return transcript::parse_from(rest, start, offset);
    }
    if trimmed.is_empty() {
        return Err(RecordError::new(1, None, RecordErrorKind::Empty));
    }
    parse_transcript(text, Position::start(size))
}

/// One PGN game or one `.gam` line as a record.
fn parse_collection_game(text: &str) -> Result<GameRecord, RecordError> {
    let one = |kind: String| RecordError::new(1, None, RecordErrorKind::Collection(kind));
    let parsed = if archive::is_pgn(text) {
        archive::parse_pgn(text).map_err(|e| e.kind)
    } else {
        // Every line a game: a text of several lines is several games,
        // never its first one read and the rest ignored.
        archive::parse_gam(text).map_err(|e| e.kind)
    };
    match parsed {
        Ok(mut games) if games.len() == 1 => Ok(games.remove(0).record),
        Ok(games) => Err(one(format!(
            "the text holds {} games, expected one",
            games.len()
        ))),
        Err(archive::ArchiveErrorKind::Record(e)) => Err(e),
        Err(e) => Err(one(e.to_string())),
    }
}

#[cfg(test)]
mod tests;
