//! The building of a games index: games taken one at a time (each once,
//! up to symmetry), then the file written in passes of bounded memory.

use super::file::{self, GameEntry, NONE_NAME};
use super::postings::Coding;
use super::{position_key, positions, replay};
use crate::hash::FastHashMap;
use crate::record::archive::ArchiveGame;
use crate::record::collection::normalised_moves;
use crate::reversi::Position;
use std::io::{self, Write};

/// The most postings (8 bytes each) a build holds at once: a collection
/// with more positions is indexed in several passes over its games, each
/// taking one range of the position hashes (about 32 MiB a pass).
pub const MAX_POSTINGS_IN_MEMORY: u64 = 1 << 22;

/// What became of a game given to [`IndexBuilder::add`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// Indexed as the game of this number (from 1).
    Kept(u32),
    /// Left out: its moves, up to symmetry, are those of the indexed game
    /// of this number.
    Duplicate(u32),
    /// Left out: not a game from the 8x8 start.
    NotFromStart,
}

/// What a build wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexSummary {
    /// Games indexed.
    pub games: u64,
    /// Games left out as duplicates.
    pub duplicates: u64,
    /// Postings: the positions of every game indexed.
    pub postings: u64,
    /// The passes over the games the postings took.
    pub passes: u64,
    /// The bytes of the file.
    pub bytes: u64,
}

/// Builds a games index: [`IndexBuilder::start_file`] for each collection,
/// [`IndexBuilder::add`] for each of its games, then
/// [`IndexBuilder::write`]. It holds every game kept, packed (about 70
/// bytes each), and the names once each.
#[derive(Debug, Default)]
pub struct IndexBuilder {
    /// The collections' names, in the order given.
    files: Vec<String>,
    /// Every player and tournament name, once each.
    names: Vec<String>,
    name_ids: FastHashMap<String, u32>,
    /// The games' entries, packed one after another ([`file::GameEntry`]).
    games: Vec<u8>,
    /// Where each game's entry starts in `games`.
    offsets: Vec<u32>,
    /// The games kept by a hash of their normalised moves.
    seen: FastHashMap<u64, Vec<u32>>,
    duplicates: u64,
    postings: u64,
}

impl IndexBuilder {
    /// An empty index.
    #[must_use]
    pub fn new() -> IndexBuilder {
        IndexBuilder::default()
    }

    /// The games added next come from the collection `name` (as the index
    /// names their source).
    pub fn start_file(&mut self, name: &str) {
        self.files.push(name.to_owned());
    }

