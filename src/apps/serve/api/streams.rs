//! The study endpoints, streamed to the page as server-sent events.

use super::*;

/// Server-sent events from a blocking study run; dropping the stream (the
/// client went away) cancels the run.
pub(super) struct EventStream {
    events: mpsc::Receiver<Event>,
    _cancel: CancelOnDrop,
}

impl futures_core::Stream for EventStream {
    type Item = Result<Event, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.events.poll_recv(cx).map(|e| e.map(Ok))
    }
}

pub(super) fn event(name: &str, data: &JsonValue) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// Starts `run` on a blocking thread holding a search slot; it sends its
/// events through the sender and must stop when the flag is set.
pub(super) fn stream(
    state: &AppState,
    run: impl FnOnce(&AtomicBool, &mpsc::Sender<Event>) + Send + 'static,
) -> ApiResult {
    let permit = state.permit()?;
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel(64);
    let running = Running::start(&state.running);
    let flag = cancel.clone();
    tokio::task::spawn_blocking(move || {
        let _slot = (permit, running);
        run(&flag, &tx);
    });
    let events = EventStream {
        events: rx,
        _cancel: CancelOnDrop(cancel),
    };
    Ok(Sse::new(events).into_response())
}

/// Sends `e`; sets `stop` when the client is gone or the deadline passed.
pub(super) fn send(tx: &mpsc::Sender<Event>, e: Event, stop: &AtomicBool, deadline: Instant) {
    if tx.blocking_send(e).is_err() || Instant::now() >= deadline {
        stop.store(true, Ordering::SeqCst);
    }
}

/// `/api/study/match`: nodes per move of alpha-beta and minimax.
pub(super) async fn api_match(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let size = size_param(&q)?;
    let cap = MATCH_DEPTH[size_index(size)];
    let depth = number(&q, "depth", 1..=cap)?.unwrap_or(cap.min(4));
    let eval = eval_param(&q)?;
    let deadline = Instant::now() + state.limits.study_time;
    stream(&state, move |stop, tx| {
        let mut ply = 0;
        let score = study::run_match(size, depth, eval, stop, |m| {
            ply += 1;
            let data = json!({
                "ply": ply, "move": move_json(m.mv), "value": m.value,
                "alphabeta": m.alphabeta, "minimax": m.minimax,
            });
            send(tx, event("move", &data), stop, deadline);
        });
        let done = match score {
            Some(s) => event("done", &json!({ "score": s, "moves": ply })),
            None => event(
                "failed",
                &json!({ "error": "stopped: the client left or the server's time cap passed" }),
            ),
        };
        let _ = tx.blocking_send(done);
    })
}

/// `/api/study/table`: final scores for black depth x white depth.
pub(super) async fn api_table(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let size = size_param(&q)?;
    let cap = TABLE_DEPTH[size_index(size)];
    let max_depth = number(&q, "max_depth", 1..=cap)?.unwrap_or(cap.min(4));
    let eval = eval_param(&q)?;
    let deadline = Instant::now() + state.limits.study_time;
    stream(&state, move |stop, tx| {
        let finished = study::run_table(size, max_depth, eval, stop, |c| {
            let data = json!({
                "black": c.black, "white": c.white, "score": c.score, "nodes": c.nodes,
            });
            send(tx, event("cell", &data), stop, deadline);
        });
        let done = if finished {
            event("done", &json!({ "games": max_depth * max_depth }))
        } else {
            event(
                "failed",
                &json!({ "error": "stopped: the client left or the server's time cap passed" }),
            )
        };
        let _ = tx.blocking_send(done);
    })
}
