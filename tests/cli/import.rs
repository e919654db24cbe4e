//! `reversi train import` on samples of WTHOR (binary and PGN) and of
//! Logistello's games: no imported position is an FFO test position, every
//! game is kept or dropped for a stated reason, and the readers serve
//! `book add` and `analyze`.

use crate::harness::{data, expect_usage_error, lab, reversi, scratch_in};
use reversi::engine::parse_obf_file;
use reversi::game::Game;
use reversi::lab::train::TrainingGame;
use reversi::record::archive::{parse_gam, parse_pgn, parse_wtb, ArchiveGame};
use reversi::reversi::{Position, Reversi};
use std::collections::HashSet;
use std::fs;

const SAMPLES: [&str; 3] = [
    "wthor/WTH_1984-sample.wtb",
    "wthor/wthor-sample.pgn",
    "wthor/logbook-sample.gam",
];

/// The square `(row, col)` goes to under symmetry `s`, written out
/// square by square (independent of the library's bit tricks).
fn naive_image(x: u64, s: usize) -> u64 {
    let mut out = 0;
    for sq in 0..64 {
        if x >> sq & 1 == 1 {
            let (r, c) = (sq / 8, sq % 8);
            let (r, c) = if s & 1 == 1 { (r, 7 - c) } else { (r, c) };
            let (r, c) = if s & 2 == 2 { (7 - r, c) } else { (r, c) };
            let (r, c) = if s & 4 == 4 { (c, r) } else { (r, c) };
            out |= 1u64 << (r * 8 + c);
        }
    }
    out
}

/// Every image of every FFO position #1-#79 (side to move's discs first).
fn ffo_images() -> HashSet<(u64, u64)> {
    let mut out = HashSet::new();
    for name in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-59.obf",
        "fforum-60-79.obf",
    ] {
        let text = fs::read_to_string(data(&format!("ffo/{name}"))).expect("ffo");
        for p in parse_obf_file(&text).expect("obf") {
            for s in 0..8 {
                out.insert((
                    naive_image(p.position.player, s),
                    naive_image(p.position.opponent, s),
                ));
            }
        }
    }
    assert_eq!(out.len(), 79 * 8, "79 positions, none symmetric");
    out
}

fn relative(p: &Position) -> (u64, u64) {
    (p.board.discs(p.to_move), p.board.discs(p.to_move.other()))
}

fn sample_games(name: &str) -> Vec<ArchiveGame> {
    let path = data(name);
    if name.ends_with(".wtb") {
        parse_wtb(&fs::read(path).expect("wtb")).expect("wtb").games
    } else if name.ends_with(".pgn") {
        parse_pgn(&fs::read_to_string(path).expect("pgn")).expect("pgn")
    } else {
        parse_gam(&fs::read_to_string(path).expect("gam")).expect("gam")
    }
}

#[test]
fn no_imported_position_is_an_ffo_position() {
    let dir = scratch_in("import", "samples");
    let (out, dropped) = (dir.join("games.txt"), dir.join("dropped.txt"));
    let run = lab()
        .args(["train", "import", "-q", "--out"])
        .arg(&out)
        .arg("--dropped")
        .arg(&dropped)
        .args(SAMPLES.map(data))
        .output()
        .expect("run");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let forbidden = ffo_images();

    // Every imported game is legal, finished, scored by its moves (the
    // games file's reader checks that) and never meets an FFO position.
    let text = fs::read_to_string(&out).expect("games");
    let game = Reversi::DISC_DIFFERENCE;
    let mut kept = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let g = TrainingGame::parse_line(line).expect("a games file line");
        let mut p = Position::start(8);
        for &mv in &g.moves {
            assert!(
                !forbidden.contains(&relative(&p)),
                "game {} meets an FFO position",
                g.index
            );
            p = game.play(&p, mv);
        }
        kept += 1;
    }

    // The samples do hold games through FFO positions, and each of them is
    // dropped (as such, or as a copy of one); unfinished games are dropped.
    let dropped_text = fs::read_to_string(&dropped).expect("dropped");
    let reasons: Vec<Vec<&str>> = dropped_text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect();
    let (mut read, mut through_ffo) = (0, 0);
    for name in SAMPLES {
        for (i, g) in sample_games(name).iter().enumerate() {
            read += 1;
            let reason = reasons
                .iter()
                .find(|r| r[0].ends_with(name) && r[1] == (i + 1).to_string())
                .map(|r| r[2]);
            if g.record
                .positions()
                .iter()
                .any(|p| forbidden.contains(&relative(p)))
            {
                through_ffo += 1;
                assert!(
                    reason.is_some_and(|r| r.starts_with("FFO #") || r == "duplicate"),
                    "{name} game {} passes through an FFO position: {reason:?}",
                    i + 1
                );
            }
            if !g.is_finished() {
                assert_eq!(reason, Some("unfinished"), "{name} game {}", i + 1);
            }
        }
    }
    assert!(
        through_ffo >= 10,
        "only {through_ffo} sample games meet FFO positions"
    );
    assert_eq!(kept + reasons.len(), read);

    // The table counts the same.
    let table = String::from_utf8_lossy(&run.stdout);
    let all = table
        .lines()
        .find(|l| l.starts_with("| all |"))
        .expect("total row");
    let cells: Vec<&str> = all.split('|').map(str::trim).collect();
    assert_eq!(cells[2], read.to_string(), "{table}");
    assert_eq!(cells[6], kept.to_string(), "{table}");
}

