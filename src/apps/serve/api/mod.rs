//! The routes of `reversi serve`: three pages, their assets and the JSON API
//! (every endpoint is a `GET` with query parameters, so a script can use it
//! with any HTTP client).
//!
//! | endpoint | answers |
//! | --- | --- |
//! | `/api/tiny?flag=F&player=P&board=B` | `text/plain`: exactly what `reversi F P B` prints (400 and the error line for a bad argument) |
//! | `/api/game?size=N&moves=M` | the position after moves `M` (`c4,d3,pass`; from `start=DIGITS&start_player=P` when given): board, side to move, legal moves, discs, last move and flips, who played each move, transcript and the record forms to export |
//! | `/api/engine?size=N&moves=M&depth=D&time_ms=T&eval=E&algorithm=A` | the engine's move there with its value, nodes, depth and time; with `level=L` (1-30, 8x8 only) the engine's midgame search at that level instead (depth, eval and algorithm unused) |
//! | `/api/record?size=N&text=T` | reads a pasted record (compact or spaced transcript, with or without passes, GGF, board string): size, moves, start when not the standard one |
//! | `/api/hint?size=N&moves=M&level=L&count=C&time_ms=T` | the best moves with values in discs from the side to move's view and their lines |
//! | `/api/review?size=N&moves=M&level=L&time_ms=T` | every move's value, the best move's, the loss (mover's view) and black's value after it |
//! | `/api/search?board=B&player=P&algorithm=A&order=O&depth=D&eval=E` | runs an explorer search: its id, value, count, best move, chosen line and root |
//! | `/api/tree/ID/node/K` | node `K` of a searched tree: position, value, window, children, pruned moves |
//! | `/api/tree/ID/step/K` | the replay at the moment the search entered node `K` |
//! | `/api/tree/ID/nodes` | every node of a tree of at most 200 nodes, with its children (the drawn tree) |
//! | `/api/tree/ID/event/E` | replay event `E`: a node entered (counted) or a cutoff (not counted: its window, the value that closed it, the moves pruned and why), with the events of the cutoffs before and after it |
//! | `/api/study/match?size=N&depth=D&eval=E` | server-sent events: one `move` per move (both node counts), then `done` |
//! | `/api/study/table?size=N&max_depth=D&eval=E` | server-sent events: one `cell` per game, then `done` |
//! | `/api/status` | running searches, kept trees and the server's limits |
//!
//! Errors are JSON `{"error": "..."}` with a 4xx status (503 when all search
//! slots are busy), except `/api/tiny`, which answers plain text.

use super::explorer::{self, Caps, ChildState, MoveOrder, NodeView, SearchSpec, Stopped, Tree};
use super::play::{self, EngineSettings, GameState};
use super::study;
use super::Limits;
use crate::apps::tiny;
use crate::board::{Board, Color};
use crate::engine::analyze::BookUse;
use crate::engine::analyze::{
    analyze_game, Analyzer, Certainty, Limits as EngineLimits, MoveSearch,
};
use crate::engine::book::Book;
use crate::engine::midgame::Level;
use crate::eval::Heuristic;
use crate::record;
use crate::reversi::{Move, Position};
use crate::search::Algorithm;
use crate::units::Discs;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value as JsonValue};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

mod params;
mod streams;
use params::*;
use streams::{api_match, api_table};

/// The deepest study runs per board size (4, 6, 8): a match searches
/// minimax at every move, a table plays `depth x depth` games.
const MATCH_DEPTH: [u32; 3] = [12, 6, 5];
const TABLE_DEPTH: [u32; 3] = [8, 5, 4];

/// The shared state of one server: its address, limits, search slots and
/// the trees the explorer keeps.
#[derive(Debug)]
pub struct AppState {
    addr: SocketAddr,
    allowed_hosts: Vec<String>,
    limits: Limits,
    searches: Arc<Semaphore>,
    running: Arc<AtomicUsize>,
    trees: Mutex<TreeStore>,
    book: Option<Arc<Book>>,
    book_randomness: Discs,
}

