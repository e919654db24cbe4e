//! The lab's commands (`train`, `book`) given damaged, contradictory or
//! empty files and run twice on one output: each is refused with one
//! `error:` line and exit status 2, never a panic, never a file the
//! program's own reader refuses; and the searches that fill those files
//! never value a move beyond the board's discs.

use crate::harness::{
    binary_of, command_of, expect_success, expect_usage_error, lab, reversi, scratch_in,
    train_generate,
};
use reversi::board::symmetry::canonical;
use std::fs;
use std::path::{Path, PathBuf};

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Runs `reversi ARGS`, which must succeed.
fn run(args: &[&str]) {
    let out = command_of(args).output().expect("run");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A label file holding `lines` after a header.
fn label_file(file: &Path, lines: &[&str]) {
    let mut text = "# reversi train label: empties 0-60 exact-empties 0 depth 0 weights 0000000000000000 positions 1 list 0000000000000000\n".to_owned();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    fs::write(file, text).expect("labels");
}

#[test]
fn values_of_the_smallest_integer_are_refused() {
    let dir = scratch_in("lab", "smallest-integer");
    // A label valued -2^31 (1/64 disc): not a training target. The label
    // file's rules (this one, and a label of fewer than the 4 discs of the
    // start) are lab::train::formats::labels' and unit-tested there; here
    // a refused file leaves no output.
    let labels = dir.join("labels.txt");
    let ((p, o), _) = canonical(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
    label_file(
        &labels,
        &[&format!("0\t0\t{p:016x}\t{o:016x}\t60\t-2147483648\texact")],
    );
    let mut fit = lab();
    fit.args([
        "train",
        "fit",
        "-q",
        "--labels",
        path(&labels),
        "--out",
        path(&dir.join("w.bin")),
    ]);
    expect_usage_error(&mut fit, "not within -64..64 discs");
    assert!(!dir.join("w.bin").exists());

    // A search result valued -2^31, merged or continued.
    let (planned, searched) = planned_and_searched(&dir, "1");
    edit_lines(&searched, |lines| {
        let mut fields: Vec<&str> = lines[1].split('\t').collect();
        fields[4] = "-2147483648";
        lines[1] = fields.join("\t");
    });
    let book = dir.join("book.bin");
    merge_refused(&planned, &searched, &book, "beyond 64 discs");
    let mut new = lab();
    new.args([
        "book",
        "new",
        "-q",
        "--depth",
        "1",
        "--level",
        "1",
        "--searched",
        path(&searched),
        "--out",
        path(&book),
    ]);
    expect_usage_error(&mut new, "beyond 64 discs");
    assert!(!book.exists());
}

/// The `book search` at level 1 of the book `planned` into `searched`.
fn search_args<'a>(planned: &'a Path, searched: &'a Path) -> [&'a str; 9] {
    [
        "book",
        "search",
        "-q",
        "--level",
        "1",
        "--book",
        path(planned),
        "--out",
        path(searched),
    ]
}

/// A book of `depth` plies planned (not searched) in `dir`: its path.
fn planned_book(dir: &Path, depth: &str) -> PathBuf {
    let planned = dir.join("planned.bin");
    run(&[
        "book",
        "new",
        "-q",
        "--depth",
        depth,
        "--no-search",
        "--out",
        path(&planned),
    ]);
    planned
}

/// A book of `depth` plies planned in `dir` and its search file (see
/// [`search_args`]): their paths.
fn planned_and_searched(dir: &Path, depth: &str) -> (PathBuf, PathBuf) {
    let (planned, searched) = (planned_book(dir, depth), dir.join("searched.txt"));
    run(&search_args(&planned, &searched));
    (planned, searched)
}

/// Rewrites the lines of `file` by `edit`.
fn edit_lines(file: &Path, edit: impl FnOnce(&mut Vec<String>)) {
    let text = fs::read_to_string(file).expect("read");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    edit(&mut lines);
    fs::write(file, lines.join("\n") + "\n").expect("edit");
}

/// Expects `book merge` of `searched` into the book `planned` (to `out`)
/// to be refused with `needle`, writing nothing.
fn merge_refused(planned: &Path, searched: &Path, out: &Path, needle: &str) {
    let mut merge = lab();
    merge.args([
        "book",
        "merge",
        "--book",
        path(planned),
        "--out",
        path(out),
        path(searched),
    ]);
    expect_usage_error(&mut merge, needle);
    assert!(!out.exists());
}

/// Quick training games (see `train_generate`) in `games`.
fn games_file(games: &Path, count: &str) {
    train_generate()
        .args(["--depth", "1", "--games", count, "--out", path(games)])
        .assert()
        .success();
}

/// `lines` with fields `field` of lines `a` and `b` swapped.
fn swap_fields(lines: &mut [String], a: usize, b: usize, fields: std::ops::Range<usize>) {
    let mut x: Vec<String> = lines[a].split('\t').map(str::to_owned).collect();
    let mut y: Vec<String> = lines[b].split('\t').map(str::to_owned).collect();
    for f in fields {
        std::mem::swap(&mut x[f], &mut y[f]);
    }
    lines[a] = x.join("\t");
    lines[b] = y.join("\t");
}

#[test]
fn continued_lines_must_hold_the_runs_own_items() {
    let dir = scratch_in("lab", "continued");
    let games = dir.join("games.txt");
    games_file(&games, "2");
    let labels = dir.join("labels.txt");
    let label = [
        "train",
        "label",
        "-q",
        "--games",
        path(&games),
        "--empties",
        "50-52",
        "--depth",
        "1",
        "--out",
        path(&labels),
    ];
    run(&label);
    // Items 0 and 1 trade their positions (game, discs, empties, value
    // and source), each line still a valid label.
    edit_lines(&labels, |lines| {
        assert!(lines.len() > 3, "{lines:?}");
        swap_fields(lines, 1, 2, 1..7);
    });
    expect_usage_error(lab().args(label), "another position");

    // A search line of another level than its file's header, merged or
    // continued.
    let (planned, searched) = planned_and_searched(&dir, "2");
    let search = search_args(&planned, &searched);
    edit_lines(&searched, |lines| {
        let (rest, level) = lines[2].rsplit_once('\t').expect("fields");
        assert_eq!(level, "1");
        lines[2] = format!("{rest}\t3");
    });
    let book = dir.join("book.bin");
    merge_refused(&planned, &searched, &book, "searched at level 3");
    expect_usage_error(lab().args(search), "searched at level 3");
    // Which lines hold their own items is lab::shard's and
    // lab::book::searches' (unit-tested there): this test checks that
    // every continued or merged file is held to it.
    assert!(!book.exists());
}

#[test]
fn a_games_file_without_games_is_refused() {
    let dir = scratch_in("lab", "no-games");
    let games = dir.join("games.txt");
    for text in ["", "# reversi train generate: a header alone\n"] {
        fs::write(&games, text).expect("games");
        let commands: [&[&str]; 3] = [
            &["train", "label", "-q", "--empties", "50", "--out"],
            &["train", "probcut", "-q", "--out"],
            &["train", "fit", "-q", "--out"],
        ];
        for args in commands {
            let out = dir.join("out");
            let mut cmd = lab();
            cmd.args(args).arg(&out).arg("--games").arg(&games);
            expect_usage_error(&mut cmd, "holds no game");
            assert!(!out.exists(), "{args:?}");
        }
    }
}

/// A games file that cannot grow past 1 KiB (the file size limit, its
/// signal ignored, so that writes fail with EFBIG as on a full disk) is
/// an output file that cannot be written: exit status 2, like a book or
/// weights file that cannot be written.
#[cfg(unix)]
#[test]
fn a_write_failing_mid_run_exits_like_every_output_file() {
    let dir = scratch_in("lab", "write-fails");
    let games = dir.join("games.txt");
    let script = format!(
        "trap '' XFSZ; ulimit -f 2 && exec '{}' train generate -q --seed 3 --depth 1 --solve-empties 10 --games 40 --out '{}'",
        env!("CARGO_BIN_EXE_reversi-lab"),
        path(&games)
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("run sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("error: cannot write output file"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// A run that is killed when the test ends, passed or failed.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `reversi ARGS` and waits (at most a minute) until `out` holds
/// its header line: the run is then writing it.
fn started_writing(args: &[&str], out: &Path) -> Running {
    let running = Running(
        std::process::Command::new(binary_of(args))
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn"),
    );
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !fs::read_to_string(out).is_ok_and(|t| t.contains('\n')) {
        assert!(std::time::Instant::now() < end, "{args:?} wrote no header");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    running
}

/// Runs `reversi ARGS`, which must end within a minute (it is killed
/// otherwise) refused with one `error:` line holding `needle`.
fn refused_at_once(args: &[&str], needle: &str) {
    let mut child = std::process::Command::new(binary_of(args))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} was not refused: it ran on");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(needle), "{stderr}");
}

#[test]
fn a_second_run_on_an_output_being_written_is_refused() {
    let dir = scratch_in("lab", "two-runs");
    let games = dir.join("games.txt");
    let generate = [
        "train",
        "generate",
        "-q",
        "--threads",
        "1",
        "--games",
        "100000",
        "--level",
        "4",
        "--out",
        path(&games),
    ];
    let first = started_writing(&generate, &games);
    refused_at_once(&generate, "being written by another run");
    // Another shard on the same file, even with --force, is refused too.
    let sharded: Vec<&str> = generate
        .iter()
        .copied()
        .chain(["--shard", "1/2", "--force"])
        .collect();
    refused_at_once(&sharded, "being written by another run");
    drop(first);

    let (planned, searched) = (planned_book(&dir, "6"), dir.join("searched.txt"));
    let search = [
        "book",
        "search",
        "-q",
        "--threads",
        "1",
        "--level",
        "10",
        "--book",
        path(&planned),
        "--out",
        path(&searched),
    ];
    let first = started_writing(&search, &searched);
    refused_at_once(&search, "being written by another run");
    drop(first);
}

/// Lopsided positions (one side with a few discs) whose pattern
/// evaluation goes beyond 64 discs.
const LOPSIDED: [&str; 3] = [
    "XXXXXXXXXXXXXXXX--XXXXXXX--OOXXO----X-----------O--------------- O",
    "XXXXXXXXXXXXXXXXXX--XX--O-X------O-------------O---------------- X",
    "XXXXXXXXXXXXX-XXXX----OXX---X--X---O---O-----O---O-------------- O",
];

/// The values (discs) of a `hint` output's move lines.
fn hinted_values(text: &str) -> Vec<f64> {
    text.lines()
        .skip(1)
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("a value in {l:?}"))
        })
        .collect()
}

#[test]
fn no_search_values_a_move_beyond_the_boards_discs() {
    for board in LOPSIDED {
        for level in ["2", "8"] {
            let out = reversi()
                .args([
                    "hint",
                    "--no-book",
                    "--moves",
                    "60",
                    "--level",
                    level,
                    board,
                ])
                .output()
                .expect("run");
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{board}");
            let values = hinted_values(&text);
            assert!(!values.is_empty(), "{text}");
            assert!(
                values.iter().all(|v| v.abs() <= 64.0),
                "level {level}:\n{text}"
            );
        }
        // The iterative search of the strong evaluation, too.
        let out = reversi()
            .args(["hint", "--no-book", "--moves", "60", "--depth", "4", board])
            .output()
            .expect("run");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            hinted_values(&text).iter().all(|v| v.abs() <= 64.0),
            "{text}"
        );
    }
}

