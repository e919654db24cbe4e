//! The play page: games by clicks and keys, the level choice, records, reloads, retries after an engine error or a server gone, the smaller points, and the first paint and click response measured.

use super::*;

/// The accessible names of the board's squares, in reading order.
fn square_labels(b: &mut Browser) -> Vec<String> {
    let v = b.eval(
        "[...document.querySelectorAll('#board [data-square]')].map(e => e.dataset.square + '|' + e.getAttribute('aria-label'))",
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_level_choice_plays_8x8_and_is_off_on_smaller_boards() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    b.open(&format!("{}play?size=8&level=2", server.url));
    wait_text(&mut b, "#black", "2");
    // A level replaces depth, evaluation and search.
    assert_eq!(b.eval("document.querySelector('#level').value"), json!("2"));
    assert_eq!(
        b.eval("document.querySelector('#depth').disabled"),
        json!(true)
    );
    // The engine takes black: its first move comes from the opening book
    // (logged as "book"; the server runs with the built-in book).
    set_value(&mut b, "#black-player", "engine");
    b.wait_for(
        "document.querySelectorAll('#log tbody tr').length > 0",
        WAIT,
        "the engine's first move",
    );
    let depth = b.eval("document.querySelector('#log tbody tr td:nth-child(5)').textContent");
    assert_eq!(depth, json!("book"));
    let first = b.eval("document.querySelector('#log tbody tr td:nth-child(2)').textContent");
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&first.as_str().unwrap()),
        "{first}"
    );
    // A person takes black again (the engine does not play the game out).
    set_value(&mut b, "#black-player", "human");
    // On 6x6 the level is off: depth and evaluation decide again.
    set_value(&mut b, "#size", "6");
    assert_eq!(
        b.eval("document.querySelector('#level').disabled"),
        json!(true)
    );
    assert_eq!(
        b.eval("document.querySelector('#depth').disabled"),
        json!(false)
    );
    let (status, _) = server.interrupt();
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
}

#[test]
fn play_a_4x4_game_to_its_end_by_clicking_and_keys() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    b.open(&format!("{}play?size=4", server.url));
    wait_text(&mut b, "#black", "2");
    // The board: 16 buttons a1..d4 whose names say what is on them.
    let labels = square_labels(&mut b);
    assert_eq!(labels.len(), 16);
    assert!(labels[0].starts_with("a1|a1 "));
    assert!(labels.contains(&"b2|b2 white".to_string()), "{labels:?}");
    assert!(labels.contains(&"c2|c2 black".to_string()), "{labels:?}");
    let legal: Vec<&String> = labels.iter().filter(|l| l.ends_with(", legal")).collect();
    assert_eq!(legal.len(), 4, "{labels:?}");
    // The first move by keyboard: the board's tab stop is the first legal
    // square; an arrow key moves the focus, Enter plays the focused square.
    b.eval("document.querySelector('#board [tabindex=\"0\"]').focus()");
    let first = b.eval("document.activeElement.dataset.square");
    assert_eq!(
        format!("{first}"),
        format!("\"{}\"", legal[0].split('|').next().unwrap())
    );
    b.key("Enter");
    b.wait_for(
        "document.querySelector('#transcript').value.length > 0",
        WAIT,
        "the first move",
    );
    // Then click legal squares until the game ends (the engine plays white).
    let mut clicks = 0;
    loop {
        let state = b.wait_for(
            "(() => { const s = document.querySelector('#status').textContent; \
             return s.includes('your move') || s.startsWith('Game over') ? s : null; })()",
            WAIT,
            "the person's turn or the end",
        );
        if state.as_str().unwrap().starts_with("Game over") {
            break;
        }
        let target = b.eval(
            "(document.querySelector('#board [aria-label$=\", legal\"]') || {dataset: {}}).dataset.square || null",
        );
        let Value::String(square) = target else {
            panic!("no legal square while it is the person's turn")
        };
        b.click(&format!("#board [data-square=\"{square}\"]"));
        clicks += 1;
        assert!(clicks <= 16, "more moves than squares");
        b.wait_for(
            &format!("document.querySelector('#transcript').value.split(' ').includes('{square}')"),
            WAIT,
            "the clicked move in the transcript",
        );
    }
    assert!(clicks >= 1);
    // The end: the counts on the page match the final board of the transcript.
    let transcript = b.eval("document.querySelector('#transcript').value");
    let moves = transcript.as_str().unwrap().replace(' ', ",");
    let (black, white) = (text(&mut b, "#black"), text(&mut b, "#white"));
    let status = text(&mut b, "#status");
    let labels = square_labels(&mut b);
    let count = |c: &str| labels.iter().filter(|l| l.contains(c)).count().to_string();
    assert_eq!(
        (count(" black"), count(" white")),
        (black.clone(), white.clone())
    );
    assert!(status.contains(&format!("{black}-{white}")), "{status}");
    assert!(!labels.iter().any(|l| l.ends_with(", legal")));
    // The Tiny contract's terminal test agrees that the game is over and who won.
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["200", "1", &board_digits(&labels)])
        .output()
        .unwrap();
    let (b_n, w_n): (i32, i32) = (black.parse().unwrap(), white.parse().unwrap());
    let winner = (b_n - w_n).signum();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{winner}\n")
    );
    assert!(!moves.is_empty());
    save_screenshot(&mut b, "serve-play.png");
    let (status, rest) = server.interrupt();
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    assert!(rest.contains("stopped"), "{rest}");
}

