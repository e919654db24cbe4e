//! The opening book: 8x8 positions with the values of their moves, learned
//! by searching the leaves of a tree of openings and propagating the values
//! back by negamax.
//!
//! A position is stored once for itself and its seven symmetric images,
//! under its canonical key ([`crate::board::symmetry::canonical`]
//! of the side to move's and the other side's discs). Each [`Entry`] holds:
//!
//! - the *searched* moves: those whose position after is in the book, each
//!   worth minus that position's value (a move after which the other side
//!   must pass is worth that position's value, the same side moving again);
//! - the best *unsearched* move (its position after is not in the book)
//!   with its value from a search at [`Entry::level`];
//! - counts of the games that went through the position ([`GameCounts`]).
//!
//! Values are [`Eval`]s for the side to move (whole discs for books made
//! by other programs). [`Book::negamax`] links every entry to the entries
//! after its moves and recomputes all values from the leaves up.
//! [`Book::lookup`] answers in the orientation of the position asked
//! about. The file format is in [`mod@file`], the text form in [`text`].

use crate::board::symmetry;
use crate::board::Square;
use crate::engine::RelativePosition;
use crate::hash::FastHashMap;
use crate::units::Eval;

pub mod edax;
pub mod file;
pub mod text;

#[cfg(test)]
mod tests;

/// The largest value (in [`Eval`] units) a book holds: a whole board.
pub const MAX_VALUE: i32 = 64 * Eval::PER_DISC;

/// A move of a book position with its value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// Where the disc goes.
    pub square: Square,
    /// Its value for the side to move.
    pub value: Eval,
}

/// Games that went through a position, from the view of its side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Games the side to move won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the side to move lost.
    pub losses: u32,
}

impl GameCounts {
    /// All the games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    /// These counts and `other`'s (each count at most `u32::MAX`).
    #[must_use]
    pub fn plus(self, other: GameCounts) -> GameCounts {
        GameCounts {
            wins: self.wins.saturating_add(other.wins),
            draws: self.draws.saturating_add(other.draws),
            losses: self.losses.saturating_add(other.losses),
        }
    }

    /// One game whose final disc difference for the side to move is
    /// `score`.
    #[must_use]
    pub fn of_result(score: i32) -> GameCounts {
        GameCounts {
            wins: u32::from(score > 0),
            draws: u32::from(score == 0),
            losses: u32::from(score < 0),
        }
    }
}

/// What the book knows of one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The moves whose position after is in the book, valued by negamax
    /// over the book, in the order of their squares.
    pub searched: Vec<BookMove>,
    /// The best move whose position after is not in the book, valued by a
    /// search (`None`: not searched, or every move is searched).
    pub unsearched: Option<BookMove>,
    /// The level of the search that valued `unsearched` (0: none).
    pub level: u8,
    /// The games that went through the position.
    pub counts: GameCounts,
}

/// A move of a book position, as [`Entry::ranked`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move and its value.
    pub mv: BookMove,
    /// Whether its position after is in the book (else it is the best
    /// unsearched move, valued by a search).
    pub searched: bool,
}

impl Entry {
    /// The position's value for the side to move: the best of its moves'
    /// (`None` when it has no valued move).
    #[must_use]
    pub fn value(&self) -> Option<Eval> {
        self.searched
            .iter()
            .chain(&self.unsearched)
            .map(|m| m.value)
            .max()
    }

    /// Every valued move, best first; equal values in the order of their
    /// squares, a searched move before the unsearched one.
    #[must_use]
    pub fn ranked(&self) -> Vec<RankedMove> {
        let mut out: Vec<RankedMove> = self
            .searched
            .iter()
            .map(|&mv| RankedMove { mv, searched: true })
            .chain(self.unsearched.map(|mv| RankedMove {
                mv,
                searched: false,
            }))
            .collect();
        out.sort_by_key(|m| (-m.mv.value.0, !m.searched, m.mv.square.0));
        out
    }

