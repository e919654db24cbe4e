//! Reading the API's query parameters and writing its JSON.

use super::*;
use crate::engine::analyze::Outcome;
use crate::record::archive::write_pgn;
use crate::record::{write_board_string, write_ggf, write_transcript};

pub(super) fn param<'a>(q: &'a HashMap<String, String>, key: &str) -> Option<&'a str> {
    q.get(key).map(String::as_str).filter(|v| !v.is_empty())
}

pub(super) fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    q: &HashMap<String, String>,
    key: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<Option<T>, ApiError> {
    let Some(text) = param(q, key) else {
        return Ok(None);
    };
    match text.parse::<T>() {
        Ok(v) if range.contains(&v) => Ok(Some(v)),
        _ => Err(ApiError::bad(format!(
            "{key} {text:?} is not a number from {} to {}",
            range.start(),
            range.end()
        ))),
    }
}

pub(super) fn size_param(q: &HashMap<String, String>) -> Result<u8, ApiError> {
    match param(q, "size").unwrap_or("4") {
        "4" => Ok(4),
        "6" => Ok(6),
        "8" => Ok(8),
        s => Err(ApiError::bad(format!("size {s:?} is not 4, 6 or 8"))),
    }
}

pub(super) fn size_index(size: u8) -> usize {
    usize::from(size / 2 - 2)
}

pub(super) fn eval_param(q: &HashMap<String, String>) -> Result<Heuristic, ApiError> {
    let name = param(q, "eval").unwrap_or("disc");
    Heuristic::by_name(name).ok_or_else(|| {
        ApiError::bad(format!(
            "eval {name:?} is not one of {}",
            Heuristic::NAMES.join(", ")
        ))
    })
}

pub(super) fn algorithm_param(q: &HashMap<String, String>) -> Result<Algorithm, ApiError> {
    match param(q, "algorithm").unwrap_or("alphabeta") {
        "minimax" | "300" => Ok(Algorithm::Minimax),
        "alphabeta" | "500" => Ok(Algorithm::AlphaBeta),
        a => Err(ApiError::bad(format!(
            "algorithm {a:?} is not minimax or alphabeta"
        ))),
    }
}

/// The game of a request: `moves` played from the start of `size`, or
/// from `start` (the contract's digits) with `start_player` (1 or 2) to
/// move when a loaded record began elsewhere.
pub(super) fn game_param(q: &HashMap<String, String>) -> Result<GameState, ApiError> {
    let moves = q.get("moves").map_or("", String::as_str);
    let Some(digits) = param(q, "start") else {
        let size = size_param(q)?;
        return play::replay(size, moves).map_err(ApiError::bad);
    };
    let board = Board::from_digits(digits)
        .map_err(|e| ApiError::bad(format!("start {digits:?} {e}; use the digits 0, 1, 2")))?;
    let to_move = match param(q, "start_player").unwrap_or("1") {
        "1" => Color::Black,
        "2" => Color::White,
        p => {
            return Err(ApiError::bad(format!(
                "start_player {p:?} is not 1 (black) or 2 (white)"
            )))
        }
    };
    play::replay_from(Position { board, to_move }, moves).map_err(ApiError::bad)
}

pub(super) fn move_json(m: Move) -> JsonValue {
    JsonValue::String(m.to_string())
}

pub(super) fn bound_json(v: i32) -> JsonValue {
    if v == i32::MAX || v == -i32::MAX || v == i32::MIN {
        JsonValue::String(explorer::bound_text(v))
    } else {
        json!(v)
    }
}

pub(super) fn position_json(p: &Position) -> JsonValue {
    json!({
        "board": p.board.to_digits(),
        "size": p.board.size(),
        "player": p.to_move.number(),
        "to_move": p.to_move.name(),
    })
}

/// The scoring rule of every final score and exact value the API gives.
pub(super) const SCORING: &str =
    "black's discs minus white's, the empty squares going to the winner (the standard Othello rule)";

/// A value in discs as the API gives it: an estimate is bounded by the
/// board's squares (no final score lies beyond), whatever the search said.
pub(super) fn discs_json(value: f64, size: u8) -> f64 {
    let squares = f64::from(size) * f64::from(size);
    value.clamp(-squares, squares)
}

/// The proved outcome of a win/loss/draw value (`None` for other kinds):
/// the value's sign, named ([`Outcome::proved`]).
pub(super) fn outcome_json(value: f64, certainty: Certainty) -> Option<&'static str> {
    Outcome::proved(value, certainty).map(Outcome::name)
}