/// The contract's digits of the board from the squares' accessible names.
fn board_digits(labels: &[String]) -> String {
    labels
        .iter()
        .map(|l| {
            if l.contains(" black") {
                '1'
            } else if l.contains(" white") {
                '2'
            } else {
                '0'
            }
        })
        .collect()
}

/// Goes `delta` entries back or forward in the tab's history (another
/// document: waits for it to load).
fn history_go(b: &mut Browser, delta: i64) {
    let h = b.call("Page.getNavigationHistory", json!({}));
    let at = h["currentIndex"].as_i64().unwrap() + delta;
    let id = h["entries"][at as usize]["id"].clone();
    b.call("Page.navigateToHistoryEntry", json!({ "entryId": id }));
    std::thread::sleep(Duration::from_millis(800));
}

#[test]
fn a_game_survives_double_clicks_back_and_reload() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    b.open(&format!("{}play?size=8&level=1", server.url));
    wait_turn(&mut b, 0);
    // Two clicks on f5 in a row (no time between them): one move is played,
    // the engine answers once, and nothing fails.
    b.eval(
        "(() => { const e = document.querySelector('#board [data-square=f5]'); e.click(); e.click(); return true; })()",
    );
    let two = wait_turn(&mut b, 2);
    assert!(two.starts_with("f5 "), "{two}");
    assert!(!b
        .eval("document.querySelector('#status').classList.contains('error')")
        .as_bool()
        .unwrap());
    // Two real mouse clicks on one legal square, as fast as the protocol sends them.
    let square =
        b.eval("document.querySelector('#board [aria-label$=\", legal\"]').dataset.square");
    let square = square.as_str().unwrap().to_string();
    let centre = b.eval(&format!(
        "(() => {{ const r = document.querySelector('#board [data-square={square}]').getBoundingClientRect(); \
         return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    ));
    for count in [1, 2] {
        for kind in ["mousePressed", "mouseReleased"] {
            b.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": centre[0], "y": centre[1], "button": "left", "clickCount": count }),
            );
        }
    }
    let four = wait_turn(&mut b, 4);
    assert_eq!(four.split(' ').nth(2), Some(square.as_str()), "{four}");
    assert!(!b
        .eval("document.querySelector('#status').classList.contains('error')")
        .as_bool()
        .unwrap());
    // The game is in the address.
    let search = b.eval("location.search").as_str().unwrap().to_string();
    assert!(
        search.contains(&format!("moves={}", four.replace(' ', "%2C"))),
        "{search}"
    );
    // Another page (as "Explore this position" opens), then Back: the game is there.
    b.open(&format!("{}explore", server.url));
    history_go(&mut b, -1);
    assert_eq!(wait_turn(&mut b, 4), four);
    // Back inside the game: before the person's last move; Forward again.
    b.eval("history.back()");
    assert_eq!(wait_turn(&mut b, 2), two);
    b.eval("history.forward()");
    assert_eq!(wait_turn(&mut b, 4), four);
    // A reload, and /play with nothing in the address (local storage).
    let here = b.eval("location.href").as_str().unwrap().to_string();
    b.open(&here);
    assert_eq!(wait_turn(&mut b, 4), four);
    b.open(&format!("{}play", server.url));
    assert_eq!(wait_turn(&mut b, 4), four);
}

