//! GGF (Generic Game Format) for 8x8 Othello games.
//!
//! A game is `(;` then tags `NAME[value]` then `;)`. The tags read here:
//! `GM` (must be Othello if given), `PC`, `DT`, `PB`, `PW`, `RE`, `TI`,
//! `TY` (the board type: its number is the size, which must be 8), `BO`
//! (`8`, the 64 squares with `-` empty, `*` black, `O` white, then the side
//! to move `*` or `O`), and the moves `B[F5]`, `W[D6/eval/time]` with `PA`
//! for a pass. Other tags are skipped.

use super::{
    check_move, parse_board_string, GameInfo, GameRecord, RecordError, RecordErrorKind,
    RecordedMove,
};
use crate::board::Color;
use crate::game::Game;
use crate::reversi::{Move, Position, Reversi};
use crate::units::Discs;
use std::fmt::Write as _;

/// One `NAME[value]` of a GGF game: its name, value, and the 0-based
/// character positions of the name and of the value.
struct Tag {
    name: String,
    value: String,
    at: usize,
    value_at: usize,
}

/// Splits a GGF game into its tags.
fn tags(text: &str) -> Result<Vec<Tag>, RecordError> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = chars.iter().take_while(|c| c.is_whitespace()).count();
    if chars.get(i) != Some(&'(') || chars.get(i + 1) != Some(&';') {
        return Err(RecordError::new(i + 1, None, RecordErrorKind::NoGameStart));
    }
    i += 2;
    let mut out = Vec::new();
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        match chars.get(i) {
            None => return Err(RecordError::new(i + 1, None, RecordErrorKind::NoGameEnd)),
            Some(';') if chars.get(i + 1) == Some(&')') => {
                return after_the_end(&chars, i + 2, out)
            }
            Some(_) => {}
        }
        let at = i;
        while chars.get(i).is_some_and(char::is_ascii_alphanumeric) {
            i += 1;
        }
        let name: String = chars[at..i].iter().collect();
        if chars.get(i) != Some(&'[') {
            let shown = if name.is_empty() {
                chars.get(i).map_or(String::new(), ToString::to_string)
            } else {
                name
            };
            return Err(RecordError::new(
                at + 1,
                None,
                RecordErrorKind::TagWithoutValue(shown),
            ));
        }
        let open = i;
        i += 1;
        let mut value = String::new();
        loop {
            match chars.get(i) {
                None | Some('[') => {
                    return Err(RecordError::new(
                        open + 1,
                        None,
                        RecordErrorKind::UnclosedBracket,
                    ))
                }
                Some(']') => break,
                Some('\\') if chars.get(i + 1).is_some() => {
                    value.push(chars[i + 1]);
                    i += 2;
                }
                Some(&c) => {
                    value.push(c);
                    i += 1;
                }
            }
        }
        i += 1;
        out.push(Tag {
            name,
            value,
            at,
            value_at: open + 1,
        });
    }
}

/// The tags of a game that ended before character `end`: only whitespace
/// may follow, so that a second game (or anything else) is refused rather
/// than left unread.
fn after_the_end(chars: &[char], end: usize, tags: Vec<Tag>) -> Result<Vec<Tag>, RecordError> {
    match chars[end..].iter().position(|c| !c.is_whitespace()) {
        None => Ok(tags),
        Some(k) => Err(RecordError::new(
            end + k + 1,
            None,
            RecordErrorKind::AfterGameEnd,
        )),
    }
}

