//! The manuals' shell examples run as written (README.md and the lab's
//! docs/LAB.md): every fenced block line
//! `$ COMMAND` is run by `sh` in a scratch folder that sees the
//! repository's `tests/` (so `tests/data/...` paths work as from a fresh
//! clone), with the built binaries first on `PATH`; the lines up to the
//! next `$ ` line or the end of the block are its exact output: stdout,
//! followed by stderr when the command fails (the README shows error
//! lines, and leaves notes and warnings of successful runs to its prose).
//! Only `"millis":N` values, which are wall times, are not
//! compared. Not run: `reversi play` (its dialog mixes typed lines into the
//! transcript; the dialog tests cover it) and blocks without `$ ` lines.

use crate::harness::report;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One `$ COMMAND` of the README with the output shown under it.
struct Example {
    line: usize,
    command: String,
    output: String,
}

/// The `$ ` examples of every fenced block of `markdown`.
fn examples(markdown: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (i, line) in markdown.lines().enumerate() {
        if line.starts_with("```") {
            in_block = !in_block;
            out.extend(current.take());
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.extend(current.take());
            current = Some(Example {
                line: i + 1,
                command: command.to_string(),
                output: String::new(),
            });
        } else if let Some(e) = current.as_mut() {
            e.output.push_str(line);
            e.output.push('\n');
        }
    }
    out
}

/// `text` with the number after every `"millis":` replaced by `N`.
fn without_times(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\"millis\":") {
        let (head, tail) = rest.split_at(i + "\"millis\":".len());
        out.push_str(head);
        out.push('N');
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// The folder holding the built binaries.
fn binaries() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_reversi"))
        .parent()
        .expect("binary folder")
        .to_path_buf()
}

#[cfg(unix)]
#[test]
fn readme_examples_run_as_written() {
    let run = run_examples("README.md");
    assert!(run >= 20, "only {run} examples found");
}

#[cfg(unix)]
#[test]
fn the_lab_manual_examples_run_as_written() {
    let run = run_examples("docs/LAB.md");
    assert!(run >= 4, "only {run} examples found");
}

/// Runs every example of the manual `name` (a path from the repository's
/// root) in a scratch folder of its own, with `tests/` linked in, and
/// fails on the first manual line whose output differs; returns how many
/// ran.
#[cfg(unix)]
fn run_examples(name: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join(name)).expect(name);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("readme")
        .join(name.replace('/', "-"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch folder");
    std::os::unix::fs::symlink(root.join("tests"), dir.join("tests")).expect("link tests/");
    let path = format!(
        "{}:{}",
        binaries().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let all = examples(&readme);
    let run: Vec<&Example> = all
        .iter()
        .filter(|e| e.command.trim() != "reversi play")
        .collect();
    let mut failures = Vec::new();
    for e in &run {
        let out = Command::new("sh")
            .arg("-c")
            .arg(&e.command)
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .expect("sh");
        let mut actual = String::from_utf8_lossy(&out.stdout).into_owned();
        if !out.status.success() {
            actual.push_str(&String::from_utf8_lossy(&out.stderr));
        }
        if without_times(&actual) != without_times(&e.output) {
            failures.push(format!(
                "{name} line {}: $ {}\n--- {name}\n{}--- actual\n{}---",
                e.line, e.command, e.output, actual
            ));
        }
    }
    report(&format!("{name} examples"), run.len(), &failures);
    run.len()
}
