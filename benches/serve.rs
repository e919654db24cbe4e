//! Measurements of `reversi serve` in headless Chromium (`cargo bench
//! --bench serve`; needs Debian's chromium, as the browser tests do):
//!
//! 1. time to first contentful paint of each page (median of 5 loads);
//! 2. the server's resident memory (VmRSS) before and after the explorer
//!    opens the 224,821-node minimax tree of the 4x4 start;
//! 3. the page's response while searches run: round trips of `/api/game`
//!    from the page, and a click on the play board until the new position
//!    is drawn, idle and with one and two 10-second engine searches running.

#[path = "../tests/serve/cdp.rs"]
mod cdp;

use cdp::Browser;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let mut server = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start reversi serve");
    let mut line = String::new();
    // Kept open to the end: the server's stdout must stay writable.
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    stdout.read_line(&mut line).unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .expect("URL")
        .to_string();
    let pid = server.id();
    let mut b = Browser::launch(1280, 900);

    println!("reversi serve measurements ({url})");
    for page in ["play", "explore", "study"] {
        let mut fcp = Vec::new();
        for _ in 0..5 {
            b.open(&format!("{url}{page}"));
            let v = b.wait_for(
                "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime",
                Duration::from_secs(30),
                "first contentful paint",
            );
            fcp.push(v.as_f64().unwrap());
        }
        println!(
            "first contentful paint /{page}: median {:.0} ms (5 loads: {})",
            median(fcp.clone()),
            fcp.iter()
                .map(|x| format!("{x:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }

    let before = rss_kib(pid);
    b.open(&format!("{url}explore"));
    b.eval("document.querySelector('#algorithm').value = 'minimax'");
    b.click("#run");
    b.wait_for(
        "document.querySelector('[data-testid=count]').textContent === '224821'",
        Duration::from_secs(60),
        "the minimax tree",
    );
    b.click("#line-a");
    b.wait_for(
        "document.querySelector('#tree-a').dataset.lineOpen === 'true'",
        Duration::from_secs(60),
        "the chosen line",
    );
    let after = rss_kib(pid);
    let status = b.eval("fetch('/api/status').then(r => r.json())");
    println!(
        "server memory: {} KiB before, {} KiB with the 224,821-node tree open (+{} KiB; the tree keeps {} bytes)",
        before,
        after,
        after.saturating_sub(before),
        status["tree_bytes"]
    );

    b.open(&format!("{url}play?size=8"));
    b.wait_for(
        "document.querySelector('#status').textContent.includes('your move')",
        Duration::from_secs(30),
        "the play page",
    );
    // White: a person too, so that a click only redraws.
    b.eval("document.querySelector('#white-player').value = 'human'; document.querySelector('#white-player').dispatchEvent(new Event('change')); true");
    b.wait_for(
        "document.querySelector('#status').textContent.includes('your move')",
        Duration::from_secs(30),
        "the play page",
    );
    const ROUND_TRIPS: &str = "(async () => { const t = []; for (let i = 0; i < 40; i++) { \
        const s = performance.now(); await fetch('/api/game?size=8&moves=d3,c3,c4'); \
        t.push(performance.now() - s); } t.sort((a, b) => a - b); \
        return [t[20], t[38]]; })()";
    // A click on a legal square until the board shows the move, then undo.
    const CLICK: &str = "(async () => { const t = []; for (let i = 0; i < 10; i++) { \
        const sq = document.querySelector('#board [aria-label$=\", legal\"]'); const name = sq.dataset.square; \
        const s = performance.now(); sq.click(); \
        while (!document.querySelector(`#board [data-square=\"${name}\"]`).classList.contains('last')) \
          await new Promise(r => setTimeout(r, 1)); \
        t.push(performance.now() - s); document.querySelector('#undo').click(); \
        while (document.querySelector('#transcript').value !== '') await new Promise(r => setTimeout(r, 1)); } \
        t.sort((a, b) => a - b); return [t[5], t[9]]; })()";
    for searches in 0..=2 {
        for _ in 0..searches {
            // Distinct URLs and no-store: Chromium runs identical GETs one after another.
            b.eval("window.bg = (window.bg || []); window.bg.push(fetch('/api/engine?size=8&moves=&time_ms=10000&depth=64&eval=strong&n=' + window.bg.length + Math.random(), {cache: 'no-store'})); true");
        }
        if searches > 0 {
            b.wait_for(
                &format!(
                    "fetch('/api/status').then(r => r.json()).then(s => s.running === {searches})"
                ),
                Duration::from_secs(10),
                "the searches to run",
            );
        }
        let rt = b.eval(ROUND_TRIPS);
        let click = b.eval(CLICK);
        let still = b.eval("fetch('/api/status').then(r => r.json()).then(s => s.running)");
        println!(
            "while {searches} engine search(es) run (still running after: {still}): /api/game round trip median {:.1} ms, 95th {:.1} ms; click to drawn move median {:.1} ms, worst {:.1} ms",
            rt[0].as_f64().unwrap(),
            rt[1].as_f64().unwrap(),
            click[0].as_f64().unwrap(),
            click[1].as_f64().unwrap()
        );
        b.eval("Promise.all(window.bg || []).then(() => { window.bg = []; return true; })");
    }
    drop(b);
    drop(stdout);
    let _ = server.kill();
    let _ = server.wait();
}
