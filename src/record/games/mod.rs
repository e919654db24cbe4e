//! The world's games as a database of positions: an index built once from
//! game collections (WTHOR, Logistello's; read by [`super::collection`])
//! and asked about any 8x8 position, up to the board's 8 symmetries: how
//! many games reached it, how they ended (black wins, draws, white wins,
//! the mean score), what was played next (each move with its games and
//! their results) and the games themselves (players, tournament, year,
//! score, and the moves, turned to the position as asked, to open in a
//! review).
//!
//! The index ([`GamesIndex`], its file written by [`IndexBuilder`] and
//! described in the private `file` module) holds each game once (a game
//! whose moves repeat an earlier one's up to symmetry is a duplicate:
//! Logistello's internet games are also WTHOR's), its moves packed 6 bits a
//! disc, and for every position of every game a posting: a 32-bit hash of
//! the position's canonical image and the game's number, sorted and packed
//! into blocks. A query decodes the blocks of its hash and replays those
//! games to the position, so a hash shared by chance costs a replay, never
//! a wrong answer. The build holds the games (about 70 bytes each) and at
//! most [`MAX_POSTINGS_IN_MEMORY`] postings at a time: a collection with
//! more is indexed in several passes over the games, each taking one range
//! of hashes.
//!
//! ```
//! use reversi::record::games::{GamesIndex, IndexBuilder};
//! use reversi::record::archive::parse_pgn;
//! use reversi::record::parse_game;
//! let pgn = "[Event \"Club\"]\n[Date \"2001\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"33-31\"]\n1. F5 D6 2. C3 D3\n\n\
//!            [Event \"Club\"]\n[Date \"2002\"]\n[Black \"Bob\"]\n[White \"Ann\"]\n[Result \"30-34\"]\n1. F5 F6\n";
//! let mut builder = IndexBuilder::new();
//! builder.start_file("club.pgn");
//! for (n, game) in parse_pgn(pgn).unwrap().iter().enumerate() {
//!     builder.add(game, n as u32 + 1);
//! }
//! let mut bytes = Vec::new();
//! builder.write(&mut bytes, &mut |_, _| {}).unwrap();
//! let index = GamesIndex::from_bytes(bytes).unwrap();
//! // After f5 (or any of its images, e4 for one: d3, c4, e6)...
//! let after = parse_game("d3", 8).unwrap().last();
//! let found = index.query(&after, 10);
//! assert_eq!(found.total.games, 2);
//! assert_eq!((found.total.black_wins, found.total.white_wins), (1, 1));
//! // ...the moves played next, turned to the position as asked.
//! let next: Vec<String> = found.moves.iter().map(|m| m.mv.to_string()).collect();
//! assert_eq!(next.len(), 2);
//! ```

mod build;
mod file;
mod postings;

#[cfg(test)]
mod tests;

/// The first bytes of a games index file.
pub const MAGIC: &str = "reversi games\n";

pub use build::{Added, IndexBuilder, IndexSummary, MAX_POSTINGS_IN_MEMORY};
pub use file::{GamesIndex, IndexError};

use crate::board::{symmetry, Board, Color, Square};
use crate::game::Game;
use crate::reversi::{Move, Position, Reversi};

/// How the games through a position (or through a move from it) ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// The games.
    pub games: u64,
    /// Won by black.
    pub black_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by white.
    pub white_wins: u64,
    /// Of unknown result (unfinished, nothing stated).
    pub unknown: u64,
    /// The sum of the known results, black minus white.
    pub score_sum: i64,
}

impl Outcomes {
    /// Counts one game ending with `score` (black minus white; `None`
    /// unknown).
    pub fn add(&mut self, score: Option<i32>) {
        self.games += 1;
        match score {
            None => self.unknown += 1,
            Some(s) => {
                self.score_sum += i64::from(s);
                match s.signum() {
                    1 => self.black_wins += 1,
                    -1 => self.white_wins += 1,
                    _ => self.draws += 1,
                }
            }
        }
    }

