//! Evaluations for depth-bounded Reversi search, from black's (MAX's) point
//! of view: `disc` (the study's `h`, the disc difference), `weights`
//! (positional weights) and `strong` (mobility, corners, stability, parity,
//! weighted by game phase).
//!
//! Every evaluation is colour-symmetric: swapping the colours of all discs
//! and the side to move negates the value.

use super::pattern::{self, PatternWeights};
use super::PositionalWeights;
use crate::board::bits;
use crate::board::{Board, Color, Square};
use crate::game::{Evaluator, Value};
use crate::reversi::{Position, Reversi};
use std::fmt;
use std::sync::Arc;

/// One of the study's evaluations, chosen by name at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// Black's discs minus white's discs (the study's default `h`).
    Disc,
    /// Sum of positional weights under black minus those under white.
    Weights,
    /// Mobility, corners, X/C squares, stable discs, parity; phase-weighted.
    Strong,
    /// The trained pattern evaluation ([`crate::eval::pattern`]), in discs:
    /// with the embedded weights when a `Heuristic` evaluates alone, with
    /// an [`Evaluation`]'s weights in one. It knows 8x8 positions only; on
    /// smaller boards it is `strong`.
    Pattern,
}

impl Heuristic {
    /// The names accepted by [`Heuristic::by_name`].
    pub const NAMES: [&'static str; 4] = ["disc", "weights", "strong", "pattern"];

    /// The evaluation called `name` (`disc`, `weights`, `strong` or `pattern`).
    #[must_use]
    pub fn by_name(name: &str) -> Option<Heuristic> {
        match name {
            "disc" => Some(Heuristic::Disc),
            "weights" => Some(Heuristic::Weights),
            "strong" => Some(Heuristic::Strong),
            "pattern" => Some(Heuristic::Pattern),
            _ => None,
        }
    }

    /// The value of `p` from black's point of view (`pattern` with the
    /// embedded weights).
    #[must_use]
    pub fn value(self, p: &Position) -> Value {
        self.value_with(p, PatternWeights::embedded())
    }

    /// The value of `p` from black's point of view, `pattern` reading
    /// `weights` (the other evaluations need none).
    #[must_use]
    pub fn value_with(self, p: &Position, weights: &PatternWeights) -> Value {
        match self {
            Heuristic::Disc => p.board.disc_difference(),
            Heuristic::Weights => weights_value(&p.board),
            Heuristic::Strong => strong_value(p),
            Heuristic::Pattern if p.board.size() == 8 => pattern_value(p, weights),
            Heuristic::Pattern => strong_value(p),
        }
    }
}

/// A [`Heuristic`] with the pattern weights it reads: what a search given
/// weights of its own evaluates with (the weights are passed, never
/// installed process-wide).
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The evaluation.
    pub heuristic: Heuristic,
    /// The pattern weights of [`Heuristic::Pattern`].
    pub weights: Arc<PatternWeights>,
}

impl Evaluation {
    /// `heuristic` with the embedded pattern weights.
    #[must_use]
    pub fn new(heuristic: Heuristic) -> Evaluation {
        Evaluation {
            heuristic,
            weights: Arc::clone(PatternWeights::shared_embedded()),
        }
    }
}

impl Evaluator<Reversi> for Evaluation {
    fn evaluate(&self, _game: &Reversi, state: &Position) -> Value {
        self.heuristic.value_with(state, &self.weights)
    }
}

/// The pattern evaluation of an 8x8 position, in whole discs, from black's
/// point of view.
fn pattern_value(p: &Position, weights: &PatternWeights) -> Value {
    let mover = p.board.discs(p.to_move);
    let other = p.board.discs(p.to_move.other());
    let fine = weights.evaluate(mover, other);
    let discs = (fine + fine.signum() * pattern::SCALE / 2) / pattern::SCALE;
    match p.to_move {
        Color::Black => discs,
        Color::White => -discs,
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Heuristic::Disc => "disc",
            Heuristic::Weights => "weights",
            Heuristic::Strong => "strong",
            Heuristic::Pattern => "pattern",
        })
    }
}

impl Evaluator<Reversi> for Heuristic {
    fn evaluate(&self, _game: &Reversi, state: &Position) -> Value {
        self.value(state)
    }
}

/// The positional weight of `sq` on a board of `size`
/// ([`PositionalWeights::for_size`]).
#[must_use]
pub fn weight(size: u8, sq: Square) -> i32 {
    PositionalWeights::for_size(size).weights[usize::from(sq.0)]
}

fn weights_value(board: &Board) -> Value {
    PositionalWeights::for_size(board.size()).score(board)
}

/// A corner with its diagonal neighbour (X-square) and edge neighbours (C-squares).
struct Corner {
    corner: u64,
    x: u64,
    c: u64,
    /// Steps (row, col) along the two edges away from the corner.
    steps: [(i8, i8); 2],
    at: (u8, u8),
}

