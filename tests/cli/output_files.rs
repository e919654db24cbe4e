//! The 8x8 contract's two output files as one transaction: devices, FIFOs
//! and symlinks as outputs, a failing second output, the same file under
//! two spellings, long names, two runs at once and signals while writing.

use crate::harness::{data, expect_usage_error, lab, reversi, train_generate};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    crate::harness::scratch_in("output-files", name)
}

use crate::harness::listing;

/// The golden moves and log of input1 at depth 2 for `task`.
fn golden(task: u32) -> (String, String) {
    let read = |kind: &str| {
        fs::read_to_string(data(&format!("usc/output1_d2_{kind}_t{task}.txt"))).expect("golden")
    };
    (read("moves"), read("tlog"))
}

/// `reversi -t TASK -d 2 -i input1.txt -op MOVES -ol LOG` in `dir`.
fn contract(dir: &Path, task: u32, moves: &str, log: &str) -> assert_cmd::Command {
    let mut cmd = reversi();
    cmd.current_dir(dir)
        .args(["-t", &task.to_string(), "-d", "2", "-i"])
        .arg(data("usc/input1.txt"))
        .args(["-op", moves, "-ol", log]);
    cmd
}

/// Runs an external tool; `false` (with the reason printed) if it is
/// missing or not permitted here.
fn tool(program: &str, args: &[&str], dir: &Path) -> bool {
    match Command::new(program).args(args).current_dir(dir).output() {
        Ok(o) if o.status.success() => true,
        Ok(o) => {
            crate::harness::skipped(&format!(
                "`{program} {}` failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&o.stderr).trim()
            ));
            false
        }
        Err(e) => {
            crate::harness::skipped(&format!("{program} not available: {e}"));
            false
        }
    }
}

#[cfg(unix)]
fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

#[cfg(unix)]
#[test]
fn devices_are_written_in_place_never_replaced() {
    let dir = scratch("devices");
    // Copies of /dev/null (1,3) and /dev/full (1,7) in a private folder.
    if !tool("mknod", &["null", "c", "1", "3"], &dir)
        || !tool("mknod", &["full", "c", "1", "7"], &dir)
    {
        return;
    }
    contract(&dir, 1, "null", "null")
        .assert()
        .success()
        .stderr("");
    contract(&dir, 1, "m.txt", "null").assert().success();
    assert!(is_char_device(&dir.join("null")), "null was replaced");
    assert_eq!(fs::read_to_string(dir.join("m.txt")).unwrap(), golden(1).0);

    // A write error of the device is reported, and the other output keeps
    // its old content.
    fs::write(dir.join("m.txt"), "old\n").unwrap();
    expect_usage_error(
        &mut contract(&dir, 1, "m.txt", "full"),
        "cannot write output file full: No space left on device",
    );
    assert!(is_char_device(&dir.join("full")), "full was replaced");
    assert_eq!(fs::read_to_string(dir.join("m.txt")).unwrap(), "old\n");
    assert_eq!(listing(&dir), ["full", "m.txt", "null"]);
}

#[test]
fn dev_stdout_is_written_in_place() {
    if !Path::new("/dev/stdout").exists() {
        crate::harness::skipped("no /dev/stdout");
        return;
    }
    let dir = scratch("dev-stdout");
    // stdout is a pipe to the test: /dev/stdout leads to no path.
    contract(&dir, 1, "/dev/stdout", "l.txt")
        .assert()
        .success()
        .stdout(golden(1).0)
        .stderr("");
    assert_eq!(fs::read_to_string(dir.join("l.txt")).unwrap(), golden(1).1);
    assert_eq!(listing(&dir), ["l.txt"]);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_written_in_place() {
    let dir = scratch("fifo");
    if !tool("mkfifo", &["pipe"], &dir) {
        return;
    }
    let path = dir.join("pipe");
    let reader = std::thread::spawn(move || fs::read_to_string(path).expect("read fifo"));
    contract(&dir, 2, "pipe", "l.txt").assert().success();
    assert_eq!(reader.join().expect("reader"), golden(2).0);
    let kind = fs::symlink_metadata(dir.join("pipe")).unwrap().file_type();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kind));
}

