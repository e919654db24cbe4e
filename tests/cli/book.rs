//! `reversi book` over the binary: a build sharded under GNU parallel
//! merges to the unsharded book byte for byte, export and import round
//! trip, `show` answers in the orientation asked, `deepen` and `add` grow
//! the book, and bad files give one `error:` line.

use crate::harness::{command_of, expect_success, expect_usage_error, lab, reversi, scratch_in};
use reversi::engine::book::Book;
use reversi::engine::RelativePosition;
use reversi::game::Game;
use reversi::record::{write_transcript, GameRecord, RecordedMove};
use reversi::reversi::{Position, Reversi};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

fn read_book(path: &Path) -> Book {
    Book::from_bytes(&fs::read(path).expect("book")).expect("a valid book")
}

/// Runs `reversi ARGS` (or `reversi-lab ARGS`: [`command_of`]), which must succeed, and returns its stdout.
fn run(args: &[&str]) -> String {
    let out = command_of(args).output().expect("run");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("text")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn a_book_searched_in_shards_under_gnu_parallel_is_the_unsharded_book() {
    if crate::train::gnu_parallel().is_none() {
        return;
    }
    let dir = scratch_in("book", "sharded");
    let whole = dir.join("whole.bin");
    new_book(&whole, "4", "2");
    let planned = dir.join("planned.bin");
    run(&[
        "book",
        "new",
        "-q",
        "--depth",
        "4",
        "--no-search",
        "--out",
        path(&planned),
    ]);
    let out = std::process::Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "3"])
        .arg(env!("CARGO_BIN_EXE_reversi-lab"))
        .args([
            "book",
            "search",
            "-q",
            "--threads",
            "1",
            "--level",
            "2",
            "--book",
        ])
        .arg(&planned)
        .args(["--shard", "{}/3", "--out"])
        .arg(format!("{}/searched.{{}}", dir.display()))
        .args([":::", "0", "1", "2"])
        .output()
        .expect("run parallel");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shards: Vec<PathBuf> = (0..3).map(|k| dir.join(format!("searched.{k}"))).collect();
    let merged = dir.join("merged.bin");
    let mut merge = lab();
    merge
        .args(["book", "merge", "--book"])
        .arg(&planned)
        .arg("--out")
        .arg(&merged)
        .args(shards.iter().rev());
    merge.assert().success();
    let bytes = fs::read(&whole).expect("book");
    assert_eq!(fs::read(&merged).expect("merged"), bytes);
    // Every position of the first 4 plies (79 up to symmetry: 1, 1, 3,
    // 14, 60), the last ply's searched at level 2.
    let book = read_book(&whole);
    assert_eq!(book.len(), 79);
    assert!(book.sorted().iter().all(|(_, e)| e.value().is_some()));

    // A shard missing, given twice, or cut short: refused, nothing written.
    let refused = dir.join("refused.bin");
    let merge_of = |files: &[&PathBuf]| {
        let mut cmd = lab();
        cmd.args(["book", "merge", "--book"])
            .arg(&planned)
            .arg("--out")
            .arg(&refused)
            .args(files);
        cmd
    };
    expect_usage_error(
        &mut merge_of(&[&shards[0], &shards[1]]),
        "shard 2/3 is missing",
    );
    expect_usage_error(
        &mut merge_of(&[&shards[0], &shards[0], &shards[1]]),
        "given twice",
    );
    let text = fs::read_to_string(&shards[1]).expect("shard");
    fs::write(&shards[1], &text[..text.len() - 3]).expect("cut");
    expect_usage_error(
        &mut merge_of(&[&shards[0], &shards[1], &shards[2]]),
        "cut short",
    );
    // The search run again finishes the cut shard.
    run(&[
        "book",
        "search",
        "-q",
        "--level",
        "2",
        "--book",
        path(&planned),
        "--shard",
        "1/3",
        "--out",
        path(&shards[1]),
    ]);
    assert_eq!(fs::read_to_string(&shards[1]).expect("shard"), text);
    // Searches of another plan are refused.
    let other = dir.join("other.bin");
    run(&[
        "book",
        "new",
        "-q",
        "--depth",
        "3",
        "--no-search",
        "--out",
        path(&other),
    ]);
    let mut cmd = lab();
    cmd.args(["book", "merge", "--book"])
        .arg(&other)
        .arg("--out")
        .arg(&refused)
        .args(&shards);
    expect_usage_error(&mut cmd, "another book or plan");
    assert!(!refused.exists());
}