/// The variations of `variations=AT:M,M;AT:M` (each the game's moves
/// before it, a colon, then its moves), checked against the game `g`:
/// each must branch within the game and its moves be legal there.
pub(super) fn variations_param(
    q: &HashMap<String, String>,
    g: &GameState,
) -> Result<Vec<record::Variation>, ApiError> {
    let Some(text) = param(q, "variations") else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (k, item) in text.split(';').filter(|t| !t.is_empty()).enumerate() {
        let bad = |why: String| ApiError::bad(format!("variation {}: {why}", k + 1));
        let (at, moves) = item
            .split_once(':')
            .ok_or_else(|| bad(format!("{item:?} is not AT:MOVES")))?;
        let at: usize = at
            .parse()
            .ok()
            .filter(|&n| n <= g.moves.len())
            .ok_or_else(|| {
                bad(format!(
                    "{at:?} is not a move of the game (0 to {})",
                    g.moves.len()
                ))
            })?;
        let before: Vec<String> = g.moves[..at].iter().map(ToString::to_string).collect();
        let line = play::replay_from(
            g.start,
            &format!("{} {}", before.join(" "), moves.replace(',', " ")),
        )
        .map_err(bad)?;
        let v = record::Variation {
            at,
            moves: line.moves[at..].to_vec(),
        };
        if !v.moves.is_empty() {
            out.push(v);
        }
    }
    Ok(out)
}

/// A variation as JSON: `at` and its `moves`.
pub(super) fn variation_json(v: &record::Variation) -> JsonValue {
    json!({ "at": v.at, "moves": v.moves.iter().map(|m| move_json(*m)).collect::<Vec<_>>() })
}

pub(super) fn game_json(g: &GameState) -> JsonValue {
    let p = &g.position;
    let over = g.over();
    let legal = g.legal();
    let (black, white) = (p.board.count(Color::Black), p.board.count(Color::White));
    json!({
        "size": p.board.size(),
        "board": p.board.to_digits(),
        "player": p.to_move.number(),
        "to_move": if over { JsonValue::Null } else { json!(p.to_move.name()) },
        "legal": legal.iter().map(|m| move_json(*m)).collect::<Vec<_>>(),
        "must_pass": legal == [Move::Pass],
        "over": over,
        "black": black,
        "white": white,
        "score": i64::from(black) - i64::from(white),
        "final_score": over.then(|| record::standard_score(&p.board)),
        "scoring": SCORING,
        "last": g.moves.last().map(|m| move_json(*m)),
        "flipped": g.flipped.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "moves": g.moves.iter().map(|m| move_json(*m)).collect::<Vec<_>>(),
        "movers": g.movers.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "transcript": g.transcript(),
        "start": (!g.from_standard_start()).then(|| json!({
            "board": g.start.board.to_digits(),
            "player": g.start.to_move.number(),
        })),
        "export": export_json(g, &[]),
        // The name of the opening the game is in (8x8 from the start), or null.
        "opening": g.record().opening(),
    })
}

/// The game in the record forms the page offers: the compact transcript
/// (passes left out), the transcript with passes, GGF (8x8 only), PGN
/// (8x8 from the standard start only, with the `variations`) and the
/// board string of the position now; each reads back with `/api/record`.
pub(super) fn export_json(g: &GameState, variations: &[record::Variation]) -> JsonValue {
    let mut record = g.record();
    record.variations = variations.to_vec();
    let with_passes = if g.from_standard_start() {
        g.transcript()
    } else {
        format!("{} {}", write_board_string(&g.start), g.transcript())
    };
    let compact = if g.from_standard_start() {
        write_transcript(&record)
    } else {
        format!(
            "{} {}",
            write_board_string(&g.start),
            write_transcript(&record)
        )
    };
    json!({
        "compact": compact.trim_end(),
        "passes": with_passes.trim_end(),
        "ggf": (g.position.board.size() == 8).then(|| write_ggf(&record)),
        "pgn": write_pgn(&record),
        "board": write_board_string(&g.position),
    })
}

pub(super) fn root_param(q: &HashMap<String, String>) -> Result<Position, ApiError> {
    let digits = param(q, "board").unwrap_or("0000021001200000");
    let board = Board::from_digits(digits)
        .map_err(|e| ApiError::bad(format!("board {digits:?} {e}; use the digits 0, 1, 2")))?;
    let to_move = match param(q, "player").unwrap_or("1") {
        "1" => Color::Black,
        "2" => Color::White,
        p => {
            return Err(ApiError::bad(format!(
                "player {p:?} is not 1 (dark) or 2 (light)"
            )))
        }
    };
    Ok(Position { board, to_move })
}

pub(super) fn view_json(v: &NodeView) -> JsonValue {
    json!({
        "index": v.index,
        "move": v.mv.map(move_json),
        "value": v.value,
        "alpha": bound_json(v.window.alpha),
        "beta": bound_json(v.window.beta),
        "leaf": v.leaf,
        "chosen": v.chosen,
        "cutoff": v.cutoff,
        "size": v.size,
        "ply": v.ply,
    })
}

pub(super) fn detail_json(tree: &Tree, k: u32) -> Option<JsonValue> {
    let d = tree.detail(k)?;
    Some(json!({
        "node": view_json(&d.node),
        "position": position_json(&d.position),
        "max": d.position.to_move == Color::Black,
        "children": d.children.iter().map(view_json).collect::<Vec<_>>(),
        "pruned": d.pruned.iter().map(|m| move_json(*m)).collect::<Vec<_>>(),
        "on_chosen_line": d.on_chosen_line,
        "event": tree.enter_event(k),
    }))
}
