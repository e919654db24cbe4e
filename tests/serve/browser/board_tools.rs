//! The play page's board tools in a real headless Chromium: the engine's
//! log through Undo and Redo, the review's kinds of value, the board
//! editor, record files saved and opened, the graph that follows the game,
//! the coach's level apart from the opponent's, and the settings in view
//! on a laptop. Each test reads the numbers and words the page shows and
//! checks them against the API.
//!
//! Without Chromium each test prints one `skipped:` line and passes, except
//! under CI (`CI=true`), where a missing browser fails it.

use super::super::cdp::Browser;
use super::{api, browser_and_server, js, set_value, text, wait_turn, WAIT};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The cells' texts of every row of the table `selector`.
fn rows(b: &mut Browser, selector: &str) -> Vec<Vec<String>> {
    let v = b.eval(&format!(
        "[...document.querySelectorAll({} + ' tbody tr')].map(tr => [...tr.cells].map(td => td.textContent.trim()))",
        js(selector)
    ));
    serde_json::from_value(v).unwrap()
}

/// Checks a number the page shows (`shown`, its first word) against the
/// API's `v`: written with `digits` decimals (one way to write zero: "0"),
/// a sign on non-zero values, within half a unit of the last digit (the
/// browser and Rust round ties differently).
fn assert_number(shown: &str, v: f64, digits: usize) {
    let word = shown.split_whitespace().next().unwrap_or_default();
    let number: f64 = word.replace('−', "-").parse().unwrap_or(f64::NAN);
    let unit = 0.1f64.powi(digits as i32);
    assert!((number - v).abs() <= unit / 2.0 + 1e-9, "{shown} for {v}");
    if number == 0.0 {
        assert_eq!(word, "0", "{shown}");
    } else {
        let decimals = word.split('.').nth(1).map_or(0, str::len);
        assert_eq!(decimals, digits, "{shown}");
        assert!(word.starts_with(['+', '-', '−']), "{shown}");
    }
}

/// What a certainty is, in the page's words.
fn kind_words(c: &Value) -> String {
    match c["kind"].as_str().unwrap() {
        "exact" => "exact".into(),
        "estimate" => format!("estimate, {} plies", c["depth"]),
        "book" => format!("book, level {}", c["level"]),
        "win-loss-draw" => "proof".into(),
        k => panic!("unknown kind {k}"),
    }
}

/// What a certainty is, in a review table's cell (the long words are its
/// title): exact, est. 8 (plies), book L12 (level), proof.
fn kind_short(c: &Value) -> String {
    match c["kind"].as_str().unwrap() {
        "exact" => "exact".into(),
        "estimate" => format!("est. {}", c["depth"]),
        "book" => format!("book L{}", c["level"]),
        "win-loss-draw" => "proof".into(),
        k => panic!("unknown kind {k}"),
    }
}

/// No value (in the columns `values`) is written as "+0", "-0", "−0.0"
/// or "0.0" beside a plain "0".
fn assert_one_zero(cells: &[Vec<String>], values: &[usize]) {
    for row in cells {
        for cell in values.iter().map(|&i| &row[i]) {
            let first = cell.split_whitespace().next().unwrap_or_default();
            assert!(
                !["+0", "-0", "−0", "0.0", "+0.0", "-0.0", "−0.0"].contains(&first),
                "{row:?}"
            );
        }
    }
}

/// A game of `n` moves on `size`, each time the last legal move in reading order.
fn some_game(b: &mut Browser, size: u8, n: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..n {
        let g = api(
            b,
            &format!("/api/game?size={size}&moves={}", moves.join(",")),
        );
        moves.push(crate::last_legal(&g));
    }
    moves
}

/// Clicks the first legal square the page shows and returns its name.
fn click_a_legal_square(b: &mut Browser) -> String {
    let name = b.wait_for(
        "(document.querySelector('#board .sq.legal') || {dataset: {}}).dataset.square || null",
        WAIT,
        "a legal square",
    );
    let name = name.as_str().unwrap().to_string();
    b.click(&format!("#board [data-square={name}]"));
    name
}

