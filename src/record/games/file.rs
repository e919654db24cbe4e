//! The games index file and its queries.
//!
//! The file, little-endian throughout:
//! 1. the magic `reversi games\n` and the version (u16, 1);
//! 2. the counts: games (u32), collections (u32), names (u32), postings
//!    (u64), and the postings' coding: the bits of a game's number and the
//!    Rice parameter (u8 each);
//! 3. the collections' names, then the players' and tournaments' names,
//!    each a length (u16) and UTF-8;
//! 4. the games' offsets (u32 each, one more than the games: the end) into
//!    the games' section, then that section: per game black, white and
//!    tournament (name numbers, u32, `u32::MAX` for none), the year (u16,
//!    0 for none), the result (i8, black minus white, -128 for none), the
//!    collection (u16), its number there (u32), the number of discs
//!    played (u8) and the discs' squares, 6 bits each (`row * 8 + col`,
//!    first in the low bits), in the orientation that opens with f5,
//!    passes left out;
//! 5. the postings ([`super::postings`]), in blocks of 256 Rice-coded
//!    gaps, each block starting on a byte;
//! 6. the blocks' directory: per block its first posting (u64) and its
//!    offset in the postings (u32);
//! 7. the trailer: the postings' bytes (u64), the blocks (u32), and the
//!    FNV-1a checksum (u64) of everything before it.

use super::postings::{Coding, BLOCK};
use super::{
    move_image, position_key, replay, symmetries_between, ListedGame, NextMove, Outcomes,
    PositionGames, MAGIC,
};
use crate::board::{symmetry, Color};
use crate::game::Game;
use crate::reversi::{Move, Position, Reversi};
use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};

/// The format's version.
const VERSION: u16 = 1;
/// The bytes of the trailer before the checksum: the postings' bytes and
/// the blocks.
const TRAILER: usize = 8 + 4;
/// The bytes of a block's entry in the directory: its first posting and
/// its offset.
const DIRECTORY_ENTRY: usize = 8 + 4;
/// A name number that names nobody.
pub(super) const NONE_NAME: u32 = u32::MAX;
/// The result byte of an unknown result.
const NONE_SCORE: i8 = i8::MIN;

/// One game as the index keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct GameEntry {
    pub black: u32,
    pub white: u32,
    pub tournament: u32,
    pub year: Option<u16>,
    pub score: Option<i32>,
    pub file: u16,
    pub game_in_file: u32,
    /// The discs played, passes left out.
    pub squares: Vec<u8>,
}

/// The fixed bytes of a game's entry before its squares.
const ENTRY_HEAD: usize = 4 + 4 + 4 + 2 + 1 + 2 + 4 + 1;

