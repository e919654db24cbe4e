//! `reversi nboard`, `reversi gtp`, `reversi hint`, `reversi analyze`:
//! sessions over the real binary's stdin and stdout, a whole game between
//! the two protocols, exact values against the FFO annotations, records.

use crate::harness::{data, expect_usage_error, reversi};
use reversi::game::Game;
use reversi::record::{write_ggf, GameRecord, RecordedMove};
use reversi::reversi::{Move, Position, Reversi};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// A running engine: commands in, reply lines out (read on a thread so a
/// missing reply fails the test instead of hanging it).
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// How long a reply may take before the test gives up: a liveness bound
/// (a search that was not stopped runs for many minutes), not a measurement.
const PATIENCE: Duration = Duration::from_secs(120);

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start reversi");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&self) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("the engine answers (and flushes)")
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// A GTP request and its response (the text after `= `), or the error.
    fn gtp(&mut self, request: &str) -> Result<String, String> {
        self.send(request);
        let first = self.line();
        let mut text = first.clone();
        loop {
            let l = self.line();
            if l.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(&l);
        }
        if let Some(ok) = text.strip_prefix('=') {
            Ok(ok
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim()
                .to_string())
        } else {
            Err(text)
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses a `search PV EVAL 0 DEPTH` line: (first move, eval, depth field).
fn search_line(l: &str) -> (String, f64, String) {
    let w: Vec<&str> = l.split_whitespace().collect();
    assert_eq!(w.len(), 5, "search line {l:?}");
    assert_eq!(w[0], "search");
    assert_eq!(w[3], "0", "{l}");
    let eval: f64 = w[2].parse().unwrap_or_else(|_| panic!("eval of {l:?}"));
    assert!(eval.is_finite(), "{l}");
    let depth = w[4];
    assert!(
        depth == "100%" || depth == "100%W" || depth.parse::<u32>().is_ok(),
        "{l}"
    );
    let first = w[1].split('-').next().unwrap().to_string();
    assert!(first == "PA" || first.len() == 2, "{l}");
    (first, eval, depth.to_string())
}

/// The move named by NBoard (`F5`, `PA`).
fn nboard_move(name: &str) -> Move {
    if name == "PA" {
        Move::Pass
    } else {
        Move::Place(name.to_ascii_lowercase().parse().unwrap())
    }
}

/// An OBF line of the FFO suites: its board string and annotated values.
fn ffo(file: &str, line: usize) -> (String, Vec<(String, i32)>) {
    let text = std::fs::read_to_string(data(&format!("ffo/{file}"))).unwrap();
    let l = text.lines().nth(line - 1).unwrap();
    let (board, notes) = l.split_once(';').unwrap();
    let values = notes
        .split(';')
        .filter_map(|n| n.trim().split_once(':'))
        .map(|(m, v)| (m.trim().to_string(), v.trim().parse().unwrap()))
        .collect();
    (board.trim().to_string(), values)
}

/// The GGF of a position (no moves).
fn ggf_of(board: &str) -> String {
    let (p, _) = reversi::record::parse_board_string(board, 8).unwrap();
    write_ggf(&GameRecord::new(p))
}

/// Before the GUI sends `set depth`, the engine searches at the default
/// level with no clock (it used the strongest level cut by a 5-second
/// default `--time`: an answer that depended on the machine's load): a
/// hint ends at depth 8 and two sessions give the same lines.
#[test]
fn nboard_searches_at_the_default_level_with_no_clock() {
    let after_f5 = "---------------------------OX------XXX-------------------------- O";
    let hint = || {
        let mut e = Engine::start(&["nboard", "--no-book"]);
        e.send("nboard 2");
        e.send(&format!("set game {}", ggf_of(after_f5)));
        e.send("hint 2");
        let mut lines = e.until("status");
        lines.extend(e.until("status"));
        lines
    };
    let first = hint();
    let depths: Vec<&str> = first
        .iter()
        .filter(|l| l.starts_with("search "))
        .filter_map(|l| l.rsplit(' ').next())
        .collect();
    assert_eq!(depths.last(), Some(&"8"), "{first:?}");
    assert!(
        depths
            .iter()
            .all(|d| d.parse::<u32>().is_ok_and(|d| d <= 8)),
        "{first:?}"
    );
    let searches = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("search "))
            .cloned()
            .collect()
    };
    assert_eq!(searches(&first), searches(&hint()));
}

#[test]
fn nboard_hint_is_exact_near_the_end() {
    // FFO #23, 18 empties: a2 +4, d1 -20, h3 -20 (the suite's annotation).
    let (board, values) = ffo("fforum-20-39.obf", 4);
    let mut e = Engine::start(&["nboard", "--exact", "18"]);
    e.send("nboard 2");
    e.send("set depth 4");
    assert_eq!(e.line(), "set myname reversi4");
    e.send(&format!("set game {}", ggf_of(&board)));
    e.send("hint 3");
    let lines = e.until("status");
    assert_eq!(lines[0], "status thinking");
    let last = e.until("status");
    let finals: Vec<(String, f64, String)> = lines[1..]
        .iter()
        .chain(&last)
        .filter(|l| l.starts_with("search"))
        .map(|l| search_line(l))
        .filter(|s| s.2 == "100%")
        .collect();
    assert_eq!(finals.len(), 3, "{lines:?} {last:?}");
    for (i, (mv, eval, _)) in finals.iter().enumerate() {
        assert_eq!(mv, &values[i].0, "{finals:?}");
        assert_eq!(*eval, f64::from(values[i].1), "{finals:?}");
    }
    e.send("go");
    let go = e.until("===");
    assert_eq!(
        go.last().unwrap(),
        &format!(
            "=== A2/4.00/{}",
            go.last().unwrap().rsplit('/').next().unwrap()
        )
    );
    e.send("ping 3");
    assert_eq!(e.line(), "pong 3");
}