#[derive(Debug, Default)]
struct TreeStore {
    next_id: u64,
    trees: VecDeque<(u64, Arc<Tree>)>,
}

impl TreeStore {
    fn nodes(&self) -> u64 {
        self.trees.iter().map(|(_, t)| t.len() as u64).sum()
    }
}

impl AppState {
    /// The state of a server listening on `addr` that also accepts the host
    /// names `allowed_hosts`, within `limits`.
    #[must_use]
    pub fn new(addr: SocketAddr, allowed_hosts: Vec<String>, limits: Limits) -> AppState {
        AppState {
            addr,
            allowed_hosts,
            limits,
            searches: Arc::new(Semaphore::new(limits.max_searches)),
            running: Arc::new(AtomicUsize::new(0)),
            trees: Mutex::new(TreeStore::default()),
            book: None,
            book_randomness: Discs(0.0),
        }
    }

    /// The same state with `book` answering the levels' moves (any book
    /// move within `randomness` discs of the best) and hints.
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>, randomness: Discs) -> AppState {
        self.book = book;
        self.book_randomness = randomness;
        self
    }

    /// An engine for hints and reviews, answering from the book where it
    /// holds the position.
    fn analyzer(&self) -> Analyzer {
        Analyzer::new().with_book(
            self.book
                .as_ref()
                .map(|b| BookUse::new(Arc::clone(b), Discs(0.0), 0)),
        )
    }

    /// The number of searches running now.
    #[must_use]
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Refuses new searches (used when the server stops).
    pub fn shut_down(&self) {
        self.searches.close();
    }

    fn permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.searches.clone().try_acquire_owned().map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "{} searches are running, the server's limit; try again when one ends",
                    self.limits.max_searches
                ),
            )
        })
    }

    fn keep(&self, tree: Tree) -> (u64, Arc<Tree>) {
        let tree = Arc::new(tree);
        let mut store = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        while !store.trees.is_empty()
            && (store.trees.len() >= self.limits.max_trees
                || store.nodes() + tree.len() as u64 > self.limits.tree_budget_nodes)
        {
            store.trees.pop_front();
        }
        store.next_id += 1;
        let id = store.next_id;
        store.trees.push_back((id, tree.clone()));
        (id, tree)
    }

    fn tree(&self, id: u64) -> Result<Arc<Tree>, ApiError> {
        let store = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        store
            .trees
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, t)| t.clone())
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::NOT_FOUND,
                    format!(
                        "tree {id} is not kept (the server keeps the last {} trees); search again",
                        self.limits.max_trees
                    ),
                )
            })
    }

    /// Whether a `Host` header names this server: an IP address or
    /// `localhost` (or an allowed name) with the server's port.
    fn host_allowed(&self, host: &str) -> bool {
        let (name, port) = match host.strip_prefix('[') {
            Some(rest) => match rest.split_once(']') {
                Some((ip, tail)) => (ip, tail.strip_prefix(':')),
                None => return false,
            },
            None => match host.rsplit_once(':') {
                Some((n, p)) => (n, Some(p)),
                None => (host, None),
            },
        };
        let port_ok = match port {
            Some(p) => p.parse::<u16>() == Ok(self.addr.port()),
            None => self.addr.port() == 80,
        };
        port_ok
            && (name.parse::<IpAddr>().is_ok()
                || name.eq_ignore_ascii_case("localhost")
                || self
                    .allowed_hosts
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(name)))
    }
}

/// An error answer: a status and a one-line message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

type ApiResult = Result<Response, ApiError>;
type Params = Query<HashMap<String, String>>;

/// Sets a flag when dropped: a handler holds one while its search runs, so
/// the search is cancelled when the client goes away (the handler's future
/// is dropped then).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Counts a running search while alive.
struct Running(Arc<AtomicUsize>);

