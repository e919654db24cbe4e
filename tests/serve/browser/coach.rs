//! The play page's coach: hints (the book's too) and the review of a finished game, proved values in one unit and one scoring rule.

use super::*;

#[test]
fn the_coach_hints_and_reviews_every_move_of_a_finished_game() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    // Named levels with their numbers.
    b.open(&format!("{}play?size=8&level=3", server.url));
    wait_turn(&mut b, 0);
    let name = b.eval("document.querySelector('#level option[value=\"10\"]').textContent");
    assert_eq!(name, json!("10 — club"));
    // A hint at the start: the four moves, values from black's side in
    // discs, the best line starting with the best move, shown on the board.
    b.eval("document.querySelector('#hint-board').checked = true");
    b.click("#hint");
    b.wait_for(
        "document.querySelectorAll('#hint-out li').length === 4",
        WAIT,
        "four hinted moves",
    );
    let note = text(&mut b, "#hint-out p");
    assert!(note.contains("discs for Black"), "{note}");
    let best = b.eval("document.querySelector('#hint-out li').dataset.move");
    let line = text(&mut b, "[data-testid=best-line]");
    assert!(line.starts_with(best.as_str().unwrap()), "{line} {best}");
    let hinted = b.eval("document.querySelectorAll('#board [data-hint]').length");
    assert_eq!(hinted, json!(4));
    // The engine plays both sides of a 4x4 game, with pauses between moves.
    b.open(&format!(
        "{}play?size=4&black=engine&white=engine&depth=2",
        server.url
    ));
    b.wait_for(
        "!document.querySelector('#end').hidden",
        WAIT,
        "the end screen",
    );
    let end = text(&mut b, "#end-text");
    let status = text(&mut b, "#status");
    assert!(status.starts_with("Game over"), "{status}");
    assert!(end.contains(" to "), "{end}");
    let moves: Vec<String> = transcript(&mut b).split(' ').map(str::to_string).collect();
    // Review: every move is reached by stepping, each row has a loss.
    b.click("#review-end");
    b.wait_for(
        &format!(
            "document.querySelectorAll('#rv-table tbody tr').length === {}",
            moves.len()
        ),
        WAIT,
        "a review row per move",
    );
    b.click("#rv-first");
    wait_text(
        &mut b,
        "[data-testid=review-at]",
        &format!("move 0 of {}", moves.len()),
    );
    for k in 1..=moves.len() {
        b.click("#rv-next");
        b.wait_for(
            &format!(
                "document.querySelector('[data-testid=review-at]').textContent.startsWith('move {k} of ')"
            ),
            WAIT,
            &format!("review step {k}"),
        );
        let at = text(&mut b, "[data-testid=review-at]");
        assert!(at.contains(&format!(" {}, ", moves[k - 1])), "{at}");
    }
    // The graph has a bar per move; a row jumps; play continues from there.
    let bars = b.eval("document.querySelectorAll('#graph rect').length");
    assert_eq!(bars, json!(moves.len()));
    // The move list: each move opens the review at it, on the board at once.
    assert_eq!(
        b.eval("[...document.querySelectorAll('#moves button')].map(m => m.textContent).join(' ')"),
        json!(moves.join(" "))
    );
    b.click("#moves li:nth-child(3) button");
    b.wait_for(
        "document.querySelector('[data-testid=review-at]').textContent.startsWith('move 3 of ')",
        WAIT,
        "the review at move 3",
    );
    let last3 = b.eval("document.querySelector('#board .sq.last').dataset.square");
    assert_eq!(last3, json!(moves[2]));
    b.click("#rv-table tbody tr:nth-child(2) button");
    b.wait_for(
        "document.querySelector('[data-testid=review-at]').textContent.startsWith('move 2 of ')",
        WAIT,
        "the jump to move 2",
    );
    set_value(&mut b, "#black-player", "human");
    set_value(&mut b, "#white-player", "human");
    // Each change restarts the game's fetch; under load its render could
    // land between the click's aim and the click: wait for the page first.
    b.wait_for("busy === false", WAIT, "the players' change to settle");
    b.click("#rv-continue");
    let two = wait_turn(&mut b, 2);
    assert_eq!(two, moves[..2].join(" "));
    b.click("#redo");
    wait_text(&mut b, "#end:not([hidden]) #rematch", "Rematch");
    b.click("#rematch");
    wait_turn(&mut b, 0);
}