#[test]
fn nboard_proves_win_loss_draw_a_little_earlier() {
    // FFO #24, 19 empties, best score 0: a draw, which the proof of
    // win/loss/draw (window -1..1) makes exact: `100%`, 0.
    let (board, values) = ffo("fforum-20-39.obf", 5);
    assert_eq!(values[0].1, 0);
    let mut e = Engine::start(&["nboard", "--exact", "17", "--depth", "2"]);
    e.send("nboard 2");
    e.send(&format!("set game {}", ggf_of(&board)));
    e.send("hint 1");
    e.until("status thinking");
    let lines = e.until("status");
    let proven: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("search"))
        .map(|l| search_line(l))
        .filter(|s| s.2 == "100%")
        .collect();
    assert_eq!(proven.len(), 1, "{lines:?}");
    assert_eq!(proven[0].1, 0.0);
}

/// A position of a random game where the side to move must pass.
fn passing_position() -> GameRecord {
    let game = Reversi::DISC_DIFFERENCE;
    let mut rng = reversi::rng::Rng::new(11);
    loop {
        let mut g = GameRecord::new(Position::start(8));
        loop {
            let p = g.last();
            let moves: Vec<Move> = game.moves(&p).collect();
            if moves.is_empty() {
                break;
            }
            if moves == [Move::Pass] {
                return g;
            }
            g.push(RecordedMove::plain(*rng.pick(&moves))).unwrap();
        }
    }
}

#[test]
fn nboard_answers_a_forced_pass_without_nan() {
    let g = passing_position();
    let mut e = Engine::start(&["nboard", "--depth", "3"]);
    e.send("nboard 2");
    e.send(&format!("set game {}", write_ggf(&g)));
    e.send("hint 2");
    e.until("status thinking");
    let lines = e.until("status");
    let searches: Vec<_> = lines.iter().filter(|l| l.starts_with("search")).collect();
    assert!(!searches.is_empty(), "{lines:?}");
    for l in &searches {
        assert!(!l.contains("NaN"), "{l}");
        assert_eq!(search_line(l).0, "PA", "{l}");
    }
    e.send("go");
    let go = e.until("===");
    assert!(go.last().unwrap().starts_with("=== PA/"), "{go:?}");
    assert!(!go.last().unwrap().contains("NaN"));
}