impl GameEntry {
    /// Appends the entry's bytes to `out`.
    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.black.to_le_bytes());
        out.extend_from_slice(&self.white.to_le_bytes());
        out.extend_from_slice(&self.tournament.to_le_bytes());
        out.extend_from_slice(&self.year.unwrap_or(0).to_le_bytes());
        let score = self
            .score
            .and_then(|s| i8::try_from(s).ok())
            .filter(|&s| s != NONE_SCORE)
            .unwrap_or(NONE_SCORE);
        out.extend_from_slice(&score.to_le_bytes());
        out.extend_from_slice(&self.file.to_le_bytes());
        out.extend_from_slice(&self.game_in_file.to_le_bytes());
        let n = self.squares.len().min(60);
        out.push(n as u8);
        let mut bits: u32 = 0;
        let mut held = 0;
        for &sq in &self.squares[..n] {
            bits |= u32::from(sq & 63) << held;
            held += 6;
            while held >= 8 {
                out.push(bits as u8);
                bits >>= 8;
                held -= 8;
            }
        }
        if held > 0 {
            out.push(bits as u8);
        }
    }

    /// The entry at the start of `bytes` and its length; `None` if cut
    /// short.
    pub(super) fn decode(bytes: &[u8]) -> Option<(GameEntry, usize)> {
        let head = bytes.get(..ENTRY_HEAD)?;
        let u32_at =
            |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
        let n = usize::from(head[ENTRY_HEAD - 1]);
        let packed = (n * 6).div_ceil(8);
        let body = bytes.get(ENTRY_HEAD..ENTRY_HEAD + packed)?;
        let mut squares = Vec::with_capacity(n);
        let (mut bits, mut held, mut next) = (0u32, 0, 0);
        while squares.len() < n {
            if held < 6 {
                bits |= u32::from(body[next]) << held;
                next += 1;
                held += 8;
            }
            squares.push((bits & 63) as u8);
            bits >>= 6;
            held -= 6;
        }
        let year = u16::from_le_bytes([head[12], head[13]]);
        let score = head[14] as i8;
        Some((
            GameEntry {
                black: u32_at(0),
                white: u32_at(4),
                tournament: u32_at(8),
                year: (year != 0).then_some(year),
                score: (score != NONE_SCORE).then_some(i32::from(score)),
                file: u16::from_le_bytes([head[15], head[16]]),
                game_in_file: u32_at(17),
                squares,
            },
            ENTRY_HEAD + packed,
        ))
    }

    /// The discs played (passes left out).
    pub(super) fn squares(&self) -> &[u8] {
        &self.squares
    }
}

/// Writes an index file as [`super::IndexBuilder::write`] produces it,
/// checksumming as it goes.
pub(super) struct Writer<'a, W: Write> {
    out: &'a mut W,
    hash: u64,
    bytes: u64,
    /// The postings' bytes written so far.
    postings_bytes: u64,
    /// The blocks' first postings and offsets.
    directory: Vec<(u64, u32)>,
    coding: Coding,
    /// Postings not yet in a block (fewer than [`BLOCK`]): the blocks do
    /// not depend on how the postings come.
    pending: Vec<u64>,
}

impl<'a, W: Write> Writer<'a, W> {
    pub(super) fn new(out: &'a mut W, coding: Coding) -> Writer<'a, W> {
        Writer {
            coding,
            out,
            hash: crate::hash::FNV_OFFSET,
            bytes: 0,
            postings_bytes: 0,
            directory: Vec::new(),
            pending: Vec::new(),
        }
    }

    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.hash = crate::hash::fnv1a_continue(self.hash, bytes);
        self.bytes += bytes.len() as u64;
        self.out.write_all(bytes)
    }

    /// Everything before the postings.
    pub(super) fn header(
        &mut self,
        games: u64,
        files: &[String],
        names: &[String],
        offsets: &[u32],
        entries: &[u8],
        postings: u64,
    ) -> io::Result<()> {
        let too_big =
            || io::Error::new(io::ErrorKind::InvalidData, "more games than an index holds");
        let mut head = Vec::new();
        head.extend_from_slice(MAGIC.as_bytes());
        head.extend_from_slice(&VERSION.to_le_bytes());
        for count in [games, files.len() as u64, names.len() as u64] {
            head.extend_from_slice(&u32::try_from(count).map_err(|_| too_big())?.to_le_bytes());
        }
        head.extend_from_slice(&postings.to_le_bytes());
        head.push(self.coding.game_bits as u8);
        head.push(self.coding.k as u8);
        for name in files.iter().chain(names) {
            let mut end = name.len().min(usize::from(u16::MAX));
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            head.extend_from_slice(&(end as u16).to_le_bytes());
            head.extend_from_slice(&name.as_bytes()[..end]);
        }
        for &o in offsets {
            head.extend_from_slice(&o.to_le_bytes());
        }
        let end = u32::try_from(entries.len()).map_err(|_| too_big())?;
        head.extend_from_slice(&end.to_le_bytes());
        self.put(&head)?;
        self.put(entries)
    }

