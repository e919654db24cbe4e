use super::file::BookFileError;
use super::*;
use crate::reversi::random_position;
use crate::rng::Rng;
use std::collections::HashMap;

/// The squares of a bit set.
fn squares(bits: u64) -> Vec<u8> {
    (0..64).filter(|sq| bits >> sq & 1 == 1).collect()
}

/// A random value within 10 discs, in 1/64 disc.
fn random_value(rng: &mut Rng) -> Eval {
    Eval(rng.below(1281) as i32 - 640)
}

/// `p` turned by the symmetry `s`, square by square (independently of the
/// book's own maps).
fn turned(p: &RelativePosition, s: usize) -> RelativePosition {
    let map = |x: u64| {
        let mut out = 0u64;
        for sq in squares(x) {
            let (r, c) = (sq / 8, sq % 8);
            let (r, c) = match s {
                0 => (r, c),
                1 => (r, 7 - c),
                2 => (7 - r, c),
                3 => (7 - r, 7 - c),
                4 => (c, r),
                5 => (7 - c, r),
                6 => (c, 7 - r),
                _ => (7 - c, 7 - r),
            };
            out |= 1 << (r * 8 + c);
        }
        out
    };
    RelativePosition::of_8x8(map(p.player), map(p.opponent))
}

/// The square `sq` turned by `s` (as [`turned`]).
fn turned_square(sq: u8, s: usize) -> u8 {
    turned(&RelativePosition::of_8x8(1 << sq, 0), s)
        .player
        .trailing_zeros() as u8
}

#[test]
fn a_position_and_its_seven_images_find_one_entry_in_their_own_orientation() {
    let mut rng = Rng::new(24);
    let mut tried = 0;
    for _ in 0..100 {
        let plies = 4 + rng.below(20);
        let p = random_position(8, plies, &mut rng);
        let position = RelativePosition::from(&p);
        let legal = squares(position.moves());
        // A position that is its own image (its moves' values are then
        // those of their images) is left to the next test.
        if legal.is_empty() || (1..8).any(|s| turned(&position, s) == position) {
            continue;
        }
        tried += 1;
        // Values by square: every legal move but the last searched, the
        // last unsearched.
        let values: HashMap<u8, Eval> = legal
            .iter()
            .map(|&sq| (sq, random_value(&mut rng)))
            .collect();
        let (last, rest) = legal.split_last().expect("a move");
        let entry = Entry {
            searched: rest
                .iter()
                .map(|&sq| BookMove {
                    square: Square(sq),
                    value: values[&sq],
                })
                .collect(),
            unsearched: Some(BookMove {
                square: Square(*last),
                value: values[last],
            }),
            level: 7,
            counts: GameCounts {
                wins: 3,
                draws: 1,
                losses: 2,
            },
        };
        let mut book = Book::new();
        // Stored through one image, found through every one.
        let stored_as = rng.below(8);
        book.insert(
            &turned(&position, stored_as),
            entry.clone().through_turned(stored_as),
        )
        .expect("a valid entry");
        assert_eq!(book.len(), 1);
        for s in 0..8 {
            let image = turned(&position, s);
            let found = book.lookup(&image).expect("found through every image");
            assert_eq!(found, entry.clone().through_turned(s), "image {s}");
            for m in found.ranked() {
                assert!(image.moves() >> m.mv.square.0 & 1 == 1);
            }
        }
        assert_eq!(book.lookup(&position), Some(entry.clone()));
        let v = entry.value().expect("valued");
        assert_eq!(v, *values.values().max().expect("moves"));
        assert_eq!(
            book.lookup(&position).expect("found").ranked()[0].mv.value,
            v
        );
    }
    assert!(tried > 80, "{tried}");
}

