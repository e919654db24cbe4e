//! The Edax book reader against a book Edax made and what Edax itself
//! printed about it (tests/data/edax-small-book.md tells how they were
//! made).

use super::*;
use crate::game::Game;
use crate::record::parse_transcript;
use crate::reversi::Reversi;
use crate::rng::Rng;

/// The book Edax saved.
const BOOK: &[u8] = include_bytes!("../../../tests/data/edax-small-book.dat");
/// Edax's `book export` of it: one line per position, in file order.
const EXPORT: &str = include_str!("../../../tests/data/edax-small-book-export.txt");
/// The commands given to Edax for `book show` (`init`, `play MOVES`,
/// `book show`).
const SHOW_COMMANDS: &str = include_str!("../../../tests/data/edax-small-book-show.cmd");
/// What Edax printed for them.
const SHOW_OUTPUT: &str = include_str!("../../../tests/data/edax-small-book-show.txt");

fn book() -> EdaxBook {
    from_bytes(BOOK).expect("Edax's book reads")
}

/// A square as Edax writes it: upper case for black, lower for white.
fn edax_name(mv: Move, upper: bool) -> String {
    let s = match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "pa".to_owned(),
    };
    if upper {
        s.to_uppercase()
    } else {
        s
    }
}

#[test]
fn reading_then_writing_gives_the_same_bytes() {
    let book = book();
    assert_eq!(to_bytes(&book), BOOK);
}

#[test]
fn the_header_holds_what_the_building_commands_set() {
    // tests/data/edax-small-book.md: `book new 6 5`, then `book depth 60`
    // (fewest empties 61 - 60); Edax's defaults 2 and 1 for the errors.
    let h = book().header;
    assert_eq!((h.version, h.release), (4, 6));
    assert_eq!(
        h.options,
        EdaxOptions {
            level: 6,
            min_empties: 1,
            midgame_error: 2,
            endcut_error: 1,
            verbosity: 0
        }
    );
    assert_eq!((h.date.year, h.date.month, h.date.day), (2026, 11, 24));
}

#[test]
fn every_position_reads_as_edax_exported_it() {
    let book = book();
    let lines: Vec<&str> = EXPORT.lines().collect();
    // Edax exports the positions in the order it saves them.
    assert_eq!(lines.len(), book.positions.len());
    assert_eq!(book.positions.len(), 725);
    for (line, p) in lines.iter().zip(&book.positions) {
        let (board, rest) = line.split_once(' ').expect("board, then fields");
        let squares: Vec<char> = board.chars().collect();
        assert_eq!(squares.len(), 64, "{line}");
        for (i, c) in squares.iter().enumerate() {
            let bit = Square(i as u8).bit();
            let expected = match (p.player & bit != 0, p.opponent & bit != 0) {
                (true, false) => 'X',
                (false, true) => 'O',
                (false, false) => '-',
                (true, true) => unreachable!("from_bytes refuses overlaps"),
            };
            assert_eq!(*c, expected, "square {} of {line}", Square(i as u8));
        }
        let fields: Vec<&str> = rest.split(',').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[0], "X", "the player is exported as X: {line}");
        assert_eq!(fields[1], p.level.to_string(), "{line}");
        let leaf = p
            .leaf
            .mv()
            .map_or("--".to_owned(), |mv| edax_name(mv, true));
        assert_eq!(fields[2], leaf, "{line}");
        assert_eq!(fields[3], p.leaf.score.to_string(), "{line}");
    }
}

/// One `book show` as Edax printed it.
#[derive(Debug)]
struct Shown {
    player: u64,
    opponent: u64,
    black_to_move: bool,
    level: u8,
    value: (i16, i16, i16),
    /// (move as printed, score, is the leaf)
    moves: Vec<(String, i32, bool)>,
    /// "Lines: N full games with a% win, b% draw, c% loss", if printed.
    games: Option<(u64, String, String, String)>,
    incomplete: u64,
}

fn signed(s: &str) -> i32 {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("a number: {s:?}"))
}

