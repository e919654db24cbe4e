//! The server's open connections, kept within [`ServerLimits::max_connections`]
//! without letting idle or slow sockets starve a new client, and without
//! closing a connection whose request has arrived.
//!
//! A connection is *busy* while a request of it is being answered (from
//! the moment its header is complete until its response body has been
//! sent or dropped, so a study's event stream stays busy while it runs),
//! and *idle* otherwise: a socket that has sent nothing, one that sends its
//! header slowly (slowloris), a keep-alive connection between requests,
//! and one whose request waits for a body that has not arrived (a stalled
//! upload: the slow-client rule, carried from the header into the body).
//! A connection with bytes waiting unread in its socket (a request that has
//! arrived, not yet parsed when the machine is busy) counts as neither: it
//! is about to be answered; nor does one accepted less than [`FRESH`] ago
//! that has not begun a request (its client may be about to send it).
//!
//! When a new connection arrives and every place is taken, the idle
//! connection idle for longest (one its client has closed first) is closed
//! to make room; a busy connection, a fresh one, or one whose request has
//! arrived is never closed. When none can make room, the new connection
//! waits for a place ([`Connections::admit`], at most a given time; the
//! server then answers it 503). A client that sends its request at once is
//! therefore answered (or refused with 503) whatever number of sockets sit
//! idle, and never reset.
//!
//! [`ServerLimits::max_connections`]: super::ServerLimits::max_connections

use axum::body::{Body, Bytes, HttpBody};
use hyper::body::{Frame, SizeHint};
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use tokio::task::AbortHandle;

/// How often a connection waiting for a place looks again without being
/// told of a change (a request that arrived unread becomes busy, then
/// idle, with a signal; this is a safety net).
const LOOK_AGAIN: Duration = Duration::from_millis(50);

/// How long after its acceptance a connection that has not begun a request
/// is left alone: a client connects, then sends its request, and on a busy
/// machine the two can be far apart; closed between them, the client was
/// reset after sending its request. Past this, a socket that sends nothing
/// is idle like any other.
pub const FRESH: Duration = Duration::from_millis(500);

/// What a connection's client has sent that the server has not read yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Unread {
    /// The client closed its side: the connection is over.
    Closed,
    /// Nothing (or the socket cannot be looked at).
    Nothing,
    /// Bytes: a request has arrived.
    Request,
}

/// How to look at one connection and close it, given when it is admitted.
#[derive(Debug)]
pub struct Peer {
    /// A second handle on its socket (the same socket, not a copy of its
    /// data), to see whether a request waits unread; `None` where that
    /// cannot be seen.
    socket: Option<std::net::TcpStream>,
    /// Closes it: its task's abort handle, set once the task is spawned.
    close: Arc<OnceLock<AbortHandle>>,
    /// When it was accepted.
    accepted: Instant,
}

impl Peer {
    /// The peer of `stream`, with its closing cell empty until it is given
    /// the connection task's abort handle ([`Peer::closer`]).
    #[must_use]
    pub fn of(stream: &tokio::net::TcpStream) -> Peer {
        Peer {
            socket: second_handle(stream),
            close: Arc::new(OnceLock::new()),
            accepted: Instant::now(),
        }
    }

    /// The cell that closes the connection: set it to its task's abort
    /// handle.
    #[must_use]
    pub fn closer(&self) -> Arc<OnceLock<AbortHandle>> {
        self.close.clone()
    }

    /// What the client has sent that is still unread.
    fn unread(&self) -> Unread {
        let Some(socket) = &self.socket else {
            return Unread::Nothing;
        };
        let mut byte = [0u8; 1];
        match socket.peek(&mut byte) {
            Ok(0) => Unread::Closed,
            Ok(_) => Unread::Request,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Unread::Nothing,
            Err(_) => Unread::Closed,
        }
    }
}

/// A second handle on `stream`'s socket (a duplicated descriptor, in
/// non-blocking mode as the first), to peek at what waits in it.
#[cfg(unix)]
fn second_handle(stream: &tokio::net::TcpStream) -> Option<std::net::TcpStream> {
    use std::os::fd::AsFd;
    let owned = stream.as_fd().try_clone_to_owned().ok()?;
    let socket = std::net::TcpStream::from(owned);
    socket.set_nonblocking(true).ok()?;
    Some(socket)
}

/// Where descriptors cannot be duplicated this way, nothing is looked at.
#[cfg(not(unix))]
fn second_handle(_: &tokio::net::TcpStream) -> Option<std::net::TcpStream> {
    None
}

