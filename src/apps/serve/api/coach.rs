//! The play page's coach: the hint and the review of a game, in discs.

use super::*;
use crate::record::openings::opening_name;

/// The engine's limits for a hint or a review: a level (which bounds the
/// depth off 8x8: [`Limits::level_on`]) that alone decides the
/// values, so that they are the same on any machine and under any load;
/// a time only where `time_ms` asks, else the server's time per search
/// as a safeguard (a search it cuts is reported as `cut`).
fn coach_limits(state: &AppState, q: &HashMap<String, String>) -> Result<Limits, ApiError> {
    let cap = state.limits.engine_time.as_millis() as u64;
    let time = number(q, "time_ms", 1..=cap)?.unwrap_or(cap);
    let level = number(q, "level", 1..=Level::MAX)?.unwrap_or(8);
    Ok(Limits {
        level: Some(level),
        time: Some(Duration::from_millis(time)),
        ..Limits::default()
    })
}

/// A certainty as the API gives it: its kind ([`Certainty::kind`], the
/// command line's names) and the estimate's depth or the book's level and
/// games.
fn certainty_json(c: Certainty) -> JsonValue {
    let kind = c.kind();
    match c {
        Certainty::Estimate { depth } => json!({ "kind": kind, "depth": depth }),
        Certainty::Book { level, games } => {
            json!({ "kind": kind, "level": level, "games": games })
        }
        Certainty::Exact | Certainty::WinLossDraw => json!({ "kind": kind }),
    }
}

/// `/api/hint`: the best `count` moves of the position after the moves,
/// each with its value in discs from the side to move's view (the final
/// disc difference with perfect play when exact) and its expected line.
pub(super) async fn api_hint(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let g = game_param(&q)?;
    if g.over() {
        return Err(ApiError::bad("the game is over"));
    }
    let count = number(&q, "count", 1..=64)?.unwrap_or(64);
    let limits = coach_limits(&state, &q)?;
    let opening = g.record().opening();
    let p = g.position;
    let mut engine = state.analyzer();
    let (values, nodes, took) = blocking(&state, move |cancel| {
        let began = Instant::now();
        let v = engine.rank_moves(&p, count, &limits, cancel, &mut |_| {});
        (v, (engine.nodes(), engine.was_cut()), began.elapsed())
    })
    .await?;
    let (nodes, cut) = nodes;
    let size = p.board.size();
    Ok(Json(json!({
        "to_move": p.to_move.name(),
        "opening": opening,
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
        "cut": cut,
    }))
    .into_response())
}

/// Empty squares up to which a review's values are exact; two more are
/// proved win/loss/draw (each the outcome with the estimate that agrees),
/// above them they are estimates.
const REVIEW_EXACT_EMPTIES: u32 = 16;

/// `/api/review`: every move of the game with the value of the move played
/// and of the best move (discs, the mover's view), the loss, and the value
/// of each position after it from black's view (the evaluation graph).
/// Each position is searched at `level` (default 8; the time only where
/// `time_ms` asks), from empty tables, exact from [`REVIEW_EXACT_EMPTIES`]
/// empty squares: the same game gives the same review under any load.
/// With `from=K` only the moves after the first `K` are reviewed (their
/// values as in the whole review; `total_loss` counts those).
pub(super) async fn api_review(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
    let g = game_param(&q)?;
    let mut limits = coach_limits(&state, &q)?;
    limits.exact_empties = REVIEW_EXACT_EMPTIES;
    limits.wld_empties = REVIEW_EXACT_EMPTIES + 2;
    // `from=K`: the moves after the first K only (a graph that follows the
    // game asks for its new moves); each position is searched alone, so
    // their values are those of the whole game's review.
    let from = number(&q, "from", 0..=g.moves.len())?.unwrap_or(0);
    let mut record = g.record();
    let positions = record.positions();
    let opening = opening_name(&positions);
    record.start = positions[from];
    record.moves.drain(..from);
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
                "index": a.index + from,
                "mover": mover.name(),
                "played": move_json(a.played),
                "played_value": played,
                "played_certainty": certainty_json(a.played_certainty),
                "best": move_json(a.best.mv),
                "best_value": best,
                "best_line": a.best.line.iter().map(|x| move_json(*x)).collect::<Vec<_>>(),
                "certainty": certainty_json(a.best.certainty),
                "loss": (best - played).max(0.0),
                "exact": a.exact,
                "cut": a.cut,
                "black_value_after": black(played),
            })
        })
        .collect();
    Ok(Json(json!({
        "view": "mover",
        "opening": opening,
        "unit": "discs",
        "scoring": SCORING,
        "about": "values in discs: played and best from the mover's view, black_value_after from black's",
        "moves": moves,
        "total_loss": { "black": analysis.total_loss[0].0, "white": analysis.total_loss[1].0 },
        "final_score": analysis.final_score,
        "complete": analysis.moves.len() == g.moves.len() - from,
        "from": from,
        "level": limits.level,
        "cut": analysis.moves.iter().filter(|a| a.cut).count(),
    }))
    .into_response())
}