#[test]
fn export_and_import_give_the_book_back_byte_for_byte() {
    let dir = scratch_in("book", "text");
    let book = dir.join("book.bin");
    new_book(&book, "3", "1");
    let text = run(&["book", "export", "--book", path(&book)]);
    assert!(
        text.starts_with("# reversi opening book 1: 19 positions\n"),
        "{text}"
    );
    let file = dir.join("book.txt");
    fs::write(&file, &text).expect("text");
    let again = dir.join("again.bin");
    run(&["book", "import", path(&file), "--out", path(&again)]);
    assert_eq!(
        fs::read(&again).expect("again"),
        fs::read(&book).expect("book")
    );
    // A line spoiled: one error line naming it.
    let spoiled = text.replacen(" level ", " lovel ", 1);
    fs::write(&file, spoiled).expect("text");
    expect_usage_error(
        lab()
            .args(["book", "import"])
            .arg(&file)
            .arg("--out")
            .arg(&again),
        "line 2: expected \"level\"",
    );
}

/// The moves and values `show` prints, by move name.
fn shown(text: &str) -> Vec<(String, f64, String)> {
    text.lines()
        .skip(2)
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            (
                words[0].to_owned(),
                words[1].parse().expect("a value"),
                words[2..].join(" "),
            )
        })
        .collect()
}

#[test]
fn show_answers_in_the_orientation_asked_and_deepen_follows_the_best_lines() {
    let dir = scratch_in("book", "show");
    let book = dir.join("book.bin");
    new_book(&book, "2", "2");
    // The start's four moves lead to images of one position: one value.
    let board = "---------------------------OX------XO--------------------------- X";
    let start_text = run(&["book", "show", "--book", path(&book), board]);
    let moves = shown(&start_text);
    assert_eq!(moves.len(), 4, "{start_text}");
    assert!(moves.iter().all(|m| m.1 == moves[0].1 && m.2 == "book"));
    let names: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    // After f5 and after its image d3, the same values (on the images of
    // the moves).
    let after_f5 = shown(&run(&["book", "show", "--book", path(&book), "f5"]));
    let after_d3 = shown(&run(&["book", "show", "--book", path(&book), "d3"]));
    let mut a: Vec<f64> = after_f5.iter().map(|m| m.1).collect();
    let mut b: Vec<f64> = after_d3.iter().map(|m| m.1).collect();
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    assert_eq!(a, b);
    assert_eq!(a.len(), 3);
    // Every move shown is legal where it is shown.
    let d3 = reversi::record::parse_game("d3", 8).expect("d3").last();
    let legal: Vec<String> = Reversi::DISC_DIFFERENCE
        .moves(&d3)
        .map(|m| m.to_string())
        .collect();
    assert!(
        after_d3.iter().all(|m| legal.contains(&m.0)),
        "{after_d3:?} {legal:?}"
    );

    // Deepen the best lines to ply 5: the best line from the start is in
    // the book to ply 5, and nothing waits for a search.
    let deep = dir.join("deep.bin");
    run(&[
        "book",
        "deepen",
        "-q",
        "--book",
        path(&book),
        "--depth",
        "5",
        "--within",
        "0",
        "--level",
        "2",
        "--out",
        path(&deep),
    ]);
    let grown = read_book(&deep);
    assert!(grown.len() > read_book(&book).len());
    let mut p = RelativePosition::start(8);
    for ply in 0..5 {
        let entry = grown
            .lookup(&p)
            .unwrap_or_else(|| panic!("ply {ply} in the book"));
        let best = entry.ranked()[0];
        assert!(
            best.searched,
            "ply {ply}: the best move leads into the book"
        );
        assert_eq!(Some(best.mv.value), entry.value());
        p = p.play(best.mv.square.0);
    }
    let stats = run(&["book", "stats", "--book", path(&deep)]);
    assert!(
        stats.contains(", 0 positions waiting for a search,"),
        "{stats}"
    );

    // Lines from every ply-2 position within 1 disc, to ply 5; the book
    // written after each round is where a stopped run goes on: run again
    // on its own output, nothing is added and the bytes stay.
    let wide = dir.join("wide.bin");
    let deepen_wide = |from: &Path| {
        run(&[
            "book",
            "deepen",
            "--book",
            path(from),
            "--from-ply",
            "2",
            "--depth",
            "5",
            "--within",
            "1",
            "--level",
            "2",
            "--out",
            path(&wide),
        ])
    };
    deepen_wide(&book);
    let first = fs::read(&wide).expect("the deepened book");
    assert!(read_book(&wide).len() > read_book(&book).len());
    deepen_wide(&wide);
    assert_eq!(fs::read(&wide).expect("read again"), first);

    // Lines from a ply the book does not reach: said, nothing written.
    let none = dir.join("none.bin");
    expect_usage_error(
        lab().args([
            "book",
            "deepen",
            "--book",
            path(&book),
            "--from-ply",
            "40",
            "--depth",
            "45",
            "--level",
            "2",
            "--out",
            path(&none),
        ]),
        "no position at ply 40",
    );
    assert!(!none.exists());

    // Every position of the first 3 plies added to the deepened book:
    // the positions of both are there, its deeper entries unchanged, and
    // nothing waits for a search.
    let full = dir.join("full.bin");
    let direct = dir.join("direct.bin");
    let complete = |base: Option<&Path>, out: &Path| {
        let mut args = vec!["book", "new", "-q", "--depth", "3", "--level", "2"];
        if let Some(base) = base {
            args.extend(["--book", path(base)]);
        }
        args.extend(["--out", path(out)]);
        run(&args);
    };
    complete(Some(&deep), &full);
    complete(None, &direct);
    let (full, deep, direct) = (read_book(&full), read_book(&deep), read_book(&direct));
    let full_entries: HashMap<_, _> = full.sorted().into_iter().collect();
    for (key, entry) in deep.sorted() {
        let kept = full_entries.get(&key).expect("a position of the base book");
        if reversi::engine::book::ply(key) > 3 {
            assert_eq!(*kept, entry, "a position beyond ply 3 keeps its entry");
        }
    }
    for (key, _) in direct.sorted() {
        assert!(
            full_entries.contains_key(&key),
            "a position of the first 3 plies"
        );
    }
    assert!(full.len() > deep.len() && full.len() > direct.len());
    assert!(full.sorted().iter().all(|(_, e)| e.value().is_some()));
}

