//! Move transcripts: `f5d6c3d3c4`, `F5 D6 C3`, `f5-d6-c3`, with passes
//! written `PA`/`pass` or left out.

use super::{check_move, GameRecord, RecordError, RecordErrorKind, RecordedMove};
use crate::board::Square;
use crate::game::Game;
use crate::reversi::{Move, Position, Reversi};

/// Parses a transcript of moves played from `start`. Passes may be written
/// (`PA`, `pass`, any case) or left out: a side without a legal move passes
/// by itself before the next disc.
///
/// # Errors
/// [`RecordError`] with the move number and character of the first word
/// that is not a move, or of the first illegal move.
pub fn parse_transcript(text: &str, start: Position) -> Result<GameRecord, RecordError> {
    parse_from(text, start, 0)
}

/// [`parse_transcript`] of text found `offset` characters into a record.
pub(super) fn parse_from(
    text: &str,
    start: Position,
    offset: usize,
) -> Result<GameRecord, RecordError> {
    let mut record = GameRecord::new(start);
    let mut p = start;
    let game = Reversi::DISC_DIFFERENCE;
    let chars: Vec<char> = text.chars().collect();
    let n = start.board.size();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || matches!(c, ',' | '-' | ';' | '.') {
            i += 1;
            continue;
        }
        let at = offset + i + 1;
        let number = record.moves.len() + 1;
        let word_end = (i..chars.len())
            .find(|&j| chars[j].is_whitespace() || matches!(chars[j], ',' | '-' | ';' | '.'))
            .unwrap_or(chars.len());
        let rest: String = chars[i..word_end].iter().collect::<String>();
        let lower = rest.to_ascii_lowercase();
        let (mv, used) = if lower.starts_with("pass") {
            (Move::Pass, 4)
        } else if lower.starts_with("pa") {
            (Move::Pass, 2)
        } else {
            let col = c.to_ascii_lowercase();
            let row = chars.get(i + 1).copied();
            match (col, row) {
                ('a'..='z', Some(r @ '1'..='9')) => {
                    // Two-digit rows do not exist on boards up to 8x8, but
                    // read them to report them as off the board.
                    let two = chars.get(i + 2).is_some_and(char::is_ascii_digit);
                    let name: String = chars[i..i + if two { 3 } else { 2 }].iter().collect();
                    let row = r as u8 - b'1';
                    let colu = col as u8 - b'a';
                    if two || colu >= n || row >= n {
                        return Err(RecordError::new(
                            at,
                            Some(number),
                            RecordErrorKind::OffBoard(name.to_ascii_lowercase()),
                        ));
                    }
                    (Move::Place(Square::new(row, colu)), name.len())
                }
                _ => {
                    return Err(RecordError::new(
                        at,
                        Some(number),
                        RecordErrorKind::NotAMove(rest),
                    ))
                }
            }
        };
        // A side without a move passes by itself before a disc.
        if let Move::Place(_) = mv {
            if p.board.moves(p.to_move) == 0 && !p.board.is_game_over() {
                record.moves.push(RecordedMove::plain(Move::Pass));
                p = game.play(&p, Move::Pass);
            }
        }
        let number = record.moves.len() + 1;
        if let Err(e) = check_move(&p, mv) {
            return Err(RecordError::new(at, Some(number), RecordErrorKind::Move(e)));
        }
        record.moves.push(RecordedMove::plain(mv));
        p = game.play(&p, mv);
        i += used;
    }
    Ok(record)
}

/// Writes the moves as a transcript: lower-case squares one after another
/// (`f5d6c3`), passes left out (they follow from the rules).
#[must_use]
pub fn write_transcript(record: &GameRecord) -> String {
    let mut s = String::with_capacity(2 * record.moves.len());
    for m in &record.moves {
        if let Move::Place(sq) = m.mv {
            s.push_str(&sq.to_string());
        }
    }
    s
}
