//! WTHOR's binary form (`.wtb`): its header and its games, read whole
//! ([`super::parse_wtb`]) or a game at a time ([`super::WtbReader`]).

use super::{error, fused, ArchiveError, ArchiveErrorKind, ArchiveGame, Replay, TheoreticalScore};
use crate::board::Square;
use std::io::{self, Read};

/// The header of a WTHOR binary file and its games.
#[derive(Clone, Debug, PartialEq)]
pub struct WthorFile {
    /// The year of the games (header bytes 10-11).
    pub year: u16,
    /// The number of empty squares from which the theoretical scores are
    /// perfect play (header byte 14).
    pub depth: u8,
    /// The games, in the file's order.
    pub games: Vec<ArchiveGame>,
    /// Each game's tournament, black player and white player numbers
    /// (indices into `WTHOR.TRN` and `WTHOR.JOU`).
    pub numbers: Vec<[u16; 3]>,
}

/// The bytes of a WTHOR file's header.
pub(super) const WTHOR_HEADER: usize = 16;
/// The bytes of a game of a `.wtb` file.
const WTB_GAME: usize = 68;
/// The largest theoretical depth: the empty squares of the start position.
const MAX_DEPTH: u32 = 60;

pub(super) fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// The header of a WTHOR binary game file (`.wtb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WtbHeader {
    /// The number of games announced (header bytes 4-7).
    pub count: usize,
    /// The year of the games (header bytes 10-11).
    pub year: u16,
    /// The number of empty squares from which the theoretical scores are
    /// perfect play (header byte 14).
    pub depth: u8,
}

impl WtbHeader {
    /// Reads the header from a file's first bytes (`head`, at most
    /// the 16 bytes of a header are looked at).
    ///
    /// # Errors
    /// [`ArchiveError`] (game 0): fewer than 16 bytes, a board size other
    /// than 8, a theoretical depth above 60.
    pub fn parse(head: &[u8]) -> Result<WtbHeader, ArchiveError> {
        if head.len() < WTHOR_HEADER {
            return Err(error(0, ArchiveErrorKind::Truncated));
        }
        let count = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        if !matches!(head[12], 0 | 8) {
            return Err(error(
                0,
                ArchiveErrorKind::Header(format!("board size {} (only 8x8 is read)", head[12])),
            ));
        }
        let depth = head[14];
        if u32::from(depth) > MAX_DEPTH {
            return Err(error(
                0,
                ArchiveErrorKind::Header(format!(
                    "theoretical depth {depth} is more than the {MAX_DEPTH} empty squares of a game"
                )),
            ));
        }
        Ok(WtbHeader {
            count,
            year: u16_at(head, 10),
            depth,
        })
    }

    /// Checks the header against the file's length, before any game is
    /// read: `body` bytes after the header must be the announced games.
    ///
    /// # Errors
    /// [`ArchiveError`]: the first game cut short, or more bytes than the
    /// games announced.
    pub fn check_length(&self, length: u64) -> Result<(), ArchiveError> {
        let body = length.saturating_sub(WTHOR_HEADER as u64);
        let announced = (self.count as u64).saturating_mul(WTB_GAME as u64);
        if body < announced {
            let complete = usize::try_from(body / WTB_GAME as u64).unwrap_or(usize::MAX);
            return Err(error(complete + 1, ArchiveErrorKind::Truncated));
        }
        if body > announced {
            return Err(error(
                0,
                ArchiveErrorKind::Header(format!(
                    "{} games announced, but {body} bytes follow",
                    self.count
                )),
            ));
        }
        Ok(())
    }

    /// Game `number` (from 1) from its 68 bytes, with its tournament,
    /// black and white player numbers.
    fn game(
        &self,
        number: usize,
        raw: &[u8; WTB_GAME],
    ) -> Result<(ArchiveGame, [u16; 3]), ArchiveError> {
        let mut replay = Replay::new();
        for &b in raw[8..].iter().take_while(|&&b| b != 0) {
            let (row, col) = (b / 10, b % 10);
            if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
                return Err(error(number, ArchiveErrorKind::NotASquare(b)));
            }
            replay
                .disc(Square::new(row - 1, col - 1))
                .map_err(|kind| error(number, kind))?;
        }
        for (score, discs) in [("final", raw[6]), ("theoretical", raw[7])] {
            if discs > 64 {
                return Err(error(number, ArchiveErrorKind::Discs { score, discs }));
            }
        }
        let mut game = ArchiveGame::new(replay.record);
        game.record.info.date = Some(self.year.to_string());
        game.stated_score = Some(2 * i32::from(raw[6]) - 64);
        game.theoretical_score = Some(TheoreticalScore {
            empties: u32::from(self.depth),
            black_score: 2 * i32::from(raw[7]) - 64,
        });
        let numbers = [u16_at(raw, 0), u16_at(raw, 2), u16_at(raw, 4)];
        Ok((game, numbers))
    }
}

