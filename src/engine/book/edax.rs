//! Edax's opening books ([`crate::record::edax_book`]) in this crate's
//! book, and back.
//!
//! An Edax position holds its *links* (moves to other book positions,
//! each with the position's value after it) and its *leaf* (the best other
//! move, valued by a search at the position's level): they become an
//! [`Entry`]'s searched moves and its unsearched move, their whole-disc
//! scores [`Eval`]s. Edax's solved-line counts (won, drawn, lost by the
//! side to move) become the entry's [`GameCounts`]; its bounds and line
//! count have no place here.

use super::{Book, BookMove, Entry, GameCounts, InvalidEntry};
use crate::engine::RelativePosition;
use crate::record::edax_book::{
    EdaxBook, EdaxDate, EdaxHeader, EdaxLink, EdaxMoveKind, EdaxOptions, EdaxPosition,
};
use crate::reversi::Move;
use crate::units::Eval;

/// Edax's error margin (discs) of a midgame search, written into the
/// options of the books made here (Edax's own default).
const EDAX_MIDGAME_ERROR: i32 = 2;

/// Edax's error margin (discs) of a selective endgame search (its own
/// default).
const EDAX_ENDCUT_ERROR: i32 = 1;

impl Book {
    /// The book holding every position of an Edax book, with Edax's moves
    /// and values (not recomputed: [`Book::negamax`] would give the same
    /// values for a book Edax saved).
    ///
    /// # Errors
    /// [`InvalidEntry`] naming the first position (1-based, in file order)
    /// whose moves cannot be its own.
    pub fn from_edax(edax: &EdaxBook) -> Result<Book, InvalidEntry> {
        let mut book = Book::new();
        for (i, p) in edax.positions.iter().enumerate() {
            let position = RelativePosition::of_8x8(p.player, p.opponent);
            let mut entry = Entry {
                searched: Vec::new(),
                unsearched: None,
                level: p.level,
                counts: GameCounts {
                    wins: p.wins,
                    draws: p.draws,
                    losses: p.losses,
                },
            };
            for m in p.moves() {
                let Move::Place(square) = m.mv else {
                    continue;
                };
                let mv = BookMove {
                    square,
                    value: Eval(m.score * Eval::PER_DISC),
                };
                match m.kind {
                    EdaxMoveKind::Link => entry.searched.push(mv),
                    EdaxMoveKind::Leaf => entry.unsearched = Some(mv),
                }
            }
            book.insert(&position, entry)
                .map_err(|e| InvalidEntry(format!("Edax book position {}: {e}", i + 1)))?;
        }
        Ok(book)
    }

    /// The book as Edax stores one: every position in Edax's unique form,
    /// its searched moves as links and its unsearched move as the leaf,
    /// values rounded to whole discs, bounds unknown (-64 to 64), the
    /// positions in the order of this book's keys. Edax reads it with
    /// `book load`.
    #[must_use]
    pub fn to_edax(&self) -> EdaxBook {
        let score = |v: Eval| v.round_discs().clamp(-64, 64) as i8;
        let link = |m: &BookMove| EdaxLink::new(Move::Place(m.square), score(m.value));
        let positions: Vec<EdaxPosition> = self
            .sorted()
            .into_iter()
            .map(|((player, opponent), e)| {
                EdaxPosition {
                    player,
                    opponent,
                    wins: e.counts.wins,
                    draws: e.counts.draws,
                    losses: e.counts.losses,
                    lines: u32::try_from(e.counts.games()).unwrap_or(u32::MAX),
                    value: e.value().map_or(0, |v| i16::from(score(v))),
                    lower: -64,
                    upper: 64,
                    level: e.level,
                    links: e.searched.iter().map(link).collect(),
                    leaf: e.unsearched.as_ref().map_or(EdaxLink::NONE, link),
                }
                .into_unique()
            })
            .collect();
        let level = self
            .sorted()
            .iter()
            .map(|(_, e)| e.level)
            .max()
            .unwrap_or(0);
        let min_empties = self
            .sorted()
            .iter()
            .map(|((p, o), _)| 64 - (p | o).count_ones())
            .min()
            .unwrap_or(60);
        EdaxBook {
            header: EdaxHeader::new(
                EdaxOptions {
                    level: i32::from(level),
                    min_empties: min_empties as i32,
                    midgame_error: EDAX_MIDGAME_ERROR,
                    endcut_error: EDAX_ENDCUT_ERROR,
                    verbosity: 0,
                },
                EdaxDate::default(),
            ),
            positions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::edax_book::from_bytes;

    fn edax_small_book() -> EdaxBook {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/edax-small-book.dat"
        ))
        .expect("the Edax-made test book");
        from_bytes(&bytes).expect("an Edax book")
    }