/// The board size a `TY` value names (`8`, `8r`, `s8`, ...), if any.
fn type_size(value: &str) -> Option<u32> {
    let digits: String = value
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Parses one 8x8 GGF game.
///
/// # Errors
/// [`RecordError`] naming the move number and character of the first
/// problem: a missing `(;` or `;)`, text after the `;)` (a second game),
/// a `[` without `]`, a board that is not 8x8, a move by the wrong colour,
/// an illegal move.
pub fn parse_ggf(text: &str) -> Result<GameRecord, RecordError> {
    let tags = tags(text)?;
    let mut info = GameInfo::default();
    let mut start = Position::start(8);
    let mut moves: Vec<(Color, &Tag)> = Vec::new();
    for t in &tags {
        let value = t.value.trim();
        match t.name.as_str() {
            "GM" if !value.eq_ignore_ascii_case("othello") => {
                return Err(RecordError::new(
                    t.at + 1,
                    None,
                    RecordErrorKind::NotOthello(value.to_string()),
                ))
            }
            "TY" if type_size(value).is_some_and(|n| n != 8) => {
                return Err(RecordError::new(
                    t.value_at + 1,
                    None,
                    RecordErrorKind::BoardSize(value.to_string()),
                ))
            }
            "PC" => info.place = Some(t.value.clone()),
            "DT" => info.date = Some(t.value.clone()),
            "PB" => info.black = Some(t.value.clone()),
            "PW" => info.white = Some(t.value.clone()),
            "RE" => info.result = Some(t.value.clone()),
            "TI" => info.time = Some(t.value.clone()),
            "BO" => start = board(t)?,
            "B" => moves.push((Color::Black, t)),
            "W" => moves.push((Color::White, t)),
            _ => {}
        }
    }
    let mut record = GameRecord::new(start);
    record.info = info;
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = start;
    for (color, t) in moves {
        let number = record.moves.len() + 1;
        let at = t.value_at + 1;
        let err = |kind| RecordError::new(at, Some(number), kind);
        let mut parts = t.value.split('/');
        let square = parts.next().unwrap_or("").trim();
        let eval = parts.next().and_then(|e| e.trim().parse::<f64>().ok());
        let seconds = parts.next().and_then(|e| e.trim().parse::<f64>().ok());
        let Ok(mv) = square.parse::<Move>() else {
            return Err(err(RecordErrorKind::NotAMove(square.to_string())));
        };
        if color != p.to_move {
            // Passes are usually written, but a side without a move may
            // be skipped.
            let forced = p.board.moves(p.to_move) == 0 && !p.board.is_game_over();
            if !forced {
                return Err(err(RecordErrorKind::WrongColor {
                    played: color,
                    to_move: p.to_move,
                }));
            }
            record.moves.push(RecordedMove::plain(Move::Pass));
            p = game.play(&p, Move::Pass);
        }
        let number = record.moves.len() + 1;
        if let Err(e) = check_move(&p, mv) {
            return Err(RecordError::new(at, Some(number), RecordErrorKind::Move(e)));
        }
        record.moves.push(RecordedMove { mv, eval, seconds });
        p = game.play(&p, mv);
    }
    Ok(record)
}

/// The start position of a `BO[8 <squares> <side>]` tag.
fn board(t: &Tag) -> Result<Position, RecordError> {
    let value = t.value.as_str();
    let lead = value.chars().take_while(|c| c.is_whitespace()).count();
    let size_word: String = value
        .chars()
        .skip(lead)
        .take_while(|c| !c.is_whitespace())
        .collect();
    if size_word != "8" {
        return Err(RecordError::new(
            t.value_at + lead + 1,
            None,
            RecordErrorKind::BoardSize(size_word),
        ));
    }
    let skip = lead + size_word.chars().count();
    let byte = value
        .char_indices()
        .nth(skip)
        .map_or(value.len(), |(b, _)| b);
    let (p, rest) = parse_board_string(&value[byte..], 8).map_err(|mut e| {
        e.at.character += t.value_at + skip;
        e
    })?;
    if !rest.trim().is_empty() {
        let extra = rest.trim();
        return Err(RecordError::new(
            t.value_at + value.chars().count() - rest.trim_start().chars().count() + 1,
            None,
            RecordErrorKind::Board(format!("unexpected {extra:?} after the side to move")),
        ));
    }
    Ok(p)
}

/// Writes an 8x8 game as GGF: `GM`, the header tags that are known, `RE`
/// (the record's, or the final score when the game is over), `TY[8]`,
/// `BO` and the moves (squares in upper case, passes as `PA`, with
/// `/eval/time` where known).
#[must_use]
pub fn write_ggf(record: &GameRecord) -> String {
    let mut s = String::from("(;GM[Othello]");
    let info = &record.info;
    let mut tag = |name: &str, value: &Option<String>| {
        if let Some(v) = value {
            let escaped = v.replace('\\', "\\\\").replace(']', "\\]");
            let _ = write!(s, "{name}[{escaped}]");
        }
    };
    tag("PC", &info.place);
    tag("DT", &info.date);
    tag("PB", &info.black);
    tag("PW", &info.white);
    let result = info
        .result
        .clone()
        .or_else(|| record.final_score().map(|r| format!("{r:+}")));
    tag("RE", &result);
    tag("TI", &info.time);
    let start = &record.start;
    let squares = start.board.format_with(['-', '*', 'O'], "");
    let side = if start.to_move == Color::Black {
        '*'
    } else {
        'O'
    };
    let _ = write!(s, "TY[8]BO[8 {squares} {side}]");
    let mut color = start.to_move;
    for m in &record.moves {
        let name = match m.mv {
            Move::Place(sq) => sq.to_string().to_ascii_uppercase(),
            Move::Pass => "PA".to_string(),
        };
        let _ = write!(
            s,
            "{}[{name}",
            if color == Color::Black { 'B' } else { 'W' }
        );
        match (m.eval, m.seconds) {
            (None, None) => {}
            (e, t) => {
                let _ = write!(
                    s,
                    "/{}/{}",
                    e.map_or(String::new(), |e| format!("{:.2}", Discs(e))),
                    t.map_or(String::new(), |t| format!("{t:.2}"))
                );
            }
        }
        s.push(']');
        color = color.other();
    }
    s.push_str(";)");
    s
}