#[test]
fn a_symmetric_position_answers_in_any_orientation() {
    // The start position is its own image under the half turn and the
    // two diagonal mirrors: its four moves have one value.
    let start = RelativePosition::start(8);
    let d3 = BookMove {
        square: Square(19),
        value: Eval(64),
    };
    let mut book = Book::new();
    book.insert(
        &start,
        Entry {
            unsearched: Some(d3),
            ..Entry::default()
        },
    )
    .expect("valid");
    let found = book
        .lookup(&start)
        .expect("held")
        .unsearched
        .expect("a move");
    assert_eq!(found.value, d3.value);
    assert!(start.moves() >> found.square.0 & 1 == 1);
}

impl Entry {
    /// The entry with its squares turned by `s` the test's own way.
    fn through_turned(mut self, s: usize) -> Entry {
        for m in self.searched.iter_mut().chain(self.unsearched.as_mut()) {
            m.square = Square(turned_square(m.square.0, s));
        }
        self.searched.sort_by_key(|m| m.square.0);
        self
    }
}

/// A small book: every position of the first `plies` plies of the start,
/// each stored in a random orientation; the last ply's positions (and a
/// few earlier ones, whose other moves are left out of the book) have an
/// unsearched move with a random value. Returns the book and the
/// positions of each ply.
fn tree_book(plies: usize, seed: u64) -> (Book, Vec<Vec<RelativePosition>>) {
    let mut rng = Rng::new(seed);
    let mut book = Book::new();
    let mut levels = vec![vec![RelativePosition::start(8)]];
    for ply in 0..=plies {
        let mut next = Vec::new();
        for position in levels[ply].clone() {
            if book.contains(&position) {
                continue;
            }
            let legal = squares(position.moves());
            let leaf = ply == plies;
            // Interior positions expand some of their moves (at least one)
            // and value the first other one by "search".
            let expanded: Vec<u8> = if leaf {
                Vec::new()
            } else {
                let keep = 1 + rng.below(legal.len());
                legal[..keep].to_vec()
            };
            let unsearched = legal
                .iter()
                .find(|sq| !expanded.contains(sq))
                .map(|&sq| BookMove {
                    square: Square(sq),
                    value: random_value(&mut rng),
                });
            let s = rng.below(8);
            let entry = Entry {
                searched: Vec::new(),
                unsearched,
                level: 5,
                counts: GameCounts::default(),
            };
            book.insert(&turned(&position, s), entry.through_turned(s))
                .expect("valid");
            for sq in expanded {
                let after = position.play(sq);
                next.push(if after.moves() == 0 {
                    after.pass()
                } else {
                    after
                });
            }
        }
        levels.push(next);
    }
    (book, levels)
}

/// The value of `position` by brute force over the tree: the best of its
/// unsearched move's value and minus the value of every position after a
/// move that the book holds (found by comparing with every image).
fn reference_value(book: &Book, all: &[RelativePosition], position: &RelativePosition) -> Eval {
    reference_value_with(book, all, position, Eval(0))
}

/// [`reference_value`] where a move to a position of the other side to
/// move loses `odd_gain` besides.
fn reference_value_with(
    book: &Book,
    all: &[RelativePosition],
    position: &RelativePosition,
    odd_gain: Eval,
) -> Eval {
    let entry = book.lookup(position).expect("in the book");
    let mut best = entry.unsearched.map(|m| m.value);
    for sq in squares(position.moves()) {
        let after = position.play(sq);
        let (child, sign) = if after.moves() == 0 {
            (after.pass(), 1)
        } else {
            (after, -1)
        };
        let held = all.iter().any(|q| (0..8).any(|s| turned(q, s) == child));
        if held {
            let lost = if sign < 0 { odd_gain.0 } else { 0 };
            let v = Eval(sign * reference_value_with(book, all, &child, odd_gain).0 - lost);
            best = Some(best.map_or(v, |b| b.max(v)));
        }
    }
    best.expect("a valued position")
}

