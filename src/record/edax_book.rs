//! Edax's opening book file (`book.dat`), read and written byte for byte.
//!
//! Edax (abulmo/edax-reversi, version 4.6) keeps its opening book in a
//! binary file made by `book save` and read by `book load`. This module
//! turns such a file into an [`EdaxBook`] ([`from_bytes`]) and back
//! ([`to_bytes`]); it does no I/O of its own. Reading then writing gives
//! the same bytes: the positions keep the order of the file, every field
//! of the header is kept (even the padding byte of the date), and the
//! position count is taken from the positions.
//!
//! # The format (as `src/book.c` of Edax 4.6 reads and writes it)
//!
//! Every number is little-endian (Edax writes its in-memory integers; the
//! layout below is the x86-64 and ARM64 one, where `int` has 32 bits and
//! `short` 16).
//!
//! **Header, 42 bytes.**
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | the word `0x45444158` ("EDAX"), so the bytes `XADE` |
//! | 4 | 4 | the word `0x424F4F4B` ("BOOK"), the bytes `KOOB` |
//! | 8 | 1 | version: 4 (Edax refuses any other) |
//! | 9 | 1 | release: 6 for Edax 4.6 (not checked by Edax) |
//! | 10 | 8 | the date of the save: year (16 bits), month, day, hour, minute, second (a byte each), one padding byte |
//! | 18 | 20 | the building options, five 32-bit integers: the search level, the depth limit as the fewest empty squares of a position that is expanded, the midgame error and the endgame-cut error used for score bounds, the verbosity |
//! | 38 | 4 | the number of positions (32-bit) |
//!
//! **Positions**, one after another to the end of the file, each 42 bytes
//! plus 2 per link:
//!
//! | size | field |
//! |---|---|
//! | 8 | the discs of the player to move (bit `row * 8 + col`, a1 = bit 0, h1 = bit 7, h8 = bit 63) |
//! | 8 | the discs of the opponent |
//! | 4 × 4 | game counts, unsigned 32-bit: wins, draws, losses (of the player to move, over the solved lines below this position) and lines (every scored line below it, solved or not) |
//! | 3 × 2 | the position's value and its lower and upper bounds, signed 16-bit, in discs for the player to move |
//! | 1 | the number of links |
//! | 1 | the level of the search that scored the leaf |
//! | 2 × links | the links: a score byte (signed, discs for the player to move after playing the move) then a move byte |
//! | 2 | the leaf, in the same form |
//!
//! A *link* is a move that leads to another position of the book; its
//! score is the negated value of that position (Edax's `book negamax`
//! keeps it so). The *leaf* is the best move that is not a link, as a
//! search at the position's level scored it; when every move is a link the
//! leaf is "no move" (move byte 65, score −127). Move bytes are squares
//! 0-63 in the same numbering as the discs (which is this crate's
//! [`Square`] numbering: a1 = 0, b1 = 1, ..., h8 = 63), 64 for a pass.
//! A value of −127 means "no score", an upper bound of +127 "no bound".
//!
//! The side to move has no colour in the file: `player` is whoever moves.
//! Edax shows a book position with black to move when its number of empty
//! squares is even (true unless a pass happened on the way), and so does
//! [`EdaxPosition::to_move_by_parity`].
//!
//! Each board is stored once for its eight symmetries, in a *unique* form:
//! of the eight images of (player, opponent) under the board's rotations
//! and reflections, the least when compared as the pair of unsigned 64-bit
//! words (player first). Edax finds a position by computing that form, so
//! a book written for Edax must hold boards in it
//! ([`EdaxPosition::into_unique`]); a lookup here tries the eight
//! symmetries instead ([`EdaxBookIndex`]).
//!
//! Edax saves the positions in the order of its hash table and reads them
//! in any order; it stops at the first position it cannot read whole.
//! [`from_bytes`] is stricter: the file must hold exactly the number of
//! positions its header announces, each whole.

use crate::board::symmetry::{mirror_columns, transpose};
use crate::board::{Board, Color, Square};
use crate::files::Signature;
use crate::reversi::{Move, Position};
use std::collections::HashMap;
use std::fmt;

