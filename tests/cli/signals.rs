//! SIGINT, SIGTERM and SIGHUP sent to every long command mid-run: each
//! stops within moments and dies by the same signal (as a shell or a
//! scheduler sees a stop; not an exit status of 128 + it), leaves no
//! temporary file, keeps its resumable file's whole lines, and a second
//! run continues where the first stopped (a stopped shard merges to the
//! bytes of an uninterrupted run).

#![cfg(unix)]

use crate::harness::{binary_of, data, lab, listing, scratch_in, train_generate};
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How long a stopped command may take to end before the test calls it a
/// command that ignores the signal (generous: CI machines are loaded).
const STOP_WITHIN: Duration = Duration::from_secs(5);

/// The three signals.
const SIGNALS: [(i32, &str); 3] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
];

/// `reversi ARGS` started in `dir`, its output thrown away, with the
/// three signals' default dispositions: a test run started in the
/// background by a non-interactive shell ignores SIGINT, its children
/// inherit that, and a command keeps a signal ignored at its start
/// (`nohup`'s rule), so without the reset every SIGINT case would fail.
fn start(dir: &Path, args: &[&str]) -> Child {
    spawn(dir, args, Stdio::null(), None)
}

/// `reversi ARGS` started in `dir` with stdout to `stdout`, the three
/// signals at their defaults but `ignored` (if any) ignored.
fn spawn(dir: &Path, args: &[&str], stdout: Stdio, ignored: Option<i32>) -> Child {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(binary_of(args));
    cmd.current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null());
    // SAFETY: signal(2) between fork and exec, async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            for (signal, _) in SIGNALS {
                let disposition = if Some(signal) == ignored {
                    libc::SIG_IGN
                } else {
                    libc::SIG_DFL
                };
                libc::signal(signal, disposition);
            }
            Ok(())
        });
    }
    cmd.spawn().expect("spawn reversi")
}

/// Whether `path` holds at least `lines` newlines.
fn has_lines(path: &Path, lines: usize) -> bool {
    fs::read(path).is_ok_and(|b| b.iter().filter(|&&c| c == b'\n').count() >= lines)
}

