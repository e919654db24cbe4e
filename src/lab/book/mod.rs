//! Building the opening book ([`crate::engine::book`]): planning which
//! positions to add, searching the positions whose best unsearched move is
//! not known, and merging the searches' results into the book.
//!
//! Every building step has three parts, so that the searches can be split
//! between runs like the training stages ([`crate::lab::shard::Shard`]):
//!
//! 1. A plan adds positions to the book without values: [`plan_new`] (every
//!    position of the first plies of the start or of given openings),
//!    [`plan_deepen`] (one more ply along the lines whose values are within
//!    a margin of the best), [`plan_game`] (the positions of played games,
//!    with their results counted).
//! 2. The *pending* positions ([`crate::engine::book::pending`]: those with a move whose
//!    position after is not in the book, and no valued best such move) are
//!    searched at a level, each on its own by a fresh engine
//!    ([`search_position`]), so a value depends on the position alone.
//! 3. [`merge`] stores each search's best unsearched move and recomputes
//!    every value by negamax: the same book whatever the split and the
//!    thread counts.
//!
//! The searches of a split go through search files ([`searches`]: their
//! header and lines).

use crate::board::{Color, Square};
use crate::engine::analyze::{Analyzer, Limits, MoveSearch};
use crate::engine::book::{
    key_of, pending, ply, position_of, successor, Book, BookMove, Entry, GameCounts, Key, Successor,
};
use crate::engine::RelativePosition;
use crate::lab::shard::{ordered_work, Shard};
use crate::record::GameRecord;
use crate::reversi::{Move, Position};
use crate::units::Eval;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::AtomicBool;

pub mod check;
pub mod input;
pub mod searches;
#[cfg(test)]
mod tests;
pub mod world;

/// The most positions a plan brings a book to unless told otherwise:
/// about 1.1 GB of memory while planning (measured in docs/BOOK.md) and a
/// book file of about 170 MB, well within the 1 GiB that the readers
/// take. Every plan stops with [`TooManyPositions`] before it grows
/// beyond its limit.
pub const MAX_POSITIONS: usize = 5_000_000;

/// A plan that would make the book larger than its limit (the number of
/// positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyPositions(pub usize);

impl fmt::Display for TooManyPositions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the plan would make a book of more than {} positions, the limit; plan fewer plies (or fewer games)",
            self.0
        )
    }
}

impl std::error::Error for TooManyPositions {}

/// `Err` when `positions` are more than `limit`.
fn check_limit(positions: usize, limit: usize) -> Result<(), TooManyPositions> {
    if positions > limit {
        Err(TooManyPositions(limit))
    } else {
        Ok(())
    }
}

/// The positions of the first `ply` plies from the 8x8 start, each once up
/// to the symmetries, as [`plan_new`] makes them (counted by planning
/// them: plies 0 to 10).
const PLANNED_FROM_START: [usize; 11] = [
    1, 2, 5, 19, 79, 401, 2_174, 12_823, 80_068, 514_061, 3_472_612,
];

/// At least how many positions [`plan_new`] makes of the first `depth`
/// plies from the start: exact up to ply 10 (known counts), and beyond it
/// an estimate that every further ply holds at least twice the positions
/// of the one before (the measured growth is 6 to 7 a ply from ply 6 to
/// 10). So an over-large plan is refused before it is built.
#[must_use]
pub fn planned_from_start_at_least(depth: u32) -> usize {
    let last = PLANNED_FROM_START.len() - 1;
    let Some(beyond) = (depth as usize).checked_sub(last).filter(|&b| b > 0) else {
        return PLANNED_FROM_START[depth as usize];
    };
    let mut ply_positions = PLANNED_FROM_START[last] - PLANNED_FROM_START[last - 1];
    let mut total = PLANNED_FROM_START[last];
    for _ in 0..beyond {
        ply_positions = ply_positions.saturating_mul(2);
        total = total.saturating_add(ply_positions);
    }
    total
}

/// Adds `position` to the book without values if it is not there.
/// Returns whether it was added.
fn add_position(book: &mut Book, position: &RelativePosition) -> bool {
    if book.contains(position) {
        return false;
    }
    book.insert(position, Entry::default())
        .expect("an entry without moves fits any position");
    true
}

