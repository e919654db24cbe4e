//! Self-play: the computer against itself with settings per side, as the
//! study's matches and depth tables need.
//!
//! With natural order and no time limit a move is chosen by the library's
//! counted [`minimax_with`](crate::search::minimax_with) or
//! [`alphabeta_with`](crate::search::alphabeta_with) exactly; with
//! [`MoveOrder::Best`] or a time budget by the study's [`IterativeSearch`] (iterative
//! deepening, ordered).

use crate::engine::analyze::{Analyzer, BlackValue, BookUse, Choice, Limits};
use crate::engine::book::Book;
use crate::engine::iterative::{IterativeSearch, MoveOrder};
use crate::engine::RelativePosition;
use crate::eval::pattern::PatternWeights;
use crate::eval::Discs;
use crate::eval::{Evaluation, Heuristic};
use crate::game::{Game, Value};
use crate::reversi::{Move, Position, Reversi};
use crate::search::{Algorithm, Limit, NoObserver};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How one side chooses its moves.
#[derive(Clone, Debug)]
pub struct Player {
    /// The depth bound in plies (`None`: only the time budget bounds it).
    pub depth: Option<u32>,
    /// The time budget per move (iterative deepening).
    pub time: Option<Duration>,
    /// Minimax or alpha-beta.
    pub algorithm: Algorithm,
    /// Successor order.
    pub order: MoveOrder,
    /// The evaluation at the depth bound.
    pub eval: Heuristic,
    /// A playing-engine level (1 to 30): on 8x8 the move is chosen by the
    /// engine ([`Analyzer::choose`]) at this level (with the time budget,
    /// if any) instead of the study's counted searches.
    pub level: Option<u32>,
    /// The side's pattern weights: its level's and its `pattern`
    /// evaluation's (`None`: the embedded ones).
    pub weights: Option<Arc<PatternWeights>>,
    /// The opening book of the side's level on 8x8 and how far from its
    /// best a book move may be (`None`: no book).
    pub book: Option<(Arc<Book>, Discs)>,
}

/// What one side remembers between its moves of a game: the engine with
/// its tables (made at the side's first move).
#[derive(Debug, Default)]
pub struct SideMemory(Option<(IterativeSearch<Heuristic>, Analyzer)>);

impl SideMemory {
    /// The engine for a side searching with `settings`, kept while the
    /// settings stay the same.
    fn analyzer(
        &mut self,
        settings: IterativeSearch<Heuristic>,
        weights: Option<&Arc<PatternWeights>>,
        book: impl FnOnce() -> Option<BookUse>,
    ) -> &mut Analyzer {
        let same = self.0.as_ref().is_some_and(|(s, _)| {
            (s.order, s.prune, s.eval) == (settings.order, settings.prune, settings.eval)
        });
        if !same {
            let analyzer = Analyzer::with_iterative(settings);
            let analyzer = match weights {
                Some(w) => analyzer.with_weights(Arc::clone(w)),
                None => analyzer,
            };
            let analyzer = analyzer.with_book(book());
            self.0 = Some((settings, analyzer));
        }
        &mut self.0.as_mut().expect("just made").1
    }
}

impl Player {
    /// Alpha-beta in natural order at `depth` with the disc difference.
    #[must_use]
    pub const fn at_depth(depth: u32) -> Player {
        Player {
            depth: Some(depth),
            time: None,
            algorithm: Algorithm::AlphaBeta,
            order: MoveOrder::Natural,
            eval: Heuristic::Disc,
            level: None,
            weights: None,
            book: None,
        }
    }

    /// Chooses a move in the non-terminal position `p`, with this side's
    /// [`SideMemory`] of its earlier searches in the same game (a fresh
    /// `SideMemory::default()` for a lone position).
    ///
    /// # Panics
    /// If `p` is terminal, or neither a depth nor a time is set.
    #[must_use]
    pub fn choose_in(&self, p: &Position, memory: &mut SideMemory) -> Choice {
        let game = Reversi::DISC_DIFFERENCE;
        let start = Instant::now();
        let limits = Limits {
            depth: self.depth,
            level: self.level,
            // Stop a little early: returning the move costs a few
            // microseconds, and the budget is a hard limit.
            time: self.time.map(|t| t.mul_f64(0.95)),
            // A level solves from its own number of empty squares.
            exact_empties: u32::MAX,
            ..Limits::default()
        };
        let counted = self.time.is_none() && self.order == MoveOrder::Natural;
        if counted && limits.level_on(p.board.size()).is_none() {
            // The contracts' counted searches, node for node.
            let depth = self.depth.expect("a depth or a time");
            let eval = Evaluation {
                heuristic: self.eval,
                weights: self
                    .weights
                    .clone()
                    .unwrap_or_else(|| Arc::clone(PatternWeights::shared_embedded())),
            };
            let out = self
                .algorithm
                .run(&game, p, &Limit::depth(depth, eval), &mut NoObserver);
            return Choice {
                mv: out.best.expect("a non-terminal position has a move"),
                black_value: BlackValue::Points(out.value),
                nodes: out.nodes,
                depth,
                time: start.elapsed(),
                book: false,
                discs: None,
            };
        }
        let settings = IterativeSearch {
            order: self.order,
            prune: self.algorithm == Algorithm::AlphaBeta,
            eval: self.eval,
        };
        // The book's random choices are seeded by the first position the
        // side meets, so that games from different openings vary. (The
        // engine consults it at a level only.)
        // (Made with the side's engine, at its first move: a book is read
        // by the engine of a whole game.)
        let book = || {
            self.book.as_ref().map(|(book, randomness)| {
                let r = RelativePosition::from(p);
                let seed = r.player ^ r.opponent.rotate_left(32);
                BookUse::new(Arc::clone(book), *randomness, seed)
            })
        };
        let c = memory
            .analyzer(settings, self.weights.as_ref(), book)
            .choose(p, &limits, None)
            .expect("a non-terminal position has a move");
        Choice {
            time: start.elapsed(),
            ..c
        }
    }
}