#[cfg(unix)]
#[test]
fn symlinks_are_written_through() {
    let dir = scratch("symlinks");
    fs::create_dir(dir.join("real")).unwrap();
    fs::write(dir.join("real/m.txt"), "old\n").unwrap();
    std::os::unix::fs::symlink("real/m.txt", dir.join("m-link")).unwrap();
    // A dangling link: its target is created.
    std::os::unix::fs::symlink("real/l.txt", dir.join("l-link")).unwrap();
    contract(&dir, 3, "m-link", "l-link").assert().success();
    let (moves, log) = golden(3);
    assert_eq!(fs::read_to_string(dir.join("real/m.txt")).unwrap(), moves);
    assert_eq!(fs::read_to_string(dir.join("real/l.txt")).unwrap(), log);
    for link in ["m-link", "l-link"] {
        assert!(fs::symlink_metadata(dir.join(link))
            .unwrap()
            .file_type()
            .is_symlink());
    }
    assert_eq!(listing(&dir.join("real")), ["l.txt", "m.txt"]);
    // A link to the other output is the same file.
    expect_usage_error(
        &mut contract(&dir, 3, "real/m.txt", "m-link"),
        "-op and -ol name the same file",
    );
}

#[test]
fn the_same_file_under_two_spellings_is_refused() {
    let dir = scratch("spellings");
    fs::create_dir(dir.join("sub")).unwrap();
    for (moves, log) in [
        ("m.txt", "./m.txt"),
        ("sub/m.txt", "sub/../sub/m.txt"),
        ("sub/../m.txt", "m.txt"),
    ] {
        expect_usage_error(
            &mut contract(&dir, 1, moves, log),
            "-op and -ol name the same file",
        );
    }
    fs::copy(data("usc/input1.txt"), dir.join("in.txt")).unwrap();
    expect_usage_error(
        reversi().current_dir(&dir).args([
            "-t", "1", "-d", "1", "-i", "in.txt", "-op", "./in.txt", "-ol", "l.txt",
        ]),
        "-op ./in.txt is the input file",
    );
    assert_eq!(listing(&dir), ["in.txt", "sub"]);
}

#[test]
fn a_failing_second_output_leaves_the_first_unchanged() {
    let dir = scratch("second-fails");
    fs::write(dir.join("m.txt"), "old moves\n").unwrap();
    // `newdir/` names a folder that does not exist: its rename fails after
    // the moves file's temporary file is complete.
    expect_usage_error(
        &mut contract(&dir, 1, "m.txt", "newdir/"),
        "no output file was changed",
    );
    assert_eq!(
        fs::read_to_string(dir.join("m.txt")).unwrap(),
        "old moves\n"
    );
    assert_eq!(listing(&dir), ["m.txt"]);
    // A new first output is removed again.
    expect_usage_error(
        &mut contract(&dir, 1, "new.txt", "newdir/"),
        "no output file was changed",
    );
    assert_eq!(listing(&dir), ["m.txt"]);
}

#[test]
fn an_immutable_log_leaves_the_moves_unchanged() {
    let dir = scratch("immutable");
    fs::write(dir.join("m.txt"), "old moves\n").unwrap();
    fs::write(dir.join("l.txt"), "old log\n").unwrap();
    if !tool("chattr", &["+i", "l.txt"], &dir) {
        return;
    }
    let out = contract(&dir, 1, "m.txt", "l.txt").output().expect("run");
    tool("chattr", &["-i", "l.txt"], &dir);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        fs::read_to_string(dir.join("m.txt")).unwrap(),
        "old moves\n"
    );
    assert_eq!(fs::read_to_string(dir.join("l.txt")).unwrap(), "old log\n");
    assert_eq!(listing(&dir), ["l.txt", "m.txt"]);
}