    /// Appends `postings` ([`Coding::posting`]s, sorted, all above those
    /// appended before): every full block now, the rest with the next
    /// postings or at the end.
    pub(super) fn postings(&mut self, postings: &[u64]) -> io::Result<()> {
        self.pending.extend_from_slice(postings);
        let full = self.pending.len() / BLOCK * BLOCK;
        let pending = std::mem::take(&mut self.pending);
        self.blocks(&pending[..full])?;
        self.pending = pending[full..].to_vec();
        Ok(())
    }

    /// Writes `postings` as blocks of [`BLOCK`] (the last may be shorter).
    fn blocks(&mut self, postings: &[u64]) -> io::Result<()> {
        let mut bytes = Vec::new();
        for block in postings.chunks(BLOCK) {
            let offset = u32::try_from(self.postings_bytes + bytes.len() as u64).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidData, "more than 4 GiB of postings")
            })?;
            self.directory.push((block[0], offset));
            self.coding.encode(block, &mut bytes);
        }
        self.postings_bytes += bytes.len() as u64;
        self.put(&bytes)
    }

    /// The directory and the trailer; the file's length.
    pub(super) fn finish(mut self) -> io::Result<u64> {
        let rest = std::mem::take(&mut self.pending);
        self.blocks(&rest)?;
        let mut tail = Vec::with_capacity(self.directory.len() * DIRECTORY_ENTRY + TRAILER);
        for &(first, offset) in &self.directory {
            tail.extend_from_slice(&first.to_le_bytes());
            tail.extend_from_slice(&offset.to_le_bytes());
        }
        tail.extend_from_slice(&self.postings_bytes.to_le_bytes());
        let blocks = u32::try_from(self.directory.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "too many blocks"))?;
        tail.extend_from_slice(&blocks.to_le_bytes());
        self.put(&tail)?;
        let sum = self.hash;
        self.out.write_all(&sum.to_le_bytes())?;
        self.out.flush()?;
        Ok(self.bytes + 8)
    }
}

/// Why bytes are not a games index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexError {
    /// Not an index of this program (another file).
    NotAnIndex,
    /// An index of another version of the format.
    Version(u16),
    /// The checksum does not match: the file is corrupt or cut short.
    Checksum,
    /// The checksum matches but a section does not read (a file written
    /// by something else).
    Malformed(&'static str),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::NotAnIndex => f.write_str("is not a games index (made by `reversi games index`)"),
            IndexError::Version(v) => write!(
                f,
                "is a games index of format {v}, not {VERSION}: build it again with `reversi games index`"
            ),
            IndexError::Checksum => f.write_str("is corrupt (checksum mismatch)"),
            IndexError::Malformed(what) => write!(f, "is malformed ({what})"),
        }
    }
}

impl std::error::Error for IndexError {}

/// A games index read into memory, to be asked about positions
/// ([`GamesIndex::query`]).
pub struct GamesIndex {
    bytes: Vec<u8>,
    files: Vec<String>,
    names: Vec<String>,
    games: u32,
    postings: u64,
    coding: Coding,
    /// Where the games' offsets, the games, the postings and the
    /// directory start in `bytes`.
    offsets_at: usize,
    games_at: usize,
    postings_at: usize,
    directory_at: usize,
    blocks: usize,
}

impl fmt::Debug for GamesIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "GamesIndex({} games, {} postings, {} bytes)",
            self.games,
            self.postings,
            self.bytes.len()
        )
    }
}

/// Reads the little-endian fields of a byte slice in order.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], IndexError> {
        let s = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or(IndexError::Malformed(what))?;
        self.at += n;
        Ok(s)
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, IndexError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, IndexError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, IndexError> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    fn names(&mut self, count: u32, what: &'static str) -> Result<Vec<String>, IndexError> {
        (0..count)
            .map(|_| {
                let n = self.u16(what)?;
                let text = self.take(usize::from(n), what)?;
                String::from_utf8(text.to_vec()).map_err(|_| IndexError::Malformed(what))
            })
            .collect()
    }
}