/// A finished game where each side plays its first (`last`: its last)
/// legal move in reading order.
fn scripted_game(last: bool) -> GameRecord {
    let game = Reversi::DISC_DIFFERENCE;
    let mut record = GameRecord::new(Position::start(8));
    loop {
        let moves: Vec<_> = game.moves(&record.last()).collect();
        let pick = if last { moves.last() } else { moves.first() };
        let Some(&mv) = pick else { break };
        record.push(RecordedMove::plain(mv)).expect("legal");
    }
    record
}

#[test]
fn added_games_count_their_results_and_bad_books_are_refused() {
    let dir = scratch_in("book", "add");
    let games = [scripted_game(false), scripted_game(true)];
    let file = dir.join("games.txt");
    let text: String = games
        .iter()
        .map(|g| format!("{}\n", write_transcript(g)))
        .collect();
    fs::write(&file, format!("# two games\n{text}")).expect("games");
    let book = dir.join("book.bin");
    run(&[
        "book",
        "add",
        "-q",
        "--depth",
        "6",
        "--level",
        "1",
        "--out",
        path(&book),
        path(&file),
    ]);
    let learned = read_book(&book);
    let start = learned
        .lookup(&RelativePosition::start(8))
        .expect("the start");
    let black: Vec<i32> = games
        .iter()
        .map(|g| g.final_score().expect("over"))
        .collect();
    assert_eq!(start.counts.games(), 2);
    assert_eq!(
        start.counts.wins,
        black.iter().filter(|&&s| s > 0).count() as u32
    );
    assert_eq!(
        start.counts.losses,
        black.iter().filter(|&&s| s < 0).count() as u32
    );
    let board = "---------------------------OX------XO--------------------------- X";
    let shown = run(&["book", "show", "--book", path(&book), board]);
    assert!(shown.contains("games: 2 ("), "{shown}");
    let stats = run(&["book", "stats", "--book", path(&book)]);
    // Each game counted once at each of its first 7 positions.
    assert!(stats.contains(" 14 games counted,"), "{stats}");

    // Corrupt, truncated and foreign books: one error line each.
    let bytes = fs::read(&book).expect("book");
    let bad = dir.join("bad.bin");
    let mut flipped = bytes.clone();
    flipped[40] ^= 1;
    fs::write(&bad, &flipped).expect("write");
    expect_usage_error(
        reversi().args(["book", "stats", "--book"]).arg(&bad),
        "is corrupt (checksum mismatch)",
    );
    fs::write(&bad, &bytes[..bytes.len() - 1]).expect("write");
    expect_usage_error(
        reversi().args(["book", "stats", "--book"]).arg(&bad),
        "is truncated",
    );
    expect_usage_error(
        reversi().args(["book", "stats", "--book"]).arg(&file),
        "is not an opening book file",
    );
    // A file that is not a book is never replaced without --force.
    expect_usage_error(
        lab()
            .args(["book", "new", "--depth", "1", "--level", "1", "--out"])
            .arg(&file),
        "not replacing it",
    );
    assert!(fs::read_to_string(&file)
        .expect("games")
        .starts_with("# two games"));
    expect_usage_error(
        lab()
            .args(["book", "new", "--depth", "1", "--out"])
            .arg(&bad),
        "--level",
    );
}

