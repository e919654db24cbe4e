//! `/api/games`: what the world's games say about the position after the
//! moves (the server's games index, `reversi serve --games FILE`).

use super::*;

/// `/api/games?size=8&moves=M&games=N` (or `start=DIGITS&start_player=P`):
/// the games through the position under any of the 8 symmetries, how they
/// ended, each next move with its games and results, and the latest `N`
/// games (10 by default, at most 100) with their moves turned to reach the
/// position as asked: the fields of `reversi games --json`, with `indexed`
/// (the games in the index). 404 when the server has no index.
pub(super) async fn api_games(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let g = game_param(&q)?;
    let listed = number(&q, "games", 0..=100)?.unwrap_or(10);
    let Some(index) = state.games.clone() else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "this server has no games index: build one with `reversi games index FILES` and \
             start the server with `reversi serve --games FILE`",
        ));
    };
    let p = g.position;
    if p.board.size() != 8 {
        return Err(ApiError::bad("the games index holds 8x8 games only"));
    }
    let found = tokio::task::spawn_blocking(move || {
        let found = index.query(&p, listed);
        (found, index.games())
    })
    .await
    .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the query failed"))?;
    let (found, indexed) = found;
    let body = format!(
        "{{\"position\":{},\"indexed\":{indexed},{}}}",
        position_json(&p),
        found.json_fields()
    );
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}