/// The position with moves reached from `position` after `square`: `None`
/// when the game ends there.
fn next_position(position: &RelativePosition, square: u8) -> Option<RelativePosition> {
    match successor(position, square) {
        Successor::Position { position, .. } => Some(position),
        Successor::End(_) => None,
    }
}

/// Reads a number of discs (0 to 128, a multiple of 1/64): `--within`,
/// `--odd-gain`.
///
/// # Errors
/// A text that is not such a number.
pub fn parse_discs(text: &str) -> Result<Eval, String> {
    match text.parse::<f64>() {
        Ok(d) if (0.0..=128.0).contains(&d) => Ok(crate::eval::Discs(d).to_eval()),
        _ => Err(format!("{text:?} is not a number of discs from 0 to 128")),
    }
}

/// The level of a building command's searches: `level`, required unless
/// the command only plans (`planning`: `--no-search`, `--count-only`).
///
/// # Errors
/// No level for a command that searches.
pub fn searches_level(level: Option<u32>, planning: bool) -> Result<Option<u32>, &'static str> {
    match (level, planning) {
        (Some(l), _) => Ok(Some(l)),
        (None, true) => Ok(None),
        (None, false) => Err("give --level L for the searches, or --no-search to only plan"),
    }
}

/// The most openings a book is planned from (each held as its moves).
pub const MAX_OPENINGS: usize = 1_000_000;

message_error! {
    /// Why an openings file is refused (the message names the file, and
    /// the line when one is at fault).
    pub struct OpeningsRefused(pub String);
}

/// The openings of `book new --openings FILE`, taken a game at a time:
/// each a transcript from the 8x8 start, at most [`MAX_OPENINGS`], and at
/// least one ([`Openings::finish`]); the move lists [`plan_new`] plans
/// from.
#[derive(Debug)]
pub struct Openings<'a> {
    /// The file, for messages.
    name: &'a str,
    /// The openings' moves, in the file's order.
    lines: Vec<Vec<Move>>,
}

impl<'a> Openings<'a> {
    /// No opening yet, of the file `name`.
    #[must_use]
    pub fn new(name: &'a str) -> Openings<'a> {
        Openings {
            name,
            lines: Vec::new(),
        }
    }

    /// Takes the game of the file's line `number`.
    ///
    /// # Errors
    /// A game that does not start from the 8x8 start position, or one more
    /// than [`MAX_OPENINGS`].
    pub fn take(&mut self, number: usize, game: &GameRecord) -> Result<(), OpeningsRefused> {
        let name = self.name;
        if game.start != Position::start(8) {
            return Err(OpeningsRefused(format!(
                "{name} line {number}: an opening is a transcript from the start position"
            )));
        }
        if self.lines.len() >= MAX_OPENINGS {
            return Err(OpeningsRefused(format!(
                "{name} holds more than {MAX_OPENINGS} openings, the most a book is planned from"
            )));
        }
        self.lines.push(game.move_list());
        Ok(())
    }

    /// The openings' move lists.
    ///
    /// # Errors
    /// When the file held none (a plan from no opening would be the
    /// start's alone, which is not what an openings file asks).
    pub fn finish(self) -> Result<Vec<Vec<Move>>, OpeningsRefused> {
        if self.lines.is_empty() {
            return Err(OpeningsRefused(format!("{} holds no opening", self.name)));
        }
        Ok(self.lines)
    }
}

/// Adds to `book` every position of the first `depth` plies from each of
/// `openings` (move lists from the 8x8 start; none: the start alone): the
/// positions along an opening, and from its end every position up to ply
/// `depth`. A forced pass leads to the position after it; the game's end
/// is never a book position. Returns the positions added.
///
/// # Errors
/// [`TooManyPositions`] before any work when the plan from the start is
/// larger than `limit` ([`planned_from_start_at_least`]), else as soon as
/// the plan would bring the book beyond `limit` positions (the book then
/// holds some of the plan).
pub fn plan_new(
    book: &mut Book,
    openings: &[Vec<Move>],
    depth: u32,
    limit: usize,
) -> Result<usize, TooManyPositions> {
    if openings.is_empty() {
        // Estimated first: the plan from the start would reach the limit.
        check_limit(planned_from_start_at_least(depth), limit)?;
    }
    let start = RelativePosition::start(8);
    let mut added = 0;
    let mut ends = Vec::new();
    if openings.is_empty() {
        ends.push(start);
    }
    for opening in openings {
        let mut p = start;
        let mut ended = false;
        for mv in opening {
            if p.moves() != 0 {
                added += usize::from(add_position(book, &p));
                check_limit(book.len(), limit)?;
            }
            p = match mv {
                Move::Place(sq) => p.play(sq.0),
                Move::Pass => p.pass(),
            };
            if p.is_game_over() {
                ended = true;
                break;
            }
        }
        if !ended {
            ends.push(if p.moves() == 0 { p.pass() } else { p });
        }
    }
    // Breadth first from the openings' ends, each position once.
    let mut seen: HashSet<Key> = HashSet::new();
    let mut frontier: Vec<RelativePosition> = Vec::new();
    for p in ends {
        if seen.insert(key_of(&p).0) {
            frontier.push(p);
        }
    }
    while let Some(p) = frontier.pop() {
        added += usize::from(add_position(book, &p));
        if ply(key_of(&p).0) >= depth {
            continue;
        }
        let mut legal = p.moves();
        while legal != 0 {
            let sq = legal.trailing_zeros() as u8;
            legal &= legal - 1;
            if let Some(next) = next_position(&p, sq) {
                if seen.insert(key_of(&next).0) {
                    // Every position seen is added: the book will hold
                    // at least the old positions and these.
                    check_limit(book.len().max(seen.len()), limit)?;
                    frontier.push(next);
                }
            }
        }
    }
    Ok(added)
}

/// Where [`plan_deepen`] starts its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Roots {
    /// The start position (or, in a book without it, every position of
    /// the fewest discs).
    Start,
    /// Every book position at this ply: each gets its own lines.
    Ply(u32),
}