/// Every resumable stage whose new file cannot take its header (a full
/// disk: here a file size limit of 0 with SIGXFSZ ignored, so the write
/// fails with EFBIG as a full disk's does with ENOSPC) fails with one
/// `error:` line and leaves no file: before, the 0-byte file stayed and
/// the run again was refused without --force.
#[cfg(unix)]
#[test]
fn a_new_file_that_could_not_take_its_header_is_removed() {
    let dir = scratch_in("lab_files", "no-header");
    train_generate()
        .current_dir(&dir)
        .args(["--games", "6", "--out", "games.txt"])
        .assert()
        .success();
    run(&[
        "book",
        "new",
        "-q",
        "--depth",
        "2",
        "--no-search",
        "--out",
        path(&dir.join("planned.book")),
    ]);
    let stages: [&str; 5] = [
        "train generate -q --seed 3 --solve-empties 10 --games 2 --out out.txt",
        "train label -q --games games.txt --empties 8-9 --depth 1 --out out.txt",
        "train heldout -q --games games.txt --empties 8-9 --positions 2 --out out.txt",
        "book search -q --book planned.book --level 1 --out out.txt",
        "book new -q --depth 1 --level 1 --searched out.txt --out b.book",
    ];
    for stage in stages {
        let args: Vec<&str> = stage.split_whitespace().collect();
        let limited = std::process::Command::new("sh")
            .current_dir(&dir)
            .arg("-c")
            .arg("trap '' XFSZ; ulimit -f 0 && exec \"$@\"")
            .arg("sh")
            .arg(binary_of(&args))
            .args(&args)
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&limited.stderr);
        assert_eq!(limited.status.code(), Some(2), "{stage}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stage}: {stderr}");
        assert!(
            stderr.starts_with("error: cannot write out.txt"),
            "{stage}: {stderr}"
        );
        assert!(
            !dir.join("out.txt").exists(),
            "{stage}: the empty file stayed"
        );
        // The run again, with room, makes the file.
        let again = command_of(&args).current_dir(&dir).output().expect("run");
        assert!(
            again.status.success(),
            "{stage} again: {}",
            String::from_utf8_lossy(&again.stderr)
        );
        fs::remove_file(dir.join("out.txt")).expect("out.txt written");
    }
}

