//! `reversi serve`: a local web server with three pages and the JSON API
//! they use.
//!
//! - **Play** (`/play`): Reversi 4x4, 6x6 or 8x8 against the study's
//!   ordered iterative-deepening engine ([`play`]).
//! - **Explore** (`/explore`): a counted minimax or alpha-beta search of a
//!   chosen position, its value and count exactly as `reversi 300/500`
//!   prints them, its tree opened node by node and its replay in visit
//!   order ([`explorer`]).
//! - **Study** (`/study`): a match (nodes per move of minimax against
//!   alpha-beta) or a depth table, with progress ([`study`]).
//!
//! Every page, script and style is compiled into the binary (no network
//! needed). The API is described in [`api`]; `/api/tiny` answers exactly
//! what the Tiny contract's command line prints.
//!
//! Safety: the server binds to 127.0.0.1 unless told otherwise; it answers
//! only requests whose `Host` names it (an IP address or `localhost` with
//! its port, or a name allowed explicitly), which defeats DNS rebinding;
//! every search (Tiny searches included) is bounded in depth, time and
//! nodes, at most [`ServerLimits::max_searches`] run at once, and a search stops
//! when its client goes away; request lines, headers and bodies are
//! size-limited and must arrive within [`ServerLimits::request_time`];
//! idle and slow connections give way to new ones, a connection whose
//! request has arrived is answered (or, when every place is busy, refused
//! with 503), never reset ([`connections`]); nothing is read from or
//! written to files (the games index, `--games`, is read whole before
//! the server starts).
//!
//! The module never prints: the command line ([`Server::url`],
//! [`Server::is_loopback`]) says what it wants.

pub mod api;
pub mod connections;
pub mod explorer;
pub mod play;
pub mod study;

use crate::engine::book::Book;
use crate::record::games::GamesIndex;
use crate::units::Discs;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

pub use api::{router, AppState};
use axum::response::IntoResponse;
use connections::{BusyBody, Connections, Peer, Place};
use hyper::body::Incoming;

/// The bounds the server keeps every request within.
#[derive(Clone, Copy, Debug)]
pub struct ServerLimits {
    /// Searches (explorer, engine, study, Tiny searches) running at once;
    /// more get `503 Service Unavailable`.
    pub max_searches: usize,
    /// The most counted states one explorer tree may hold.
    pub max_tree_nodes: u64,
    /// The most nodes all kept trees hold together; the oldest trees are
    /// dropped to stay below.
    pub tree_budget_nodes: u64,
    /// The most trees kept.
    pub max_trees: usize,
    /// The longest an explorer search or a Tiny search may run.
    pub search_time: Duration,
    /// The most states a Tiny search (`/api/tiny`, FLAG 300-600) may count.
    pub max_tiny_nodes: u64,
    /// The longest time an engine move may take.
    pub engine_time: Duration,
    /// The longest a study run (match or depth table) may take.
    pub study_time: Duration,
    /// The longest request target (path and query) in bytes.
    pub max_uri: usize,
    /// The largest request body in bytes.
    pub max_body: usize,
    /// Open connections at once; when all are open, the one idle for
    /// longest is closed for a new one ([`connections`]).
    pub max_connections: usize,
    /// The longest a client may take to send a request's header, and again
    /// its body: a header that has not arrived by then closes the
    /// connection, a body is answered `408 Request Timeout`.
    pub request_time: Duration,
    /// How long a new connection waits for a place when every open one is
    /// busy (or has a request waiting to be read), before it is answered
    /// `503 Service Unavailable`.
    pub place_wait: Duration,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            max_searches: 2,
            max_tree_nodes: 2_000_000,
            tree_budget_nodes: 4_000_000,
            max_trees: 8,
            search_time: Duration::from_secs(30),
            max_tiny_nodes: 3_000_000_000,
            engine_time: Duration::from_secs(10),
            study_time: Duration::from_secs(120),
            max_uri: 4096,
            max_body: 16 * 1024,
            max_connections: 64,
            request_time: Duration::from_secs(10),
            place_wait: Duration::from_secs(2),
        }
    }
}

