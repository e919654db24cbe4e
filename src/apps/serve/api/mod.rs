//! The routes of `reversi serve`: three pages, their assets and the JSON API
//! (every endpoint is a `GET` with query parameters, so a script can use it
//! with any HTTP client).
//!
//! | endpoint | answers |
//! | --- | --- |
//! | `/api/tiny?flag=F&player=P&board=B` | `text/plain`: exactly what `reversi F P B` prints (400 and the error line's message as JSON for a bad argument) |
//! | `/api/game?size=N&moves=M` | the position after moves `M` (`c4,d3,pass`; from `start=DIGITS&start_player=P` when given): board, side to move, legal moves, discs, last move and flips, who played each move, transcript and the record forms to export |
//! | `/api/engine?size=N&moves=M&depth=D&time_ms=T&eval=E&algorithm=A` | the engine's move there with its value, nodes, depth and time; with `level=L` (1-30, 8x8 only) the engine's midgame search at that level instead (depth, eval and algorithm unused) |
//! | `/api/record?size=N&text=T` | reads a pasted record (compact or spaced transcript, with or without passes, GGF, one PGN game, board string): size, moves, start when not the standard one; `POST /api/record?size=N` reads a record file sent as the body (at most the body limit) |
//! | `/api/hint?size=N&moves=M&level=L&count=C&time_ms=T` | the best moves with values in discs from the side to move's view and their lines |
//! | `/api/review?size=N&moves=M&level=L&time_ms=T` | every move's value (and what it is), the best move's with its line, the loss (mover's view) and black's value after it; `from=K` reviews the moves after the first `K` only |
//! | `/api/search?board=B&player=P&algorithm=A&order=O&depth=D&eval=E` | runs an explorer search: its id, value, count, best move, chosen line and root |
//! | `/api/tree/ID/node/K` | node `K` of a searched tree: position, value, window, children, pruned moves |
//! | `/api/tree/ID/step/K` | the replay at the moment the search entered node `K` |
//! | `/api/tree/ID/nodes` | every node of a tree of at most 200 nodes, with its children (the drawn tree) |
//! | `/api/tree/ID/event/E` | replay event `E`: a node entered (counted) or a cutoff (not counted: its window, the value that closed it, the moves pruned and why), with the events of the cutoffs before and after it |
//! | `/api/study/match?size=N&depth=D&eval=E` | server-sent events: one `move` per move (both node counts), then `done` |
//! | `/api/study/table?size=N&max_depth=D&eval=E` | server-sent events: one `cell` per game, then `done` |
//! | `/api/games?size=8&moves=M&games=N` | the world's games through the position (the server's games index): how many, how they ended, each next move with its games and results, the latest `N` games with their moves |
//! | `/api/status` | running searches, kept trees and the server's limits |
//!
//! Errors are JSON `{"error": "..."}` with a 4xx status (503 when all search
//! slots are busy), `/api/tiny`'s too.

use super::explorer::{self, Caps, ChildState, MoveOrder, NodeView, SearchSpec, Stopped, Tree};
use super::play::{self, EngineSettings, GameState};
use super::study;
use super::ServerLimits;
use crate::board::{Board, Color};
use crate::engine::analyze::BookUse;
use crate::engine::analyze::{analyze_game, Analyzer, Certainty, Limits, MoveSearch};
use crate::engine::book::Book;
use crate::engine::midgame::Level;
use crate::eval::Heuristic;
use crate::record;
use crate::record::games::GamesIndex;
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

mod coach;
mod game;
mod games_api;
mod pages;
mod params;
mod streams;
mod tiny_api;
mod tree;
use coach::{api_hint, api_review};
use game::{api_engine, api_game, api_record, api_record_file};
use games_api::api_games;
use pages::{asset, favicon, page_explore, page_play, page_study};
use params::*;
use streams::{api_match, api_table};
use tiny_api::api_tiny;
use tree::{api_event, api_node, api_nodes, api_search, api_step};

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
    limits: ServerLimits,
    searches: Arc<Semaphore>,
    running: Arc<AtomicUsize>,
    trees: Mutex<TreeStore>,
    book: Option<Arc<Book>>,
    book_randomness: Discs,
    /// The world's games by position (`/api/games`; `None`: none loaded).
    games: Option<Arc<GamesIndex>>,
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
    pub fn new(addr: SocketAddr, allowed_hosts: Vec<String>, limits: ServerLimits) -> AppState {
        AppState {
            addr,
            allowed_hosts,
            limits,
            searches: Arc::new(Semaphore::new(limits.max_searches)),
            running: Arc::new(AtomicUsize::new(0)),
            trees: Mutex::new(TreeStore::default()),
            book: None,
            book_randomness: Discs(0.0),
            games: None,
        }
    }

    /// The same state answering `/api/games` from `games`.
    #[must_use]
    pub fn with_games(mut self, games: Option<Arc<GamesIndex>>) -> AppState {
        self.games = games;
        self
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
        .route("/api/record", get(api_record).post(api_record_file))
        .route("/api/hint", get(api_hint))
        .route("/api/review", get(api_review))
        .route("/api/games", get(api_games))
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

/// Checks every request before it is routed: only `GET`/`HEAD` (and a
/// `POST` of a record file to `/api/record`), a bounded request target,
/// and a `Host` that names this server (DNS rebinding). Adds headers that
/// keep the pages self-contained.
async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let record_file = request.method() == Method::POST && request.uri().path() == "/api/record";
    if request.method() != Method::GET && request.method() != Method::HEAD && !record_file {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET requests are served (and a POST of a record file to /api/record)",
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