/// `train heldout` continues only lines that hold its own list's
/// positions, as `train label` does: a line given another item's
/// position, or another game number, is refused (before, it was taken).
#[test]
fn heldout_continues_only_its_own_positions() {
    let dir = scratch_in("lab", "heldout-continued");
    let games = dir.join("games.txt");
    games_file(&games, "4");
    let labels = dir.join("labels.txt");
    let heldout = [
        "train",
        "heldout",
        "-q",
        "--games",
        path(&games),
        "--empties",
        "8-10",
        "--positions",
        "4",
        "--out",
        path(&labels),
    ];
    run(&heldout);
    let text = fs::read_to_string(&labels).expect("labels");
    // Items 0 and 1 trade their positions (discs, empties, value).
    edit_lines(&labels, |lines| {
        assert!(lines.len() > 3, "{lines:?}");
        swap_fields(lines, 1, 2, 2..7);
    });
    expect_usage_error(lab().args(heldout), "another position");
    // Item 0 credited to another game.
    fs::write(&labels, &text).expect("restore");
    edit_lines(&labels, |lines| {
        let mut fields: Vec<String> = lines[1].split('\t').map(str::to_owned).collect();
        fields[1] = (fields[1].parse::<u64>().expect("game") + 1).to_string();
        lines[1] = fields.join("\t");
    });
    expect_usage_error(lab().args(heldout), "another position");
    fs::write(&labels, &text).expect("restore");
    run(&heldout);
}

