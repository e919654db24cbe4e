//! The server's connection handling on real loopback sockets, with small
//! limits: a body that does not arrive is answered 408, a full server
//! answers 503 (never a reset), and answers again once room is made.

use super::*;
use axum::routing::get;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// `serve` running on a thread of its own with `app` and `limits`, until
/// dropped.
struct Running {
    addr: SocketAddr,
    stop: tokio::sync::mpsc::Sender<i32>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    fn start(app: impl FnOnce(SocketAddr) -> axum::Router, limits: ServerLimits) -> Running {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("address");
        let app = app(addr);
        let (stop, stopped) = tokio::sync::mpsc::channel(1);
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            let _ = runtime.block_on(serve(listener, app, limits, stopped));
            runtime.shutdown_timeout(Duration::from_secs(1));
        });
        Running {
            addr,
            stop,
            thread: Some(thread),
        }
    }

    /// Sends `request` on a new connection and returns it.
    fn send(&self, request: &str) -> TcpStream {
        let mut s = TcpStream::connect(self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s.write_all(request.as_bytes()).expect("send");
        s
    }

    /// `GET path`, closing after the answer.
    fn get(&self, path: &str) -> TcpStream {
        self.send(&format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        ))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop.blocking_send(15);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The whole answer on `s` (read until the server closes): its status
/// (0 when there is none: the connection closed or was reset first) and
/// text.
fn answer_of(s: &mut TcpStream) -> (u16, String) {
    let mut bytes = Vec::new();
    let read = s.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .filter(|_| read.is_ok())
        .unwrap_or(0);
    (status, text)
}

#[test]
fn a_body_that_does_not_arrive_is_answered_408_in_the_request_time() {
    let limits = ServerLimits {
        request_time: Duration::from_millis(300),
        ..ServerLimits::default()
    };
    let server = Running::start(
        |addr| router(Arc::new(AppState::new(addr, Vec::new(), limits))),
        limits,
    );
    let start = Instant::now();
    let mut s = server.send(&format!(
        "POST /api/record?size=8 HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\nf5d6",
        server.addr
    ));
    let (status, text) = answer_of(&mut s);
    let took = start.elapsed();
    assert_eq!(status, 408, "{text}");
    assert!(text.contains("4 of the 100 bytes"), "{text}");
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(5),
        "{took:?}"
    );
}

#[test]
fn a_full_server_answers_503_then_answers_again_once_room_is_made() {
    let limits = ServerLimits {
        max_connections: 2,
        place_wait: Duration::from_millis(200),
        ..ServerLimits::default()
    };
    let slow = || async {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        "slow"
    };
    let server = Running::start(
        move |_| {
            axum::Router::new()
                .route("/slow", get(slow))
                .route("/fast", get(|| async { "fast" }))
        },
        limits,
    );
    // Both places busy answering.
    let mut busy: Vec<TcpStream> = (0..2).map(|_| server.get("/slow")).collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut refused = server.get("/fast");
    let (status, text) = answer_of(&mut refused);
    assert_eq!(status, 503, "answered, not reset: {text}");
    assert!(text.contains("the server is full"), "{text}");
    for s in &mut busy {
        let (status, text) = answer_of(s);
        assert_eq!(status, 200, "{text}");
    }
    let (status, text) = answer_of(&mut server.get("/fast"));
    assert_eq!(status, 200, "{text}");
}