/// The first eight bytes of an Edax book: the words "EDAX" and "BOOK" as
/// little-endian 32-bit integers.
pub const EDAX_BOOK_MAGIC: [u8; 8] = *b"XADEKOOB";
/// How an Edax book begins: what a writer that replaces only Edax books
/// looks for.
pub const EDAX_BOOK_SIGNATURE: Signature = Signature::of_magic(&EDAX_BOOK_MAGIC, "an Edax book");
/// The only book version Edax reads (Edax 4.x).
pub const EDAX_BOOK_VERSION: u8 = 4;
/// The release byte Edax 4.6 writes.
pub const EDAX_BOOK_RELEASE: u8 = 6;
/// The move byte of a pass.
pub const EDAX_PASS: u8 = 64;
/// The move byte of "no move" (a leaf when every move is a link).
pub const EDAX_NO_MOVE: u8 = 65;
/// The score of "no score" (and, negated, of "no bound").
pub const EDAX_NO_SCORE: i8 = -127;

const HEADER_LEN: usize = 42;
const POSITION_FIXED_LEN: usize = 40;
const LINK_LEN: usize = 2;

/// When the book was saved, as Edax writes it (local time of the saving
/// machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EdaxDate {
    /// The year, e.g. 2026.
    pub year: i16,
    /// 1-12.
    pub month: u8,
    /// 1-31.
    pub day: u8,
    /// 0-23.
    pub hour: u8,
    /// 0-59.
    pub minute: u8,
    /// 0-60.
    pub second: u8,
    /// The byte that pads the date to 8 bytes (whatever was in memory;
    /// kept so that writing back is exact).
    pub padding: u8,
}

/// The options a book was built with (Edax's `book new LEVEL DEPTH`,
/// `book depth`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EdaxOptions {
    /// The search level of new leaves.
    pub level: i32,
    /// The depth limit: the fewest empty squares of a position that is
    /// expanded (`61 - DEPTH` of `book new LEVEL DEPTH` and of `book depth
    /// DEPTH`).
    pub min_empties: i32,
    /// The error (discs) around a midgame search's score, for the bounds.
    pub midgame_error: i32,
    /// The error (discs) around a selective endgame search's score.
    pub endcut_error: i32,
    /// Edax's verbosity when building.
    pub verbosity: i32,
}

/// Everything in an Edax book before its positions, but their count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdaxHeader {
    /// [`EDAX_BOOK_VERSION`].
    pub version: u8,
    /// The release of Edax that saved it (6 for 4.6).
    pub release: u8,
    /// When it was saved.
    pub date: EdaxDate,
    /// How it was built.
    pub options: EdaxOptions,
}

impl EdaxHeader {
    /// A header as Edax 4.6 writes it, with these options and date.
    #[must_use]
    pub const fn new(options: EdaxOptions, date: EdaxDate) -> EdaxHeader {
        EdaxHeader {
            version: EDAX_BOOK_VERSION,
            release: EDAX_BOOK_RELEASE,
            date,
            options,
        }
    }
}

/// A move of a book position with its score, as stored: a score byte and
/// a move byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdaxLink {
    /// Discs for the player to move, after playing this move (the final
    /// disc difference when solved; [`EDAX_NO_SCORE`] when none).
    pub score: i8,
    /// The move byte: a square 0-63, [`EDAX_PASS`] or [`EDAX_NO_MOVE`].
    pub code: u8,
}

impl EdaxLink {
    /// The leaf of a position whose every move is a link: no move, no
    /// score.
    pub const NONE: EdaxLink = EdaxLink {
        score: EDAX_NO_SCORE,
        code: EDAX_NO_MOVE,
    };

    /// A link or leaf playing `mv` with `score`.
    #[must_use]
    pub const fn new(mv: Move, score: i8) -> EdaxLink {
        EdaxLink {
            score,
            code: move_code(mv),
        }
    }

    /// The move, `None` for [`EDAX_NO_MOVE`].
    #[must_use]
    pub const fn mv(self) -> Option<Move> {
        code_move(self.code)
    }
}

/// Whether a move is a link (it leads to another position of the book)
/// or the leaf (the best other move, scored by a search).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdaxMoveKind {
    /// The move's position is in the book; its score is that position's
    /// value, negated.
    Link,
    /// The best move not in the book, scored by a search at the
    /// position's level.
    Leaf,
}

/// A move of a book position, in this crate's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdaxBookMove {
    /// The move.
    pub mv: Move,
    /// Discs for the player to move after playing it.
    pub score: i32,
    /// Link or leaf.
    pub kind: EdaxMoveKind,
}

