//! The pages, their assets and the icon, carried in the binary.

use super::*;

const PLAY_HTML: &str = include_str!("../assets/play.html");
const EXPLORE_HTML: &str = include_str!("../assets/explore.html");
const STUDY_HTML: &str = include_str!("../assets/study.html");

fn html(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

pub(super) async fn page_play() -> Response {
    html(PLAY_HTML)
}

pub(super) async fn page_explore() -> Response {
    html(EXPLORE_HTML)
}

pub(super) async fn page_study() -> Response {
    html(STUDY_HTML)
}

pub(super) async fn asset(Path(name): Path<String>) -> ApiResult {
    let (kind, body) = match name.as_str() {
        "app.css" => ("text/css", include_str!("../assets/app.css")),
        "common.js" => ("text/javascript", include_str!("../assets/common.js")),
        "play.js" => ("text/javascript", include_str!("../assets/play.js")),
        "explore.js" => ("text/javascript", include_str!("../assets/explore.js")),
        "study.js" => ("text/javascript", include_str!("../assets/study.js")),
        _ => return Err(ApiError::new(StatusCode::NOT_FOUND, "no such asset")),
    };
    Ok(([(header::CONTENT_TYPE, kind)], body).into_response())
}

/// `/favicon.ico`: a small SVG disc (browsers ask for it on every page).
pub(super) async fn favicon() -> Response {
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        include_str!("../assets/favicon.svg"),
    )
        .into_response()
}
