//! `ring-treblecross N K FLAG [POSITION...]`: the 58 golden cases, the 4
//! interactive transcripts, interactive edge cases and bad arguments.

use crate::harness::{check_stdout, diff, expect_usage_error, read_data, report, ring_treblecross};

#[test]
fn golden_cases_from_treblecross_cases_tsv() {
    let text = read_data("treblecross_cases.tsv");
    let mut failures = Vec::new();
    let mut total = 0;
    for line in text.lines().filter(|l| !l.is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 4, "bad line {line:?}");
        let mut args: Vec<&str> = cols[..3].to_vec();
        args.extend(cols[3].split_whitespace());
        let expected = cols.get(4).copied().unwrap_or("").replace("\\n", "\n");
        total += 1;
        if let Err(e) = check_stdout(ring_treblecross().args(&args), "", &expected) {
            failures.push(format!("$ ring-treblecross {}\n{e}", args.join(" ")));
        }
    }
    assert_eq!(total, 58, "treblecross_cases.tsv holds 58 cases");
    report("treblecross cases", total, &failures);
}

/// One interactive transcript: arguments, stdin, stdout, stderr.
struct Transcript {
    args: Vec<String>,
    blocks: Vec<String>,
}

fn transcripts() -> Vec<Transcript> {
    let text = read_data("ring-treblecross-play.md");
    let mut out: Vec<Transcript> = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        if let Some(b) = block.as_mut() {
            if line == "```" {
                let b = block.take().unwrap();
                out.last_mut().expect("block before a case").blocks.push(b);
            } else {
                b.push_str(line);
                b.push('\n');
            }
        } else if let Some(cmd) = line.strip_prefix("## ring-treblecross ") {
            out.push(Transcript {
                args: cmd.split_whitespace().map(String::from).collect(),
                blocks: Vec::new(),
            });
        } else if line.starts_with("```") {
            block = Some(String::new());
        }
    }
    out
}

#[test]
fn interactive_transcripts() {
    let cases = transcripts();
    assert_eq!(cases.len(), 4, "four transcripts");
    let mut failures = Vec::new();
    for t in &cases {
        assert_eq!(t.blocks.len(), 3, "stdin, stdout, stderr for {:?}", t.args);
        let out = ring_treblecross()
            .args(&t.args)
            .write_stdin(t.blocks[0].as_str())
            .output()
            .expect("run");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // The transcript's stdout ends where the game stops (no newline
        // after the final board line is added by the fence).
        for (what, expected, actual) in [
            ("stdout", &t.blocks[1], &stdout),
            ("stderr", &t.blocks[2], &stderr),
        ] {
            if let Some(d) = diff(expected, actual) {
                failures.push(format!(
                    "ring-treblecross {} ({what})\n{d}",
                    t.args.join(" ")
                ));
            }
        }
        if !out.status.success() {
            failures.push(format!(
                "ring-treblecross {}: exit {:?}",
                t.args.join(" "),
                out.status.code()
            ));
        }
    }
    report("transcripts", cases.len(), &failures);
}

#[test]
fn interactive_occupied_cell_and_end_of_input() {
    let expected = "Initial :  | X |   |   |   |   | \n\
Index:     |  0|  1|  2|  3|  4|\n\
Choose Next Move: Illegal move. Position already occupied.\n\
Index:     |  0|  1|  2|  3|  4|\n\
Choose Next Move: \n";
    let res = check_stdout(
        ring_treblecross().args(["5", "3", "0", "0"]),
        "0\n",
        expected,
    );
    assert!(res.is_ok(), "{}", res.unwrap_err());
}

#[test]
fn interactive_on_a_finished_board_prints_the_board_only() {
    let res = check_stdout(
        ring_treblecross().args(["4", "3", "0", "0", "1", "2"]),
        "",
        "Initial :  | X | X | X |   | \n",
    );
    assert!(res.is_ok(), "{}", res.unwrap_err());
}

#[test]
fn large_rings_answer() {
    // K = 3 at N = 10,000: the best first move on an empty ring.
    let out = ring_treblecross()
        .args(["10000", "3", "3"])
        .output()
        .expect("run");
    assert!(out.status.success());
    let line = String::from_utf8_lossy(&out.stdout);
    assert!(line.starts_with("Min Node  | X |   |"), "{}", &line[..40]);
    assert_eq!(line.lines().count(), 1);
    // K = 4 and 5 at N = 32 (values checked against minimax at small N in the library).
    for k in ["4", "5"] {
        let out = ring_treblecross()
            .args(["32", k, "1"])
            .output()
            .expect("run");
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 32);
    }
}

#[test]
fn bad_arguments_exit_2() {
    for (args, needle) in [
        (vec![], "expected N K FLAG"),
        (vec!["7", "3"], "expected N K FLAG"),
        (vec!["x", "3", "1"], "N"),
        (vec!["0", "3", "1"], "N must be at least 1"),
        (vec!["-5", "3", "1"], "N must not be negative"),
        (vec!["7", "0", "1"], "K must be at least 1"),
        (vec!["7", "three", "1"], "K"),
        (vec!["7", "3", "4"], "FLAG"),
        (vec!["7", "3", "1.0"], "FLAG"),
        (vec!["7", "3", "1", "7"], "outside"),
        (vec!["7", "3", "1", "-1"], "position"),
        (vec!["7", "3", "1", "a"], "position"),
        (vec!["7", "3", "1", "--bogus"], "unknown option"),
        (vec!["99999999999999999999", "3", "1"], "N"),
    ] {
        expect_usage_error(ring_treblecross().args(&args), needle);
    }
}

#[test]
fn help_explains_usage() {
    let out = ring_treblecross().arg("--help").output().expect("run");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("ring-treblecross N K FLAG"));
}

#[test]
fn fast_solver_prints_what_plain_minimax_prints() {
    let cases: &[&[&str]] = &[
        &["9", "3", "1"],
        &["9", "3", "2", "4"],
        &["10", "3", "1", "5"],
        &["9", "4", "1"],
        &["9", "4", "2", "0", "4"],
        &["9", "5", "1", "2"],
        &["8", "5", "2"],
        &["8", "2", "1", "3"],
        &["4", "6", "2", "1"],
        &["9", "3", "3", "0", "1"],
    ];
    let mut failures = Vec::new();
    for args in cases {
        let plain = ring_treblecross()
            .args(*args)
            .arg("--minimax")
            .output()
            .expect("run");
        assert!(plain.status.success());
        let expected = String::from_utf8_lossy(&plain.stdout).into_owned();
        if let Err(e) = check_stdout(ring_treblecross().args(*args), "", &expected) {
            failures.push(format!("$ ring-treblecross {}\n{e}", args.join(" ")));
        }
    }
    report("comparisons with --minimax", cases.len(), &failures);
}