impl GamesIndex {
    /// Reads an index from its bytes, checking its magic, version and
    /// checksum, and the sections' lengths.
    ///
    /// # Errors
    /// [`IndexError`].
    pub fn from_bytes(bytes: Vec<u8>) -> Result<GamesIndex, IndexError> {
        if !bytes.starts_with(MAGIC.as_bytes()) {
            return Err(IndexError::NotAnIndex);
        }
        let mut f = Fields {
            bytes: &bytes,
            at: MAGIC.len(),
        };
        let version = f.u16("header")?;
        if version != VERSION {
            return Err(IndexError::Version(version));
        }
        let body = bytes.len().checked_sub(8).ok_or(IndexError::Checksum)?;
        let sum = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
        if body < f.at + TRAILER || crate::hash::fnv1a(&bytes[..body]) != sum {
            return Err(IndexError::Checksum);
        }
        let games = f.u32("header")?;
        let files = f.u32("header")?;
        let names = f.u32("header")?;
        let postings = f.u64("header")?;
        let coding_bytes = f.take(2, "header")?;
        let coding = Coding::new(u64::from(games), postings);
        if (u32::from(coding_bytes[0]), u32::from(coding_bytes[1])) != (coding.game_bits, coding.k)
        {
            return Err(IndexError::Malformed("the postings' coding"));
        }
        let files = f.names(files, "collections")?;
        let names = f.names(names, "names")?;
        let offsets_at = f.at;
        f.take((games as usize + 1) * 4, "offsets")?;
        let games_at = f.at;
        let end = u32::from_le_bytes(bytes[games_at - 4..games_at].try_into().expect("4 bytes"));
        f.take(end as usize, "games")?;
        let postings_at = f.at;
        let mut t = Fields {
            bytes: &bytes,
            at: body - TRAILER,
        };
        let postings_bytes = t.u64("trailer")?;
        let blocks = t.u32("trailer")? as usize;
        let directory_at = usize::try_from(postings_bytes)
            .ok()
            .and_then(|n| postings_at.checked_add(n))
            .ok_or(IndexError::Malformed("trailer"))?;
        if directory_at.checked_add(blocks * DIRECTORY_ENTRY) != Some(body - TRAILER)
            || blocks as u64 != postings.div_ceil(BLOCK as u64)
        {
            return Err(IndexError::Malformed("directory"));
        }
        let index = GamesIndex {
            bytes,
            files,
            names,
            games,
            postings,
            coding,
            offsets_at,
            games_at,
            postings_at,
            directory_at,
            blocks,
        };
        // The games' offsets rise within their section (an entry that
        // does not read is skipped by the queries).
        let mut last = 0;
        for g in 0..=games {
            let at = index.u32_at(index.offsets_at + g as usize * 4);
            if at < last || at > end {
                return Err(IndexError::Malformed("offsets"));
            }
            last = at;
        }
        Ok(index)
    }

    /// The games indexed.
    #[must_use]
    pub fn games(&self) -> u64 {
        u64::from(self.games)
    }

    /// The postings: the positions of every game indexed.
    #[must_use]
    pub fn postings(&self) -> u64 {
        self.postings
    }

    /// The collections the games came from, as named to the build.
    #[must_use]
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The bytes of the index.
    #[must_use]
    pub fn len_bytes(&self) -> usize {
        self.bytes.len()
    }

