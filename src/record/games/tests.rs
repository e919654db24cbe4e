use super::build::{moves_of, write_in_passes};
use super::file::GameEntry;
use super::*;
use crate::record::archive::{parse_gam, parse_pgn, parse_wtb, ArchiveGame};
use crate::record::parse_game;
use std::collections::BTreeMap;

const WTB: &[u8] = include_bytes!("../../../tests/data/wthor/WTH_1984-sample.wtb");
const PGN: &str = include_str!("../../../tests/data/wthor/wthor-sample.pgn");
const GAM: &str = include_str!("../../../tests/data/wthor/logbook-sample.gam");

/// The three samples as collections, in the order indexed.
fn collections() -> Vec<(&'static str, Vec<ArchiveGame>)> {
    vec![
        ("WTH_1984-sample.wtb", parse_wtb(WTB).expect("wtb").games),
        ("wthor-sample.pgn", parse_pgn(PGN).expect("pgn")),
        ("logbook-sample.gam", parse_gam(GAM).expect("gam")),
    ]
}

fn builder() -> IndexBuilder {
    let mut b = IndexBuilder::new();
    for (name, games) in collections() {
        b.start_file(name);
        for (n, g) in games.iter().enumerate() {
            b.add(g, n as u32 + 1);
        }
    }
    b
}

fn bytes_of(b: &IndexBuilder, max: u64) -> Vec<u8> {
    let mut out = Vec::new();
    write_in_passes(b, &mut out, max, &mut |_, _| {}).expect("written");
    out
}

fn index() -> GamesIndex {
    GamesIndex::from_bytes(bytes_of(&builder(), MAX_POSTINGS_IN_MEMORY)).expect("an index")
}

/// The reference: every sample game (duplicates under symmetry dropped
/// by comparing their position sequences) replayed, position by
/// position.
fn reference_games() -> Vec<ArchiveGame> {
    let mut kept: Vec<ArchiveGame> = Vec::new();
    let mut seen: Vec<Vec<(u64, u64)>> = Vec::new();
    for (_, games) in collections() {
        for g in games {
            // A game's images from the start: all its positions turned by
            // one symmetry of the start.
            let ps = g.record.positions();
            let images: Vec<Vec<(u64, u64)>> = (0..8)
                .map(|s| {
                    ps.iter()
                        .map(|p| {
                            let q = image(p, s);
                            (q.board.discs(Color::Black), q.board.discs(Color::White))
                        })
                        .collect()
                })
                .collect();
            if images.iter().any(|i| seen.contains(i)) {
                continue;
            }
            seen.push(images[0].clone());
            kept.push(g);
        }
    }
    kept
}

/// The brute-force answer for `q`: outcomes, and the next moves as
/// classes under `q`'s own symmetries (each the set of its images).
fn brute_force(q: &Position) -> (Outcomes, BTreeMap<Vec<u8>, u64>) {
    let autos = symmetries_between(q, q);
    let mut total = Outcomes::default();
    let mut next = BTreeMap::new();
    for g in reference_games() {
        let ps = g.record.positions();
        let score = g.record.final_score().or(g.stated_score);
        for (i, p) in ps.iter().enumerate() {
            let Some(&s) = symmetries_between(p, q).first() else {
                continue;
            };
            total.add(score);
            if let Some(m) = g.record.moves.get(i) {
                let mv = move_image(m.mv, s);
                let mut class: Vec<u8> = autos
                    .iter()
                    .map(|&a| match move_image(mv, a) {
                        Move::Place(sq) => sq.0,
                        Move::Pass => 64,
                    })
                    .collect();
                class.sort_unstable();
                class.dedup();
                *next.entry(class).or_default() += 1;
            }
            break;
        }
    }
    (total, next)
}

fn classes(q: &Position, moves: &[NextMove]) -> BTreeMap<Vec<u8>, u64> {
    let autos = symmetries_between(q, q);
    moves
        .iter()
        .map(|m| {
            let mut class: Vec<u8> = autos
                .iter()
                .map(|&a| match move_image(m.mv, a) {
                    Move::Place(sq) => sq.0,
                    Move::Pass => 64,
                })
                .collect();
            class.sort_unstable();
            class.dedup();
            (class, m.outcomes.games)
        })
        .collect()
}

#[test]
fn the_samples_index_each_game_once() {
    let b = builder();
    // The four PGN games of 1984 are four of the .wtb's nine.
    // 9 + 8 + 10 games read.
    assert_eq!((b.games(), b.duplicates()), (23, 4));
    assert_eq!(reference_games().len(), 23);
    let index = index();
    assert_eq!(index.games(), 23);
    assert_eq!(
        index.files(),
        [
            "WTH_1984-sample.wtb",
            "wthor-sample.pgn",
            "logbook-sample.gam"
        ]
    );
}