/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to bind (127.0.0.1 unless told otherwise).
    pub host: IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Host names (besides `localhost` and IP addresses) that requests may
    /// name in their `Host` header.
    pub allowed_hosts: Vec<String>,
    /// The bounds of every request.
    pub limits: ServerLimits,
    /// The opening book of the levels' moves and hints on 8x8 (`None`:
    /// every position is searched).
    pub book: Option<Arc<Book>>,
    /// How far from the book's best the engine's book moves may be
    /// (0: the best).
    pub book_randomness: Discs,
    /// The world's games by position, for `/api/games` and the pages'
    /// explorer of masters' games (`None`: not offered).
    pub games: Option<Arc<GamesIndex>>,
    /// Whether SIGHUP stops the server (a front end started with it
    /// ignored, as under `nohup`, leaves it ignored).
    pub stop_on_hangup: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            allowed_hosts: Vec::new(),
            limits: ServerLimits::default(),
            book: None,
            book_randomness: Discs(0.0),
            games: None,
            stop_on_hangup: true,
        }
    }
}

/// Why the server could not start or stopped with an error.
#[derive(Debug)]
pub enum ServeError {
    /// The address could not be bound.
    Bind(SocketAddr, io::Error),
    /// The runtime or the listener failed.
    Io(io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Bind(addr, e) => write!(f, "cannot listen on {addr}: {e}"),
            ServeError::Io(e) => write!(f, "server failed: {e}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// A bound server, not yet answering.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    config: Config,
}

impl Server {
    /// Binds the configured address.
    ///
    /// # Errors
    /// [`ServeError::Bind`] if the address is taken or not ours.
    pub fn bind(config: Config) -> Result<Server, ServeError> {
        let want = SocketAddr::new(config.host, config.port);
        let listener = TcpListener::bind(want).map_err(|e| ServeError::Bind(want, e))?;
        let addr = listener.local_addr().map_err(ServeError::Io)?;
        Ok(Server {
            listener,
            addr,
            config,
        })
    }

    /// The address bound (with the port picked for port 0).
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Whether only this machine can reach the server.
    #[must_use]
    pub fn is_loopback(&self) -> bool {
        self.addr.ip().is_loopback()
    }

    /// The address to open in a browser.
    #[must_use]
    pub fn url(&self) -> String {
        let host = if self.addr.ip().is_unspecified() {
            "127.0.0.1".to_string()
        } else {
            match self.addr.ip() {
                IpAddr::V4(a) => a.to_string(),
                IpAddr::V6(a) => format!("[{a}]"),
            }
        };
        format!("http://{host}:{}/", self.addr.port())
    }

    /// Answers requests until SIGINT (Ctrl-C), SIGTERM or SIGHUP, then
    /// stops: no new connections are taken and running searches are
    /// cancelled. Returns the signal's number (where there are no such
    /// signals, Ctrl-C's, reported as SIGINT's 2). `ready` is called once
    /// the signals are listened for (a front end announces the server
    /// then, so that a signal sent on its word is never missed); if it
    /// fails, the server stops before serving.
    ///
    /// # Errors
    /// [`ServeError::Io`] if the runtime cannot start or the signal
    /// handlers cannot be installed.
    pub fn run_until_signal(
        self,
        ready: impl FnOnce() -> std::io::Result<()>,
    ) -> Result<i32, ServeError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(16)
            .enable_io()
            .enable_time()
            .build()
            .map_err(ServeError::Io)?;
        let state = Arc::new(
            AppState::new(
                self.addr,
                self.config.allowed_hosts.clone(),
                self.config.limits,
            )
            .with_book(self.config.book.clone(), self.config.book_randomness)
            .with_games(self.config.games.clone()),
        );
        let (listener, limits) = (self.listener, self.config.limits);
        let result = runtime.block_on(async {
            let stop = stop_signal(self.config.stop_on_hangup).map_err(ServeError::Io)?;
            ready().map_err(ServeError::Io)?;
            serve(listener, router(state.clone()), limits, stop).await
        });
        state.shut_down();
        // Searches see the stop at once; a blocking task that has not
        // returned within half a second is left to the process's exit, so
        // a signal is obeyed within a second whatever runs.
        runtime.shutdown_timeout(Duration::from_millis(500));
        result
    }
}

/// Listens for SIGINT, SIGTERM and (with `hangup`) SIGHUP: the first to
/// arrive, its number, comes through the receiver.
#[cfg(unix)]
fn stop_signal(hangup: bool) -> std::io::Result<tokio::sync::mpsc::Receiver<i32>> {
    use tokio::signal::unix::{signal, SignalKind};
    let (sender, first) = tokio::sync::mpsc::channel(3);
    let kinds = [
        SignalKind::interrupt(),
        SignalKind::terminate(),
        SignalKind::hangup(),
    ];
    for kind in kinds.into_iter().take(if hangup { 3 } else { 2 }) {
        let mut arrivals = signal(kind)?;
        let sender = sender.clone();
        tokio::spawn(async move {
            if arrivals.recv().await.is_some() {
                let _ = sender.send(kind.as_raw_value()).await;
            }
        });
    }
    Ok(first)
}

/// Listens for Ctrl-C, reported as SIGINT's number.
#[cfg(not(unix))]
fn stop_signal(_hangup: bool) -> std::io::Result<tokio::sync::mpsc::Receiver<i32>> {
    let (sender, first) = tokio::sync::mpsc::channel(1);
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            let _ = sender.send(2).await;
        }
    });
    Ok(first)
}

