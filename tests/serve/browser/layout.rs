//! Every page: its fit on a phone and a laptop, contrasts, favicon and noscript, the focus ring, nothing jumping when results arrive.

use super::*;

/// The document's width and the viewport's: equal when nothing overflows
/// sideways (the page never scrolls horizontally).
fn widths(b: &mut Browser) -> (u64, u64) {
    let v = b.eval("[document.documentElement.scrollWidth, window.innerWidth]");
    (v[0].as_u64().unwrap(), v[1].as_u64().unwrap())
}

/// Whether the board `selector` lies wholly inside the viewport (scrolled
/// to it first when `scroll`), as `[left, top, right, bottom, width, height]`
/// of its box and the viewport's size for the failure message.
fn board_visible(b: &mut Browser, selector: &str, scroll: bool) -> (bool, Value) {
    let sel = serde_json::to_string(selector).unwrap();
    let v = b.eval(&format!(
        "(async () => {{ const e = document.querySelector({sel}); \
         if ({scroll}) {{ e.scrollIntoView({{block: 'nearest'}}); \
         await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); }} \
         const r = e.getBoundingClientRect(); \
         return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight, \
                 e.querySelectorAll('[data-square]').length]; }})()"
    ));
    let f = |i: usize| v[i].as_f64().unwrap();
    // Half a pixel of rounding is allowed where scrolling leaves a fraction.
    let inside =
        f(0) >= -0.5 && f(1) >= -0.5 && f(2) <= f(4) + 0.5 && f(3) <= f(5) + 0.5 && f(6) == 64.0;
    (inside, v)
}

#[test]
fn every_page_fits_a_phone_and_a_laptop_with_the_8x8_board_in_view() {
    let start8 = "0".repeat(27) + "21" + &"0".repeat(6) + "12" + &"0".repeat(27);
    for (width, height) in [(390, 844), (1366, 850)] {
        let Some((mut b, server)) = browser_and_server(width, height) else {
            return;
        };
        // Play: the 8x8 board whole on the first screen, without scrolling.
        b.open(&format!("{}play?size=8", server.url));
        b.wait_for(
            "document.querySelectorAll('#board [aria-label$=\", legal\"]').length === 4",
            WAIT,
            "black's four legal moves",
        );
        let (inside, rect) = board_visible(&mut b, "#board", false);
        assert!(inside, "play board at {width}x{height}: {rect}");
        assert_eq!(
            widths(&mut b),
            (u64::from(width), u64::from(width)),
            "play at {width}x{height}"
        );
        // The squares are as large as the room allows (not a fixed size).
        let cell = b.eval(
            "document.querySelector('#board [data-square=a1]').getBoundingClientRect().width",
        );
        assert!(cell.as_f64().unwrap() >= 30.0, "{cell}");
        hint_on_the_board(&mut b);
        save_screenshot(&mut b, &format!("serve-play-{width}.png"));
        // Explorer on an 8x8 position (a depth bound of 4 by default): its
        // replay board, trees and forms fit.
        b.open(&format!("{}explore?board={start8}&player=1", server.url));
        wait_text(&mut b, "[data-testid=step-count]", "1");
        b.click("#tree-a > li > .node .toggle");
        b.wait_for(
            "document.querySelectorAll('#tree-a > li > ul > li').length === 4",
            WAIT,
            "the root's children",
        );
        let (inside, rect) = board_visible(&mut b, "#step-board", true);
        assert!(inside, "explorer board at {width}x{height}: {rect}");
        assert_eq!(
            widths(&mut b),
            (u64::from(width), u64::from(width)),
            "explore at {width}x{height}"
        );
        save_screenshot(&mut b, &format!("serve-explore-{width}.png"));
        // Study: a finished match and depth table with their plots.
        b.open(&format!("{}study", server.url));
        set_value(&mut b, "#m-size", "4");
        set_value(&mut b, "#m-depth", "2");
        b.click("#m-run");
        b.wait_for(
            "document.querySelector('[data-testid=match-status]').textContent.startsWith('Done')",
            WAIT,
            "the match",
        );
        set_value(&mut b, "#t-size", "4");
        set_value(&mut b, "#t-depth", "3");
        b.click("#t-run");
        wait_text(&mut b, "[data-testid=table-status]", "Done: 9 games.");
        assert_eq!(
            widths(&mut b),
            (u64::from(width), u64::from(width)),
            "study at {width}x{height}"
        );
        save_screenshot(&mut b, &format!("serve-study-{width}.png"));
        let plot = b.eval("document.querySelector('#t-plot').getBoundingClientRect().right");
        assert!(plot.as_f64().unwrap() <= f64::from(width), "{plot}");
    }
}