#[test]
fn every_position_of_every_game_is_answered_as_a_replay_answers_it() {
    let index = index();
    let mut as_images = 0;
    for g in reference_games() {
        for (s, p) in g.record.positions().iter().enumerate() {
            // Asked in another orientation each time.
            let q = image(p, s % 8);
            let found = index.query(&q, 100);
            let (total, next) = brute_force(&q);
            assert_eq!(
                found.total,
                total,
                "{}",
                crate::record::write_board_string(&q)
            );
            assert_eq!(classes(&q, &found.moves), next);
            assert_eq!(found.games.len() as u64, total.games);
            for listed in &found.games {
                let at = positions(&listed.moves)
                    .nth(listed.at)
                    .expect("the position");
                if listed.as_asked {
                    assert_eq!(at, q, "a listed game reaches the position as asked");
                    // Its next move is one the table shows as played.
                    if let Some(next) = listed.moves.get(listed.at) {
                        assert!(found.moves.iter().any(|m| m.mv == *next));
                    }
                } else {
                    assert!(!symmetries_between(&at, &q).is_empty(), "an image of it");
                    as_images += 1;
                }
            }
        }
    }
    // Asked in all eight orientations, half of them turn the start.
    assert!(as_images > 0);
}

#[test]
fn the_start_shows_f5_with_every_game() {
    let index = index();
    let found = index.query(&Position::start(8), 3);
    assert_eq!(found.total.games, 23);
    assert_eq!(found.moves.len(), 1);
    // WTHOR's nine and four... the f5 games outnumber Logistello's d3.
    assert_eq!(found.moves[0].mv.to_string(), "f5");
    assert_eq!(found.games.len(), 3);
    // The latest first: 2023's games.
    assert_eq!(found.games[0].year, Some(2023));
    let known = found.total.black_wins + found.total.draws + found.total.white_wins;
    assert_eq!(known + found.total.unknown, 23);
    // A position no game reaches.
    let nowhere = parse_game("f5f4", 8).expect("legal").last();
    assert_eq!(index.query(&nowhere, 10), PositionGames::default());
    // Another board size.
    assert_eq!(
        index.query(&Position::start(6), 10),
        PositionGames::default()
    );
}

#[test]
fn the_pgn_games_keep_their_players_and_tournament() {
    let index = index();
    let pgn = parse_pgn(PGN).expect("pgn");
    let last = pgn.last().expect("a game");
    let p = last.record.last();
    let found = index.query(&p, 10);
    let g = found
        .games
        .iter()
        .find(|g| g.file == "wthor-sample.pgn" && g.game_in_file == pgn.len() as u32)
        .expect("the game itself");
    assert_eq!(g.black, last.record.info.black);
    assert_eq!(g.white, last.record.info.white);
    assert_eq!(g.tournament, last.record.info.place);
    assert_eq!(g.moves, last.record.move_list());
    assert_eq!(g.at, last.record.moves.len());
}

#[test]
fn passes_over_hash_ranges_write_the_same_file() {
    let b = builder();
    let one = bytes_of(&b, MAX_POSTINGS_IN_MEMORY);
    let mut passes = 0;
    let mut many = Vec::new();
    write_in_passes(&b, &mut many, 100, &mut |_, n| passes = n).expect("written");
    assert!(passes > 5, "{passes}");
    assert!(one == many, "the same bytes");
}

#[test]
fn a_damaged_index_is_refused() {
    let bytes = bytes_of(&builder(), MAX_POSTINGS_IN_MEMORY);
    assert!(GamesIndex::from_bytes(bytes.clone()).is_ok());
    let mut flipped = bytes.clone();
    let n = flipped.len();
    flipped[n / 2] ^= 1;
    assert_eq!(
        GamesIndex::from_bytes(flipped).err(),
        Some(IndexError::Checksum)
    );
    assert_eq!(
        GamesIndex::from_bytes(bytes[..n - 1].to_vec()).err(),
        Some(IndexError::Checksum)
    );
    assert_eq!(
        GamesIndex::from_bytes(b"[Event \"x\"]".to_vec()).err(),
        Some(IndexError::NotAnIndex)
    );
    let mut other = bytes;
    other[14] = 9;
    assert_eq!(
        GamesIndex::from_bytes(other).err(),
        Some(IndexError::Version(9))
    );
}

#[test]
fn entries_read_back_as_written() {
    for (name, games) in collections() {
        for (n, g) in games.iter().enumerate() {
            let squares: Vec<u8> = g
                .record
                .move_list()
                .iter()
                .filter_map(|m| match m {
                    Move::Place(sq) => Some(sq.0),
                    Move::Pass => None,
                })
                .collect();
            let e = GameEntry {
                black: 7,
                white: u32::MAX,
                tournament: 3,
                year: Some(1984),
                score: g.stated_score,
                file: 2,
                game_in_file: n as u32 + 1,
                squares,
            };
            let mut bytes = Vec::new();
            e.encode(&mut bytes);
            bytes.push(0xff);
            let (back, len) = GameEntry::decode(&bytes).expect(name);
            assert_eq!((&back, len), (&e, bytes.len() - 1));
            assert_eq!(moves_of(&back.squares), g.record.move_list(), "{name} {n}");
        }
    }
}
