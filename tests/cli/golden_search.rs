//! The searches against golden outputs made before they were made faster
//! (issue 49): `reversi hint` at levels 1 to 13 on 340 positions of the
//! WTHOR 2023 games (values, moves, principal lines, node counts) and
//! `reversi solve` on 44 FFO positions (scores, moves, node counts), one
//! thread each, which must stay byte for byte what they were. The golden
//! files (tests/data/midgame/, made by scripts/search_golden.sh) name the
//! weights and Multi-ProbCut table they were made with: other embedded
//! ones need golden outputs made anew, with a binary whose search is
//! known to be unchanged.

use super::harness::{read_data, reversi};
use reversi::eval::pattern::PatternWeights;

/// The golden file's cases as (arguments, output), after checking that
/// its header names the embedded weights and Multi-ProbCut table.
fn cases(name: &str) -> Vec<(String, String)> {
    let text = read_data(&format!("midgame/{name}"));
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    let probcut = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/data/probcut.txt"))
        .expect("data/probcut.txt");
    let fnv = probcut.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    });
    let expected = format!(
        "# weights {:016x} probcut {fnv:016x}",
        PatternWeights::embedded().checksum()
    );
    assert_eq!(
        header, expected,
        "{name} was made with other weights or another Multi-ProbCut table: make it anew \
         (scripts/search_golden.sh) with a binary whose search is known to be unchanged"
    );
    lines
        .map(|l| {
            let (args, out) = l.split_once('\t').expect("ARGS<TAB>OUTPUT");
            (args.to_string(), out.to_string())
        })
        .collect()
}

/// `out` without its `,"millis":N` field.
fn timeless(out: &str) -> String {
    match out.find(",\"millis\":") {
        Some(at) => {
            let rest = &out[at + 10..];
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            format!("{}{}", &out[..at], &rest[end..])
        }
        None => out.to_string(),
    }
}

/// Runs each case whose arguments start with `prefix` (`command` then its
/// fixed arguments then the case's) and compares its output with the
/// golden one; returns how many ran.
fn check(file: &str, command: &[&str], prefix: &str, case_args: fn(&str) -> Vec<String>) -> usize {
    let mut ran = 0;
    let mut wrong = Vec::new();
    for (args, golden) in cases(file) {
        if !args.starts_with(prefix) {
            continue;
        }
        let out = reversi()
            .args(command)
            .args(case_args(&args))
            .output()
            .expect("reversi runs");
        assert!(out.status.success(), "{args}: {out:?}");
        let actual = timeless(String::from_utf8_lossy(&out.stdout).trim_end());
        if actual != golden {
            wrong.push(format!("{args}\n  golden: {golden}\n  now:    {actual}"));
        }
        ran += 1;
    }
    assert!(
        wrong.is_empty(),
        "{} of {ran} outputs differ from the golden ones; the first:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(3)].join("\n")
    );
    ran
}

/// `reversi hint --no-book --json --threads 1` with the cases of
/// hint-golden.tsv starting with `prefix`.
fn hint(prefix: &str) -> usize {
    check(
        "hint-golden.tsv",
        &["hint", "--no-book", "--json", "--threads", "1"],
        prefix,
        |args| args.split_whitespace().map(str::to_string).collect(),
    )
}

#[test]
fn hint_at_level_1_is_golden() {
    assert_eq!(hint("--level 1 "), 300);
}

#[test]
fn hint_at_level_5_is_golden() {
    assert_eq!(hint("--level 5 --exact 0 "), 300);
}

#[test]
fn hint_at_level_9_is_golden() {
    assert_eq!(hint("--level 9 "), 300);
}

#[test]
fn hint_at_level_13_is_golden() {
    assert_eq!(hint("--level 13 "), 40);
}

#[test]
fn hint_of_three_moves_at_level_7_is_golden() {
    assert_eq!(hint("--level 7 "), 100);
}

#[test]
fn hint_with_win_loss_draw_proofs_at_level_5_is_golden() {
    assert_eq!(hint("--level 5 --moves 2 "), 30);
}

#[test]
fn solve_is_golden() {
    let ran = check(
        "solve-golden.tsv",
        &["solve", "--json", "--threads", "1", "-q"],
        "",
        |board| vec!["--obf".to_string(), format!("{board};")],
    );
    assert_eq!(ran, 44);
}
