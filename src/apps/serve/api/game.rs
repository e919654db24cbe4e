//! The play page's game: the position after some moves, the engine's
//! move there, and a pasted record read.

use super::*;

/// `/api/game`: the position after the given moves.
pub(super) async fn api_game(Query(q): Params) -> ApiResult {
    let g = game_param(&q)?;
    Ok(Json(game_json(&g)).into_response())
}

/// `/api/engine`: the engine's move in the position after the given moves.
pub(super) async fn api_engine(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let g = game_param(&q)?;
    if g.over() {
        return Err(ApiError::bad("the game is over"));
    }
    let cap = state.limits.engine_time.as_millis() as u64;
    let time = number(&q, "time_ms", 1..=cap)?.unwrap_or(1000.min(cap));
    let level = number(&q, "level", 1..=Level::MAX)?;
    if level.is_some() && !Level::plays_on(g.position.board.size()) {
        return Err(ApiError::bad(
            "level plays 8x8 only (the engine's midgame search); use size=8, or depth and eval",
        ));
    }
    let settings = EngineSettings {
        depth: number(&q, "depth", 1..=64)?,
        time: Duration::from_millis(time),
        prune: algorithm_param(&q)? == Algorithm::AlphaBeta,
        eval: eval_param(&q)?,
        level,
    };
    let p = g.position;
    // A fresh seed for each reply: book moves within the randomness vary.
    // (The engine plays from the book at a level only.)
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let book = state
        .book
        .clone()
        .map(|b| BookUse::new(b, state.book_randomness, seed));
    let found = blocking(&state, move |cancel| {
        play::engine_move(&p, settings, book, cancel)
    })
    .await?;
    let m = found.ok_or_else(|| ApiError::bad("the game is over"))?;
    // Discs at a level, from the book, and for the evaluations that count
    // discs; else the evaluation's own points, never called discs.
    let size = p.board.size();
    let number = m.black_value.number();
    // A move that ends the game is worth its final score, in discs, however
    // the search counted it (the iterative search's finished game is a
    // disc difference among its evaluation's points).
    let after = crate::game::Game::play(&crate::reversi::Reversi::DISC_DIFFERENCE, &p, m.mv);
    let (value, unit) = if after.board.is_game_over() {
        (
            json!(crate::record::standard_score(&after.board)),
            "discs".to_string(),
        )
    } else if m.black_value.in_discs(settings.eval, size) {
        (
            json!(discs_json(f64::from(number), size)),
            "discs".to_string(),
        )
    } else {
        (json!(number), format!("{} points", settings.eval))
    };
    Ok(Json(json!({
        "move": move_json(m.mv),
        "value": value,
        "unit": unit,
        "view": "black",
        "nodes": m.nodes,
        "depth": m.depth,
        "time_ms": m.time.as_secs_f64() * 1000.0,
        "level": level,
        // The depth the level asks for (the time may stop it earlier).
        "level_depth": level.map(|n| Level::new(n).depth),
        "book": m.book,
        // Searched to the end of the game (an exact solve), not cut short.
        "exact": !m.book && m.depth >= p.board.empty().count_ones(),
    }))
    .into_response())
}

/// `/api/record`: reads a pasted record (a compact transcript such as
/// `f5d6c3`, a transcript with or without passes, GGF, or a board string
/// optionally followed by moves) for a board of `size` (the other sizes
/// are tried when it does not fit), with the library's record parser.
pub(super) async fn api_record(Query(q): Params) -> ApiResult {
    let text = q.get("text").map_or("", String::as_str);
    read_record(text, size_param(&q)?)
}

/// `POST /api/record?size=N`: the same for a record file sent as the
/// request's body (UTF-8 text, at most the server's body limit), which may
/// be longer than an address can carry.
pub(super) async fn api_record_file(
    State(state): State<Arc<AppState>>,
    Query(q): Params,
    body: axum::body::Body,
) -> ApiResult {
    let size = size_param(&q)?;
    let bytes = whole_body(body, state.limits.max_body, state.limits.request_time).await?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::bad("the record file is not UTF-8 text"))?;
    read_record(text, size)
}

/// Why a body was not read whole.
enum NotWhole {
    /// More than the limit.
    TooLarge,
    /// The connection ended first.
    Ended,
}

/// The record file `body`, read whole within `time`: `413` when it
/// announces or brings more than `max` bytes, `400` when it ends before
/// the bytes it announced, `408` when it has not arrived in time (each
/// message with the byte counts).
async fn whole_body(
    mut body: axum::body::Body,
    max: usize,
    time: std::time::Duration,
) -> Result<Vec<u8>, ApiError> {
    use axum::body::HttpBody;
    let announced = body.size_hint().exact();
    if let Some(n) = announced.filter(|&n| n > max as u64) {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the record file is {n} bytes: at most {max} bytes are taken"),
        ));
    }
    let mut bytes = Vec::new();
    let read = tokio::time::timeout(time, async {
        while let Some(frame) =
            std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx)).await
        {
            let frame = frame.map_err(|_| NotWhole::Ended)?;
            if let Ok(data) = frame.into_data() {
                bytes.extend_from_slice(&data);
                if bytes.len() > max {
                    return Err(NotWhole::TooLarge);
                }
            }
        }
        Ok(())
    })
    .await;
    let got = bytes.len();
    let counts = match announced {
        Some(n) => format!("{got} of the {n} bytes announced"),
        None => format!("{got} bytes"),
    };
    match read {
        Ok(Ok(())) => Ok(bytes),
        Ok(Err(NotWhole::TooLarge)) => Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the record file is larger than {max} bytes: at most {max} bytes are taken"),
        )),
        Ok(Err(NotWhole::Ended)) => Err(ApiError::bad(format!(
            "the record file was cut short: the connection ended after {counts}"
        ))),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the record file did not arrive in {} s: {counts} came",
                time.as_secs_f64()
            ),
        )),
    }
}

/// A record's text read for a board of `size`, else of the other sizes.
fn read_record(text: &str, size: u8) -> ApiResult {
    let mut first_error = None;
    for n in std::iter::once(size).chain([8, 6, 4].into_iter().filter(|&n| n != size)) {
        match record::parse_game(text, n) {
            Ok(r) => {
                let moves: Vec<String> = r.move_list().iter().map(ToString::to_string).collect();
                let g = play::replay_from(r.start, &moves.join(" ")).map_err(ApiError::bad)?;
                return Ok(Json(json!({
                    "size": n,
                    "moves": moves,
                    "start": (!g.from_standard_start()).then(|| json!({
                        "board": r.start.board.to_digits(),
                        "player": r.start.to_move.number(),
                    })),
                }))
                .into_response());
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    let e = first_error.map_or_else(String::new, |e| e.to_string());
    Err(ApiError::bad(format!("the record cannot be read: {e}")))
}
