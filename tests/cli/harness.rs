//! Helpers shared by the integration tests: run a binary, compare stdout
//! exactly and print a readable diff when it differs.

#![allow(dead_code)]

use assert_cmd::Command;
use std::path::PathBuf;

/// Says on the terminal that the running test skips its checks, and why:
/// written to stderr directly, which `cargo test` does not capture (it
/// captures `println!`), so a newcomer sees what did not run.
pub fn skipped(reason: &str) {
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {reason}");
}

/// The `reversi` binary.
pub fn reversi() -> Command {
    Command::cargo_bin("reversi").expect("reversi binary")
}

/// `reversi-lab train generate` of quick training games (seed 3, solved from
/// 10 empty squares, no progress lines): the caller adds `--out`,
/// `--games` and the rest.
pub fn train_generate() -> Command {
    let mut cmd = lab();
    cmd.args([
        "train",
        "generate",
        "-q",
        "--seed",
        "3",
        "--solve-empties",
        "10",
    ]);
    cmd
}

/// A file under `tests/data/`.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Reads a file under `tests/data/`.
pub fn read_data(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap_or_else(|e| panic!("reading {name}: {e}"))
}

/// A readable line-by-line comparison of `expected` and `actual`, or `None`
/// when they are equal.
pub fn diff(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let (e, a): (Vec<&str>, Vec<&str>) =
        (expected.split('\n').collect(), actual.split('\n').collect());
    let mut out = String::new();
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i).copied(), a.get(i).copied());
        if x != y {
            out.push_str(&format!(
                "first difference at line {}:\n  expected: {:?}\n  actual:   {:?}\n",
                i + 1,
                x.unwrap_or("<end of output>"),
                y.unwrap_or("<end of output>")
            ));
            break;
        }
    }
    out.push_str(&format!("--- expected\n{expected}--- actual\n{actual}---"));
    Some(out)
}

/// Runs `cmd` with `stdin`, expects exit 0 and exactly `expected` on stdout;
/// returns a description of the failure instead of panicking, so callers
/// can report every failing case at once.
pub fn check_stdout(cmd: &mut Command, stdin: &str, expected: &str) -> Result<(), String> {
    let out = cmd.write_stdin(stdin).output().map_err(|e| e.to_string())?;
    let actual = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "exit status {:?}, stderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    diff(expected, &actual).map_or(Ok(()), Err)
}

/// Panics with every failure message if there are any.
pub fn report(label: &str, total: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} of {total} {label} failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Expects `args` to fail with exit status 2, nothing on stdout and a
/// one-line `error: ` message on stderr containing `needle`.
pub fn expect_usage_error(cmd: &mut Command, needle: &str) {
    let out = cmd.output().expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "exit status; stderr: {stderr}");
    assert!(
        out.stdout.is_empty(),
        "stdout not empty: {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(stderr.starts_with("error: "), "stderr: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "stderr should be one line: {stderr}"
    );
    assert!(
        stderr.contains(needle),
        "stderr {stderr:?} should mention {needle:?}"
    );
}

/// Runs `cmd`, which must succeed (its stderr is shown if it does not),
/// and returns what it printed.
pub fn expect_success(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The `ring-treblecross` binary.
pub fn ring_treblecross() -> Command {
    Command::cargo_bin("ring-treblecross").expect("ring-treblecross binary")
}

/// A fresh, empty folder `group/name` under Cargo's temporary folder for
/// integration tests, for one test.
pub fn scratch_in(group: &str, name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch folder");
    dir
}

/// The names in `dir`, sorted.
pub fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The `reversi-lab` binary (the lab's commands: `train ...`, and the
/// `book` subcommands that write books).
pub fn lab() -> Command {
    Command::cargo_bin("reversi-lab").expect("reversi-lab binary")
}

/// The `book` subcommands of `reversi-lab`; `show` and `stats` are
/// `reversi`'s.
pub const LAB_BOOK_SUBCOMMANDS: &[&str] = &[
    "new",
    "deepen",
    "add",
    "search",
    "merge",
    "check",
    "export",
    "import",
    "import-edax",
    "export-edax",
];

/// Whether `args` are a command of the lab's (`train ...`, `book new`...).
pub fn is_lab(args: &[&str]) -> bool {
    match args {
        ["train", ..] => true,
        ["book", sub, ..] => LAB_BOOK_SUBCOMMANDS.contains(sub),
        _ => false,
    }
}

/// The path of the binary that runs `args`: `reversi-lab` for the lab's
/// commands, `reversi` for the others.
pub fn binary_of(args: &[&str]) -> &'static str {
    if is_lab(args) {
        env!("CARGO_BIN_EXE_reversi-lab")
    } else {
        env!("CARGO_BIN_EXE_reversi")
    }
}

/// The binary that runs `args` ([`binary_of`]), with `args` given.
pub fn command_of(args: &[&str]) -> Command {
    let mut cmd = Command::new(binary_of(args));
    cmd.args(args);
    cmd
}
