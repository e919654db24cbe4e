//! The engine as the front ends use it: rank the moves of a position, or
//! choose one to play, on any board size, within [`Limits`].
//!
//! Every front end (play, match, hint, analyze, NBoard, GTP, the web
//! server, the book builder) calls [`Analyzer`]; this module alone decides
//! the level rule ([`Limits::level_on`]) and the book rule
//! ([`Limits::consults_book`]), picks the search by the
//! board size, the empty squares and the limits, runs the root loops,
//! proves exact and win/loss/draw values with the endgame solver, and turns
//! each search's unit into [`Discs`] for the side to move.
//!
//! - Without a level ([`Limits::level`] `None`) the moves are estimated by
//!   the ordered iterative search ([`crate::engine::iterative`], by default
//!   with the `strong` evaluation), deepening until [`Limits::depth`], the
//!   time or the stop flag; then, with at most [`Limits::wld_empties`]
//!   empty squares, the solver proves the values: exact with at most
//!   [`Limits::exact_empties`], else win/loss/draw (the one best move,
//!   if won or lost, then solved exactly within the time: the choice
//!   among the moves of its outcome).
//! - With a level on 8x8 the moves are ranked by the midgame search
//!   ([`crate::engine::midgame::MidgameSearch`]) at that level; near the end
//!   the proofs above answer, so exact values never depend on the level; on
//!   the smaller boards the level's number is the iterative search's depth.
//! - [`Analyzer::choose`] plays one move: at a level, a book move where the
//!   book holds the position, else the midgame search with the level's own
//!   exact solving; otherwise the iterative search alone.
//! - With a book ([`Analyzer::with_book`]) a ranking gives the book's
//!   moves where it holds the position.

use crate::board::Color;
use crate::engine::iterative::{IterativeSearch, MoveOrder};
use crate::engine::midgame::{Level, MidgameSearch};
use crate::eval::pattern::PatternWeights;
use crate::eval::{Discs, Evaluation, Heuristic};
use crate::game::{Game, Value};
use crate::record::GameRecord;
use crate::reversi::{Move, Position, Reversi};
use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod book;
mod certainty;
mod level;
mod standard;

pub use book::{shipped_book, BookUse};
pub use certainty::Outcome;

use standard::StandardSearch;

/// How far a value is to be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// An estimate of a search this many plies deep.
    Estimate {
        /// Plies searched.
        depth: u32,
    },
    /// The outcome is proven (win, loss or draw with perfect play); the
    /// value is an estimate on the proved side (positive for a win,
    /// negative for a loss, 0 for a draw), never a count of discs:
    /// [`Outcome::proved`] reads the outcome from it.
    WinLossDraw,
    /// The exact final disc difference with perfect play.
    Exact,
    /// A value of the opening book: negamax over the book's positions,
    /// whose leaves were searched at this level.
    Book {
        /// The level of the book's searches.
        level: u32,
        /// Games the book learned that went through the position after
        /// the move.
        games: u64,
    },
}

/// One move with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The move (a forced pass is a move).
    pub mv: Move,
    /// Its value for the side to move (the final disc difference, empty
    /// squares to the winner, when exact).
    pub value: Discs,
    /// How sure the value is.
    pub certainty: Certainty,
    /// The expected line, starting with `mv`.
    pub line: Vec<Move>,
}

/// What a search may spend, and where its values must be exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The depth bound of the iterative search in plies (`None`: the time
    /// decides). Not used at a level.
    pub depth: Option<u32>,
    /// A strength level (1 to [`Level::MAX`]; larger is the strongest): on
    /// 8x8 the midgame search at this level ranks and chooses the moves.
    pub level: Option<u32>,
    /// The time for the search of one position (`None`: no clock).
    pub time: Option<Duration>,
    /// Values are exact with at most this many empty squares.
    pub exact_empties: u32,
    /// Values are proven win/loss/draw with at most this many.
    pub wld_empties: u32,
    /// Threads of the endgame solver.
    pub threads: usize,
    /// What a proven draw is worth to black (NBoard's contempt; white's
    /// draws are worth the opposite). 0: a draw is a draw.
    pub contempt: Discs,
}

