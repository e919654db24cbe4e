//! The move text of a PGN game, read and written: numbered moves (passes
//! left out, as WTHOR writes them) with a result, comments (`{...}`, and
//! `;` to the end of the line), numeric annotation glyphs (`$1`), move
//! suffixes (`!`, `?`) and variations (`( ... )`, nested): each variation
//! replaces the move before its `(` with other moves.

use super::{GameRecord, Variation};
use crate::reversi::Move;

/// The lines of a game's move text: the main line and each variation,
/// every line as its moves' names from the start of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct MoveText {
    /// The game's moves.
    pub main: Vec<String>,
    /// Each variation's moves from the start (the moves before it, then
    /// its own), in the order their `(` come.
    pub variations: Vec<Vec<String>>,
}

/// Whether `word` is a move number (`12.`, `12...`) or a result (`33-31`,
/// `1-0`, `1/2-1/2`, `*`): neither is a move.
fn is_number_or_result(word: &str) -> bool {
    let number = word.trim_end_matches('.');
    let is_number = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit());
    let is_result = word == "*"
        || word.split_once('-').is_some_and(|(a, b)| {
            [a, b]
                .iter()
                .all(|x| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit() || c == '/'))
        });
    is_number || is_result
}

/// Reads a game's move text.
///
/// # Errors
/// A comment without its `}`, a `(` before any move or without its `)`,
/// a `)` without its `(`.
pub(super) fn read_move_text(text: &str) -> Result<MoveText, String> {
    let mut out = MoveText::default();
    // The lines being read: the main line, then each open variation.
    let mut open: Vec<Vec<String>> = vec![Vec::new()];
    let mut word = String::new();
    let mut chars = text.chars();
    let flush = |word: &mut String, open: &mut Vec<Vec<String>>| {
        let w = word.trim_end_matches(['!', '?']);
        if !w.is_empty() && !w.starts_with('$') && !is_number_or_result(w) {
            open.last_mut().expect("the main line").push(w.to_owned());
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut open);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err("a comment `{` without its `}`".into());
                }
            }
            ';' => {
                flush(&mut word, &mut open);
                let _ = chars.by_ref().find(|&c| c == '\n');
            }
            '(' => {
                flush(&mut word, &mut open);
                let line = open.last().expect("the main line");
                if line.is_empty() {
                    return Err("a variation `(` before any move".into());
                }
                let before = line[..line.len() - 1].to_vec();
                open.push(before);
            }
            ')' => {
                flush(&mut word, &mut open);
                if open.len() < 2 {
                    return Err("a `)` without its `(`".into());
                }
                out.variations.push(open.pop().expect("a variation"));
            }
            c if c.is_whitespace() => flush(&mut word, &mut open),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut open);
    if open.len() > 1 {
        return Err("a variation `(` without its `)`".into());
    }
    out.main = open.pop().expect("the main line");
    Ok(out)
}

/// A move's name in a PGN move text (a pass is never written).
fn disc(mv: Move) -> Option<String> {
    match mv {
        Move::Place(sq) => Some(sq.to_string()),
        Move::Pass => None,
    }
}

/// The tokens of `moves` written from the `first`-th disc written (from
/// 0): a number before each pair, `N...` before a line that starts on the
/// pair's second disc.
fn numbered(moves: &[Move], first: usize) -> Vec<String> {
    let mut tokens = Vec::new();
    for (k, name) in moves.iter().filter_map(|&m| disc(m)).enumerate() {
        let d = first + k;
        if d.is_multiple_of(2) {
            tokens.push(format!("{}.", d / 2 + 1));
        } else if k == 0 {
            tokens.push(format!("{}...", d / 2 + 1));
        }
        tokens.push(name);
    }
    tokens
}

/// The move text of `record` from the standard start, ending with
/// `result`: numbered discs (passes left out), five numbers to a line,
/// each variation in parentheses after the move it replaces (one
/// replacing no move, after the game's last, cannot be written: left
/// out).
pub(super) fn write_move_text(record: &GameRecord, result: &str) -> String {
    let moves = record.move_list();
    let mut s = String::new();
    let mut written = 0;
    for (i, &mv) in moves.iter().enumerate() {
        let Some(name) = disc(mv) else { continue };
        if written % 2 == 0 {
            let number = written / 2 + 1;
            let sep = match number {
                1 => "",
                n if n % 5 == 1 => "\n",
                _ => " ",
            };
            s.push_str(&format!("{sep}{number}. "));
        } else {
            s.push(' ');
        }
        s.push_str(&name);
        for v in record.variations.iter().filter(|v| v.at == i) {
            s.push_str(&format!(" ( {} )", numbered(&v.moves, written).join(" ")));
        }
        written += 1;
    }
    if written > 0 {
        s.push(' ');
    }
    s.push_str(result);
    s
}

/// The variation a line of moves from the start (`line`, every pass
/// explicit) makes beside the game's `main` moves: from the first move
/// where they differ. `None` when the line holds nothing new.
pub(super) fn variation_of(main: &[Move], line: &[Move]) -> Option<Variation> {
    let at = main.iter().zip(line).take_while(|(a, b)| a == b).count();
    (line.len() > at).then(|| Variation {
        at,
        moves: line[at..].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(words: &str) -> Vec<String> {
        words.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn comments_glyphs_and_suffixes_are_not_moves() {
        let t =
            read_move_text("1. F5 {a good start} D6 $1 2. C3! ; a comment\n D3?! 33-31").unwrap();
        assert_eq!(t.main, names("F5 D6 C3 D3"));
        assert!(t.variations.is_empty());
    }

    #[test]
    fn a_variation_replaces_the_move_before_it() {
        let t = read_move_text("1. f5 d6 ( 1... f6 2. e6 ( 2. f4 ) ) 2. c3 ( 2. c5 ) *").unwrap();
        assert_eq!(t.main, names("f5 d6 c3"));
        assert_eq!(
            t.variations,
            [names("f5 f6 f4"), names("f5 f6 e6"), names("f5 d6 c5")]
        );
        for bad in ["( f5 )", "1. f5 ( d6", "1. f5 )", "1. f5 {open"] {
            assert!(read_move_text(bad).is_err(), "{bad}");
        }
    }
}