/// The positions where the lines of the (valued) book continue. A line
/// starts at a root ([`Roots`]) with a budget of `within`; each move costs
/// what it loses against its position's best (its value below the best
/// move's), and a line follows every move it can still afford, up to ply
/// `depth`: the lines within `within` discs of the best, counting the
/// mistakes of both sides. A position reached by several lines keeps the
/// largest budget left. Adds the position after each affordable move that
/// is not in the book yet (the best unsearched move, when it is affordable)
/// and returns the positions added.
///
/// # Errors
/// [`TooManyPositions`] when the book would grow beyond `limit`
/// positions (found before any position is added).
pub fn plan_deepen(
    book: &mut Book,
    roots: Roots,
    depth: u32,
    within: Eval,
    limit: usize,
) -> Result<usize, TooManyPositions> {
    let keys: Vec<Key> = book.sorted().into_iter().map(|(k, _)| k).collect();
    let root_keys: Vec<Key> = match roots {
        Roots::Ply(p) => keys.into_iter().filter(|&k| ply(k) == p).collect(),
        Roots::Start => {
            let start = key_of(&RelativePosition::start(8)).0;
            if book.get(start).is_some() {
                vec![start]
            } else {
                let fewest = keys.iter().map(|&k| ply(k)).min().unwrap_or(0);
                keys.into_iter().filter(|&k| ply(k) == fewest).collect()
            }
        }
    };
    // Every book move leads one ply further, so the positions are taken
    // ply by ply, each with the largest budget any line brings to it.
    let mut level: HashMap<Key, i32> = root_keys.into_iter().map(|k| (k, within.0)).collect();
    let mut new_positions: HashMap<Key, RelativePosition> = HashMap::new();
    while !level.is_empty() {
        let mut next_level: HashMap<Key, i32> = HashMap::new();
        for (&key, &budget) in &level {
            let entry = book.get(key).expect("a book key");
            let Some(best) = entry.value() else { continue };
            if ply(key) >= depth {
                continue;
            }
            let position = position_of(key);
            for m in entry.searched.iter().chain(&entry.unsearched) {
                let left = budget - (best.0 - m.value.0);
                if left < 0 {
                    continue;
                }
                let Some(next) = next_position(&position, m.square.0) else {
                    continue;
                };
                let next_key = key_of(&next).0;
                if book.get(next_key).is_some() {
                    let kept = next_level.entry(next_key).or_insert(left);
                    *kept = (*kept).max(left);
                } else {
                    new_positions.entry(next_key).or_insert(next);
                    check_limit(book.len() + new_positions.len(), limit)?;
                }
            }
        }
        level = next_level;
    }
    Ok(new_positions
        .values()
        .filter(|p| add_position(book, p))
        .count())
}