/// Empty squares up to which every ranking is searched to the end of the
/// game without a clock ([`Limits::time`] ignored; within
/// [`Limits::exact_empties`] the values are exact): a position this near
/// the end costs at most a few hundred nodes.
pub const ALWAYS_SOLVED_EMPTIES: u32 = 4;

/// Empty squares up to which a hint's values are exact by default. Measured
/// on the FFO positions #20-#39 (17-22 empties) on one thread: a solve
/// takes 0.07-0.3 s at 18-19 empties and 0.15-1.4 s at 20; a hint solves
/// every move.
pub const DEFAULT_EXACT_EMPTIES: u32 = 18;

/// Empty squares up to which win/loss/draw is proven by default (two more:
/// a null-window search around 0 is several times cheaper than a full one).
pub const DEFAULT_WLD_EMPTIES: u32 = 20;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: None,
            level: None,
            time: Some(Duration::from_secs(2)),
            exact_empties: DEFAULT_EXACT_EMPTIES,
            wld_empties: DEFAULT_WLD_EMPTIES,
            threads: 1,
            contempt: Discs(0.0),
        }
    }
}

impl Limits {
    /// The deadline of a search started at `start` (`None`: no clock, or
    /// a time beyond any clock).
    fn deadline(&self, start: Instant) -> Option<Instant> {
        self.time.and_then(|t| start.checked_add(t))
    }

    /// The engine's level rule, decided here alone: the level at which the
    /// midgame search plays and ranks in a position on a board of `size`.
    ///
    /// `None` without a level, and off 8x8 (the levels' pattern evaluation
    /// knows 8x8 only): there the iterative search answers, the level's
    /// number bounding its depth ([`Limits::iterative_depth`]). The number
    /// is held within 1 to [`Level::MAX`] ([`Level::new`]), and the level
    /// solves exactly from its own empty squares, at most
    /// [`Limits::exact_empties`].
    ///
    /// ```
    /// use reversi::Limits;
    /// let limits = Limits { level: Some(99), exact_empties: 20, ..Limits::default() };
    /// let level = limits.level_on(8).unwrap();
    /// assert_eq!((level.depth, level.exact_empties), (30, 20));
    /// assert_eq!(limits.level_on(6), None);
    /// assert_eq!(limits.iterative_depth(), Some(99));
    /// ```
    #[must_use]
    pub fn level_on(&self, size: u8) -> Option<Level> {
        let n = self.level.filter(|_| Level::plays_on(size))?;
        let level = Level::new(n);
        Some(Level {
            exact_empties: level.exact_empties.min(self.exact_empties),
            ..level
        })
    }

    /// The engine's book rule, decided here alone: whether an engine with
    /// an opening book consults it before any search (the book answers
    /// where it holds the position, on 8x8 only). A ranking always does; a
    /// choice (`choosing`) only at a level, so that a move chosen by the
    /// iterative search (the depth study's players, the web server's depth
    /// and evaluation settings) is always that search's.
    #[must_use]
    pub fn consults_book(&self, choosing: bool) -> bool {
        !choosing || self.level.is_some()
    }

    /// The depth bound of the iterative search: [`Limits::depth`], or
    /// where the iterative search answers at a level (off 8x8, and for the
    /// proofs near the end) and no depth is given, the level's number.
    #[must_use]
    pub fn iterative_depth(&self) -> Option<u32> {
        self.depth.or(self.level)
    }
}

/// A search that ranks the moves of a position. [`Analyzer`] is the
/// engine's; the protocols take any, so that tests can drive them with a
/// scripted one.
pub trait MoveSearch: Send {
    /// The best `count` moves of `position` (all of them if fewer), best
    /// first, ties in reading order (moves tied by a win/loss/draw proof:
    /// the best estimated first); a forced pass is the one move; empty
    /// when the game is over. Each value is the move's own (not a bound).
    /// Calls `progress` with the ranking so far whenever a deeper one is
    /// known. Ends early, returning what it has, once `stop` is set.
    fn rank_moves(
        &mut self,
        position: &Position,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue>;

    /// Positions visited by the last [`MoveSearch::rank_moves`].
    fn nodes(&self) -> u64;

    /// Whether [`Limits::time`] ran out during the last
    /// [`MoveSearch::rank_moves`], so that its values may be shallower
    /// than its level or depth asks (a front end says so).
    fn was_cut(&self) -> bool {
        false
    }

    /// Forgets what earlier searches learned (a new game).
    fn clear(&mut self);
}

/// A move chosen to be played, with what it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// Its value from black's point of view, in the unit of what valued
    /// it.
    pub black_value: BlackValue,
    /// Positions visited.
    pub nodes: u64,
    /// The depth of the deepest finished iteration (the empty squares when
    /// solved exactly).
    pub depth: u32,
    /// Time taken.
    pub time: Duration,
    /// Whether the move came from the opening book (no search).
    pub book: bool,
}