#[test]
fn names_of_any_legal_length() {
    let dir = scratch("long-names");
    let long = "m".repeat(255);
    contract(&dir, 1, &long, "l.txt").assert().success();
    assert_eq!(fs::read_to_string(dir.join(&long)).unwrap(), golden(1).0);
    assert_eq!(listing(&dir), ["l.txt".to_string(), long]);
}

/// Whether `dir`'s `m.txt` and `l.txt` are the two files of one run (of
/// task 1 or task 3), and no temporary file is left.
fn consistent(dir: &Path, old: &(String, String)) -> Result<(), String> {
    let pair = (
        fs::read_to_string(dir.join("m.txt")).unwrap_or_default(),
        fs::read_to_string(dir.join("l.txt")).unwrap_or_default(),
    );
    let names = listing(dir);
    if names != ["l.txt", "m.txt"] {
        return Err(format!("files left: {names:?}"));
    }
    if pair == golden(1) || pair == golden(3) || &pair == old {
        Ok(())
    } else {
        Err("moves and log come from different runs".to_string())
    }
}

#[test]
fn two_runs_at_once_leave_one_runs_pair() {
    let dir = scratch("concurrent");
    let old = ("old\n".to_string(), "old\n".to_string());
    fs::write(dir.join("m.txt"), &old.0).unwrap();
    fs::write(dir.join("l.txt"), &old.1).unwrap();
    for round in 0..20 {
        let spawn = |task: u32| {
            Command::new(env!("CARGO_BIN_EXE_reversi"))
                .current_dir(&dir)
                .args(["-t", &task.to_string(), "-d", "2", "-i"])
                .arg(data("usc/input1.txt"))
                .args(["-op", "m.txt", "-ol", "l.txt"])
                .spawn()
                .expect("spawn")
        };
        let (mut a, mut b) = (spawn(1), spawn(3));
        assert!(a.wait().unwrap().success() && b.wait().unwrap().success());
        consistent(&dir, &old).unwrap_or_else(|e| panic!("round {round}: {e}"));
    }
}

#[cfg(unix)]
#[test]
fn signals_while_writing_leave_one_runs_pair_and_no_temporary_file() {
    // SIGTERM, SIGINT or SIGHUP at staggered moments of short runs: before,
    // during or after the writing. Whatever the moment, the folder holds
    // both old or both new files and nothing else.
    let dir = scratch("signals");
    let old = ("old\n".to_string(), "old\n".to_string());
    fs::write(dir.join("m.txt"), &old.0).unwrap();
    fs::write(dir.join("l.txt"), &old.1).unwrap();
    for round in 0..30u64 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .current_dir(&dir)
            .args([
                "-t",
                if round % 2 == 0 { "1" } else { "3" },
                "-d",
                "2",
                "-i",
            ])
            .arg(data("usc/input1.txt"))
            .args(["-op", "m.txt", "-ol", "l.txt"])
            .spawn()
            .expect("spawn");
        std::thread::sleep(std::time::Duration::from_micros(300 * round));
        let signal = ["-TERM", "-INT", "-HUP"][round as usize % 3];
        let _ = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status();
        let _ = child.wait();
        consistent(&dir, &old).unwrap_or_else(|e| panic!("round {round} ({signal}): {e}"));
    }
}

/// `reversi train generate` of quick games (seed 3, solved from 10 empty
/// squares; 20 unless `extra` says otherwise) into `out` in `dir`.
fn generate(dir: &Path, out: &str, extra: &[&str]) -> assert_cmd::Command {
    let mut cmd = train_generate();
    cmd.current_dir(dir).args(["--out", out]).args(extra);
    if !extra.contains(&"--games") {
        cmd.args(["--games", "20"]);
    }
    cmd
}