async fn serve(
    listener: TcpListener,
    app: axum::Router,
    limits: ServerLimits,
    mut stop: tokio::sync::mpsc::Receiver<i32>,
) -> Result<i32, ServeError> {
    use hyper_util::service::TowerToHyperService;

    listener.set_nonblocking(true).map_err(ServeError::Io)?;
    let listener = tokio::net::TcpListener::from_std(listener).map_err(ServeError::Io)?;
    let app = TowerToHyperService::new(app);
    let connections = Arc::new(Connections::new(limits.max_connections));
    // Connections accepted and waiting for a place: as many as there are
    // places; beyond, new ones wait in the listener's queue.
    let waiting = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let accept = tokio::spawn(async move {
        loop {
            let Ok(turn) = waiting.clone().acquire_owned().await else {
                return;
            };
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors and the like: wait, then go on.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            // Room is made by closing the connection idle for longest
            // (see `connections`); when every one is busy or has a request
            // waiting, this one waits, then is refused with 503.
            let peer = Peer::of(&stream);
            let closer = peer.closer();
            let (connections, app) = (connections.clone(), app.clone());
            let task = tokio::spawn(async move {
                let Some(place) = connections.admit(peer, limits.place_wait).await else {
                    refuse(stream, limits).await;
                    drop(turn);
                    return;
                };
                drop(turn);
                answer(stream, place, app, limits).await;
            });
            let _ = closer.set(task.abort_handle());
        }
    });
    let signal = stop.recv().await;
    accept.abort();
    signal.ok_or_else(|| ServeError::Io(std::io::Error::other("the signal listeners stopped")))
}

/// A connection's HTTP/1.1 settings: the request's header within
/// [`ServerLimits::request_time`], 16 KiB of buffer.
fn http1(limits: ServerLimits) -> hyper::server::conn::http1::Builder {
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(limits.request_time)
        .max_buf_size(16 * 1024);
    builder
}

/// Answers the requests of the connection `stream`, which holds `place`:
/// each busy from its header until its response is sent, idle while it
/// waits for a body that has not arrived (see `connections`).
async fn answer(
    stream: tokio::net::TcpStream,
    place: Place,
    app: hyper_util::service::TowerToHyperService<axum::Router>,
    limits: ServerLimits,
) {
    let requests = place.handle();
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let busy = requests.busy();
        let request = request.map(|body| requests.arriving(body));
        let answer = hyper::service::Service::call(&app, request);
        async move {
            let response: axum::response::Response = answer.await?;
            Ok::<_, std::convert::Infallible>(response.map(|body| BusyBody::wrap(body, busy)))
        }
    });
    let _ = http1(limits)
        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
        .await;
    // Freed once the connection has ended (or with the task, if closed).
    drop(place);
}

/// Answers the one request of a connection that found no place with
/// `503 Service Unavailable`, then closes it (having read the request, so
/// that closing does not reset it).
async fn refuse(stream: tokio::net::TcpStream, limits: ServerLimits) {
    let service =
        hyper::service::service_fn(move |_request: hyper::Request<Incoming>| async move {
            let message = format!(
                "the server is full: its {} connections are all answering requests; try again",
                limits.max_connections
            );
            let mut response = (
                hyper::StatusCode::SERVICE_UNAVAILABLE,
                axum::Json(serde_json::json!({ "error": message })),
            )
                .into_response();
            response.headers_mut().insert(
                hyper::header::RETRY_AFTER,
                hyper::header::HeaderValue::from_static("1"),
            );
            Ok::<_, std::convert::Infallible>(response)
        });
    let _ = http1(limits)
        .keep_alive(false)
        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
        .await;
}

#[cfg(test)]
mod tests;
