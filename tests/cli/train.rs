//! `reversi train` over the binary on a tiny data set: generation resumed
//! equals one run, a fit writes a weights file the study commands read,
//! probcut writes its table, and files they did not write are never
//! replaced.

use crate::harness::{expect_usage_error, reversi, scratch_in};
use std::fs;
use std::path::Path;

/// `reversi train generate` of `games` games (seed 3, solved from 10
/// empties) into `out`.
fn generate(out: &Path, games: u32) {
    reversi()
        .args([
            "train",
            "generate",
            "-q",
            "--seed",
            "3",
            "--solve-empties",
            "10",
        ])
        .args(["--games", &games.to_string(), "--out"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn resumed_generation_fits_weights_that_the_engine_reads() {
    let dir = scratch_in("train", "pipeline");
    let (resumed, once) = (dir.join("resumed.txt"), dir.join("once.txt"));
    generate(&resumed, 12);
    generate(&resumed, 30);
    generate(&once, 30);
    let text = fs::read_to_string(&resumed).expect("games");
    assert_eq!(text, fs::read_to_string(&once).expect("games"));
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 30);

    let weights = dir.join("w.bin");
    let out = reversi()
        .args([
            "train", "fit", "-q", "--lambda", "5", "--margin", "4", "--games",
        ])
        .arg(&resumed)
        .arg("--out")
        .arg(&weights)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("| phase | empties |"), "{report}");
    assert!(fs::read(&weights)
        .expect("weights")
        .starts_with(b"RVPATTRN"));
    reversi()
        .args([
            "match",
            "--size",
            "8",
            "--depth",
            "1",
            "--eval",
            "pattern",
            "--weights",
        ])
        .arg(&weights)
        .assert()
        .success();

    // A file that is not a weights file is left alone.
    let notes = dir.join("notes.txt");
    fs::write(&notes, "mine").expect("write");
    let mut fit = reversi();
    fit.args(["train", "fit", "-q", "--games"])
        .arg(&resumed)
        .arg("--out")
        .arg(&notes);
    expect_usage_error(&mut fit, "not replacing");
    let mut probcut = reversi();
    probcut
        .args(["train", "probcut", "-q", "--games"])
        .arg(&resumed)
        .arg("--out")
        .arg(&notes);
    expect_usage_error(&mut probcut, "not replacing");
    assert_eq!(fs::read_to_string(&notes).expect("notes"), "mine");

    // A Multi-ProbCut table is written, and replaced by the next one.
    let table = dir.join("probcut.txt");
    for _ in 0..2 {
        reversi()
            .args([
                "train",
                "probcut",
                "-q",
                "--positions",
                "2",
                "--depth",
                "3",
                "--games",
            ])
            .arg(&resumed)
            .arg("--out")
            .arg(&table)
            .assert()
            .success();
    }
    let text = fs::read_to_string(&table).expect("table");
    assert!(
        text.starts_with("# Multi-ProbCut table fitted by"),
        "{text}"
    );
    let mut wide = reversi();
    wide.args(["train", "fit", "--margin", "31", "--games"])
        .arg(&resumed)
        .arg("--out")
        .arg(&weights);
    expect_usage_error(&mut wide, "margin");
}