/// The value of a chosen move from black's point of view, in the unit of
/// the search (or book) that valued it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlackValue {
    /// Whole discs, rounded half away from zero: the value of the midgame
    /// search at a level, or of the opening book.
    Discs(i32),
    /// The evaluation of the iterative search (or of a counted search) in
    /// its own [`Heuristic`] points: discs for `disc`, whole discs for
    /// `pattern` on 8x8, points of their own for `weights` and `strong`.
    Points(Value),
}

impl BlackValue {
    /// The number, in its own unit.
    #[must_use]
    pub const fn number(self) -> Value {
        match self {
            BlackValue::Discs(n) | BlackValue::Points(n) => n,
        }
    }

    /// Whether the value counts discs when the iterative search evaluated
    /// with `eval` on a board of `size`.
    #[must_use]
    pub fn in_discs(self, eval: Heuristic, size: u8) -> bool {
        match self {
            BlackValue::Discs(_) => true,
            BlackValue::Points(_) => {
                eval == Heuristic::Disc || (eval == Heuristic::Pattern && size == 8)
            }
        }
    }
}

/// A value is written as its number, with any integer format
/// specification (its unit is the writer's to name).
impl std::fmt::Display for BlackValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.number(), f)
    }
}

/// The engine: the searches and the memory they keep between the positions
/// of one game. Keep one per game (or per side of a game) so that later
/// searches reuse what earlier ones learned.
pub struct Analyzer {
    iterative: IterativeSearch<Evaluation>,
    standard: StandardSearch,
    midgame: Option<Box<MidgameSearch>>,
    /// The pattern weights of the levels, of `pattern` in the iterative
    /// search and of the solver's move order (`None`: the embedded ones).
    weights: Option<Arc<PatternWeights>>,
    /// The opening book consulted before any search (`None`: no book).
    book: Option<BookUse>,
    nodes: u64,
    /// Whether the last ranking ran out of [`Limits::time`].
    cut: bool,
}

impl Default for Analyzer {
    fn default() -> Self {
        Analyzer::new()
    }
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Analyzer({:?})", self.iterative)
    }
}

impl Analyzer {
    /// The engine with the iterative search ordered best first, pruned, and
    /// evaluating with `strong`; its tables are made when first needed.
    #[must_use]
    pub fn new() -> Analyzer {
        Analyzer::with_iterative(IterativeSearch {
            order: MoveOrder::Best,
            prune: true,
            eval: Heuristic::Strong,
        })
    }

    /// The engine with these settings of the iterative search (the depth
    /// study's players; the analysis always uses [`Analyzer::new`]'s).
    #[must_use]
    pub fn with_iterative(iterative: IterativeSearch<Heuristic>) -> Analyzer {
        let iterative = IterativeSearch {
            order: iterative.order,
            prune: iterative.prune,
            eval: Evaluation::new(iterative.eval),
        };
        Analyzer {
            standard: StandardSearch::new(iterative.clone()),
            iterative,
            midgame: None,
            weights: None,
            book: None,
            nodes: 0,
            cut: false,
        }
    }

    /// The same engine evaluating with `weights` instead of the embedded
    /// ones: its levels' midgame search (and that search's exact solves),
    /// the iterative search's `pattern` evaluation and the solver's move
    /// order. The one way other weights reach the engine: two sides of a
    /// match can differ in their weights alone.
    #[must_use]
    pub fn with_weights(mut self, weights: Arc<PatternWeights>) -> Analyzer {
        self.midgame = None;
        self.iterative.eval.weights = Arc::clone(&weights);
        self.standard.set_weights(Arc::clone(&weights));
        self.weights = Some(weights);
        self
    }

