//! The opening book behind the engine API: a position the book holds is
//! answered from the book (its moves with their negamax values) instead of
//! a search.

use super::{Certainty, MoveValue};
use crate::board::Square;
use crate::engine::book::{key_of, successor, Book, Entry, Key, Successor};
use crate::engine::RelativePosition;
use crate::hash::FastHashSet;
use crate::reversi::{Move, Position};
use crate::rng::Rng;
use crate::units::{Discs, Eval};
use std::sync::{Arc, OnceLock};

/// The opening book built into the binary (`data/opening-book.bin`; how it
/// was built: docs/BOOK.md).
static SHIPPED_FILE: &[u8] = include_bytes!("../../../data/opening-book.bin");

/// The opening book built into the binary, read once.
///
/// # Panics
/// Never for a binary whose tests pass: the embedded file is checked by
/// them.
#[must_use]
pub fn shipped_book() -> Arc<Book> {
    static SHIPPED: OnceLock<Arc<Book>> = OnceLock::new();
    Arc::clone(SHIPPED.get_or_init(|| {
        Arc::new(Book::from_bytes(SHIPPED_FILE).expect("the embedded opening book is valid"))
    }))
}

/// The weight of a book move within the randomness when one is drawn:
/// how much of the randomness it leaves (`randomness - loss`, in 1/64
/// disc, plus one so that a move at the limit can still be drawn) times
/// one plus the square root of the games through it. The best move of a
/// position no game reached is drawn 1 + 64r times as often as a move
/// losing the whole r discs; a move 100 games played, 11 times as often
/// as an equal move no game played.
#[must_use]
pub fn choice_weight(loss: Eval, randomness: Eval, games: u64) -> u64 {
    let left = u64::try_from((randomness.0 - loss.0).max(0)).unwrap_or(0) + 1;
    left * (1 + games.isqrt())
}

/// The longest book line given with a move (a book never reaches the end).
const LINE_CAP: usize = 60;

/// An opening book as one engine uses it: the book, how far from the best
/// a played book move may be, and the generator that picks among those.
#[derive(Clone, Debug)]
pub struct BookUse {
    book: Arc<Book>,
    randomness: Eval,
    rng: Rng,
    /// The positions of an unfinished book that are searched, not read
    /// ([`crate::engine::book::unfinished`]): found at the first 8x8
    /// position asked about (a scan of the whole book), once for every
    /// copy of this `BookUse`, and once for the built-in book.
    unfinished: Arc<OnceLock<Arc<FastHashSet<Key>>>>,
}

impl BookUse {
    /// Plays from `book` the best move, or with `randomness` above zero
    /// any move within that many discs of the best, picked by a generator
    /// seeded with `seed` (same seed, same games).
    #[must_use]
    pub fn new(book: Arc<Book>, randomness: Discs, seed: u64) -> BookUse {
        BookUse {
            book,
            randomness: Discs(randomness.0.max(0.0)).to_eval(),
            rng: Rng::new(seed),
            unfinished: Arc::new(OnceLock::new()),
        }
    }

    /// The same book with another seed for its random choices, sharing
    /// what this one found of the book (its unfinished positions).
    #[must_use]
    pub fn reseeded(&self, seed: u64) -> BookUse {
        BookUse {
            rng: Rng::new(seed),
            ..self.clone()
        }
    }

    /// The unfinished positions of the book, found when first needed.
    fn unfinished(&self) -> &FastHashSet<Key> {
        self.unfinished.get_or_init(|| {
            static SHIPPED: OnceLock<Arc<FastHashSet<Key>>> = OnceLock::new();
            if Arc::ptr_eq(&self.book, &shipped_book()) {
                // The built-in book is scanned once per process.
                Arc::clone(
                    SHIPPED.get_or_init(|| Arc::new(crate::engine::book::unfinished(&self.book))),
                )
            } else {
                Arc::new(crate::engine::book::unfinished(&self.book))
            }
        })
    }

    /// Whether the book's unfinished positions were looked for (a scan of
    /// the whole book: never for a position off 8x8).
    #[cfg(test)]
    fn scanned(&self) -> bool {
        self.unfinished.get().is_some()
    }

    /// The book.
    #[must_use]
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// The book's entry of `p` when it holds the 8x8 position with at
    /// least one valued move.
    fn entry(&self, p: &Position) -> Option<(RelativePosition, Entry)> {
        if p.board.size() != 8 {
            return None;
        }
        let position = RelativePosition::from(p);
        let unfinished = self.unfinished();
        if !unfinished.is_empty() && unfinished.contains(&key_of(&position).0) {
            return None;
        }
        let entry = self.book.lookup(&position)?;
        (!entry.ranked().is_empty()).then_some((position, entry))
    }