/// One open connection.
#[derive(Debug)]
struct Entry {
    /// Requests of it being answered now.
    busy: usize,
    /// Of those, the ones whose answer waits for a body that has not
    /// arrived.
    stalled: usize,
    /// Since when it has been idle (its start, or its last answer's end).
    idle_since: Instant,
    /// Whether a request of it has begun (its header arrived).
    used: bool,
    peer: Peer,
}

impl Entry {
    /// Whether nothing of it is being answered: every request it has waits
    /// for its body.
    fn is_idle(&self) -> bool {
        self.busy == self.stalled
    }

    /// Whether it may be closed to make room at `now`: idle, closable, not
    /// [`FRESH`] without a request, and with no request waiting unread.
    /// What its client left unread if so.
    fn closable(&self, now: Instant) -> Option<Unread> {
        let fresh = !self.used && now.duration_since(self.peer.accepted) < FRESH;
        if !self.is_idle() || self.peer.close.get().is_none() || fresh {
            return None;
        }
        Some(self.peer.unread()).filter(|u| *u != Unread::Request)
    }
}

#[derive(Debug, Default)]
struct Table {
    next_id: u64,
    open: HashMap<u64, Entry>,
}

/// The open connections of one server.
#[derive(Debug)]
pub struct Connections {
    max: usize,
    table: Mutex<Table>,
    /// Signalled whenever a connection closes or becomes idle.
    changed: Notify,
}

impl Connections {
    /// Room for `max` connections at once (at least one).
    #[must_use]
    pub fn new(max: usize) -> Connections {
        Connections {
            max: max.max(1),
            table: Mutex::new(Table::default()),
            changed: Notify::new(),
        }
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The number of open connections.
    #[must_use]
    pub fn open(&self) -> usize {
        self.table().open.len()
    }

    /// A place for the new connection `peer`: at once if there is room or
    /// an idle connection to close, else once a connection closes or
    /// becomes idle, within `wait` (`None` after it: the server is full).
    /// Its [`Place`] frees it when dropped.
    pub async fn admit(self: &Arc<Self>, peer: Peer, wait: Duration) -> Option<Place> {
        let end = Instant::now() + wait;
        let mut peer = Some(peer);
        loop {
            let changed = self.changed.notified();
            let mut changed = std::pin::pin!(changed);
            changed.as_mut().enable();
            if let Some(id) = self.try_admit(&mut peer) {
                return Some(Place {
                    connections: self.clone(),
                    id,
                });
            }
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            let _ = tokio::time::timeout(left.min(LOOK_AGAIN), changed).await;
        }
    }

    /// Admits `peer` (taken from the option) if there is room or an idle
    /// connection to close; its number.
    fn try_admit(&self, peer: &mut Option<Peer>) -> Option<u64> {
        let mut t = self.table();
        if t.open.len() >= self.max {
            // The idle ones that can be closed, those their clients have
            // closed first, then the longest idle.
            let now = Instant::now();
            let victim = t
                .open
                .iter()
                .filter_map(|(id, e)| Some((e.closable(now)?, e.idle_since, *id)))
                .min()
                .map(|(.., id)| id)?;
            let entry = t.open.remove(&victim).expect("found above");
            if let Some(abort) = entry.peer.close.get() {
                abort.abort();
            }
        }
        t.next_id += 1;
        let id = t.next_id;
        t.open.insert(
            id,
            Entry {
                busy: 0,
                stalled: 0,
                idle_since: Instant::now(),
                used: false,
                peer: peer.take()?,
            },
        );
        Some(id)
    }

    /// Changes entry `id` (if still open) by `change`; signals a waiting
    /// connection if it became idle.
    fn update(&self, id: u64, change: impl FnOnce(&mut Entry)) {
        let became_idle = match self.table().open.get_mut(&id) {
            Some(e) => {
                let was_idle = e.is_idle();
                change(e);
                !was_idle && e.is_idle()
            }
            None => false,
        };
        if became_idle {
            self.changed.notify_waiters();
        }
    }
}

/// A connection's place among the open ones; dropping it (when the
/// connection ends or is closed) frees the place.
#[derive(Debug)]
pub struct Place {
    connections: Arc<Connections>,
    id: u64,
}

impl Place {
    /// A handle to mark the same connection busy from its requests.
    #[must_use]
    pub fn handle(&self) -> PlaceHandle {
        PlaceHandle {
            connections: self.connections.clone(),
            id: self.id,
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.connections.table().open.remove(&self.id);
        self.connections.changed.notify_waiters();
    }
}

/// Marks requests of one connection busy.
#[derive(Clone, Debug)]
pub struct PlaceHandle {
    connections: Arc<Connections>,
    id: u64,
}

impl PlaceHandle {
    /// Marks the connection busy until the returned guard is dropped.
    #[must_use]
    pub fn busy(&self) -> Busy {
        self.connections.update(self.id, |e| {
            e.busy += 1;
            e.used = true;
        });
        Busy {
            connections: self.connections.clone(),
            id: self.id,
        }
    }

