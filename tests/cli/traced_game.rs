//! The 8x8 contract `reversi -t TASK -d DEPTH -i INPUT -op MOVES -ol LOG`:
//! the 30 golden runs of `tests/data/usc/` byte for byte, the assignment's
//! exact command line, and every bad input (with no output file appearing).

use crate::harness::{data, diff, expect_usage_error, report, reversi};
use std::fs;
use std::path::{Path, PathBuf};

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    crate::harness::scratch_in("usc", name)
}

use crate::harness::listing;

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

#[test]
fn golden_files_byte_for_byte() {
    let dir = scratch("golden");
    let mut failures = Vec::new();
    let mut total = 0;
    for input in 1..=2 {
        for depth in 1..=5 {
            for task in 1..=3 {
                let (moves, log) = (dir.join("moves.txt"), dir.join("tlog.txt"));
                let out = reversi()
                    .args(["-t", &task.to_string(), "-d", &depth.to_string(), "-i"])
                    .arg(data(&format!("usc/input{input}.txt")))
                    .arg("-op")
                    .arg(&moves)
                    .arg("-ol")
                    .arg(&log)
                    .output()
                    .expect("run");
                let label = format!("input{input} -d {depth} -t {task}");
                if !out.status.success() || !out.stdout.is_empty() || !out.stderr.is_empty() {
                    failures.push(format!("{label}: {out:?}"));
                    continue;
                }
                for (kind, path) in [("moves", &moves), ("tlog", &log)] {
                    total += 1;
                    let golden = data(&format!("usc/output{input}_d{depth}_{kind}_t{task}.txt"));
                    if let Some(d) = diff(&read(&golden), &read(path)) {
                        failures.push(format!("{label} {kind}:\n{d}"));
                    }
                }
                assert_eq!(
                    listing(&dir),
                    ["moves.txt", "tlog.txt"],
                    "no temporary files left"
                );
            }
        }
    }
    assert_eq!(total, 60);
    report("golden files", total, &failures);
}