    /// The same entry seen through symmetry `s` (its squares moved, the
    /// searched moves in the order of their new squares).
    #[must_use]
    fn through(&self, s: usize) -> Entry {
        let moved = |m: &BookMove| BookMove {
            square: Square(symmetry::square_image(m.square.0, s)),
            value: m.value,
        };
        let mut searched: Vec<BookMove> = self.searched.iter().map(moved).collect();
        searched.sort_by_key(|m| m.square.0);
        Entry {
            searched,
            unsearched: self.unsearched.as_ref().map(moved),
            level: self.level,
            counts: self.counts,
        }
    }

    /// Why the entry cannot be one of `position` (8x8, side to move's
    /// view), if it cannot.
    ///
    /// # Errors
    /// The first problem found.
    pub fn check(&self, position: &RelativePosition) -> Result<(), InvalidEntry> {
        let bad = |why: String| Err(InvalidEntry(why));
        if position.valid != u64::MAX {
            return bad("the position is not of an 8x8 board".into());
        }
        if position.player & position.opponent != 0 {
            return bad("the two sides' discs overlap".into());
        }
        let legal = position.moves();
        let mut seen = 0u64;
        for m in self.searched.iter().chain(&self.unsearched) {
            let bit = 1u64.checked_shl(u32::from(m.square.0)).unwrap_or(0);
            if bit & legal == 0 {
                return bad(format!("move {} is not legal", Square(m.square.0 & 63)));
            }
            if bit & seen != 0 {
                return bad(format!("move {} is listed twice", m.square));
            }
            seen |= bit;
            if m.value.0.unsigned_abs() > MAX_VALUE.unsigned_abs() {
                return bad(format!("the value of {} is beyond 64 discs", m.square));
            }
        }
        if self
            .searched
            .windows(2)
            .any(|w| w[0].square.0 >= w[1].square.0)
        {
            return bad("the searched moves are not in the order of their squares".into());
        }
        Ok(())
    }
}

message_error! {
    /// Why an entry was refused.
    pub struct InvalidEntry(pub String);
}

/// The canonical key of an 8x8 position: the smallest of its eight images
/// as (side to move's discs, other side's discs).
pub type Key = (u64, u64);

/// The key of `position` and the symmetry that maps it there.
#[inline]
#[must_use]
pub fn key_of(position: &RelativePosition) -> (Key, usize) {
    symmetry::canonical(position.player, position.opponent)
}

/// The position a key stands for.
#[must_use]
pub const fn position_of(key: Key) -> RelativePosition {
    RelativePosition::of_8x8(key.0, key.1)
}

/// Where a move of a book position leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Successor {
    /// A position with moves, after the move (the other side to move:
    /// the move is worth minus its value), or after the move and the
    /// other side's forced pass (`same_side`: worth its value).
    Position {
        /// The position.
        position: RelativePosition,
        /// Whether the mover moves again (the other side passed).
        same_side: bool,
    },
    /// The game is over: the mover's final disc difference, empty squares
    /// to the winner.
    End(i32),
}

/// Where playing `square` (a legal move) in `position` leads.
#[must_use]
pub fn successor(position: &RelativePosition, square: u8) -> Successor {
    let after = position.play(square);
    if after.moves() != 0 {
        return Successor::Position {
            position: after,
            same_side: false,
        };
    }
    let passed = after.pass();
    if passed.moves() != 0 {
        return Successor::Position {
            position: passed,
            same_side: true,
        };
    }
    let mine = passed.player.count_ones() as i32;
    let theirs = passed.opponent.count_ones() as i32;
    let empty = 64 - mine - theirs;
    let diff = mine - theirs;
    Successor::End(diff + diff.signum() * empty)
}