impl Running {
    fn start(counter: &Arc<AtomicUsize>) -> Running {
        counter.fetch_add(1, Ordering::SeqCst);
        Running(counter.clone())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs `work` on a blocking thread holding a search slot, counted as
/// running; `work` gets the cancel flag, which is set when the request is
/// dropped.
async fn blocking<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let permit = state.permit()?;
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let running = Running::start(&state.running);
    tokio::task::spawn_blocking(move || {
        let _slot = (permit, running);
        work(&cancel)
    })
    .await
    .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"))
}

/// The server's router: pages, assets and API, behind the request checks
/// (only `GET`/`HEAD`, a bounded request target, a `Host` naming this
/// server) and a body size limit.
pub fn router(state: Arc<AppState>) -> Router {
    let max_body = state.limits.max_body;
    Router::new()
        .route("/", get(page_play))
        .route("/play", get(page_play))
        .route("/explore", get(page_explore))
        .route("/study", get(page_study))
        .route("/assets/{name}", get(asset))
        .route("/api/tiny", get(api_tiny))
        .route("/api/game", get(api_game))
        .route("/api/engine", get(api_engine))
        .route("/api/record", get(api_record))
        .route("/api/hint", get(api_hint))
        .route("/api/review", get(api_review))
        .route("/favicon.ico", get(favicon))
        .route("/api/search", get(api_search))
        .route("/api/tree/{id}/node/{k}", get(api_node))
        .route("/api/tree/{id}/step/{k}", get(api_step))
        .route("/api/tree/{id}/event/{e}", get(api_event))
        .route("/api/tree/{id}/nodes", get(api_nodes))
        .route("/api/study/match", get(api_match))
        .route("/api/study/table", get(api_table))
        .route("/api/status", get(api_status))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

/// Checks every request before it is routed: only `GET`/`HEAD`, a bounded
/// request target, and a `Host` that names this server (DNS rebinding).
/// Adds headers that keep the pages self-contained.
async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET requests are served",
        )
        .into_response();
    }
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if target > state.limits.max_uri {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the request target has {target} bytes, more than the server's limit of {}",
                state.limits.max_uri
            ),
        )
        .into_response();
    }
    if request.headers().get_all(header::HOST).iter().count() > 1 {
        return ApiError::bad("the request has more than one Host header").into_response();
    }
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()));
    match host {
        Some(h) if state.host_allowed(h) => {}
        other => {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "Host {:?} does not name this server ({}); it answers only its own address \
                     or localhost (protection against DNS rebinding; see --allow-host)",
                    other.unwrap_or(""),
                    state.addr
                ),
            )
            .into_response()
        }
    }
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
        ),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or endpoint")
}

const PLAY_HTML: &str = include_str!("../assets/play.html");
const EXPLORE_HTML: &str = include_str!("../assets/explore.html");
const STUDY_HTML: &str = include_str!("../assets/study.html");

fn html(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

async fn page_play() -> Response {
    html(PLAY_HTML)
}

async fn page_explore() -> Response {
    html(EXPLORE_HTML)
}

async fn page_study() -> Response {
    html(STUDY_HTML)
}

async fn asset(Path(name): Path<String>) -> ApiResult {
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

fn text(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        body,
    )
        .into_response()
}

/// `/api/tiny`: the Tiny contract's stdout, byte for byte. A search
/// (FLAG 300-600) runs in a search slot within the server's time and node
/// caps and stops when its client goes away; one that outgrows the caps
/// answers 422 and says so. The caps bound the work, whatever the number
/// of empty squares: a finished board with 64 of them is one state.
async fn api_tiny(State(state): State<Arc<AppState>>, Query(q): Params) -> Response {
    let get = |k: &str| q.get(k).cloned();
    let (Some(flag), Some(player), Some(board)) = (get("flag"), get("player"), get("board")) else {
        return text(
            StatusCode::BAD_REQUEST,
            "expected the parameters flag, player and board\n".to_string(),
        );
    };
    let request = match tiny::Request::parse(&flag, &player, &board) {
        Ok(r) => r,
        Err(e) => return text(StatusCode::BAD_REQUEST, format!("{e}\n")),
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
            text(
                status,
                format!(
                    "FLAG {flag}: {stopped} (the server's caps: {} s, {} states); use the command line\n",
                    limits.search_time.as_secs_f64(),
                    limits.max_tiny_nodes
                ),
            )
        }
        Err(e) => text(e.status, format!("{}\n", e.message)),
    }
}