    /// Games kept so far.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.offsets.len() as u64
    }

    /// Games left out as duplicates so far.
    #[must_use]
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }

    fn name_id(&mut self, name: Option<&str>) -> u32 {
        let Some(name) = name.map(str::trim).filter(|n| !n.is_empty() && *n != "?") else {
            return NONE_NAME;
        };
        if let Some(&id) = self.name_ids.get(name) {
            return id;
        }
        let id = u32::try_from(self.names.len()).unwrap_or(NONE_NAME - 1);
        self.names.push(name.to_owned());
        self.name_ids.insert(name.to_owned(), id);
        id
    }

    /// Takes game `number` (from 1) of the current collection: kept unless
    /// its moves repeat, up to symmetry, a game kept before (the first
    /// collection given keeps it).
    pub fn add(&mut self, game: &ArchiveGame, number: u32) -> Added {
        let record = &game.record;
        if record.start != Position::start(8) {
            return Added::NotFromStart;
        }
        let squares: Vec<u8> = normalised_moves(&record.move_list())
            .into_iter()
            .filter(|&s| s < 64)
            .collect();
        let Some(moves) = replay(&squares) else {
            // Never for a record (its moves were checked); its image too.
            return Added::NotFromStart;
        };
        let hash = crate::hash::fnv1a(&squares);
        if let Some(same) = self.seen.get(&hash) {
            for &kept in same {
                if self.entry(kept).squares() == squares {
                    self.duplicates += 1;
                    return Added::Duplicate(kept + 1);
                }
            }
        }
        let info = &record.info;
        let entry = GameEntry {
            black: self.name_id(info.black.as_deref()),
            white: self.name_id(info.white.as_deref()),
            tournament: self.name_id(info.place.as_deref()),
            year: info.date.as_deref().and_then(year_of),
            score: record.final_score().or(game.stated_score),
            file: u16::try_from(self.files.len().saturating_sub(1)).unwrap_or(u16::MAX),
            game_in_file: number,
            squares,
        };
        let index = u32::try_from(self.offsets.len()).unwrap_or(u32::MAX);
        self.offsets
            .push(u32::try_from(self.games.len()).unwrap_or(u32::MAX));
        entry.encode(&mut self.games);
        self.seen.entry(hash).or_default().push(index);
        self.postings += moves.len() as u64 + 1;
        Added::Kept(index + 1)
    }

    fn entry(&self, index: u32) -> GameEntry {
        let at = self.offsets[index as usize] as usize;
        GameEntry::decode(&self.games[at..])
            .expect("the builder's own entry")
            .0
    }

    /// Writes the index to `out`: the header, the collections' and the
    /// names' lists, the games, then the postings in passes of at most
    /// [`MAX_POSTINGS_IN_MEMORY`] (each a range of hashes; `progress`
    /// hears each pass's number from 1 and the number of passes), the
    /// blocks' directory and the checksum.
    ///
    /// # Errors
    /// The writer's; [`io::ErrorKind::InvalidData`] for an index beyond
    /// the format's limits (more than 4 GiB of postings).
    pub fn write(
        &self,
        out: &mut impl Write,
        progress: &mut dyn FnMut(u64, u64),
    ) -> io::Result<IndexSummary> {
        write_in_passes(self, out, MAX_POSTINGS_IN_MEMORY, progress)
    }
}

/// [`IndexBuilder::write`] holding at most `max` postings at a time (the
/// file's bytes do not depend on it).
pub(super) fn write_in_passes(
    b: &IndexBuilder,
    out: &mut impl Write,
    max: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> io::Result<IndexSummary> {
    let coding = Coding::new(b.offsets.len() as u64, b.postings);
    let mut w = file::Writer::new(out, coding);
    let passes = b.postings.div_ceil(max.max(1)).max(1);
    w.header(
        b.offsets.len() as u64,
        &b.files,
        &b.names,
        &b.offsets,
        &b.games,
        b.postings,
    )?;
    let mut written = 0;
    for pass in 0..passes {
        progress(pass + 1, passes);
        // A range of the postings' keys (never of the full hashes: a key's
        // postings all come in one pass, so the file's are sorted).
        let lo = coding.range_of_keys(pass, passes).0;
        let hi = coding.range_of_keys(pass, passes).1;
        let mut postings =
            Vec::with_capacity(usize::try_from(max.min(b.postings)).unwrap_or(0) * 5 / 4);
        for (index, &at) in b.offsets.iter().enumerate() {
            let entry = GameEntry::decode(&b.games[at as usize..])
                .expect("the builder's own entry")
                .0;
            let moves = replay(&entry.squares).expect("a game replayed when added");
            for p in positions(&moves) {
                let posting = coding.posting(position_key(&p), index as u32);
                if (lo..hi).contains(&posting) {
                    postings.push(posting);
                }
            }
        }
        postings.sort_unstable();
        postings.dedup();
        written += postings.len() as u64;
        w.postings(&postings)?;
    }
    let bytes = w.finish()?;
    Ok(IndexSummary {
        games: b.offsets.len() as u64,
        duplicates: b.duplicates,
        postings: written,
        passes,
        bytes,
    })
}

/// The year a date starts with (`1984`, `2023-05-01`), if it does.
fn year_of(date: &str) -> Option<u16> {
    let digits: String = date.trim().chars().take(4).collect();
    (digits.len() == 4)
        .then(|| digits.parse::<u16>().ok())
        .flatten()
        .filter(|&y| y > 0)
}

/// The moves a game of `squares` (its discs in order) makes, passes
/// explicit (for the tests).
#[cfg(test)]
pub(super) fn moves_of(squares: &[u8]) -> Vec<crate::reversi::Move> {
    replay(squares).expect("legal")
}