/// An opening book: entries by canonical key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: FastHashMap<Key, Entry>,
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new() -> Book {
        Book::default()
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Stores `entry` for `position` (its squares in `position`'s own
    /// orientation), replacing what the book held for it or any of its
    /// images. The values of the other entries change only with
    /// [`Book::negamax`].
    ///
    /// # Errors
    /// [`InvalidEntry`] when the entry cannot be one of the position
    /// ([`Entry::check`]).
    pub fn insert(
        &mut self,
        position: &RelativePosition,
        entry: Entry,
    ) -> Result<(), InvalidEntry> {
        let mut entry = entry;
        entry.searched.sort_by_key(|m| m.square.0);
        entry.check(position)?;
        let (key, s) = key_of(position);
        self.entries.insert(key, entry.through(s));
        Ok(())
    }

    /// Whether the book holds `position` (or one of its images).
    #[must_use]
    pub fn contains(&self, position: &RelativePosition) -> bool {
        position.valid == u64::MAX && self.entries.contains_key(&key_of(position).0)
    }

    /// The entry of `position` in its own orientation (its moves on the
    /// squares of `position`), or `None` when the book does not hold it
    /// (or it is not 8x8).
    #[must_use]
    pub fn lookup(&self, position: &RelativePosition) -> Option<Entry> {
        if position.valid != u64::MAX {
            return None;
        }
        let (key, s) = key_of(position);
        self.entries
            .get(&key)
            .map(|e| e.through(symmetry::INVERSE[s]))
    }

    /// The entry stored under `key`, in the key's orientation.
    #[must_use]
    pub fn get(&self, key: Key) -> Option<&Entry> {
        self.entries.get(&key)
    }

    /// Changes the entry stored under `key` (in the key's orientation), if
    /// there is one; the caller keeps it valid for the key's position.
    pub fn get_mut(&mut self, key: Key) -> Option<&mut Entry> {
        self.entries.get_mut(&key)
    }

    /// Adds `counts` to the games of `position`, if the book holds it.
    pub fn count_game(&mut self, position: &RelativePosition, counts: GameCounts) -> bool {
        if position.valid != u64::MAX {
            return false;
        }
        match self.entries.get_mut(&key_of(position).0) {
            Some(e) => {
                e.counts = e.counts.plus(counts);
                true
            }
            None => false,
        }
    }

    /// Every entry with its key, in the order of the keys.
    #[must_use]
    pub fn sorted(&self) -> Vec<(Key, &Entry)> {
        let mut out: Vec<(Key, &Entry)> = self.entries.iter().map(|(&k, e)| (k, e)).collect();
        out.sort_unstable_by_key(|&(k, _)| k);
        out
    }

    /// The key of the book position after playing `square` in the
    /// position of `key`, and whether the same side moves again there;
    /// `None` when that position is not in the book.
    #[must_use]
    pub fn child(&self, position: &RelativePosition, square: u8) -> Option<(Key, bool)> {
        match successor(position, square) {
            Successor::Position {
                position,
                same_side,
            } => {
                let (key, _) = key_of(&position);
                self.entries.contains_key(&key).then_some((key, same_side))
            }
            Successor::End(_) => None,
        }
    }

    /// Links every entry to the book positions after its moves and values
    /// every position by negamax from the last plies back:
    ///
    /// - a legal move whose position after is in the book (and has a
    ///   value) is a searched move, worth minus that position's value (its
    ///   value when the other side must pass there); a move that ends the
    ///   game is a searched move worth the final score;
    /// - the unsearched move stays unless it became a searched one;
    /// - a position's value is the best of its moves'.
    ///
    /// Every position after a move has one disc more, so one pass over
    /// the positions from the most discs to the fewest values each after
    /// all the positions its moves lead to.
    pub fn negamax(&mut self) {
        self.negamax_with_odd_gain(Eval(0));
    }

    /// [`Book::negamax`] with the values of the evaluation's depth parity
    /// made even: a searched move's value (minus its position's value,
    /// an estimate one ply deeper than its position's own) loses
    /// `odd_gain`, what a search of odd depth gives the side to move over
    /// one of even depth (measured by `reversi-lab book check` at two
    /// adjacent levels). With 0 this is plain negamax.
    pub fn negamax_with_odd_gain(&mut self, odd_gain: Eval) {
        let mut keys: Vec<Key> = self.entries.keys().copied().collect();
        keys.sort_unstable_by_key(|&(p, o)| (std::cmp::Reverse((p | o).count_ones()), p, o));
        let mut values: FastHashMap<Key, Eval> = FastHashMap::default();
        for key in keys {
            let position = position_of(key);
            let mut searched = Vec::new();
            let mut legal = position.moves();
            while legal != 0 {
                let sq = legal.trailing_zeros() as u8;
                legal &= legal - 1;
                if let Successor::End(score) = successor(&position, sq) {
                    // A move that ends the game is worth its final score.
                    searched.push(BookMove {
                        square: Square(sq),
                        value: Eval(score * Eval::PER_DISC),
                    });
                } else if let Some((child, same_side)) = self.child(&position, sq) {
                    if let Some(&v) = values.get(&child) {
                        searched.push(BookMove {
                            square: Square(sq),
                            value: if same_side {
                                v
                            } else {
                                Eval(-v.0 - odd_gain.0)
                            },
                        });
                    }
                }
            }
            let entry = self.entries.get_mut(&key).expect("a key of the book");
            if entry
                .unsearched
                .is_some_and(|u| searched.iter().any(|m| m.square == u.square))
            {
                entry.unsearched = None;
            }
            entry.searched = searched;
            if let Some(v) = entry.value() {
                values.insert(key, v);
            }
        }
    }

    /// Moves whose position after is not in the book, for the position of
    /// `key` (legal moves as a bit set).
    #[must_use]
    pub fn unsearched_moves(&self, key: Key) -> u64 {
        let position = position_of(key);
        let mut out = 0;
        let mut legal = position.moves();
        while legal != 0 {
            let sq = legal.trailing_zeros() as u8;
            legal &= legal - 1;
            if self.child(&position, sq).is_none() {
                out |= 1u64 << sq;
            }
        }
        out
    }
}

/// The ply of a position (discs on the board beyond the start's four).
#[must_use]
pub fn ply(key: Key) -> u32 {
    (key.0 | key.1).count_ones().saturating_sub(4)
}

/// Whether the position of `key` waits for a search: it has a move whose
/// position after is not in the book, and no valued best such move.
#[must_use]
pub fn is_pending(book: &Book, key: Key) -> bool {
    let open = book.unsearched_moves(key);
    open != 0
        && book
            .get(key)
            .and_then(|e| e.unsearched)
            .is_none_or(|m| open >> m.square.0 & 1 == 0)
}

/// The positions waiting for a search, in the order of their keys (the
/// numbered list that the searches' runs share).
#[must_use]
pub fn pending(book: &Book) -> Vec<Key> {
    book.sorted()
        .into_iter()
        .map(|(k, _)| k)
        .filter(|&k| is_pending(book, k))
        .collect()
}

/// The positions of an unfinished book whose values a reader must not
/// trust: those waiting for a search ([`pending`]: a stopped `reversi-lab
/// book deepen` writes each round's plan with them) and every position
/// with a move into one of them (its negamax value counted the unfinished
/// one's moves alone). Empty for a finished book. A book carries no flag
/// for it: the pending positions are what the file holds, so every reader
/// finds them the same way.
#[must_use]
pub fn unfinished(book: &Book) -> crate::hash::FastHashSet<Key> {
    let mut out: crate::hash::FastHashSet<Key> = pending(book).into_iter().collect();
    if out.is_empty() {
        return out;
    }
    // From the most discs to the fewest: each position after all the
    // positions its moves lead to (one disc more each).
    let mut keys: Vec<Key> = book.entries.keys().copied().collect();
    keys.sort_unstable_by_key(|&k| std::cmp::Reverse(ply(k)));
    for key in keys {
        if out.contains(&key) {
            continue;
        }
        let position = position_of(key);
        let mut legal = position.moves();
        while legal != 0 {
            let sq = legal.trailing_zeros() as u8;
            legal &= legal - 1;
            if book
                .child(&position, sq)
                .is_some_and(|(k, _)| out.contains(&k))
            {
                out.insert(key);
                break;
            }
        }
    }
    out
}