#[test]
fn an_interrupted_build_continues_its_search_file_and_openings_start_the_book() {
    let dir = scratch_in("book", "resumed");
    let openings = dir.join("openings.txt");
    fs::write(&openings, "# two openings\nf5d6\nf5f6e6\n").expect("openings");
    let (book, searched) = (dir.join("book.bin"), dir.join("searched.txt"));
    let args = [
        "book",
        "new",
        "-q",
        "--depth",
        "4",
        "--level",
        "1",
        "--openings",
        path(&openings),
        "--searched",
        path(&searched),
        "--out",
        path(&book),
    ];
    run(&args);
    let (bytes, text) = (
        fs::read(&book).expect("book"),
        fs::read_to_string(&searched).expect("searched"),
    );
    // Cut after 3 whole results and half of the next, as an interruption
    // would: the run again continues the file to the same bytes.
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    assert!(lines.len() > 6, "{text}");
    let kept: String = lines[..4].concat() + &lines[4][..5];
    fs::write(&searched, &kept).expect("cut");
    fs::remove_file(&book).expect("remove");
    run(&args);
    assert_eq!(fs::read_to_string(&searched).expect("searched"), text);
    assert_eq!(fs::read(&book).expect("book"), bytes);
    // It is continued, not redone: a kept result changed (still valid)
    // stays, and the book takes its value.
    let mut fields: Vec<&str> = lines[1].trim_end().split('\t').collect();
    let changed = (fields[4].parse::<i32>().expect("a value") + 64).to_string();
    fields[4] = &changed;
    let edited = fields.join("\t") + "\n";
    fs::write(
        &searched,
        lines[0].to_owned() + &edited + &lines[2..4].concat(),
    )
    .expect("edit");
    run(&args);
    let again = fs::read_to_string(&searched).expect("searched");
    assert_eq!(again, text.replacen(lines[1], &edited, 1));
    assert_ne!(fs::read(&book).expect("book"), bytes);
    // The openings' lines are in the book: f5 d6 and f5 f6 e6, and from
    // their ends every position to ply 4; the other moves of the start's
    // images are not.
    let b = read_book(&book);
    let start = RelativePosition::start(8);
    let f5 = start.play(37);
    assert!(b.lookup(&f5.play(43)).is_some() && b.lookup(&f5.play(45)).is_some());
    assert!(
        b.lookup(&f5.play(29)).is_none(),
        "f5 f4 is no opening given"
    );
    let f5d6 = b.lookup(&f5).expect("after f5");
    assert_eq!(f5d6.searched.len(), 2);
    assert!(f5d6.unsearched.is_some());
}

/// The Edax-made book of `tests/data` (see `edax-small-book.md`).
fn edax_small_book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/edax-small-book.dat")
}

#[test]
fn an_edax_book_is_imported_and_exported_for_edax_and_back_unchanged() {
    let dir = scratch_in("book", "edax");
    let ours = dir.join("ours.bin");
    run(&[
        "book",
        "import-edax",
        "-q",
        path(&edax_small_book()),
        "--out",
        path(&ours),
    ]);
    let book = read_book(&ours);
    assert_eq!(book.len(), 725);
    // Edax's own `book show` of the start position (tests/data/
    // edax-small-book-show.txt) lists f5, e6, c4 and d3 at +0.
    let start = run(&["book", "show", "--book", path(&ours), &start_board()]);
    for m in ["f5", "e6", "c4", "d3"] {
        assert!(
            start
                .lines()
                .any(|l| l.starts_with(m) && l.contains("+0.00")),
            "{start}"
        );
    }
    let for_edax = dir.join("for-edax.dat");
    run(&[
        "book",
        "export-edax",
        "--book",
        path(&ours),
        "--out",
        path(&for_edax),
    ]);
    let again = dir.join("again.bin");
    run(&[
        "book",
        "import-edax",
        "-q",
        path(&for_edax),
        "--out",
        path(&again),
    ]);
    assert_eq!(read_book(&again), book);
    // Not an Edax book: one error line, nothing written.
    let bad = dir.join("bad.bin");
    expect_usage_error(
        lab().args(["book", "import-edax", path(&ours), "--out", path(&bad)]),
        "not an Edax",
    );
    assert!(!bad.exists());
}