/// In the page: `contrast(a, b)`, the WCAG contrast ratio of two computed
/// CSS colours (`rgb(...)`/`rgba(...)`, alpha blended over `b`).
const CONTRAST_JS: &str = "
  const rgb = (c) => c.match(/[0-9.]+/g).map(Number);
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const contrast = (a, b) => { const [x, y] = [rgb(a), rgb(b)]; const al = x.length > 3 ? x[3] : 1;
    const mix = [0, 1, 2].map((i) => x[i] * al + y[i] * (1 - al));
    const [l1, l2] = [lum(mix), lum(y)].sort((p, q) => q - p); return (l1 + 0.05) / (l2 + 0.05); };
  const style = (sel, pseudo) => getComputedStyle(document.querySelector(sel), pseudo || null);
  const shadow = (sel) => style(sel).boxShadow.match(/rgba?\\([^)]*\\)/)[0];
";

/// `[name, ratio]` pairs computed in the page by `pairs` (JS returning
/// `[[name, colour, background], ...]`).
fn contrasts(b: &mut Browser, pairs: &str) -> Vec<(String, f64)> {
    let v = b.eval(&format!(
        "(() => {{ {CONTRAST_JS} return ({pairs}).map(([n, a, c]) => [n, contrast(a, c)]); }})()"
    ));
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_f64().unwrap()))
        .collect()
}

/// Opens the play page after f5 (both sides people) and moves the
/// keyboard focus onto f5, the last move, with the arrow keys.
fn focus_the_last_move_after_f5(b: &mut Browser, server: &ServerProcess) {
    b.open(&format!(
        "{}play?size=8&black=human&white=human&moves=f5",
        server.url
    ));
    wait_turn(b, 1);
    b.eval("document.querySelector('#board [data-square=e5]').focus()");
    b.key("ArrowRight");
    assert_eq!(b.eval("document.activeElement.dataset.square"), json!("f5"));
}

#[test]
fn every_marker_has_a_contrast_of_three_to_one_and_the_pages_have_a_favicon_and_noscript() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    // Play: after f5 (white to move, both people): the last move, a flipped
    // disc, legal-move dots, hint values and the focus ring on the felt.
    focus_the_last_move_after_f5(&mut b, &server);
    let play = contrasts(
        &mut b,
        "[['last move frame', shadow('#board .sq.last'), style('#board .sq.last').backgroundColor],
          ['legal dot', style('#board .sq.legal', '::after').backgroundColor, style('#board .sq.legal').backgroundColor],
          ['flipped dot on its disc', style('#board .sq.flipped', '::before').backgroundColor, style('#board .sq.flipped', '::after').backgroundColor],
          ['flipped dot on a white disc', style('#board .sq.flipped', '::before').backgroundColor, style('#board .sq.white', '::after').backgroundColor],
          ['focus ring', style('#board .sq:focus-visible').outlineColor, style('#board .sq.last').backgroundColor],
          ['coordinates', style('#board .coord:nth-child(2)').color, style('#board .coord:nth-child(2)').backgroundColor]]",
    );
    // The focus ring is drawn above the neighbouring squares.
    assert_eq!(
        b.eval("getComputedStyle(document.activeElement).zIndex"),
        json!("3")
    );
    hint_on_the_board(&mut b);
    let hint = contrasts(
        &mut b,
        "[['hint value', style('#board [data-hint] .hint-label').color, style('#board [data-hint]').backgroundColor]]",
    );
    // Explorer: pruned rows and chips, MAX/MIN markers, the cutoff note.
    b.open(&format!("{}explore", server.url));
    set_value(&mut b, "#algorithm", "alphabeta");
    b.click("#run");
    wait_text(&mut b, "[data-testid=count]", "7208");
    b.click("#line-a");
    b.wait_for(
        "document.querySelector('#tree-a').dataset.lineOpen === 'true'",
        WAIT,
        "the line",
    );
    b.click("#tree-a .node[data-cutoff] .toggle");
    b.wait_for(
        "document.querySelector('#tree-a .node.pruned')",
        WAIT,
        "a pruned row",
    );
    let explore = contrasts(
        &mut b,
        "[['pruned row', style('#tree-a .node.pruned').color, getComputedStyle(document.querySelector('#tree-a').closest('section')).backgroundColor],
          ['MAX marker', style('#tree-a .side.max').color, getComputedStyle(document.querySelector('#tree-a').closest('section')).backgroundColor],
          ['MIN marker', style('#tree-a .side.min').color, getComputedStyle(document.querySelector('#tree-a').closest('section')).backgroundColor],
          ['cutoff note', style('#cutoff').color, style('#cutoff').backgroundColor]]",
    );
    for (name, ratio) in play.iter().chain(&hint).chain(&explore) {
        assert!(*ratio >= 3.0, "{name}: {ratio:.2}:1");
    }
    // Every page: a favicon that answers, a message without JavaScript.
    for page in ["play", "explore", "study"] {
        b.open(&format!("{}{page}", server.url));
        let v = b.eval(
            "(async () => [(await fetch(document.querySelector('link[rel=icon]').href)).status, \
             document.querySelectorAll('noscript').length])()",
        );
        assert_eq!(v, json!([200, 1]), "{page}");
    }
}