/// A book without the roots a deepening starts from: empty, or with no
/// position at the ply asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoRoots {
    /// The book holds no position.
    Empty,
    /// No position at `ply`; the book's positions are at plies `low` to
    /// `high`.
    NotAtPly {
        /// The ply asked for.
        ply: u32,
        /// The fewest plies of a book position.
        low: u32,
        /// The most.
        high: u32,
    },
}

impl fmt::Display for NoRoots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoRoots::Empty => f.write_str("the book is empty: no line to deepen"),
            NoRoots::NotAtPly { ply, low, high } => write!(
                f,
                "the book has no position at ply {ply} (its positions are at plies {low} to {high})"
            ),
        }
    }
}

impl std::error::Error for NoRoots {}

impl Roots {
    /// Checks that `book` holds the roots: a position at the ply asked
    /// for (the start needs none: a book without it starts from its
    /// positions of the fewest discs).
    ///
    /// # Errors
    /// [`NoRoots`] when the book has no position at the ply.
    pub fn check(self, book: &Book) -> Result<(), NoRoots> {
        let Roots::Ply(p) = self else {
            return Ok(());
        };
        let plies: Vec<u32> = book.sorted().iter().map(|&(k, _)| ply(k)).collect();
        if plies.contains(&p) {
            return Ok(());
        }
        match (plies.iter().min(), plies.iter().max()) {
            (Some(&low), Some(&high)) => Err(NoRoots::NotAtPly { ply: p, low, high }),
            _ => Err(NoRoots::Empty),
        }
    }
}

/// What `reversi-lab book deepen` asks of [`deepen`]: the lines' roots,
/// the ply they grow to, the discs they may lose in all, and the most
/// positions a plan brings the book to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deepening {
    /// Where the lines start.
    pub roots: Roots,
    /// The ply the lines grow to.
    pub depth: u32,
    /// The discs a line may lose against the best, both sides' moves
    /// counted.
    pub within: Eval,
    /// The most positions of the book.
    pub limit: usize,
}

impl Deepening {
    /// One round's plan ([`plan_deepen`]): the positions added.
    ///
    /// # Errors
    /// [`TooManyPositions`] as [`plan_deepen`].
    pub fn plan(&self, book: &mut Book) -> Result<usize, TooManyPositions> {
        plan_deepen(book, self.roots, self.depth, self.within, self.limit)
    }
}

/// A checkpoint of [`deepen`]: a round planned after the searches of the
/// rounds before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// Its number, from 1.
    pub number: u32,
    /// The positions its plan added (0: the book is finished).
    pub added: usize,
}

/// Why [`deepen`] stopped before the book was finished.
#[derive(Debug)]
pub enum DeepenError<E> {
    /// A round's plan would make the book too large.
    Plan(TooManyPositions),
    /// The checkpoint failed (the caller's error).
    Checkpoint(E),
}

/// Deepens `book` round after round: its pending positions are searched
/// first (`search`: a line follows values), then each round plans one
/// more ply of the lines ([`Deepening::plan`]), hands the book to
/// `checkpoint` (where the caller writes it, so that a stopped run goes
/// on from it, searching what waits first) and searches the positions it
/// added, until a round adds nothing: its checkpoint holds the finished
/// book.
///
/// # Errors
/// A plan beyond the limit, or the first error of `checkpoint`.
pub fn deepen<E>(
    book: &mut Book,
    plan: &Deepening,
    search: &mut dyn FnMut(&mut Book),
    checkpoint: &mut dyn FnMut(&Book, Round) -> Result<(), E>,
) -> Result<(), DeepenError<E>> {
    search(book);
    for number in 1.. {
        let added = plan.plan(book).map_err(DeepenError::Plan)?;
        checkpoint(book, Round { number, added }).map_err(DeepenError::Checkpoint)?;
        if added == 0 {
            break;
        }
        search(book);
    }
    Ok(())
}