#[test]
fn an_engine_error_leaves_a_retry_that_resumes_the_game() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    // A time of 0 ms is refused by the server: the game stops with the error.
    b.open(&format!(
        "{}play?size=4&black=engine&white=human&time=0",
        server.url
    ));
    b.wait_for(
        "!document.querySelector('#retry').hidden && document.querySelector('#status').classList.contains('error')",
        WAIT,
        "the engine's error and Retry",
    );
    let status = text(&mut b, "#status");
    assert!(status.contains("time_ms"), "{status}");
    // The field corrected (without a change event) and Retry: the engine plays.
    b.eval("document.querySelector('#time').value = '200'");
    b.click("#retry");
    wait_turn(&mut b, 1);
    assert_eq!(
        b.eval("document.querySelector('#retry').hidden"),
        json!(true)
    );
    // Again with 0, then correcting the field alone resumes.
    b.open(&format!(
        "{}play?size=4&black=engine&white=human&time=0",
        server.url
    ));
    b.wait_for("!document.querySelector('#retry').hidden", WAIT, "Retry");
    set_value(&mut b, "#time", "200");
    wait_turn(&mut b, 1);
}

#[test]
fn records_load_and_export_and_undo_redo_after_loading() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    // Undo after loading moves from the address: back to the person's turn.
    b.open(&format!("{}play?size=8&level=1&moves=f5,d6", server.url));
    wait_turn(&mut b, 2);
    b.click("#undo");
    wait_turn(&mut b, 0);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(transcript(&mut b), "", "the engine must not play again");
    b.click("#redo");
    assert_eq!(wait_turn(&mut b, 2), "f5 d6");
    // A pasted compact transcript loads; the engine (white) answers.
    b.eval("document.querySelector('#record-in').value = 'f5d6c3d3c4'");
    b.click("#load");
    let six = wait_turn(&mut b, 6);
    assert!(six.starts_with("f5 d6 c3 d3 c4 "), "{six}");
    b.click("#undo");
    assert_eq!(wait_turn(&mut b, 4), "f5 d6 c3 d3");
    // Every export form reads back to the same game.
    for form in ["compact", "ggf", "passes"] {
        set_value(&mut b, "#export-form", form);
        let exported = transcript(&mut b);
        match form {
            "compact" => assert_eq!(exported, "f5d6c3d3"),
            "ggf" => assert!(exported.starts_with("(;GM[Othello]"), "{exported}"),
            _ => assert_eq!(exported, "f5 d6 c3 d3"),
        }
        set_value(&mut b, "#export-form", "passes");
        b.click("#new");
        wait_turn(&mut b, 0);
        let js = serde_json::to_string(&exported).unwrap();
        b.eval(&format!(
            "document.querySelector('#record-in').value = {js}"
        ));
        b.click("#load");
        assert_eq!(wait_turn(&mut b, 4), "f5 d6 c3 d3", "{form}");
    }
    // A board string: the game goes on from that position.
    set_value(&mut b, "#export-form", "board");
    let board = transcript(&mut b);
    set_value(&mut b, "#export-form", "passes");
    let js = serde_json::to_string(&board).unwrap();
    b.click("#new");
    wait_turn(&mut b, 0);
    b.eval(&format!(
        "document.querySelector('#record-in').value = {js}"
    ));
    b.click("#load");
    b.wait_for(
        "location.search.includes('start=')",
        WAIT,
        "the loaded start in the address",
    );
    b.wait_for(
        "document.querySelector('#status').textContent.includes('your move')",
        WAIT,
        "the person's turn",
    );
    set_value(&mut b, "#export-form", "board");
    // The export field is redrawn after the status line: wait for it.
    let js_board = serde_json::to_string(&board).unwrap();
    b.wait_for(
        &format!("document.querySelector('#transcript').value === {js_board} || null"),
        WAIT,
        "the loaded board in the export",
    );
    assert_eq!(transcript(&mut b), board);
    set_value(&mut b, "#export-form", "passes");
    // A 4x4 transcript: the board size follows the record.
    b.eval("document.querySelector('#record-in').value = 'B1'");
    b.click("#load");
    b.wait_for(
        "document.querySelector('#size').value === '4' && document.querySelector('#transcript').value.startsWith('b1')",
        WAIT,
        "the 4x4 record",
    );
}