#[test]
fn nothing_jumps_when_results_arrive() {
    let mut moved = Vec::new();
    for (width, height) in [(390, 844), (1366, 850)] {
        let wide = width > 1000;
        let Some((mut b, server)) = browser_and_server(width, height) else {
            return;
        };
        // Play: the board, the status above it, the game's buttons and the
        // coach's areas (beside the board on the wide screen). The settings
        // are below the board on a phone and beside it, above the coach, on
        // the wide screen (in view without scrolling).
        b.open(&format!("{}play?size=8&level=1", server.url));
        wait_turn(&mut b, 0);
        let layout = b.eval(
            "(() => { const r = (s) => document.querySelector(s).getBoundingClientRect(); \
             return [r('#coach-h').left >= r('#board').right, r('#settings-h').top >= r('#board').bottom, \
               r('#settings-h').left >= r('#board').right]; })()",
        );
        assert_eq!(
            layout,
            json!([wide, !wide, wide]),
            "coach beside, settings below the board on a phone and beside it at {width}"
        );
        let placed = [
            "#status",
            "#undo",
            "#redo",
            "#hint",
            "#review",
            "#new",
            "#explore",
            "#hint-board",
            "#coach-h",
            "#hint-out",
        ];
        let sized = ["#board", "#hint-out"];
        // The engine's reply to a click.
        watch_layout(&mut b, &placed, &sized);
        b.click("#board [data-square=f5]");
        wait_turn(&mut b, 2);
        moved.extend(
            layout_moves(&mut b)
                .into_iter()
                .map(|m| format!("{width} play engine: {m}")),
        );
        // A hint, its values on the board too.
        b.eval("document.querySelector('#hint-board').checked = true");
        watch_layout(&mut b, &placed, &sized);
        b.click("#hint");
        b.wait_for(
            "document.querySelector('#board [data-hint]') && document.querySelector('#hint-out li')",
            WAIT,
            "the hint",
        );
        moved.extend(
            layout_moves(&mut b)
                .into_iter()
                .map(|m| format!("{width} play hint: {m}")),
        );
        // The engine's next reply (the hint gives way to it).
        watch_layout(&mut b, &placed, &sized);
        let square =
            b.eval("document.querySelector('#board [aria-label*=\", legal\"]').dataset.square");
        b.click(&format!("#board [data-square={square}]"));
        wait_turn(&mut b, 4);
        moved.extend(
            layout_moves(&mut b)
                .into_iter()
                .map(|m| format!("{width} play engine 2: {m}")),
        );
        // Review: it opens at once, the analysis fills in.
        watch_layout(&mut b, &placed, &sized);
        b.click("#review");
        b.wait_for(
            "document.querySelectorAll('#rv-table tbody tr').length === 4 && \
             !document.querySelector('[data-testid=review-at]').textContent.includes('analysing')",
            WAIT,
            "the review's analysis",
        );
        moved.extend(
            layout_moves(&mut b)
                .into_iter()
                .map(|m| format!("{width} play review: {m}")),
        );
        // Explorer: the form and the result's tree stay where they are when
        // a search (then two side by side) arrives.
        b.open(&format!("{}explore", server.url));
        b.wait_for("document.querySelector('#run')", WAIT, "the explorer");
        // It opens on the contract's position searched by alpha-beta; then
        // minimax is asked for.
        wait_text(&mut b, "[data-testid=count]", "7208");
        wait_text(&mut b, "[data-testid=step-count]", "1");
        set_value(&mut b, "#algorithm", "minimax");
        let mut placed = vec![
            "#preset",
            "#form",
            "#run",
            "#compare",
            "#versus",
            "#result-h",
            "#tree-a",
            "#line-a",
        ];
        if wide {
            placed.extend(["#step-h", "#next"]);
        }
        watch_layout(&mut b, &placed, &[]);
        b.click("#run");
        wait_text(&mut b, "[data-testid=count]", "224821");
        wait_text(&mut b, "[data-testid=step-count]", "1");
        moved.extend(
            layout_moves(&mut b)
                .into_iter()
                .map(|m| format!("{width} explore search: {m}")),
        );
        watch_layout(&mut b, &placed, &[]);
        b.click("#versus");
        wait_text(&mut b, "[data-testid=count-b]", "7208");
        wait_text(&mut b, "[data-testid=step-count]", "1");
        moved.extend(
            layout_moves(&mut b)
                .into_iter()
                .map(|m| format!("{width} explore versus: {m}")),
        );
        // Study: the forms and the plots' tops stay while the results stream in.
        b.open(&format!("{}study", server.url));
        b.wait_for(
            "document.querySelector('#m-depth-cap').textContent !== ''",
            WAIT,
            "the caps",
        );
        set_value(&mut b, "#m-size", "6");
        set_value(&mut b, "#m-depth", "3");
        set_value(&mut b, "#t-size", "4");
        set_value(&mut b, "#t-depth", "4");
        let placed = [
            "#match-form",
            "#m-run",
            "#m-status",
            "#m-plot",
            "#table-form",
            "#t-run",
            "#t-status",
            "#t-plot",
        ];
        watch_layout(&mut b, &placed, &[]);
        b.click("#m-run");
        b.wait_for(
            "document.querySelector('[data-testid=match-status]').textContent.startsWith('Done')",
            WAIT,
            "the match",
        );
        b.click("#t-run");
        wait_text(&mut b, "[data-testid=table-status]", "Done: 16 games.");
        moved.extend(
            layout_moves(&mut b)
                .into_iter()
                .map(|m| format!("{width} study: {m}")),
        );
    }
    assert!(moved.is_empty(), "{}", moved.join("\n"));
}

