//! `ring-treblecross N K FLAG [POSITION...]`: the 58 golden cases, the 4
//! interactive transcripts, interactive edge cases and bad arguments.

use crate::harness::{
    check_stdout, diff, expect_usage_error, read_data, report, reversi, ring_treblecross,
};

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
    // End of input abandons the game: the question line is ended, stderr
    // says so, exit status 0 (as `reversi play`).
    let expected = "Initial :  | X |   |   |   |   | \n\
Index:     |  0|  1|  2|  3|  4|\n\
Choose Next Move: Illegal move. Position already occupied.\n\
Index:     |  0|  1|  2|  3|  4|\n\
Choose Next Move: \n";
    let out = ring_treblecross()
        .args(["5", "3", "0", "0"])
        .write_stdin("0\n")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "end of input: game abandoned\n"
    );
}

/// The dialog of `ring-treblecross 5 3 0` up to the first question.
const FIVE_START: &str = "Initial :  |   |   |   |   |   | \n";
const FIVE_ASK: &str = "Index:     |  0|  1|  2|  3|  4|\nChoose Next Move: ";

/// Answers that are not integers (an empty line, spaces, invalid UTF-8, a
/// sign alone, a huge line) each print `Invalid Input` on stderr and ask
/// again; then `0` is played and the program wins with a run of 3.
#[test]
fn interactive_non_integers_are_asked_again() {
    let huge = "7".repeat(100_000);
    let bad: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b" 0".to_vec(),
        b"0 ".to_vec(),
        b"\xff\xfe0".to_vec(),
        b"-".to_vec(),
        b"1 2".to_vec(),
        huge.into_bytes(),
    ];
    let mut stdin = Vec::new();
    for b in &bad {
        stdin.extend_from_slice(b);
        stdin.push(b'\n');
    }
    stdin.extend_from_slice(b"0\r\n");
    let out = ring_treblecross()
        .args(["5", "3", "0"])
        .write_stdin(stdin)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    // 5 3 from empty, person at 0: the program answers 1, its first winning
    // cell (X at 0 and 1 threaten both 2 and 4; the person blocks one).
    // Then end of input.
    let mut expected = String::from(FIVE_START);
    for _ in 0..=bad.len() {
        expected.push_str(FIVE_ASK);
    }
    expected.push_str("Player  :  | X |   |   |   |   | \n");
    expected.push_str("Computer:  | X | X |   |   |   | \n");
    expected.push_str(FIVE_ASK);
    expected.push('\n');
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    let mut errors = "Invalid Input\n".repeat(bad.len());
    errors.push_str("end of input: game abandoned\n");
    assert_eq!(String::from_utf8_lossy(&out.stderr), errors);
}

/// `+2` is an integer as `Integer.parseInt` reads it; `-1` and `5` are out
/// of the ring.
#[test]
fn interactive_signs_and_range() {
    let out = ring_treblecross()
        .args(["5", "3", "0", "0", "1"])
        .write_stdin("-1\n5\n+2\n")
        .output()
        .expect("run");
    let expected = format!(
        "Initial :  | X | X |   |   |   | \n{FIVE_ASK}Board position out of range.\n\
{FIVE_ASK}Board position out of range.\n{FIVE_ASK}Player  :  | X | X | X |   |   | \n"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert!(out.stderr.is_empty());
    assert_eq!(out.status.code(), Some(0));
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
    // K = 3 at the largest N: every first move on an empty ring is alike,
    // so the best is cell 0; one line of N cells.
    let out = ring_treblecross()
        .args(["1000000", "3", "3"])
        .output()
        .expect("run");
    assert!(out.status.success());
    let line = String::from_utf8_lossy(&out.stdout);
    let cells = format!(" | X | {}", "  | ".repeat(999_999));
    assert!(
        line.starts_with(&format!("Min Node {cells} Score: ")),
        "{}",
        &line[..40]
    );
    assert!(line.ends_with(" Score:  1\n") || line.ends_with(" Score: -1\n"));
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
        (vec!["7", "3", "1", "-x"], "unknown option"),
        (vec!["1000001", "3", "3"], "at most 1000000"),
        (vec!["100000", "100000", "3", "--minimax"], "at most 11"),
        (
            vec!["20", "3", "2", "--minimax"],
            "with K = 3, N must be at most 14",
        ),
        (
            vec!["21", "1", "1", "--minimax"],
            "with K = 1, N must be at most 20",
        ),
        (vec!["7", "3", "\u{1b}[31m"], "FLAG"),
    ] {
        expect_usage_error(ring_treblecross().args(&args), needle);
        let out = ring_treblecross().args(&args).output().expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.ends_with(" (see `ring-treblecross --help`)\n"),
            "{stderr:?}"
        );
    }
}

