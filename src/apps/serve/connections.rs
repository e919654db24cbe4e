//! The server's open connections, kept within [`ServerLimits::max_connections`]
//! without letting idle or slow sockets starve a new client.
//!
//! A connection is *busy* while a request of it is being answered (from
//! the moment its header is complete until its response body has been
//! sent or dropped, so a study's event stream stays busy while it runs),
//! and *idle* otherwise: a socket that has sent nothing, one that sends its
//! header slowly (slowloris), or a keep-alive connection between requests.
//! When a new connection arrives and every place is taken, the connection
//! idle for longest is closed to make room; only when all are busy does
//! the new one wait for a place. A client that sends its request at once
//! is therefore answered whatever number of sockets sit idle, and a busy
//! connection is never cut.
//!
//! [`ServerLimits::max_connections`]: super::ServerLimits::max_connections

use axum::body::{Body, Bytes, HttpBody};
use hyper::body::{Frame, SizeHint};
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Instant;
use tokio::sync::Notify;
use tokio::task::AbortHandle;

/// One open connection.
#[derive(Debug)]
struct Entry {
    /// Requests of it being answered now.
    busy: usize,
    /// Since when it has been idle (its start, or its last answer's end).
    idle_since: Instant,
    /// Closes it (its task is aborted, which drops the socket).
    abort: Option<AbortHandle>,
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

    /// A place for a new connection: at once if there is room or an idle
    /// connection to close (the one idle for longest), else once a
    /// connection closes or becomes idle. Its [`Place`] frees it when
    /// dropped.
    pub async fn admit(self: &Arc<Self>) -> Place {
        loop {
            let changed = self.changed.notified();
            let mut changed = std::pin::pin!(changed);
            changed.as_mut().enable();
            if let Some(id) = self.try_admit() {
                return Place {
                    connections: self.clone(),
                    id,
                };
            }
            changed.await;
        }
    }

    fn try_admit(&self) -> Option<u64> {
        let mut t = self.table();
        if t.open.len() >= self.max {
            let oldest = t
                .open
                .iter()
                .filter(|(_, e)| e.busy == 0 && e.abort.is_some())
                .min_by_key(|(id, e)| (e.idle_since, **id))
                .map(|(id, _)| *id)?;
            let entry = t.open.remove(&oldest).expect("found above");
            if let Some(abort) = entry.abort {
                abort.abort();
            }
        }
        t.next_id += 1;
        let id = t.next_id;
        t.open.insert(
            id,
            Entry {
                busy: 0,
                idle_since: Instant::now(),
                abort: None,
            },
        );
        Some(id)
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

/// Marks requests of one connection busy, and records how to close it.
#[derive(Clone, Debug)]
pub struct PlaceHandle {
    connections: Arc<Connections>,
    id: u64,
}

impl PlaceHandle {
    /// Records how to close the connection (its task's abort handle); until
    /// then it cannot be chosen to make room.
    pub fn closes_with(&self, abort: AbortHandle) {
        if let Some(e) = self.connections.table().open.get_mut(&self.id) {
            e.abort = Some(abort);
        }
    }

    /// Marks the connection busy until the returned guard is dropped.
    #[must_use]
    pub fn busy(&self) -> Busy {
        if let Some(e) = self.connections.table().open.get_mut(&self.id) {
            e.busy += 1;
        }
        Busy {
            connections: self.connections.clone(),
            id: self.id,
        }
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
        let idle = match self.connections.table().open.get_mut(&self.id) {
            Some(e) => {
                e.busy = e.busy.saturating_sub(1);
                if e.busy == 0 {
                    e.idle_since = Instant::now();
                }
                e.busy == 0
            }
            None => false,
        };
        if idle {
            self.connections.changed.notify_waiters();
        }
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

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime")
    }

    #[test]
    fn the_longest_idle_connection_makes_room_and_busy_ones_stay() {
        runtime().block_on(async {
            let c = Arc::new(Connections::new(2));
            let tasks: Vec<_> = (0..3)
                .map(|_| tokio::spawn(std::future::pending::<()>()))
                .collect();
            let first = c.admit().await;
            first.handle().closes_with(tasks[0].abort_handle());
            let second = c.admit().await;
            second.handle().closes_with(tasks[1].abort_handle());
            let busy = second.handle().busy();
            // Full: the idle first connection is closed for the third.
            let third = c.admit().await;
            third.handle().closes_with(tasks[2].abort_handle());
            tokio::task::yield_now().await;
            assert!(tasks[0].is_finished(), "the idle connection was closed");
            assert!(!tasks[1].is_finished(), "the busy connection stays");
            drop(first);
            assert_eq!(c.open(), 2);
            // Both remaining are busy now: a fourth waits until one is idle.
            let also_busy = third.handle().busy();
            let waiting = tokio::spawn({
                let c = c.clone();
                async move { c.admit().await }
            });
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            assert!(!waiting.is_finished());
            drop(busy);
            let fourth = waiting.await.expect("admitted");
            assert!(tasks[1].is_finished(), "the now idle one made room");
            assert_eq!(c.open(), 2);
            drop((also_busy, fourth, second, third));
            assert_eq!(c.open(), 0);
        });
    }
}