/// Adds the positions before each of the first `depth` moves of `game`
/// (and the one after them) to `book`, and counts the game's result in
/// each (when the game is over). Positions where the side to move must
/// pass are left out. Returns the positions added.
///
/// # Errors
/// When the game is not 8x8, or the book would grow beyond `limit`
/// positions.
pub fn plan_game(
    book: &mut Book,
    game: &GameRecord,
    depth: u32,
    limit: usize,
) -> Result<usize, String> {
    if game.start.board.size() != 8 {
        return Err("the game is not of an 8x8 board".into());
    }
    let black_score = game.final_score();
    let positions = game.positions();
    let mut added = 0;
    for p in positions.iter().take(depth as usize + 1) {
        let relative = RelativePosition::from(p);
        if relative.moves() == 0 {
            continue;
        }
        added += usize::from(add_position(book, &relative));
        check_limit(book.len(), limit).map_err(|e| e.to_string())?;
        if let Some(score) = black_score {
            let mine = if p.to_move == Color::Black {
                score
            } else {
                -score
            };
            book.count_game(&relative, GameCounts::of_result(mine));
        }
    }
    Ok(added)
}

/// The result of one position's search: its best move among those whose
/// position after is not in the book (in the key's orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The position's number in the list of pending positions.
    pub item: u64,
    /// The position.
    pub key: Key,
    /// Its best unsearched move and value.
    pub best: BookMove,
    /// The level searched at.
    pub level: u8,
}

message_error! {
    /// Why a line is not a search result.
    pub struct SearchedLineError(String);
}

impl Searched {
    /// The result as one line: the item, the two sides' discs in hex, the
    /// move, its value in 1/64 disc and the level, separated by tabs.
    #[must_use]
    pub fn to_line(&self) -> String {
        format!(
            "{}\t{:016x}\t{:016x}\t{}\t{}\t{}",
            self.item, self.key.0, self.key.1, self.best.square, self.best.value.0, self.level
        )
    }

    /// Reads a line written by [`Searched::to_line`] (its move legal, its
    /// value within 64 discs).
    ///
    /// # Errors
    /// What is wrong with the line.
    pub fn parse_line(line: &str) -> Result<Searched, SearchedLineError> {
        let err = |m: String| SearchedLineError(m);
        let fields: Vec<&str> = line.split('\t').collect();
        let [item, p, o, square, value, level] = fields[..] else {
            return Err(err(format!(
                "has {} tab-separated fields, expected 6",
                fields.len()
            )));
        };
        let item: u64 = item
            .parse()
            .map_err(|_| err(format!("item {item:?} is not a number")))?;
        let hex = |t: &str| {
            (t.len() == 16)
                .then(|| u64::from_str_radix(t, 16).ok())
                .flatten()
                .ok_or_else(|| err(format!("{t:?} is not 16 hex digits")))
        };
        let key = (hex(p)?, hex(o)?);
        let square: Square = square
            .parse()
            .map_err(|_| err(format!("{square:?} is not a square")))?;
        let value: i32 = value
            .parse()
            .map_err(|_| err(format!("value {value:?} is not a number")))?;
        let level: u8 = level
            .parse()
            .map_err(|_| err(format!("level {level:?} is not a number")))?;
        let best = BookMove {
            square,
            value: Eval(value),
        };
        Entry {
            unsearched: Some(best),
            ..Entry::default()
        }
        .check(&position_of(key))
        .map_err(|e| err(e.0))?;
        Ok(Searched {
            item,
            key,
            best,
            level,
        })
    }
}

/// The limits of a book search at `level`: no clock (so that the value
/// depends on the position alone), one thread, exact with at most 18
/// empty squares.
#[must_use]
pub fn search_limits(level: u32) -> Limits {
    Limits {
        level: Some(level),
        time: None,
        ..Limits::default()
    }
}