fn corners(n: u8) -> [Corner; 4] {
    let m = n - 1;
    let bit = |r: u8, c: u8| Square::new(r, c).bit();
    let mk = |r: u8, c: u8, dr: i8, dc: i8| {
        let r1 = (r as i8 + dr) as u8;
        let c1 = (c as i8 + dc) as u8;
        Corner {
            corner: bit(r, c),
            x: bit(r1, c1),
            c: bit(r, c1) | bit(r1, c),
            steps: [(0, dc), (dr, 0)],
            at: (r, c),
        }
    };
    [
        mk(0, 0, 1, 1),
        mk(0, m, 1, -1),
        mk(m, 0, -1, 1),
        mk(m, m, -1, -1),
    ]
}

/// Discs of `own` that are stable along the edges: runs of one colour that
/// start at an owned corner.
fn edge_stable(own: u64, n: u8, cs: &[Corner; 4]) -> u64 {
    let mut stable = 0;
    for k in cs {
        if own & k.corner == 0 {
            continue;
        }
        for &(dr, dc) in &k.steps {
            let (mut r, mut c) = (k.at.0 as i8, k.at.1 as i8);
            while r >= 0 && c >= 0 && r < n as i8 && c < n as i8 {
                let b = Square::new(r as u8, c as u8).bit();
                if own & b == 0 {
                    break;
                }
                stable |= b;
                r += dr;
                c += dc;
            }
        }
    }
    stable
}

/// Features of one colour for [`strong_value`].
fn side_score(own: u64, opp: u64, board: &Board, cs: &[Corner; 4], late: bool) -> i32 {
    let n = board.size();
    let empty = board.empty();
    let mobility = bits::moves_reference(own, opp, board.valid()).count_ones() as i32;
    let mut score = 0;
    for k in cs {
        if own & k.corner != 0 {
            score += 40;
        } else if k.corner & empty != 0 {
            if own & k.x != 0 {
                score -= 20;
            }
            score -= 6 * (own & k.c).count_ones() as i32;
        }
    }
    score += 12 * edge_stable(own, n, cs).count_ones() as i32;
    score += 8 * mobility;
    if late {
        score += 3 * own.count_ones() as i32;
    }
    score
}

/// The `strong` evaluation: for each colour, corners owned (+40), X-squares
/// (-20) and C-squares (-6) next to empty corners, edge-stable discs (+12),
/// mobility (+8 per legal move); in the last quarter of the game discs
/// count (+3 each). Parity: the side to move gets +4 when the number of
/// empty squares is odd (it will play the last move).
fn strong_value(p: &Position) -> Value {
    let b = &p.board;
    let n = b.size();
    let cs = corners(n);
    let empties = b.empty().count_ones();
    let late = empties * 4 <= u32::from(n) * u32::from(n);
    let (bl, wh) = (b.discs(Color::Black), b.discs(Color::White));
    let mut v = side_score(bl, wh, b, &cs, late) - side_score(wh, bl, b, &cs, late);
    if empties % 2 == 1 {
        v += match p.to_move {
            Color::Black => 4,
            Color::White => -4,
        };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn swapped(p: &Position) -> Position {
        let b = &p.board;
        Position {
            board: Board::from_bits(b.discs(Color::White), b.discs(Color::Black), b.size())
                .unwrap(),
            to_move: p.to_move.other(),
        }
    }

    /// Plays a pseudo-random game and checks symmetry at every position.
    #[test]
    fn evaluations_are_symmetric() {
        let game = Reversi::DISC_DIFFERENCE;
        for size in [4u8, 6, 8] {
            for seed in 1..20u64 {
                let mut p = Position::start(size);
                let mut x = seed;
                while !game.is_terminal(&p) {
                    for h in [Heuristic::Disc, Heuristic::Weights, Heuristic::Strong] {
                        assert_eq!(h.value(&swapped(&p)), -h.value(&p), "{h} on {p:?}");
                    }
                    let moves: Vec<_> = game.moves(&p).collect();
                    x = x
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    p = game.play(&p, moves[(x >> 33) as usize % moves.len()]);
                }
            }
        }
    }

    #[test]
    fn weights_tables_are_symmetric() {
        for n in [4u8, 6, 8] {
            for r in 0..n {
                for c in 0..n {
                    let w = weight(n, Square::new(r, c));
                    assert_eq!(w, weight(n, Square::new(c, r)));
                    assert_eq!(w, weight(n, Square::new(n - 1 - r, n - 1 - c)));
                }
            }
        }
        assert_eq!(weight(8, "a1".parse().unwrap()), 99);
        assert_eq!(weight(8, "b2".parse().unwrap()), -24);
        assert_eq!(weight(8, "d5".parse().unwrap()), 0);
    }

    #[test]
    fn by_name() {
        for name in Heuristic::NAMES {
            assert_eq!(Heuristic::by_name(name).unwrap().to_string(), name);
        }
        assert_eq!(Heuristic::by_name("x"), None);
        assert_eq!(Heuristic::Disc.value(&Position::start(8)), 0);
    }
}
