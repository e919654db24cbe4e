//! The play page's game: a position replayed from a board size and a list
//! of moves (the page keeps only the moves, so undo is dropping the last
//! one and the server keeps no game state), and the engine's move.

use crate::apps::study::selfplay::parse_move;
use crate::board::{Color, Square};
use crate::engine::analyze::BookUse;
use crate::engine::analyze::{Analyzer, Choice, Limits};
use crate::engine::iterative::{IterativeSearch, MoveOrder};
use crate::eval::Heuristic;
use crate::game::Game;
use crate::record::{GameInfo, GameRecord, RecordedMove};
use crate::reversi::{Move, Position, Reversi};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A game replayed from its moves.
#[derive(Clone, Debug)]
pub struct GameState {
    /// The position the game started from (the standard start unless a
    /// loaded record said otherwise).
    pub start: Position,
    /// The moves played, passes included.
    pub moves: Vec<Move>,
    /// The colour that played each move.
    pub movers: Vec<Color>,
    /// The position now.
    pub position: Position,
    /// The discs the last move turned over.
    pub flipped: Vec<Square>,
}

impl GameState {
    /// The moves legal now in reading order (a single pass when forced,
    /// none when the game is over).
    #[must_use]
    pub fn legal(&self) -> Vec<Move> {
        Reversi::DISC_DIFFERENCE.moves(&self.position).collect()
    }

    /// Whether the game is over.
    #[must_use]
    pub fn over(&self) -> bool {
        Reversi::DISC_DIFFERENCE.is_terminal(&self.position)
    }

    /// The game as move names separated by spaces (`pass` for a pass).
    #[must_use]
    pub fn transcript(&self) -> String {
        self.moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The game as a record (for writing it as GGF, a transcript or a
    /// board string).
    #[must_use]
    pub fn record(&self) -> GameRecord {
        GameRecord {
            start: self.start,
            moves: self.moves.iter().map(|m| RecordedMove::plain(*m)).collect(),
            info: GameInfo::default(),
            variations: Vec::new(),
        }
    }

    /// Whether the game started from the standard start of its board.
    #[must_use]
    pub fn from_standard_start(&self) -> bool {
        self.start == Position::start(self.start.board.size())
    }
}

/// Plays `moves` (names such as `c4` or `pass`, separated by spaces or
/// commas) from the start of a board of `size`.
///
/// # Errors
/// A message for a bad size or the first illegal move.
pub fn replay(size: u8, moves: &str) -> Result<GameState, String> {
    if ![4, 6, 8].contains(&size) {
        return Err(format!("size {size} is not 4, 6 or 8"));
    }
    replay_from(Position::start(size), moves)
}

/// Plays `moves` (as [`replay`] reads them) from `start`.
///
/// # Errors
/// A message naming the first illegal move.
pub fn replay_from(start: Position, moves: &str) -> Result<GameState, String> {
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = start;
    let mut played = Vec::new();
    let mut movers = Vec::new();
    let mut flipped = Vec::new();
    for (i, text) in moves
        .split([' ', ','])
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let mv = parse_move(&p, text).map_err(|e| format!("move {}: {e}", i + 1))?;
        let next = game.play(&p, mv);
        flipped = match mv {
            Move::Place(sq) => {
                let before = p.board.discs(p.to_move.other());
                let after = next.board.discs(p.to_move);
                next.board
                    .squares()
                    .filter(|s| *s != sq && before & after & s.bit() != 0)
                    .collect()
            }
            Move::Pass => Vec::new(),
        };
        movers.push(p.to_move);
        p = next;
        played.push(mv);
    }
    Ok(GameState {
        start,
        moves: played,
        movers,
        position: p,
        flipped,
    })
}

/// How the engine plays a move.
#[derive(Clone, Copy, Debug)]
pub struct EngineSettings {
    /// The deepest iteration (`None`: only the time bounds it).
    pub depth: Option<u32>,
    /// The time for the move.
    pub time: Duration,
    /// Alpha-beta (true) or minimax.
    pub prune: bool,
    /// The evaluation at the depth bound.
    pub eval: Heuristic,
    /// A strength level (1 to 30): on 8x8 the engine's midgame search
    /// plays at it (the time still capping it) instead of the iterative
    /// search, and `depth`, `prune` and `eval` are not used.
    pub level: Option<u32>,
}

/// The most empty squares a level solves exactly on the server: a solve
/// cannot be stopped, and from 20 empties it takes up to about a second on
/// this machine (levels 13-30 would solve from 21-24).
pub const SERVER_EXACT_EMPTIES: u32 = 20;

/// The move of the study's ordered iterative-deepening engine in `p` (of
/// the engine at the settings' level on 8x8, solving exactly from at most
/// [`SERVER_EXACT_EMPTIES`]; at a level, a move of `book` where it holds
/// the position),
/// or `None` when the game is over. The search
/// stops at the deadline `time` from now or when `stop` is set (depth 1
/// always finishes).
#[must_use]
pub fn engine_move(
    p: &Position,
    settings: EngineSettings,
    book: Option<BookUse>,
    stop: &AtomicBool,
) -> Option<Choice> {
    let limits = Limits {
        depth: settings.depth,
        level: settings.level,
        time: Some(settings.time),
        exact_empties: SERVER_EXACT_EMPTIES,
        ..Limits::default()
    };
    let mut engine = Analyzer::with_iterative(IterativeSearch {
        order: MoveOrder::Best,
        prune: settings.prune,
        eval: settings.eval,
    })
    .with_book(book);
    engine.choose(p, &limits, Some(stop))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::analyze::BlackValue;

    #[test]
    fn replay_reports_flips_and_rejects_illegal_moves() {
        let g = replay(8, "d3").unwrap();
        assert_eq!(g.flipped, vec!["d4".parse::<Square>().unwrap()]);
        assert_eq!(g.position.board.count(crate::board::Color::Black), 4);
        assert_eq!(g.transcript(), "d3");
        assert!(replay(8, "a1").unwrap_err().contains("move 1"));
        assert!(replay(5, "").is_err());
        assert_eq!(replay(4, "").unwrap().legal().len(), 4);
    }

    #[test]
    fn the_engine_finds_the_exact_end_of_a_small_game() {
        let g = replay(4, "").unwrap();
        let m = engine_move(
            &g.position,
            EngineSettings {
                depth: None,
                time: Duration::from_secs(60),
                prune: true,
                eval: Heuristic::Disc,
                level: None,
            },
            None,
            &AtomicBool::new(false),
        )
        .unwrap();
        let exact = crate::search::alphabeta(&Reversi::DISC_DIFFERENCE, &g.position);
        assert_eq!(m.black_value, BlackValue::Points(exact.value));
        assert!(g.legal().contains(&m.mv));
    }

    #[test]
    fn a_set_stop_flag_ends_the_engine_after_its_first_iteration() {
        let g = replay(8, "").unwrap();
        let settings = EngineSettings {
            depth: None,
            time: Duration::from_secs(600),
            prune: true,
            eval: Heuristic::Strong,
            level: None,
        };
        let m = engine_move(&g.position, settings, None, &AtomicBool::new(true)).unwrap();
        assert_eq!(m.depth, 1);
        assert!(g.legal().contains(&m.mv));
    }
}