/// In the page: clicks the square `square` (a JS expression) and resolves to
/// `[ms until the person's disc is shown, ms until the engine's reply is in
/// the record]`, the record holding `plies` moves before the click.
fn click_response_js(square: &str, plies: usize) -> String {
    format!(
        "(async () => {{ const words = () => document.querySelector('#transcript').value.split(' ').filter(Boolean).length; \
         const sel = '#board [data-square=' + ({square}) + ']'; \
         const t0 = performance.now(); document.querySelector(sel).click(); let disc = null; \
         for (;;) {{ await new Promise(r => setTimeout(r, 2)); \
           if (disc === null && document.querySelector(sel).classList.contains('black')) disc = performance.now() - t0; \
           if (words() >= {plies} + 2) return [disc, performance.now() - t0]; }} }})()"
    )
}

/// Measurement, not a check (run it by name with `--ignored --nocapture`):
/// the play page's first contentful paint, and after a click on f5 the
/// time until the person's disc is shown and until the engine's reply is,
/// at levels 1 to 12 (8x8, the engine playing white, 1 s per move); then
/// the engine's reply later in a game, after about 20 and 40 plies (the
/// game loaded from the address: a level-4 self-play game, printed), at
/// levels 1, 4, 8 and 12, the person clicking the first legal square.
#[test]
#[ignore]
fn measure_first_paint_and_click_response_at_levels_1_to_12() {
    let Some((mut b, server)) = browser_and_server(1366, 850) else {
        return;
    };
    println!("level  first paint ms  disc shown ms  engine reply ms");
    for level in 1..=12 {
        b.open(&format!("{}play?size=8&level={level}", server.url));
        wait_turn(&mut b, 0);
        let paint = b.eval(
            "(performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint') || {startTime: -1}).startTime",
        );
        let times = b.eval(&click_response_js("'f5'", 0));
        println!(
            "{level:>5}  {:>14.0}  {:>13.0}  {:>15.0}",
            paint.as_f64().unwrap(),
            times[0].as_f64().unwrap_or(f64::NAN),
            times[1].as_f64().unwrap()
        );
    }
    // A level-4 game played by the engine on both sides through the API:
    // the moves (with passes) and who is to move before each.
    let game = b.eval(
        "(async () => { const moves = [], movers = []; \
         for (;;) { const g = await api('/api/game?size=8&moves=' + moves.join(',')); \
           if (g.over) return [moves, movers]; movers.push(g.must_pass ? 'pass' : g.to_move); \
           if (g.must_pass) { moves.push('pass'); continue; } \
           const m = await api('/api/engine?size=8&level=4&time_ms=1000&moves=' + moves.join(',')); \
           moves.push(m.move); } })()",
    );
    let moves: Vec<&str> = game[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let movers = game[1].as_array().unwrap();
    println!("the game (level 4 against itself): {}", moves.join(" "));
    println!("plies  level  engine reply ms: median of 3 (the three)");
    for target in [20, 40] {
        // The first position from `target` plies on where the person (black) moves.
        let plies = (target..moves.len())
            .find(|&i| movers[i] == json!("black"))
            .expect("black to move later in the game");
        for level in [1, 4, 8, 12] {
            let mut replies: Vec<f64> = (0..3)
                .map(|_| {
                    b.open(&format!(
                        "{}play?size=8&level={level}&moves={}",
                        server.url,
                        moves[..plies].join(",")
                    ));
                    wait_turn(&mut b, plies);
                    let times = b.eval(&click_response_js(
                        "document.querySelector('#board [aria-label$=\", legal\"]').dataset.square",
                        plies,
                    ));
                    times[1].as_f64().unwrap()
                })
                .collect();
            let three = format!("{replies:.0?}");
            replies.sort_by(f64::total_cmp);
            println!("{plies:>5}  {level:>5}  {:>6.0} {three}", replies[1]);
        }
    }
}

#[test]
fn a_move_while_the_server_is_gone_resumes_with_retry_once_it_is_back() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    let (url, port) = (server.url.clone(), server.port());
    b.open(&format!("{url}play?size=8&level=1"));
    wait_turn(&mut b, 0);
    b.click("#board [data-square=f5]");
    let two = wait_turn(&mut b, 2);
    // The server dies; the person's next move needs it (and the engine's reply).
    server.kill();
    let square =
        b.eval("document.querySelector('#board [aria-label$=\", legal\"]').dataset.square");
    let square = square.as_str().unwrap().to_string();
    watch_layout(&mut b, &["#status", "#undo", "#hint", "#new"], &["#board"]);
    b.click(&format!("#board [data-square={square}]"));
    b.wait_for(
        "!document.querySelector('#retry').hidden && document.querySelector('#status').classList.contains('error')",
        WAIT,
        "the error and Retry",
    );
    // The error and its Retry appear without moving the board or the buttons.
    let moved = layout_moves(&mut b);
    assert!(moved.is_empty(), "{}", moved.join("\n"));
    let status = text(&mut b, "#status");
    assert!(status.contains("server"), "{status}");
    // Clicks on the board wait for Retry: the game is stalled, not lost.
    let others = b.eval(
        "[...document.querySelectorAll('#board [aria-label$=\", legal\"]')].map(e => e.dataset.square)",
    );
    assert_eq!(others, json!([]), "no square is playable while stalled");
    // The server back on the same port; Retry: the person's move stands,
    // the engine answers once, and the game goes on.
    let _server = ServerProcess::start_on_port(port);
    b.click("#retry");
    let four = wait_turn(&mut b, 4);
    assert_eq!(&four[..two.len()], two, "{four}");
    assert_eq!(four.split(' ').nth(2), Some(square.as_str()), "{four}");
    assert_eq!(
        b.eval("[...document.querySelectorAll('#moves button')].map(m => m.textContent).join(' ')"),
        json!(four)
    );
    let engine_plies = b.eval(
        "[...document.querySelectorAll('#log tbody tr td:first-child')].map(t => t.textContent)",
    );
    assert_eq!(engine_plies, json!(["2", "4"]));
    assert_eq!(
        b.eval("document.querySelector('#retry').hidden"),
        json!(true)
    );
    assert!(!b
        .eval("document.querySelector('#status').classList.contains('error')")
        .as_bool()
        .unwrap());
    // And the next move plays as usual.
    let square =
        b.eval("document.querySelector('#board [aria-label$=\", legal\"]').dataset.square");
    b.click(&format!("#board [data-square={square}]"));
    wait_turn(&mut b, 6);
}

