//! The search explorer: a search run and its tree kept, then read node by
//! node, step by step and event by event.

use super::*;

/// `/api/search`: runs an explorer search and keeps its tree.
pub(super) async fn api_search(State(state): State<Arc<AppState>>, Query(q): Params) -> ApiResult {
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
pub(super) async fn api_node(
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
pub(super) async fn api_nodes(
    State(state): State<Arc<AppState>>,
    Path(id): Path<u64>,
) -> ApiResult {
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
pub(super) async fn api_step(
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
pub(super) async fn api_event(
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