    /// The same engine consulting `book` by the engine's book rule
    /// ([`Limits::consults_book`]): [`MoveSearch::rank_moves`] gives the
    /// book's moves with [`Certainty::Book`] values, without searching
    /// unless more moves are asked for than the book holds (the others are
    /// then searched), and [`Analyzer::choose`] at a level plays a book
    /// move.
    #[must_use]
    pub fn with_book(mut self, book: Option<BookUse>) -> Analyzer {
        self.book = book;
        self
    }

    /// This engine's book where the book rule
    /// ([`Limits::consults_book`]) has it consulted.
    fn book_for(&mut self, limits: &Limits, choosing: bool) -> Option<&mut BookUse> {
        self.book
            .as_mut()
            .filter(|_| limits.consults_book(choosing))
    }

    /// The midgame search, made when first needed (its table is 24 MiB).
    fn midgame(&mut self) -> &mut MidgameSearch {
        let weights = &self.weights;
        self.midgame.get_or_insert_with(|| match weights {
            Some(w) => Box::new(MidgameSearch::new(Arc::clone(w))),
            None => Box::default(),
        })
    }

    /// Chooses a move to play in `p`, or `None` when the game is over.
    ///
    /// At a level, a book move where the book holds the position
    /// ([`Limits::consults_book`]); then at a level on 8x8 the midgame search
    /// at that level ([`Limits::level_on`]); otherwise the iterative search
    /// with this analyzer's settings: to [`Limits::iterative_depth`] in one
    /// search when there is no clock, else deepening until that depth, the
    /// time or `stop`. The first iteration always finishes.
    pub fn choose(
        &mut self,
        p: &Position,
        limits: &Limits,
        stop: Option<&AtomicBool>,
    ) -> Option<Choice> {
        let start = Instant::now();
        if let Some((mv, value)) = self.book_for(limits, true).and_then(|b| b.choose(p)) {
            return Some(Choice {
                mv,
                black_value: BlackValue::Discs(value.for_color(p.to_move).round_discs()),
                nodes: 0,
                depth: 0,
                time: start.elapsed(),
                book: true,
            });
        }
        let deadline = limits.deadline(start);
        if let Some(level) = limits.level_on(p.board.size()) {
            let v = self.midgame().search(&p.into(), level, deadline, stop);
            return Some(Choice {
                mv: v.best?,
                black_value: BlackValue::Discs(v.value.for_color(p.to_move).round_discs()),
                nodes: v.nodes,
                depth: v.depth,
                time: start.elapsed(),
                book: false,
            });
        }
        let memory = self.standard.memory();
        let depth = limits.iterative_depth();
        let found = match (limits.time, depth) {
            // A fixed depth: one ordered search (deepening would only add nodes).
            (None, Some(depth)) => self.iterative.fixed_in(p, depth, memory),
            _ => self
                .iterative
                .deepen_stoppable(p, depth, deadline, stop, memory),
        };
        Some(Choice {
            mv: found.best?,
            black_value: BlackValue::Points(found.value),
            nodes: found.nodes,
            depth: found.depth,
            time: start.elapsed(),
            book: false,
        })
    }
}