#[test]
fn an_illegal_move_names_its_file_and_game_and_nothing_is_written() {
    let dir = scratch_in("import", "illegal");
    let pgn = dir.join("bad.pgn");
    let good = fs::read_to_string(data("wthor/wthor-sample.pgn")).expect("pgn");
    let first = good.split("\n\n").next().expect("a game");
    fs::write(
        &pgn,
        format!("{first}\n\n[Event \"x\"]\n1. F5 D6\n2. C3 C3\n"),
    )
    .expect("write");
    let out = dir.join("games.txt");
    expect_usage_error(
        lab().args(["train", "import", "--out"]).arg(&out).arg(&pgn),
        "bad.pgn: game 2: at move 4",
    );
    assert!(!out.exists());
    let gz = dir.join("x.pgn.gz");
    fs::write(&gz, [0x1f, 0x8b, 8, 0]).expect("write");
    expect_usage_error(
        lab().args(["train", "import", "--out"]).arg(&out).arg(&gz),
        "gzip-compressed",
    );
    let other = dir.join("notes.txt");
    fs::write(&other, "hello\n").expect("write");
    expect_usage_error(
        lab()
            .args(["train", "import", "--out"])
            .arg(&out)
            .arg(&other),
        "is not a WTHOR file",
    );
    assert!(!out.exists());
}

#[test]
fn book_add_and_analyze_read_wthor_games() {
    let dir = scratch_in("import", "users");
    let book = dir.join("book.bin");
    let run = lab()
        .args(["book", "add", "--depth", "4", "--level", "1", "--out"])
        .arg(&book)
        .arg(data("wthor/wthor-sample.pgn"))
        .arg(data("wthor/WTH_1984-sample.wtb"))
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("book: 17 games"), "{stderr}");

    // A PGN game's analysis is that of its moves as a transcript.
    let pgn = fs::read_to_string(data("wthor/wthor-sample.pgn")).expect("pgn");
    let first = pgn.split("\n\n").next().expect("a game");
    let moves = reversi::record::write_transcript(&parse_pgn(first).expect("pgn")[0].record);
    let analyze = |record: &str| {
        let out = reversi()
            .args(["analyze", "--depth", "1", "--no-book", record])
            .output()
            .expect("run");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    };
    // The values may differ with the time each search gets; the moves
    // analysed and the final score may not.
    let skeleton = |report: &str| -> Vec<String> {
        report
            .lines()
            .map(|l| {
                if l.starts_with("final score") {
                    l.to_owned()
                } else {
                    l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
                }
            })
            .collect()
    };
    let report = analyze(first);
    assert_eq!(skeleton(&report), skeleton(&analyze(&moves)));
    assert!(report.contains("final score"), "{report}");
    assert!(report.lines().count() > 60, "{report}");
}

