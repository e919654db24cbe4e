//! `/api/tiny`: the Tiny contract over HTTP.

use super::*;
use crate::apps::tiny;

fn text(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// `/api/tiny`: the Tiny contract's stdout, byte for byte; an error is
/// the API's `{"error": "..."}` with its 4xx or 503 status, the message
/// the command line's `error:` line (it was plain text, unlike every
/// other endpoint's). A search
/// (FLAG 300-600) runs in a search slot within the server's time and node
/// caps and stops when its client goes away; one that outgrows the caps
/// answers 422 and says so. The caps bound the work, whatever the number
/// of empty squares: a finished board with 64 of them is one state.
pub(super) async fn api_tiny(State(state): State<Arc<AppState>>, Query(q): Params) -> Response {
    let get = |k: &str| q.get(k).cloned();
    let (Some(flag), Some(player), Some(board)) = (get("flag"), get("player"), get("board")) else {
        return ApiError::bad("expected the parameters flag, player and board").into_response();
    };
    let request = match tiny::Request::parse(&flag, &player, &board) {
        Ok(r) => r,
        Err(e) => return ApiError::bad(e.to_string()).into_response(),
    };
    if !matches!(flag.as_str(), "300" | "400" | "500" | "600") {
        return text(StatusCode::OK, request.answer());
    }
    let limits = state.limits;
    let answer = blocking(&state, move |cancel| {
        request.answer_within(&tiny::Budget {
            deadline: Instant::now() + limits.search_time,
            max_nodes: limits.max_tiny_nodes,
            cancel,
        })
    })
    .await;
    match answer {
        Ok(Ok(out)) => text(StatusCode::OK, out),
        Ok(Err(stopped)) => {
            let status = match stopped {
                tiny::Stopped::Cancelled => StatusCode::SERVICE_UNAVAILABLE,
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            };
            ApiError::new(
                status,
                format!(
                    "FLAG {flag}: {stopped} (the server's caps: {} s, {} states); use the command line",
                    limits.search_time.as_secs_f64(),
                    limits.max_tiny_nodes
                ),
            )
            .into_response()
        }
        Err(e) => e.into_response(),
    }
}