    /// The mean of the known results, black minus white (`None` when none
    /// is known).
    #[must_use]
    pub fn mean_score(&self) -> Option<f64> {
        let known = self.games - self.unknown;
        (known > 0).then(|| self.score_sum as f64 / known as f64)
    }
}

/// A move played from a position, with the games that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextMove {
    /// The move, in the orientation of the position asked about (moves
    /// that the position's own symmetries make equal are counted as one:
    /// the one played most often, as it was played).
    pub mv: Move,
    /// The games that played it and how they ended.
    pub outcomes: Outcomes,
}

/// One game through a position, turned to the position as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGame {
    /// Its number in the index (from 1, in the order indexed).
    pub number: u32,
    /// The collection file it came from, as named to the build.
    pub file: String,
    /// Its number in that file (from 1).
    pub game_in_file: u32,
    /// The black player, if named.
    pub black: Option<String>,
    /// The white player, if named.
    pub white: Option<String>,
    /// The tournament (WTHOR's, or PGN's `Event`), if named.
    pub tournament: Option<String>,
    /// The year, if given.
    pub year: Option<u16>,
    /// The result, black minus white: the final score of its moves (empty
    /// squares to the winner) when they end the game, else the score the
    /// collection states; `None` if neither.
    pub score: Option<i32>,
    /// The moves from the 8x8 start (passes explicit), turned by a
    /// symmetry of the start (so that they stay a game from the start)
    /// that takes the game's position to the one asked about where one
    /// does ([`ListedGame::as_asked`]).
    pub moves: Vec<Move>,
    /// How many of `moves` lead to the position asked about (or to its
    /// image).
    pub at: usize,
    /// Whether `moves` reach the position as asked; `false` when only a
    /// symmetry that moves the start (a quarter turn, a mirror) takes the
    /// game's position to it: the moves then reach an image of it.
    pub as_asked: bool,
}

/// What the index knows of one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionGames {
    /// Every game through the position (under any symmetry).
    pub total: Outcomes,
    /// The moves played next, the most played first (ties in reading
    /// order, a pass last); games that ended there have none.
    pub moves: Vec<NextMove>,
    /// Some of the games, the latest first (by year, then by their number
    /// in the index, later first).
    pub games: Vec<ListedGame>,
}

/// The hash of a position that the index keys its postings by: 32 bits of
/// a mix of its canonical image ([`symmetry::canonical`] of black's and
/// white's discs) and the side to move. Part of the file format: changing
/// it is a new version.
#[must_use]
pub fn position_key(p: &Position) -> u32 {
    let ((black, white), _) =
        symmetry::canonical(p.board.discs(Color::Black), p.board.discs(Color::White));
    let side = u64::from(p.to_move == Color::White);
    (mix(black ^ mix(white ^ mix(side))) >> 32) as u32
}

/// The finalizer of SplitMix64: a fixed, well-spread 64-bit mix.
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The image of `p` under symmetry `s` (numbered as [`symmetry::all`]).
fn image(p: &Position, s: usize) -> Position {
    let black = symmetry::image(p.board.discs(Color::Black), s);
    let white = symmetry::image(p.board.discs(Color::White), s);
    Position {
        board: Board::from_bits(black, white, 8).expect("an image of an 8x8 board"),
        to_move: p.to_move,
    }
}

/// The image of the move `mv` under symmetry `s`.
fn move_image(mv: Move, s: usize) -> Move {
    match mv {
        Move::Place(sq) => Move::Place(Square(symmetry::square_image(sq.0, s))),
        Move::Pass => Move::Pass,
    }
}

/// The symmetries that take `from` to `to` (empty if none does).
fn symmetries_between(from: &Position, to: &Position) -> Vec<usize> {
    (0..8).filter(|&s| image(from, s) == *to).collect()
}