/// One position of an Edax book, every stored field kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdaxPosition {
    /// The discs of the player to move.
    pub player: u64,
    /// The discs of the other player.
    pub opponent: u64,
    /// Solved lines below this position won by the player to move.
    pub wins: u32,
    /// Solved lines below it drawn.
    pub draws: u32,
    /// Solved lines below it lost by the player to move.
    pub losses: u32,
    /// Every scored line below it, solved or not (Edax shows
    /// `lines - (wins + draws + losses)` as the "incomplete lines").
    pub lines: u32,
    /// The position's value: the best of its links' and leaf's scores, in
    /// discs for the player to move.
    pub value: i16,
    /// A lower bound of the true value, from the search errors.
    pub lower: i16,
    /// An upper bound of the true value.
    pub upper: i16,
    /// The search level that scored the leaf.
    pub level: u8,
    /// The moves leading to other book positions, in stored order
    /// (at most 255).
    pub links: Vec<EdaxLink>,
    /// The best other move, or [`EdaxLink::NONE`].
    pub leaf: EdaxLink,
}

impl EdaxPosition {
    /// The number of empty squares.
    #[must_use]
    pub const fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// The colour Edax shows to move: black when the number of empty
    /// squares is even (right unless the line to here had a pass).
    #[must_use]
    pub const fn to_move_by_parity(&self) -> Color {
        if self.empties() & 1 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The position with `to_move` owning the player's discs (`None` if
    /// the two players' discs overlap, which [`from_bytes`] refuses).
    #[must_use]
    pub fn position(&self, to_move: Color) -> Option<Position> {
        let (black, white) = match to_move {
            Color::Black => (self.player, self.opponent),
            Color::White => (self.opponent, self.player),
        };
        Board::from_bits(black, white, 8).map(|board| Position { board, to_move })
    }

    /// The position with the colour to move by parity
    /// ([`EdaxPosition::to_move_by_parity`]).
    #[must_use]
    pub fn position_by_parity(&self) -> Option<Position> {
        self.position(self.to_move_by_parity())
    }

    /// The links then the leaf (if any), as moves of this crate.
    #[must_use]
    pub fn moves(&self) -> Vec<EdaxBookMove> {
        self.moves_under(0)
    }

    /// The moves mapped by the symmetry `sym` taken back (the moves of the
    /// board whose image under `sym` is this one).
    fn moves_under(&self, sym: u8) -> Vec<EdaxBookMove> {
        let links = self.links.iter().map(|l| (l, EdaxMoveKind::Link));
        let leaf = std::iter::once((&self.leaf, EdaxMoveKind::Leaf));
        links
            .chain(leaf)
            .filter_map(|(l, kind)| {
                l.mv().map(|mv| EdaxBookMove {
                    mv: map_move(mv, sym, true),
                    score: i32::from(l.score),
                    kind,
                })
            })
            .collect()
    }

    /// Whether the board is in Edax's unique form (the least of its eight
    /// symmetric images), as every position of a book Edax wrote is.
    #[must_use]
    pub fn is_unique(&self) -> bool {
        unique_form(self.player, self.opponent).0 == (self.player, self.opponent)
    }

    /// The same position turned into Edax's unique form, its moves turned
    /// with it: what a book written for Edax must hold.
    #[must_use]
    pub fn into_unique(mut self) -> EdaxPosition {
        let ((player, opponent), sym) = unique_form(self.player, self.opponent);
        let turn = |l: &mut EdaxLink| {
            if let Some(mv) = l.mv() {
                l.code = move_code(map_move(mv, sym, false));
            }
        };
        self.links.iter_mut().for_each(turn);
        turn(&mut self.leaf);
        self.player = player;
        self.opponent = opponent;
        self
    }
}

/// An Edax opening book: its header and its positions in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdaxBook {
    /// The header (the position count is `positions.len()`).
    pub header: EdaxHeader,
    /// The positions.
    pub positions: Vec<EdaxPosition>,
}

impl EdaxBook {
    /// A map from boards to positions, to look positions up under their
    /// symmetries.
    #[must_use]
    pub fn index(&self) -> EdaxBookIndex<'_> {
        let mut map = HashMap::with_capacity(self.positions.len());
        for (i, p) in self.positions.iter().enumerate() {
            // Edax keeps the first of two equal boards.
            map.entry((p.player, p.opponent)).or_insert(i);
        }
        EdaxBookIndex { book: self, map }
    }
}