impl MoveSearch for Analyzer {
    fn rank_moves(
        &mut self,
        position: &Position,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        self.nodes = 0;
        self.cut = false;
        if let Some(mut values) = self.book_for(limits, false).and_then(|b| b.rank(position)) {
            // More moves asked for than the book holds: the others are
            // searched (their values marked as the search's).
            if count > values.len() && values.len() < children(position).len() {
                let searched = self.search_moves(position, usize::MAX, limits, stop, &mut |_| {});
                let book_moves: Vec<Move> = values.iter().map(|v| v.mv).collect();
                values.extend(searched.into_iter().filter(|v| !book_moves.contains(&v.mv)));
                rank(&mut values);
            }
            values.truncate(count.max(1));
            progress(&values);
            return values;
        }
        self.search_moves(position, count, limits, stop, progress)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn was_cut(&self) -> bool {
        self.cut
    }

    fn clear(&mut self) {
        self.midgame = None;
        self.standard.clear();
    }
}

impl Analyzer {
    /// The ranking by search alone (no book): see
    /// [`MoveSearch::rank_moves`].
    fn search_moves(
        &mut self,
        position: &Position,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        // Each ranking starts from empty tables: what earlier searches
        // stored would make a position's value depend on them (an
        // analysis's value of a move depended on how many moves the record
        // held after it), so a position at a level has one value whoever
        // asks, in whatever order.
        if let Some(midgame) = self.midgame.as_mut() {
            midgame.forget();
        }
        self.standard.forget();
        // The last empty squares are solved whatever the clock says: a
        // few hundred positions at most, and a cut there showed an
        // estimate (-4.00) where the exact score (-32) was at hand.
        let untimed = Limits {
            time: None,
            ..*limits
        };
        let limits = if position.board.empty().count_ones() <= ALWAYS_SOLVED_EMPTIES {
            &untimed
        } else {
            limits
        };
        let started = Instant::now();
        let values = self.search_fresh(position, count, limits, stop, progress);
        self.cut |= limits
            .deadline(started)
            .is_some_and(|d| Instant::now() >= d);
        values
    }

    /// [`Analyzer::search_moves`] once the tables are empty.
    fn search_fresh(
        &mut self,
        position: &Position,
        count: usize,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&[MoveValue]),
    ) -> Vec<MoveValue> {
        let empties = position.board.empty().count_ones();
        match limits.level_on(position.board.size()) {
            // The level ranks; exact values are left to the proofs near the
            // end, so that they never depend on the level. Where win/loss/
            // draw is proved, the level estimates every move first: the
            // proofs follow its order and each keeps the level's estimate
            // that agrees with it.
            Some(level) if empties > limits.exact_empties => {
                let level = Level {
                    exact_empties: 0,
                    ..level
                };
                let deadline = limits.deadline(Instant::now());
                let wld = empties <= limits.wld_empties;
                let estimated = if wld { usize::MAX } else { count };
                let midgame = self.midgame();
                let (values, nodes) = level::rank_at_level(
                    midgame,
                    position,
                    estimated,
                    level,
                    deadline,
                    stop,
                    &mut |v| progress(&v[..v.len().min(count.max(1))]),
                );
                self.nodes = nodes;
                if !wld || values.is_empty() {
                    return values;
                }
                let before = self.standard.nodes();
                let proven = self
                    .standard
                    .prove_estimated(position, values, count, limits, deadline, stop, progress);
                self.nodes += self.standard.nodes() - before;
                proven
            }
            _ => {
                let limits = Limits {
                    depth: limits.iterative_depth(),
                    ..*limits
                };
                let values = self
                    .standard
                    .rank_moves(position, count, &limits, stop, progress);
                self.nodes = self.standard.nodes();
                values
            }
        }
    }
}

/// The legal moves of `p` and the positions after them (a forced pass is
/// the one move; none when the game is over).
fn children(p: &Position) -> Vec<(Move, Position)> {
    let game = Reversi::DISC_DIFFERENCE;
    game.moves(p).map(|m| (m, game.play(p, m))).collect()
}

/// The exact value for the side to move in `parent` of its child `child`
/// if the game is over there: the final score (standard scoring), which
/// every search gives a move that ends the game, whatever the evaluation's
/// unit (`None` while the game goes on).
fn final_value(parent: &Position, child: &Position) -> Option<Discs> {
    child.board.is_game_over().then(|| {
        Discs(f64::from(crate::record::standard_score(&child.board))).for_color(parent.to_move)
    })
}

/// The smallest win in discs on a board of `size`: the final score's
/// parity is the squares' (the empty squares go to the winner), so on the
/// even boards a win is at least 2 discs.
fn smallest_win(size: u8) -> f64 {
    if (u32::from(size) * u32::from(size)) % 2 == 0 {
        2.0
    } else {
        1.0
    }
}

/// Best first; equal values in the order of the moves (reading order, the
/// pass last).
fn rank(values: &mut [MoveValue]) {
    let key = |m: &MoveValue| match m.mv {
        Move::Place(sq) => u32::from(sq.0),
        Move::Pass => 64,
    };
    values.sort_by(|a, b| {
        b.value
            .partial_cmp(&a.value)
            .unwrap_or(Ordering::Equal)
            .then(key(a).cmp(&key(b)))
    });
}