/// Every `book show` block of Edax's output, in order.
fn parse_shows(text: &str) -> Vec<Shown> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] != "  A B C D E F G H"
            || !lines.get(i + 11).is_some_and(|l| l.starts_with("Level: "))
        {
            i += 1;
            continue;
        }
        let to_move = lines[i + 2]
            .split(" to move")
            .next()
            .and_then(|s| s.chars().last())
            .expect("the side to move on the board's second row");
        let (mut player, mut opponent) = (0u64, 0u64);
        for row in 0..8 {
            let cells: Vec<&str> = lines[i + 1 + row]
                .split_whitespace()
                .skip(1)
                .take(8)
                .collect();
            for (col, cell) in cells.iter().enumerate() {
                let bit = Square::new(row as u8, col as u8).bit();
                match *cell {
                    "-" | "." => {}
                    c if c.starts_with(to_move) => player |= bit,
                    "*" | "O" => opponent |= bit,
                    c => panic!("cell {c:?}"),
                }
            }
        }
        let level = lines[i + 11]["Level: ".len()..].parse().expect("level");
        let best = lines[i + 12]
            .strip_prefix("Best score: ")
            .expect("best score");
        let (v, bounds) = best.split_once(" [").expect("bounds");
        let (lo, up) = bounds
            .trim_end_matches(']')
            .split_once(", ")
            .expect("two bounds");
        let value = (signed(v) as i16, signed(lo) as i16, signed(up) as i16);
        let moves = lines[i + 13]
            .strip_prefix("Moves:")
            .expect("moves")
            .split_whitespace()
            .map(|t| {
                let leaf = t.starts_with('<');
                let (m, s) = t[1..t.len() - 1].split_once(':').expect("move:score");
                (m.to_owned(), signed(s), leaf)
            })
            .collect();
        let mut j = i + 14;
        let games = lines[j].strip_prefix("Lines: ").map(|l| {
            j += 1;
            let words: Vec<&str> = l.split_whitespace().collect();
            // N full games with a% win, b% draw, c% loss
            let pct = |w: &str| w.trim_end_matches(',').trim_end_matches('%').to_owned();
            (
                words[0].parse().expect("games"),
                pct(words[4]),
                pct(words[6]),
                pct(words[8]),
            )
        });
        let incomplete = lines[j]
            .trim()
            .strip_suffix(" incomplete lines.")
            .expect("incomplete lines")
            .parse()
            .expect("count");
        out.push(Shown {
            player,
            opponent,
            black_to_move: to_move == '*',
            level,
            value,
            moves,
            games,
            incomplete,
        });
        i = j + 1;
    }
    out
}