/// The best move of the position of `key` among those not in `excluded`
/// (a bit set of its moves) and its value, by a fresh engine at `level`.
///
/// # Panics
/// If every move is excluded.
#[must_use]
pub fn search_position(key: Key, excluded: u64, level: u32) -> BookMove {
    let position = position_of(key);
    let board = Position {
        board: position.to_board(Color::Black),
        to_move: Color::Black,
    };
    let count = if excluded == 0 { 1 } else { usize::MAX };
    let mut engine = Analyzer::new();
    let values = engine.rank_moves(
        &board,
        count,
        &search_limits(level),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let best = values
        .iter()
        .find_map(|v| match v.mv {
            Move::Place(sq) if excluded >> sq.0 & 1 == 0 => Some((sq, v.value)),
            _ => None,
        })
        .expect("a move that is not excluded");
    BookMove {
        square: best.0,
        value: best.1.to_eval(),
    }
}

/// Searches the pending positions `list` of `book` numbered
/// `shard.item(k)` for `k` in `ks` at `level` on `threads` threads, and
/// hands each result to `deliver` in order (`false` stops).
pub fn search_pending(
    book: &Book,
    list: &[Key],
    level: u32,
    shard: Shard,
    ks: std::ops::Range<u64>,
    threads: usize,
    deliver: impl FnMut(Searched) -> bool,
) {
    let level_byte = u8::try_from(level).unwrap_or(u8::MAX);
    ordered_work(
        ks.end.saturating_sub(ks.start),
        threads,
        || (),
        |(), k| {
            let item = shard.item(ks.start + k);
            let key = list[usize::try_from(item).expect("an item of the list")];
            let open = book.unsearched_moves(key);
            let legal = position_of(key).moves();
            Searched {
                item,
                key,
                best: search_position(key, legal & !open, level),
                level: level_byte,
            }
        },
        deliver,
    );
}

message_error! {
    /// Why results cannot be merged into a book.
    pub struct MergeError(pub String);
}

/// Stores the search `results` of the pending positions `list` of `book`
/// (every item once, in any order) and values the book by negamax, each
/// move into the book losing `odd_gain`
/// ([`Book::negamax_with_odd_gain`]; 0: plain negamax).
///
/// # Errors
/// When an item is missing, doubled, not of the list or not of its
/// position.
pub fn merge(
    book: &mut Book,
    list: &[Key],
    results: &[Searched],
    odd_gain: Eval,
) -> Result<(), MergeError> {
    let mut have = vec![false; list.len()];
    for r in results {
        let index = usize::try_from(r.item)
            .ok()
            .filter(|&i| i < list.len())
            .ok_or_else(|| {
                MergeError(format!(
                    "item {} is beyond the {} pending positions",
                    r.item,
                    list.len()
                ))
            })?;
        if list[index] != r.key {
            return Err(MergeError(format!(
                "item {} is another position than the book's pending position {index}",
                r.item
            )));
        }
        if std::mem::replace(&mut have[index], true) {
            return Err(MergeError(format!("item {} is given twice", r.item)));
        }
        if book.unsearched_moves(r.key) >> r.best.square.0 & 1 == 0 {
            return Err(MergeError(format!(
                "item {}'s move {} leads into the book",
                r.item, r.best.square
            )));
        }
        let entry = book
            .get_mut(r.key)
            .expect("a pending position is in the book");
        entry.unsearched = Some(r.best);
        entry.level = r.level;
    }
    if let Some(missing) = have.iter().position(|h| !h) {
        return Err(MergeError(format!(
            "pending position {missing} has no result: a search is unfinished"
        )));
    }
    book.negamax_with_odd_gain(odd_gain);
    readable(book, odd_gain)
}

/// Checks every entry of `book`, valued with `odd_gain`, against the rule
/// its readers apply ([`Entry::check`]: among others, every value within
/// 64 discs): a gain so large that it pushes a value beyond is refused,
/// naming the first position, before anything is written.
fn readable(book: &Book, odd_gain: Eval) -> Result<(), MergeError> {
    for (key, entry) in book.sorted() {
        if let Err(e) = entry.check(&position_of(key)) {
            return Err(MergeError(format!(
                "with every move into the book losing {} discs, a position of ply {} is refused: {}; \
                 no reader takes such a book (a smaller gain keeps the values within 64 discs)",
                odd_gain.discs(),
                ply(key),
                e.0
            )));
        }
    }
    Ok(())
}

/// Searches every pending position of `book` at `level` on `threads`
/// threads and merges the results (`progress` hears of each: done, total).
pub fn search_and_merge(
    book: &mut Book,
    level: u32,
    threads: usize,
    progress: &mut dyn FnMut(u64, u64),
) {
    let list = pending(book);
    let total = list.len() as u64;
    let mut results = Vec::with_capacity(list.len());
    search_pending(book, &list, level, Shard::WHOLE, 0..total, threads, |r| {
        results.push(r);
        progress(results.len() as u64, total);
        true
    });
    merge(book, &list, &results, Eval(0)).expect("every pending position searched once");
}