#[test]
fn undo_then_redo_keeps_the_engine_logs_rows_and_their_numbers() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    b.open(&format!(
        "{}play?size=6&black=human&white=engine&depth=2&eval=disc",
        server.url
    ));
    wait_turn(&mut b, 0);
    click_a_legal_square(&mut b);
    wait_turn(&mut b, 2);
    click_a_legal_square(&mut b);
    let moves = wait_turn(&mut b, 4);
    let before = rows(&mut b, "#log");
    assert_eq!(before.len(), 2, "{before:?}");
    // Each row: the ply and the engine's move in the game.
    let played: Vec<&str> = moves.split(' ').collect();
    for (row, ply) in before.iter().zip([2, 4]) {
        assert_eq!(row[0], ply.to_string());
        assert_eq!(row[1], played[ply - 1]);
    }
    assert_one_zero(&before, &[2]);
    b.click("#undo");
    wait_turn(&mut b, 2);
    assert_eq!(rows(&mut b, "#log"), before[..1]);
    b.click("#redo");
    assert_eq!(wait_turn(&mut b, 4), moves);
    // The same rows, the same numbers (the engine did not search again).
    assert_eq!(rows(&mut b, "#log"), before);
    // Two undos and two redos, then Back and Forward in the history.
    b.click("#undo");
    wait_turn(&mut b, 2);
    b.click("#undo");
    wait_turn(&mut b, 0);
    assert!(rows(&mut b, "#log").is_empty());
    b.click("#redo");
    wait_turn(&mut b, 2);
    b.click("#redo");
    wait_turn(&mut b, 4);
    assert_eq!(rows(&mut b, "#log"), before);
    // Another move where the engine's was: its row goes for good.
    b.click("#undo");
    wait_turn(&mut b, 2);
    let other = b.eval(&format!(
        "[...document.querySelectorAll('#board .sq.legal')].map(e => e.dataset.square).find(m => m !== {})",
        js(played[2])
    ));
    if let Some(other) = other.as_str() {
        b.click(&format!("#board [data-square={other}]"));
        wait_turn(&mut b, 4);
        let after = rows(&mut b, "#log");
        assert_eq!(after[0], before[0]);
        assert_eq!(after[1][0], "4");
        assert_eq!(after[1][1], transcript_move(&mut b, 4));
    }
}

fn transcript_move(b: &mut Browser, ply: usize) -> String {
    let t = b.eval("document.querySelector('#transcript').value");
    t.as_str()
        .unwrap()
        .split(' ')
        .nth(ply - 1)
        .unwrap()
        .to_string()
}