/// The games of a WTHOR binary file read one at a time (68 bytes held),
/// its header checked against the file's length first; see [`parse_wtb`]
/// for the form. An [`Iterator`] of the games; [`WtbReader::next_game`]
/// also gives each game's tournament and player numbers.
pub struct WtbReader<R> {
    reader: R,
    header: WtbHeader,
    /// The games read so far.
    read: usize,
    /// Whether an error ended the reading.
    failed: bool,
}

impl<R: Read> WtbReader<R> {
    /// Reads the header of the file `reader` whose length is `length`
    /// bytes, and checks that length against it.
    ///
    /// # Errors
    /// [`ArchiveError`] (game 0 or the game cut short): a header that is
    /// not WTHOR's ([`WtbHeader::parse`]), a length that is not the
    /// announced games' ([`WtbHeader::check_length`]), a read error.
    pub fn new(mut reader: R, length: u64) -> Result<WtbReader<R>, ArchiveError> {
        let mut head = [0u8; WTHOR_HEADER];
        let got = read_full(&mut reader, &mut head).map_err(|e| error(0, e))?;
        let header = WtbHeader::parse(&head[..got])?;
        header.check_length(length)?;
        Ok(WtbReader {
            reader,
            header,
            read: 0,
            failed: false,
        })
    }

    /// The file's header.
    #[must_use]
    pub fn header(&self) -> WtbHeader {
        self.header
    }

    /// The next game with its tournament, black and white player numbers
    /// (indices into `WTHOR.TRN` and `WTHOR.JOU`); `None` after the
    /// announced games or an error.
    pub fn next_game(&mut self) -> Option<Result<(ArchiveGame, [u16; 3]), ArchiveError>> {
        if self.failed || self.read == self.header.count {
            return None;
        }
        self.read += 1;
        let mut raw = [0u8; WTB_GAME];
        let read = match read_full(&mut self.reader, &mut raw) {
            Ok(WTB_GAME) => self.header.game(self.read, &raw).map(Some),
            Ok(_) => Err(error(self.read, ArchiveErrorKind::Truncated)),
            Err(kind) => Err(error(self.read, kind)),
        };
        fused(read, &mut self.failed)
    }
}

impl<R: Read> Iterator for WtbReader<R> {
    type Item = Result<ArchiveGame, ArchiveError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().map(|r| r.map(|(game, _)| game))
    }
}

/// Fills `buf` from `reader` as far as the input goes; the bytes read.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> Result<usize, ArchiveErrorKind> {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ArchiveErrorKind::Read(e.to_string())),
        }
    }
    Ok(got)
}

/// Reads a WTHOR binary game file (`WTH_YYYY.wtb`): a 16-byte header
/// (the number of games in bytes 4-7, the year in 10-11, the board size in
/// 12, the theoretical score's depth in 14), then 68 bytes a game:
/// tournament, black and white player numbers (u16 each), black's final
/// discs, black's theoretical discs, and 60 move bytes `10 * row + column`
/// (row and column 1-8; 0 after the last move). Scores of `n` black discs
/// are given as `2n - 64`, black minus white with the empty squares to the
/// winner, as WTHOR counts them. [`WtbReader`] reads the same form a game
/// at a time.
///
/// # Errors
/// [`ArchiveError`]: a header of another board size or game count or a
/// theoretical depth above 60, a file cut short, a disc count above 64, a
/// move byte that is no square, an illegal move.
pub fn parse_wtb(bytes: &[u8]) -> Result<WthorFile, ArchiveError> {
    let mut reader = WtbReader::new(bytes, bytes.len() as u64)?;
    let WtbHeader { count, year, depth } = reader.header();
    let mut games = Vec::with_capacity(count);
    let mut numbers = Vec::with_capacity(count);
    while let Some(read) = reader.next_game() {
        let (game, n) = read?;
        games.push(game);
        numbers.push(n);
    }
    Ok(WthorFile {
        year,
        depth,
        games,
        numbers,
    })
}