/// `/api/game`: the position after the given moves.
async fn api_game(Query(q): Params) -> ApiResult {
    let g = game_param(&q)?;
    Ok(Json(game_json(&g)).into_response())
}

/// `/api/engine`: the engine's move in the position after the given moves.
async fn api_engine(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
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
    let (value, unit) = if m.black_value.in_discs(settings.eval, size) {
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
    }))
    .into_response())
}

/// `/api/record`: reads a pasted record (a compact transcript such as
/// `f5d6c3`, a transcript with or without passes, GGF, or a board string
/// optionally followed by moves) for a board of `size` (the other sizes
/// are tried when it does not fit), with the library's record parser.
async fn api_record(Query(q): Params) -> ApiResult {
    let text = q.get("text").map_or("", String::as_str);
    let size = size_param(&q)?;
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

/// The engine's limits for a hint or a review: a level (which bounds the
/// depth off 8x8: [`EngineLimits::level_on`]), the time capped by the
/// server's.
fn coach_limits(
    state: &AppState,
    q: &HashMap<String, String>,
    default_ms: u64,
) -> Result<EngineLimits, ApiError> {
    let cap = state.limits.engine_time.as_millis() as u64;
    let time = number(q, "time_ms", 1..=cap)?.unwrap_or(default_ms.min(cap));
    let level = number(q, "level", 1..=Level::MAX)?.unwrap_or(8);
    Ok(EngineLimits {
        level: Some(level),
        time: Some(Duration::from_millis(time)),
        ..EngineLimits::default()
    })
}

fn certainty_json(c: Certainty) -> JsonValue {
    match c {
        Certainty::Exact => json!({ "kind": "exact" }),
        Certainty::WinLossDraw => json!({ "kind": "win-loss-draw" }),
        Certainty::Estimate { depth } => json!({ "kind": "estimate", "depth": depth }),
        Certainty::Book { level, games } => {
            json!({ "kind": "book", "level": level, "games": games })
        }
    }
}

/// `/api/hint`: the best `count` moves of the position after the moves,
/// each with its value in discs from the side to move's view (the final
/// disc difference with perfect play when exact) and its expected line.
async fn api_hint(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let g = game_param(&q)?;
    if g.over() {
        return Err(ApiError::bad("the game is over"));
    }
    let count = number(&q, "count", 1..=64)?.unwrap_or(64);
    let limits = coach_limits(&state, &q, 1000)?;
    let p = g.position;
    let mut engine = state.analyzer();
    let (values, nodes, took) = blocking(&state, move |cancel| {
        let began = Instant::now();
        let v = engine.rank_moves(&p, count, &limits, cancel, &mut |_| {});
        (v, engine.nodes(), began.elapsed())
    })
    .await?;
    let size = p.board.size();
    Ok(Json(json!({
        "to_move": p.to_move.name(),
        "view": p.to_move.name(),
        "unit": "discs",
        "scoring": SCORING,
        "moves": values.iter().map(|m| json!({
            "move": move_json(m.mv),
            "value": discs_json(m.value.0, size),
            "outcome": outcome_json(m.value.0, m.certainty),
            "certainty": certainty_json(m.certainty),
            "line": m.line.iter().map(|x| move_json(*x)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "nodes": nodes,
        "time_ms": took.as_secs_f64() * 1000.0,
        "level": limits.level,
    }))
    .into_response())
}

/// Empty squares up to which a review's values are exact (above them they
/// are estimates: a review never shows a win/loss/draw sign as discs).
const REVIEW_EXACT_EMPTIES: u32 = 16;

/// `/api/review`: every move of the game with the value of the move played
/// and of the best move (discs, the mover's view), the loss, and the value
/// of each position after it from black's view (the evaluation graph).
/// Each position is searched within `time_ms` (default 300) at `level`
/// (default 8), exact from [`REVIEW_EXACT_EMPTIES`] empty squares.
async fn api_review(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let g = game_param(&q)?;
    let mut limits = coach_limits(&state, &q, 300)?;
    limits.exact_empties = REVIEW_EXACT_EMPTIES;
    limits.wld_empties = REVIEW_EXACT_EMPTIES;
    let record = g.record();
    let mut engine = state.analyzer();
    let analysis = blocking(&state, move |cancel| {
        analyze_game(&mut engine, &record, &limits, cancel, &mut |_| {})
    })
    .await?;
    let moves: Vec<JsonValue> = analysis
        .moves
        .iter()
        .map(|a| {
            let mover = a.position.to_move;
            let black = |d: f64| if mover == Color::Black { d } else { -d };
            let size = a.position.board.size();
            let (played, best) = (
                discs_json(a.played_value.0, size),
                discs_json(a.best.value.0, size),
            );
            json!({
                "index": a.index,
                "mover": mover.name(),
                "played": move_json(a.played),
                "played_value": played,
                "best": move_json(a.best.mv),
                "best_value": best,
                "best_line": a.best.line.iter().map(|x| move_json(*x)).collect::<Vec<_>>(),
                "certainty": certainty_json(a.best.certainty),
                "loss": (best - played).max(0.0),
                "exact": a.exact,
                "black_value_after": black(played),
            })
        })
        .collect();
    Ok(Json(json!({
        "view": "mover",
        "unit": "discs",
        "scoring": SCORING,
        "about": "values in discs: played and best from the mover's view, black_value_after from black's",
        "moves": moves,
        "total_loss": { "black": analysis.total_loss[0].0, "white": analysis.total_loss[1].0 },
        "final_score": analysis.final_score,
        "complete": analysis.moves.len() == g.moves.len(),
    }))
    .into_response())
}

/// `/favicon.ico`: a small SVG disc (browsers ask for it on every page).
async fn favicon() -> Response {
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        include_str!("../assets/favicon.svg"),
    )
        .into_response()
}

/// `/api/search`: runs an explorer search and keeps its tree.
async fn api_search(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let order_name = param(&q, "order").unwrap_or("natural");
    let spec = SearchSpec {
        root: root_param(&q)?,
        algorithm: algorithm_param(&q)?,
        order: MoveOrder::by_name(order_name)
            .ok_or_else(|| ApiError::bad(format!("order {order_name:?} is not natural or best")))?,
        depth: number(&q, "depth", 1..=64)?,
        eval: eval_param(&q)?,
    };
    let caps = Caps {
        max_nodes: state.limits.max_tree_nodes,
        deadline: Instant::now() + state.limits.search_time,
    };
    let tree = blocking(&state, move |cancel| explorer::search(spec, caps, cancel))
        .await?
        .map_err(|e| match e {
            Stopped::TooManyNodes(_) | Stopped::OutOfTime => {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
            }
            Stopped::Cancelled => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        })?;
    let (id, tree) = state.keep(tree);
    let spec = tree.spec();
    Ok(Json(json!({
        "id": id,
        "algorithm": match spec.algorithm { Algorithm::Minimax => "minimax", Algorithm::AlphaBeta => "alphabeta" },
        "order": spec.order.name(),
        "depth": spec.depth,
        "eval": spec.eval.to_string(),
        "value": tree.value(),
        "count": tree.count(),
        "events": tree.events(),
        "best": tree.best().map(move_json),
        "chosen_line": tree.chosen_line(),
        "root": detail_json(&tree, 0),
    }))
    .into_response())
}

/// `/api/tree/ID/node/K`: one node of a kept tree.
async fn api_node(
    State(state): State<Arc<AppState>>,
    Path((id, k)): Path<(u64, u32)>,
) -> ApiResult {
    let tree = state.tree(id)?;
    let d = detail_json(&tree, k).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("tree {id} has nodes 0 to {}", tree.len() - 1),
        )
    })?;
    Ok(Json(d).into_response())
}

/// The most nodes `/api/tree/ID/nodes` answers (a tree the page can draw).
const DRAWN_NODES: usize = 200;

/// `/api/tree/ID/nodes`: every node of a small tree (at most
/// [`DRAWN_NODES`]) with its children's numbers, for the drawn tree.
async fn api_nodes(State(state): State<Arc<AppState>>, Path(id): Path<u64>) -> ApiResult {
    let tree = state.tree(id)?;
    if tree.len() > DRAWN_NODES {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "tree {id} has {} nodes; only trees of at most {DRAWN_NODES} are sent whole",
                tree.len()
            ),
        ));
    }
    let nodes: Vec<JsonValue> = (0..tree.len() as u32)
        .filter_map(|k| tree.detail(k))
        .map(|d| {
            let mut v = view_json(&d.node);
            v["max"] = json!(d.position.to_move == Color::Black);
            v["children"] = json!(d.children.iter().map(|c| c.index).collect::<Vec<_>>());
            v["pruned"] = json!(d.pruned.iter().map(|m| move_json(*m)).collect::<Vec<_>>());
            v
        })
        .collect();
    Ok(Json(json!({ "nodes": nodes })).into_response())
}