#[test]
fn the_focus_ring_differs_from_the_last_move_frame_and_stands_out_everywhere() {
    let Some((mut b, server)) = browser_and_server(1200, 900) else {
        return;
    };
    // Focus on the last move's square (f5, a black disc with its frame).
    focus_the_last_move_after_f5(&mut b, &server);
    let play = b.eval(&format!(
        "(() => {{ {CONTRAST_JS}
          const f = getComputedStyle(document.activeElement);
          const bands = [f.outlineColor, f.boxShadow.match(/rgba?\\([^)]*\\)/g)[0]];
          const grounds = [['felt', style('#board .sq.empty').backgroundColor],
            ['last-move frame', getComputedStyle(document.querySelector('#board .sq.last')).boxShadow.match(/rgba?\\([^)]*\\)/g).pop()],
            ['black disc', style('#board .sq.black', '::after').backgroundColor],
            ['white disc', style('#board .sq.white', '::after').backgroundColor],
            ['grid line', getComputedStyle(document.querySelector('#board')).backgroundColor]];
          return {{ bands, grounds: grounds.map(([n, g]) => [n, Math.max(...bands.map(c => contrast(c, g)))]) }}; }})()"
    ));
    let bands = play["bands"].as_array().unwrap();
    // The last move's frame is yellow; the ring is white and black.
    let frame =
        b.eval("getComputedStyle(document.activeElement).getPropertyValue('--last').trim()");
    assert_eq!(frame, json!("#ffd54f"));
    for band in bands {
        assert_ne!(band, &json!("rgb(255, 213, 79)"), "{play}");
    }
    for g in play["grounds"].as_array().unwrap() {
        assert!(
            g[1].as_f64().unwrap() >= 3.0,
            "focus ring against {}: {:.2}:1",
            g[0],
            g[1]
        );
    }
    // Focus in the dark header.
    b.eval("document.querySelector('header nav a').focus()");
    b.key("Tab");
    b.key("Tab");
    let header = contrasts(
        &mut b,
        "[['header focus', getComputedStyle(document.activeElement).outlineColor, getComputedStyle(document.querySelector('header')).backgroundColor]]",
    );
    assert_eq!(
        b.eval("!!document.activeElement.closest('header')"),
        json!(true)
    );
    assert!(header[0].1 >= 3.0, "{header:?}");
    // The review graph's bars against the graph's background (the coach
    // at level 6: the game's bars take both colours there).
    b.open(&format!(
        "{}play?size=6&black=human&white=human&coach=6&moves={WIPEOUT_6X6}",
        server.url
    ));
    b.wait_for("!document.querySelector('#end').hidden", WAIT, "the end");
    b.click("#review-end");
    b.wait_for(
        "document.querySelectorAll('#graph rect').length > 0",
        WAIT,
        "the graph",
    );
    let bars = b.eval(&format!(
        "(() => {{ {CONTRAST_JS}
          const bg = getComputedStyle(document.querySelector('#graph')).backgroundColor;
          return [...new Set([...document.querySelectorAll('#graph rect')].map(r => getComputedStyle(r).fill))].map(c => [c, contrast(c, bg)]); }})()"
    ));
    assert!(bars.as_array().unwrap().len() == 2, "{bars}");
    for bar in bars.as_array().unwrap() {
        assert!(bar[1].as_f64().unwrap() >= 3.0, "{bar}");
    }
}