/// Negamax over the plain rules for the side to move (`p` to move, `o`
/// the other), standard scoring.
fn brute(p: u64, o: u64) -> i32 {
    let board = reversi::board::Board::from_bits(p, o, 8).expect("8x8");
    let position = Position {
        board,
        to_move: reversi::board::Color::Black,
    };
    let game = Reversi::DISC_DIFFERENCE;
    let moves: Vec<_> = game.moves(&position).collect();
    if moves.is_empty() {
        return reversi::record::standard_score(&board);
    }
    moves
        .into_iter()
        .map(|mv| {
            let next = game.play(&position, mv);
            let b = next.board;
            -brute(
                b.discs(reversi::board::Color::White),
                b.discs(reversi::board::Color::Black),
            )
        })
        .max()
        .expect("a move")
}

#[test]
fn the_held_out_set_is_solved_exactly_without_training_positions() {
    let dir = scratch_in("import", "heldout");
    let games = dir.join("held.txt");
    lab()
        .args(["train", "import", "-q", "--out"])
        .arg(&games)
        .arg(data("wthor/wthor-sample.pgn"))
        .assert()
        .success();
    let labels = dir.join("labels.txt");
    let heldout = |training: Option<&std::path::Path>| {
        let mut cmd = lab();
        cmd.args([
            "train",
            "heldout",
            "-q",
            "--empties",
            "9-10",
            "--positions",
            "6",
        ])
        .arg("--games")
        .arg(&games)
        .arg("--out")
        .arg(&labels)
        .arg("--force");
        if let Some(t) = training {
            cmd.arg("--training").arg(t);
        }
        let out = cmd.output().expect("run");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    };
    let table = heldout(None);
    assert!(
        table.contains("| 10 |") && table.contains("| 9 |"),
        "{table}"
    );
    let text = fs::read_to_string(&labels).expect("labels");
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines.len(), 6);
    for line in lines {
        let l = reversi::lab::train::labels::Label::parse_line(line).expect("a label");
        let exact = brute(l.position.player, l.position.opponent);
        assert_eq!(l.value.0, exact * reversi::units::Eval::PER_DISC, "{line}");
    }
    // With the same games as training, every position is a training one.
    let table = heldout(Some(&games));
    let text = fs::read_to_string(&labels).expect("labels");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(!table.contains("| 10 |"), "{table}");
}

/// The smallest of the eight images of a position, by the naive images.
fn naive_canonical(p: u64, o: u64) -> (u64, u64) {
    (0..8)
        .map(|s| (naive_image(p, s), naive_image(o, s)))
        .min()
        .expect("eight images")
}