/// `/api/tree/ID/step/K`: the replay when the search entered node `K`.
async fn api_step(
    State(state): State<Arc<AppState>>,
    Path((id, k)): Path<(u64, u32)>,
) -> ApiResult {
    let tree = state.tree(id)?;
    let s = tree.step(k).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("tree {id} has steps 0 to {}", tree.len() - 1),
        )
    })?;
    Ok(Json(step_json(&tree, &s)).into_response())
}

/// `/api/tree/ID/event/E`: replay event `E`: the search entering a node
/// (as `/step/K`, with its event number) or a node cutting off (the path
/// to it, its window, the value that closed it, the moves pruned and why).
async fn api_event(
    State(state): State<Arc<AppState>>,
    Path((id, e)): Path<(u64, u32)>,
) -> ApiResult {
    let tree = state.tree(id)?;
    let missing = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("tree {id} has events 0 to {}", tree.events() - 1),
        )
    };
    let (step, cut) = match tree.event(e).ok_or_else(missing)? {
        explorer::Event::Enter(k) => (tree.step(k).ok_or_else(missing)?, None),
        explorer::Event::Cutoff(k) => {
            let (s, c) = tree.cutoff(k).ok_or_else(missing)?;
            (s, Some(c))
        }
    };
    let mut out = step_json(&tree, &step);
    out["event"] = json!(e);
    let (prev, next) = tree.cutoffs_around(e);
    out["prev_cutoff"] = json!(prev);
    out["next_cutoff"] = json!(next);
    out["events"] = json!(tree.events());
    out["kind"] = json!(if cut.is_some() { "cutoff" } else { "enter" });
    if let Some(c) = cut {
        let (side, other, bound, rel, why) = if c.max {
            ("MAX", "MIN", c.window.beta, "≥", "beta")
        } else {
            ("MIN", "MAX", c.window.alpha, "≤", "alpha")
        };
        let at = c.node.mv.map_or("the root".to_string(), |m| m.to_string());
        let pruned: Vec<String> = c.pruned.iter().map(ToString::to_string).collect();
        out["cutoff"] = json!({
            "index": c.node.index,
            "move": c.node.mv.map(move_json),
            "side": side,
            "alpha": bound_json(c.window.alpha),
            "beta": bound_json(c.window.beta),
            "value": c.value,
            "pruned": pruned,
            "reason": format!(
                "cutoff at {at} ({side} to move): its value so far {} {rel} {why} {} — {other} above already has \
                 {} elsewhere and will never let play reach here, so {} {} pruned",
                c.value,
                explorer::bound_text(bound),
                explorer::bound_text(bound),
                pruned.join(" "),
                if pruned.len() == 1 { "is" } else { "are" }
            ),
        });
    }
    Ok(Json(out).into_response())
}