/// The position of each `book show` of the commands, replayed here.
fn shown_positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut current = Position::start(8);
    for line in SHOW_COMMANDS.lines() {
        match line.split_once(' ') {
            _ if line == "init" => current = Position::start(8),
            _ if line == "book show" => out.push(current),
            Some(("play", moves)) => {
                current = parse_transcript(moves, current)
                    .expect("a legal line")
                    .last();
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_book_show_of_edax_is_what_the_book_reads() {
    let book = book();
    let index = book.index();
    let shows = parse_shows(SHOW_OUTPUT);
    let positions = shown_positions();
    assert_eq!(shows.len(), positions.len(), "one block per `book show`");
    assert_eq!(shows.len(), 42);
    let mut solved = 0;
    for (shown, p) in shows.iter().zip(&positions) {
        // The board Edax printed is the one the moves lead to here.
        assert_eq!(shown.player, p.board.discs(p.to_move), "{p:?}");
        assert_eq!(shown.opponent, p.board.discs(p.to_move.other()), "{p:?}");
        assert_eq!(shown.black_to_move, p.to_move == Color::Black);
        let hit = index.lookup(p).expect("a shown position is in the book");
        let e = hit.position;
        assert_eq!(e.level, shown.level);
        assert_eq!((e.value, e.lower, e.upper), shown.value, "{p:?}");
        let mut ours: Vec<(String, i32, bool)> = hit
            .moves
            .iter()
            .map(|m| {
                (
                    edax_name(m.mv, shown.black_to_move),
                    m.score,
                    m.kind == EdaxMoveKind::Leaf,
                )
            })
            .collect();
        let mut theirs = shown.moves.clone();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{p:?}");
        let legal = Reversi::DISC_DIFFERENCE.moves(p).collect::<Vec<_>>();
        assert!(hit.moves.iter().all(|m| legal.contains(&m.mv)), "{p:?}");
        let games = u64::from(e.wins) + u64::from(e.draws) + u64::from(e.losses);
        match &shown.games {
            Some((n, win, draw, loss)) => {
                let pct = |k: u32| format!("{:.2}", 100.0 * f64::from(k) / games as f64);
                assert_eq!(
                    (games, pct(e.wins), pct(e.draws), pct(e.losses)),
                    (*n, win.clone(), draw.clone(), loss.clone())
                );
            }
            None => assert_eq!(games, 0),
        }
        assert_eq!(u64::from(e.lines) - games, shown.incomplete);
        solved += usize::from(e.lower == e.upper && e.value != 0);
    }
    // Some shown values are real endgame scores, not the zero of the
    // zero-weight evaluation.
    assert!(solved >= 5, "{solved}");
}

#[test]
fn every_position_is_unique_legal_and_linked_as_edax_negamaxed_it() {
    let book = book();
    let index = book.index();
    assert_eq!(index.map.len(), book.positions.len(), "no board twice");
    for (i, e) in book.positions.iter().enumerate() {
        assert!(e.is_unique(), "position {i}");
        let board = Board::from_bits(e.player, e.opponent, 8).unwrap();
        let legal = board.moves(Color::Black);
        let check = |l: &EdaxLink| match l.mv() {
            Some(Move::Place(sq)) => assert_ne!(legal & sq.bit(), 0, "position {i}: {sq}"),
            Some(Move::Pass) => assert!(legal == 0 && board.moves(Color::White) != 0),
            None => {}
        };
        e.links.iter().for_each(check);
        check(&e.leaf);
        assert!(e.links.iter().all(|l| l.code != EDAX_NO_MOVE));
        for l in &e.links {
            let child = match l.mv().unwrap() {
                Move::Place(sq) => board.play(Color::Black, sq).unwrap(),
                Move::Pass => board,
            };
            let hit = index
                .lookup_discs(child.discs(Color::White), child.discs(Color::Black))
                .expect("a link leads into the book");
            assert_eq!(
                i32::from(l.score),
                -i32::from(hit.position.value),
                "position {i}"
            );
        }
        let best = e
            .links
            .iter()
            .chain([&e.leaf])
            .map(|l| l.score)
            .max()
            .unwrap();
        assert_eq!(i16::from(best), e.value, "position {i}");
    }
}

#[test]
fn edax_square_numbers_are_ours() {
    // Edax numbers A1, B1, ..., H1, A2, ..., H8 from 0, then PASS, NOMOVE.
    for (code, name) in [
        (0, "a1"),
        (7, "h1"),
        (8, "a2"),
        (37, "f5"),
        (56, "a8"),
        (63, "h8"),
    ] {
        let mv: Move = name.parse().unwrap();
        assert_eq!(EdaxLink::new(mv, 0).code, code);
        assert_eq!(EdaxLink { score: 0, code }.mv(), Some(mv));
    }
    assert_eq!(EdaxLink::new(Move::Pass, 3).code, 64);
    assert_eq!(EdaxLink { score: 3, code: 64 }.mv(), Some(Move::Pass));
    assert_eq!(EdaxLink::NONE.mv(), None);
    assert_eq!(EdaxLink { score: 0, code: 66 }.mv(), None);
}

#[test]
fn the_symmetries_match_edax_square_formula() {
    // Edax turns a square x by x ^ 7 (columns), x ^ 56 (rows), then
    // swapping its row and column, for bits 0, 1, 2 of the symmetry.
    for sym in 0..8u8 {
        for x in 0..64u8 {
            let mut y = x;
            if sym & 1 != 0 {
                y ^= 7;
            }
            if sym & 2 != 0 {
                y ^= 56;
            }
            if sym & 4 != 0 {
                y = (y >> 3) | ((y & 7) << 3);
            }
            assert_eq!(
                map_move(Move::Place(Square(x)), sym, false),
                Move::Place(Square(y))
            );
            assert_eq!(
                map_move(Move::Place(Square(y)), sym, true),
                Move::Place(Square(x))
            );
        }
    }
    let mut rng = Rng::new(24);
    for _ in 0..200 {
        let x = rng.next_u64();
        for sym in 0..8 {
            assert_eq!(symmetric_inverse(symmetric(x, sym), sym), x);
            assert_eq!(symmetric(x, sym).count_ones(), x.count_ones());
        }
    }
}

/// The position seen under symmetry `sym`, its moves turned with it.
fn turned(e: &EdaxPosition, sym: u8) -> EdaxPosition {
    let turn = |l: &EdaxLink| match l.mv() {
        Some(mv) => EdaxLink::new(map_move(mv, sym, false), l.score),
        None => *l,
    };
    EdaxPosition {
        player: symmetric(e.player, sym),
        opponent: symmetric(e.opponent, sym),
        links: e.links.iter().map(turn).collect(),
        leaf: turn(&e.leaf),
        ..e.clone()
    }
}

#[test]
fn any_symmetric_image_turns_back_to_the_stored_position() {
    let book = book();
    let index = book.index();
    let mut checked = 0;
    for e in &book.positions {
        let self_symmetric = (1..8)
            .any(|s| symmetric(e.player, s) == e.player && symmetric(e.opponent, s) == e.opponent);
        for sym in 0..8 {
            let image = turned(e, sym);
            // A lookup of the image finds the position, its moves turned.
            let hit = index.lookup_discs(image.player, image.opponent).unwrap();
            assert_eq!(hit.position, e);
            if !self_symmetric {
                assert_eq!(hit.moves, image.moves());
                assert_eq!(&image.clone().into_unique(), e);
                checked += 1;
            }
        }
    }
    assert!(checked > 8 * 700, "{checked}");
}

#[test]
fn the_position_colours_follow_edax_parity() {
    let book = book();
    let start = book.index().lookup(&Position::start(8)).unwrap().position;
    assert_eq!(start.empties(), 60);
    assert_eq!(start.to_move_by_parity(), Color::Black);
    let p = start.position_by_parity().unwrap();
    assert_eq!(p.board.discs(Color::Black), start.player);
    assert_eq!(p.board, Board::start(8));
    let odd = book
        .positions
        .iter()
        .find(|e| e.empties() % 2 == 1)
        .unwrap();
    let p = odd.position_by_parity().unwrap();
    assert_eq!(
        (p.to_move, p.board.discs(Color::White)),
        (Color::White, odd.player)
    );
}

#[test]
fn a_book_in_another_order_reads_back_as_written() {
    // Edax reads positions in any order; tests/data/edax-small-book.md
    // records Edax showing this reversed book as it shows the original.
    let mut book = book();
    book.positions.reverse();
    let bytes = to_bytes(&book);
    assert_eq!(bytes.len(), BOOK.len());
    assert_eq!(from_bytes(&bytes), Ok(book.clone()));
    if let Some(path) = std::env::var_os("REVERSI_EDAX_REVERSED_BOOK") {
        std::fs::write(path, &bytes).expect("write the reversed book");
    }
}

#[test]
fn foreign_and_damaged_files_are_refused() {
    assert_eq!(from_bytes(b""), Err(EdaxBookError::Empty));
    assert_eq!(
        from_bytes(b"(;GM[Othello]PB[a];)"),
        Err(EdaxBookError::NotEdaxBook)
    );
    assert_eq!(
        from_bytes(b"XADE"),
        Err(EdaxBookError::TruncatedHeader { len: 4 })
    );
    assert_eq!(
        from_bytes(b"XADEKOOB\x04"),
        Err(EdaxBookError::TruncatedHeader { len: 9 })
    );
    // The book shifted by one byte.
    assert_eq!(from_bytes(&BOOK[1..]), Err(EdaxBookError::NotEdaxBook));
    let mut v = BOOK.to_vec();
    v[8] = 3;
    assert_eq!(
        from_bytes(&v),
        Err(EdaxBookError::UnsupportedVersion {
            version: 3,
            release: 6
        })
    );
    let mut v = BOOK.to_vec();
    v[38..42].copy_from_slice(&(-1i32).to_le_bytes());
    assert_eq!(from_bytes(&v), Err(EdaxBookError::BadPositionCount(-1)));
    let mut v = BOOK.to_vec();
    v[38..42].copy_from_slice(&726i32.to_le_bytes());
    assert_eq!(
        from_bytes(&v),
        Err(EdaxBookError::Truncated {
            position: 726,
            expected: 726
        })
    );
    let mut v = BOOK.to_vec();
    v[38..42].copy_from_slice(&724i32.to_le_bytes());
    let last = book().positions[724].links.len() * 2 + 42;
    assert_eq!(
        from_bytes(&v),
        Err(EdaxBookError::TrailingData {
            positions: 724,
            bytes: last
        })
    );
    let mut v = BOOK.to_vec();
    v.push(0);
    assert_eq!(
        from_bytes(&v),
        Err(EdaxBookError::TrailingData {
            positions: 725,
            bytes: 1
        })
    );
    // The first position: its player's discs on its opponent's too.
    let mut v = BOOK.to_vec();
    v[42..50].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(
        from_bytes(&v),
        Err(EdaxBookError::OverlappingDiscs { position: 1 })
    );
    // The first position's link count (byte 80) is not 0: its first link's
    // move byte is byte 83. "No move" is no link; 66 is nothing at all.
    assert_ne!(BOOK[80], 0);
    for code in [65, 66, 255] {
        let mut v = BOOK.to_vec();
        v[83] = code;
        assert_eq!(
            from_bytes(&v),
            Err(EdaxBookError::BadMove { position: 1, code })
        );
    }
    for e in [
        EdaxBookError::Empty,
        EdaxBookError::Truncated {
            position: 3,
            expected: 9,
        },
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn every_truncation_is_an_error_naming_the_cut_position() {
    let book = book();
    // Where each position ends.
    let mut ends = Vec::new();
    let mut at = HEADER_LEN;
    for p in &book.positions {
        at += POSITION_FIXED_LEN + LINK_LEN * (p.links.len() + 1);
        ends.push(at);
    }
    assert_eq!(at, BOOK.len());
    let cuts = (0..BOOK.len()).filter(|n| *n < 3000 || n % 7 == 0 || ends.contains(n));
    for n in cuts {
        let got = from_bytes(&BOOK[..n]);
        let expected = match n {
            0 => EdaxBookError::Empty,
            n if n < HEADER_LEN => EdaxBookError::TruncatedHeader { len: n },
            n => EdaxBookError::Truncated {
                position: ends.iter().take_while(|&&e| e <= n).count() + 1,
                expected: 725,
            },
        };
        assert_eq!(got, Err(expected), "cut at {n}");
    }
}

#[test]
fn damaged_bytes_never_panic() {
    let mut rng = Rng::new(7);
    for round in 0..400 {
        let mut v = BOOK.to_vec();
        for _ in 0..1 + round % 5 {
            let i = rng.below(v.len());
            v[i] = rng.next_u64() as u8;
        }
        if round % 3 == 0 {
            v.truncate(rng.below(v.len()));
        }
        if let Ok(b) = from_bytes(&v) {
            // What reads writes back the same.
            assert_eq!(to_bytes(&b), v);
            let index = b.index();
            for e in b.positions.iter().take(50) {
                let _ = e.position_by_parity().unwrap();
                let _ = index.lookup_discs(e.player, e.opponent).unwrap();
            }
        }
    }
}

#[test]
fn solved_edax_values_are_this_crates_exact_scores() {
    // Where Edax's bounds meet near the end (its level 6 solves 12 empties
    // or fewer), the value is the exact final disc difference for the
    // player to move, empty squares to the winner: what this crate's
    // endgame solver finds.
    use crate::engine::{EndgameSolver, RelativePosition, Scoring};
    let book = book();
    let mut solver = EndgameSolver::new(Scoring::Standard);
    let mut solved = 0;
    for e in &book.positions {
        if e.empties() <= 12 && e.lower == e.upper {
            let pos = RelativePosition {
                player: e.player,
                opponent: e.opponent,
                valid: u64::MAX,
            };
            assert_eq!(solver.solve(&pos).score.0, i32::from(e.value), "{e:?}");
            solved += 1;
        }
    }
    assert!(solved >= 50, "{solved}");
}