#[test]
fn the_coach_shows_proved_values_one_unit_and_one_scoring_rule() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    b.open(&format!(
        "{}play?size=6&black=human&white=human&moves={WIPEOUT_6X6}",
        server.url
    ));
    b.wait_for(
        "!document.querySelector('#end').hidden",
        WAIT,
        "the end screen",
    );
    // The end screen's score by the standard rule, from the discs on the
    // board: the empty squares go to the winner.
    let counts = b.eval("[+document.querySelector('#black').textContent, +document.querySelector('#white').textContent]");
    let (black, white) = (counts[0].as_i64().unwrap(), counts[1].as_i64().unwrap());
    let diff = black - white;
    let standard = diff + diff.signum() * (36 - black - white);
    let end = text(&mut b, "#end-text");
    let shown: i64 = b
        .eval("document.querySelector('#end-text').dataset.finalScore")
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(shown, standard, "{end}");
    assert!(end.contains(&format!("{standard:+}")), "{end}");
    assert!(
        text(&mut b, "#end").contains("empty squares going to the winner"),
        "the rule is named on the end screen"
    );
    // The review: every value in discs, no proof's sign taken for discs; the final
    // score and the graph's last bar equal the end screen's.
    b.click("#review-end");
    let moves = WIPEOUT_6X6.split(',').count();
    b.wait_for(
        &format!("document.querySelectorAll('#graph rect').length === {moves}"),
        WAIT,
        "the review's graph",
    );
    let review = b.eval(&format!(
        "fetch('/api/review?size=6&moves={WIPEOUT_6X6}&level=6&time_ms=10000').then(r => r.json())"
    ));
    assert_eq!(review["final_score"], json!(standard));
    assert_eq!(review["unit"], json!("discs"));
    // Each bar's value, and whether the page's own review proved it (its
    // searches are time-capped, so under load a bar may be an estimate
    // where this test's review was exact: only exact values must agree).
    let bars = b.eval(
        "[...document.querySelectorAll('#graph rect')].map(r => [+r.dataset.value, r.dataset.exact === 'true'])",
    );
    let (bars, bar_exact): (Vec<f64>, Vec<bool>) = bars
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v[0].as_f64().unwrap(), v[1].as_bool().unwrap()))
        .unzip();
    assert_eq!(*bars.last().unwrap(), standard as f64);
    for (i, m) in review["moves"].as_array().unwrap().iter().enumerate() {
        // A proof of win/loss/draw is its outcome with an agreeing
        // estimate (a win at least 2 discs), never a sign taken for discs.
        if m["certainty"]["kind"] == json!("win-loss-draw") {
            assert!(m["best_value"].as_f64().unwrap().abs() >= 2.0, "{m}");
        }
        // From 16 empty squares on, each position's best value is the
        // exact one the hint proves there (its own solve).
        let prefix: Vec<&str> = WIPEOUT_6X6.split(',').take(i).collect();
        let empties = b.eval(&format!(
            "fetch('/api/game?size=6&moves={}').then(r => r.json()).then(g => 36 - g.black - g.white)",
            prefix.join(",")
        ));
        if empties.as_i64().unwrap() > 16 {
            continue;
        }
        let hint = b.eval(&format!(
            "fetch('/api/hint?size=6&moves={}&level=6&count=1').then(r => r.json())",
            prefix.join(",")
        ));
        assert_eq!(
            hint["moves"][0]["certainty"]["kind"],
            json!("exact"),
            "{hint}"
        );
        assert_eq!(
            m["best_value"],
            hint["moves"][0]["value"],
            "move {}: {m}",
            i + 1
        );
        assert_eq!(m["exact"], json!(true), "{m}");
        let row = text(
            &mut b,
            &format!("#rv-table tbody tr:nth-child({}) td:nth-child(6)", i + 1),
        );
        let value = row.split_whitespace().next().unwrap_or_default();
        assert!(value != "-1.0" && value != "+1.0", "{row}");
        if bar_exact[i] {
            assert_eq!(bars[i], m["black_value_after"].as_f64().unwrap(), "{m}");
        }
    }
    // The engine's values against the default `strong` evaluation are its
    // points, never called discs; disc values lie within the board.
    b.open(&format!(
        "{}play?size=6&black=engine&white=engine&depth=2",
        server.url
    ));
    b.wait_for(
        "document.querySelectorAll('#log tbody tr').length >= 6",
        WAIT,
        "six engine moves",
    );
    let units = b.eval("[...document.querySelectorAll('#log tbody tr td:nth-child(3)')].map(td => [td.dataset.unit, +td.dataset.value, td.textContent])");
    for u in units.as_array().unwrap() {
        assert_eq!(u[0], json!("strong points"), "{u}");
        assert!(!u[2].as_str().unwrap().contains("discs"), "{u}");
    }
    b.open(&format!(
        "{}play?size=6&black=engine&white=engine&depth=2&eval=disc",
        server.url
    ));
    b.wait_for(
        "document.querySelectorAll('#log tbody tr').length >= 6",
        WAIT,
        "six engine moves",
    );
    let units = b.eval("[...document.querySelectorAll('#log tbody tr td:nth-child(3)')].map(td => [td.dataset.unit, +td.dataset.value])");
    for u in units.as_array().unwrap() {
        assert_eq!(u[0], json!("discs"), "{u}");
        assert!(u[1].as_f64().unwrap().abs() <= 36.0, "{u}");
    }
}

