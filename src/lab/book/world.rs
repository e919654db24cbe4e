//! The book's tree from the world's games (`reversi-lab book add
//! --min-games N`): every position that at least `N` of the games reach
//! in their first plies, with how many games reached it and how they
//! ended for its side to move.
//!
//! The games are those of `reversi-lab train import` (WTHOR and
//! Logistello, unfinished, repeated and FFO games already dropped). A
//! position is counted once per game (a game cannot come back to a
//! position: every move adds a disc) and keyed up to the 8 symmetries, as
//! the book keys it, so the games of every orientation and every
//! transposition add up. The engine's own best reply at each position
//! (the best move whose position after is not in the tree) is the book's
//! best unsearched move, found by the book's searches afterwards.

use super::{add_position, check_limit, TooManyPositions};
use crate::board::Color;
use crate::engine::book::{key_of, Book, GameCounts, Key};
use crate::engine::RelativePosition;
use crate::reversi::Move;
use std::collections::HashMap;

/// One game as the tree counts it: its moves from the 8x8 start (passes
/// included) and black's final disc difference.
#[derive(Clone, Copy, Debug)]
pub struct CountedGame<'a> {
    /// The moves from the start.
    pub moves: &'a [Move],
    /// Black's final disc difference (empty squares to the winner).
    pub black_score: i32,
}

/// The positions of a game's first `plies` plies (and the one after
/// them) with the colour to move, each once; positions whose side to
/// move must pass are left out (the book keys the position after the
/// pass, which the game reaches next).
fn game_positions(moves: &[Move], plies: u32) -> Vec<(RelativePosition, Color)> {
    let mut p = RelativePosition::start(8);
    let mut color = Color::Black;
    let mut out = Vec::new();
    for i in 0..=plies as usize {
        if p.is_game_over() {
            break;
        }
        if p.moves() != 0 {
            out.push((p, color));
        }
        let Some(mv) = moves.get(i).filter(|_| i < plies as usize) else {
            break;
        };
        p = match *mv {
            Move::Place(sq) => p.play(sq.0),
            Move::Pass => p.pass(),
        };
        color = color.other();
    }
    out
}

/// Whether `first_line` is the header of a games file of `train import`
/// or `train generate` (either program name: `reversi` or `reversi-lab`),
/// whose lines [`crate::lab::train::formats::games::read`] reads.
#[must_use]
pub fn is_games_file(first_line: &str) -> bool {
    use crate::lab::train::formats::games::{GENERATED, IMPORTED};
    GENERATED.starts(first_line) || IMPORTED.starts(first_line)
}

/// The games of a games file as the tree counts them.
#[must_use]
pub fn counted(games: &[crate::lab::train::TrainingGame]) -> Vec<CountedGame<'_>> {
    games
        .iter()
        .map(|g| CountedGame {
            moves: &g.moves,
            black_score: g.score,
        })
        .collect()
}

