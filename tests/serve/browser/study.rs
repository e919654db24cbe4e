//! The study page: a match, the depth table, the grid and plots, and forms within the server's caps.

use super::*;

#[test]
fn study_page_runs_a_match_and_a_depth_table() {
    let Some((mut b, server)) = browser_and_server(1300, 1000) else {
        return;
    };
    b.open(&format!("{}study", server.url));
    set_value(&mut b, "#m-size", "6");
    set_value(&mut b, "#m-depth", "3");
    b.click("#m-run");
    let status = b.wait_for(
        "(() => { const s = document.querySelector('[data-testid=match-status]').textContent; return s.startsWith('Done') ? s : null; })()",
        WAIT,
        "the match",
    );
    let rows = b.eval("document.querySelectorAll('#m-table tbody tr').length");
    assert!(
        status
            .as_str()
            .unwrap()
            .contains(&format!("{} moves", rows)),
        "{status}"
    );
    // Both lines are drawn, on a log scale.
    let paths = b.eval("document.querySelectorAll('#m-plot path').length");
    assert_eq!(paths, json!(2));
    set_value(&mut b, "#t-size", "4");
    set_value(&mut b, "#t-depth", "3");
    b.click("#t-run");
    wait_text(&mut b, "[data-testid=table-status]", "Done: 9 games.");
    // Every cell is the score `reversi table` finds for that game.
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["table", "--size", "4", "--depths", "1,2,3", "--json"])
        .output()
        .unwrap();
    let table: Value = serde_json::from_slice(&out.stdout).unwrap();
    for black in 1..=3 {
        for white in 1..=3 {
            let page = text(&mut b, &format!("[data-testid=cell-{black}-{white}]"));
            assert_eq!(page, table["scores"][black - 1][white - 1].to_string());
        }
    }
    save_screenshot(&mut b, "serve-study.png");
}

#[test]
fn the_study_grid_and_plots_keep_every_series_visible_and_forms_within_the_servers_caps() {
    let Some((mut b, server)) = browser_and_server(1300, 1000) else {
        return;
    };
    b.open(&format!("{}study", server.url));
    // The forms allow only depths the server accepts (its caps from /api/status).
    b.wait_for(
        "document.querySelector('#m-depth-cap').textContent !== ''",
        WAIT,
        "the caps",
    );
    set_value(&mut b, "#m-size", "8");
    let (max, value) = (
        b.eval("document.querySelector('#m-depth').max"),
        b.eval("document.querySelector('#m-depth').value"),
    );
    assert_eq!((max, value), (json!("5"), json!("4")));
    set_value(&mut b, "#m-depth", "9");
    assert_eq!(
        b.eval("document.querySelector('#m-depth').value"),
        json!("5")
    );
    set_value(&mut b, "#t-size", "6");
    assert_eq!(b.eval("document.querySelector('#t-depth').max"), json!("5"));
    // A 4x4 depth table: coloured cells with signed numbers, a zero line,
    // round ticks, and series told apart by dashes and markers.
    set_value(&mut b, "#t-size", "4");
    set_value(&mut b, "#t-depth", "4");
    b.click("#t-run");
    wait_text(&mut b, "[data-testid=table-status]", "Done: 16 games.");
    let cells = b.eval(
        "[...document.querySelectorAll('#t-table td.cell')].map(c => [c.textContent, getComputedStyle(c).backgroundColor])",
    );
    let cells = cells.as_array().unwrap();
    assert_eq!(cells.len(), 16);
    for c in cells {
        let (score, colour) = (c[0].as_str().unwrap(), c[1].as_str().unwrap());
        let n: i32 = score.trim_start_matches('+').parse().unwrap();
        assert_eq!(score.starts_with('+'), n > 0, "{score}");
        assert_eq!(colour == "rgb(255, 255, 255)", n == 0, "{score} {colour}");
    }
    assert_eq!(
        b.eval("document.querySelectorAll('#t-plot line.zero').length"),
        json!(1)
    );
    let ticks = b.eval(
        "[...document.querySelectorAll('#t-plot text.ytick')].map(t => Number(t.textContent))",
    );
    let ticks: Vec<f64> = ticks
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    let step = ticks[1] - ticks[0];
    let mantissa = step / 10f64.powf(step.log10().floor());
    assert!(
        [1.0, 2.0, 5.0].iter().any(|m| (m - mantissa).abs() < 1e-9),
        "{ticks:?}"
    );
    assert!(
        ticks.iter().all(|t| (t / step).fract().abs() < 1e-9),
        "{ticks:?}"
    );
    let dashes = b.eval("[...document.querySelectorAll('#t-plot path.series')].map(p => p.getAttribute('stroke-dasharray'))");
    let dashes: Vec<&str> = dashes
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert_eq!(dashes.len(), 4);
    let distinct: std::collections::HashSet<&&str> = dashes.iter().collect();
    assert_eq!(distinct.len(), 4, "{dashes:?}");
    // Equal scores of different series are drawn side by side, not on top of each other.
    let xs = b.eval(
        "[...document.querySelectorAll('#t-plot path.series')].map(p => p.getAttribute('d').split(/[ML]/)[1].split(',')[0])",
    );
    let xs: std::collections::HashSet<String> = xs
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.to_string())
        .collect();
    assert_eq!(xs.len(), 4, "{xs:?}");
}