#[test]
fn the_assignments_command_line_in_any_order() {
    let dir = scratch("assignment");
    fs::copy(data("usc/input1.txt"), dir.join("input1.txt")).expect("copy input");
    reversi()
        .current_dir(&dir)
        .args([
            "-t",
            "1",
            "-d",
            "3",
            "-i",
            "input1.txt",
            "-op",
            "output1_moves.txt",
        ])
        .args(["-ol", "output1_tlog.txt"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    let golden_moves = read(&data("usc/output1_d3_moves_t1.txt"));
    let golden_log = read(&data("usc/output1_d3_tlog_t1.txt"));
    assert_eq!(read(&dir.join("output1_moves.txt")), golden_moves);
    assert_eq!(read(&dir.join("output1_tlog.txt")), golden_log);

    // Double-dash -op/-ol, options shuffled, output files replaced.
    reversi()
        .current_dir(&dir)
        .args([
            "--ol",
            "output1_tlog.txt",
            "-i",
            "input1.txt",
            "--op",
            "output1_moves.txt",
        ])
        .args(["-d", "3", "-t", "1"])
        .assert()
        .success();
    assert_eq!(read(&dir.join("output1_moves.txt")), golden_moves);
    assert_eq!(read(&dir.join("output1_tlog.txt")), golden_log);
    assert_eq!(
        listing(&dir),
        ["input1.txt", "output1_moves.txt", "output1_tlog.txt"]
    );
}

#[test]
fn crlf_input_without_final_newline() {
    let dir = scratch("crlf");
    let text = read(&data("usc/input1.txt"));
    fs::write(dir.join("in.txt"), text.trim_end().replace('\n', "\r\n")).expect("write input");
    reversi()
        .current_dir(&dir)
        .args([
            "-t", "2", "-d", "2", "-i", "in.txt", "-op", "m.txt", "-ol", "l.txt",
        ])
        .assert()
        .success();
    assert_eq!(
        read(&dir.join("m.txt")),
        read(&data("usc/output1_d2_moves_t2.txt"))
    );
    assert_eq!(
        read(&dir.join("l.txt")),
        read(&data("usc/output1_d2_tlog_t2.txt"))
    );
}

/// Runs the contract in a fresh folder holding `input.txt` (if `input` is
/// given) and a pre-existing `keep.txt`; expects a usage error mentioning
/// `needle`, no `moves.txt`/`log.txt`, and `keep.txt` untouched.
fn expect_rejected(name: &str, input: Option<&str>, args: &[&str], needle: &str) {
    let dir = scratch(name);
    if let Some(text) = input {
        fs::write(dir.join("input.txt"), text).expect("write input");
    }
    fs::write(dir.join("keep.txt"), "old content\n").expect("write keep");
    expect_usage_error(reversi().current_dir(&dir).args(args), needle);
    let mut expected = vec!["keep.txt".to_string()];
    if input.is_some() {
        expected.insert(0, "input.txt".to_string());
    }
    assert_eq!(listing(&dir), expected, "{name}: no output file may appear");
    assert_eq!(
        read(&dir.join("keep.txt")),
        "old content\n",
        "{name}: truncated"
    );
}

const GOOD: &str =
    "********\n********\n********\n***OX***\n***XO***\n********\n********\n********\n";
const ARGS: [&str; 10] = [
    "-t",
    "1",
    "-d",
    "2",
    "-i",
    "input.txt",
    "-op",
    "moves.txt",
    "-ol",
    "log.txt",
];
const INTO_KEEP: [&str; 10] = [
    "-t",
    "2",
    "-d",
    "2",
    "-i",
    "input.txt",
    "-op",
    "keep.txt",
    "-ol",
    "log.txt",
];

#[test]
fn bad_input_files() {
    expect_rejected("missing", None, &ARGS, "cannot read input file input.txt");
    expect_rejected("missing-keep", None, &INTO_KEEP, "input.txt");
    let seven = GOOD.split_once('\n').expect("rest").1;
    expect_rejected("seven", Some(seven), &ARGS, "has 7 lines, expected 8");
    let nine = format!("{GOOD}********\n");
    expect_rejected("nine", Some(&nine), &ARGS, "has 9 lines");
    expect_rejected("nine-keep", Some(&nine), &INTO_KEEP, "has 9 lines");
    expect_rejected("empty", Some(""), &ARGS, "has 0 lines");
    let short = GOOD.replacen("***OX***", "***OX**", 1);
    expect_rejected(
        "short",
        Some(&short),
        &ARGS,
        "input.txt line 4 has 7 characters",
    );
    let long = GOOD.replacen("********", "*********", 3);
    expect_rejected(
        "long",
        Some(&long),
        &ARGS,
        "input.txt line 1 has 9 characters",
    );
    let bad = GOOD.replacen("***XO***", "***X0***", 1);
    expect_rejected(
        "char",
        Some(&bad),
        &ARGS,
        "input.txt line 5 has '0' in column 5",
    );
    expect_rejected("char-keep", Some(&bad), &INTO_KEEP, "line 5");
    let lower = GOOD.replacen("***OX***", "***ox***", 1);
    expect_rejected("lower", Some(&lower), &ARGS, "line 4 has 'o' in column 4");
}

#[test]
fn unreadable_input_file() {
    // A folder cannot be read as a file (even by root).
    let dir = scratch("unreadable");
    fs::create_dir(dir.join("input.txt")).expect("mkdir");
    expect_usage_error(
        reversi().current_dir(&dir).args(ARGS),
        "cannot read input file input.txt",
    );
    assert_eq!(listing(&dir), ["input.txt"]);
    // Not text at all.
    expect_rejected("binary", Some("\u{0}\u{1}"), &ARGS, "has 1 line,");
    let dir = scratch("not-utf8");
    fs::write(dir.join("input.txt"), [0xff, 0xfe, b'\n']).expect("write");
    expect_usage_error(reversi().current_dir(&dir).args(ARGS), "not text");
    assert_eq!(listing(&dir), ["input.txt"]);
}

#[test]
fn bad_task_and_depth() {
    let with = |opt: &str, value: &str| -> Vec<String> {
        let mut a: Vec<String> = ARGS.iter().map(|s| s.to_string()).collect();
        let i = a.iter().position(|s| s == opt).expect("option");
        a[i + 1] = value.to_string();
        a
    };
    for (i, task) in ["0", "4", "x", "", "1.0", "-1"].iter().enumerate() {
        let args = with("-t", task);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        expect_rejected(&format!("task{i}"), Some(GOOD), &args, "TASK");
    }
    for (i, depth) in ["0", "-1", "x", "", "2.5"].iter().enumerate() {
        let args = with("-d", depth);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        expect_rejected(&format!("depth{i}"), Some(GOOD), &args, "DEPTH");
    }
}

#[test]
fn missing_unknown_and_repeated_options() {
    for (opt, name) in [
        ("-t", "TASK"),
        ("-d", "DEPTH"),
        ("-i", "INPUT"),
        ("-op", "MOVES"),
        ("-ol", "LOG"),
    ] {
        let i = ARGS.iter().position(|s| *s == opt).expect("option");
        let args: Vec<&str> = ARGS[..i].iter().chain(&ARGS[i + 2..]).copied().collect();
        expect_rejected(
            &format!("missing{opt}"),
            Some(GOOD),
            &args,
            &format!("missing option {opt} {name}"),
        );
    }
    let mut args = ARGS.to_vec();
    args.push("-x");
    expect_rejected("unknown", Some(GOOD), &args, "unknown option \"-x\"");
    expect_rejected(
        "no-value",
        Some(GOOD),
        &ARGS[..9],
        "option -ol needs a value",
    );
    let mut args = ARGS.to_vec();
    args.extend(["-d", "3"]);
    expect_rejected("twice", Some(GOOD), &args, "option -d is given twice");
    let mut args = ARGS.to_vec();
    args[9] = "moves.txt";
    expect_rejected("same-file", Some(GOOD), &args, "same file");
}

#[test]
fn unwritable_output_leaves_nothing() {
    let dir = scratch("unwritable");
    fs::write(dir.join("input.txt"), GOOD).expect("write input");
    // The log's folder does not exist: neither file may appear.
    expect_usage_error(
        reversi().current_dir(&dir).args([
            "-t",
            "1",
            "-d",
            "1",
            "-i",
            "input.txt",
            "-op",
            "moves.txt",
            "-ol",
            "nowhere/log.txt",
        ]),
        "cannot write output file nowhere/log.txt",
    );
    assert_eq!(listing(&dir), ["input.txt"]);
    // An output path that is a folder.
    fs::create_dir(dir.join("sub")).expect("mkdir");
    expect_usage_error(
        reversi().current_dir(&dir).args([
            "-t",
            "1",
            "-d",
            "1",
            "-i",
            "input.txt",
            "-op",
            "sub",
            "-ol",
            "log.txt",
        ]),
        "output path sub is a folder",
    );
    assert_eq!(listing(&dir), ["input.txt", "sub"]);
}

#[test]
fn black_cannot_move_first() {
    // Only black discs: nobody can move; one BLACK PASS step and a root leaf.
    let dir = scratch("no-move");
    let board = "X*******\n".to_string() + &"********\n".repeat(7);
    fs::write(dir.join("in.txt"), &board).expect("write");
    reversi()
        .current_dir(&dir)
        .args([
            "-t", "3", "-d", "4", "-i", "in.txt", "-op", "m.txt", "-ol", "l.txt",
        ])
        .assert()
        .success();
    assert_eq!(
        read(&dir.join("m.txt")),
        format!("STEP = 1\nBLACK PASS\n{board}\nGame End\n")
    );
    assert_eq!(
        read(&dir.join("l.txt")),
        "Node,Depth,Value,Alpha,Beta\nroot 1 99.0 -Infinity Infinity\n"
    );
}

#[test]
fn help_mentions_the_contract() {
    let out = reversi().arg("--help").output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("-t TASK -d DEPTH -i INPUT -op MOVES -ol LOG"),
        "{text}"
    );
}

#[test]
fn report_tables() {
    let out = reversi()
        .arg("usc-report")
        .arg(data("usc/input1.txt"))
        .arg(data("usc/input2.txt"))
        .output()
        .expect("run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    // Task 1 and 2 always play the same game; alpha-beta never needs more nodes.
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| input")).collect();
    assert_eq!(rows.len(), 2 + 20, "{text}");
    for row in &rows[1..11] {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (t1, t2): (u64, u64) = (cells[3].parse().unwrap(), cells[4].parse().unwrap());
        assert!(t2 <= t1, "{row}");
        assert_eq!((cells[6], cells[7]), ("yes", "yes"), "{row}");
    }
    expect_usage_error(reversi().arg("usc-report"), "input file");
}

#[test]
fn built_in_weights_are_the_handouts_table() {
    let text = read(&data("usc/positional_weights.txt"));
    let table: Vec<i32> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| {
            l.split_whitespace()
                .map(|w| w.parse::<i32>().expect("weight"))
        })
        .collect();
    assert_eq!(table, reversi::eval::PositionalWeights::CLASSIC_8X8.weights);
}

#[test]
fn measurements_tables_are_the_reports_output() {
    let out = reversi()
        .arg("usc-report")
        .arg(data("usc/input1.txt"))
        .arg(data("usc/input2.txt"))
        .output()
        .expect("run");
    let report = String::from_utf8_lossy(&out.stdout);
    let doc = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/MEASUREMENTS.md"));
    for line in report.lines().filter(|l| l.starts_with('|')) {
        assert!(
            doc.lines().any(|r| r == line),
            "docs/MEASUREMENTS.md lacks this line of `reversi usc-report`; paste the new output:\n{line}"
        );
    }
}
