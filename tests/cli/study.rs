//! The depth study's subcommands: match, table, tournament, ordering, tree
//! and play with options.

use crate::harness::reversi;

/// The raw text of a top-level field of a one-line JSON object.
fn field<'a>(json: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\":");
    let start = json
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {json}"))
        + key.len();
    let rest = &json[start..];
    let end = if rest.starts_with('[') {
        let mut depth = 0;
        rest.char_indices()
            .find(|&(_, c)| {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .unwrap()
            .0
            + 1
    } else {
        rest.find([',', '}']).unwrap()
    };
    &rest[..end]
}

/// The items of a flat JSON array, quotes removed.
fn items(array: &str) -> Vec<String> {
    let inner = array.trim_start_matches('[').trim_end_matches(']');
    if inner.is_empty() {
        return Vec::new();
    }
    inner
        .split(',')
        .map(|s| s.trim_matches('"').to_string())
        .collect()
}

fn numbers(array: &str) -> Vec<u64> {
    items(array).iter().map(|s| s.parse().unwrap()).collect()
}

fn stdout(args: &[&str]) -> String {
    let out = reversi().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn minimax_and_alphabeta_play_the_same_depth_8_game_on_4x4() {
    let mm = stdout(&["match", "--depth", "8", "--algorithm", "minimax", "--json"]);
    let ab = stdout(&[
        "match",
        "--depth",
        "8",
        "--algorithm",
        "alphabeta",
        "--json",
    ]);
    assert_eq!(field(&mm, "moves"), field(&ab, "moves"));
    assert_eq!(field(&mm, "values"), field(&ab, "values"));
    assert_eq!(field(&mm, "score"), field(&ab, "score"));
    let (n_mm, n_ab) = (numbers(field(&mm, "nodes")), numbers(field(&ab, "nodes")));
    assert_eq!(n_mm.len(), items(field(&mm, "moves")).len());
    for (i, (m, a)) in n_mm.iter().zip(&n_ab).enumerate() {
        assert!(a <= m, "move {}: alpha-beta {a} > minimax {m}", i + 1);
    }
    assert!(n_ab.iter().sum::<u64>() < n_mm.iter().sum::<u64>());
}

#[test]
fn match_json_has_the_promised_fields() {
    let j = stdout(&[
        "match",
        "--size",
        "6",
        "--depth",
        "2",
        "--opening",
        "c2 b4",
        "--json",
    ]);
    let moves = items(field(&j, "moves"));
    assert_eq!(&moves[..2], ["c2", "b4"]);
    let searched = moves.len() - 2;
    for key in ["nodes", "millis", "depths", "values"] {
        assert_eq!(items(field(&j, key)).len(), searched, "{key}");
    }
    assert!(numbers(field(&j, "depths")).iter().all(|&d| d == 2));
    let score: i32 = field(&j, "score").parse().unwrap();
    assert!(score.abs() <= 36);
    assert_eq!(j.lines().count(), 1);
}

#[test]
fn per_side_settings_and_passes() {
    // 4x4 games often contain passes; the move list names them.
    let j = stdout(&[
        "match",
        "--black-depth",
        "1",
        "--white-depth",
        "3",
        "--white-eval",
        "weights",
        "--json",
    ]);
    let moves = items(field(&j, "moves"));
    assert!(moves.iter().all(|m| m == "pass" || m.len() == 2));
    let depths = numbers(field(&j, "depths"));
    assert!(depths.iter().step_by(2).all(|&d| d == 1));
    assert!(depths.iter().skip(1).step_by(2).all(|&d| d == 3));
}

#[test]
fn ordering_plays_the_same_game_with_fewer_nodes() {
    for size in ["4", "6", "8"] {
        let natural = stdout(&["match", "--size", size, "--depth", "4", "--json"]);
        let best = stdout(&[
            "match", "--size", size, "--depth", "4", "--order", "best", "--json",
        ]);
        assert_eq!(
            field(&natural, "moves"),
            field(&best, "moves"),
            "size {size}"
        );
        assert_eq!(
            field(&natural, "values"),
            field(&best, "values"),
            "size {size}"
        );
        let total = |j: &str| numbers(field(j, "nodes")).iter().sum::<u64>();
        assert!(total(&best) <= total(&natural), "size {size}");
    }
    // `ordering` itself asserts that every value is unchanged.
    let o = stdout(&["ordering", "--size", "6", "--depth", "4", "--json"]);
    assert_eq!(
        items(field(&o, "natural")).len(),
        items(field(&o, "ordered")).len()
    );
}

#[test]
fn anytime_search_returns_a_finished_iteration() {
    let j = stdout(&[
        "match",
        "--size",
        "8",
        "--time",
        "0.02",
        "--opening",
        "d3 c3 c4",
        "--json",
    ]);
    assert!(numbers(field(&j, "depths")).iter().all(|&d| d >= 1));
    let moves = items(field(&j, "moves"));
    assert!(moves.len() > 40);
}

#[test]
fn tree_has_one_n_node_per_counted_state() {
    let boards = [
        ("300", "1", "1210021202100222"),
        ("500", "1", "1210021202100222"),
        ("300", "2", "0111111022100201"),
        ("500", "2", "0111111022100201"),
        ("500", "1", "0000021001200000"),
    ];
    for (flag, player, board) in boards {
        let count = stdout(&[flag, player, board]);
        let nodes: usize = count.lines().nth(1).unwrap().parse().unwrap();
        let dot = stdout(&["tree", flag, player, board]);
        assert!(dot.starts_with("digraph"));
        let n = dot
            .lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with('n') && l.as_bytes()[1].is_ascii_digit() && !l.contains("->"))
            .count();
        assert_eq!(n, nodes, "{flag} {player} {board}");
        let pruned = dot
            .lines()
            .filter(|l| l.trim_start().starts_with('p'))
            .count();
        if flag == "300" {
            assert_eq!(pruned, 0);
        }
        assert!(dot.contains("color=red"));
    }
}

#[test]
fn tree_with_a_depth_on_8x8() {
    let board = format!("{}{}{}", "0".repeat(27), "21000000120", "0".repeat(26));
    let dot = stdout(&[
        "tree", "500", "1", &board, "--depth", "3", "--eval", "strong",
    ]);
    assert!(dot.contains("p0"), "alpha-beta prunes something at depth 3");
    assert!(dot.contains("label=\"d3\"") || dot.contains("label=\"c4\""));
}

#[test]
fn long_runs_report_progress_on_stderr_only() {
    let out = reversi()
        .args(["table", "--depths", "2,3", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stdout.lines().count(), 1);
    assert!(!stdout.contains("table:"));
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.starts_with("table: game"))
            .count(),
        4
    );
    assert_eq!(field(&stdout, "scores").matches(',').count(), 3);

    let out = reversi()
        .args(["tournament", "--size", "4", "--depth", "2", "--plies", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("wins"));
    assert!(!stdout.contains("tournament:"));
    // Its first line comes before any game (a slow level's first 10
    // openings took 25 s without a word): how many games it will play,
    // as its last line counts them.
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    let (first, last) = (lines[0], lines[lines.len() - 1]);
    let total = last
        .split_once('/')
        .and_then(|(_, rest)| rest.split_once(' '))
        .map(|(n, _)| n)
        .expect("a progress line");
    assert_eq!(
        first,
        format!(
            "tournament: {total} games ({} openings of 2 plies, each with both colours)",
            total.parse::<u32>().unwrap() / 2
        )
    );
}

#[test]
fn play_with_options() {
    let out = reversi()
        .args(["play", "--size", "4", "--human", "black", "--depth", "2"])
        .write_stdin("1\nb1\nquit\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("    a b c d"));
    assert!(text.contains("legal: b1 a2 d3 c4"));
    assert!(
        text.contains("\"a1\" is not a legal move"),
        "square 1 is a1: {text}"
    );
    assert!(text.contains("Computer (white) plays"));
    assert!(text.contains("nodes"));

    let out = reversi()
        .args(["play", "--size", "6", "--human", "none", "--depth", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("Game over."));
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["match", "--size", "5"][..],
        &["match", "--depth", "0"],
        &["match", "--algorithm", "best"],
        &["table", "--depths", "4,x"],
        &["tree", "400", "1", "0000021001200000"],
    ] {
        let out = reversi().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8(out.stderr)
            .unwrap()
            .starts_with("error: "));
    }
    let out = reversi()
        .args(["match", "--opening", "a1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn level_games_are_reproducible_legal_and_exact_at_the_end() {
    use reversi::game::Game;
    use reversi::reversi::{Move, Position, Reversi};
    let args = [
        "match",
        "--size",
        "8",
        "--level",
        "4",
        "--json",
        "--no-book",
    ];
    let (a, b) = (stdout(&args), stdout(&args));
    for name in ["moves", "nodes", "values", "depths", "score"] {
        assert_eq!(field(&a, name), field(&b, name), "{name} differs");
    }
    // Every move legal under the rules, replayed here.
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = Position::start(8);
    let mut empties_before = Vec::new();
    for m in items(field(&a, "moves")) {
        let mv = if m == "pass" {
            Move::Pass
        } else {
            Move::Place(m.parse().unwrap())
        };
        assert!(game.moves(&p).any(|x| x == mv), "{m} illegal in {a}");
        empties_before.push(p.board.empty().count_ones());
        p = game.play(&p, mv);
    }
    assert!(game.is_terminal(&p));
    let score: i64 = field(&a, "score").parse().unwrap();
    assert_eq!(score, i64::from(game.utility(&p)));
    // Level 4 solves from 12 empty squares on: both sides then play
    // perfectly, so the first exact value is the final score.
    let values: Vec<i64> = items(field(&a, "values"))
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    let first_exact = empties_before.iter().position(|&e| e <= 12).unwrap();
    assert_eq!(values[first_exact], score, "{a}");
    // The depths: 4 plies before, the empty squares (exact) after.
    let depths = numbers(field(&a, "depths"));
    assert!(depths[..first_exact].iter().all(|&d| d == 4), "{a}");
    assert_eq!(depths[first_exact], u64::from(empties_before[first_exact]));
}

#[test]
fn levels_are_8x8_only_and_replace_the_depth() {
    use crate::harness::expect_usage_error;
    expect_usage_error(
        reversi().args(["play", "--size", "6", "--level", "3"]),
        "--level plays 8x8 only",
    );
    expect_usage_error(
        reversi().args(["match", "--size", "4", "--white-level", "3"]),
        "--white-level plays 8x8 only",
    );
    expect_usage_error(
        reversi().args(["play", "--size", "8", "--level", "3", "--eval", "strong"]),
        "cannot be used with",
    );
    expect_usage_error(
        reversi().args(["match", "--size", "8", "--level", "31"]),
        "31 is not in 1..=30",
    );
    // One side at a level, the other by depth: the header says which.
    let text = stdout(&[
        "match",
        "--size",
        "8",
        "--black-level",
        "2",
        "--white-depth",
        "1",
    ]);
    assert!(text.contains("black: level 2\n"), "{text}");
    assert!(text.contains("white: depth 1, alphabeta"), "{text}");
}

/// A book move is said to be one, with the book's value for the side
/// that plays it (it read "value -1, 0 nodes, depth 0", rounded, black's
/// view, unnamed): `book show`'s value of that move.
#[test]
fn play_names_a_book_move_and_its_value_for_the_mover() {
    let out = reversi()
        .args(["play", "--size", "8", "--level", "3", "--human", "white"])
        .write_stdin("quit\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("Computer (black) plays "))
        .expect("the computer's move");
    let mv = &line["Computer (black) plays ".len()..][..2];
    let start = "---------------------------OX------XO--------------------------- X";
    let book = reversi().args(["book", "show", start]).output().unwrap();
    let book = String::from_utf8(book.stdout).unwrap();
    let value = book
        .lines()
        .find(|l| l.starts_with(mv))
        .and_then(|l| l.split_whitespace().nth(1))
        .expect("the move in the book");
    assert!(
        line.contains(&format!(
            ": a book move, {value} discs for black (the book's value)"
        )),
        "{line}\n{book}"
    );
}

#[test]
fn play_on_8x8_defaults_to_the_pattern_evaluation() {
    let out = reversi()
        .args(["play", "--size", "8", "--human", "white"])
        .write_stdin("quit\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("the computer: depth 4, alphabeta, order natural, eval pattern."));
    assert!(text.contains("Computer (black) plays"), "{text}");
    let out = reversi()
        .args([
            "play",
            "--size",
            "8",
            "--human",
            "white",
            "--level",
            "3",
            "--no-book",
        ])
        .write_stdin("quit\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("the computer: level 3."), "{text}");
    assert!(text.contains("depth 3"), "{text}");
}

#[test]
fn tournaments_take_levels_on_8x8() {
    let args = [
        "tournament",
        "--size",
        "8",
        "--plies",
        "1",
        "--level",
        "2",
        "--vs",
        "disc",
        "--depth",
        "1",
        "--json",
        "-q",
    ];
    let a = stdout(&args);
    assert_eq!(a, stdout(&args), "a level tournament is reproducible");
    assert_eq!(field(&a, "eval"), "\"level 2\"");
    assert!(
        a.contains("\"vs_settings\":\"depth 1, alphabeta, order best, eval disc\""),
        "{a}"
    );
    let games: u64 = field(&a, "games").parse().unwrap();
    let sum: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| field(&a, k).parse::<u64>().unwrap())
        .sum();
    assert_eq!((games, sum), (8, 8));
    crate::harness::expect_usage_error(
        reversi().args(["tournament", "--size", "6", "--vs-level", "2"]),
        "--vs-level plays 8x8 only",
    );
}