/// Waits until `ready()` (at most 60 s, then goes on anyway: the command
/// is stopped wherever it is), sends `signal`, and returns how the command
/// ended (`None`: it did not end within [`STOP_WITHIN`]) and the time it
/// took to end after the signal.
fn stop(
    child: &mut Child,
    signal: i32,
    ready: &dyn Fn() -> bool,
) -> (Option<ExitStatus>, Duration) {
    let waiting = Instant::now();
    while !ready() && waiting.elapsed() < Duration::from_secs(60) {
        if child.try_wait().expect("try_wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    let sent = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return (Some(status), sent.elapsed());
        }
        if sent.elapsed() > STOP_WITHIN {
            let _ = child.kill();
            let _ = child.wait();
            return (None, sent.elapsed());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Temporary files the program left in `dir`.
fn leftovers(dir: &Path) -> Vec<String> {
    listing(dir)
        .into_iter()
        .filter(|n| n.starts_with(".reversi-"))
        .collect()
}

/// One long command: how to start it in a folder prepared by `prepare`,
/// when it is busy, and the file it leaves whole (if any).
struct Case {
    name: &'static str,
    args: Vec<String>,
    /// The file it appends to or writes; checked whole afterwards.
    output: Option<&'static str>,
    /// Lines the output must hold before the signal (0: a pause instead).
    busy_lines: usize,
}

fn case(name: &'static str, args: &str, output: Option<&'static str>, busy_lines: usize) -> Case {
    Case {
        name,
        args: args.split_whitespace().map(String::from).collect(),
        output,
        busy_lines,
    }
}

/// A folder with the inputs every case reads: 30 quick games, a book of
/// the first 4 plies planned without searches and a small searched one.
fn inputs(dir: &Path) {
    train_generate()
        .current_dir(dir)
        .args(["--games", "30", "--out", "games.txt"])
        .assert()
        .success();
    for args in [
        "book new --depth 4 --no-search --out planned.book",
        "book new --depth 2 --level 1 --out small.book",
    ] {
        lab()
            .current_dir(dir)
            .args(args.split_whitespace())
            .assert()
            .success();
    }
}

fn cases() -> Vec<Case> {
    let ffo = data("ffo/fforum-40-59.obf");
    let solve = format!("solve --threads 1 --file {}", ffo.display());
    vec![
        case(
            "train generate",
            "train generate -q --level 8 --games 100000 --threads 1 --out out.txt",
            Some("out.txt"),
            2,
        ),
        case(
            "train label",
            "train label -q --games games.txt --empties 14-30 --depth 12 --threads 1 --out out.txt",
            Some("out.txt"),
            2,
        ),
        case(
            "train probcut",
            "train probcut --games games.txt --threads 1 --out out.txt",
            Some("out.txt"),
            0,
        ),
        case(
            "train fit",
            "train fit --games games.txt --out out.bin",
            Some("out.bin"),
            0,
        ),
        case(
            "book new",
            "book new --depth 6 --level 12 --threads 1 --searched out.txt --out out.book",
            Some("out.txt"),
            2,
        ),
        case(
            "book search",
            "book search --book planned.book --level 12 --threads 1 --out out.txt",
            Some("out.txt"),
            2,
        ),
        case(
            "book deepen",
            "book deepen --book small.book --depth 30 --within 64 --level 12 --threads 1 --out out.book",
            Some("out.book"),
            0,
        ),
        Case {
            name: "solve",
            args: solve.split_whitespace().map(String::from).collect(),
            output: None,
            busy_lines: 0,
        },
        case("perft", "perft 13", None, 0),
        case(
            "tournament",
            "tournament --size 8 --plies 4 --level 12",
            None,
            0,
        ),
        case("match", "match --size 8 --level 18", None, 0),
    ]
}

#[test]
fn every_long_command_stops_on_each_signal_leaving_its_files_whole() {
    let dir = scratch_in("signals", "commands");
    inputs(&dir);
    // One thread a signal, each running every command in turn.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let threads: Vec<_> = SIGNALS
            .iter()
            .map(|&(signal, signal_name)| {
                let dir = &dir;
                scope.spawn(move || stop_each(dir, signal, signal_name))
            })
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().expect("a signal's thread"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The quick case: `perft 13` (no file written) stopped by each signal
/// dies by that signal, so a shell's `for` loop or a scheduler sees the
/// stop instead of an ordinary exit.
#[test]
fn a_stopped_command_dies_by_the_signal_it_was_sent() {
    let dir = scratch_in("signals", "death");
    for (signal, signal_name) in SIGNALS {
        let mut child = start(&dir, &["perft", "13"]);
        let begun = Instant::now();
        let (status, took) = stop(&mut child, signal, &|| {
            begun.elapsed() > Duration::from_millis(300)
        });
        let status = status.unwrap_or_else(|| panic!("perft ignored {signal_name}"));
        assert_eq!(
            (status.signal(), status.code()),
            (Some(signal), None),
            "{signal_name}: {status:?} after {took:?}"
        );
    }
}

/// Every command of [`cases`] stopped by `signal` in its own folder under
/// `dir`: what went wrong.
fn stop_each(dir: &Path, signal: i32, signal_name: &str) -> Vec<String> {
    let mut failures = Vec::new();
    for c in cases() {
        {
            let run = dir.join(format!("{}-{signal_name}", c.name.replace(' ', "-")));
            fs::create_dir_all(&run).unwrap();
            for input in ["games.txt", "planned.book", "small.book"] {
                fs::copy(dir.join(input), run.join(input)).unwrap();
            }
            let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
            let mut child = start(&run, &args);
            let output = c.output.map(|o| run.join(o));
            let busy: Box<dyn Fn() -> bool> = match (&output, c.busy_lines) {
                (Some(path), lines) if lines > 0 => {
                    let path = path.clone();
                    Box::new(move || has_lines(&path, lines))
                }
                _ => {
                    let begun = Instant::now();
                    Box::new(move || begun.elapsed() > Duration::from_millis(500))
                }
            };
            let (status, took) = stop(&mut child, signal, &*busy);
            let what = format!("{} stopped by {signal_name}", c.name);
            if status.and_then(|s| s.signal()) != Some(signal) {
                failures.push(format!(
                    "{what}: ended {status:?} after {took:?}, expected death by {signal_name}"
                ));
            }
            let left = leftovers(&run);
            if !left.is_empty() {
                failures.push(format!("{what}: left {left:?}"));
            }
            if let Some(path) = output.filter(|p| p.exists()) {
                let bytes = fs::read(&path).unwrap();
                if bytes.last() != Some(&b'\n') && !path.to_string_lossy().ends_with(".book") {
                    failures.push(format!("{what}: {} ends in a partial line", path.display()));
                }
                // The whole file is one its readers take (a resumable file
                // is continued; a book or weights file is read).
                if let Err(e) = readable(&run, &c, &path) {
                    failures.push(format!("{what}: {e}"));
                }
            }
        }
    }
    failures
}

/// Whether what a stopped run of `c` left in `path` is taken by the
/// program: a book by `book stats`, weights by `hint --weights`, and a
/// resumable file by the same command run again (which continues it).
fn readable(dir: &Path, c: &Case, path: &Path) -> Result<(), String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let args: Vec<&str> = match c.name {
        "book deepen" => vec!["book", "stats", "--book", &name],
        "train fit" => vec!["hint", "--weights", &name, "--level", "1", "f5"],
        _ => return continued(dir, c),
    };
    let out = Command::new(binary_of(&args))
        .current_dir(dir)
        .args(&args)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{args:?} refused it: {}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Runs `c` again in `dir` for a moment: it must accept the file the
/// stopped run left (it continues it instead of refusing it).
fn continued(dir: &Path, c: &Case) -> Result<(), String> {
    let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
    let mut child = Command::new(binary_of(&args))
        .current_dir(dir)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    std::thread::sleep(Duration::from_millis(700));
    if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
        if !status.success() {
            let out = child.wait_with_output().map_err(|e| e.to_string())?;
            return Err(format!(
                "the run again failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    Ok(())
}

/// `reversi train generate` of 24 quick games, `extra` added (a shard).
fn generate(dir: &Path, out: &str, extra: &[&str]) -> Child {
    let mut args = vec![
        "train",
        "generate",
        "-q",
        "--seed",
        "5",
        "--solve-empties",
        "12",
        "--threads",
        "1",
        "--games",
        "24",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    start(dir, &args)
}

fn finish(mut child: Child) {
    assert!(child.wait().expect("wait").success());
}

#[test]
fn a_shard_stopped_and_run_again_merges_to_the_bytes_of_an_uninterrupted_run() {
    let dir = scratch_in("signals", "shards");
    finish(generate(&dir, "whole.txt", &[]));
    // Shard 0 of 2 stopped after its first games, as `timeout` or a
    // scheduler's time limit would stop it, then run again.
    let mut child = generate(&dir, "part.0", &["--shard", "0/2"]);
    let part: PathBuf = dir.join("part.0");
    let (status, _) = stop(&mut child, libc::SIGTERM, &|| has_lines(&part, 3));
    assert_eq!(
        status.and_then(|s| s.signal()),
        Some(libc::SIGTERM),
        "{status:?}"
    );
    let stopped_at = fs::read_to_string(&part).unwrap().lines().count();
    finish(generate(&dir, "part.0", &["--shard", "0/2"]));
    finish(generate(&dir, "part.1", &["--shard", "1/2"]));
    let out = Command::new(env!("CARGO_BIN_EXE_reversi-lab"))
        .current_dir(&dir)
        .args(["train", "merge", "--out", "merged.txt", "part.0", "part.1"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(leftovers(&dir).is_empty(), "{:?}", listing(&dir));
    assert_eq!(
        fs::read(dir.join("merged.txt")).unwrap(),
        fs::read(dir.join("whole.txt")).unwrap(),
        "the shard was stopped after {stopped_at} lines"
    );
}

/// `train import` writes its games and dropped list to temporary files as
/// games come: stopped by each signal in the middle of a large `.wtb` (the
/// 9 games of the sample repeated), it dies by the signal, removes its
/// temporary files and leaves the outputs of an earlier import whole.
#[test]
fn a_stopped_import_removes_its_temporary_files_and_keeps_the_old_outputs() {
    let dir = scratch_in("signals", "import");
    let sample = fs::read(data("wthor/WTH_1984-sample.wtb")).expect("sample");
    fs::write(dir.join("small.wtb"), &sample).expect("write");
    let games = &sample[16..];
    let copies = 150_000u32;
    let mut big = sample[..16].to_vec();
    let count = u32::try_from(games.len() / 68).expect("u32") * copies;
    big[4..8].copy_from_slice(&count.to_le_bytes());
    for _ in 0..copies {
        big.extend_from_slice(games);
    }
    fs::write(dir.join("big.wtb"), &big).expect("write");
    let outputs = ["--out", "games.txt", "--dropped", "dropped.txt"];
    let mut args = vec!["train", "import", "-q"];
    args.extend(outputs);
    lab()
        .current_dir(&dir)
        .args(&args)
        .arg("small.wtb")
        .assert()
        .success();
    let old: Vec<Vec<u8>> = ["games.txt", "dropped.txt"]
        .iter()
        .map(|f| fs::read(dir.join(f)).expect("old output"))
        .collect();
    args.push("big.wtb");
    for (signal, signal_name) in SIGNALS {
        let mut child = start(&dir, &args);
        // Busy once a temporary file holds some of the dropped list.
        let writing = || {
            leftovers(&dir)
                .iter()
                .any(|n| fs::metadata(dir.join(n)).is_ok_and(|m| m.len() > 1 << 20))
        };
        let (status, took) = stop(&mut child, signal, &writing);
        let status = status.unwrap_or_else(|| panic!("import ignored {signal_name}"));
        assert_eq!(
            status.signal(),
            Some(signal),
            "{signal_name}: {status:?} after {took:?}"
        );
        assert_eq!(leftovers(&dir), Vec::<String>::new(), "{signal_name}");
        for (f, bytes) in ["games.txt", "dropped.txt"].iter().zip(&old) {
            assert_eq!(
                &fs::read(dir.join(f)).expect("output"),
                bytes,
                "{signal_name}: {f}"
            );
        }
    }
}

/// `reversi ARGS` started with SIGHUP ignored, as `nohup` starts it.
fn start_ignoring_hangup(dir: &Path, args: &[&str]) -> Child {
    spawn(dir, args, Stdio::piped(), Some(libc::SIGHUP))
}

/// A command started with SIGHUP ignored (`nohup reversi-lab train label
/// ... &`) keeps running when it arrives (every command installed a
/// handler for it, so closing the terminal ended a nohup'd job), and
/// still stops on SIGTERM.
#[test]
fn a_hangup_ignored_at_start_stays_ignored() {
    let dir = scratch_in("signals", "nohup");
    for args in [
        &["perft", "--size", "8", "13"][..],
        &[
            "train", "generate", "-q", "--games", "100000", "--out", "g.txt",
        ][..],
        &["serve", "--port", "0"][..],
    ] {
        let mut child = start_ignoring_hangup(&dir, args);
        // Read to its end (a closed pipe would end the server's last line).
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        if args[0] == "serve" {
            // Its banner: the signals are listened for.
            use std::io::BufRead;
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            assert!(line.starts_with("reversi serve: listening"), "{line}");
        } else {
            std::thread::sleep(Duration::from_millis(500));
        }
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGHUP);
        }
        std::thread::sleep(Duration::from_millis(1000));
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended on SIGHUP though started with it ignored"
        );
        let reader = std::thread::spawn(move || {
            let _ = std::io::Read::read_to_end(&mut out, &mut Vec::new());
        });
        let (status, _) = stop(&mut child, libc::SIGTERM, &|| true);
        let _ = reader.join();
        assert_eq!(
            status.and_then(|s| s.signal()),
            Some(libc::SIGTERM),
            "{args:?}"
        );
    }
}