#[test]
fn help_explains_usage() {
    let out = ring_treblecross().arg("--help").output().expect("run");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("ring-treblecross N K FLAG"));
}

/// `--minimax` refuses, with the bound `--help` states, a ring one cell
/// larger than its bound for K; at the bound (K = 1, 20 cells: fast) it
/// answers as the exact solver does.
#[test]
fn minimax_refuses_rings_beyond_the_bound_help_states() {
    let out = ring_treblecross().arg("--help").output().expect("run");
    let help = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (k, bound) in [(1, 20), (2, 19), (3, 14), (4, 13), (6, 12), (9, 11)] {
        let stated = if k >= 8 {
            format!("{bound} for K >= 8")
        } else if (5..=7).contains(&k) {
            format!("{bound} for K = 5-7")
        } else {
            format!("{bound} for K = {k}")
        };
        assert!(help.contains(&stated), "{stated:?} in {help}");
        expect_usage_error(
            ring_treblecross().args([&(bound + 1).to_string(), &k.to_string(), "1", "--minimax"]),
            &format!("with K = {k}, N must be at most {bound} "),
        );
    }
    for flag in ["1", "2", "3"] {
        let exact = ring_treblecross()
            .args(["20", "1", flag])
            .output()
            .expect("run");
        assert!(exact.status.success());
        let plain = ring_treblecross()
            .args(["20", "1", flag, "--minimax"])
            .output()
            .expect("run");
        assert!(
            plain.status.success(),
            "{}",
            String::from_utf8_lossy(&plain.stderr)
        );
        assert!(!plain.stdout.is_empty());
        assert_eq!(plain.stdout, exact.stdout, "FLAG {flag}");
    }
}