/// A finished self-play game.
#[derive(Clone, Debug)]
pub struct Record {
    /// All moves, the opening's included, passes included.
    pub moves: Vec<Move>,
    /// How many of `moves` were the given opening.
    pub opening: usize,
    /// One entry per move after the opening.
    pub choices: Vec<Choice>,
    /// The final position.
    pub last: Position,
    /// Final black discs minus white discs.
    pub score: Value,
}

impl Record {
    /// Total states visited by both sides.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.choices.iter().map(|c| c.nodes).sum()
    }
}

/// Parses a move name (`c4`, `pass`) and checks it is legal in `p`.
///
/// # Errors
/// A message naming the move and the legal moves.
pub fn parse_move(p: &Position, text: &str) -> Result<Move, String> {
    let game = Reversi::DISC_DIFFERENCE;
    let legal: Vec<Move> = game.moves(p).collect();
    match text.parse::<Move>() {
        Ok(m) if legal.contains(&m) => Ok(m),
        _ => Err(format!(
            "{text:?} is not a legal move here (legal: {})",
            if legal.is_empty() {
                "none, the game is over".to_string()
            } else {
                legal
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        )),
    }
}

/// Plays `opening` (move names separated by spaces) from the start of a
/// board of `size`.
///
/// # Errors
/// A message if a move is not legal.
pub fn play_opening(size: u8, opening: &str) -> Result<(Position, Vec<Move>), String> {
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = Position::start(size);
    let mut moves = Vec::new();
    for (i, text) in opening.split_whitespace().enumerate() {
        let mv = parse_move(&p, text).map_err(|e| format!("opening move {}: {e}", i + 1))?;
        p = game.play(&p, mv);
        moves.push(mv);
    }
    Ok((p, moves))
}

/// Plays a game on a board of `size` from the opening (already played into
/// `start`, with its moves), black and white choosing by their settings.
/// `progress` is called after every move with the number of moves played.
pub fn play_game(
    start: Position,
    opening: Vec<Move>,
    black: &Player,
    white: &Player,
    mut progress: impl FnMut(usize),
) -> Record {
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = start;
    let mut moves = opening;
    let n_opening = moves.len();
    let mut choices = Vec::new();
    let mut memories = [SideMemory::default(), SideMemory::default()];
    while !game.is_terminal(&p) {
        let (player, memory) = match p.to_move {
            crate::board::Color::Black => (black, &mut memories[0]),
            crate::board::Color::White => (white, &mut memories[1]),
        };
        let c = player.choose_in(&p, memory);
        p = game.play(&p, c.mv);
        moves.push(c.mv);
        choices.push(c);
        progress(moves.len());
    }
    Record {
        moves,
        opening: n_opening,
        choices,
        last: p,
        score: game.utility(&p),
    }
}

/// Every distinct sequence of `plies` moves from the start of a board of
/// `size` (shorter if a game ends first), in canonical order.
#[must_use]
pub fn openings(size: u8, plies: u32) -> Vec<Vec<Move>> {
    fn rec(p: &Position, left: u32, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
        let game = Reversi::DISC_DIFFERENCE;
        if left == 0 || game.is_terminal(p) {
            out.push(line.clone());
            return;
        }
        for (m, child) in game.successors(p) {
            line.push(m);
            rec(&child, left - 1, line, out);
            line.pop();
        }
    }
    let mut out = Vec::new();
    rec(&Position::start(size), plies, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimax_and_alphabeta_play_the_same_game_on_4x4() {
        let (start, _) = play_opening(4, "").unwrap();
        let ab = Player::at_depth(8);
        let mm = Player {
            algorithm: Algorithm::Minimax,
            ..ab.clone()
        };
        let a = play_game(start, vec![], &ab, &ab, |_| {});
        let m = play_game(start, vec![], &mm, &mm, |_| {});
        assert_eq!(a.moves, m.moves);
        assert_eq!(a.score, m.score);
        for (x, y) in a.choices.iter().zip(&m.choices) {
            assert_eq!(x.black_value, y.black_value);
            assert!(x.nodes <= y.nodes, "{} > {}", x.nodes, y.nodes);
        }
    }

    #[test]
    fn openings_count() {
        assert_eq!(openings(8, 4).len(), 244);
        assert_eq!(openings(4, 1).len(), 4);
    }

    #[test]
    fn opening_errors() {
        assert!(play_opening(4, "a1").is_err());
        let (p, m) = play_opening(8, "d3 c3").unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(p.to_move, crate::board::Color::Black);
    }
}
