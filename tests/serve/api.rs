//! The API in-process: requests go straight to the server's router (a
//! tower service) on a tokio runtime, with no socket.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use reversi::apps::serve::{router, AppState, ServerLimits};
use serde_json::Value;
use std::future::Future;
use std::net::SocketAddr;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

const ADDR: &str = "127.0.0.1:8080";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

fn state(limits: ServerLimits) -> Arc<AppState> {
    let addr: SocketAddr = ADDR.parse().unwrap();
    Arc::new(AppState::new(addr, vec!["reversi.test".into()], limits))
}

/// The status, content type and body of `GET path` with `Host: host`.
async fn get_as(state: &Arc<AppState>, host: &str, path: &str) -> (StatusCode, String, String) {
    let request = Request::get(path)
        .header("host", host)
        .body(Body::empty())
        .unwrap();
    let response = router(state.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = axum::body::to_bytes(response.into_body(), 64 << 20)
        .await
        .unwrap();
    (status, kind, String::from_utf8(body.to_vec()).unwrap())
}

async fn get(state: &Arc<AppState>, path: &str) -> (StatusCode, String, String) {
    get_as(state, ADDR, path).await
}

async fn json(state: &Arc<AppState>, path: &str) -> (StatusCode, Value) {
    let (status, kind, body) = get(state, path).await;
    assert!(kind.starts_with("application/json"), "{path}: {kind}");
    (status, serde_json::from_str(&body).unwrap())
}

fn block_on<F: Future>(f: F) -> F::Output {
    runtime().block_on(f)
}

/// What `reversi ARGS` prints: (exit code, stdout, stderr).
fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn published_cases() -> Vec<[String; 4]> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/reversi_tiny_published_cases.tsv"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            [
                f[0].to_string(),
                f[1].to_string(),
                f[2].to_string(),
                f[3].replace("\\n", "\n"),
            ]
        })
        .collect()
}

#[test]
fn tiny_endpoint_answers_the_clis_bytes_on_every_published_case() {
    let cases = published_cases();
    assert_eq!(cases.len(), 150);
    let s = state(ServerLimits::default());
    let rt = runtime();
    for [flag, player, board, expected] in &cases {
        let (code, stdout, _) = cli(&[flag, player, board]);
        assert_eq!(code, 0);
        let path = format!("/api/tiny?flag={flag}&player={player}&board={board}");
        let (status, kind, body) = rt.block_on(get(&s, &path));
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(kind.starts_with("text/plain"), "{kind}");
        assert_eq!(body, stdout, "{path}");
        assert_eq!(&body, expected, "{path}");
    }
}

#[test]
fn tiny_endpoint_rejects_bad_arguments_with_the_clis_error_line() {
    let s = state(ServerLimits::default());
    let rt = runtime();
    for [flag, player, board] in [
        ["700", "1", "0000021001200000"],
        ["300", "3", "0000021001200000"],
        ["300", "1", "000002100120000"],
        ["300", "1", "0000021001200x00"],
    ] {
        let (code, stdout, stderr) = cli(&[flag, player, board]);
        assert_eq!((code, stdout.as_str()), (2, ""));
        let line = stderr.strip_prefix("error: ").expect("error line");
        let path = format!("/api/tiny?flag={flag}&player={player}&board={board}");
        // As every endpoint's error: JSON (it was plain text).
        let (status, body) = rt.block_on(json(&s, &path));
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}");
        assert_eq!(body["error"].as_str(), Some(line.trim_end()), "{path}");
    }
    let (status, body) = rt.block_on(json(&s, "/api/tiny?flag=300"));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("player"), "{body}");
}

#[test]
fn tiny_searches_are_bounded_by_work_not_by_empty_squares() {
    // Finished or nearly finished boards with many empty squares are
    // answered (the CLI's bytes): the caps bound the work, not the empties.
    let s = state(ServerLimits {
        search_time: Duration::from_secs(2),
        ..ServerLimits::default()
    });
    let rt = runtime();
    let mut full6 = "12".repeat(18);
    full6.replace_range(0..1, "0");
    for (flag, player, board) in [
        ("300", "1", "0".repeat(16)),
        ("400", "1", "0".repeat(64)),
        ("300", "2", "1".repeat(60) + "0000"),
        ("300", "1", full6.clone()),
        ("500", "1", "0".repeat(36)),
    ] {
        let (code, stdout, _) = cli(&[flag, player, &board]);
        assert_eq!(code, 0, "{flag} {player} {board}");
        let path = format!("/api/tiny?flag={flag}&player={player}&board={board}");
        let (status, _, body) = rt.block_on(get(&s, &path));
        assert_eq!((status, body), (StatusCode::OK, stdout), "{path}");
    }
    // An exhaustive search of the 8x8 start outgrows the time cap: 422.
    let start8 = reversi::board::Board::start(8).to_digits();
    let began = Instant::now();
    let (status, _, body) = rt.block_on(get(
        &s,
        &format!("/api/tiny?flag=500&player=1&board={start8}"),
    ));
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("ran out of its time"),
        "{body}"
    );
    assert!(
        began.elapsed() < Duration::from_secs(10),
        "{:?}",
        began.elapsed()
    );
}