#[test]
fn the_review_says_what_each_value_is_and_shows_the_best_line() {
    let Some((mut b, server)) = browser_and_server(1366, 900) else {
        return;
    };
    b.open(&format!(
        "{}play?size=6&black=human&white=human",
        server.url
    ));
    wait_turn(&mut b, 0);
    // 22 moves on 6x6: estimates down to 17 empty squares, exact from 16.
    let moves = some_game(&mut b, 6, 22).join(",");
    b.open(&format!(
        "{}play?size=6&black=human&white=human&coach=4&moves={moves}",
        server.url
    ));
    wait_turn(&mut b, 22);
    b.click("#review");
    b.wait_for(
        "document.querySelectorAll('#rv-table tbody tr').length === 22",
        WAIT,
        "a review row per move",
    );
    let review = api(&mut b, &format!("/api/review?size=6&moves={moves}&level=4"));
    assert_eq!(review["level"], json!(4));
    let shown = rows(&mut b, "#rv-table");
    let mut kinds = std::collections::BTreeSet::new();
    for (row, m) in shown.iter().zip(review["moves"].as_array().unwrap()) {
        let digits = |c: &Value| if c["kind"] == json!("exact") { 0 } else { 1 };
        // Each value: its number, then what it is.
        for (cell, value, certainty) in [
            (&row[3], "played_value", "played_certainty"),
            (&row[5], "best_value", "certainty"),
        ] {
            let c = &m[certainty];
            assert_number(cell, m[value].as_f64().unwrap(), digits(c));
            let (_, words) = cell.split_once(' ').unwrap();
            assert_eq!(words, kind_short(c), "{m}");
        }
        let line: Vec<&str> = m["best_line"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let loss = m["loss"].as_f64().unwrap();
        assert_number(&row[7], -loss, 1);
        assert_eq!(
            [&row[2], &row[4], &row[6]],
            [
                m["played"].as_str().unwrap(),
                m["best"].as_str().unwrap(),
                &line.join(" ")
            ],
            "{m}"
        );
        assert_eq!(line[0], m["best"].as_str().unwrap());
        kinds.insert(m["certainty"]["kind"].as_str().unwrap().to_string());
    }
    // Both kinds occur in this game: the test reads each.
    assert!(
        kinds.contains("exact") && kinds.contains("estimate"),
        "{kinds:?}"
    );
    assert_one_zero(&shown, &[3, 5, 7]);
    // The step line names the kind and the line of the move at hand.
    b.click("#rv-table tbody tr:nth-child(5) button");
    b.wait_for(
        "document.querySelector('[data-testid=review-at]').textContent.startsWith('move 5 of ')",
        WAIT,
        "the review at move 5",
    );
    let at = text(&mut b, "[data-testid=review-at]");
    let m = &review["moves"][4];
    assert!(at.contains(&kind_words(&m["certainty"])), "{at}");
    assert!(at.contains("Reviewed at level 4"), "{at}");
}

#[test]
fn the_board_editor_sets_up_a_position_to_play_and_analyze() {
    let Some((mut b, server)) = browser_and_server(1366, 900) else {
        return;
    };
    b.open(&format!(
        "{}play?size=6&black=human&white=human&coach=6",
        server.url
    ));
    wait_turn(&mut b, 0);
    b.click("#edit");
    b.wait_for(
        "!document.querySelector('#editor').hidden",
        WAIT,
        "the editor",
    );
    // An empty board is refused: neither side could move.
    b.click("#edit-clear");
    assert_eq!(
        text(&mut b, "[data-testid=edit-status]"),
        "Black 0, white 0, empty 36; black to move."
    );
    b.click("#edit-play");
    b.wait_for(
        "document.querySelector('[data-testid=edit-status]').textContent.startsWith('Neither side')",
        WAIT,
        "the refusal",
    );
    // The start, then: c4 (black) removed, white discs on e5 and b2, a
    // black one put on a1 and taken off again; white to move.
    b.click("#edit-start");
    b.click("input[name=tool][value='0']");
    b.click("#board [data-square=c4]");
    b.click("input[name=tool][value='2']");
    b.click("#board [data-square=e5]");
    b.click("#board [data-square=b2]");
    b.click("input[name=tool][value='1']");
    b.click("#board [data-square=a1]");
    b.click("input[name=tool][value='0']");
    b.click("#board [data-square=a1]");
    set_value(&mut b, "#edit-player", "2");
    assert_eq!(
        text(&mut b, "[data-testid=edit-status]"),
        "Black 1, white 4, empty 31; white to move."
    );
    assert_eq!(
        (text(&mut b, "#black"), text(&mut b, "#white")),
        ("1".into(), "4".into())
    );
    b.click("#edit-play");
    b.wait_for(
        "location.search.includes('start=') && document.querySelector('#status').textContent.startsWith('White to move')",
        WAIT,
        "the game from the position set up",
    );
    // The position, by squares: the start's c3 d4 white and d3 black, plus
    // e5 and b2 white (6x6 digits in reading order, a1 first).
    let mut digits = vec![b'0'; 36];
    for (sq, d) in [
        ("c3", b'2'),
        ("d4", b'2'),
        ("d3", b'1'),
        ("e5", b'2'),
        ("b2", b'2'),
    ] {
        let (c, r) = (sq.as_bytes()[0] - b'a', sq.as_bytes()[1] - b'1');
        digits[usize::from(r) * 6 + usize::from(c)] = d;
    }
    let digits = String::from_utf8(digits).unwrap();
    let query = format!("size=6&moves=&start={digits}&start_player=2");
    let g = api(&mut b, &format!("/api/game?{query}"));
    let address = b.eval("location.search").as_str().unwrap().to_string();
    assert!(address.contains(&format!("start={digits}")), "{address}");
    assert!(address.contains("start_player=2"), "{address}");
    assert_eq!(
        (text(&mut b, "#black"), text(&mut b, "#white")),
        ("1".into(), "4".into())
    );
    let legal =
        b.eval("[...document.querySelectorAll('#board .sq.legal')].map(e => e.dataset.square)");
    assert_eq!(legal, g["legal"]);
    // Analyze it: the hint's values are the coach's for this position.
    b.click("#hint");
    b.wait_for(
        "document.querySelectorAll('#hint-out li').length > 0",
        WAIT,
        "the hint",
    );
    let hint = api(&mut b, &format!("/api/hint?{query}&level=6"));
    let shown = b.eval("[...document.querySelectorAll('#hint-out li')].map(li => [li.dataset.move, li.textContent])");
    let hinted = hint["moves"].as_array().unwrap();
    assert_eq!(shown.as_array().unwrap().len(), hinted.len());
    for (s, h) in shown.as_array().unwrap().iter().zip(hinted) {
        assert_eq!(s[0], h["move"]);
        let digits = if h["certainty"]["kind"] == json!("exact") {
            0
        } else {
            1
        };
        let (_, shown) = s[1].as_str().unwrap().split_once(' ').unwrap();
        assert_number(shown, h["value"].as_f64().unwrap(), digits);
    }
    // The list's unit and side, once above it.
    let heading = text(&mut b, "#hint-out p");
    assert!(
        heading.starts_with("Values in discs for White, the side to move"),
        "{heading}"
    );
    // And play from it: a move, then the game's record starts there.
    let mv = click_a_legal_square(&mut b);
    b.wait_for(
        "document.querySelector('#transcript').value.split(' ').length === 3",
        WAIT,
        "the move played",
    );
    let after = api(
        &mut b,
        &format!("/api/game?size=6&moves={mv}&start={digits}&start_player=2"),
    );
    let board: String = b
        .eval("[...document.querySelectorAll('#board [data-square]')].map(e => e.classList.contains('black') ? 1 : e.classList.contains('white') ? 2 : 0).join('')")
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(json!(board), after["board"]);
    // The standard start set up again is no start of its own.
    b.click("#edit");
    b.click("#edit-start");
    b.click("#edit-play");
    b.wait_for(
        "!location.search.includes('start=')",
        WAIT,
        "the standard start, no start of its own",
    );
    wait_turn(&mut b, 0);
}

/// Allows downloads into `dir`.
fn downloads_into(b: &mut Browser, dir: &std::path::Path) {
    b.call(
        "Page.setDownloadBehavior",
        json!({ "behavior": "allow", "downloadPath": dir.to_str().unwrap() }),
    );
}

/// Chooses `path` in the file input `selector` (as a person picking a file).
fn choose_file(b: &mut Browser, selector: &str, path: &std::path::Path) {
    let r = b.call(
        "Runtime.evaluate",
        json!({ "expression": format!("document.querySelector({})", js(selector)) }),
    );
    let object = r["result"]["objectId"].as_str().unwrap().to_string();
    b.call(
        "DOM.setFileInputFiles",
        json!({ "files": [path.to_str().unwrap()], "objectId": object }),
    );
}

#[test]
fn a_record_saves_as_a_file_and_opens_from_one() {
    let Some((mut b, server)) = browser_and_server(1366, 900) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("reversi-board-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    downloads_into(&mut b, &dir);
    let moves = "f5,d6,c3,d3,c4,f4";
    b.open(&format!(
        "{}play?size=8&black=human&white=human&moves={moves}",
        server.url
    ));
    wait_turn(&mut b, 6);
    let game = api(&mut b, &format!("/api/game?size=8&moves={moves}"));
    for (form, name) in [
        ("pgn", "reversi-game.pgn"),
        ("ggf", "reversi-game.ggf"),
        ("compact", "reversi-game.txt"),
    ] {
        set_value(&mut b, "#export-form", form);
        let _ = std::fs::remove_file(dir.join(name));
        b.click("#save-file");
        let path = dir.join(name);
        let deadline = Instant::now() + WAIT;
        let saved = loop {
            if let Ok(t) = std::fs::read_to_string(&path) {
                if !t.is_empty() {
                    break t;
                }
            }
            assert!(Instant::now() < deadline, "no {name} saved");
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(
            saved.trim_end(),
            game["export"][form].as_str().unwrap().trim_end(),
            "{form}"
        );
        // A new game, then the file opened: the same moves.
        b.click("#new");
        set_value(&mut b, "#export-form", "passes");
        wait_turn(&mut b, 0);
        choose_file(&mut b, "#open-file", &path);
        assert_eq!(wait_turn(&mut b, 6), moves.replace(',', " "), "{form}");
    }
    assert!(
        game["export"]["pgn"]
            .as_str()
            .unwrap()
            .contains("1. f5 d6 2. c3 d3 3. c4 f4 *"),
        "{game}"
    );
    // A GGF file from another program, longer than an address can carry.
    let ggf = dir.join("long.ggf");
    std::fs::write(
        &ggf,
        format!(
            "(;GM[Othello]PC[{}]PB[a]PW[b]TY[8]BO[8 {}OX------XO{} *]B[F5/1.00/2.00]W[F6/-1.00/3.00]B[E6//1.5];)\n",
            "long comment ".repeat(400),
            "-".repeat(27),
            "-".repeat(27)
        ),
    )
    .unwrap();
    choose_file(&mut b, "#open-file", &ggf);
    assert_eq!(wait_turn(&mut b, 3), "f5 f6 e6");
    // A file that is no record: the game stays, the error is said beside
    // the file control (the status line is a screen away on a phone).
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "f5 z9\n").unwrap();
    choose_file(&mut b, "#open-file", &bad);
    b.wait_for(
        "document.querySelector('[data-testid=record-status]').textContent.startsWith('Open bad.txt: the record cannot be read')",
        WAIT,
        "the error",
    );
    let gap = b.eval(
        "(() => { const f = document.querySelector('#open-file').getBoundingClientRect(); \
         const e = document.querySelector('[data-testid=record-status]').getBoundingClientRect(); \
         return e.top - f.bottom; })()",
    );
    let gap = gap.as_f64().unwrap();
    assert!(
        (0.0..=60.0).contains(&gap),
        "the error {gap} px below the file control"
    );
    assert_eq!(
        b.eval("document.querySelector('#transcript').value"),
        json!("f5 f6 e6")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_evaluation_graph_follows_the_game_when_asked() {
    let Some((mut b, server)) = browser_and_server(1366, 900) else {
        return;
    };
    b.open(&format!(
        "{}play?size=6&black=human&white=human&coach=4",
        server.url
    ));
    wait_turn(&mut b, 0);
    assert_eq!(
        b.eval("document.querySelector('#follow-box').hidden"),
        json!(true)
    );
    click_a_legal_square(&mut b);
    wait_turn(&mut b, 1);
    b.click("#follow");
    b.wait_for(
        "document.querySelectorAll('#follow-graph rect').length === 1",
        WAIT,
        "the graph of the first move",
    );
    for n in 2..=8 {
        click_a_legal_square(&mut b);
        wait_turn(&mut b, n);
        b.wait_for(
            &format!("document.querySelectorAll('#follow-graph rect').length === {n}"),
            WAIT,
            &format!("a bar for move {n}"),
        );
    }
    // Each bar is black's value after its move in the whole game's review.
    let moves = b.eval("document.querySelector('#transcript').value.split(' ').join(',')");
    let review = api(
        &mut b,
        &format!(
            "/api/review?size=6&moves={}&level=4",
            moves.as_str().unwrap()
        ),
    );
    let bars: Vec<f64> = serde_json::from_value(
        b.eval("[...document.querySelectorAll('#follow-graph rect')].map(r => +r.dataset.value)"),
    )
    .unwrap();
    let want: Vec<f64> = review["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["black_value_after"].as_f64().unwrap())
        .collect();
    assert_eq!(bars, want);
    assert!(text(&mut b, "[data-testid=follow-note]").contains("level 4"));
    // Undo: the graph follows back; off: it is gone.
    b.click("#undo");
    wait_turn(&mut b, 7);
    b.wait_for(
        "document.querySelectorAll('#follow-graph rect').length === 7",
        WAIT,
        "the graph after Undo",
    );
    b.click("#follow");
    assert_eq!(
        b.eval("document.querySelector('#follow-box').hidden"),
        json!(true)
    );
}

#[test]
fn the_coachs_level_is_set_apart_from_the_opponents() {
    let Some((mut b, server)) = browser_and_server(1366, 900) else {
        return;
    };
    // Nine moves out of the opening book: the engine (white, level 1)
    // searches its reply.
    b.open(&format!(
        "{}play?size=8&black=human&white=human",
        server.url
    ));
    wait_turn(&mut b, 0);
    let nine = some_game(&mut b, 8, 9).join(",");
    b.open(&format!("{}play?size=8&level=1&moves={nine}", server.url));
    wait_turn(&mut b, 10);
    set_value(&mut b, "#coach", "5");
    b.wait_for(
        "location.search.includes('coach=5')",
        WAIT,
        "the coach's level in the address",
    );
    assert_eq!(b.eval("document.querySelector('#level').value"), json!("1"));
    let players = text(&mut b, "[data-testid=players]");
    assert!(
        players.contains("level 1") && players.contains("Coach: level 5"),
        "{players}"
    );
    b.click("#hint");
    b.wait_for(
        "document.querySelectorAll('#hint-out li').length > 0",
        WAIT,
        "the hint",
    );
    let note = text(&mut b, "#hint-out p");
    assert!(note.contains("Level 5,"), "{note}");
    let moves = b.eval("document.querySelector('#transcript').value.split(' ').join(',')");
    let hint = api(
        &mut b,
        &format!("/api/hint?size=8&moves={}&level=5", moves.as_str().unwrap()),
    );
    let best = b.eval("document.querySelector('#hint-out li').dataset.move");
    assert_eq!(best, hint["moves"][0]["move"]);
    // The opponent still plays at level 1: its log row's depth.
    let log = rows(&mut b, "#log");
    assert_eq!(log[0][4], "1", "{log:?}");
    // A reload keeps both settings.
    let here = b.eval("location.href").as_str().unwrap().to_string();
    b.open(&here);
    wait_turn(&mut b, 10);
    assert_eq!(
        b.eval("[document.querySelector('#level').value, document.querySelector('#coach').value]"),
        json!(["1", "5"])
    );
}

#[test]
fn every_setting_is_in_view_without_scrolling_on_a_laptop() {
    let Some((mut b, server)) = browser_and_server(1366, 768) else {
        return;
    };
    for size in ["8", "6"] {
        b.open(&format!("{}play?size={size}", server.url));
        wait_turn(&mut b, 0);
        let out = b.eval(
            "['size', 'black-player', 'white-player', 'level', 'depth', 'time', 'eval', 'algorithm', 'coach']
               .map(id => { const r = document.getElementById(id).getBoundingClientRect();
                 return [id, r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight && r.width > 0, scrollY, r.top, r.bottom]; })",
        );
        for c in out.as_array().unwrap() {
            assert_eq!(c[1], json!(true), "{size}: {c} (viewport 1366x768)");
            assert_eq!(c[2], json!(0), "{c}");
        }
    }
}
