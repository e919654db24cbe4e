//! The traverse log of a search: one row per visited node and per value
//! update, the format of the 8x8 contract's `-ol` file
//! ([`super`]).

use crate::board::{Color, Square};
use crate::game::{Game, Value, INFINITY};
use crate::reversi::Position;
use crate::search::{Algorithm, Node, Observer, Window};

/// An [`Observer`] that writes the traverse log of a search, rows of
/// `node depth value` (plus ` alpha beta` and ` CUT-OFF` for alpha-beta).
///
/// The root is `root` at depth 1; other nodes are named by the square
/// played to reach them. A leaf writes one row with its value; an internal
/// node writes a row with `-Infinity` (MAX) or `Infinity` (MIN) when it is
/// expanded and one row after each child returns.
#[derive(Clone, Debug)]
pub struct TraverseLog {
    text: Vec<u8>,
    windows: bool,
}

impl TraverseLog {
    /// An empty log for a search by `algorithm`, starting with its header
    /// line (alpha-beta logs also show the window of every row).
    #[must_use]
    pub fn new(algorithm: Algorithm) -> TraverseLog {
        let mut text = Vec::with_capacity(1 << 16);
        text.extend_from_slice(Self::header(algorithm).as_bytes());
        text.push(b'\n');
        TraverseLog {
            text,
            windows: algorithm == Algorithm::AlphaBeta,
        }
    }

    /// The header line of a log of `algorithm` (without newline).
    #[must_use]
    pub const fn header(algorithm: Algorithm) -> &'static str {
        match algorithm {
            Algorithm::Minimax => "Node,Depth,Value",
            Algorithm::AlphaBeta => "Node,Depth,Value,Alpha,Beta",
        }
    }

    /// The log written so far.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.text
    }

    /// The log, consuming the observer.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.text
    }

    fn row(&mut self, mv: Option<Square>, ply: u32, value: Value, window: Window, cut: bool) {
        let t = &mut self.text;
        match mv {
            None => t.extend_from_slice(b"root"),
            Some(sq) => t.extend_from_slice(&[b'a' + sq.col(), b'1' + sq.row()]),
        }
        t.push(b' ');
        push_int(t, i64::from(ply) + 1);
        t.push(b' ');
        push_value(t, value);
        if self.windows {
            t.push(b' ');
            push_value(t, window.alpha);
            t.push(b' ');
            push_value(t, window.beta);
            if cut {
                t.extend_from_slice(b" CUT-OFF");
            }
        }
        t.push(b'\n');
    }
}

/// Appends a decimal integer.
fn push_int(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut m = n.unsigned_abs();
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Appends a value as the log writes it: `25.0`, `Infinity`, `-Infinity`.
fn push_value(out: &mut Vec<u8>, v: Value) {
    match v {
        INFINITY => out.extend_from_slice(b"Infinity"),
        v if v == -INFINITY => out.extend_from_slice(b"-Infinity"),
        v => {
            push_int(out, i64::from(v));
            out.extend_from_slice(b".0");
        }
    }
}

impl<G: Game<State = Position, Move = Square>> Observer<G> for TraverseLog {
    fn leaf(&mut self, node: &Node<'_, G>, value: Value, window: Window) {
        self.row(node.mv, node.ply, value, window, false);
    }

    fn expand(&mut self, node: &Node<'_, G>, window: Window) {
        let start = match node.state.to_move {
            Color::Black => -INFINITY,
            Color::White => INFINITY,
        };
        self.row(node.mv, node.ply, start, window, false);
    }

    fn update(&mut self, node: &Node<'_, G>, value: Value, window: Window, cutoff: bool) {
        self.row(node.mv, node.ply, value, window, cutoff);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_format() {
        let mut v = Vec::new();
        for x in [0, -7, 123, INFINITY, -INFINITY] {
            push_value(&mut v, x);
            v.push(b' ');
        }
        assert_eq!(v, b"0.0 -7.0 123.0 Infinity -Infinity ");
    }
}