/// The replay at `s`: its counter and the path's frames (window on entry
/// and now, value so far, each move's state, MAX or MIN to move).
fn step_json(tree: &Tree, s: &explorer::Step) -> JsonValue {
    let last = s.path.len() - 1;
    let frames: Vec<JsonValue> = s
        .path
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let children: Vec<JsonValue> = f
                .children
                .iter()
                .map(|(mv, index, st)| {
                    let (name, value) = match st {
                        ChildState::Done(v) => ("done", Some(*v)),
                        ChildState::Current => ("current", None),
                        ChildState::Waiting => ("waiting", None),
                        ChildState::Pruned => ("pruned", None),
                    };
                    json!({ "move": move_json(*mv), "index": index, "state": name, "value": value })
                })
                .collect();
            json!({
                "index": f.node.index,
                "move": f.node.mv.map(move_json),
                "max": f.max,
                "alpha": bound_json(f.node.window.alpha),
                "beta": bound_json(f.node.window.beta),
                "alpha_now": bound_json(f.window_now.alpha),
                "beta_now": bound_json(f.window_now.beta),
                "value_so_far": f.value_so_far,
                "leaf_value": (i == last && f.node.leaf).then_some(f.node.value),
                "children": children,
            })
        })
        .collect();
    let event = tree.enter_event(s.step);
    let (prev_cutoff, next_cutoff) = tree.cutoffs_around(event);
    json!({
        "step": s.step,
        "count": s.count,
        "total": tree.count(),
        "event": event,
        "prev_cutoff": prev_cutoff,
        "next_cutoff": next_cutoff,
        "events": tree.events(),
        "kind": "enter",
        "position": position_json(&s.position),
        "path": frames,
    })
}