#[test]
fn nboard_ping_stops_a_long_search_first() {
    // Depth 60 (played as the deepest level, 30) with 1000 s: only the
    // stop flag ends it.
    let mut e = Engine::start(&["nboard", "--time", "1000", "--no-book"]);
    e.send("nboard 2");
    e.send("set depth 60");
    assert_eq!(e.line(), "set myname reversi30");
    e.send("set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)");
    e.send("hint 4");
    assert_eq!(e.line(), "status thinking");
    // The first iteration is reported before the ping is read.
    let first = e.line();
    search_line(&first);
    e.send("ping 7");
    let lines = e.until("pong");
    assert_eq!(lines.last().unwrap(), "pong 7");
    // Nothing of the stopped search comes after the pong.
    e.send("ping 8");
    assert_eq!(e.line(), "pong 8");
    e.send("learn");
    assert_eq!(e.line(), "learned");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// A position with 28 empties, black (`*`) to move, whose exact solve
/// takes minutes: a search asked to be exact there is stopped only by the
/// stop flag or the clock.
const EMPTIES_28: &str = "*****O---*****O-*****O**--O*OO----*OO*O*---O---O--OO-----O-O----";

/// How long an answer that should come at once may take on a loaded
/// machine (the solver reads its stop flag about every millisecond).
const PROMPT: Duration = Duration::from_secs(5);

#[test]
fn nboard_ping_stops_an_endgame_proof_promptly() {
    // Exact from 28 empties with 1000 s: only the ping can end the proof.
    let mut e = Engine::start(&["nboard", "--exact", "28", "--time", "1000"]);
    e.send(&format!(
        "set game (;GM[Othello]TY[8]BO[8 {EMPTIES_28} *];)"
    ));
    e.send("hint 1");
    assert_eq!(e.line(), "status thinking");
    // The estimate (depth 4 at most near the end) is over in
    // milliseconds; a second later the proof is well under way.
    std::thread::sleep(Duration::from_secs(1));
    let sent = Instant::now();
    e.send("ping 1");
    let lines = e.until("pong");
    let waited = sent.elapsed();
    assert_eq!(lines.last().unwrap(), "pong 1");
    assert!(waited < PROMPT, "pong after {waited:?}: {lines:?}");
    // The engine is still sound: a ping is answered, a new hint runs.
    e.send("ping 2");
    assert_eq!(e.line(), "pong 2");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// `hint` and `analyze` with `--exact 30 --time 1` on positions with 27
/// and 28 empties: the proofs stop at the deadline (an exact solve there
/// takes minutes) and the values are the estimate's.
#[test]
fn hint_and_analyze_keep_to_the_time_at_every_exact() {
    let board = format!("{} X", EMPTIES_28.replace('*', "X"));
    for threads in ["1", "2"] {
        let start = Instant::now();
        let out = reversi()
            .args([
                "hint",
                &board,
                "--exact",
                "30",
                "--time",
                "1",
                "--json",
                "--threads",
                threads,
            ])
            .output()
            .unwrap();
        let took = start.elapsed();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("\"empties\":28"), "{text}");
        assert!(text.contains("\"certainty\":\"estimate\""), "{text}");
        assert!(!text.contains("\"certainty\":\"exact\""), "{text}");
        assert!(took < Duration::from_secs(15), "hint took {took:?}");
    }
    // Two moves played from it: two positions analysed, 1 s each.
    let (p, _) = reversi::record::parse_board_string(&board, 8).unwrap();
    let game = Reversi::DISC_DIFFERENCE;
    let mut g = GameRecord::new(p);
    for _ in 0..2 {
        let first = game.moves(&g.last()).next().unwrap();
        g.push(RecordedMove::plain(first)).unwrap();
    }
    let text = format!("{board} {}", reversi::record::write_transcript(&g));
    let start = Instant::now();
    let out = reversi()
        .args(["analyze", &text, "--exact", "30", "--time", "1", "--json"])
        .output()
        .unwrap();
    let took = start.elapsed();
    assert!(out.status.success());
    let json = String::from_utf8_lossy(&out.stdout);
    assert_eq!(json.matches("\"exact\":false").count(), 2, "{json}");
    assert!(took < Duration::from_secs(20), "analyze took {took:?}");
}

#[test]
fn nboard_moves_analysis_and_errors() {
    let mut e = Engine::start(&["nboard", "--depth", "2", "--exact", "12"]);
    e.send("nboard 2");
    e.send("set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)");
    e.send("move F5/0.5/1.0");
    e.send("move d6");
    e.send("move a1");
    let l = e.line();
    assert!(
        l.starts_with("status move a1 refused: a1 is not a legal move for black"),
        "{l}"
    );
    e.send("set game (;GM[Othello]B[f5;)");
    let l = e.line();
    assert!(
        l.starts_with("status cannot read the game: at character"),
        "{l}"
    );
    e.send("some unknown command");
    e.send("move c3");
    e.send("analyze");
    assert_eq!(e.line(), "status analysing");
    let lines = e.until("status");
    let mut seen: Vec<usize> = lines
        .iter()
        .filter(|l| l.starts_with("analysis"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.len(), 3, "{l}");
            assert!(w[2].parse::<f64>().unwrap().is_finite());
            w[1].parse().unwrap()
        })
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, vec![0, 1, 2, 3], "{lines:?}");
}

