//! `reversi games index` and `reversi games` over the samples of WTHOR
//! (binary with its name files, PGN) and of Logistello's games: the
//! answers checked against the collections replayed by the library's
//! readers, position by position.

use crate::harness::{data, expect_success, expect_usage_error, reversi, scratch_in};
use reversi::record::archive::{parse_gam, parse_pgn, parse_wtb, ArchiveGame};
use reversi::record::parse_game;
use std::fs;
use std::path::{Path, PathBuf};

const SAMPLES: [&str; 5] = [
    "wthor/WTHOR-sample.JOU",
    "wthor/WTHOR-sample.TRN",
    "wthor/WTH_1984-sample.wtb",
    "wthor/wthor-sample.pgn",
    "wthor/logbook-sample.gam",
];

/// The samples indexed into `dir/games.idx`.
fn index_in(dir: &Path) -> PathBuf {
    let out = dir.join("games.idx");
    let mut cmd = reversi();
    cmd.args(["games", "index", "--quiet", "--out"]).arg(&out);
    for s in SAMPLES {
        cmd.arg(data(s));
    }
    let run = cmd.output().expect("run");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    // 9 + 8 + 10 games, the PGN's four of 1984 being the .wtb's.
    assert!(
        stdout.contains(": 23 games (4 duplicates left out)"),
        "{stdout}"
    );
    out
}

/// Every sample game once, as the library's readers give them: the
/// PGN's first four are four of the .wtb's 1984 games
/// (tests/data/wthor/README.md).
fn sample_games() -> Vec<ArchiveGame> {
    let mut games = parse_wtb(&fs::read(data(SAMPLES[2])).expect("wtb"))
        .expect("wtb")
        .games;
    let pgn = parse_pgn(&fs::read_to_string(data(SAMPLES[3])).expect("pgn")).expect("pgn");
    games.extend(pgn.into_iter().skip(4));
    games.extend(parse_gam(&fs::read_to_string(data(SAMPLES[4])).expect("gam")).expect("gam"));
    games
}