/// `/api/status`: what runs and what is kept.
async fn api_status(State(state): State<Arc<AppState>>) -> ApiResult {
    let (trees, nodes, bytes) = {
        let store = state.trees.lock().unwrap_or_else(|e| e.into_inner());
        (
            store.trees.len(),
            store.nodes(),
            store
                .trees
                .iter()
                .map(|(_, t)| t.heap_bytes())
                .sum::<usize>(),
        )
    };
    let l = &state.limits;
    Ok(Json(json!({
        "running": state.running(),
        "trees": trees,
        "tree_nodes": nodes,
        "tree_bytes": bytes,
        "limits": {
            "max_searches": l.max_searches,
            "max_tree_nodes": l.max_tree_nodes,
            "tree_budget_nodes": l.tree_budget_nodes,
            "max_trees": l.max_trees,
            "search_time_ms": l.search_time.as_millis() as u64,
            "max_tiny_nodes": l.max_tiny_nodes,
            "engine_time_ms": l.engine_time.as_millis() as u64,
            "study_time_ms": l.study_time.as_millis() as u64,
            "max_uri": l.max_uri,
            "max_body": l.max_body,
            "max_connections": l.max_connections,
        },
        "study": {
            "match_max_depth": { "4": MATCH_DEPTH[0], "6": MATCH_DEPTH[1], "8": MATCH_DEPTH[2] },
            "table_max_depth": { "4": TABLE_DEPTH[0], "6": TABLE_DEPTH[1], "8": TABLE_DEPTH[2] },
        },
    }))
    .into_response())
}