/// A game's moves from the start, passes explicit, from its discs alone
/// (`squares`, in order): a side without a legal move passes first.
/// `None` if a disc is not legal where it is played.
fn replay(squares: &[u8]) -> Option<Vec<Move>> {
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = Position::start(8);
    let mut moves = Vec::with_capacity(squares.len() + 2);
    for &sq in squares {
        if p.board.moves(p.to_move) == 0 && !p.board.is_game_over() {
            moves.push(Move::Pass);
            p = game.play(&p, Move::Pass);
        }
        let mv = Move::Place(Square(sq));
        if p.board.moves(p.to_move) >> sq & 1 == 0 {
            return None;
        }
        moves.push(mv);
        p = game.play(&p, mv);
    }
    // A pass that the record does not write after its last disc (the game
    // goes on with the other side) stays unwritten: the game stops there.
    Some(moves)
}

/// The positions of a game of `moves` from the 8x8 start (before each
/// move and the last).
fn positions(moves: &[Move]) -> impl Iterator<Item = Position> + '_ {
    let game = Reversi::DISC_DIFFERENCE;
    let start = Position::start(8);
    std::iter::once(start).chain(moves.iter().scan(start, move |p, &mv| {
        *p = game.play(p, mv);
        Some(*p)
    }))
}

/// `text` as a JSON string (quoted, escaped).
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An optional value as JSON (`null` for none).
fn json_or_null<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map_or_else(|| "null".to_owned(), f)
}

impl Outcomes {
    /// The JSON fields of the outcomes (without braces): `games`,
    /// `black_wins`, `draws`, `white_wins`, `unknown`, `mean_score` (black
    /// minus white, or null).
    #[must_use]
    pub fn json_fields(&self) -> String {
        format!(
            "\"games\":{},\"black_wins\":{},\"draws\":{},\"white_wins\":{},\"unknown\":{},\"mean_score\":{}",
            self.games,
            self.black_wins,
            self.draws,
            self.white_wins,
            self.unknown,
            json_or_null(self.mean_score(), |m| format!("{m:.2}"))
        )
    }
}

impl ListedGame {
    /// The game as a JSON object: `number`, `file`, `game_in_file`,
    /// `black`, `white`, `tournament`, `year`, `score` (null where
    /// unknown), `moves` (names, `pass` for a pass), `at`, `as_asked`.
    #[must_use]
    pub fn to_json(&self) -> String {
        let name = |n: &Option<String>| json_or_null(n.as_deref(), json_string);
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|m| json_string(&m.to_string()))
            .collect();
        format!(
            "{{\"number\":{},\"file\":{},\"game_in_file\":{},\"black\":{},\"white\":{},\"tournament\":{},\"year\":{},\"score\":{},\"moves\":[{}],\"at\":{},\"as_asked\":{}}}",
            self.number,
            json_string(&self.file),
            self.game_in_file,
            name(&self.black),
            name(&self.white),
            name(&self.tournament),
            json_or_null(self.year, |y| y.to_string()),
            json_or_null(self.score, |s| s.to_string()),
            moves.join(","),
            self.at,
            self.as_asked
        )
    }
}

impl PositionGames {
    /// The answer as the JSON fields `reversi games --json` and
    /// `/api/games` give (without braces): the outcomes of every game
    /// ([`Outcomes::json_fields`]), `moves` (each `move` with its
    /// outcomes) and `listed` (the games listed, [`ListedGame::to_json`]).
    #[must_use]
    pub fn json_fields(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|m| {
                format!(
                    "{{\"move\":{},{}}}",
                    json_string(&m.mv.to_string()),
                    m.outcomes.json_fields()
                )
            })
            .collect();
        let listed: Vec<String> = self.games.iter().map(ListedGame::to_json).collect();
        format!(
            "{},\"moves\":[{}],\"listed\":[{}]",
            self.total.json_fields(),
            moves.join(","),
            listed.join(",")
        )
    }
}
