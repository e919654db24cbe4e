//! `reversi play`: the five transcripts of the assignment's front end
//! (`tests/data/reversi-play.md`) byte for byte, and end of input.

use crate::harness::{check_stdout, read_data, report, reversi};

/// One transcript: its name, what the person types, the exact stdout.
pub struct Transcript {
    pub name: String,
    pub stdin: String,
    pub stdout: String,
}

/// Parses `## name` sections with fenced `stdin:` / `stdout:` blocks (and
/// optionally `stderr:`) from a transcript file.
pub fn transcripts(md: &str) -> Vec<(Transcript, Option<String>)> {
    let mut out = Vec::new();
    let mut lines = md.lines().peekable();
    let mut name = String::new();
    let mut blocks: Vec<(String, String)> = Vec::new();
    let flush = |name: &str,
                 blocks: &mut Vec<(String, String)>,
                 out: &mut Vec<(Transcript, Option<String>)>| {
        if name.is_empty() || blocks.is_empty() {
            return;
        }
        let get = |k: &str| blocks.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        out.push((
            Transcript {
                name: name.to_string(),
                stdin: get("stdin").unwrap_or_default(),
                stdout: get("stdout").expect("stdout block"),
            },
            get("stderr"),
        ));
        blocks.clear();
    };
    while let Some(line) = lines.next() {
        if let Some(h) = line.strip_prefix("## ") {
            flush(&name, &mut blocks, &mut out);
            name = h.to_string();
        } else if let Some(label) = line
            .strip_suffix(':')
            .filter(|l| ["stdin", "stdout", "stderr"].contains(l))
        {
            assert_eq!(lines.next(), Some("```"), "fence after {label}:");
            let mut body = String::new();
            for l in lines.by_ref() {
                if l == "```" {
                    break;
                }
                body.push_str(l);
                body.push('\n');
            }
            blocks.push((label.to_string(), body));
        }
    }
    flush(&name, &mut blocks, &mut out);
    out
}

#[test]
fn five_front_end_transcripts() {
    let cases = transcripts(&read_data("reversi-play.md"));
    assert_eq!(cases.len(), 5);
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(t, _)| {
            check_stdout(reversi().arg("play"), &t.stdin, &t.stdout)
                .err()
                .map(|e| format!("{}: {e}", t.name))
        })
        .collect();
    report("play transcripts", cases.len(), &failures);
}

#[test]
fn end_of_input_ends_cleanly() {
    for stdin in ["", "1\n", "1\nyes\n", "3\nx\n", "2\nn\n"] {
        let out = reversi().arg("play").write_stdin(stdin).output().unwrap();
        assert!(out.status.success(), "stdin {stdin:?}: {:?}", out.status);
        assert!(String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("Welcome to Reversi-Tiny!\n"));
    }
}

#[test]
fn wrong_answers_ask_again() {
    let out = reversi()
        .arg("play")
        .write_stdin("3\nabc\n1\nmaybe\n")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches("Do you want to play as player 1 or player 2?")
            .count(),
        3
    );
    assert_eq!(text.matches("Do you want to play first? [Y/n]").count(), 2);
}