    /// The book's moves of `p`, best first, with their values for the side
    /// to move and the book's line after each; `None` when the book does
    /// not hold the position.
    #[must_use]
    pub fn rank(&self, p: &Position) -> Option<Vec<MoveValue>> {
        let (position, entry) = self.entry(p)?;
        let values = entry
            .ranked()
            .into_iter()
            .map(|m| {
                let (line, level) = self.line(&position, &entry, m.mv.square.0);
                MoveValue {
                    mv: Move::Place(m.mv.square),
                    value: m.mv.value.discs(),
                    certainty: Certainty::Book {
                        level: u32::from(level),
                        games: self.games_after(&position, m.mv.square.0),
                    },
                    line,
                }
            })
            .collect();
        Some(values)
    }

    /// A move to play in `p` with its value for the side to move, when
    /// the book holds the position: the best, or with a randomness above
    /// zero one of the moves within it of the best, drawn with the weight
    /// of `choice_weight` (its loss and the games through it).
    pub fn choose(&mut self, p: &Position) -> Option<(Move, Eval)> {
        let (position, entry) = self.entry(p)?;
        let ranked = entry.ranked();
        let best = ranked[0].mv.value;
        let close: Vec<_> = ranked
            .iter()
            .take_while(|m| m.mv.value.0 >= best.0 - self.randomness.0)
            .collect();
        let pick = if close.len() <= 1 {
            &ranked[0]
        } else if self.randomness.0 == 0 {
            // Equal best moves: any of them.
            *self.rng.pick(&close)
        } else {
            let weights: Vec<u64> = close
                .iter()
                .map(|m| {
                    let loss = Eval(best.0 - m.mv.value.0);
                    let games = self.games_after(&position, m.mv.square.0);
                    choice_weight(loss, self.randomness, games)
                })
                .collect();
            let total: u64 = weights.iter().sum();
            let mut at = self.rng.next_u64() % total;
            let mut chosen = close[close.len() - 1];
            for (m, &w) in close.iter().zip(&weights) {
                if at < w {
                    chosen = m;
                    break;
                }
                at -= w;
            }
            chosen
        };
        Some((Move::Place(pick.mv.square), pick.mv.value))
    }

    /// The games the book counted through the position after `square`.
    fn games_after(&self, position: &RelativePosition, square: u8) -> u64 {
        match successor(position, square) {
            Successor::Position { position, .. } => {
                self.book.lookup(&position).map_or(0, |e| e.counts.games())
            }
            Successor::End(_) => 0,
        }
    }