#[cfg(unix)]
#[test]
fn train_generate_replaces_only_its_own_files() {
    let dir = scratch("train-generate");
    generate(&dir, "own.txt", &[]).assert().success();
    let own = fs::read_to_string(dir.join("own.txt")).unwrap();
    assert!(
        own.starts_with("# reversi-lab train generate: seed 3 "),
        "{own}"
    );
    // Files that are not games files, with and without a last newline,
    // directly or through a symlink, are left as they are (an empty file,
    // as a run killed before its header leaves, is started as new:
    // lab_files::an_empty_resumable_output_is_started_as_new).
    fs::write(dir.join("notes.txt"), "my notes").unwrap();
    fs::write(dir.join("lines.txt"), "my notes\n").unwrap();
    std::os::unix::fs::symlink("notes.txt", dir.join("link.txt")).unwrap();
    for name in ["notes.txt", "lines.txt", "link.txt"] {
        expect_usage_error(
            &mut generate(&dir, name, &[]),
            &format!("{name} exists and is not a games file of `reversi-lab train generate`; not replacing it (use --force)"),
        );
    }
    assert_eq!(
        fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "my notes"
    );
    assert_eq!(
        fs::read_to_string(dir.join("lines.txt")).unwrap(),
        "my notes\n"
    );
    // --force starts the link's target over; the link stays a link.
    generate(&dir, "link.txt", &["--force"]).assert().success();
    assert_eq!(fs::read_to_string(dir.join("notes.txt")).unwrap(), own);
    assert!(fs::symlink_metadata(dir.join("link.txt"))
        .unwrap()
        .file_type()
        .is_symlink());
    // A games file is continued through a link, and a file of other
    // options is started over only with --force.
    std::os::unix::fs::symlink("own.txt", dir.join("own-link.txt")).unwrap();
    generate(&dir, "own-link.txt", &["--games", "25"])
        .assert()
        .success();
    let longer = fs::read_to_string(dir.join("own.txt")).unwrap();
    assert!(longer.starts_with(&own) && longer.lines().count() == 26);
    let mut other = generate(&dir, "own.txt", &["--depth", "3"]);
    expect_usage_error(&mut other, "own.txt was generated with other options");
    assert_eq!(fs::read_to_string(dir.join("own.txt")).unwrap(), longer);
    generate(&dir, "own.txt", &["--depth", "3", "--force"])
        .assert()
        .success();
    assert!(fs::read_to_string(dir.join("own.txt"))
        .unwrap()
        .contains(" depth 3 "));
    // Nothing else was left behind (no temporary file).
    assert_eq!(
        listing(&dir),
        [
            "lines.txt",
            "link.txt",
            "notes.txt",
            "own-link.txt",
            "own.txt"
        ]
    );
}

#[cfg(unix)]
#[test]
fn train_outputs_never_replace_a_device() {
    // Only a private copy of /dev/null is used: a command that did
    // replace devices would otherwise replace the system's (as root).
    let dir = scratch("train-devices");
    generate(&dir, "g.txt", &[]).assert().success();
    if !tool("mknod", &["null", "c", "1", "3"], &dir) {
        return;
    }
    for command in ["fit", "probcut"] {
        let mut cmd = lab();
        cmd.current_dir(&dir).args([
            "train", command, "-q", "--force", "--games", "g.txt", "--out", "null",
        ]);
        if command == "probcut" {
            cmd.args(["--positions", "1", "--depth", "3"]);
        }
        cmd.assert().success();
        assert!(
            is_char_device(&dir.join("null")),
            "{command} replaced the device"
        );
    }
    assert_eq!(listing(&dir), ["g.txt", "null"]);
}

#[test]
fn train_fit_replaces_weights_through_a_temporary_file() {
    let dir = scratch("train-fit");
    generate(&dir, "g.txt", &[]).assert().success();
    let fit = || {
        let mut cmd = lab();
        cmd.current_dir(&dir).args([
            "train",
            "fit",
            "-q",
            "--iterations",
            "5",
            "--games",
            "g.txt",
            "--out",
            "w.bin",
        ]);
        cmd
    };
    fit().assert().success();
    let first = fs::read(dir.join("w.bin")).unwrap();
    assert!(first.starts_with(b"RVPATTRN"));
    // A weights file is ours: replaced without --force.
    fit().assert().success();
    assert_eq!(fs::read(dir.join("w.bin")).unwrap(), first);
    assert_eq!(listing(&dir), ["g.txt", "w.bin"]);
}