/// One move of an analysed game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// 0-based index of the move in the game.
    pub index: usize,
    /// The position before it.
    pub position: Position,
    /// The move played.
    pub played: Move,
    /// The value of the move played (mover's view).
    pub played_value: Discs,
    /// What that value is (exact, estimate, book...): the best move's
    /// certainty where the ranking did not list the move played.
    pub played_certainty: Certainty,
    /// The best move and its value.
    pub best: MoveValue,
    /// How many discs the move played loses against the best (0 or more).
    pub loss: Discs,
    /// Whether both values are exact.
    pub exact: bool,
    /// Whether the search of the position ran out of [`Limits::time`]
    /// ([`MoveSearch::was_cut`]).
    pub cut: bool,
}

/// The analysis of a whole game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// One entry per move (forced passes included).
    pub moves: Vec<MoveAnalysis>,
    /// Total discs lost by black's and by white's moves.
    pub total_loss: [Discs; 2],
    /// The final score (black minus white, empties to the winner) if the
    /// game is over.
    pub final_score: Option<i32>,
}

/// Analyses every move of `game`: the value of the move played, the best
/// move and its value, and the loss. The positions are searched from the
/// last to the first, each within `limits`. `on_move` is called after each.
/// Stops early (returning the moves done) once `stop` is set.
///
/// Every value is in discs: the values are proved exact up to
/// [`Limits::exact_empties`] and estimated beyond, never proved
/// win/loss/draw only (whose +1/0/-1 is no count of discs, so a loss
/// against it would mean nothing).
pub fn analyze_game(
    search: &mut dyn MoveSearch,
    game: &GameRecord,
    limits: &Limits,
    stop: &AtomicBool,
    on_move: &mut dyn FnMut(&MoveAnalysis),
) -> GameAnalysis {
    let limits = &Limits {
        wld_empties: limits.wld_empties.min(limits.exact_empties),
        ..*limits
    };
    let positions = game.positions();
    let mut out = Vec::new();
    for (index, m) in game.moves.iter().enumerate().rev() {
        if stop.load(AtomicOrdering::Relaxed) {
            break;
        }
        let p = positions[index];
        let values = search.rank_moves(&p, usize::MAX, limits, stop, &mut |_| {});
        let Some(best) = values.first().cloned() else {
            continue;
        };
        let played = values.iter().find(|v| v.mv == m.mv);
        let played_value = played.map_or(best.value, |v| v.value);
        let exact = best.certainty == Certainty::Exact
            && played.is_some_and(|v| v.certainty == Certainty::Exact);
        let a = MoveAnalysis {
            index,
            position: p,
            played: m.mv,
            played_value,
            played_certainty: played.map_or(best.certainty, |v| v.certainty),
            loss: Discs((best.value.0 - played_value.0).max(0.0)),
            best,
            exact,
            cut: search.was_cut(),
        };
        on_move(&a);
        out.push(a);
    }
    out.reverse();
    let mut total_loss = [Discs(0.0), Discs(0.0)];
    for a in &out {
        let side = usize::from(a.position.to_move != Color::Black);
        total_loss[side] += a.loss;
    }
    GameAnalysis {
        moves: out,
        total_loss,
        final_score: game.final_score(),
    }
}

/// The value of a position for the side to move: its best move's value,
/// or the final score when the game is over (standard scoring).
pub fn position_value(
    search: &mut dyn MoveSearch,
    p: &Position,
    limits: &Limits,
    stop: &AtomicBool,
) -> (Discs, Certainty) {
    if p.board.is_game_over() {
        let black = crate::record::standard_score(&p.board);
        return (
            Discs(f64::from(black)).for_color(p.to_move),
            Certainty::Exact,
        );
    }
    let v = search.rank_moves(p, 1, limits, stop, &mut |_| {});
    v.first()
        .map_or((Discs(0.0), Certainty::Estimate { depth: 0 }), |m| {
            (m.value, m.certainty)
        })
}

#[cfg(test)]
mod tests;
