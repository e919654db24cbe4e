//! The Reversi Tiny contract: `examples.txt` (the seed's transcripts), the
//! 150 published cases, and bad inputs.

use crate::harness::{check_stdout, expect_usage_error, read_data, report, reversi};

/// One `$ reversi ARGS` case of `examples.txt` with its expected stdout.
struct Example {
    args: Vec<String>,
    stdout: String,
}

fn examples() -> Vec<Example> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples.txt"))
        .expect("examples.txt");
    let mut cases: Vec<Example> = Vec::new();
    for line in text.lines() {
        if let Some(cmd) = line.strip_prefix("$ reversi ") {
            cases.push(Example {
                args: cmd.split_whitespace().map(String::from).collect(),
                stdout: String::new(),
            });
        } else if line.starts_with('#') || line.is_empty() {
            continue;
        } else {
            let case = cases.last_mut().expect("output before the first command");
            case.stdout.push_str(line);
            case.stdout.push('\n');
        }
    }
    cases
}

#[test]
fn seed_transcripts_from_examples_txt() {
    let cases = examples();
    assert_eq!(
        cases.len(),
        78,
        "examples.txt holds the seed's 78 distinct commands"
    );
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check_stdout(reversi().args(&c.args), "", &c.stdout)
                .err()
                .map(|e| format!("$ reversi {}\n{e}", c.args.join(" ")))
        })
        .collect();
    report("examples.txt transcripts", cases.len(), &failures);
}

#[test]
fn published_cases() {
    let text = read_data("reversi_tiny_published_cases.tsv");
    let mut total = 0;
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "bad tsv line {line:?}");
        let expected = f[3].replace("\\n", "\n");
        total += 1;
        if let Err(e) = check_stdout(reversi().args([f[0], f[1], f[2]]), "", &expected) {
            failures.push(format!("$ reversi {} {} {}\n{e}", f[0], f[1], f[2]));
        }
    }
    assert_eq!(total, 150);
    report("published cases", total, &failures);
}

#[test]
fn bad_inputs_exit_2_with_one_line() {
    expect_usage_error(reversi().args(["300", "1", "00000210012"]), "BOARD");
    expect_usage_error(reversi().args(["300", "1", "000002100120000x"]), "BOARD");
    expect_usage_error(reversi().args(["300", "3", "0000021001200000"]), "PLAYER");
    expect_usage_error(reversi().args(["700", "1", "0000021001200000"]), "FLAG");
    expect_usage_error(reversi().args(["300", "1"]), "expected 3 arguments");
    expect_usage_error(
        reversi().args(["300", "1", "0000021001200000", "x"]),
        "expected 3 arguments",
    );
    expect_usage_error(&mut reversi(), "missing arguments");
}

#[test]
fn larger_boards_for_flags_100_and_200() {
    let start8 = format!("{}0002100000012000{}", "0".repeat(24), "0".repeat(24));
    let out = reversi().args(["100", "1", &start8]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 4);
    let start6 = "000000000000002100001200000000000000";
    check_stdout(reversi().args(["200", "2", start6]), "", "non-terminal\n").unwrap();
}

#[test]
fn slow_exhaustive_searches_are_announced_on_stderr_only() {
    // 34 empty squares, but dark's only move (c1) captures light's only
    // disc and ends the game: quick here, slow for an exhaustive search in
    // general, so it is announced.
    let board = format!("12{}", "0".repeat(34));
    let out = reversi().args(["300", "1", &board]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "1\n2\n");
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("warning: "));
    // A finished game needs no search, however many squares are empty.
    let finished = format!("1{}", "0".repeat(35));
    let out = reversi().args(["300", "1", &finished]).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "1\n1\n");
    assert!(out.stderr.is_empty());
    let out = reversi()
        .args(["300", "1", "0000021001200000"])
        .output()
        .unwrap();
    assert!(out.stderr.is_empty());
}
