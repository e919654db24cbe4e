//! What players reach for, in a real headless Chromium: the explorer of
//! masters' games beside the board (a server started with `--games`),
//! analysis while playing, variations in the review, and the page's items
//! in view at 390 px and 1366x768 (the game's buttons, the review table's
//! best line and loss, the hint's list and labels, errors beside the file
//! control, a hint cut by the server's time saying so). Each test reads
//! what the page shows and checks it against independent evidence: the
//! sample collections replayed by the library's readers, the API's own
//! answers for the same position, the record read back by the library.
//!
//! Without Chromium each test prints one `skipped:` line and passes, except
//! under CI (`CI=true`), where a missing browser fails it.

use super::super::cdp::Browser;
use super::super::ServerProcess;
use super::{api, hint_on_the_board, js, text, wait_turn, WAIT};
use reversi::record::archive::{parse_gam, parse_pgn, parse_wtb, ArchiveGame};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The board shown, as `/api/game` writes it (0 empty, 1 black, 2 white).
const BOARD_DIGITS: &str = "[...document.querySelectorAll('#board [data-square]')].map(s => s.className.includes('black') ? '1' : s.className.includes('white') ? '2' : '0').join('')";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/wthor")
        .join(name)
}

/// The samples of tests/data/wthor indexed by `reversi games index` into
/// a fresh directory: the index's path.
fn sample_index(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("players")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.idx");
    let run = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["games", "index", "--quiet", "--out"])
        .arg(&out)
        .args(
            [
                "WTHOR-sample.JOU",
                "WTHOR-sample.TRN",
                "WTH_1984-sample.wtb",
                "wthor-sample.pgn",
                "logbook-sample.gam",
            ]
            .map(data),
        )
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}

/// Every sample game once, by the library's readers (the PGN's first four
/// are four of the .wtb's games: tests/data/wthor/README.md).
fn sample_games() -> Vec<ArchiveGame> {
    let read = |name: &str| std::fs::read(data(name)).unwrap();
    let mut games = parse_wtb(&read("WTH_1984-sample.wtb")).unwrap().games;
    let pgn = parse_pgn(&String::from_utf8(read("wthor-sample.pgn")).unwrap()).unwrap();
    games.extend(pgn.into_iter().skip(4));
    games.extend(parse_gam(&String::from_utf8(read("logbook-sample.gam")).unwrap()).unwrap());
    games
}