/// A book position found for a board, with its moves turned to that
/// board's orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdaxBookHit<'a> {
    /// The stored position (in its own, unique, orientation).
    pub position: &'a EdaxPosition,
    /// Its index in [`EdaxBook::positions`].
    pub index: usize,
    /// Its links and leaf as moves of the board looked up.
    pub moves: Vec<EdaxBookMove>,
}

/// Finds the positions of an [`EdaxBook`] under any of the eight
/// symmetries.
#[derive(Clone, Debug)]
pub struct EdaxBookIndex<'a> {
    book: &'a EdaxBook,
    map: HashMap<(u64, u64), usize>,
}

impl<'a> EdaxBookIndex<'a> {
    /// The book position of the board with `player` (to move) and
    /// `opponent` discs, or of one of its symmetric images.
    #[must_use]
    pub fn lookup_discs(&self, player: u64, opponent: u64) -> Option<EdaxBookHit<'a>> {
        (0..8).find_map(|sym| {
            let key = (symmetric(player, sym), symmetric(opponent, sym));
            self.map.get(&key).map(|&index| {
                let position = &self.book.positions[index];
                EdaxBookHit {
                    position,
                    index,
                    moves: position.moves_under(sym),
                }
            })
        })
    }

    /// The book position of `p` (an 8x8 position), under any symmetry.
    #[must_use]
    pub fn lookup(&self, p: &Position) -> Option<EdaxBookHit<'a>> {
        if p.board.size() != 8 {
            return None;
        }
        self.lookup_discs(p.board.discs(p.to_move), p.board.discs(p.to_move.other()))
    }
}

/// Why bytes are not an Edax book this module reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdaxBookError {
    /// No bytes at all.
    Empty,
    /// The bytes do not start with Edax's book header ("XADEKOOB").
    NotEdaxBook,
    /// A book of another version than 4 (Edax 4.x).
    UnsupportedVersion {
        /// The version byte.
        version: u8,
        /// The release byte.
        release: u8,
    },
    /// The file ends inside its 42-byte header.
    TruncatedHeader {
        /// The file's length in bytes.
        len: usize,
    },
    /// The header's position count is negative.
    BadPositionCount(i32),
    /// The file ends before position `position` (1-based) is whole.
    Truncated {
        /// The position cut short.
        position: usize,
        /// The number of positions the header announces.
        expected: usize,
    },
    /// Bytes follow the last position the header announces.
    TrailingData {
        /// The positions announced (and read).
        positions: usize,
        /// The bytes left over.
        bytes: usize,
    },
    /// A position with a disc of both players on one square.
    OverlappingDiscs {
        /// The position (1-based).
        position: usize,
    },
    /// A move byte that is no square, pass or "no move" (or "no move" as
    /// a link).
    BadMove {
        /// The position (1-based).
        position: usize,
        /// The byte.
        code: u8,
    },
}

impl fmt::Display for EdaxBookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EdaxBookError::Empty => f.write_str("the file is empty"),
            EdaxBookError::NotEdaxBook => {
                f.write_str("not an Edax opening book (no Edax book header)")
            }
            EdaxBookError::UnsupportedVersion { version, release } => write!(
                f,
                "Edax book version {version}.{release} is not supported (only version 4)"
            ),
            EdaxBookError::TruncatedHeader { len } => write!(
                f,
                "truncated Edax book: {len} bytes, shorter than its {HEADER_LEN}-byte header"
            ),
            EdaxBookError::BadPositionCount(n) => {
                write!(f, "corrupt Edax book: a position count of {n}")
            }
            EdaxBookError::Truncated { position, expected } => write!(
                f,
                "truncated Edax book: position {position} of {expected} is cut short"
            ),
            EdaxBookError::TrailingData { positions, bytes } => write!(
                f,
                "corrupt Edax book: {bytes} bytes after its {positions} positions"
            ),
            EdaxBookError::OverlappingDiscs { position } => write!(
                f,
                "corrupt Edax book: position {position} has discs of both players on one square"
            ),
            EdaxBookError::BadMove { position, code } => write!(
                f,
                "corrupt Edax book: position {position} has a move byte {code}"
            ),
        }
    }
}