#[test]
fn the_engine_answers_from_the_book_everywhere_and_searches_without_it() {
    let dir = scratch_in("book", "engine");
    let book = dir.join("b.bin");
    new_book(&book, "3", "4");
    let shown = shown(&run(&["book", "show", "--book", path(&book), "f5"]));
    // hint: the book's moves and values, marked as book values.
    let hint = run(&["hint", "--book", path(&book), "--moves", "10", "f5"]);
    let hinted: Vec<(String, f64)> = hint
        .lines()
        .skip(1)
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w[2], "book", "{hint}");
            (w[0].to_string(), w[1].parse().unwrap())
        })
        .collect();
    let expected: Vec<(String, f64)> = shown.iter().map(|(m, v, _)| (m.clone(), *v)).collect();
    assert_eq!(hinted, expected);
    // Without the book the same command searches.
    let searched = run(&["hint", "--no-book", "--depth", "2", "--moves", "1", "f5"]);
    assert!(searched.contains("depth 2"), "{searched}");
    // A level match plays the book's best moves while it holds the
    // position: the first move of the start is the book's best there.
    let best_at_start = shown_best(&run(&[
        "book",
        "show",
        "--book",
        path(&book),
        &start_board(),
    ]));
    let json = run(&[
        "match",
        "--size",
        "8",
        "--level",
        "2",
        "--book",
        path(&book),
        "--json",
    ]);
    assert!(
        json.contains(&format!("\"moves\":[\"{best_at_start}\"")),
        "{json}"
    );
    // A tournament counts the book moves of the side under test. The book
    // holds every position of the first 3 plies and the opponent has none:
    // after each 1-ply opening the side under test plays from the book at
    // plies 2 and 4 as white, at ply 3 as black (the position after 4
    // plies is not in the book), so 1.5 book moves a game, the last at ply
    // 3.5 on average.
    let tournament = |book: &[&str]| {
        let mut args = vec![
            "tournament",
            "--size",
            "8",
            "--plies",
            "1",
            "--level",
            "2",
            "--vs-level",
            "2",
            "--vs-no-book",
            "-q",
        ];
        args.extend_from_slice(book);
        run(&args)
    };
    let text = tournament(&["--book", path(&book)]);
    assert!(
        text.ends_with("book moves of level 2: 1.50 a game, the last at ply 3.5 on average\n"),
        "{text}"
    );
    let json = tournament(&["--book", path(&book), "--json"]);
    assert!(
        json.contains("\"book_moves_per_game\":1.50,\"average_last_book_ply\":3.5}"),
        "{json}"
    );
    assert!(!tournament(&["--no-book"]).contains("book moves"));
    // GTP plays the book move at the start.
    let gtp = reversi()
        .args(["gtp", "--book", path(&book)])
        .write_stdin("genmove black\nquit\n")
        .output()
        .unwrap();
    let text = String::from_utf8(gtp.stdout).unwrap();
    assert!(
        text.starts_with(&format!("= {}", best_at_start.to_uppercase())),
        "{text}"
    );
    // A bad book is refused in one line.
    expect_usage_error(
        reversi().args(["hint", "--book", path(&edax_small_book()), "f5"]),
        "book file",
    );
}

/// The best move of a `book show` listing.
fn shown_best(text: &str) -> String {
    shown(text)[0].0.clone()
}

/// The start position as a board string.
fn start_board() -> String {
    format!("{0}---OX------XO---{0} X", "-".repeat(24))
}

/// Runs `reversi book new` of `depth` plies at `level` into `out`
/// (`level` "none": planned only, `--no-search`).
fn new_book(out: &Path, depth: &str, level: &str) {
    let searching: &[&str] = if level == "none" {
        &["--no-search"]
    } else {
        &["--level", level]
    };
    let mut args = vec!["book", "new", "-q", "--depth", depth, "--out", path(out)];
    args.extend_from_slice(searching);
    run(&args);
}

/// `book new` and `book add` with `--searched` and `--out` one file under
/// two spellings: refused before anything is written (the search file
/// was written, then replaced by the book: exit 0, the searches lost).
#[test]
fn a_search_file_that_is_the_output_book_is_refused() {
    let dir = scratch_in("book", "searched-is-out");
    fs::create_dir_all(dir.join("sub")).expect("sub");
    for (searched, out) in [("b.book", "./b.book"), ("b.book", "sub/../b.book")] {
        for args in [
            vec!["book", "new", "-q", "--depth", "1", "--level", "1"],
            vec!["book", "add", "-q", "--depth", "2", "--level", "1"],
        ] {
            let _ = fs::remove_file(dir.join("b.book"));
            let mut cmd = lab();
            cmd.current_dir(&dir)
                .args(&args)
                .args(["--searched", searched, "--out", out]);
            if args[1] == "add" {
                fs::write(dir.join("games.txt"), "f5d6c3\n").expect("games");
                cmd.arg("games.txt");
            }
            expect_usage_error(&mut cmd, "name the same file");
            assert!(!dir.join("b.book").exists(), "{args:?} {searched} {out}");
        }
    }
}