/// A game's moves as the API writes them.
fn moves_of(g: &ArchiveGame) -> Vec<String> {
    g.record
        .move_list()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Square `m` (or "pass") under the start's symmetry `k`: the identity,
/// the two diagonal reflections and the half turn.
fn start_image(m: &str, k: usize) -> String {
    if m == "pass" {
        return m.into();
    }
    let b = m.as_bytes();
    let (f, r) = (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'));
    let (f, r) = match k {
        0 => (f, r),
        1 => (r, f),
        2 => (7 - r, 7 - f),
        _ => (7 - f, 7 - r),
    };
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// A headless Chromium of `width` x `height` and a server started with
/// `more` options, or `None` without Chromium (skipped).
fn browser_and(width: u32, height: u32, more: &[&str]) -> Option<(Browser, ServerProcess)> {
    let b = Browser::launch_or_skip(width, height)?;
    Some((b, ServerProcess::start_with(0, more)))
}

#[test]
fn the_masters_games_are_beside_the_board_and_open_in_the_review() {
    let index = sample_index("masters");
    let games = sample_games();
    assert_eq!(games.len(), 23);
    for (width, height) in [(1366, 768), (390, 844)] {
        let Some((mut b, server)) =
            browser_and(width, height, &["--games", index.to_str().unwrap()])
        else {
            return;
        };
        // After f5 d6: the games whose first two moves are f5 d6 or one of
        // its images under the start's symmetries (at two moves a
        // position has one way there).
        b.open(&format!(
            "{}play?size=8&black=human&white=human&moves=f5,d6",
            server.url
        ));
        wait_turn(&mut b, 2);
        let images = [["f5", "d6"], ["e6", "f4"], ["d3", "c5"], ["c4", "e3"]];
        let through = games
            .iter()
            .filter(|g| {
                images
                    .iter()
                    .any(|i| moves_of(g).starts_with(&i.map(String::from)))
            })
            .collect::<Vec<_>>();
        b.wait_for(
            "document.querySelector('[data-testid=masters-total]')",
            WAIT,
            "the masters' games",
        );
        let shown =
            b.eval("Number(document.querySelector('[data-testid=masters-total]').dataset.games)");
        assert_eq!(
            shown,
            json!(through.len()),
            "{}",
            text(&mut b, "[data-testid=masters]")
        );
        assert!(!through.is_empty());
        // Black's wins among them, as the line says them (a percentage).
        let black = through
            .iter()
            .filter(|g| g.record.final_score().is_some_and(|s| s > 0))
            .count();
        let line = text(&mut b, "[data-testid=masters-total]");
        let pct = (100.0 * black as f64 / through.len() as f64).round();
        assert!(
            line.contains(&format!("Black won {pct}%")),
            "{line} ({black} of {})",
            through.len()
        );
        // The moves played next add up to the games (none ends at move 2),
        // each a legal square of the position shown.
        let next = b.eval(
            "[...document.querySelectorAll('[data-testid=masters-moves] tbody tr')].map(r => [r.dataset.move, Number(r.dataset.games)])",
        );
        let sum: u64 = next
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[1].as_u64().unwrap())
            .sum();
        assert_eq!(sum, through.len() as u64, "{next}");
        // The explorer lies beside the board on a laptop, below it on a phone.
        let place = b.eval(
            "(() => { const m = document.querySelector('#masters').getBoundingClientRect(); \
             const g = document.querySelector('#board').getBoundingClientRect(); \
             return [m.left >= g.right, m.top >= g.bottom, m.right <= innerWidth]; })()",
        );
        if width >= 1300 {
            assert_eq!(
                place,
                json!([true, false, true]),
                "beside the board at {width}"
            );
        } else {
            assert_eq!(place[2], json!(true), "inside the page at {width}");
        }
        // A game opened from the list: the page's game is that game, its
        // review at the position it came from (f5 d6's image in it).
        let listed = api(&mut b, "/api/games?size=8&moves=f5,d6&games=8");
        let first = &listed["listed"][0];
        b.click("[data-testid=masters-games] li:first-child button");
        b.wait_for(
            "document.querySelector('[data-testid=review-at]').textContent.startsWith('move 2 of ')",
            WAIT,
            "the review at move 2",
        );
        let moves: Vec<String> = first["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        // The listed moves: one of those games turned by a symmetry of the
        // start so as to reach f5 d6 as asked.
        assert_eq!(moves[..2], ["f5", "d6"], "{first}");
        assert!(
            through.iter().any(|g| (0..4).any(|k| {
                moves_of(g)
                    .iter()
                    .map(|m| start_image(m, k))
                    .collect::<Vec<_>>()
                    == moves
            })),
            "{first}"
        );
        assert_eq!(
            b.eval("new URLSearchParams(location.search).get('moves')"),
            json!(moves.join(",")),
        );
        let board = api(&mut b, "/api/game?size=8&moves=f5,d6")["board"].clone();
        assert_eq!(b.eval(BOARD_DIGITS), board);
    }
}

#[test]
fn without_an_index_the_page_says_how_to_make_one() {
    let Some((mut b, server)) = browser_and(1366, 768, &[]) else {
        return;
    };
    b.open(&format!(
        "{}play?size=8&black=human&white=human",
        server.url
    ));
    wait_turn(&mut b, 0);
    b.wait_for(
        "document.querySelector('[data-testid=masters]').textContent.includes('reversi serve --games')",
        WAIT,
        "the note on the games index",
    );
}

/// The values on the board's legal squares: (square, the label's number,
/// its W/L/D mark) and the square marked best.
fn board_values(b: &mut Browser) -> (Vec<(String, f64, String)>, Option<String>) {
    let v = b.eval(
        "[[...document.querySelectorAll('#board [data-hint]')].map(s => [s.dataset.square, s.dataset.hint]), \
          (document.querySelector('#board .sq.best') || {dataset: {}}).dataset.square || null]",
    );
    let values = v[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let shown = p[1].as_str().unwrap();
            let mark: String = shown
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            let rest = &shown[mark.len()..];
            let number = if rest.is_empty() {
                0.0
            } else {
                rest.parse().unwrap()
            };
            (p[0].as_str().unwrap().to_string(), number, mark)
        })
        .collect();
    (values, v[1].as_str().map(String::from))
}

/// The board shows `hint`'s value of every legal move (rounded as the
/// labels round) and marks its first move best.
fn assert_board_shows(b: &mut Browser, hint: &Value) {
    let (values, best) = board_values(b);
    let moves = hint["moves"].as_array().unwrap();
    assert_eq!(values.len(), moves.len(), "{values:?} for {hint}");
    for m in moves {
        let square = m["move"].as_str().unwrap();
        let (_, shown, _) = values
            .iter()
            .find(|v| v.0 == square)
            .unwrap_or_else(|| panic!("{square} not shown"));
        let v = m["value"].as_f64().unwrap();
        assert!((shown - v).abs() <= 0.51, "{square}: {shown} shown for {v}");
    }
    assert_eq!(best.as_deref(), moves[0]["move"].as_str());
}

/// Whether the analysis shows values for the position after `moves`: the
/// note names its level and the board holds as many values as legal moves.
fn wait_analysis(b: &mut Browser, level: u32) {
    b.wait_for(
        &format!(
            "document.querySelector('[data-testid=analysis-note]').textContent.startsWith('Analysis at level {level}:') && \
             document.querySelectorAll('#board [data-hint]').length === document.querySelectorAll('#board .sq.legal').length"
        ),
        WAIT,
        "the analysis's values",
    );
}

const GAME12: &str = "f5,d6,c3,d3,c4,f4,f6,f3,e6,e7,d7,c6";

#[test]
fn analysis_while_playing_values_every_legal_move_and_a_move_cancels_it() {
    for (width, height) in [(1366, 768), (390, 844)] {
        let Some((b, server)) = browser_and(width, height, &[]) else {
            return;
        };
        analyse_while_playing(b, &server);
    }
}

/// The analysis test on one screen size.
fn analyse_while_playing(mut b: Browser, server: &ServerProcess) {
    b.open(&format!(
        "{}play?size=8&black=human&white=human&moves={GAME12}",
        server.url
    ));
    wait_turn(&mut b, 12);
    super::set_value(&mut b, "#analysis-level", "3");
    b.click("#analysis");
    wait_analysis(&mut b, 3);
    // The values of a hint at the same level (a level alone decides them).
    let hint = api(&mut b, &format!("/api/hint?size=8&moves={GAME12}&level=3"));
    assert_board_shows(&mut b, &hint);
    // A move: the values of the next position, at the same level.
    let first = hint["moves"][0]["move"].as_str().unwrap().to_string();
    b.click(&format!("#board [data-square={first}]"));
    wait_turn(&mut b, 13);
    wait_analysis(&mut b, 3);
    let hint = api(
        &mut b,
        &format!("/api/hint?size=8&moves={GAME12},{first}&level=3"),
    );
    assert_board_shows(&mut b, &hint);
    // At level 30 a search runs for the server's time (10 s); a move made
    // meanwhile cancels it: only the new position's search runs after it.
    super::set_value(&mut b, "#analysis-level", "30");
    let running = |b: &mut Browser| api(b, "/api/status")["running"].as_u64().unwrap();
    let deadline = Instant::now() + WAIT;
    while running(&mut b) == 0 {
        assert!(Instant::now() < deadline, "the level-30 analysis never ran");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (values, _) = board_values(&mut b);
    assert!(
        values.is_empty(),
        "the old values stay on the new level's board: {values:?}"
    );
    let legal = b.eval("document.querySelector('#board .sq.legal').dataset.square");
    b.click(&format!("#board [data-square={}]", legal.as_str().unwrap()));
    wait_turn(&mut b, 14);
    b.wait_for(
        "document.querySelector('[data-testid=analysis-note]').textContent.startsWith('Analysis at level 30…')",
        WAIT,
        "the next position's analysis",
    );
    std::thread::sleep(Duration::from_millis(800));
    for _ in 0..10 {
        let n = running(&mut b);
        assert!(n <= 1, "{n} searches run: the first was not cancelled");
        std::thread::sleep(Duration::from_millis(100));
    }
    // Unticked: no values, no search.
    b.click("#analysis");
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(running(&mut b), 0);
    assert!(board_values(&mut b).0.is_empty());
}

#[test]
fn a_variation_in_the_review_shows_its_values_comes_back_and_is_saved_in_pgn() {
    for (width, height) in [(1366, 768), (390, 844)] {
        let Some((b, server)) = browser_and(width, height, &[]) else {
            return;
        };
        try_a_variation(b, &server);
    }
}

/// The variation test on one screen size.
fn try_a_variation(mut b: Browser, server: &ServerProcess) {
    b.open(&format!(
        "{}play?size=8&black=human&white=human&coach=3&moves={GAME12}",
        server.url
    ));
    wait_turn(&mut b, 12);
    b.click("#review");
    b.wait_for(
        "document.querySelectorAll('#rv-table tbody tr').length === 12",
        WAIT,
        "the review's rows",
    );
    b.click("#rv-table tbody tr:nth-child(4) button");
    b.wait_for(
        "document.querySelector('[data-testid=review-at]').textContent.startsWith('move 4 of ')",
        WAIT,
        "the review at move 4",
    );
    // Another move than the game's fifth (c4): a variation from move 4.
    let prefix = "f5,d6,c3,d3";
    let at4 = api(&mut b, &format!("/api/game?size=8&moves={prefix}"));
    let other = at4["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .find(|m| m != "c4")
        .unwrap();
    b.click(&format!("#board [data-square={other}]"));
    b.wait_for(
        "!document.querySelector('[data-testid=variation]').hidden && \
         !document.querySelector('[data-testid=variation-text]').textContent.includes('Valuing')",
        WAIT,
        "the variation's values",
    );
    let line = text(&mut b, "[data-testid=variation-text]");
    assert!(
        line.starts_with(&format!(
            "A variation from move 4 (instead of c4): {other}."
        )),
        "{line}"
    );
    // Its values: the coach's hint at the review's level for that position.
    let hint = api(
        &mut b,
        &format!("/api/hint?size=8&moves={prefix},{other}&level=3"),
    );
    let best = &hint["moves"][0];
    assert!(
        line.contains(&format!("best {}", best["move"].as_str().unwrap())),
        "{line}"
    );
    let best_line: Vec<&str> = best["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        line.contains(&format!("its line {}", best_line.join(" "))),
        "{line}"
    );
    assert_board_shows(&mut b, &hint);
    // A second move in it, then kept with the game.
    let second = best["move"].as_str().unwrap().to_string();
    b.click(&format!("#board [data-square={second}]"));
    b.wait_for(
        &format!(
            "document.querySelector('[data-testid=variation-text]').textContent.includes(': {other} {second}.') && \
             !document.querySelector('[data-testid=variation-text]').textContent.includes('Valuing')"
        ),
        WAIT,
        "the variation's second move",
    );
    b.click("#var-keep");
    b.wait_for(
        "document.querySelectorAll('[data-testid=variations] li').length === 1",
        WAIT,
        "the kept variation",
    );
    // Back to the game: the review at move 4, the game's position.
    b.click("#var-back");
    b.wait_for(
        "document.querySelector('[data-testid=variation]').hidden && \
         document.querySelector('[data-testid=review-at]').textContent.startsWith('move 4 of ')",
        WAIT,
        "the game again",
    );
    b.wait_for(
        &format!("{BOARD_DIGITS} === {}", at4["board"]),
        WAIT,
        "the game's position after move 4",
    );
    // The PGN holds the variation: read back by the library's reader.
    super::set_value(&mut b, "#export-form", "pgn");
    b.wait_for(
        "document.querySelector('#transcript').value.includes('(')",
        WAIT,
        "the PGN with its variation",
    );
    let pgn = super::transcript(&mut b);
    let record = reversi::record::parse_game(&pgn, 8).unwrap_or_else(|e| panic!("{e}: {pgn}"));
    assert_eq!(record.move_list().len(), 12, "{pgn}");
    assert_eq!(record.variations.len(), 1, "{pgn}");
    assert_eq!(record.variations[0].at, 4, "{pgn}");
    let tried: Vec<String> = record.variations[0]
        .moves
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(tried, [other.clone(), second.clone()], "{pgn}");
    // Kept in the address: a reload keeps it.
    let here = b.eval("location.href");
    b.open(here.as_str().unwrap());
    b.wait_for(
        "document.querySelectorAll('[data-testid=variations] li').length === 1",
        WAIT,
        "the variation after a reload",
    );
}

/// The box of `selector`: [left, top, right, bottom].
fn rect(b: &mut Browser, selector: &str) -> Vec<f64> {
    let v = b.eval(&format!(
        "(() => {{ const r = document.querySelector({}).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }})()",
        js(selector)
    ));
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn the_games_buttons_the_review_table_and_the_hint_are_in_view_and_whole() {
    for (width, height) in [(1366, 768), (390, 844)] {
        let Some((mut b, server)) = browser_and(width, height, &[]) else {
            return;
        };
        b.open(&format!(
            "{}play?size=8&black=human&white=human&coach=2&moves={GAME12}",
            server.url
        ));
        wait_turn(&mut b, 12);
        // Undo, Hint and Review above the fold without scrolling on a laptop.
        if width > 1000 {
            for id in ["#undo", "#hint", "#review"] {
                let r = rect(&mut b, id);
                assert!(
                    r[3] <= f64::from(height) && r[1] >= 0.0,
                    "{id} at {r:?} in {width}x{height}"
                );
            }
        }
        // The hint: every row of its list and every label on the board whole.
        hint_on_the_board(&mut b);
        let clipped = b.eval(
            "[...document.querySelectorAll('#hint-out li, #hint-out p, #board .hint-label, #board .coord')] \
               .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth) \
               .map(e => e.textContent)",
        );
        assert_eq!(clipped, json!([]), "clipped at {width}");
        let out = b.eval("(() => { const e = document.querySelector('#hint-out'); return e.scrollWidth <= e.clientWidth + 1; })()");
        assert_eq!(
            out,
            json!(true),
            "the hint's box scrolls sideways at {width}"
        );
        // The review: each row's best line and loss inside the page and
        // its box; the step line never between the back and forward buttons.
        b.click("#review");
        b.wait_for(
            "document.querySelectorAll('#rv-table tbody tr').length === 12",
            WAIT,
            "the review's rows",
        );
        b.eval("document.querySelector('#rv-table').scrollIntoView()");
        let hidden = b.eval(
            "(() => { const box = document.querySelector('#rv-table').parentElement.getBoundingClientRect(); \
               return [...document.querySelectorAll('#rv-table tbody td.line, #rv-table tbody td.loss')] \
                 .filter(td => { const r = td.getBoundingClientRect(); \
                   return r.width === 0 || r.right > Math.min(innerWidth, box.right) + 1 || r.left < box.left - 1; }) \
                 .map(td => td.textContent); })()",
        );
        assert_eq!(hidden, json!([]), "best lines or losses hidden at {width}");
        b.click("#rv-table tbody tr:nth-child(5) button");
        b.wait_for(
            "document.querySelector('[data-testid=review-at]').textContent.startsWith('move 5 of ')",
            WAIT,
            "the review at move 5",
        );
        let (prev, next) = (rect(&mut b, "#rv-prev"), rect(&mut b, "#rv-next"));
        assert!(
            (prev[1] - next[1]).abs() < 2.0 && next[0] - prev[2] < 16.0 && next[0] > prev[2],
            "back {prev:?} and forward {next:?} apart at {width}"
        );
    }
}

#[test]
fn a_hint_cut_by_the_servers_time_says_so() {
    let Some((mut b, server)) = browser_and(1366, 768, &[]) else {
        return;
    };
    // Level 30 in the middle game: more than the server's 10 s per search.
    b.open(&format!(
        "{}play?size=8&black=human&white=human&coach=30&moves={GAME12}",
        server.url
    ));
    wait_turn(&mut b, 12);
    b.click("#hint");
    b.wait_for("document.querySelector('#hint-out ol')", WAIT, "the hint");
    let note = text(&mut b, "[data-testid=hint-cut]");
    assert!(note.starts_with("Cut by the server's time"), "{note:?}");
    // A hint its level finishes says nothing of the kind.
    b.eval("document.querySelector('#coach').value = '2'; document.querySelector('#coach').dispatchEvent(new Event('change'))");
    b.click("#hint");
    b.wait_for(
        "document.querySelector('#hint-out').textContent.includes('Level 2,')",
        WAIT,
        "the level-2 hint",
    );
    assert_eq!(
        b.eval("document.querySelector('[data-testid=hint-cut]')"),
        Value::Null
    );
}