    /// `square` (a move of `position`, whose entry is `entry`) and then the
    /// book's best move of each position after it while the book holds one
    /// (a forced pass written as a move), with the level of the search
    /// that valued the line's last move.
    fn line(&self, position: &RelativePosition, entry: &Entry, square: u8) -> (Vec<Move>, u8) {
        let mut level = entry.level;
        let mut line = vec![Move::Place(Square(square))];
        let mut next = successor(position, square);
        while let Successor::Position {
            position,
            same_side,
        } = next
        {
            if same_side {
                line.push(Move::Pass);
            }
            let Some((best, at)) = self
                .book
                .lookup(&position)
                .and_then(|e| Some((*e.ranked().first()?, e.level)))
            else {
                break;
            };
            level = at;
            if line.len() >= LINE_CAP {
                break;
            }
            line.push(Move::Place(best.mv.square));
            next = successor(&position, best.mv.square.0);
        }
        if line.last() == Some(&Move::Pass) {
            line.pop();
        }
        (line, level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The book is scanned for unfinished positions at the first 8x8
    /// position only, once for a book's copies: every move of a 6x6
    /// tournament made a `BookUse` that scanned the whole built-in book
    /// (7 s of a README example that takes 0.01 s without the book).
    #[test]
    fn the_book_is_scanned_only_for_an_8x8_position_and_once() {
        let mut small = BookUse::new(shipped_book(), Discs(0.0), 1);
        for size in [4, 6] {
            let p = Position::start(size);
            assert!(small.rank(&p).is_none() && small.choose(&p).is_none());
        }
        assert!(!small.scanned());
        let copy = small.reseeded(2);
        assert!(small.rank(&Position::start(8)).is_some());
        assert!(small.scanned() && copy.scanned());
    }
    use crate::engine::book::{BookMove, GameCounts};
    use crate::game::Game;
    use crate::record::parse_game;
    use crate::reversi::Reversi;
    use std::collections::HashMap;

    /// A book of the position after `f5d6c3d3c4` whose moves are worth
    /// 0, -1, -2, ... discs in the order of their squares (each position
    /// after one holds an unsearched move of that value for its mover,
    /// negated).
    fn graded_book() -> (Position, Book, Vec<Square>) {
        let p = parse_game("f5d6c3d3c4", 8).unwrap().last();
        let game = Reversi::DISC_DIFFERENCE;
        let mut book = Book::new();
        let mut squares = Vec::new();
        for (i, m) in game.moves(&p).enumerate() {
            let Move::Place(sq) = m else { unreachable!() };
            squares.push(sq);
            let child = RelativePosition::from(&game.play(&p, m));
            let reply = child.moves().trailing_zeros() as u8;
            let entry = Entry {
                unsearched: Some(BookMove {
                    square: Square(reply),
                    value: Eval(i as i32 * Eval::PER_DISC),
                }),
                level: 3,
                ..Entry::default()
            };
            book.insert(&child, entry).unwrap();
        }
        book.insert(&RelativePosition::from(&p), Entry::default())
            .unwrap();
        book.negamax();
        (p, book, squares)
    }

    #[test]
    fn the_book_ranks_its_moves_and_plays_the_best_or_any_within_the_randomness() {
        let (p, book, squares) = graded_book();
        let book = Arc::new(book);
        let ranked = BookUse::new(Arc::clone(&book), Discs(0.0), 1)
            .rank(&p)
            .unwrap();
        let values: Vec<f64> = ranked.iter().map(|m| m.value.0).collect();
        let expected: Vec<f64> = (0..squares.len()).map(|i| -(i as f64)).collect();
        assert_eq!(values, expected);
        assert!(ranked
            .iter()
            .all(|m| m.certainty == Certainty::Book { level: 3, games: 0 }));
        assert_eq!(ranked[0].mv, Move::Place(squares[0]));
        // Randomness 0: always the best; 1.5 discs: the best two; 64: any.
        let played = |randomness: f64| -> Vec<Move> {
            let mut moves: Vec<Move> = (0..200)
                .map(|seed| {
                    BookUse::new(Arc::clone(&book), Discs(randomness), seed)
                        .choose(&p)
                        .unwrap()
                        .0
                })
                .collect();
            moves.sort_by_key(|m| match m {
                Move::Place(sq) => sq.0,
                Move::Pass => 64,
            });
            moves.dedup();
            moves
        };
        assert_eq!(played(0.0).len(), 1);
        assert_eq!(
            played(1.5),
            vec![Move::Place(squares[0]), Move::Place(squares[1])]
        );
        assert_eq!(played(64.0).len(), squares.len());
        // A position the book does not hold, and a smaller board: none.
        let start = Position::start(8);
        assert!(BookUse::new(Arc::clone(&book), Discs(0.0), 1)
            .rank(&start)
            .is_none());
        assert!(BookUse::new(book, Discs(0.0), 1)
            .rank(&Position::start(6))
            .is_none());
    }

    /// How often each square is played over 1,000 seeds.
    fn drawn(book: &Arc<Book>, p: &Position, randomness: f64) -> HashMap<Square, u32> {
        let mut counts = HashMap::new();
        for seed in 0..1000 {
            let (mv, _) = BookUse::new(Arc::clone(book), Discs(randomness), seed)
                .choose(p)
                .unwrap();
            let Move::Place(sq) = mv else { unreachable!() };
            *counts.entry(sq).or_insert(0) += 1;
        }
        counts
    }

    #[test]
    fn randomness_draws_by_loss_and_games_and_the_seed_decides() {
        assert_eq!(choice_weight(Eval(0), Eval(64), 0), 65);
        assert_eq!(choice_weight(Eval(64), Eval(64), 0), 1);
        assert_eq!(choice_weight(Eval(0), Eval(64), 100), 65 * 11);
        assert_eq!(choice_weight(Eval(65), Eval(64), 0), 1);
        let (p, mut book, squares) = graded_book();
        let shared = Arc::new(book.clone());
        // Within 1 disc: the best (weight 65) and the second, a disc worse
        // (weight 1).
        let counts = drawn(&shared, &p, 1.0);
        assert_eq!(counts.len(), 2);
        assert!(counts[&squares[0]] > 900, "{counts:?}");
        assert!(counts[&squares[1]] > 0, "{counts:?}");
        // The same seed, the same move.
        let again = |seed| {
            BookUse::new(Arc::clone(&shared), Discs(3.0), seed)
                .choose(&p)
                .unwrap()
        };
        assert!((0..50).all(|seed| again(seed) == again(seed)));
        // Games through the second move: 2,500 games (weight 1 x 51)
        // against none for the best (65): the second drawn about 44% of
        // the time.
        let game = Reversi::DISC_DIFFERENCE;
        let second = RelativePosition::from(&game.play(&p, Move::Place(squares[1])));
        book.count_game(
            &second,
            GameCounts {
                wins: 2_500,
                draws: 0,
                losses: 0,
            },
        );
        let counts = drawn(&Arc::new(book), &p, 1.0);
        let share = f64::from(counts[&squares[1]]) / 1000.0;
        assert!((0.38..0.50).contains(&share), "{counts:?}");
    }
}