    /// `body`, the body of a request of this connection, as one that counts
    /// the request idle while its reader waits for bytes that have not
    /// arrived ([`ArrivingBody`]).
    pub fn arriving(&self, body: hyper::body::Incoming) -> Body {
        Body::new(ArrivingBody {
            inner: body,
            handle: self.clone(),
            stalled: false,
        })
    }
}

/// A request being answered: its connection is busy while this lives.
#[derive(Debug)]
pub struct Busy {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.connections.update(self.id, |e| {
            e.busy = e.busy.saturating_sub(1);
            if e.busy == 0 {
                e.idle_since = Instant::now();
            }
        });
    }
}

/// A request body that counts its request idle while the handler reading
/// it waits for bytes that have not arrived: a client that announces a
/// body and sends it slowly, or not at all, gives way to new connections
/// as one that sends its header slowly does.
pub struct ArrivingBody {
    inner: hyper::body::Incoming,
    handle: PlaceHandle,
    /// Whether this body counts its request stalled now.
    stalled: bool,
}

impl ArrivingBody {
    fn set_stalled(&mut self, stalled: bool) {
        if self.stalled != stalled {
            self.stalled = stalled;
            self.handle.connections.update(self.handle.id, |e| {
                if stalled {
                    e.stalled += 1;
                } else {
                    e.stalled = e.stalled.saturating_sub(1);
                }
            });
        }
    }
}

impl Drop for ArrivingBody {
    fn drop(&mut self) {
        self.set_stalled(false);
    }
}

impl HttpBody for ArrivingBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        self.set_stalled(polled.is_pending());
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A response body that keeps its connection busy until it has been sent
/// (or dropped).
pub struct BusyBody {
    inner: Body,
    _busy: Busy,
}

impl BusyBody {
    /// `inner` as a body that holds `busy` while it is sent.
    pub fn wrap(inner: Body, busy: Busy) -> Body {
        Body::new(BusyBody { inner, _busy: busy })
    }
}

impl HttpBody for BusyBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::{TcpListener, TcpStream};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime")
    }

    /// A task that runs until aborted, and a peer (with `socket`, if any)
    /// closed by aborting it.
    fn peer_with(socket: Option<TcpStream>) -> (Peer, tokio::task::JoinHandle<()>) {
        let task = tokio::spawn(std::future::pending::<()>());
        let close = Arc::new(OnceLock::new());
        close.set(task.abort_handle()).expect("empty");
        let accepted = Instant::now() - FRESH;
        (
            Peer {
                socket,
                close,
                accepted,
            },
            task,
        )
    }

    /// A connected pair on loopback: the client's end and the server's
    /// (non-blocking, as the server's sockets are).
    fn pair(listener: &TcpListener) -> (TcpStream, TcpStream) {
        let client = TcpStream::connect(listener.local_addr().unwrap()).expect("connect");
        let (server, _) = listener.accept().expect("accept");
        server.set_nonblocking(true).expect("non-blocking");
        (client, server)
    }

    const NO_WAIT: Duration = Duration::ZERO;

    #[test]
    fn the_longest_idle_connection_makes_room_and_busy_ones_stay() {
        runtime().block_on(async {
            let c = Arc::new(Connections::new(2));
            let (peer, t0) = peer_with(None);
            let first = c.admit(peer, NO_WAIT).await.expect("room");
            let (peer, t1) = peer_with(None);
            let second = c.admit(peer, NO_WAIT).await.expect("room");
            let busy = second.handle().busy();
            // Full: the idle first connection is closed for the third.
            let (peer, t2) = peer_with(None);
            let third = c.admit(peer, NO_WAIT).await.expect("the idle one closed");
            tokio::task::yield_now().await;
            assert!(t0.is_finished(), "the idle connection was closed");
            assert!(!t1.is_finished(), "the busy connection stays");
            drop(first);
            assert_eq!(c.open(), 2);
            // Both remaining are busy now: a fourth waits until one is
            // idle, or is refused after its wait.
            let also_busy = third.handle().busy();
            let (peer, _) = peer_with(None);
            assert!(c.admit(peer, Duration::from_millis(30)).await.is_none());
            let (peer, _t3) = peer_with(None);
            let waiting = tokio::spawn({
                let c = c.clone();
                async move { c.admit(peer, Duration::from_secs(60)).await }
            });
            tokio::time::sleep(Duration::from_millis(20)).await;
            assert!(!waiting.is_finished());
            drop(busy);
            let fourth = waiting.await.expect("joined").expect("admitted");
            assert!(t1.is_finished(), "the now idle one made room");
            assert!(!t2.is_finished());
            assert_eq!(c.open(), 2);
            drop((also_busy, fourth, second, third));
            assert_eq!(c.open(), 0);
        });
    }

    /// Under load a request can wait unread in its socket while new
    /// connections arrive: such a connection is not idle, and closing it
    /// reset a client that had sent its request.
    #[test]
    fn a_connection_whose_request_waits_unread_is_never_closed_for_a_new_one() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        runtime().block_on(async {
            let c = Arc::new(Connections::new(2));
            let (mut sent, sent_server) = pair(&listener);
            let (_quiet, quiet_server) = pair(&listener);
            let (peer, sent_task) = peer_with(Some(sent_server));
            let _first = c.admit(peer, NO_WAIT).await.expect("room");
            let (peer, quiet_task) = peer_with(Some(quiet_server));
            let _second = c.admit(peer, NO_WAIT).await.expect("room");
            // The older connection's request arrives and is not read.
            sent.write_all(b"GET / HTTP/1.1\r\n\r\n").expect("send");
            tokio::time::sleep(Duration::from_millis(50)).await;
            let (mut third_client, third_server) = pair(&listener);
            let (peer, third_task) = peer_with(Some(third_server));
            let _third = c.admit(peer, NO_WAIT).await.expect("the quiet one closed");
            tokio::task::yield_now().await;
            assert!(quiet_task.is_finished(), "the connection that sent nothing");
            assert!(!sent_task.is_finished(), "the request that arrived stays");
            // Both open connections have a request waiting: a new one
            // gets no place (the server answers it 503).
            third_client
                .write_all(b"GET / HTTP/1.1\r\n\r\n")
                .expect("send");
            tokio::time::sleep(Duration::from_millis(50)).await;
            let (peer, _) = peer_with(None);
            assert!(c.admit(peer, Duration::from_millis(30)).await.is_none());
            assert!(!sent_task.is_finished() && !third_task.is_finished());
        });
    }

    /// Under load a client's request can come well after its connection:
    /// closed between the two, the client was reset after sending it.
    #[test]
    fn a_fresh_connection_is_left_the_time_to_send_its_request() {
        runtime().block_on(async {
            let c = Arc::new(Connections::new(1));
            let (mut peer, fresh_task) = peer_with(None);
            peer.accepted = Instant::now();
            let _fresh = c.admit(peer, NO_WAIT).await.expect("room");
            let (peer, _) = peer_with(None);
            let start = Instant::now();
            let _next = c.admit(peer, FRESH * 2).await.expect("room once not fresh");
            tokio::task::yield_now().await;
            assert!(fresh_task.is_finished());
            assert!(start.elapsed() >= FRESH - Duration::from_millis(50));
        });
    }

    #[test]
    fn a_connection_its_client_closed_goes_first() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        runtime().block_on(async {
            let c = Arc::new(Connections::new(2));
            let (_older, older_server) = pair(&listener);
            let (closed, closed_server) = pair(&listener);
            let (peer, older_task) = peer_with(Some(older_server));
            let _first = c.admit(peer, NO_WAIT).await.expect("room");
            let (peer, closed_task) = peer_with(Some(closed_server));
            let _second = c.admit(peer, NO_WAIT).await.expect("room");
            drop(closed);
            tokio::time::sleep(Duration::from_millis(50)).await;
            let (peer, _) = peer_with(None);
            let _third = c.admit(peer, NO_WAIT).await.expect("room");
            tokio::task::yield_now().await;
            assert!(closed_task.is_finished(), "the closed one made room");
            assert!(!older_task.is_finished(), "though idle for longer");
        });
    }
}