#[test]
fn gtp_golden_session() {
    let script = "protocol_version\n\
                  1 name\n\
                  2 version\n\
                  known_command genmove\n\
                  known_command fly\n\
                  boardsize 7\n\
                  boardsize 8\n\
                  clear_board\n\
                  play b f5\n\
                  play w a1\n\
                  play x f5\n\
                  # a comment\n\
                  \n\
                  showboard\n\
                  final_score\n\
                  undo\n\
                  undo\n\
                  frobnicate\n\
                  3 quit\n\
                  name\n";
    let out = reversi().arg("gtp").write_stdin(script).output().unwrap();
    assert!(out.status.success());
    let expected = format!(
        "= 2\n\n=1 reversi\n\n=2 {}\n\n= true\n\n= false\n\n? unacceptable size\n\n=\n\n=\n\n\
         =\n\n? illegal move: a1 is not a legal move for white\n\n? syntax error: invalid color\n\n\
         = \n   A B C D E F G H\n 1 . . . . . . . .\n 2 . . . . . . . .\n 3 . . . . . . . .\n\
         \x204 . . . O X . . .\n 5 . . . X X X . .\n 6 . . . . . . . .\n 7 . . . . . . . .\n\
         \x208 . . . . . . . .\nX 4 O 1, white to move\n\n= B+3\n\n=\n\n? cannot undo\n\n\
         ? unknown command\n\n=3\n\n",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

#[test]
fn gtp_lists_what_it_knows() {
    let mut e = Engine::start(&["gtp"]);
    let list = e.gtp("list_commands").unwrap();
    for c in list.lines() {
        assert_eq!(e.gtp(&format!("known_command {c}")).unwrap(), "true");
    }
    for c in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "time_settings",
        "time_left",
        "quit",
    ] {
        assert!(list.lines().any(|l| l == c), "{c} missing from {list}");
    }
    assert_eq!(e.gtp("time_settings 60 0 0"), Ok(String::new()));
    assert_eq!(e.gtp("time_left b 30 0"), Ok(String::new()));
    let mv = e.gtp("genmove b").unwrap();
    assert!(["D3", "C4", "F5", "E6"].contains(&mv.as_str()), "{mv}");
    assert!(e.gtp("genmove b").unwrap_err().contains("white is to move"));
}

/// Our GTP engine (black) against our NBoard engine (white), every move
/// checked against the rules and the score against a replay.
#[test]
fn gtp_plays_nboard_a_whole_game() {
    let mut black = Engine::start(&["gtp", "--depth", "2", "--exact", "10"]);
    let mut white = Engine::start(&["nboard", "--exact", "10"]);
    white.send("nboard 2");
    white.send("set depth 2");
    white.until("set myname");
    white.send("set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)");
    let game = Reversi::DISC_DIFFERENCE;
    let mut record = GameRecord::new(Position::start(8));
    let mut ping = 0;
    loop {
        let p = record.last();
        if game.is_terminal(&p) {
            break;
        }
        let mv = if p.to_move == reversi::board::Color::Black {
            let v = black.gtp("genmove b").unwrap();
            let mv = if v == "pass" {
                Move::Pass
            } else {
                Move::Place(v.to_ascii_lowercase().parse().unwrap())
            };
            white.send(&format!("move {}", if v == "pass" { "PA" } else { &v }));
            mv
        } else {
            white.send("go");
            let reply = white.until("===").pop().unwrap();
            let name = reply["=== ".len()..].split('/').next().unwrap().to_string();
            let mv = nboard_move(&name);
            white.send(&format!("move {name}"));
            let v = if name == "PA" {
                "pass".to_string()
            } else {
                name
            };
            black.gtp(&format!("play w {v}")).unwrap();
            mv
        };
        record
            .push(RecordedMove::plain(mv))
            .unwrap_or_else(|e| panic!("move {} {mv}: {e}", record.moves.len() + 1));
        // The NBoard engine's position agrees: it must not refuse a move.
        ping += 1;
        white.send(&format!("ping {ping}"));
        assert_eq!(white.line(), format!("pong {ping}"));
    }
    let score = record.final_score().unwrap();
    let expected = match score {
        0 => "0".to_string(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    };
    assert_eq!(black.gtp("final_score").unwrap(), expected);
    assert!(record.moves.len() >= 58);
}

/// After f5d6c3, a depth-3 search values f4 at a zero reached from
/// below (the negation of a zero); no value is written as `-0.00`.
#[test]
fn hint_and_analyze_never_write_a_negative_zero() {
    let run = |args: &[&str]| {
        let out = reversi().args(args).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run(&[
        "hint",
        "--depth",
        "3",
        "--moves",
        "10",
        "--no-book",
        "f5d6c3",
    ]);
    assert!(text.contains("+0.00"), "no zero value to check: {text}");
    assert!(!text.contains("-0.00"), "{text}");
    let json = run(&[
        "hint",
        "--depth",
        "3",
        "--moves",
        "10",
        "--json",
        "--no-book",
        "f5d6c3",
    ]);
    assert!(
        json.contains("\"value\":0.00,"),
        "no zero value to check: {json}"
    );
    assert!(!json.contains("-0.00"), "{json}");
    let analysis = run(&["analyze", "--depth", "3", "--no-book", "f5d6c3d3c4"]);
    assert!(
        analysis.contains("+0.00"),
        "no zero value to check: {analysis}"
    );
    assert!(!analysis.contains("-0.00"), "{analysis}");
    let json = run(&["analyze", "--depth", "3", "--json", "f5d6c3d3c4"]);
    assert!(!json.contains("-0.00"), "{json}");
}

#[test]
fn hint_gives_exact_values_and_json() {
    let (board, values) = ffo("fforum-20-39.obf", 4);
    let out = reversi()
        .args(["hint", &board, "--moves", "3", "--json", "--exact", "18"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for (mv, v) in &values[..3] {
        let needle = format!(
            "{{\"move\":\"{}\",\"value\":{v}.00,\"certainty\":\"exact\"",
            mv.to_ascii_lowercase()
        );
        assert!(text.contains(&needle), "{needle} in {text}");
    }
    assert_eq!(text.lines().count(), 1);
    // The board string may also come as two words, with moves after it.
    let (squares, side) = board.split_once(' ').unwrap();
    let out = reversi()
        .args(["hint", squares, side, "a2", "--moves", "1", "--exact", "18"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // After a2 (+4 for black) white's best is worth -4.
    assert!(
        text.lines().nth(1).unwrap().contains("-4.00  exact"),
        "{text}"
    );
}

/// The first 41 moves of WTHOR 1984's first game (Ralle - Torcia): 19
/// empty squares, white to move, every move a proved loss.
const WTHOR_1984_1_AT_19: &str =
    "f5f6e6f4g6f7g5h4h5h6e3c5g4d6e7f8c6c4d7d3e8e2f3h3b5a5e1f1g1g3g8c7f2g2d2c3h1h2d1c8c2";

/// A proof of win/loss/draw is shown as the outcome with an estimate that
/// agrees with it, never as +/-1 discs (which made every move of a lost
/// position "-1.00 win-loss-draw" at level 8); the moves are ranked by the
/// estimate.
#[test]
fn hint_shows_a_proof_as_its_outcome_never_as_one_disc() {
    let out = reversi()
        .args(["hint", "--level", "8", "--moves", "5", WTHOR_1984_1_AT_19])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // The board, the opening's name, then the moves.
    assert!(
        text.lines().nth(1).unwrap().starts_with("opening: "),
        "{text}"
    );
    let rows: Vec<&str> = text.lines().skip(2).collect();
    assert_eq!(rows.len(), 5, "{text}");
    let mut values = Vec::new();
    for row in &rows {
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[2..4], ["proved", "loss"], "{text}");
        let v: f64 = words[1]
            .strip_prefix('~')
            .expect("an estimate")
            .parse()
            .unwrap();
        assert!(v <= -2.0, "{text}");
        values.push(v);
    }
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{text}");
    assert!(values[0] > values[4], "every move valued alike: {text}");
    let out = reversi()
        .args([
            "hint",
            "--level",
            "8",
            "--moves",
            "60",
            "--json",
            WTHOR_1984_1_AT_19,
        ])
        .output()
        .unwrap();
    let json = String::from_utf8(out.stdout).unwrap();
    let moves: Vec<&str> = json.split("{\"move\":").skip(1).collect();
    assert_eq!(moves.len(), 5, "{json}");
    for m in moves {
        assert!(
            m.contains("\"certainty\":\"win-loss-draw\",\"outcome\":\"loss\""),
            "{m}"
        );
        let value = m.split("\"value\":").nth(1).unwrap();
        let value: f64 = value[..value.find(',').unwrap()].parse().unwrap();
        assert!(value <= -2.0, "{m}");
    }
}

/// `reversi ARGS` run to success: its stdout.
fn stdout_of_reversi(args: &[&str]) -> String {
    let out = reversi().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The number after `"key":` in `json` (the first one after `from`).
fn json_number(json: &str, from: &str, key: &str) -> f64 {
    let at = json
        .find(from)
        .unwrap_or_else(|| panic!("{from} in {json}"));
    let rest = &json[at..];
    let v = &rest[rest.find(&format!("\"{key}\":")).unwrap() + key.len() + 3..];
    v[..v.find([',', '}']).unwrap()].parse().unwrap()
}

/// A level is a depth: the same position at the same level has one value
/// from `hint` and from `analyze`, whatever the record's length (the
/// backward pass reused one search's table across positions: after 18
/// moves of WTHOR 1984 game 1, analyze valued c4 -7.61, and -4.44 when the
/// record held one more move) and with no option (a default level, no
/// clock).
#[test]
fn hint_and_analyze_give_one_value_per_position_and_level() {
    let g18 = &WTHOR_1984_1_AT_19[..36];
    let g19 = &WTHOR_1984_1_AT_19[..38];
    let g20 = &WTHOR_1984_1_AT_19[..40];
    assert_eq!(&g19[36..], "d7");
    let short = stdout_of_reversi(&["analyze", "--level", "8", "--json", g18]);
    let long = stdout_of_reversi(&["analyze", "--level", "8", "--json", g19]);
    let longer = stdout_of_reversi(&["analyze", "--json", g20]);
    let row = |n: u32| format!("{{\"number\":{n},");
    for key in ["value", "best_value"] {
        let v = json_number(&short, &row(18), key);
        assert_eq!(
            v,
            json_number(&long, &row(18), key),
            "{key}: {short}\n{long}"
        );
        assert_eq!(v, json_number(&longer, &row(18), key), "{key}: {longer}");
        let v = json_number(&long, &row(19), key);
        assert_eq!(v, json_number(&longer, &row(19), key), "{key}: {longer}");
    }
    // The certainty as hint's JSON gives it: its kind and depth.
    assert!(
        long.contains("\"certainty\":\"estimate\",\"depth\":8"),
        "{long}"
    );
    // hint's best move there is analyze's best at move 19.
    for args in [
        &["hint", "--level", "8", "--json", g18][..],
        &["hint", "--json", g18],
    ] {
        let hint = stdout_of_reversi(args);
        assert!(hint.contains("\"cut\":false"), "{hint}");
        let best = json_number(&hint, "\"moves\"", "value");
        assert_eq!(
            best,
            json_number(&long, &row(19), "best_value"),
            "{hint}\n{long}"
        );
    }
    assert!(longer.contains("\"cut\":0"), "{longer}");
}

/// `--until N` reads a record's first N moves: `hint` gives the position
/// after them, `analyze` one row for each, the same values as the record cut
/// by hand; a record shorter than N is refused in one line.
#[test]
fn hint_and_analyze_stop_at_a_move_of_the_record() {
    let whole = &WTHOR_1984_1_AT_19[..40];
    let g18 = &WTHOR_1984_1_AT_19[..36];
    let cut = stdout_of_reversi(&["analyze", "--level", "4", "--until", "18", whole]);
    assert_eq!(cut, stdout_of_reversi(&["analyze", "--level", "4", g18]));
    assert!(cut.contains("\n 18  "), "{cut}");
    assert!(!cut.contains("\n 19  "), "{cut}");
    let hint = stdout_of_reversi(&["hint", "--level", "4", "--until", "18", whole]);
    assert_eq!(hint, stdout_of_reversi(&["hint", "--level", "4", g18]));
    assert_ne!(hint, stdout_of_reversi(&["hint", "--level", "4", whole]));
    let start = stdout_of_reversi(&["hint", "--level", "2", "--until", "0", whole]);
    assert!(
        start.starts_with("---------------------------OX------XO--------------------------- X\n"),
        "{start}"
    );
    for command in ["hint", "analyze"] {
        expect_usage_error(
            reversi().args([command, "--until", "21", whole]),
            "--until 21: the record holds 20 moves, not 21",
        );
    }
    expect_usage_error(reversi().args(["hint", "--until", "-1", whole]), "--until");
}

/// `--time` is the user's: a search it cuts says so.
#[test]
fn a_search_cut_by_the_time_says_so() {
    let text = stdout_of_reversi(&["hint", "--level", "30", "--time", "0.05", "--no-book", "f5"]);
    assert!(text.ends_with("(they depend on the machine)\n"), "{text}");
    let text = stdout_of_reversi(&["hint", "--level", "3", "--no-book", "f5"]);
    assert!(!text.contains("cut by"), "{text}");
}

#[test]
fn hint_and_analyze_reject_bad_records_in_one_line() {
    expect_usage_error(
        reversi().args(["hint", "f5d6c3d6"]),
        "at move 4 (character 7): d6 is not a legal move for white",
    );
    expect_usage_error(
        reversi().args(["analyze", "(;GM[Othello]TY[10];)"]),
        "board size 10",
    );
    expect_usage_error(
        reversi().args(["analyze", "(;GM[Othello]B[f5;)"]),
        "without its",
    );

    // A record argument naming no file, but looking like a file's name,
    // says why the file cannot be read; a one-word record keeps the
    // parser's message (the first case above).
    let dir = std::env::temp_dir().join(format!("reversi-missing-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (command, arg, needle) in [
        (
            "analyze",
            "game.ggf",
            "cannot read record file game.ggf: No such file or directory",
        ),
        (
            "hint",
            "moves.txt",
            "cannot read record file moves.txt: No such file or directory",
        ),
        (
            "hint",
            "games/x",
            "cannot read record file games/x: No such file or directory",
        ),
        (
            "analyze",
            "sub",
            "cannot read record file sub: Is a directory",
        ),
        ("hint", "f5d6c3.x9", "cannot read record file f5d6c3.x9"),
        ("hint", "fifth", "\"fifth\" is not a move"),
    ] {
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        expect_usage_error(reversi().current_dir(&dir).args([command, arg]), needle);
    }
    // A file that exists is read, and its record's problem is reported.
    std::fs::write(dir.join("game.txt"), "f5d6c3d6\n").unwrap();
    expect_usage_error(
        reversi().current_dir(&dir).args(["analyze", "game.txt"]),
        "d6 is not a legal move for white",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_is_exact_at_the_end_and_sums_the_losses() {
    // FFO #1 (14 empties) played out by the moves below; every position
    // has at most 14 empties, so every value is exact.
    let (board, _) = ffo("fforum-1-19.obf", 1);
    let (p, _) = reversi::record::parse_board_string(&board, 8).unwrap();
    let game = Reversi::DISC_DIFFERENCE;
    let mut g = GameRecord::new(p);
    let mut rng = reversi::rng::Rng::new(5);
    while !game.is_terminal(&g.last()) {
        let moves: Vec<Move> = game.moves(&g.last()).collect();
        g.push(RecordedMove::plain(*rng.pick(&moves))).unwrap();
    }
    let text = format!("{board} {}", reversi::record::write_transcript(&g));
    let out = reversi()
        .args(["analyze", &text, "--json", "--exact", "14"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = String::from_utf8_lossy(&out.stdout).to_string();
    // The first move's best value is the FFO score of the position (+18).
    assert!(json.contains("\"number\":1,\"color\":\"black\""), "{json}");
    let best = |s: &str| -> f64 {
        let i = s.find("\"best_value\":").unwrap() + 13;
        s[i..].split(',').next().unwrap().parse().unwrap()
    };
    assert_eq!(best(&json), 18.0);
    let moves: Vec<&str> = json.split("{\"number\"").skip(1).collect();
    assert_eq!(moves.len(), g.moves.len());
    let field = |s: &str, k: &str| -> f64 {
        let i = s.find(&format!("\"{k}\":")).unwrap() + k.len() + 3;
        s[i..].split([',', '}']).next().unwrap().parse().unwrap()
    };
    let mut losses = [0.0, 0.0];
    for m in &moves {
        assert!(m.contains("\"exact\":true"), "{m}");
        let loss = field(m, "loss");
        assert_eq!(loss, field(m, "best_value") - field(m, "value"));
        losses[usize::from(m.contains("\"white\""))] += loss;
    }
    // The last move's value is the final score from the mover's side.
    let last = moves.last().unwrap();
    let last_mover_black = last.contains("\"color\":\"black\"");
    let score = f64::from(g.final_score().unwrap());
    assert_eq!(
        field(last, "value"),
        if last_mover_black { score } else { -score }
    );
    let total = |k: &str| {
        let i = json.find(&format!("\"{k}\":")).unwrap() + k.len() + 3;
        json[i..]
            .split([',', '}'])
            .next()
            .unwrap()
            .parse::<f64>()
            .unwrap()
    };
    assert!((total("black") - losses[0]).abs() < 0.011);
    assert!((total("white") - losses[1]).abs() < 0.011);
}

#[test]
fn match_starts_from_a_record_and_writes_its_game() {
    let out = reversi()
        .args([
            "match", "--size", "8", "--depth", "1", "--from", "f5d6c3", "--record", "ggf",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let ggf = text.lines().last().unwrap();
    let g = reversi::record::parse_ggf(ggf).expect("the GGF reads back, every move legal");
    assert_eq!(&reversi::record::write_transcript(&g)[..6], "f5d6c3");
    let last = g.last();
    assert!(last.board.is_game_over());
    let score_line = text.lines().find(|l| l.starts_with("Score")).unwrap();
    assert!(
        score_line.starts_with(&format!(
            "Score (black minus white): {} ",
            last.board.disc_difference()
        )),
        "{score_line}"
    );
    // From a board string: the transcript starts with it.
    let (board, _) = ffo("fforum-1-19.obf", 1);
    let out = reversi()
        .args([
            "match",
            "--size",
            "8",
            "--depth",
            "1",
            "--from",
            &board,
            "--record",
            "transcript",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json = String::from_utf8_lossy(&out.stdout);
    let record = json
        .split("\"record\":\"")
        .nth(1)
        .unwrap()
        .trim_end()
        .trim_end_matches("\"}");
    let g = reversi::record::parse_game(record, 8).unwrap();
    assert_eq!(
        g.start,
        reversi::record::parse_board_string(&board, 8).unwrap().0
    );
    assert!(g.last().board.is_game_over());
    expect_usage_error(
        reversi().args(["match", "--size", "4", "--record", "ggf"]),
        "8x8 games only",
    );
    expect_usage_error(
        reversi().args(["match", "--size", "8", "--from", "f5f5"]),
        "at move 2 (character 3)",
    );
}

#[test]
fn play_starts_from_a_record() {
    let out = reversi()
        .args(["play", "--size", "8", "--from", "F5 D6"])
        .write_stdin("quit\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    // After f5 d6 black's legal moves (from the rules, in reading order).
    let g = reversi::record::parse_transcript("f5d6", Position::start(8)).unwrap();
    let legal: Vec<String> = Reversi::DISC_DIFFERENCE
        .moves(&g.last())
        .map(|m| m.to_string())
        .collect();
    assert!(
        text.contains(&format!("black (X) to move; legal: {}", legal.join(" "))),
        "{text}"
    );
}

/// A middle-game position: the game after 20 moves of a seeded random
/// game, with its legal moves.
fn midgame_record() -> (GameRecord, Vec<Move>) {
    let game = Reversi::DISC_DIFFERENCE;
    let mut rng = reversi::rng::Rng::new(31);
    loop {
        let mut g = GameRecord::new(Position::start(8));
        while g.moves.len() < 20 && !game.is_terminal(&g.last()) {
            let moves: Vec<Move> = game.moves(&g.last()).collect();
            g.push(RecordedMove::plain(*rng.pick(&moves))).unwrap();
        }
        let legal: Vec<Move> = game.moves(&g.last()).collect();
        if legal.len() > 1 {
            return (g, legal);
        }
    }
}

#[test]
fn nboard_set_depth_is_the_level_of_the_midgame_search() {
    let (g, legal) = midgame_record();
    let mut e = Engine::start(&["nboard"]);
    e.send("nboard 2");
    e.send("set depth 5");
    assert_eq!(e.line(), "set myname reversi5");
    e.send(&format!("set game {}", write_ggf(&g)));
    e.send("go");
    let go = e.until("===");
    let name = go.last().unwrap()["=== ".len()..]
        .split('/')
        .next()
        .unwrap();
    assert!(legal.contains(&nboard_move(name)), "{go:?}");
    // The hint ranks every legal move, the last ranking 5 plies deep.
    e.send(&format!("hint {}", legal.len()));
    assert_eq!(e.line(), "status thinking");
    let lines = e.until("status");
    let searches: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("search"))
        .map(|l| search_line(l))
        .collect();
    let last = &searches[searches.len() - legal.len()..];
    let mut seen: Vec<Move> = last.iter().map(|s| nboard_move(&s.0)).collect();
    seen.sort_by_key(|m| m.to_string());
    let mut want = legal.clone();
    want.sort_by_key(|m| m.to_string());
    assert_eq!(seen, want, "{lines:?}");
    assert!(last.iter().all(|s| s.2 == "5"), "{lines:?}");
}

#[test]
fn gtp_and_hint_play_at_a_level() {
    let (g, legal) = midgame_record();
    let mut e = Engine::start(&["gtp", "--level", "5"]);
    let color = |p: &Position| match p.to_move {
        reversi::board::Color::Black => "b",
        reversi::board::Color::White => "w",
    };
    for (m, p) in g.moves.iter().zip(g.positions()) {
        e.gtp(&format!("play {} {}", color(&p), m.mv)).unwrap();
    }
    let mv = e.gtp(&format!("genmove {}", color(&g.last()))).unwrap();
    let mv = Move::Place(mv.to_ascii_lowercase().parse().unwrap());
    assert!(legal.contains(&mv), "{mv}");

    let transcript = reversi::record::write_transcript(&g);
    let out = reversi()
        .args([
            "hint",
            &transcript,
            "--level",
            "4",
            "--moves",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("\"depth\":4").count(), 2, "{text}");
    expect_usage_error(
        reversi().args(["hint", &transcript, "--level", "4", "--depth", "3"]),
        "cannot be used with",
    );
    expect_usage_error(
        reversi().args(["gtp", "--level", "0"]),
        "0 is not in 1..=30",
    );
}

/// In a position of the built-in opening book NBoard's hint lines are
/// `book PV EVAL GAMES DEPTH` (the values `reversi hint` gives from the
/// book), and `go` plays the book's best move; without the book they are
/// searches.
#[test]
fn nboard_hints_from_the_book_are_book_lines() {
    let hint = {
        let out = reversi()
            .args(["hint", "--moves", "3", "f5"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let best: Vec<(String, f64)> = hint
        .lines()
        .skip(1)
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[0].to_uppercase(), w[1].parse().unwrap())
        })
        .collect();
    let mut e = Engine::start(&["nboard", "--depth", "3"]);
    e.send("nboard 2");
    e.send("set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)");
    e.send("hint 3");
    e.until("status thinking");
    let lines = e.until("status");
    let books: Vec<(String, f64)> = lines
        .iter()
        .filter(|l| l.starts_with("book "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.len(), 5, "{l}");
            assert_eq!(w[4], "12", "{l}");
            (w[1][..2].to_string(), w[2].parse().unwrap())
        })
        .collect();
    assert_eq!(books, best, "{lines:?}");
    e.send("go");
    let go = e.until("===");
    assert!(
        go.last()
            .unwrap()
            .starts_with(&format!("=== {}", best[0].0)),
        "{go:?}"
    );
    let mut searching = Engine::start(&["nboard", "--depth", "2", "--no-book"]);
    searching.send("nboard 2");
    searching.send("set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)");
    searching.send("hint 1");
    searching.until("status thinking");
    let lines = searching.until("status");
    assert!(lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
}

/// One record per record argument or file, in every form: a GGF game
/// followed by a second game or by anything else is refused (it was read
/// as its first game, exit 0), as PGN and `.gam` texts of two games are;
/// a file's UTF-8 byte-order mark is read as nothing, as the server's
/// upload reads it (a PGN file with one was refused).
#[test]
fn a_record_argument_or_file_is_one_game_and_a_byte_order_mark_is_nothing() {
    let dir = std::env::temp_dir().join(format!("reversi-one-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bo = "BO[8 ---------------------------O*------*O--------------------------- *]";
    let ggf = format!("(;GM[Othello]{bo}B[f5]W[d6];)");
    for after in [ggf.clone(), "garbage".to_string()] {
        let two = format!("{ggf}\n{after}\n");
        expect_usage_error(
            reversi().args(["hint", "--depth", "1", "--no-book", &two]),
            "text after the end of the GGF game",
        );
        std::fs::write(dir.join("two.ggf"), &two).unwrap();
        expect_usage_error(
            reversi()
                .current_dir(&dir)
                .args(["analyze", "--depth", "1", "--no-book", "two.ggf"]),
            "text after the end of the GGF game",
        );
    }
    let pgn = std::fs::read_to_string(data("wthor/wthor-sample.pgn")).unwrap();
    let first = pgn.split("\n\n").next().unwrap().to_string() + "\n";
    for (name, text) in [("game.pgn", first.as_str()), ("game.ggf", ggf.as_str())] {
        let args = ["hint", "--depth", "1", "--no-book", "--until", "2", name];
        std::fs::write(dir.join(name), text).unwrap();
        let out = reversi().current_dir(&dir).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::write(
            dir.join(name),
            format!("\u{feff}{}", text.replace('\n', "\r\n")),
        )
        .unwrap();
        let marked = reversi().current_dir(&dir).args(args).output().unwrap();
        assert!(
            marked.status.success(),
            "{name} with a byte-order mark: {}",
            String::from_utf8_lossy(&marked.stderr)
        );
        assert_eq!(marked.stdout, out.stdout, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The exact value for the side to move of `p` by brute force (every
/// line played out; the empty squares go to the winner).
fn brute_force_value(p: &Position) -> i32 {
    let game = Reversi::DISC_DIFFERENCE;
    if game.is_terminal(p) {
        let black = reversi::record::standard_score(&p.board);
        return if p.to_move == reversi::board::Color::Black {
            black
        } else {
            -black
        };
    }
    game.moves(p)
        .map(|m| {
            let next = game.play(p, m);
            let v = brute_force_value(&next);
            if next.to_move == p.to_move {
                v
            } else {
                -v
            }
        })
        .max()
        .expect("a move")
}

/// `analyze --time T` however short: the positions of at most 3 empty
/// squares are always solved (a forced pass with one square left was
/// shown as an estimate of -4.00 when the exact value was -32).
#[test]
fn the_last_empty_squares_are_solved_whatever_the_time() {
    let (board, _) = ffo("fforum-1-19.obf", 1);
    let (p, _) = reversi::record::parse_board_string(&board, 8).unwrap();
    let game = Reversi::DISC_DIFFERENCE;
    let mut checked = 0;
    for seed in 1..=6 {
        let mut g = GameRecord::new(p);
        let mut rng = reversi::rng::Rng::new(seed);
        while !game.is_terminal(&g.last()) {
            let moves: Vec<Move> = game.moves(&g.last()).collect();
            g.push(RecordedMove::plain(*rng.pick(&moves))).unwrap();
        }
        let text = format!("{board} {}", reversi::record::write_transcript(&g));
        let json = stdout_of_reversi(&["analyze", &text, "--json", "--time", "0.000001"]);
        let rows: Vec<&str> = json.split("{\"number\"").skip(1).collect();
        assert_eq!(rows.len(), g.moves.len(), "{json}");
        for (row, position) in rows.iter().zip(g.positions()) {
            if position.board.empty().count_ones() > 3 {
                continue;
            }
            assert!(row.contains("\"exact\":true"), "seed {seed}: {row}");
            let best = json_number(row, "\"best_value\"", "best_value");
            assert_eq!(
                best,
                f64::from(brute_force_value(&position)),
                "seed {seed}: {row}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked} positions of 1-3 empty squares");
}