#[test]
fn theoretical_labels_are_the_wtb_scores_of_each_kept_games_position_at_24_empties() {
    let dir = scratch_in("import", "theoretical");
    let (out, labels) = (dir.join("games.txt"), dir.join("theoretical.txt"));
    let name = "wthor/WTH_1984-sample.wtb";
    let run = lab()
        .args(["train", "import", "-q", "--out"])
        .arg(&out)
        .arg("--theoretical-labels")
        .arg(&labels)
        .arg(data(name))
        .output()
        .expect("run");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // Black's theoretical discs, straight from the file's bytes (byte 7 of
    // each 68-byte game after the 16-byte header), by the game's moves.
    let bytes = fs::read(data(name)).expect("wtb");
    assert_eq!(bytes[14], 24, "the sample's theoretical depth");
    let games = sample_games(name);
    let theoretical_of = |moves: &[reversi::reversi::Move]| -> i32 {
        let i = games
            .iter()
            .position(|g| g.record.move_list() == moves)
            .expect("a kept game is a game of the file");
        2 * i32::from(bytes[16 + 68 * i + 7]) - 64
    };
    let kept: Vec<TrainingGame> = fs::read_to_string(&out)
        .expect("games")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| TrainingGame::parse_line(l).expect("games line"))
        .collect();
    let text = fs::read_to_string(&labels).expect("labels");
    let mut lines = text.lines();
    assert!(lines
        .next()
        .expect("header")
        .starts_with("# reversi-lab train label:"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert!(!kept.is_empty());
    assert_eq!(rows.len(), kept.len(), "every kept game reaches 24 empties");
    let game = Reversi::DISC_DIFFERENCE;
    for (item, (row, g)) in rows.iter().zip(&kept).enumerate() {
        assert_eq!(row[0], item.to_string());
        assert_eq!(row[1], g.index.to_string());
        let mut p = Position::start(8);
        for &mv in &g.moves {
            if p.board.empty().count_ones() == 24 && p.board.moves(p.to_move) != 0 {
                break;
            }
            p = game.play(&p, mv);
        }
        let (mover, other) = naive_canonical(relative(&p).0, relative(&p).1);
        assert_eq!(row[2], format!("{mover:016x}"));
        assert_eq!(row[3], format!("{other:016x}"));
        assert_eq!(row[4], "24");
        let black = theoretical_of(&g.moves);
        let for_mover = if p.to_move == reversi::board::Color::Black {
            black
        } else {
            -black
        };
        assert_eq!(row[5], (64 * for_mover).to_string());
        assert_eq!(row[6], "exact");
    }
    // `reversi-lab train fit` reads it as labels.
    let weights = dir.join("w.bin");
    let fit = lab()
        .args(["train", "fit", "-q", "--iterations", "2", "--labels"])
        .arg(&labels)
        .arg("--out")
        .arg(&weights)
        .output()
        .expect("run");
    assert!(
        fit.status.success(),
        "{}",
        String::from_utf8_lossy(&fit.stderr)
    );
}

#[test]
fn the_held_out_test_set_is_300_exact_positions_of_20_to_24_empties_and_no_ffo_position() {
    use reversi::lab::train::labels::{Label, LabelSource};
    let text = fs::read_to_string(data("wthor/heldout-2023.txt")).expect("held-out set");
    let mut lines = text.lines();
    assert!(lines
        .next()
        .expect("header")
        .starts_with("# reversi train label: heldout empties 20-24 exact positions 300"));
    let forbidden = ffo_images();
    let mut distinct = HashSet::new();
    let mut per_empties = [0; 65];
    for line in lines {
        let label = Label::parse_line(line).expect("a label line");
        assert_eq!(label.source, LabelSource::Exact);
        let p = label.position;
        let empties = 64 - (p.player | p.opponent).count_ones();
        assert!((20..=24).contains(&empties), "{line}");
        per_empties[empties as usize] += 1;
        // An exact score of a full 8x8 game (empty squares to the winner)
        // is an even number of discs.
        assert_eq!(label.value.0 % (2 * 64), 0, "{line}");
        assert!(!forbidden.contains(&(p.player, p.opponent)), "{line}");
        assert!(distinct.insert((p.player, p.opponent)), "{line} twice");
    }
    assert_eq!(distinct.len(), 300);
    assert!(
        per_empties[20..=24].iter().all(|&n| n >= 40),
        "{per_empties:?}"
    );
}

/// The second test set (`train heldout-moves --positions 60`): the
/// positions after every legal move of 60 of the held-out positions, each
/// exact. Two files solved apart agree: each parent's best move keeps its
/// value (the largest minus-child is the parent's exact score), and no
/// move's value beats it.
#[test]
fn the_second_held_out_set_holds_every_move_of_60_positions_and_agrees_with_the_first() {
    use reversi::lab::train::labels::{Label, LabelSource};
    use std::collections::HashMap;
    let parse = |name: &str| -> (String, Vec<Label>) {
        let text = fs::read_to_string(data(name)).expect(name);
        let mut lines = text.lines();
        let header = lines.next().expect("header").to_owned();
        (
            header,
            lines
                .map(|l| Label::parse_line(l).expect("a label"))
                .collect(),
        )
    };
    let (_, parents) = parse("wthor/heldout-2023.txt");
    let (header, children) = parse("wthor/heldout-2023-moves-60.txt");
    assert!(header.starts_with("# reversi train label: heldout-moves of 60 positions "));
    let value: HashMap<u64, i32> = parents
        .iter()
        .map(|l| (l.position.item, l.value.0))
        .collect();
    let mut best: HashMap<u64, i32> = HashMap::new();
    for (k, child) in children.iter().enumerate() {
        assert_eq!(child.source, LabelSource::Exact);
        assert_eq!(child.position.item, k as u64);
        let parent = value[&child.position.game];
        let mv = -child.value.0;
        assert!(mv <= parent, "{child:?}");
        let b = best.entry(child.position.game).or_insert(i32::MIN);
        *b = (*b).max(mv);
    }
    assert_eq!(best.len(), 60);
    assert!(best.iter().all(|(game, b)| value[game] == *b));
    assert!(children.len() > 400, "{}", children.len());
}

/// `train import`'s outputs named twice under other spellings (`./`, a
/// folder and `..`, a symlink; a new file or an existing one): refused
/// before anything is written, instead of one output holding the other's
/// content (exit 0, `--out` lost).
#[test]
fn two_outputs_that_are_one_file_under_two_spellings_are_refused() {
    let dir = scratch_in("import", "one-file");
    fs::create_dir_all(dir.join("sub")).expect("sub");
    let wtb = data("wthor/WTH_1984-sample.wtb");
    let spellings: [(&str, &str, &str); 4] = [
        ("--dropped", "games.txt", "./games.txt"),
        ("--theoretical-labels", "g.txt", "./g.txt"),
        ("--dropped", "games.txt", "sub/../games.txt"),
        ("--theoretical-labels", "games.txt", "link.txt"),
    ];
    #[cfg(unix)]
    std::os::unix::fs::symlink("games.txt", dir.join("link.txt")).expect("symlink");
    for existing in [false, true] {
        for (option, out, other) in spellings {
            if cfg!(not(unix)) && other == "link.txt" {
                continue;
            }
            let _ = fs::remove_file(dir.join("games.txt"));
            let _ = fs::remove_file(dir.join("g.txt"));
            if existing {
                fs::write(dir.join(out), "# kept\n").expect("write");
            }
            expect_usage_error(
                lab()
                    .current_dir(&dir)
                    .args([
                        "train", "import", "-q", "--force", "--out", out, option, other,
                    ])
                    .arg(&wtb),
                "name the same file",
            );
            let left = fs::read_to_string(dir.join(out)).ok();
            assert_eq!(
                left.as_deref(),
                existing.then_some("# kept\n"),
                "--out {out} {option} {other}"
            );
        }
    }
}

/// A `.wtb` with a disc byte above 64 (a score up to 446 discs), a
/// theoretical depth above 60, or a depth of 60 (every game's start
/// position, valued differently by each game) is refused with one line
/// naming the file and the game, and nothing is written: before, the
/// import wrote labels that `train compare` and `fit` refuse.
#[test]
fn a_wtb_score_or_depth_its_readers_would_refuse_is_refused_at_import() {
    let dir = scratch_in("import", "wtb-values");
    let good = fs::read(data("wthor/WTH_1984-sample.wtb")).expect("wtb");
    let game = |n: usize, at: usize| 16 + 68 * (n - 1) + at;
    let cases: [(&str, usize, u8, &str); 5] = [
        ("theoretical", game(3, 7), 65, "game 3"),
        ("theoretical-255", game(1, 7), 255, "game 1"),
        ("actual", game(5, 6), 200, "game 5"),
        ("depth-61", 14, 61, "bad header: theoretical depth 61"),
        ("depth-255", 14, 255, "bad header: theoretical depth 255"),
    ];
    for (name, at, byte, needle) in cases {
        let mut bytes = good.clone();
        bytes[at] = byte;
        let file = dir.join(format!("{name}.wtb"));
        fs::write(&file, bytes).expect("write");
        let (out, labels) = (dir.join("games.txt"), dir.join("labels.txt"));
        expect_usage_error(
            lab()
                .args(["train", "import", "-q", "--out"])
                .arg(&out)
                .arg("--theoretical-labels")
                .arg(&labels)
                .arg(&file),
            &format!("{name}.wtb: {needle}"),
        );
        assert!(!out.exists() && !labels.exists(), "{name}");
    }
    // Depth 60: each game labels the start position with its own score,
    // so no game's label of it is written (the exact labels would
    // contradict one another), and the summary says so.
    let mut bytes = good.clone();
    bytes[14] = 60;
    let file = dir.join("depth-60.wtb");
    fs::write(&file, bytes).expect("write");
    let labels = dir.join("labels.txt");
    let run = lab()
        .args(["train", "import", "-q", "--out"])
        .arg(dir.join("games.txt"))
        .arg("--theoretical-labels")
        .arg(&labels)
        .arg(&file)
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("Theoretical scores left out: 4 games' of 1 positions"),
        "{stdout}"
    );
    let text = fs::read_to_string(&labels).expect("labels");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.is_empty(), "{text}");
}