    /// (square, value in discs, searched) of every move, by square.
    fn moves_of(e: &Entry) -> Vec<(u8, i32, bool)> {
        let mut out: Vec<(u8, i32, bool)> = e
            .ranked()
            .iter()
            .map(|m| (m.mv.square.0, m.mv.value.0 / Eval::PER_DISC, m.searched))
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn every_position_move_and_value_of_the_edax_made_book_reads_back_exactly() {
        let edax = edax_small_book();
        let book = Book::from_edax(&edax).unwrap();
        assert_eq!(book.len(), edax.positions.len());
        for p in &edax.positions {
            let position = RelativePosition::of_8x8(p.player, p.opponent);
            let entry = book.lookup(&position).expect("every Edax position");
            let mut expected: Vec<(u8, i32, bool)> = p
                .moves()
                .iter()
                .filter_map(|m| match m.mv {
                    Move::Place(sq) => Some((sq.0, m.score, m.kind == EdaxMoveKind::Link)),
                    Move::Pass => None,
                })
                .collect();
            expected.sort_unstable();
            assert_eq!(moves_of(&entry), expected);
            assert_eq!(entry.level, p.level);
            assert_eq!(
                (entry.counts.wins, entry.counts.draws, entry.counts.losses),
                (p.wins, p.draws, p.losses)
            );
            if let Some(v) = entry.value() {
                assert_eq!(v.0, i32::from(p.value) * Eval::PER_DISC);
            }
        }
    }

    #[test]
    fn a_book_written_for_edax_reads_back_the_same() {
        let book = Book::from_edax(&edax_small_book()).unwrap();
        let written = book.to_edax();
        assert!(written.positions.iter().all(EdaxPosition::is_unique));
        let bytes = crate::record::edax_book::to_bytes(&written);
        let again = Book::from_edax(&from_bytes(&bytes).unwrap()).unwrap();
        assert_eq!(again, book);
    }

    #[test]
    fn the_edax_values_are_the_negamax_of_the_book() {
        let book = Book::from_edax(&edax_small_book()).unwrap();
        let mut recomputed = book.clone();
        recomputed.negamax();
        // Edax also stores positions whose side to move must pass (a
        // pass link); this book keys the position after the pass instead,
        // so a link into such a position is not followed by `negamax`.
        // Every position whose links all lead to positions held here (or
        // end the game) has Edax's value.
        use crate::engine::book::{position_of, successor, Successor};
        let mut sorted = book.sorted();
        sorted.sort_by_key(|((p, o), _)| std::cmp::Reverse((p | o).count_ones()));
        let mut followed = std::collections::HashSet::new();
        let mut compared = 0;
        for (key, e) in sorted {
            let position = position_of(key);
            let all_followed = e.searched.iter().all(|m| {
                matches!(successor(&position, m.square.0), Successor::End(_))
                    || book
                        .child(&position, m.square.0)
                        .is_some_and(|(child, _)| followed.contains(&child))
            });
            if all_followed {
                followed.insert(key);
                assert_eq!(recomputed.get(key).unwrap().value(), e.value(), "{key:x?}");
                compared += 1;
            }
        }
        assert!(compared * 2 >= book.len(), "{compared} of {}", book.len());
    }
}