/// `train heldout` solves every position exactly: its --empties is
/// capped as `train label --exact-empties` and `--exact` are (30), with a
/// clear error, instead of solving up to 60 empty squares.
#[test]
fn heldout_empties_beyond_the_exact_cap_are_refused() {
    let dir = scratch_in("lab", "heldout-cap");
    let games = dir.join("games.txt");
    games_file(&games, "1");
    for empties in ["31", "20-60", "60"] {
        let out = dir.join("labels.txt");
        expect_usage_error(
            lab()
                .args([
                    "train",
                    "heldout",
                    "-q",
                    "--positions",
                    "0",
                    "--empties",
                    empties,
                ])
                .arg("--games")
                .arg(&games)
                .arg("--out")
                .arg(&out),
            "30",
        );
        assert!(!out.exists(), "{empties}");
    }
}

/// `book new` of more plies from the start than fit in --max-positions is
/// refused at once from the known sizes of the plies, not after building
/// the plan up to the limit (37 s and 1.07 GB for --depth 60).
#[test]
fn an_over_large_book_plan_is_refused_before_it_is_built() {
    let dir = scratch_in("lab", "book-estimate");
    for (depth, limit) in [("60", "5000000"), ("11", "5000000"), ("8", "50000")] {
        let out = dir.join("b.book");
        let begun = std::time::Instant::now();
        expect_usage_error(
            lab()
                .args(["book", "new", "-q", "--no-search", "--depth", depth])
                .args(["--max-positions", limit, "--out"])
                .arg(&out),
            "more than",
        );
        assert!(
            begun.elapsed() < std::time::Duration::from_secs(2),
            "--depth {depth}: refused after {:?}",
            begun.elapsed()
        );
        assert!(!out.exists());
    }
}