impl std::error::Error for EdaxBookError {}

/// A cursor over the bytes of a book.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    /// The next `n` bytes, or `None` past the end.
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N).map(|s| s.try_into().expect("N bytes"))
    }

    fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|[b]| b)
    }

    fn i16(&mut self) -> Option<i16> {
        self.array().map(i16::from_le_bytes)
    }

    fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    fn i32(&mut self) -> Option<i32> {
        self.array().map(i32::from_le_bytes)
    }

    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    fn link(&mut self) -> Option<EdaxLink> {
        let [score, code] = self.array()?;
        Some(EdaxLink {
            score: i8::from_le_bytes([score]),
            code,
        })
    }
}

/// Reads an Edax book file.
///
/// # Errors
/// [`EdaxBookError`] when the bytes are not an Edax 4 book, are cut short,
/// hold more or fewer positions than the header says, or hold a position
/// with overlapping discs or an impossible move byte.
pub fn from_bytes(bytes: &[u8]) -> Result<EdaxBook, EdaxBookError> {
    if bytes.is_empty() {
        return Err(EdaxBookError::Empty);
    }
    let magic_len = bytes.len().min(EDAX_BOOK_MAGIC.len());
    if bytes[..magic_len] != EDAX_BOOK_MAGIC[..magic_len] {
        return Err(EdaxBookError::NotEdaxBook);
    }
    let truncated = EdaxBookError::TruncatedHeader { len: bytes.len() };
    let mut r = Reader { bytes, at: 8 };
    let (Some(version), Some(release)) = (r.u8(), r.u8()) else {
        return Err(truncated);
    };
    if version != EDAX_BOOK_VERSION {
        return Err(EdaxBookError::UnsupportedVersion { version, release });
    }
    let header = read_header(&mut r, version, release).ok_or(truncated)?;
    let count = r.i32().ok_or(truncated)?;
    let expected = usize::try_from(count).map_err(|_| EdaxBookError::BadPositionCount(count))?;
    let room = (bytes.len() - HEADER_LEN) / (POSITION_FIXED_LEN + LINK_LEN);
    let mut positions = Vec::with_capacity(expected.min(room));
    for number in 1..=expected {
        let p = read_position(&mut r).ok_or(EdaxBookError::Truncated {
            position: number,
            expected,
        })?;
        check_position(&p, number)?;
        positions.push(p);
    }
    if r.at < bytes.len() {
        return Err(EdaxBookError::TrailingData {
            positions: expected,
            bytes: bytes.len() - r.at,
        });
    }
    Ok(EdaxBook { header, positions })
}

fn read_header(r: &mut Reader<'_>, version: u8, release: u8) -> Option<EdaxHeader> {
    let date = EdaxDate {
        year: r.i16()?,
        month: r.u8()?,
        day: r.u8()?,
        hour: r.u8()?,
        minute: r.u8()?,
        second: r.u8()?,
        padding: r.u8()?,
    };
    let options = EdaxOptions {
        level: r.i32()?,
        min_empties: r.i32()?,
        midgame_error: r.i32()?,
        endcut_error: r.i32()?,
        verbosity: r.i32()?,
    };
    Some(EdaxHeader {
        version,
        release,
        date,
        options,
    })
}

fn read_position(r: &mut Reader<'_>) -> Option<EdaxPosition> {
    let player = r.u64()?;
    let opponent = r.u64()?;
    let (wins, draws, losses, lines) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
    let (value, lower, upper) = (r.i16()?, r.i16()?, r.i16()?);
    let n_links = r.u8()?;
    let level = r.u8()?;
    let links = (0..n_links).map(|_| r.link()).collect::<Option<Vec<_>>>()?;
    let leaf = r.link()?;
    Some(EdaxPosition {
        player,
        opponent,
        wins,
        draws,
        losses,
        lines,
        value,
        lower,
        upper,
        level,
        links,
        leaf,
    })
}

/// The checks that keep the conversions to this crate's types total.
fn check_position(p: &EdaxPosition, number: usize) -> Result<(), EdaxBookError> {
    if p.player & p.opponent != 0 {
        return Err(EdaxBookError::OverlappingDiscs { position: number });
    }
    let bad = |code: u8| EdaxBookError::BadMove {
        position: number,
        code,
    };
    if let Some(l) = p.links.iter().find(|l| l.code > EDAX_PASS) {
        return Err(bad(l.code));
    }
    if p.leaf.code > EDAX_NO_MOVE {
        return Err(bad(p.leaf.code));
    }
    Ok(())
}