/// The JSON answer of `reversi games POSITION` on `index`.
fn ask(index: &Path, position: &str, listed: usize) -> serde_json::Value {
    let out = expect_success(
        reversi()
            .args(["games", "--json", "--games", &listed.to_string(), "--index"])
            .arg(index)
            .arg(position),
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn transcript(moves: &[reversi::reversi::Move]) -> String {
    moves.iter().map(ToString::to_string).collect()
}

#[test]
fn a_position_counts_the_games_through_it_and_lists_them() {
    let dir = scratch_in("games", "counts");
    let index = index_in(&dir);
    // The start: every game once (the PGN's four of 1984 are duplicates).
    let start = ask(&index, "f5", 0);
    assert_eq!(start["games"], 23);
    // Logistello's first game, 30 moves in (its own d3 orientation): as
    // many games as the samples replayed reach it, by its position.
    let games = sample_games();
    assert_eq!(games.len(), 23);
    let logbook = &games[13];
    let prefix = logbook.record.until(30).expect("30 moves");
    let target = prefix.last();
    // Reached as played (the samples hold no image of it).
    let through = games
        .iter()
        .filter(|g| g.record.positions().contains(&target))
        .count();
    let answer = ask(&index, &transcript(&prefix.move_list()), 5);
    assert_eq!(answer["games"], through as u64);
    let listed = answer["listed"].as_array().expect("listed");
    let mine = listed
        .iter()
        .find(|g| {
            g["file"]
                .as_str()
                .is_some_and(|f| f.ends_with("logbook-sample.gam"))
                && g["game_in_file"] == 1
        })
        .expect("the game itself");
    let moves: Vec<&str> = mine["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("a move"))
        .collect();
    let expected: Vec<String> = logbook
        .record
        .move_list()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(moves, expected);
    assert_eq!(mine["at"], 30);
    assert_eq!(
        mine["score"],
        logbook.record.final_score().expect("finished")
    );
}

#[test]
fn wthor_games_are_named_by_the_name_files() {
    let dir = scratch_in("games", "names");
    let index = index_in(&dir);
    // The .wtb sample's game 5: Brusca Augusto (49) against Taniguchi
    // Ryoichi (56) in tournament 1, the World Championship (by the name
    // files' own bytes).
    let games = parse_wtb(&fs::read(data(SAMPLES[2])).expect("wtb")).expect("wtb");
    let game = &games.games[4];
    assert_eq!(games.numbers[4], [1, 49, 56]);
    let answer = ask(&index, &transcript(&game.record.move_list()), 5);
    let listed = &answer["listed"][0];
    assert_eq!(listed["black"], "Brusca Augusto");
    assert_eq!(listed["white"], "Taniguchi Ryoichi");
    assert_eq!(listed["tournament"], "World Championship");
    assert_eq!(listed["year"], 1984);
    // The text form says the same.
    let text = reversi()
        .args(["games", "--index"])
        .arg(&index)
        .arg(transcript(&game.record.move_list()))
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("1984  Brusca Augusto - Taniguchi Ryoichi"),
        "{text}"
    );
}

#[test]
fn the_moves_played_next_add_up_to_the_games() {
    let dir = scratch_in("games", "next");
    let index = index_in(&dir);
    let answer = ask(&index, "f5d6", 0);
    let moves = answer["moves"].as_array().expect("moves");
    let sum: u64 = moves
        .iter()
        .map(|m| m["games"].as_u64().expect("games"))
        .sum();
    assert_eq!(answer["games"].as_u64(), Some(sum));
    // Asked as an image (c4e3 is f5d6 turned half a turn), the same counts.
    let image = ask(&index, "c4e3", 0);
    assert_eq!(image["games"], answer["games"]);
    assert_eq!(image["black_wins"], answer["black_wins"]);
    // A position no sample game reaches: none.
    let f5f4 = parse_game("f5f4", 8).expect("legal").last();
    assert!(!sample_games()
        .iter()
        .any(|g| g.record.positions().contains(&f5f4)));
    let none = ask(&index, "f5f4", 3);
    assert_eq!(none["games"], 0);
    assert_eq!(none["listed"], serde_json::json!([]));
}

#[test]
fn bad_indexes_and_collections_are_one_error_line() {
    let dir = scratch_in("games", "errors");
    let index = index_in(&dir);
    let other = dir.join("other.txt");
    fs::write(&other, "not an index\n").expect("write");
    expect_usage_error(
        reversi().args(["games", "--index"]).arg(&other).arg("f5"),
        "is not a games index",
    );
    expect_usage_error(
        reversi()
            .args(["games", "--index"])
            .arg(dir.join("missing.idx"))
            .arg("f5"),
        "missing.idx",
    );
    // A damaged index.
    let mut bytes = fs::read(&index).expect("read");
    let n = bytes.len();
    bytes[n / 2] ^= 4;
    let damaged = dir.join("damaged.idx");
    fs::write(&damaged, bytes).expect("write");
    expect_usage_error(
        reversi().args(["games", "--index"]).arg(&damaged).arg("f5"),
        "is corrupt",
    );
    // The index never replaces a file that is not an index...
    expect_usage_error(
        reversi()
            .args(["games", "index", "--quiet", "--out"])
            .arg(&other)
            .arg(data(SAMPLES[4])),
        "other.txt",
    );
    assert_eq!(fs::read_to_string(&other).expect("kept"), "not an index\n");
    // ...and a compressed collection says how to read it.
    let gz = dir.join("games.pgn.gz");
    fs::write(&gz, [0x1f, 0x8b, 8, 0, 0, 0]).expect("write");
    expect_usage_error(
        reversi()
            .args(["games", "index", "--quiet", "--out"])
            .arg(dir.join("new.idx"))
            .arg(&gz),
        "zcat",
    );
    assert!(!dir.join("new.idx").exists());
}