/// How many `games` reach each position of their first `plies` plies
/// (keyed up to the symmetries), and how those games ended for the
/// position's side to move.
#[must_use]
pub fn count_positions(games: &[CountedGame<'_>], plies: u32) -> HashMap<Key, GameCounts> {
    let mut counts: HashMap<Key, GameCounts> = HashMap::new();
    for g in games {
        for (p, color) in game_positions(g.moves, plies) {
            let mine = if color == Color::Black {
                g.black_score
            } else {
                -g.black_score
            };
            let c = counts.entry(key_of(&p).0).or_default();
            *c = c.plus(GameCounts::of_result(mine));
        }
    }
    counts
}

/// The number of positions reached by at least each of `min_games` games
/// within their first `plies` plies (for choosing the tree's size).
#[must_use]
pub fn positions_reached(counts: &HashMap<Key, GameCounts>, min_games: &[u64]) -> Vec<usize> {
    min_games
        .iter()
        .map(|&n| counts.values().filter(|c| c.games() >= n).count())
        .collect()
}

/// Adds to `book` every position that at least `min_games` of `games`
/// reach in their first `plies` plies, each with its games counted (added
/// to the counts a position already in the book has). Returns the
/// positions added.
///
/// # Errors
/// [`TooManyPositions`] when the book would hold more than `limit`
/// positions (found before any position is added).
pub fn plan_world(
    book: &mut Book,
    games: &[CountedGame<'_>],
    plies: u32,
    min_games: u64,
    limit: usize,
) -> Result<usize, TooManyPositions> {
    let counts = count_positions(games, plies);
    let mut kept: Vec<(Key, GameCounts)> = counts
        .into_iter()
        .filter(|(_, c)| c.games() >= min_games)
        .collect();
    kept.sort_unstable_by_key(|&(k, _)| k);
    let new = kept.iter().filter(|(k, _)| book.get(*k).is_none()).count();
    check_limit(book.len() + new, limit)?;
    let mut added = 0;
    for (key, c) in kept {
        let position = crate::engine::book::position_of(key);
        added += usize::from(add_position(book, &position));
        book.count_game(&position, c);
    }
    Ok(added)
}

/// Makes the counts of every position `book` holds those of `games`
/// through it within their first `plies` plies (none for a position no
/// game reached), adding no position: the book's moves and values stay
/// as they are, and counting the same games again changes nothing.
/// Returns how many of its positions the games reached.
pub fn count_into(book: &mut Book, games: &[CountedGame<'_>], plies: u32) -> usize {
    let counts = count_positions(games, plies);
    let keys: Vec<Key> = book.sorted().into_iter().map(|(k, _)| k).collect();
    let mut reached = 0;
    for key in keys {
        let c = counts.get(&key).copied().unwrap_or_default();
        reached += usize::from(c.games() > 0);
        book.get_mut(key).expect("a key of the book").counts = c;
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::book::{pending, GameCounts};
    use crate::lab::book::search_and_merge;
    use crate::record::parse_transcript;
    use crate::reversi::Position;

    fn moves(t: &str) -> Vec<Move> {
        parse_transcript(t, Position::start(8))
            .expect("a legal transcript")
            .move_list()
    }

    fn at(t: &str) -> RelativePosition {
        let game = parse_transcript(t, Position::start(8)).expect("a legal transcript");
        RelativePosition::from(&game.last())
    }

    fn counts(wins: u32, draws: u32, losses: u32) -> GameCounts {
        GameCounts {
            wins,
            draws,
            losses,
        }
    }

    /// Three games: two Tigers (black wins by 10, loses by 4) and a
    /// diagonal opening in another orientation (c4 c3, a draw), then a
    /// line of one game only.
    #[test]
    fn the_tree_of_three_games_holds_the_positions_two_reach_with_their_results() {
        let (tiger1, tiger2, diagonal) = (
            moves("f5d6c3d3c4f4"),
            moves("f5d6c3d3c4b3"),
            moves("c4c3d3c5"),
        );
        let games = [
            CountedGame {
                moves: &tiger1,
                black_score: 10,
            },
            CountedGame {
                moves: &tiger2,
                black_score: -4,
            },
            CountedGame {
                moves: &diagonal,
                black_score: 0,
            },
        ];
        let mut book = Book::new();
        let added = plan_world(&mut book, &games, 3, 2, 100).unwrap();
        // The start, f5 (c4 is its image), f5 d6, f5 d6 c3 (ply 3, the
        // last counted); f5 f6 and the Tigers' later plies have fewer.
        assert_eq!((added, book.len()), (4, 4));
        let entry = |t: &str| book.lookup(&at(t)).map(|e| e.counts);
        assert_eq!(entry(""), Some(counts(1, 1, 1)));
        // White to move after f5: black's +10 is white's loss.
        assert_eq!(entry("f5"), Some(counts(1, 1, 1)));
        assert_eq!(entry("c4"), Some(counts(1, 1, 1)));
        assert_eq!(entry("f5d6"), Some(counts(1, 0, 1)));
        assert_eq!(entry("f5d6c3"), Some(counts(1, 0, 1)));
        assert_eq!(entry("f5f6"), None);
        assert_eq!(entry("f5d6c3d3"), None);
        // Counted in all: 3 games at the two first positions, 2 after.
        let reached = positions_reached(&count_positions(&games, 3), &[1, 2, 3]);
        assert_eq!(reached, [6, 4, 2]);
        // Too many positions for the limit: refused, nothing added.
        let mut small = Book::new();
        assert!(plan_world(&mut small, &games, 3, 2, 3).is_err());
        assert!(small.is_empty());
        // Searched: every position gets the engine's best move outside
        // the tree (the masters played f5 d6 c3 only; the engine answers
        // the others), and the values negamax.
        search_and_merge(&mut book, 1, 1, &mut |_, _| {});
        assert!(pending(&book).is_empty());
        // At the start the four first moves are one position, in the tree.
        let start = book.lookup(&at("")).unwrap();
        assert_eq!((start.searched.len(), start.unsearched), (4, None));
        for t in ["f5", "f5d6", "f5d6c3"] {
            let e = book.lookup(&at(t)).unwrap();
            assert!(e.unsearched.is_some(), "{t:?}");
            assert!(e.value().is_some(), "{t:?}");
        }
        let e = book.lookup(&at("f5d6")).unwrap();
        assert_eq!(e.searched.len(), 1, "c3 leads into the tree");
        assert_eq!(e.searched[0].square.to_string(), "c3");
    }

    #[test]
    fn a_game_is_counted_once_per_position_and_passes_are_left_out() {
        let g = moves("f5d6c3d3c4");
        let positions = game_positions(&g, 60);
        assert_eq!(positions.len(), 6, "the start and the five after");
        assert_eq!(game_positions(&g, 0).len(), 1);
    }

    #[test]
    fn counting_only_counts_the_games_through_the_books_positions_and_adds_none() {
        let (tiger, diagonal) = (moves("f5d6c3d3c4f4"), moves("c4c3d3c5"));
        let games = [
            CountedGame {
                moves: &tiger,
                black_score: 10,
            },
            CountedGame {
                moves: &diagonal,
                black_score: 0,
            },
        ];
        let mut book = Book::new();
        crate::lab::book::plan_new(&mut book, &[], 2, 100).unwrap();
        search_and_merge(&mut book, 1, 1, &mut |_, _| {});
        let before = book.clone();
        // The start, f5 and both second plies (perpendicular f5 d6 and
        // diagonal c4 c3) are in the book; the third plies are not.
        assert_eq!(count_into(&mut book, &games, 10), 4);
        assert_eq!(book.len(), before.len());
        for (key, entry) in before.sorted() {
            let now = book.get(key).unwrap();
            assert_eq!(
                (&now.searched, now.unsearched),
                (&entry.searched, entry.unsearched)
            );
        }
        assert_eq!(book.lookup(&at("")).unwrap().counts, counts(1, 1, 0));
        assert_eq!(book.lookup(&at("f5")).unwrap().counts, counts(0, 1, 1));
        assert_eq!(book.lookup(&at("f5d6")).unwrap().counts, counts(1, 0, 0));
        assert_eq!(book.lookup(&at("f5f4")).unwrap().counts, counts(0, 0, 0));
        assert_eq!(book.lookup(&at("c4c3")).unwrap().counts, counts(0, 1, 0));
        // The same games again: the same counts (they replace, not add).
        let once = book.clone();
        assert_eq!(count_into(&mut book, &games, 10), 4);
        assert_eq!(book, once);
        // Fewer games: the counts of those only.
        count_into(&mut book, &games[..1], 10);
        assert_eq!(book.lookup(&at("")).unwrap().counts, counts(1, 0, 0));
        assert_eq!(book.lookup(&at("c4c3")).unwrap().counts, counts(0, 0, 0));
    }
}