#[test]
fn usage_errors_escape_control_characters() {
    let out = ring_treblecross()
        .args(["7", "3", "1", "\u{1b}[31m\nx"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(
        !stderr.trim_end().chars().any(char::is_control),
        "{stderr:?}"
    );
}

/// `--version` says what `reversi --version` says, for this binary.
#[test]
fn version_like_reversi() {
    let ours = ring_treblecross().arg("--version").output().expect("run");
    let theirs = reversi().arg("--version").output().expect("run");
    assert!(ours.status.success() && theirs.status.success());
    let theirs = String::from_utf8_lossy(&theirs.stdout).replacen("reversi", "ring-treblecross", 1);
    assert_eq!(String::from_utf8_lossy(&ours.stdout), theirs);
    assert_eq!(
        theirs,
        format!("ring-treblecross {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// `/dev/full` as stdout or stderr, if this system has it.
fn dev_full() -> Option<std::fs::File> {
    match std::fs::OpenOptions::new().write(true).open("/dev/full") {
        Ok(f) => Some(f),
        Err(e) => {
            eprintln!("skipped: cannot open /dev/full ({e})");
            None
        }
    }
}

/// A full stdout is an error reported on stderr (exit 1), never a panic;
/// a full stderr keeps the exit status of the error it could not print.
#[test]
fn full_stdout_or_stderr_never_panics() {
    let bin = assert_cmd::cargo::cargo_bin("ring-treblecross");
    for args in [
        &["--help"][..],
        &["--version"],
        &["9", "3", "1"],
        &["300", "3", "2"],
    ] {
        let Some(full) = dev_full() else { return };
        let out = std::process::Command::new(&bin)
            .args(args)
            .stdout(full)
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: writing the output:"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    for (args, code) in [
        (&["7", "3"][..], 2),
        (&["5", "3", "0"], 0),
        (&["9", "3", "3", "--stats"], 1),
    ] {
        let Some(full) = dev_full() else { return };
        let out = std::process::Command::new(&bin)
            .args(args)
            .stdin(std::process::Stdio::null())
            .stderr(full)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
}

/// A reader that stops reading (a pipe into `head`) ends the run quietly.
#[test]
fn closed_stdout_ends_quietly() {
    let bin = assert_cmd::cargo::cargo_bin("ring-treblecross");
    let mut child = std::process::Command::new(bin)
        .args(["3000", "3", "1"]) // 36 MB of successor lines
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An independent brute force of the rules (negamax over the cells as a
/// bit mask, memoised): the value for the side to move.
struct BruteForce {
    n: usize,
    k: usize,
    memo: std::collections::HashMap<u32, i32>,
}

impl BruteForce {
    fn new(n: usize, k: usize) -> BruteForce {
        assert!(n <= 16);
        BruteForce {
            n,
            k,
            memo: std::collections::HashMap::new(),
        }
    }

    /// Whether some k cells in a row (around the ring) hold an X.
    fn has_run(&self, cells: u32) -> bool {
        self.n >= self.k
            && (0..self.n)
                .any(|start| (0..self.k).all(|d| cells >> ((start + d) % self.n) & 1 == 1))
    }

    fn is_over(&self, cells: u32) -> bool {
        self.has_run(cells) || cells == (1 << self.n) - 1
    }

    /// +1: the side to move wins, -1: it loses, 0: draw.
    fn mover_value(&mut self, cells: u32) -> i32 {
        if self.has_run(cells) {
            return -1;
        }
        if cells == (1 << self.n) - 1 {
            return 0;
        }
        if let Some(&v) = self.memo.get(&cells) {
            return v;
        }
        let v = (0..self.n)
            .filter(|&c| cells >> c & 1 == 0)
            .map(|c| -self.mover_value(cells | 1 << c))
            .max()
            .expect("an empty cell");
        self.memo.insert(cells, v);
        v
    }

    /// The first empty cell with the best value for the mover.
    fn best(&mut self, cells: u32) -> Option<usize> {
        if self.is_over(cells) {
            return None;
        }
        let v = self.mover_value(cells);
        (0..self.n).find(|&c| cells >> c & 1 == 0 && -self.mover_value(cells | 1 << c) == v)
    }

    fn line(&self, label: &str, cells: u32, value: i32) -> String {
        let board: String = (0..self.n)
            .map(|c| if cells >> c & 1 == 1 { "X | " } else { "  | " })
            .collect();
        format!("{label} Node  | {board} Score: {value:2}\n")
    }

    /// What FLAG 1, 2 or 3 prints for `cells` with MAX to move.
    fn expected(&mut self, flag: u8, cells: u32) -> String {
        let root = self.mover_value(cells);
        match flag {
            1 => (0..self.n)
                .filter(|&c| cells >> c & 1 == 0)
                .map(|c| {
                    let v = -self.mover_value(cells | 1 << c);
                    self.line("Min", cells | 1 << c, v)
                })
                .collect(),
            2 => {
                let mut out = self.line("Max", cells, root);
                let (mut state, mut label) = (cells, "Min");
                while let Some(c) = self.best(state) {
                    state |= 1 << c;
                    out.push_str(&self.line(label, state, root));
                    label = if label == "Min" { "Max" } else { "Min" };
                }
                out
            }
            _ => match self.best(cells) {
                Some(c) => self.line("Min", cells | 1 << c, root),
                None => format!("Min Node null Score: {root:2}\n"),
            },
        }
    }
}

/// The solver and `--minimax` both print what the brute force says, on
/// the handpicked cases and on every FLAG for a deterministic sample of
/// positions (N 1..=10, K 1..=6, finished boards included).
#[test]
fn solver_and_minimax_print_what_brute_force_says() {
    let mut cases: Vec<Vec<String>> = [
        &["9", "3", "1"][..],
        &["9", "3", "2", "4"],
        &["10", "3", "1", "5"],
        &["9", "4", "1"],
        &["9", "4", "2", "0", "4"],
        &["9", "5", "1", "2"],
        &["8", "5", "2"],
        &["8", "2", "1", "3"],
        &["4", "6", "2", "1"],
        &["9", "3", "3", "0", "1"],
        &["6", "3", "3", "0", "1", "2"],
    ]
    .iter()
    .map(|a| a.iter().map(|s| s.to_string()).collect())
    .collect();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for i in 0..24 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let n = 1 + (seed % 10) as usize;
        let k = 1 + (seed >> 8) as usize % 6;
        let flag = 1 + i % 3;
        let mut args = vec![n.to_string(), k.to_string(), flag.to_string()];
        args.extend(
            (0..n)
                .filter(|c| seed >> (20 + c) & 3 == 0)
                .map(|c| c.to_string()),
        );
        cases.push(args);
    }
    let mut failures = Vec::new();
    let mut lines = 0;
    for args in &cases {
        let n: usize = args[0].parse().unwrap();
        let k: usize = args[1].parse().unwrap();
        let flag: u8 = args[2].parse().unwrap();
        let cells = args[3..]
            .iter()
            .fold(0u32, |m, p| m | 1 << p.parse::<u32>().unwrap());
        let expected = BruteForce::new(n, k).expected(flag, cells);
        lines += expected.lines().count();
        for extra in [None, Some("--minimax")] {
            if let Err(e) = check_stdout(ring_treblecross().args(args).args(extra), "", &expected) {
                failures.push(format!(
                    "$ ring-treblecross {} {extra:?}\n{e}",
                    args.join(" ")
                ));
            }
        }
    }
    // Every case prints something (a full board's FLAG 1 prints nothing: none here).
    assert!(
        lines >= cases.len(),
        "{lines} lines for {} cases",
        cases.len()
    );
    report(
        "comparisons with the brute force",
        2 * cases.len(),
        &failures,
    );
}
