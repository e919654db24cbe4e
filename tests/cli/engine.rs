//! `reversi perft` and `reversi solve`: published counts and scores, output
//! formats, bad input.

use crate::harness::{data, expect_usage_error, reversi};

fn stdout_of(args: &[&str]) -> String {
    let out = reversi().args(args).output().expect("run");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn perft_8x8_published_depths_1_to_9() {
    let published = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    for (i, n) in published.iter().enumerate() {
        let d = (i + 1).to_string();
        assert_eq!(stdout_of(&["perft", &d]), format!("{n}\n"), "depth {d}");
        assert_eq!(stdout_of(&["perft", "--size", "8", &d]), format!("{n}\n"));
    }
}

#[test]
fn perft_divide_and_board() {
    let out = stdout_of(&["perft", "--size", "4", "3", "--divide"]);
    assert_eq!(out, "b1 11\na2 11\nd3 11\nc4 11\ntotal 44\n");
    // The 4x4 start as a digit board, white to move: the mirror image.
    let out = stdout_of(&["perft", "3", "--board", "0000021001200000", "--player", "2"]);
    assert_eq!(out, "44\n");
    // A finished game is one leaf at every depth.
    let full = "1".repeat(16);
    assert_eq!(
        stdout_of(&["perft", "5", "--board", &full, "--player", "1"]),
        "1\n"
    );
    assert_eq!(stdout_of(&["perft", "0"]), "1\n");
}

#[test]
fn solve_4x4_start() {
    // A start position (--size) prints its principal line after the score.
    let out = stdout_of(&["solve", "--size", "4", "--threads", "1"]);
    assert_eq!(out, "b1 -10 b1 a1 a2 c1 d4 a3 d1 b4 a4 c4\n");
    let out = stdout_of(&["solve", "--size", "4", "--discs-only", "--threads", "1"]);
    assert!(out.starts_with("b1 -8 b1 "), "{out}");
    // Other positions print the move and the score only, unless --pv.
    let start = "0000021001200000";
    let out = stdout_of(&["solve", "--board", start, "--player", "1", "--threads", "1"]);
    assert_eq!(out, "b1 -10\n");
}

#[test]
fn solve_threads_expect_and_principal_line() {
    let pv = "b1 -10 b1 a1 a2 c1 d4 a3 d1 b4 a4 c4\n";
    for threads in ["1", "2"] {
        let args = ["solve", "--size", "4", "--pv", "--threads", threads];
        assert_eq!(stdout_of(&args), pv);
        // A right expectation is proved; a wrong one falls back.
        for expect in ["-10", "-8"] {
            let mut a = args.to_vec();
            a.extend(["--expect", expect, "-q"]);
            assert_eq!(stdout_of(&a), pv);
        }
    }
}

/// The first (best) score listed on each OBF line.
fn published_scores(text: &str) -> Vec<i32> {
    text.lines()
        .map(|l| {
            let first = l.split(';').nth(1).expect("a move");
            first
                .split(':')
                .nth(1)
                .expect("a score")
                .trim()
                .parse()
                .expect("number")
        })
        .collect()
}

#[test]
fn solve_ffo_1_to_19() {
    let file = data("ffo/fforum-1-19.obf");
    let text = std::fs::read_to_string(&file).unwrap();
    let out = stdout_of(&["solve", "--file", file.to_str().unwrap(), "-q"]);
    let got: Vec<i32> = out
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(got, published_scores(&text));
    // Each printed move is one of the published moves with the best score.
    for (line, l) in text.lines().zip(out.lines()) {
        let mv = l.split(' ').next().unwrap().to_uppercase();
        let best = published_scores(line)[0];
        assert!(
            line.contains(&format!("{mv}:{best:+};")),
            "move {mv} not listed with {best:+} in {line}"
        );
    }
}

/// FFO #47 has 25 empties: its solve runs the four selective passes of
/// deep roots before the exact pass; the score is still the published one.
#[test]
fn solve_ffo_47_through_the_deep_passes() {
    let file = data("ffo/fforum-40-59.obf");
    let text = std::fs::read_to_string(&file).unwrap();
    let line = text
        .lines()
        .filter(|l| !l.starts_with('%'))
        .nth(47 - 40)
        .unwrap();
    let board = &line[..line.find(';').unwrap() + 1];
    assert_eq!(board.matches('-').count(), 25, "{board}");
    let out = stdout_of(&["solve", "--obf", board, "--threads", "2", "-q"]);
    // The published line lists one best move: G2:+4.
    let best = line.split(';').nth(1).unwrap().trim().to_lowercase();
    assert_eq!(out, format!("{}\n", best.replace(':', " ")));
    assert_eq!(published_scores(line), vec![4]);
}

#[test]
fn solve_obf_json_is_deterministic() {
    let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
    // One thread: deterministic node counts (more threads vary them).
    let a = stdout_of(&["solve", "--obf", line, "--json", "--threads", "1"]);
    let b = stdout_of(&["solve", "--obf", line, "--json", "--threads", "1"]);
    assert!(
        a.starts_with("{\"line\":1,\"empties\":14,\"move\":\"g8\",\"score\":18,\"nodes\":"),
        "{a}"
    );
    let strip = |s: &str| s[..s.find(",\"millis\"").unwrap()].to_string();
    assert_eq!(strip(&a), strip(&b));
    assert_eq!(stdout_of(&["solve", "--obf", line]), "g8 +18\n");
}

#[test]
fn solve_finished_and_passing_positions() {
    let full = "1".repeat(10) + &"2".repeat(6);
    assert_eq!(
        stdout_of(&["solve", "--board", &full, "--player", "2"]),
        "none -4\n"
    );
    // Nobody can play d4: white leads 9-6 and gets the empty square.
    assert_eq!(
        stdout_of(&["solve", "--board", "2221222122211110", "--player", "2"]),
        "none +4\n"
    );
    // Light must pass; dark plays b4 (flipping c3) for an 8-8 draw.
    assert_eq!(
        stdout_of(&["solve", "--board", "2221222122211011", "--player", "2"]),
        "pass +0\n"
    );
}

#[test]
fn bad_obf_input() {
    let good = "-".repeat(27) + "OX------XO" + &"-".repeat(27);
    expect_usage_error(
        reversi().args(["solve", "--obf", &format!("{good}- X;")]),
        "line 1",
    );
    expect_usage_error(
        reversi().args(["solve", "--obf", &format!("{good} Z;")]),
        "side to move",
    );
    expect_usage_error(
        reversi().args(["solve", "--obf", &format!("{}* X;", &good[1..])]),
        "'*'",
    );
    let dir = std::env::temp_dir().join(format!("reversi-engine-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.obf");
    std::fs::write(&f, format!("{good} X;\n\n{good}X X;\n")).unwrap();
    expect_usage_error(
        reversi().args(["solve", "--file", f.to_str().unwrap()]),
        "line 3",
    );
    std::fs::write(
        &f,
        [b'-'; 64]
            .iter()
            .chain(b" X\n\xff\xfe")
            .copied()
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    expect_usage_error(
        reversi().args(["solve", "--file", f.to_str().unwrap()]),
        "unreadable",
    );
    let missing = dir.join("missing.obf");
    expect_usage_error(
        reversi().args(["solve", "--file", missing.to_str().unwrap()]),
        "unreadable",
    );
    // A file without a position (empty, or comments and blank lines only)
    // says so (exit 0 and no output before).
    for text in ["", "% FFO\n\n# none\n"] {
        std::fs::write(&f, text).unwrap();
        expect_usage_error(
            reversi().args(["solve", "--file", f.to_str().unwrap()]),
            "holds no position",
        );
    }
    std::fs::remove_dir_all(&dir).ok();
    expect_usage_error(
        reversi().args(["perft", "2", "--board", "012", "--player", "1"]),
        "--board",
    );
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        vec!["solve"],
        vec!["perft"],
        vec!["perft", "x"],
        vec!["perft", "--size", "5", "2"],
        vec!["solve", "--board", "0000021001200000", "--player", "3"],
    ] {
        let out = reversi().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn solves_beyond_reach_are_announced_on_stderr() {
    // One disc and 63 empty squares: finished at once, but the warning is
    // about the size of the problem, which is what a user typing
    // `solve --size 8` needs to hear.
    let board = format!("1{}", "0".repeat(63));
    let out = reversi()
        .args([
            "solve",
            "--board",
            &board,
            "--player",
            "1",
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("warning: line 1 has 63 empty squares"));
    let quiet = reversi()
        .args(["solve", "--board", &board, "--player", "1", "-q"])
        .output()
        .unwrap();
    assert!(quiet.stderr.is_empty());
}