#[test]
fn a_book_hint_ranks_every_legal_move_and_a_bad_address_move_leaves_the_game_before_it() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    // A book position with 8 legal moves, fewer of them in the book.
    b.open(&format!(
        "{}play?size=8&black=human&white=human&level=12&moves=f5,d6,c4,d3,c5,f4",
        server.url
    ));
    wait_turn(&mut b, 6);
    let legal = b.eval("document.querySelectorAll('#board .sq.legal').length");
    assert_eq!(legal, json!(8));
    b.click("#hint");
    b.wait_for(
        "document.querySelectorAll('#hint-out li').length === 8",
        WAIT,
        "a hint for each of the 8 legal moves",
    );
    let kinds = b.eval("[...document.querySelectorAll('#hint-out li')].map(li => li.dataset.kind)");
    let kinds: Vec<&str> = kinds
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"book") && kinds.contains(&"estimate"),
        "{kinds:?}"
    );
    for li in b
        .eval("[...document.querySelectorAll('#hint-out li')].map(li => li.textContent)")
        .as_array()
        .unwrap()
    {
        let li = li.as_str().unwrap();
        assert!(!li.contains("((") && !li.contains("))"), "{li}");
        assert!(
            li.contains("book, level 12") || li.contains("estimate"),
            "{li}"
        );
    }
    // An illegal third move in the address: the game up to it, playable,
    // the status naming the move and why; Redo has nothing, Undo works.
    b.open(&format!(
        "{}play?size=8&black=human&white=human&moves=f5,d6,a1,c3",
        server.url
    ));
    let moves = wait_turn(&mut b, 2);
    assert_eq!(moves, "f5 d6");
    let status = text(&mut b, "#status");
    assert!(
        status.contains("Move 3") && status.contains("a1") && status.contains("legal:"),
        "{status}"
    );
    assert!(!status.contains("Retry"), "{status}");
    assert_eq!(
        b.eval("document.querySelector('#retry').hidden"),
        json!(true)
    );
    assert_eq!(
        b.eval("document.querySelector('#redo').disabled"),
        json!(true)
    );
    assert_eq!(
        b.eval("document.querySelector('#undo').disabled"),
        json!(false)
    );
    assert_eq!(
        b.eval("document.querySelector('#hint').disabled"),
        json!(false)
    );
    assert_eq!(
        b.eval("new URLSearchParams(location.search).get('moves')"),
        json!("f5,d6")
    );
    b.click("#board [data-square=c3]");
    let moves = wait_turn(&mut b, 3);
    assert_eq!(moves, "f5 d6 c3");
    assert!(!text(&mut b, "#status").contains("Move 3 of the address"));
}

#[test]
fn the_page_names_the_opening_while_playing_and_in_the_review() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    b.open(&format!(
        "{}play?size=8&black=human&white=human&level=4&coach=4&moves=f5,d6,c3,d3,c4",
        server.url
    ));
    wait_turn(&mut b, 5);
    wait_text(&mut b, "[data-testid=opening]", "Opening: Tiger");
    // One more move: still the Tiger (the last named position it went through).
    b.click("#board [data-square=f4]");
    wait_turn(&mut b, 6);
    assert_eq!(text(&mut b, "[data-testid=opening]"), "Opening: Tiger");
    b.click("#review");
    wait_text(
        &mut b,
        "[data-testid=review-opening]",
        "The game's opening: Tiger",
    );
    // A 6x6 game has no opening name.
    b.open(&format!(
        "{}play?size=6&black=human&white=human&depth=2",
        server.url
    ));
    wait_turn(&mut b, 0);
    assert_eq!(
        b.eval("document.querySelector('[data-testid=opening]').hidden"),
        json!(true)
    );
}