#[test]
fn the_play_pages_smaller_points_players_in_view_best_hint_rematch_reload_and_motion() {
    let Some((mut b, server)) = browser_and_server(1366, 768) else {
        return;
    };
    // The opponent is named in view, above the fold.
    b.open(&format!(
        "{}play?size=8&black=human&white=engine&level=10",
        server.url
    ));
    wait_turn(&mut b, 0);
    let players = b.eval("(() => { const r = document.querySelector('#players').getBoundingClientRect(); return [document.querySelector('#players').textContent, r.bottom <= innerHeight && r.top >= 0]; })()");
    assert!(
        players[0]
            .as_str()
            .unwrap()
            .contains("White: engine, level 10"),
        "{players}"
    );
    assert_eq!(players[1], json!(true), "{players}");
    // The best hinted move is marked on the board, and only it.
    b.open(&format!(
        "{}play?size=8&black=human&white=human&moves=f5",
        server.url
    ));
    wait_turn(&mut b, 1);
    hint_on_the_board(&mut b);
    let best = b.eval("[[...document.querySelectorAll('#board .sq.best')].map(s => s.dataset.square), document.querySelector('#hint-out li').dataset.move]");
    assert_eq!(best[0], json!([best[1].clone()]), "{best}");
    // Discs turn over, unless less motion is asked for.
    let animation =
        "getComputedStyle(document.querySelector('#board .sq.last'), '::after').animationName";
    assert_eq!(b.eval(animation), json!("flip"));
    b.call(
        "Emulation.setEmulatedMedia",
        json!({ "features": [{ "name": "prefers-reduced-motion", "value": "reduce" }] }),
    );
    assert_eq!(b.eval(animation), json!("none"));
    // A rematch swaps the colours.
    b.open(&format!(
        "{}play?size=6&black=human&white=engine&moves={WIPEOUT_6X6}",
        server.url
    ));
    b.wait_for("!document.querySelector('#end').hidden", WAIT, "the end");
    b.click("#rematch");
    b.wait_for(
        "new URLSearchParams(location.search).get('black') === 'engine'",
        WAIT,
        "the swapped colours",
    );
    assert_eq!(
        b.eval("[document.querySelector('#black-player').value, document.querySelector('#white-player').value]"),
        json!(["engine", "human"])
    );
    // A reload keeps the engine's moves, the redo stack and the open review.
    b.open(&format!(
        "{}play?size=4&black=human&white=engine&depth=2",
        server.url
    ));
    wait_turn(&mut b, 0);
    b.click("#board .sq.legal");
    wait_turn(&mut b, 2);
    b.click("#board .sq.legal");
    wait_turn(&mut b, 4);
    b.click("#undo");
    wait_turn(&mut b, 2);
    let before = b.eval("[document.querySelectorAll('#log tbody tr').length, document.querySelector('#redo').disabled]");
    assert_eq!(before, json!([1, false]));
    let url = b.eval("location.href").as_str().unwrap().to_string();
    b.open(&url);
    wait_turn(&mut b, 2);
    let after = b.eval("[document.querySelectorAll('#log tbody tr').length, document.querySelector('#redo').disabled]");
    assert_eq!(after, before);
    b.click("#moves li:nth-child(1) button");
    b.wait_for(
        "document.querySelector('[data-testid=review-at]').textContent.startsWith('move 1 of ')",
        WAIT,
        "the review at move 1",
    );
    b.open(&url);
    b.wait_for(
        "!document.querySelector('#review-box').hidden && document.querySelector('[data-testid=review-at]').textContent.startsWith('move 1 of ')",
        WAIT,
        "the review again after the reload",
    );
}

#[test]
fn on_a_phone_the_hint_comes_into_view() {
    let Some((mut b, server)) = browser_and_server(390, 844) else {
        return;
    };
    b.open(&format!(
        "{}play?size=8&black=human&white=human",
        server.url
    ));
    wait_turn(&mut b, 0);
    b.click("#hint");
    b.wait_for("document.querySelector('#hint-out li')", WAIT, "the hint");
    let place = b.wait_for(
        "(() => { const r = document.querySelector('#hint-out ol').getBoundingClientRect(); \
           return r.top >= 0 && r.top < innerHeight - 60 ? [r.top, innerHeight] : null; })()",
        WAIT,
        "the hint's list in view",
    );
    assert!(place.is_array(), "{place}");
}