#[test]
fn only_requests_naming_this_server_are_answered() {
    let s = state(ServerLimits::default());
    block_on(async {
        for ok in [
            ADDR,
            "localhost:8080",
            "LOCALHOST:8080",
            "reversi.test:8080",
            "[::1]:8080",
            "10.1.2.3:8080",
        ] {
            let (status, _, _) = get_as(&s, ok, "/api/status").await;
            assert_eq!(status, StatusCode::OK, "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1:9999",
            "localhost",
            "127.0.0.1",
            "[::1",
            "",
        ] {
            let (status, _, body) = get_as(&s, bad, "/api/status").await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{bad}");
            assert!(body.contains("DNS rebinding"), "{body}");
        }
    });
}

#[test]
fn other_methods_long_targets_and_unknown_paths_get_4xx() {
    let s = state(ServerLimits::default());
    block_on(async {
        let request = Request::post("/api/search")
            .header("host", ADDR)
            .body(Body::from("x"))
            .unwrap();
        let response = router(s.clone()).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        let long = format!("/api/game?moves={}", "d3,".repeat(2000));
        assert_eq!(get(&s, &long).await.0, StatusCode::URI_TOO_LONG);
        let (status, body) = json(&s, "/nowhere").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(body["error"].is_string());
        assert_eq!(get(&s, "/assets/secret.txt").await.0, StatusCode::NOT_FOUND);
        assert_eq!(
            get(&s, "/assets/..%2FCargo.toml").await.0,
            StatusCode::NOT_FOUND
        );
    });
}

#[test]
fn pages_and_assets_are_served_from_the_binary() {
    let s = state(ServerLimits::default());
    block_on(async {
        for page in ["/", "/play", "/explore", "/study"] {
            let (status, kind, body) = get(&s, page).await;
            assert_eq!(status, StatusCode::OK);
            assert!(kind.starts_with("text/html"));
            assert!(body.contains("/assets/common.js"));
            // No page loads anything from another origin.
            assert!(
                !body.contains("http://") && !body.contains("https://"),
                "{page}"
            );
        }
        for asset in ["app.css", "common.js", "play.js", "explore.js", "study.js"] {
            let (status, _, body) = get(&s, &format!("/assets/{asset}")).await;
            assert_eq!(status, StatusCode::OK);
            assert!(!body.contains("https://"), "{asset}");
        }
    });
}

#[test]
fn game_endpoint_replays_moves_and_rejects_illegal_ones() {
    let s = state(ServerLimits::default());
    block_on(async {
        let (status, g) = json(&s, "/api/game?size=8&moves=d3,c3").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(g["to_move"], "black");
        assert_eq!(
            (g["black"].as_u64(), g["white"].as_u64()),
            (Some(3), Some(3))
        );
        assert_eq!(g["last"], "c3");
        assert_eq!(g["flipped"], serde_json::json!(["d4"]));
        assert_eq!(g["transcript"], "d3 c3");
        let (status, e) = json(&s, "/api/game?size=8&moves=d3,a1").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(e["error"].as_str().unwrap().starts_with("move 2"), "{e}");
        assert_eq!(
            json(&s, "/api/game?size=5").await.0,
            StatusCode::BAD_REQUEST
        );
    });
}

#[test]
fn engine_endpoint_plays_a_legal_move_within_its_caps() {
    let s = state(ServerLimits::default());
    block_on(async {
        let (status, m) = json(&s, "/api/engine?size=6&moves=&depth=3&time_ms=5000").await;
        assert_eq!(status, StatusCode::OK, "{m}");
        let (_, g) = json(&s, "/api/game?size=6").await;
        assert!(g["legal"].as_array().unwrap().contains(&m["move"]));
        assert_eq!(m["depth"], 3);
        for bad in [
            "time_ms=999999",
            "depth=0",
            "eval=psychic",
            "algorithm=random",
        ] {
            let (status, _) = json(&s, &format!("/api/engine?size=6&{bad}")).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        }
    });
}

#[test]
fn engine_endpoint_plays_at_a_level_on_8x8_only() {
    let s = state(ServerLimits::default());
    block_on(async {
        let moves = "f5,d6,c3,d3,c4";
        let (status, m) = json(
            &s,
            &format!("/api/engine?size=8&moves={moves}&level=3&time_ms=5000"),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{m}");
        let (_, g) = json(&s, &format!("/api/game?size=8&moves={moves}")).await;
        assert!(g["legal"].as_array().unwrap().contains(&m["move"]), "{m}");
        assert_eq!(m["depth"], 3);
        assert_eq!(m["level"], 3);
        for bad in ["size=8&level=0", "size=8&level=31", "size=8&level=x"] {
            let (status, e) = json(&s, &format!("/api/engine?{bad}")).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(e["error"].as_str().unwrap().contains("level"), "{e}");
        }
        let (status, e) = json(&s, "/api/engine?size=6&level=3").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(e["error"].as_str().unwrap().contains("8x8 only"), "{e}");
    });
}

/// A level's move comes with its value unrounded, as a hint's (it was
/// rounded to whole discs): the engine's own choice's value.
#[test]
fn engine_values_at_a_level_are_not_rounded() {
    use reversi::engine::analyze::{Analyzer, Limits};
    let s = state(ServerLimits::default());
    let mut fractions = 0;
    for moves in ["f5,d6,c3,d3,c4", "f5,f6,e6,f4,e3", "f5,d6,c5,f4,e3,f6"] {
        let game = reversi::record::parse_game(&moves.replace(',', ""), 8).unwrap();
        let limits = Limits {
            level: Some(3),
            time: None,
            exact_empties: 20,
            ..Limits::default()
        };
        let c = Analyzer::new().choose(&game.last(), &limits, None).unwrap();
        let want = c.discs.unwrap().0;
        let (_, m) = block_on(json(
            &s,
            &format!("/api/engine?size=8&moves={moves}&level=3&time_ms=10000"),
        ));
        assert_eq!(m["move"], c.mv.to_string(), "{m}");
        assert_eq!(m["value"].as_f64(), Some(want), "{moves}: {m}");
        fractions += usize::from(want.fract() != 0.0);
    }
    assert!(
        fractions > 0,
        "every value a whole number: the test proves nothing"
    );
}

/// A finished game in a depth-bounded search is worth its standard final
/// score, as the play page scores it: black's e4 takes white's one disc,
/// a wipeout 3-0 (+64; the explorer said 3).
#[test]
fn a_bounded_search_scores_a_finished_game_as_the_play_page_does() {
    let s = state(ServerLimits::default());
    let mut digits = vec!['0'; 64];
    digits[3 * 8 + 2] = '1';
    digits[3 * 8 + 3] = '2';
    let board: String = digits.into_iter().collect();
    block_on(async {
        let (status, r) = json(
            &s,
            &format!("/api/search?board={board}&player=1&algorithm=minimax&depth=2&eval=disc"),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{r}");
        let (_, g) = json(
            &s,
            &format!("/api/game?size=8&moves=e4&start={board}&start_player=1"),
        )
        .await;
        assert_eq!(g["final_score"], 64, "{g}");
        assert_eq!(r["value"], g["final_score"], "{r}");
    });
}

#[test]
fn search_endpoint_shows_the_contracts_value_and_count() {
    let s = state(ServerLimits::default());
    let (_, cli300, _) = cli(&["300", "1", "0000021001200000"]);
    let (_, cli500, _) = cli(&["500", "1", "0000021001200000"]);
    block_on(async {
        for (algorithm, printed) in [("minimax", &cli300), ("alphabeta", &cli500)] {
            let path = format!("/api/search?board=0000021001200000&player=1&algorithm={algorithm}");
            let (status, r) = json(&s, &path).await;
            assert_eq!(status, StatusCode::OK, "{r}");
            assert_eq!(format!("{}\n{}\n", r["value"], r["count"]), *printed);
            // The root's children add up to the count.
            let children = r["root"]["children"].as_array().unwrap();
            let below: u64 = children.iter().map(|c| c["size"].as_u64().unwrap()).sum();
            assert_eq!(below + 1, r["count"].as_u64().unwrap());
            // Every node of the chosen line carries the root's value.
            let id = r["id"].as_u64().unwrap();
            for k in r["chosen_line"].as_array().unwrap() {
                let (_, d) = json(&s, &format!("/api/tree/{id}/node/{k}")).await;
                assert_eq!(d["node"]["value"], r["value"]);
                assert_eq!(d["on_chosen_line"], true);
            }
        }
        let (_, status) = json(&s, "/api/status").await;
        assert_eq!(status["trees"], 2);
        assert_eq!(status["tree_nodes"], 224_821 + 7_208);
    });
}

#[test]
fn step_endpoint_replays_alphabeta_in_visit_order() {
    let s = state(ServerLimits::default());
    block_on(async {
        let (_, r) = json(
            &s,
            "/api/search?board=0000021001200000&player=1&algorithm=alphabeta",
        )
        .await;
        let id = r["id"].as_u64().unwrap();
        let mut prev_depth = 0;
        for k in 0..30u64 {
            let (status, st) = json(&s, &format!("/api/tree/{id}/step/{k}")).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(st["count"].as_u64(), Some(k + 1));
            let path = st["path"].as_array().unwrap();
            assert_eq!(path.last().unwrap()["index"].as_u64(), Some(k));
            // Depth-first: a step goes one level deeper or back up.
            assert!(path.len() <= prev_depth + 1);
            prev_depth = path.len();
            // The current node's window is the parent's window now.
            if path.len() > 1 {
                let (parent, node) = (&path[path.len() - 2], &path[path.len() - 1]);
                assert_eq!(
                    (&node["alpha"], &node["beta"]),
                    (&parent["alpha_now"], &parent["beta_now"])
                );
            }
        }
        let count = r["count"].as_u64().unwrap();
        assert_eq!(
            json(&s, &format!("/api/tree/{id}/step/{count}")).await.0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            json(&s, "/api/tree/999/node/0").await.0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            get(&s, &format!("/api/tree/{id}/node/x")).await.0,
            StatusCode::BAD_REQUEST
        );
    });
}

#[test]
fn natural_and_best_order_agree_on_the_value() {
    let s = state(ServerLimits::default());
    block_on(async {
        let base = "/api/search?board=0000021001200000&player=1&algorithm=alphabeta";
        let (_, natural) = json(&s, &format!("{base}&order=natural")).await;
        let (_, best) = json(&s, &format!("{base}&order=best")).await;
        assert_eq!(natural["value"], best["value"]);
        assert_eq!(natural["count"], 7208);
        assert!(best["count"].as_u64().unwrap() > 0);
        let (status, _) = json(&s, &format!("{base}&order=random")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    });
}

#[test]
fn searches_past_the_node_cap_are_refused_and_old_trees_dropped() {
    let limits = ServerLimits {
        max_tree_nodes: 10_000,
        max_trees: 2,
        ..ServerLimits::default()
    };
    let s = state(limits);
    block_on(async {
        let (status, e) = json(
            &s,
            "/api/search?board=0000021001200000&player=1&algorithm=minimax",
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(e["error"].as_str().unwrap().contains("10000"), "{e}");
        let mut ids = Vec::new();
        for _ in 0..3 {
            let (_, r) = json(
                &s,
                "/api/search?board=0000021001200000&player=1&algorithm=alphabeta",
            )
            .await;
            ids.push(r["id"].as_u64().unwrap());
        }
        assert_eq!(
            json(&s, &format!("/api/tree/{}/node/0", ids[0])).await.0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            json(&s, &format!("/api/tree/{}/node/0", ids[2])).await.0,
            StatusCode::OK
        );
    });
}

/// Waits (bounded) until no search runs.
async fn settle(s: &Arc<AppState>, within: Duration) -> bool {
    let end = Instant::now() + within;
    while Instant::now() < end {
        if s.running() == 0 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[test]
fn a_search_stops_when_its_client_goes_away_and_slots_are_capped() {
    // An 8x8 minimax to the end never finishes: only cancellation (or the
    // 10-minute cap set here) stops it.
    let limits = ServerLimits {
        max_searches: 1,
        search_time: Duration::from_secs(600),
        max_tree_nodes: u64::MAX,
        ..ServerLimits::default()
    };
    let s = state(limits);
    let start8 = reversi::board::Board::start(8).to_digits();
    block_on(async {
        let path = format!("/api/search?board={start8}&player=1&algorithm=minimax");
        let s2 = s.clone();
        let long = tokio::spawn(async move { get(&s2, &path).await });
        let begun = Instant::now();
        while s.running() == 0 {
            assert!(
                begun.elapsed() < Duration::from_secs(30),
                "the search never started"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The one slot is taken: another search is refused at once.
        let (status, e) = json(&s, "/api/search?board=0000021001200000&player=1").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
        let (status, _, _) = get(&s, "/api/tiny?flag=300&player=1&board=0000021001200000").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        // Non-search endpoints still answer.
        assert_eq!(json(&s, "/api/game?size=4").await.0, StatusCode::OK);
        // The client goes away: the request's future is dropped.
        long.abort();
        assert!(
            settle(&s, Duration::from_secs(20)).await,
            "the search kept running"
        );
        let (status, r) = json(
            &s,
            "/api/search?board=0000021001200000&player=1&algorithm=alphabeta",
        )
        .await;
        assert_eq!((status, r["count"].as_u64()), (StatusCode::OK, Some(7208)));
    });
}

#[test]
fn study_streams_report_progress_and_finish() {
    let s = state(ServerLimits::default());
    block_on(async {
        let (status, kind, body) = get(&s, "/api/study/match?size=4&depth=3").await;
        assert_eq!(status, StatusCode::OK);
        assert!(kind.starts_with("text/event-stream"), "{kind}");
        let moves = body.matches("event: move").count();
        assert!(moves > 0);
        assert!(body.contains("event: done"), "{body}");
        let (_, _, body) = get(&s, "/api/study/table?size=4&max_depth=2").await;
        assert_eq!(body.matches("event: cell").count(), 4);
        assert!(body.contains("event: done"));
        let (status, e) = json(&s, "/api/study/table?size=8&max_depth=9").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
        assert!(settle(&s, Duration::from_secs(5)).await);
    });
}

#[test]
fn tiny_searches_are_capped_in_time_and_nodes() {
    // This 8x8 minimax over 14 empty squares takes over 30 s: with a cap
    // of one second it answers 422 soon after.
    let mut rng = reversi::rng::Rng::new(2);
    let p = reversi::reversi::random_position(8, 46, &mut rng);
    assert_eq!(p.board.empty().count_ones(), 14);
    let slow = format!("/api/tiny?flag=300&player=1&board={}", p.board.to_digits());
    let s = state(ServerLimits {
        search_time: Duration::from_secs(1),
        ..ServerLimits::default()
    });
    block_on(async {
        let start = Instant::now();
        let (status, kind, body) = get(&s, &slow).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(kind.starts_with("application/json"), "{kind}");
        assert!(body.contains("ran out of its time"), "{body}");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
        assert!(settle(&s, Duration::from_secs(5)).await);
    });
    // The 4x4 start: minimax counts 224,821 states, alpha-beta 7,208.
    let tiny = |flag: &str| format!("/api/tiny?flag={flag}&player=1&board=0000021001200000");
    for (cap, minimax_ok) in [(224_820, false), (224_821, true)] {
        let s = state(ServerLimits {
            max_tiny_nodes: cap,
            ..ServerLimits::default()
        });
        block_on(async {
            let (status, _, body) = get(&s, &tiny("300")).await;
            if minimax_ok {
                assert_eq!((status, body.as_str()), (StatusCode::OK, "-1\n224821\n"));
            } else {
                assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
                assert!(body.contains(&format!("cap of {cap} states")), "{body}");
            }
            let (status, _, body) = get(&s, &tiny("500")).await;
            assert_eq!((status, body.as_str()), (StatusCode::OK, "-1\n7208\n"));
        });
    }
}

#[test]
fn serve_command_line_errors_are_one_line() {
    for args in [
        &["serve", "--port", "x"][..],
        &["serve", "--host", "nowhere"],
        &["serve", "extra"],
    ] {
        let (code, stdout, stderr) = cli(args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{stderr}");
    }
    let (code, stdout, _) = cli(&["serve", "--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("--allow-host"));
}

#[test]
fn records_read_back_what_the_game_exports_and_hints_rank_the_moves() {
    let s = state(ServerLimits::default());
    block_on(async {
        // The export of a game with a pass (4x4) reads back to the same moves.
        let (status, g) = json(&s, "/api/game?size=4&moves=b1,a1,a2").await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(g["movers"], serde_json::json!(["black", "white", "black"]));
        for form in ["compact", "passes"] {
            let text = g["export"][form].as_str().unwrap().replace(' ', "%20");
            let (status, r) = json(&s, &format!("/api/record?size=8&text={text}")).await;
            assert_eq!(status, StatusCode::OK, "{form}: {r}");
            assert_eq!(
                (r["size"].clone(), r["moves"].clone()),
                (serde_json::json!(4), g["moves"].clone()),
                "{form}"
            );
        }
        // GGF and a board string (a start of its own) on 8x8.
        let (_, g) = json(&s, "/api/game?size=8&moves=f5,d6,c3").await;
        for form in ["ggf", "board"] {
            let text: String = g["export"][form]
                .as_str()
                .unwrap()
                .bytes()
                .map(|c| format!("%{c:02X}"))
                .collect();
            let (status, r) = json(&s, &format!("/api/record?size=8&text={text}")).await;
            assert_eq!(status, StatusCode::OK, "{form}: {r}");
            if form == "ggf" {
                assert_eq!(r["moves"], g["moves"]);
                assert!(r["start"].is_null(), "{r}");
            } else {
                assert_eq!(r["moves"], serde_json::json!([]));
                assert_eq!(r["start"]["board"], g["board"]);
                let (_, again) = json(
                    &s,
                    &format!(
                        "/api/game?start={}&start_player=2",
                        g["board"].as_str().unwrap()
                    ),
                )
                .await;
                assert_eq!(again["legal"], g["legal"]);
            }
        }
        let (status, e) = json(&s, "/api/record?size=8&text=f5z9").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            e["error"].as_str().unwrap().contains("cannot be read"),
            "{e}"
        );
        // A hint at the 8x8 start: the four symmetric moves, equal values.
        let (status, h) = json(&s, "/api/hint?size=8&level=3").await;
        assert_eq!(status, StatusCode::OK, "{h}");
        let moves = h["moves"].as_array().unwrap();
        let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        assert!(moves.iter().all(|m| m["value"] == moves[0]["value"]), "{h}");
        assert!(moves.iter().all(|m| m["line"][0] == m["move"]), "{h}");
        // The favicon (no 404 in the console).
        let (status, kind, body) = get(&s, "/favicon.ico").await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            kind.starts_with("image/svg+xml") && body.starts_with("<svg"),
            "{kind}"
        );
    });
}

#[test]
fn a_review_gives_every_move_its_loss_and_black_the_graph() {
    let s = state(ServerLimits::default());
    block_on(async {
        // A whole 4x4 game: every value is exact, the last position's value
        // for black is the final score.
        let (_, g) = json(&s, "/api/game?size=4&moves=b1,a1,d3,c1,a2,a3,pass,c4").await;
        let moves = g["moves"].as_array().unwrap().len();
        let (status, r) = json(&s, "/api/review?size=4&moves=b1,a1,d3,c1,a2,a3,pass,c4").await;
        assert_eq!(status, StatusCode::OK, "{r}");
        let rows = r["moves"].as_array().unwrap();
        assert_eq!(rows.len(), moves);
        assert!(rows.iter().all(|m| m["loss"].as_f64().unwrap() >= 0.0));
        assert_eq!(g["over"], serde_json::json!(true));
        let last = rows.last().unwrap()["black_value_after"].as_f64().unwrap();
        assert_eq!(Some(last as i64), r["final_score"].as_i64(), "{r}");
        // The standard score: the disc difference, empty squares to the winner.
        let (black, white) = (g["black"].as_i64().unwrap(), g["white"].as_i64().unwrap());
        let empties = 16 - black - white;
        let diff = black - white;
        let standard = diff + diff.signum() * empties;
        assert_eq!(r["final_score"].as_i64(), Some(standard), "{r}");
    });
}

#[test]
fn values_carry_their_unit_and_view_and_final_scores_the_standard_rule() {
    let s = state(ServerLimits::default());
    block_on(async {
        // A 6x6 wipeout with 10 empty squares: 0-26 on the board, -36.
        let (_, g) = json(
            &s,
            "/api/game?size=6&moves=d5,e3,f2,d6,e6,f6,c5,c6,b6,e4,e5,e2,f5,f4,f3,f1,b4,a4,b3,b5,pass,a6,pass,a2",
        )
        .await;
        assert_eq!(
            (g["black"].as_i64(), g["white"].as_i64()),
            (Some(0), Some(26))
        );
        assert_eq!(g["final_score"], serde_json::json!(-36));
        assert!(g["scoring"]
            .as_str()
            .unwrap()
            .contains("empty squares going to the winner"));
        // The engine with `strong` gives its points, with `disc` discs.
        let (_, e) = json(&s, "/api/engine?size=6&depth=2&eval=strong").await;
        assert_eq!(
            (e["unit"].as_str(), e["view"].as_str()),
            (Some("strong points"), Some("black"))
        );
        let (_, e) = json(&s, "/api/engine?size=6&depth=2&eval=disc").await;
        assert_eq!(e["unit"], "discs");
        assert!(e["value"].as_f64().unwrap().abs() <= 36.0);
        let (_, e) = json(&s, "/api/engine?size=8&level=3&time_ms=2000").await;
        assert_eq!(
            (e["unit"].as_str(), e["level_depth"].as_u64()),
            (Some("discs"), Some(3))
        );
        let (_, h) = json(&s, "/api/hint?size=6&moves=d5&level=2").await;
        assert_eq!(
            (h["unit"].as_str(), h["view"].as_str()),
            (Some("discs"), Some("white"))
        );
        // The replay's nearest cutoffs.
        let (_, r) = json(&s, "/api/search?algorithm=alphabeta").await;
        let id = r["id"].as_u64().unwrap();
        let (_, first) = json(&s, &format!("/api/tree/{id}/event/0")).await;
        assert!(first["prev_cutoff"].is_null());
        let next = first["next_cutoff"].as_u64().unwrap();
        let (_, cut) = json(&s, &format!("/api/tree/{id}/event/{next}")).await;
        assert_eq!(cut["kind"], "cutoff");
        for e in 1..next {
            let (_, x) = json(&s, &format!("/api/tree/{id}/event/{e}")).await;
            assert_eq!(x["kind"], "enter", "event {e}");
        }
    });
}

/// The 6x6 game: after d5 e5 f5 c5 b3 b4 b5 d2, black's d1 takes
/// every white disc (13-0 on the board, +36 with the empty squares). The
/// hint, the review and the engine give it its final score, exact; the
/// depth-based coach made it "+1.6 discs (estimate, 2 plies)" and the
/// engine "13 strong points".
#[test]
fn a_move_that_ends_the_game_is_worth_its_final_score_everywhere() {
    let s = state(ServerLimits::default());
    let moves = "d5,e5,f5,c5,b3,b4,b5,d2";
    block_on(async {
        let (status, h) = json(&s, &format!("/api/hint?size=6&moves={moves}")).await;
        assert_eq!(status, StatusCode::OK, "{h}");
        let d1 = h["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == "d1")
            .expect("d1 is hinted")
            .clone();
        assert_eq!(d1["value"].as_f64(), Some(36.0), "{h}");
        assert_eq!(d1["certainty"]["kind"], "exact", "{h}");
        assert_eq!(h["moves"][0]["move"], "d1", "{h}");
        let (status, g) = json(&s, &format!("/api/game?size=6&moves={moves},d1")).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(g["final_score"], serde_json::json!(36), "{g}");
        let (status, r) = json(&s, &format!("/api/review?size=6&moves={moves},d1")).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        let last = r["moves"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["played_value"].as_f64(), Some(36.0), "{r}");
        assert_eq!(last["black_value_after"].as_f64(), Some(36.0), "{r}");
        assert_eq!(last["certainty"]["kind"], "exact", "{r}");
        let mut wiped = 0;
        for depth in [1, 2, 4] {
            let (status, e) = json(
                &s,
                &format!("/api/engine?size=6&moves={moves}&depth={depth}&eval=strong"),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{e}");
            if e["move"] == "d1" {
                wiped += 1;
                assert_eq!(e["value"].as_f64(), Some(36.0), "depth {depth}: {e}");
                assert_eq!(e["unit"], "discs", "depth {depth}: {e}");
            }
        }
        assert!(wiped > 0, "the engine never played d1");
    });
}

/// At 19 empty squares on 8x8 the coach proves win/loss/draw: every proved
/// move is sent as its outcome with an estimate that agrees with it (at
/// most -2 for a loss), never as `value: -1.0` in discs, and ranked by it,
/// below the best move's exact score.
#[test]
fn a_hint_sends_a_proof_as_its_outcome_with_an_agreeing_estimate() {
    let s = state(ServerLimits::default());
    let moves = "f5,f6,e6,f4,g6,f7,g5,h4,h5,h6,e3,c5,g4,d6,e7,f8,c6,c4,d7,d3,e8,e2,f3,h3,b5,a5,e1,f1,g1,g3,g8,c7,f2,g2,d2,c3,h1,h2,d1,c8,c2";
    block_on(async {
        let (status, h) = json(&s, &format!("/api/hint?size=8&level=8&moves={moves}")).await;
        assert_eq!(status, StatusCode::OK, "{h}");
        let all = h["moves"].as_array().unwrap();
        assert_eq!(all.len(), 5, "{h}");
        let values: Vec<f64> = all.iter().map(|m| m["value"].as_f64().unwrap()).collect();
        // The best of them is solved exactly; the others keep their proofs.
        assert_eq!(all[0]["certainty"]["kind"], "exact", "{h}");
        assert!(values[0] <= -2.0, "{h}");
        for m in &all[1..] {
            assert_eq!(m["certainty"]["kind"], "win-loss-draw", "{m}");
            assert_eq!(m["outcome"], "loss", "{m}");
            assert!(m["value"].as_f64().unwrap() <= -2.0, "{m}");
        }
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{h}");
        assert!(values[0] > values[4], "{h}");
    });
}

/// The first 30 moves of WTHOR 1984 game 1 (Ralle - Torcia), for the API.
const WTHOR_1984_1_30: &str =
    "f5,f6,e6,f4,g6,f7,g5,h4,h5,h6,e3,c5,g4,d6,e7,f8,c6,c4,d7,d3,e8,e2,f3,h3,b5,a5,e1,f1,g1,g3";

/// A level alone decides the coach's values: `/api/hint` gives what
/// `reversi hint` gives at that level, and one game reviewed twice, once
/// while every core is busy, gives the same review (it searched 300 ms a
/// position: four reviews of one game gave four sets of losses).
#[test]
fn the_coach_answers_alike_on_any_load_and_as_the_cli_does() {
    let s = state(ServerLimits::default());
    let moves18: Vec<&str> = WTHOR_1984_1_30.split(',').take(18).collect();
    let (code, out, _) = cli(&["hint", "--level", "8", "--json", &moves18.concat()]);
    assert_eq!(code, 0);
    let cli_best = {
        let v = &out[out.find("\"value\":").unwrap() + 8..];
        v[..v.find(',').unwrap()].parse::<f64>().unwrap()
    };
    block_on(async {
        let (status, h) = json(
            &s,
            &format!("/api/hint?size=8&level=8&moves={}", moves18.join(",")),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{h}");
        assert_eq!(h["cut"], serde_json::json!(false), "{h}");
        let api_best = h["moves"][0]["value"].as_f64().unwrap();
        assert_eq!(
            format!("{api_best:.2}"),
            format!("{cli_best:.2}"),
            "{h}\n{out}"
        );
        let path = format!("/api/review?size=8&level=6&moves={WTHOR_1984_1_30}");
        let (status, quiet) = json(&s, &path).await;
        assert_eq!(status, StatusCode::OK, "{quiet}");
        let busy = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let burners: Vec<_> = (0..4)
            .map(|_| {
                let busy = busy.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while busy.load(std::sync::atomic::Ordering::Relaxed) {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    }
                    x
                })
            })
            .collect();
        let (_, loaded) = json(&s, &path).await;
        busy.store(false, std::sync::atomic::Ordering::Relaxed);
        for b in burners {
            b.join().unwrap();
        }
        assert_eq!(quiet["moves"], loaded["moves"]);
        assert_eq!(quiet["cut"], serde_json::json!(0), "{quiet}");
        assert_eq!(quiet["moves"].as_array().unwrap().len(), 30);
    });
}

/// The status and JSON answer of `POST path` with `body`.
async fn post(state: &Arc<AppState>, path: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let request = Request::post(path)
        .header("host", ADDR)
        .body(Body::from(body))
        .unwrap();
    let response = router(state.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, serde_json::from_slice(&body).unwrap())
}

#[test]
fn a_record_file_posted_reads_back_every_export_form_pgn_included() {
    let s = state(ServerLimits::default());
    block_on(async {
        // A finished 8x8 game with named moves, written in each form and
        // sent back as a file's body: the same moves.
        let moves = "f5,d6,c3,d3,c4,f4,f6,f3,e6,e7";
        let (_, g) = json(&s, &format!("/api/game?size=8&moves={moves}")).await;
        let pgn = g["export"]["pgn"].as_str().unwrap();
        assert!(pgn.starts_with("[Event \"?\"]\n"), "{pgn}");
        assert!(pgn.contains("1. f5 d6 2. c3 d3"), "{pgn}");
        for form in ["pgn", "ggf", "compact", "passes"] {
            let text = g["export"][form].as_str().unwrap();
            // A file as an editor saves it: a byte-order mark, CRLF lines.
            let file = format!("\u{feff}{}\r\n", text.replace('\n', "\r\n"));
            let (status, r) = post(&s, "/api/record?size=6", file.into_bytes()).await;
            assert_eq!(status, StatusCode::OK, "{form}: {r}");
            assert_eq!(
                (r["size"].as_u64(), &r["moves"]),
                (Some(8), &g["moves"]),
                "{form}"
            );
        }
        // PGN holds 8x8 games from the standard start only.
        let (_, small) = json(&s, "/api/game?size=6&moves=c2").await;
        assert!(small["export"]["pgn"].is_null(), "{small}");
        // A record longer than an address can carry (a GGF game with every
        // move's evaluation and time and a long comment tag).
        let long = format!(
            "(;GM[Othello]PC[{}]TY[8]BO[8 {}{}{} *]B[F5/1.00/2.00]W[D6/-1.00/3.00];)",
            "x".repeat(5000),
            "-".repeat(27),
            "OX------XO",
            "-".repeat(27)
        );
        let (status, r) = post(&s, "/api/record?size=8", long.into_bytes()).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        assert_eq!(r["moves"], serde_json::json!(["f5", "d6"]));
        // Bad files: one JSON error each, 4xx.
        let limit = ServerLimits::default().max_body;
        for (body, want) in [
            (vec![b'f'; limit + 1], StatusCode::PAYLOAD_TOO_LARGE),
            (vec![0xff, 0xfe, b'f', b'5'], StatusCode::BAD_REQUEST),
            (b"f5 z9".to_vec(), StatusCode::BAD_REQUEST),
            (Vec::new(), StatusCode::BAD_REQUEST),
            (
                b"[Event \"a\"]\n1. f5 d6\n\n[Event \"b\"]\n1. f5 f6\n".to_vec(),
                StatusCode::BAD_REQUEST,
            ),
        ] {
            let (status, e) = post(&s, "/api/record?size=8", body).await;
            assert_eq!(status, want, "{e}");
            assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
        }
        let (status, e) = post(&s, "/api/record?size=5", b"f5".to_vec()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
        // Other endpoints still refuse a POST.
        let (status, e) = post(&s, "/api/game?size=8", b"f5".to_vec()).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{e}");
    });
}

#[test]
fn a_review_from_move_k_gives_the_whole_reviews_rows_and_each_values_kind() {
    let s = state(ServerLimits::default());
    block_on(async {
        // Ten moves on 6x6: each time the last legal move in reading order.
        let mut played: Vec<String> = Vec::new();
        for _ in 0..10 {
            let (_, g) = json(&s, &format!("/api/game?size=6&moves={}", played.join(","))).await;
            played.push(crate::last_legal(&g));
        }
        let moves = played.join(",");
        let (status, whole) = json(&s, &format!("/api/review?size=6&moves={moves}&level=4")).await;
        assert_eq!(status, StatusCode::OK, "{whole}");
        let rows = whole["moves"].as_array().unwrap();
        assert_eq!(whole["from"], serde_json::json!(0));
        for k in [0, 4, 9, 10] {
            let (status, part) = json(
                &s,
                &format!("/api/review?size=6&moves={moves}&level=4&from={k}"),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{part}");
            assert_eq!(part["moves"].as_array().unwrap()[..], rows[k..], "from {k}");
            assert_eq!(part["from"], serde_json::json!(k));
            assert_eq!(part["complete"], serde_json::json!(true));
        }
        // Each row says what its played value is, as the best value does.
        for m in rows {
            let kind = m["played_certainty"]["kind"].as_str().unwrap();
            assert!(["exact", "estimate", "book"].contains(&kind), "{m}");
            if m["played"] == m["best"] {
                assert_eq!(m["played_certainty"], m["certainty"], "{m}");
            }
            if m["exact"] == serde_json::json!(true) {
                assert_eq!(kind, "exact", "{m}");
            }
        }
        for bad in ["11", "-1", "x"] {
            let (status, e) =
                json(&s, &format!("/api/review?size=6&moves={moves}&from={bad}")).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {e}");
            assert!(e["error"].as_str().unwrap().contains("from"), "{e}");
        }
    });
}

/// The samples of tests/data/wthor indexed by the binary into `name`'s
/// directory: the index's path.
fn sample_games_index(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("api-games")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.idx").to_str().unwrap().to_string();
    let data = |f: &str| format!("{}/tests/data/wthor/{f}", env!("CARGO_MANIFEST_DIR"));
    let files = [
        "WTHOR-sample.JOU",
        "WTHOR-sample.TRN",
        "WTH_1984-sample.wtb",
        "wthor-sample.pgn",
        "logbook-sample.gam",
    ]
    .map(data);
    let mut args = vec!["games", "index", "--quiet", "--out", &out];
    args.extend(files.iter().map(String::as_str));
    let (code, _, err) = cli(&args);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn api_games_answers_as_reversi_games_does_and_says_when_it_has_no_index() {
    let index = sample_games_index("answers");
    let games = reversi::kit::readers::read_games_index(&index).expect("the index");
    let with = Arc::new(
        AppState::new(ADDR.parse().unwrap(), vec![], ServerLimits::default())
            .with_games(Some(Arc::new(games))),
    );
    block_on(async {
        for moves in ["f5", "f5,d6", "c4,e3,f6", "f5,f4"] {
            let (status, answer) =
                json(&with, &format!("/api/games?size=8&moves={moves}&games=5")).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            // The command line's answer for the same position (its own
            // tests replay the samples position by position).
            let (code, out, err) = cli(&[
                "games",
                "--json",
                "--games",
                "5",
                "--index",
                &index,
                &moves.replace(',', ""),
            ]);
            assert_eq!(code, 0, "{err}");
            let cli_answer: Value = serde_json::from_str(&out).unwrap();
            for field in [
                "games",
                "black_wins",
                "draws",
                "white_wins",
                "mean_score",
                "moves",
                "listed",
            ] {
                assert_eq!(answer[field], cli_answer[field], "{moves}: {field}");
            }
            assert_eq!(answer["indexed"], 23);
        }
        // Off 8x8, or on a server without an index: one JSON error.
        let (status, answer) = json(&with, "/api/games?size=6&moves=").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        let (status, answer) = json(
            &state(ServerLimits::default()),
            "/api/games?size=8&moves=f5",
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
        assert!(
            answer["error"].as_str().unwrap().contains("--games"),
            "{answer}"
        );
    });
}

#[test]
fn api_game_writes_the_variations_into_its_pgn_and_refuses_bad_ones() {
    let s = state(ServerLimits::default());
    block_on(async {
        let moves = "f5,d6,c3,d3,c4,f4";
        // At move 5 (white to move), a legal move other than the game's f4.
        let (_, at5) = json(&s, "/api/game?size=8&moves=f5,d6,c3,d3,c4").await;
        let other = at5["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .find(|m| *m != "f4")
            .unwrap()
            .to_string();
        let (status, g) = json(
            &s,
            &format!("/api/game?size=8&moves={moves}&variations=3:f4,e6;5:{other}"),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{g}");
        let pgn = g["export"]["pgn"].as_str().unwrap();
        let record = reversi::record::parse_game(pgn, 8).unwrap_or_else(|e| panic!("{e}: {pgn}"));
        let read: Vec<(usize, String)> = record
            .variations
            .iter()
            .map(|v| {
                (
                    v.at,
                    v.moves
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            })
            .collect();
        assert_eq!(read, [(3, "f4 e6".to_string()), (5, other)], "{pgn}");
        assert_eq!(g["variations"][0]["moves"], serde_json::json!(["f4", "e6"]));
        // Read back by /api/record: the same variations.
        let (status, r) = post(&s, "/api/record?size=8", pgn.as_bytes().to_vec()).await;
        assert_eq!(status, StatusCode::OK, "{r}");
        assert_eq!(r["variations"], g["variations"]);
        // A branch beyond the game, an illegal move, no colon: refused.
        for bad in ["7:e3", "3:a1", "3e3"] {
            let (status, answer) = json(
                &s,
                &format!("/api/game?size=8&moves={moves}&variations={bad}"),
            )
            .await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {answer}");
            assert!(
                answer["error"]
                    .as_str()
                    .unwrap()
                    .starts_with("variation 1: "),
                "{answer}"
            );
        }
    });
}