/// A book whose deepening stopped after a round's write holds positions
/// waiting for a search (`deepen` without `--level` writes exactly that
/// plan). Read as finished it biased the values (+0.00 where a search says
/// -2.2); every reader now says it is unfinished, and the engine searches
/// the waiting positions and those leading to them instead of reading them.
#[test]
fn an_unfinished_book_is_said_so_and_its_waiting_positions_are_searched() {
    let dir = scratch_in("book", "unfinished");
    let done = dir.join("done.bin");
    let plan = dir.join("plan.bin");
    new_book(&done, "2", "2");
    run(&[
        "book",
        "deepen",
        "-q",
        "--book",
        path(&done),
        "--depth",
        "4",
        "--within",
        "0",
        "--no-search",
        "--out",
        path(&plan),
    ]);
    let waiting = reversi::engine::book::pending(&read_book(&plan));
    assert!(!waiting.is_empty(), "the plan waits for nothing");
    assert!(reversi::engine::book::pending(&read_book(&done)).is_empty());
    let start = "---------------------------OX------XO--------------------------- X";
    let hint = |book: &Path| {
        let out = reversi()
            .args([
                "hint",
                "--level",
                "2",
                "--json",
                "--book",
                path(book),
                start,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (finished, quiet) = hint(&done);
    assert!(finished.contains("\"certainty\":\"book\""), "{finished}");
    assert_eq!(quiet, "");
    let (unfinished, warning) = hint(&plan);
    assert!(
        !unfinished.contains("\"certainty\":\"book\""),
        "{unfinished}"
    );
    assert!(
        warning.starts_with(&format!(
            "warning: book {} is unfinished: {} positions wait",
            path(&plan),
            waiting.len()
        )),
        "{warning}"
    );
    // The waiting positions themselves are searched too.
    // The key's side to move as X (bit i: square i in reading order).
    let (mine, theirs) = waiting[waiting.len() - 1];
    let squares: String = (0..64)
        .map(|i| match (mine >> i & 1, theirs >> i & 1) {
            (1, _) => 'X',
            (_, 1) => 'O',
            _ => '-',
        })
        .collect();
    let text = format!("{squares} X");
    let out = reversi()
        .args([
            "hint",
            "--level",
            "2",
            "--json",
            "--book",
            path(&plan),
            &text,
        ])
        .output()
        .unwrap();
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(!json.contains("\"certainty\":\"book\""), "{json}");
}

/// A games file as `reversi-lab train import` writes it: two Tigers of
/// WTHOR (black won by 10 and lost by 4) and a drawn diagonal opening of
/// WTHOR turned by a half turn (c4 c3 for f5 f6).
fn imported_games(dir: &Path) -> PathBuf {
    let file = dir.join("world.txt");
    fs::write(
        &file,
        "# reversi train import: 3 games from 1 files\n\
         0\tf5d6c3d3c4f4e6b3c6b5c2e2c5b4e3f6a6d7f7c7e7d8f1b6f8f2g3g4e1d2a3a5a4e8d1g6c8c1b1h2g8b7h6g5f3g2h5b2a1a2h1h3g1h4a8g7h8h7a7b8\t60\t10\n\
         1\tf5d6c3d3c4b3c6b6d7e8d2e3f4d1b4c5b5f2c2e2c7a5d8a6f8c8b8e7f7f3a3g4a4a2h4e6c1g5g3h5h6h3h2e1f6g7b2b1f1g1b7g6g8h8h7a8a7h1g2paa1\t61\t-4\n\
         2\tc4c3d3c5d6e3f5c6b6f6f7c7e6e7c8g5g6f8f4h6g4a6h5f3d8d7h7h3g3h2b5b4a5a4a3a2b7b3f2f1e8a7g2g8h8a8d2h1g7e2g1e1b2b8h4a1c2d1b1c1\t60\t0\n",
    )
    .expect("games");
    file
}

#[test]
fn the_world_tree_counts_games_through_show_hint_and_both_exports() {
    let dir = scratch_in("book", "world");
    let games = imported_games(&dir);
    let book = dir.join("world.bin");
    let (book_s, games_s) = (path(&book), path(&games));
    run(&[
        "book",
        "add",
        "-q",
        "--min-games",
        "2",
        "--depth",
        "3",
        "--level",
        "1",
        "--out",
        book_s,
        games_s,
    ]);
    let tree = read_book(&book);
    // The start, f5 (c4 with it), f5 d6, f5 d6 c3: the positions two games reach.
    assert_eq!(tree.len(), 4);
    let shown = run(&["book", "show", "--book", book_s, "f5d6"]);
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines[1], "opening: Perpendicular Opening", "{shown}");
    assert_eq!(
        lines[2],
        "games: 2 (1 won, 0 drawn, 1 lost by the side to move)"
    );
    let c3 = lines.iter().find(|l| l.starts_with("c3 ")).expect(&shown);
    // Black plays c3: one game won by 10, one lost by 4.
    assert!(
        c3.ends_with("book  2 games: 1 won, 0 drawn, 1 lost"),
        "{c3}"
    );
    let hint = run(&["hint", "--book", book_s, "--moves", "1", "f5"]);
    assert!(hint.contains("book (level 1, 2 games)"), "{hint}");
    let json = run(&[
        "hint",
        "--json",
        "--book",
        book_s,
        "--moves",
        "1",
        "f5d6c3d3c4",
    ]);
    assert!(json.contains("\"opening\":\"Tiger\""), "{json}");
    // The counts go through the text form and Edax's form and back.
    let text = dir.join("world.txt.book");
    run(&["book", "export", "--book", book_s, "--out", path(&text)]);
    let back = dir.join("back.bin");
    run(&["book", "import", path(&text), "--out", path(&back)]);
    assert_eq!(read_book(&back), tree);
    let edax = dir.join("world.dat");
    run(&[
        "book",
        "export-edax",
        "--book",
        book_s,
        "--out",
        path(&edax),
    ]);
    let from_edax = dir.join("from-edax.bin");
    run(&[
        "book",
        "import-edax",
        "-q",
        path(&edax),
        "--out",
        path(&from_edax),
    ]);
    let edax_book = read_book(&from_edax);
    for (key, entry) in tree.sorted() {
        let e = edax_book
            .get(key)
            .expect("every position back from Edax's form");
        assert_eq!(e.counts, entry.counts);
    }
}

/// `book check`: the positions drawn by the seed, one line each in the
/// order drawn whatever the threads, the last plies' values equal to a
/// search at the book's own level, the summary counting them; a book
/// with no value to check is refused.
#[test]
fn a_check_lines_up_book_values_with_searches_at_any_thread_count() {
    let dir = scratch_in("book", "check");
    let book = dir.join("two.book");
    new_book(&book, "2", "2");
    let check = |threads: &str, seed: &str| {
        run(&[
            "book",
            "check",
            "-q",
            "--book",
            path(&book),
            "--level",
            "2",
            "--positions",
            "9",
            "--seed",
            seed,
            "--threads",
            threads,
        ])
    };
    let text = check("1", "5");
    assert_eq!(text, check("2", "5"));
    let lines: Vec<&str> = text.lines().collect();
    // The header, the book's 5 positions (fewer than asked), the summary.
    assert_eq!(lines.len(), 7, "{text}");
    assert!(lines[0].starts_with("5 positions of "), "{text}");
    let mut boards = Vec::new();
    for line in &lines[1..6] {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            (words[0], words[2], words[4], words[6]),
            ("ply", "book", "search", "difference"),
            "{text}"
        );
        if words[1] == "2" {
            assert_eq!(words[7], "+0.00", "{text}");
        }
        boards.push(words[8]);
    }
    boards.sort_unstable();
    boards.dedup();
    assert_eq!(boards.len(), 5, "{text}");
    assert!(lines[6].starts_with("within 2.00 discs: "), "{text}");
    assert!(lines[6].contains(" of 5 ("), "{text}");
    // Another seed, another order of the same positions.
    assert_ne!(text, check("1", "6"));
    let planned = dir.join("planned.book");
    new_book(&planned, "2", "none");
    expect_usage_error(
        lab().args(["book", "check", "--book", path(&planned), "--level", "2"]),
        "no position with a value",
    );
}

/// `book add --count-only`: the games counted through the positions the
/// book holds, none added, the moves and values unchanged, so the engine
/// plays the same moves and its hints count the games.
#[test]
fn counting_only_adds_games_to_a_book_and_changes_no_move() {
    let dir = scratch_in("book", "count-only");
    let games = imported_games(&dir);
    let (plain, counted) = (dir.join("plain.book"), dir.join("counted.book"));
    new_book(&plain, "2", "1");
    run(&[
        "book",
        "add",
        "-q",
        "--count-only",
        "--book",
        path(&plain),
        "--out",
        path(&counted),
        path(&games),
    ]);
    let (before, after) = (read_book(&plain), read_book(&counted));
    assert_eq!(before.len(), after.len());
    for (key, entry) in before.sorted() {
        let now = after.get(key).expect("the same positions");
        assert_eq!(
            (&now.searched, now.unsearched, now.level),
            (&entry.searched, entry.unsearched, entry.level)
        );
    }
    // All three games start from the start position; two go through f5 d6.
    let start = RelativePosition::start(8);
    assert_eq!(after.lookup(&start).expect("the start").counts.games(), 3);
    let shown = run(&["book", "show", "--book", path(&counted), "f5d6"]);
    assert!(
        shown.contains("games: 2 (1 won, 0 drawn, 1 lost by the side to move)"),
        "{shown}"
    );
    // Counting needs a book to count into and adds nothing to search.
    let refused = lab()
        .args([
            "book",
            "add",
            "--count-only",
            "--out",
            path(&dir.join("x.book")),
            path(&games),
        ])
        .output()
        .expect("run");
    assert_eq!(refused.status.code(), Some(2));
    assert!(!dir.join("x.book").exists());
}

/// The book of the first two plies planned in `dir` (`planned.book`) and
/// its pending positions searched at level 2 (`searched`), for merges.
fn two_plies_planned_and_searched(dir: &Path) -> (PathBuf, PathBuf) {
    let planned = dir.join("planned.book");
    new_book(&planned, "2", "none");
    let searched = dir.join("searched");
    run(&[
        "book",
        "search",
        "-q",
        "--book",
        path(&planned),
        "--level",
        "2",
        "--out",
        path(&searched),
    ]);
    (planned, searched)
}

/// `book merge --odd-gain D`: every move into the book costs D discs in
/// the negamax, 0 is plain negamax. In the book of the first two plies
/// the last ply has only searches (unchanged), f5's three moves all lead
/// into the book (3 discs less), and the start's moves lead to f5 (minus
/// f5's value, less 3: the start's value again).
#[test]
fn a_merge_with_an_odd_gain_costs_each_move_into_the_book() {
    let dir = scratch_in("book", "odd-gain");
    let (planned, searched) = two_plies_planned_and_searched(&dir);
    let merge = |gain: Option<&str>, name: &str| {
        let out = dir.join(name);
        let mut args = vec![
            "book",
            "merge",
            "--book",
            path(&planned),
            "--out",
            path(&out),
        ];
        if let Some(g) = gain {
            args.extend(["--odd-gain", g]);
        }
        args.push(path(&searched));
        run(&args);
        read_book(&out)
    };
    let (plain, zero, three) = (
        merge(None, "plain.book"),
        merge(Some("0"), "zero.book"),
        merge(Some("3"), "three.book"),
    );
    assert_eq!(plain, zero);
    let value = |b: &Book, moves: &str| {
        let game = reversi::record::parse_transcript(moves, Position::start(8)).expect("legal");
        let p = RelativePosition::from(&game.last());
        b.lookup(&p).and_then(|e| e.value()).expect("valued").0
    };
    for (moves, lower) in [("", 0), ("f5", 3), ("f5d6", 0), ("f5f6", 0), ("f5f4", 0)] {
        assert_eq!(
            value(&plain, moves) - value(&three, moves),
            lower * reversi::units::Eval::PER_DISC,
            "{moves:?}"
        );
    }
}

/// `book merge --odd-gain D` with D large enough to push a value beyond
/// 64 discs (on the book of the first two plies, f5's value is about -D):
/// refused before writing (the good `--out` kept), since no reader takes
/// such a book; a gain that keeps every value within 64 discs writes a
/// book the readers take.
#[test]
fn an_odd_gain_that_would_value_beyond_64_discs_is_refused_before_writing() {
    let dir = scratch_in("book", "odd-gain-bound");
    let (planned, searched) = two_plies_planned_and_searched(&dir);
    let out = dir.join("out.book");
    let merge = |gain: &str| {
        let mut cmd = lab();
        cmd.args(["book", "merge", "--book", path(&planned), "--out"])
            .arg(&out)
            .args(["--odd-gain", gain])
            .arg(&searched);
        cmd
    };
    expect_success(&mut merge("20"));
    let good = fs::read(&out).expect("book");
    read_book(&out);
    for gain in ["70", "128"] {
        expect_usage_error(&mut merge(gain), "beyond 64 discs");
        assert_eq!(fs::read(&out).expect("book"), good, "--odd-gain {gain}");
    }
}

/// `book add` without `--min-games` reads the games files of `train
/// import` (and `generate`) its help lists first, as `--min-games` does:
/// the same positions as the games' transcripts give. A games file without
/// games is refused (an empty book, exit 0, before).
#[test]
fn book_add_reads_train_games_files_and_refuses_a_file_without_games() {
    let dir = scratch_in("book", "add-games-file");
    let games = imported_games(&dir);
    let transcripts = dir.join("transcripts.txt");
    let text = fs::read_to_string(&games).expect("games");
    let lines: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(1).expect("moves"))
        .collect();
    fs::write(&transcripts, lines.join("\n") + "\n").expect("transcripts");
    let add = |input: &Path, out: &str| {
        run(&[
            "book",
            "add",
            "-q",
            "--depth",
            "4",
            "--no-search",
            "--out",
            path(&dir.join(out)),
            path(input),
        ]);
        read_book(&dir.join(out))
    };
    let from_file = add(&games, "from-file.book");
    let from_lines = add(&transcripts, "from-lines.book");
    assert_eq!(from_file, from_lines);
    assert!(from_file.len() > 4, "{} positions", from_file.len());
    let empty = dir.join("empty.txt");
    let header_only = dir.join("header-only.txt");
    fs::write(&empty, "").expect("empty");
    fs::write(
        &header_only,
        text.lines().next().unwrap().to_string() + "\n",
    )
    .expect("header");
    for (file, min_games) in [
        (&empty, None),
        (&header_only, None),
        (&header_only, Some("1")),
    ] {
        let out = dir.join("none.book");
        let mut cmd = lab();
        cmd.args(["book", "add", "-q", "--no-search", "--out"])
            .arg(&out);
        if let Some(n) = min_games {
            cmd.args(["--min-games", n]);
        }
        cmd.arg(file);
        expect_usage_error(&mut cmd, "no game");
        assert!(!out.exists(), "{file:?}");
    }
}