/// `train heldout-moves` solves the position after every legal move of a
/// held-out position: one label per move, each the position after it, and
/// the best move's value (minus its child's, solved now) is the parent's
/// exact value (solved by `train heldout` before); a second run continues
/// the finished file and prints the same tables.
#[test]
fn heldout_moves_labels_every_move_and_the_best_keeps_the_parents_value() {
    use reversi::engine::RelativePosition;
    let dir = crate::harness::scratch_in("lab_files", "heldout_moves");
    let heldout = crate::harness::read_data("wthor/heldout-2023.txt");
    // The first position of 20 empty squares (its children have 19).
    let mut lines = heldout.lines();
    let header = lines.next().expect("header");
    let parent = lines
        .find(|l| l.split('\t').nth(4) == Some("20"))
        .expect("a position of 20 empties");
    let parents = dir.join("parents.txt");
    fs::write(&parents, format!("{header}\n{parent}\n")).unwrap();
    let fields: Vec<&str> = parent.split('\t').collect();
    let (p, o) = (
        u64::from_str_radix(fields[2], 16).unwrap(),
        u64::from_str_radix(fields[3], 16).unwrap(),
    );
    let parent_value: i64 = fields[5].parse().unwrap();
    let position = RelativePosition::of_8x8(p, o);
    let out = dir.join("moves.txt");
    let args = [
        "train",
        "heldout-moves",
        "--heldout",
        path(&parents),
        "--out",
        path(&out),
        "-q",
    ];
    let first = lab().args(args).output().unwrap();
    assert!(first.status.success(), "{first:?}");
    let text = fs::read_to_string(&out).unwrap();
    let mut labels = text.lines();
    assert!(labels
        .next()
        .unwrap()
        .starts_with("# reversi-lab train label: heldout-moves of 1 positions "));
    let children: Vec<Vec<&str>> = labels.map(|l| l.split('\t').collect()).collect();
    let mut expected = Vec::new();
    let mut moves = position.moves();
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let c = position.play(sq);
        expected.push(canonical(c.player, c.opponent).0);
    }
    let got: Vec<(u64, u64)> = children
        .iter()
        .map(|f| {
            (
                u64::from_str_radix(f[2], 16).unwrap(),
                u64::from_str_radix(f[3], 16).unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got, expected,
        "one position after each move, in square order"
    );
    assert!(children.iter().all(|f| f[4] == "19" && f[6] == "exact"));
    let best = children
        .iter()
        .map(|f| -f[5].parse::<i64>().unwrap())
        .max()
        .unwrap();
    assert_eq!(best, parent_value);
    let stdout = String::from_utf8(first.stdout).unwrap();
    assert!(
        stdout.contains(&format!("| all | {} |", expected.len())),
        "{stdout}"
    );
    assert!(stdout.contains("| best | "), "{stdout}");
    let again = lab().args(args).output().unwrap();
    assert!(again.status.success(), "{again:?}");
    assert_eq!(fs::read_to_string(&out).unwrap(), text);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), stdout);
    // --level adds the level's move list by the move's loss, every move
    // ranked, after the same static tables.
    let leveled = lab().args(args).args(["--level", "2"]).output().unwrap();
    assert!(leveled.status.success(), "{leveled:?}");
    let leveled = String::from_utf8(leveled.stdout).unwrap();
    let (statics, level) = leveled
        .split_once("\n\nLevel 2's move list")
        .expect("a level table");
    assert_eq!(format!("{statics}\n"), stdout);
    assert!(
        level.contains(&format!("| all | {} |", expected.len())),
        "{leveled}"
    );
}

/// `file`'s header in the spelling of the files written before the lab
/// had its own binary (`# reversi train ...`, `# reversi book search:`).
fn spelled_as_before(file: &Path) {
    edit_lines(file, |lines| {
        assert!(lines[0].starts_with("# reversi-lab "), "{}", lines[0]);
        lines[0] = lines[0].replacen("# reversi-lab ", "# reversi ", 1);
    });
}