/// The address space (`RLIMIT_AS`) the large imports below run in: the
/// import streams its files a game at a time, so what it needs does not
/// grow with a file's size (the whole-file reading needed 47 times a
/// `.wtb`'s size, 17 times a `.gam`'s and 10 times a PGN's).
#[cfg(unix)]
const CAPPED: u64 = 48 << 20;

/// The counts of a `train import` table's `all` row: read, unfinished,
/// duplicates, through an FFO position, kept, stated score not the moves'.
fn all_row(table: &str) -> [u64; 6] {
    let row = table
        .lines()
        .find(|l| l.starts_with("| all |"))
        .unwrap_or_else(|| panic!("no `all` row in {table}"));
    let cells: Vec<u64> = row
        .split('|')
        .map(str::trim)
        .filter_map(|c| c.parse().ok())
        .collect();
    cells.try_into().expect("six counts")
}

/// `train import` of `file` in `dir` (`--out games.txt`, and
/// `--theoretical-labels labels.txt` and `--dropped dropped.txt` for a
/// `.wtb`), within `cap` bytes of address space if given: its table,
/// games file and labels file (the dropped list is left in `dir`).
fn import_in(dir: &std::path::Path, file: &str, cap: Option<u64>) -> (String, String, String) {
    let mut args = vec!["train", "import", "-q", "--out", "games.txt"];
    let wtb = file.ends_with(".wtb");
    if wtb {
        args.extend(["--theoretical-labels", "labels.txt"]);
        args.extend(["--dropped", "dropped.txt"]);
    }
    args.push(file);
    let run = match cap {
        #[cfg(unix)]
        Some(bytes) => crate::robust::within_address_space(dir, &args, bytes),
        _ => lab().current_dir(dir).args(&args).output().expect("run"),
    };
    assert!(
        run.status.success(),
        "{file} (cap {cap:?}): {:?} {}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let read = |name: &str| fs::read_to_string(dir.join(name)).unwrap_or_default();
    (
        String::from_utf8(run.stdout).expect("text"),
        read("games.txt"),
        if wtb {
            read("labels.txt")
        } else {
            String::new()
        },
    )
}

/// A sample collection (`tests/data/`) and the same collection repeated
/// `copies` times in one file (a `.wtb` with its header's game count
/// made the whole file's), imported: the large one within [`CAPPED`]
/// bytes of address space, the sample without a cap. The large file's
/// copies are duplicates of the first, so it keeps the sample's games and
/// labels, byte for byte, and its counts are the sample's scaled.
fn repeated_import_matches_the_sample(sample: &str, copies: u64) {
    let name = sample.rsplit('/').next().expect("a name");
    let dir = scratch_in("import", &format!("large-{name}"));
    let (one, many) = (dir.join("one"), dir.join("many"));
    fs::create_dir_all(&one).expect("dir");
    fs::create_dir_all(&many).expect("dir");
    let bytes = fs::read(data(sample)).expect("sample");
    let big = if name.ends_with(".wtb") {
        let games = &bytes[16..];
        let count = (games.len() / 68) as u64 * copies;
        let mut header = bytes[..16].to_vec();
        header[4..8].copy_from_slice(&u32::try_from(count).expect("u32").to_le_bytes());
        let mut big = header;
        for _ in 0..copies {
            big.extend_from_slice(games);
        }
        big
    } else {
        // A blank line between copies ends a PGN game; `.gam` skips it.
        let mut copy = bytes.clone();
        copy.push(b'\n');
        copy.repeat(copies as usize)
    };
    assert!(big.len() > 12 << 20, "{name}: {} bytes", big.len());
    fs::write(one.join(name), &bytes).expect("write");
    fs::write(many.join(name), &big).expect("write");
    let (table, games, labels) = import_in(&one, name, None);
    #[cfg(unix)]
    let cap = Some(CAPPED);
    #[cfg(not(unix))]
    let cap = None;
    let (big_table, big_games, big_labels) = import_in(&many, name, cap);
    assert_eq!(big_games, games, "{name}: the games kept");
    assert_eq!(big_labels, labels, "{name}: the theoretical labels");
    if name.ends_with(".wtb") {
        dropped_lists_agree(&one.join("dropped.txt"), &many.join("dropped.txt"), copies);
    }
    let [read, unfinished, _, ffo, kept, disagree] = all_row(&table);
    assert_eq!(
        all_row(&big_table),
        [
            read * copies,
            unfinished * copies,
            (read - unfinished) * copies - ffo - kept,
            ffo,
            kept,
            disagree * copies
        ],
        "{name}: {big_table}"
    );
}

/// The dropped list of a `.wtb` sample (`one`) and of the sample repeated
/// `copies` times (`many`): the first copy's lines are the sample's, and
/// every later copy's game is dropped, as unfinished if the sample's was,
/// else as a duplicate, with the moves the sample's game has.
fn dropped_lists_agree(one: &std::path::Path, many: &std::path::Path, copies: u64) {
    let sample = fs::read_to_string(one).expect("the sample's dropped list");
    let big = fs::read_to_string(many).expect("the large file's dropped list");
    let (sample_lines, big_lines) = (sample.lines().count(), big.lines().count());
    assert!(big.starts_with(&sample), "the first copy's lines");
    let unfinished = sample
        .lines()
        .filter(|l| l.contains("\tunfinished\t"))
        .count();
    let per_copy = big.lines().skip(sample_lines).take_while(|l| {
        let n: u64 = l
            .split('\t')
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        n <= 2 * (big_lines as u64) / copies
    });
    assert!(per_copy.count() > 0);
    for line in big.lines().skip(sample_lines) {
        let why = line.split('\t').nth(2).expect("a reason");
        assert!(why == "duplicate" || why == "unfinished", "{line}");
    }
    let later_unfinished = big
        .lines()
        .skip(sample_lines)
        .filter(|l| l.contains("\tunfinished\t"))
        .count();
    assert_eq!(later_unfinished as u64, unfinished as u64 * (copies - 1));
}

#[test]
fn a_large_wtb_file_is_imported_a_game_at_a_time() {
    // 16 MiB: 247,000 games.
    repeated_import_matches_the_sample("wthor/WTH_1984-sample.wtb", 27_000);
}

#[test]
fn a_large_pgn_file_is_imported_a_game_at_a_time() {
    // 16 MiB: 41,600 games.
    repeated_import_matches_the_sample("wthor/wthor-sample.pgn", 5_200);
}

#[test]
fn a_large_gam_file_is_imported_a_game_at_a_time() {
    // 16 MiB: 88,000 games.
    repeated_import_matches_the_sample("wthor/logbook-sample.gam", 8_800);
}

/// A `.wtb` file beyond the 512 MiB that the whole-file reading took at
/// most (it refused larger ones): the sample's 9 games, then 8,000,000
/// records of zero bytes (a sparse file: no disk used), each an empty
/// game that is dropped as unfinished. It is imported within [`CAPPED`]
/// bytes of address space, the sample's games kept.
#[cfg(unix)]
#[test]
fn a_wtb_file_beyond_the_old_cap_is_imported_not_read_whole() {
    let dir = scratch_in("import", "beyond-cap");
    let (one, many) = (dir.join("one"), dir.join("many"));
    fs::create_dir_all(&one).expect("dir");
    fs::create_dir_all(&many).expect("dir");
    let empty = 8_000_000u64;
    let sample = fs::read(data("wthor/WTH_1984-sample.wtb")).expect("sample");
    fs::write(one.join("g.wtb"), &sample).expect("write");
    let mut bytes = sample.clone();
    let count = (sample.len() as u64 - 16) / 68 + empty;
    bytes[4..8].copy_from_slice(&u32::try_from(count).expect("u32").to_le_bytes());
    let path = many.join("g.wtb");
    fs::write(&path, &bytes).expect("write");
    let length = 16 + 68 * count;
    assert!(length > 512 << 20);
    fs::File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_len(length))
        .expect("grow");
    let (table, games, labels) = import_in(&one, "g.wtb", None);
    let (big_table, big_games, big_labels) = import_in(&many, "g.wtb", Some(CAPPED));
    let [read, unfinished, duplicates, ffo, kept, disagree] = all_row(&table);
    assert_eq!(
        all_row(&big_table),
        [
            read + empty,
            unfinished + empty,
            duplicates,
            ffo,
            kept,
            disagree
        ]
    );
    assert_eq!((big_games, big_labels), (games, labels));
}