/// Writes an Edax book file, as Edax's `book save` does: the header with
/// `positions.len()` as the count, then the positions in order.
///
/// # Panics
/// If a position has more than 255 links or there are more than
/// `i32::MAX` positions (neither fits the format).
#[must_use]
pub fn to_bytes(book: &EdaxBook) -> Vec<u8> {
    let links: usize = book.positions.iter().map(|p| p.links.len()).sum();
    let mut out = Vec::with_capacity(
        HEADER_LEN + book.positions.len() * (POSITION_FIXED_LEN + LINK_LEN) + links * LINK_LEN,
    );
    let h = &book.header;
    out.extend_from_slice(&EDAX_BOOK_MAGIC);
    out.extend_from_slice(&[h.version, h.release]);
    out.extend_from_slice(&h.date.year.to_le_bytes());
    let d = h.date;
    out.extend_from_slice(&[d.month, d.day, d.hour, d.minute, d.second, d.padding]);
    let o = h.options;
    for v in [
        o.level,
        o.min_empties,
        o.midgame_error,
        o.endcut_error,
        o.verbosity,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let count = i32::try_from(book.positions.len()).expect("at most i32::MAX positions");
    out.extend_from_slice(&count.to_le_bytes());
    for p in &book.positions {
        out.extend_from_slice(&p.player.to_le_bytes());
        out.extend_from_slice(&p.opponent.to_le_bytes());
        for n in [p.wins, p.draws, p.losses, p.lines] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for v in [p.value, p.lower, p.upper] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let n_links = u8::try_from(p.links.len()).expect("at most 255 links");
        out.extend_from_slice(&[n_links, p.level]);
        for l in p.links.iter().chain(std::iter::once(&p.leaf)) {
            out.extend_from_slice(&[l.score.to_le_bytes()[0], l.code]);
        }
    }
    out
}

/// The move byte of `mv`.
const fn move_code(mv: Move) -> u8 {
    match mv {
        Move::Place(sq) => sq.0,
        Move::Pass => EDAX_PASS,
    }
}

/// The move of a move byte (`None` for "no move" and impossible bytes).
const fn code_move(code: u8) -> Option<Move> {
    match code {
        0..=63 => Some(Move::Place(Square(code))),
        EDAX_PASS => Some(Move::Pass),
        _ => None,
    }
}

/// The image of a set of squares under symmetry `sym` (0-7): columns
/// mirrored if bit 0, rows mirrored if bit 1, then transposed if bit 2.
const fn symmetric(x: u64, sym: u8) -> u64 {
    let x = if sym & 1 != 0 { mirror_columns(x) } else { x };
    let x = if sym & 2 != 0 { x.swap_bytes() } else { x };
    if sym & 4 != 0 {
        transpose(x)
    } else {
        x
    }
}

/// The inverse of [`symmetric`].
const fn symmetric_inverse(x: u64, sym: u8) -> u64 {
    let x = if sym & 4 != 0 { transpose(x) } else { x };
    let x = if sym & 2 != 0 { x.swap_bytes() } else { x };
    if sym & 1 != 0 {
        mirror_columns(x)
    } else {
        x
    }
}

/// `mv` under symmetry `sym`, or under its inverse if `inverse`.
const fn map_move(mv: Move, sym: u8, inverse: bool) -> Move {
    match mv {
        Move::Pass => Move::Pass,
        Move::Place(sq) => {
            let bit = if inverse {
                symmetric_inverse(sq.bit(), sym)
            } else {
                symmetric(sq.bit(), sym)
            };
            Move::Place(Square(bit.trailing_zeros() as u8))
        }
    }
}

/// Edax's unique form of a board: the least (player, opponent) of its
/// eight symmetric images, and the symmetry that gives it (the first such).
fn unique_form(player: u64, opponent: u64) -> ((u64, u64), u8) {
    (0..8)
        .map(|sym| ((symmetric(player, sym), symmetric(opponent, sym)), sym))
        .min_by_key(|&(discs, _)| discs)
        .expect("eight symmetries")
}

#[cfg(test)]
mod tests;