#[test]
fn files_of_the_former_spelling_are_read_continued_and_merged() {
    let dir = scratch_in("lab", "former-spelling");
    // A games file of today, and the same stage of before cut after two
    // games: the run continues it under its own header.
    let games = dir.join("games.txt");
    games_file(&games, "4");
    let today = fs::read_to_string(&games).expect("games");
    assert!(today.starts_with("# reversi-lab train generate: seed 3 "));
    let old = dir.join("old-games.txt");
    fs::copy(&games, &old).expect("copy");
    spelled_as_before(&old);
    edit_lines(&old, |lines| lines.truncate(3));
    games_file(&old, "4");
    let continued = fs::read_to_string(&old).expect("continued");
    assert_eq!(continued, today.replacen("# reversi-lab ", "# reversi ", 1));

    // Label shards of both spellings merge into today's unsplit file,
    // replacing a label file of the former spelling.
    let label = |out: &Path, shard: &str| {
        let mut args = vec!["train", "label", "-q", "--empties", "56", "--depth", "1"];
        args.extend(["--games", path(&games), "--out", path(out)]);
        if !shard.is_empty() {
            args.extend(["--shard", shard]);
        }
        run(&args);
    };
    let whole = dir.join("labels.txt");
    label(&whole, "");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    label(&a, "0/2");
    label(&b, "1/2");
    spelled_as_before(&a);
    // A shard of the former spelling is continued, not refused.
    label(&a, "0/2");
    let merged = dir.join("merged.txt");
    fs::copy(&a, &merged).expect("copy");
    run(&["train", "merge", "--out", path(&merged), path(&a), path(&b)]);
    assert_eq!(
        fs::read_to_string(&merged).expect("merged"),
        fs::read_to_string(&whole).expect("whole")
    );
    // Read as labels: compared with itself, no error.
    spelled_as_before(&whole);
    let compare = lab()
        .args(["train", "compare", "--labels", path(&whole)])
        .args(["--reference", path(&merged)])
        .output()
        .expect("run");
    assert!(compare.status.success(), "{compare:?}");

    // A book's search file of the former spelling is continued and
    // merged into the same book.
    let (planned, searched) = planned_and_searched(&dir, "2");
    let book = dir.join("book.bin");
    let merge_into = |out: &Path| {
        run(&[
            "book",
            "merge",
            "--book",
            path(&planned),
            "--out",
            path(out),
            path(&searched),
        ])
    };
    merge_into(&book);
    spelled_as_before(&searched);
    run(&search_args(&planned, &searched));
    assert!(fs::read_to_string(&searched)
        .expect("searched")
        .starts_with("# reversi book search: level 1 "));
    let old_book = dir.join("old-book.bin");
    merge_into(&old_book);
    assert_eq!(
        fs::read(&old_book).expect("old"),
        fs::read(&book).expect("book")
    );
}

/// A resumable output of 0 bytes (a run killed between creating it and
/// writing its header) is started as a new file: it was refused by every
/// run after (`exists and is not a games file ...; use --force`).
#[test]
fn an_empty_resumable_output_is_started_as_new() {
    let dir = scratch_in("lab", "empty-resumable");
    let games = dir.join("games.txt");
    fs::write(&games, "").expect("empty");
    expect_success(train_generate().args(["--games", "2", "--out"]).arg(&games));
    let text = fs::read_to_string(&games).expect("games");
    assert!(text.starts_with("# reversi-lab train generate:"), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
    // A file holding anything else is still refused.
    let other = dir.join("other.txt");
    fs::write(&other, "\n").expect("other");
    expect_usage_error(
        train_generate().args(["--games", "2", "--out"]).arg(&other),
        "use --force",
    );
    assert_eq!(fs::read_to_string(&other).expect("other"), "\n");
}

/// `train import --theoretical-labels` replaces only a file it wrote: a
/// label file of `train label` (the same first words) is another
/// command's output, replaced only with `--force` (it was replaced
/// without).
#[test]
fn theoretical_labels_replace_a_train_label_file_only_with_force() {
    let dir = scratch_in("lab", "theoretical-over-labels");
    let (games, labels) = (dir.join("games.txt"), dir.join("labels.txt"));
    label_file(&labels, &[]);
    let label_text = fs::read_to_string(&labels).expect("labels");
    let import = |force: bool| {
        let mut cmd = lab();
        cmd.args(["train", "import", "-q", "--out"])
            .arg(&games)
            .arg("--theoretical-labels")
            .arg(&labels)
            .arg(crate::harness::data("wthor/WTH_1984-sample.wtb"));
        if force {
            cmd.arg("--force");
        }
        cmd
    };
    for spelling in ["# reversi train label:", "# reversi-lab train label:"] {
        let text = label_text.replacen("# reversi train label:", spelling, 1);
        fs::write(&labels, &text).expect("labels");
        expect_usage_error(&mut import(false), "use --force");
        assert_eq!(fs::read_to_string(&labels).expect("labels"), text);
        assert!(!games.exists());
    }
    expect_success(&mut import(true));
    let theoretical = fs::read_to_string(&labels).expect("labels");
    assert!(theoretical.contains("theoretical scores"), "{theoretical}");
    // Its own file is replaced when run again.
    expect_success(&mut import(false));
    assert_eq!(fs::read_to_string(&labels).expect("labels"), theoretical);
}