#[test]
fn negamax_agrees_with_a_brute_force_search_of_the_tree() {
    for seed in 1..4 {
        let (mut book, levels) = tree_book(3, seed);
        let all: Vec<RelativePosition> = levels.iter().flatten().copied().collect();
        book.negamax();
        for position in all.iter().filter(|p| book.contains(p)) {
            let entry = book.lookup(position).expect("held");
            assert_eq!(
                entry.value(),
                Some(reference_value(&book, &all, position)),
                "seed {seed}"
            );
            for m in &entry.searched {
                let after = position.play(m.square.0);
                let v = if after.moves() == 0 {
                    reference_value(&book, &all, &after.pass())
                } else {
                    -reference_value(&book, &all, &after)
                };
                assert_eq!(m.value, v);
            }
        }
        // Negamax again changes nothing.
        let once = book.to_bytes();
        book.negamax();
        assert_eq!(book.to_bytes(), once);
    }
}

#[test]
fn an_odd_gain_costs_every_move_into_the_book_once_and_zero_is_negamax() {
    for seed in 1..4 {
        let (mut book, levels) = tree_book(3, seed);
        let all: Vec<RelativePosition> = levels.iter().flatten().copied().collect();
        book.negamax_with_odd_gain(Eval(0));
        let plain = book.to_bytes();
        book.negamax();
        assert_eq!(book.to_bytes(), plain);
        let gain = Eval(3 * Eval::PER_DISC + 37);
        book.negamax_with_odd_gain(gain);
        for position in all.iter().filter(|p| book.contains(p)) {
            let entry = book.lookup(position).expect("held");
            assert_eq!(
                entry.value(),
                Some(reference_value_with(&book, &all, position, gain)),
                "seed {seed}"
            );
        }
        // Back to plain negamax: the same book as before.
        book.negamax();
        assert_eq!(book.to_bytes(), plain);
    }
}

#[test]
fn the_file_round_trips_and_its_bytes_depend_on_the_book_alone() {
    let (mut book, levels) = tree_book(3, 9);
    book.negamax();
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
    // The same positions inserted in another order: the same bytes.
    let mut again = Book::new();
    for position in levels.iter().flatten().rev() {
        if let Some(e) = book.lookup(position) {
            again.insert(position, e).expect("valid");
        }
    }
    assert_eq!(again.to_bytes(), bytes);
    // The text form reads back to the same book.
    let text = book.to_text();
    let read = Book::from_text(text.lines()).expect("text");
    assert_eq!(read.to_bytes(), bytes);
    assert_eq!(read.to_text(), text);
}

#[test]
fn corrupt_truncated_and_foreign_files_are_refused() {
    let (mut book, _) = tree_book(2, 5);
    book.negamax();
    let bytes = book.to_bytes();
    for cut in 0..bytes.len() {
        let e = Book::from_bytes(&bytes[..cut]).expect_err("truncated");
        let expected = if cut < 8 {
            BookFileError::NotBook
        } else {
            BookFileError::Truncated {
                found: cut as u64,
                expected: if cut < 32 { 32 } else { bytes.len() as u64 },
            }
        };
        assert_eq!(e, expected, "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Book::from_bytes(&longer),
        Err(BookFileError::TooLong { .. })
    ));
    // Any byte changed after the header's length field: the checksum.
    for at in 24..bytes.len() {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        assert_eq!(
            Book::from_bytes(&bad),
            Err(BookFileError::Checksum),
            "byte {at}"
        );
    }
    let mut version = bytes.clone();
    version[8] = 2;
    assert_eq!(Book::from_bytes(&version), Err(BookFileError::Version(2)));
    assert_eq!(
        Book::from_bytes(
            crate::eval::pattern::PatternWeights::zero()
                .to_bytes()
                .as_slice()
        ),
        Err(BookFileError::NotBook)
    );
    assert!(BookFileError::Checksum.to_string().contains("corrupt"));
    // A value without an unsearched move (square 255), checksum right:
    // refused, since it would not be written back.
    let mut book = Book::new();
    book.insert(&RelativePosition::start(8), Entry::default())
        .expect("valid");
    let mut bytes = book.to_bytes();
    let n = bytes.len();
    assert_eq!(bytes[24 + 18], 255);
    bytes[24 + 19] = 1;
    let sum = super::file::fnv1a(&bytes[..n - 8]);
    bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
    assert!(matches!(
        Book::from_bytes(&bytes),
        Err(BookFileError::Invalid { index: 0, .. })
    ));
}