    fn u32_at(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("4 bytes"))
    }

    /// Game `g`'s entry (from 0); `None` if it does not read.
    fn entry(&self, g: u32) -> Option<GameEntry> {
        let at = self.u32_at(self.offsets_at + g as usize * 4) as usize;
        let end = self.u32_at(self.offsets_at + g as usize * 4 + 4) as usize;
        let section = self.bytes.get(self.games_at..self.postings_at)?;
        let (e, len) = GameEntry::decode(section.get(at..end)?)?;
        (len == end - at).then_some(e)
    }

    /// The games whose postings carry the key of `key` (its top
    /// [`super::postings::KEY_BITS`]), each once.
    fn games_of(&self, key: u32) -> Vec<u32> {
        let dir = |i: usize| {
            let at = self.directory_at + i * DIRECTORY_ENTRY;
            let first = u64::from_le_bytes(self.bytes[at..at + 8].try_into().expect("8 bytes"));
            (first, self.u32_at(at + 8) as usize)
        };
        let (lo, hi) = self.coding.range(key);
        // The first block that may hold `lo`: the last one starting below
        // it (a run of one key may begin in it).
        let (mut a, mut b) = (0, self.blocks);
        while a < b {
            let mid = (a + b) / 2;
            if dir(mid).0 < lo {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        let postings = &self.bytes[self.postings_at..self.directory_at];
        let mut found = Vec::new();
        for block in a.saturating_sub(1)..self.blocks {
            let (first, offset) = dir(block);
            if first >= hi {
                break;
            }
            let end = if block + 1 < self.blocks {
                dir(block + 1).1
            } else {
                postings.len()
            };
            let count = if block + 1 < self.blocks {
                BLOCK
            } else {
                (self.postings - (self.blocks as u64 - 1) * BLOCK as u64) as usize
            };
            let bytes = postings.get(offset..end.max(offset)).unwrap_or(&[]);
            for p in self.coding.decode(bytes, first, count) {
                if (lo..hi).contains(&p) {
                    let game = self.coding.game(p);
                    if game < u64::from(self.games) {
                        found.push(game as u32);
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    fn name(&self, n: u32) -> Option<String> {
        self.names.get(n as usize).cloned()
    }

    /// What the games say about `position` (8x8; none on other boards):
    /// the games through it under any symmetry with the same side to
    /// move, how they ended, the moves played next, and `list` of the
    /// games, the latest first.
    #[must_use]
    pub fn query(&self, position: &Position, list: usize) -> PositionGames {
        if position.board.size() != 8 {
            return PositionGames::default();
        }
        let target = canonical(position);
        let discs =
            (position.board.discs(Color::Black) | position.board.discs(Color::White)).count_ones();
        let mut found: Vec<Found> = Vec::new();
        for g in self.games_of(position_key(position)) {
            let Some(entry) = self.entry(g) else { continue };
            if let Some((at, here, next)) = find(&entry.squares, &target, discs) {
                let symmetries = symmetries_between(&here, position);
                found.push(Found {
                    game: g,
                    entry,
                    next,
                    at,
                    symmetries,
                });
            }
        }
        let automorphisms = symmetries_between(position, position);
        let start = Position::start(8);
        let start_symmetries = symmetries_between(&start, &start);
        // Each move's class under the position's own symmetries, and how
        // often each member of it was played as the game's symmetry turns it.
        let class = |mv: Move| {
            automorphisms
                .iter()
                .map(|&a| move_order(move_image(mv, a)))
                .min()
                .unwrap_or(0)
        };
        let mut total = Outcomes::default();
        let mut classes: BTreeMap<u32, (Outcomes, BTreeMap<u32, u64>)> = BTreeMap::new();
        for f in &found {
            total.add(f.entry.score);
            if let Some(next) = f.next {
                let played = move_image(next, f.symmetries[0]);
                let (outcomes, members) = classes.entry(class(played)).or_default();
                outcomes.add(f.entry.score);
                *members.entry(move_order(played)).or_default() += 1;
            }
        }
        // A class is shown as its member played most often (the first in
        // reading order among equals).
        let labels: BTreeMap<u32, Move> = classes
            .iter()
            .map(|(&c, (_, members))| {
                let best = members
                    .iter()
                    .max_by_key(|&(&m, &n)| (n, Reverse(m)))
                    .map_or(c, |(&m, _)| m);
                (c, order_move(best))
            })
            .collect();
        let mut moves: Vec<NextMove> = classes
            .iter()
            .map(|(c, (outcomes, _))| NextMove {
                mv: labels[c],
                outcomes: *outcomes,
            })
            .collect();
        moves.sort_by_key(|m| (Reverse(m.outcomes.games), move_order(m.mv)));
        found.sort_by_key(|f| (Reverse(f.entry.year), Reverse(f.game)));
        let games = found
            .iter()
            .take(list)
            .map(|f| {
                // The game turned by a symmetry of the start (so that it
                // is still a game from the start) that takes it to the
                // position as asked, its next move the one the table shows
                // for it; else to an image of the position.
                let from_start: Vec<usize> = f
                    .symmetries
                    .iter()
                    .copied()
                    .filter(|s| start_symmetries.contains(s))
                    .collect();
                let label = f
                    .next
                    .and_then(|next| labels.get(&class(move_image(next, f.symmetries[0]))));
                let s = from_start
                    .iter()
                    .copied()
                    .find(|&s| label.is_some_and(|l| f.next.map(|n| move_image(n, s)) == Some(*l)))
                    .or(from_start.first().copied());
                let as_asked = s.is_some();
                let s = s.unwrap_or(0);
                let e = &f.entry;
                ListedGame {
                    number: f.game + 1,
                    file: self
                        .files
                        .get(usize::from(e.file))
                        .cloned()
                        .unwrap_or_default(),
                    game_in_file: e.game_in_file,
                    black: self.name(e.black),
                    white: self.name(e.white),
                    tournament: self.name(e.tournament),
                    year: e.year,
                    score: e.score,
                    moves: replay(&e.squares)
                        .unwrap_or_default()
                        .iter()
                        .map(|&m| move_image(m, s))
                        .collect(),
                    at: f.at,
                    as_asked,
                }
            })
            .collect();
        PositionGames {
            total,
            moves,
            games,
        }
    }
}

/// A game found through the position asked about.
struct Found {
    game: u32,
    entry: GameEntry,
    /// How many moves lead to the position.
    at: usize,
    /// The move played there (`None`: the game ended there).
    next: Option<Move>,
    /// The symmetries that take the game's position to the one asked
    /// about (at least one).
    symmetries: Vec<usize>,
}

/// A position's key under the symmetries: its canonical discs and side.
fn canonical(p: &Position) -> ((u64, u64), Color) {
    let (discs, _) = symmetry::canonical(p.board.discs(Color::Black), p.board.discs(Color::White));
    (discs, p.to_move)
}

/// Where the game of the discs `squares` (passes left out) reaches the
/// position whose key is `target` (it has `discs` discs): the moves
/// before it (passes counted), the position, and the move played there
/// (`None` if the game stops there). Plays no further than the position.
fn find(
    squares: &[u8],
    target: &((u64, u64), Color),
    discs: u32,
) -> Option<(usize, Position, Option<Move>)> {
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = Position::start(8);
    let mut at = 0;
    let mut next = squares.iter();
    loop {
        let n = (p.board.discs(Color::Black) | p.board.discs(Color::White)).count_ones();
        if n > discs {
            return None;
        }
        let mv = if p.board.moves(p.to_move) == 0 && !p.board.is_game_over() {
            Some(Move::Pass)
        } else {
            next.next().map(|&sq| Move::Place(crate::board::Square(sq)))
        };
        if n == discs && canonical(&p) == *target {
            return Some((at, p, mv));
        }
        let mv = mv?;
        if let Move::Place(sq) = mv {
            if p.board.moves(p.to_move) >> sq.0 & 1 == 0 {
                return None;
            }
        }
        p = game.play(&p, mv);
        at += 1;
    }
}

/// A move's place in reading order (a pass last).
fn move_order(mv: Move) -> u32 {
    match mv {
        Move::Place(sq) => u32::from(sq.0),
        Move::Pass => 64,
    }
}

/// The move of a place in reading order.
fn order_move(order: u32) -> Move {
    match u8::try_from(order) {
        Ok(sq) if sq < 64 => Move::Place(crate::board::Square(sq)),
        _ => Move::Pass,
    }
}