#[test]
fn invalid_entries_are_refused() {
    let start = RelativePosition::start(8);
    let mut book = Book::new();
    let bad = |square: u8| Entry {
        unsearched: Some(BookMove {
            square: Square(square),
            value: Eval(0),
        }),
        ..Entry::default()
    };
    // a1 is not a legal move at the start; d3 (19) is.
    assert!(book.insert(&start, bad(0)).is_err());
    assert!(book.insert(&start, bad(19)).is_ok());
    let twice = Entry {
        searched: vec![BookMove {
            square: Square(19),
            value: Eval(0),
        }],
        ..bad(19)
    };
    assert!(book.insert(&start, twice).is_err());
    let text = "---------------------------OX------XO--------------------------- level 1 counts 0 0 0 moves a1:+1 unsearched none";
    let e = Book::from_text([text]).expect_err("a1 is not legal");
    assert_eq!(e.line, 1);
    assert!(Book::from_text(["XO level 1"]).is_err());
}

#[test]
fn values_are_written_exactly() {
    for v in [-4096, -65, -1, 0, 1, 32, 64, 100, 4096] {
        let text = text_value(Eval(v));
        assert_eq!(
            Book::from_text([format!(
                "---------------------------OX------XO--------------------------- level 1 counts 0 0 0 moves unsearched d3:{text}"
            )
            .as_str()])
            .expect("reads")
            .lookup(&RelativePosition::start(8))
            .expect("held")
            .value(),
            Some(Eval(v)),
            "{text}"
        );
    }
}

/// A value as the text form writes it, read from a one-position book.
fn text_value(v: Eval) -> String {
    let mut book = Book::new();
    book.insert(
        &RelativePosition::start(8),
        Entry {
            unsearched: Some(BookMove {
                square: Square(19),
                value: v,
            }),
            ..Entry::default()
        },
    )
    .expect("valid");
    let text = book.to_text();
    let line = text.lines().nth(1).expect("a position");
    line.rsplit_once(':').expect("a value").1.to_owned()
}

#[test]
fn lookups_take_well_under_ten_microseconds() {
    let (book, levels) = tree_book(4, 11);
    let all: Vec<RelativePosition> = levels.iter().flatten().copied().collect();
    let start = std::time::Instant::now();
    let mut found = 0;
    for _ in 0..20 {
        for p in &all {
            found += usize::from(book.lookup(p).is_some());
        }
    }
    let each = start.elapsed().as_secs_f64() / (20 * all.len()) as f64;
    assert!(found > 0);
    // A generous bound even in a debug build on a loaded machine.
    assert!(each < 100e-6, "{each} s a lookup");
}

#[test]
fn the_file_takes_the_bytes_docs_book_states() {
    // docs/BOOK.md: "N bytes a position and M a searched move".
    let doc = include_str!("../../../docs/BOOK.md").replace('\n', " ");
    let (before, _) = doc
        .split_once(" a searched move")
        .expect("BOOK.md states the bytes of a searched move");
    let words: Vec<&str> = before.split_whitespace().rev().take(6).collect();
    // words: [M, and, position, a, bytes, N] (reversed).
    assert_eq!(words[1..5], ["and", "position", "a", "bytes"], "{words:?}");
    let (per_position, per_move): (usize, usize) =
        (words[5].parse().expect("N"), words[0].parse().expect("M"));
    let empty = Book::new().to_bytes().len();
    let start = RelativePosition::start(8);
    let size_with = |searched: Vec<BookMove>| {
        let mut book = Book::new();
        let entry = Entry {
            searched,
            ..Entry::default()
        };
        book.insert(&start, entry).expect("valid");
        book.to_bytes().len() - empty
    };
    assert_eq!(size_with(Vec::new()), per_position);
    let moves: Vec<BookMove> = squares(start.moves())
        .into_iter()
        .map(|sq| BookMove {
            square: Square(sq),
            value: Eval(0),
        })
        .collect();
    let n = moves.len();
    assert_eq!(size_with(moves), per_position + n * per_move);
}
