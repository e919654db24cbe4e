//! The Go Text Protocol, version 2, with the Othello conventions of GoGui
//! and of other Othello engines' GTP modes.
//!
//! A request is `[id] command [arguments]`; [`GtpSession::handle`] returns
//! the whole response: `=[id] result` or `?[id] message`, ended by an empty
//! line. Comments (`#` to the end of the line) and empty lines get no
//! response. Colours are `b`/`black` and `w`/`white`; moves are squares
//! (`f5`, any case) or `pass`. `genmove` plays the move it returns.
//! Boards of 4, 6 and 8 are accepted (`boardsize`).

use crate::board::{Color, PictureStyle};
use crate::engine::analyze::{Limits, MoveSearch};
use crate::record::{GameRecord, RecordedMove};
use crate::reversi::{Move, Position};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The commands known, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 16] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "komi",
];

/// The longest time `time_settings` and `time_left` accept (a year).
const MAX_SECONDS: f64 = 365.0 * 86_400.0;

/// The clock as the controller told it (`time_settings`, `time_left`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Clock {
    main: Option<Duration>,
    left: [Option<Duration>; 2],
}

/// One GTP conversation.
pub struct GtpSession<S: MoveSearch> {
    game: GameRecord,
    search: S,
    limits: Limits,
    clock: Clock,
    stop: AtomicBool,
    name: String,
    version: String,
}

/// What [`GtpSession::handle`] answered, and whether to go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The response text (ends with an empty line), empty for comments and
    /// empty lines.
    pub text: String,
    /// `quit` was handled.
    pub quit: bool,
}

fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A move as GTP writes it: `F5`, `pass`.
#[must_use]
pub fn vertex(m: Move) -> String {
    match m {
        Move::Place(sq) => sq.to_string().to_ascii_uppercase(),
        Move::Pass => "pass".to_string(),
    }
}

impl<S: MoveSearch> GtpSession<S> {
    /// A session at the 8x8 start position; `name` and `version` are what
    /// the `name` and `version` commands answer.
    pub fn new(search: S, limits: Limits, name: &str, version: &str) -> GtpSession<S> {
        GtpSession {
            game: GameRecord::new(Position::start(8)),
            search,
            limits,
            clock: Clock::default(),
            stop: AtomicBool::new(false),
            name: name.to_string(),
            version: version.to_string(),
        }
    }

    /// The game so far.
    #[must_use]
    pub fn game(&self) -> &GameRecord {
        &self.game
    }

    /// Handles one request line.
    pub fn handle(&mut self, line: &str) -> Response {
        let clean: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .filter(|c| !c.is_control())
            .collect();
        let mut words = clean.split_whitespace();
        let Some(first) = words.next() else {
            return Response {
                text: String::new(),
                quit: false,
            };
        };
        let (id, command) = if first.chars().all(|c| c.is_ascii_digit()) {
            (first.to_string(), words.next().unwrap_or(""))
        } else {
            (String::new(), first)
        };
        let args: Vec<&str> = words.collect();
        let result = self.answer(command, &args);
        let text = match &result {
            Ok(s) if s.is_empty() => format!("={id}\n\n"),
            Ok(s) => format!("={id} {s}\n\n"),
            Err(e) => format!("?{id} {e}\n\n"),
        };
        Response {
            text,
            quit: command == "quit" && result.is_ok(),
        }
    }

    /// The answer to one command: one match arm per GTP command, kept in
    /// one function (about 90 lines) so the whole command set reads in one
    /// place, as `list_commands` lists it; the arms' work is in helpers.
    fn answer(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        match command {
            "protocol_version" => Ok("2".to_string()),
            "name" => Ok(self.name.clone()),
            "version" => Ok(self.version.clone()),
            "known_command" => Ok(args
                .first()
                .is_some_and(|c| COMMANDS.contains(c))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" | "komi" => Ok(String::new()),
            "boardsize" => {
                let n = args.first().and_then(|a| a.parse::<u8>().ok());
                match n {
                    Some(n @ (4 | 6 | 8)) => {
                        self.game = GameRecord::new(Position::start(n));
                        self.search.clear();
                        Ok(String::new())
                    }
                    _ => Err("unacceptable size".to_string()),
                }
            }
            "clear_board" => {
                self.game = GameRecord::new(Position::start(self.size()));
                self.search.clear();
                Ok(String::new())
            }
            "play" => {
                let [c, m] = args else {
                    return Err("syntax error: play COLOR MOVE".to_string());
                };
                let color = parse_color(c).ok_or("syntax error: invalid color")?;
                let mv = self.parse_move(m)?;
                self.play(color, mv)
            }
            "genmove" => {
                let [c] = args else {
                    return Err("syntax error: genmove COLOR".to_string());
                };
                let color = parse_color(c).ok_or("syntax error: invalid color")?;
                self.genmove(color)
            }
            "undo" => {
                self.game.pop().ok_or("cannot undo")?;
                // A forced pass before it goes too: `play` and `genmove`
                // put it back by themselves.
                while self.game.moves.last().is_some_and(|m| m.mv == Move::Pass) {
                    self.game.pop();
                }
                Ok(String::new())
            }
            "showboard" => Ok(format!("\n{}", self.picture())),
            "final_score" => {
                let p = self.game.last();
                let s = crate::record::standard_score(&p.board);
                if !p.board.is_game_over() {
                    // GTP asks for the score now; the empties stay empty.
                    let d = p.board.disc_difference();
                    return Ok(score_text(d));
                }
                Ok(score_text(s))
            }
            "time_settings" => {
                let main = args.first().and_then(|a| a.parse::<f64>().ok());
                match main {
                    Some(m) if (0.0..=MAX_SECONDS).contains(&m) => {
                        self.clock.main = (m > 0.0).then(|| Duration::from_secs_f64(m));
                        self.clock.left = [None, None];
                        Ok(String::new())
                    }
                    _ => Err("syntax error: time_settings MAIN BYO_YOMI STONES".to_string()),
                }
            }
            "time_left" => {
                let color = args
                    .first()
                    .and_then(|c| parse_color(c))
                    .ok_or("syntax error: time_left COLOR TIME STONES")?;
                let t = args
                    .get(1)
                    .and_then(|a| a.parse::<f64>().ok())
                    .filter(|t| (0.0..=MAX_SECONDS).contains(t))
                    .ok_or("syntax error: time_left COLOR TIME STONES")?;
                self.clock.left[usize::from(color == Color::White)] =
                    Some(Duration::from_secs_f64(t));
                Ok(String::new())
            }
            _ => Err("unknown command".to_string()),
        }
    }

    fn size(&self) -> u8 {
        self.game.start.board.size()
    }

    fn parse_move(&self, m: &str) -> Result<Move, String> {
        match m.parse::<Move>() {
            Ok(Move::Place(sq)) if sq.row() >= self.size() || sq.col() >= self.size() => {
                Err(format!("invalid coordinate {m}"))
            }
            Ok(mv) => Ok(mv),
            Err(_) => Err(format!("invalid coordinate {m}")),
        }
    }

    /// Plays `mv` for `color`; if `color` is not to move because the side
    /// to move must pass, that pass is played first.
    fn play(&mut self, color: Color, mv: Move) -> Result<String, String> {
        let p = self.game.last();
        if p.to_move != color {
            let forced = p.board.moves(p.to_move) == 0 && !p.board.is_game_over();
            if !forced {
                return Err(format!("illegal move: {} is to move", p.to_move.name()));
            }
            if mv == Move::Pass {
                // Both passing: the game is over, nothing to record.
                return Ok(String::new());
            }
            self.game
                .push(RecordedMove::plain(Move::Pass))
                .map_err(|e| format!("illegal move: {e}"))?;
        }
        let p = self.game.last();
        if mv == Move::Pass && p.board.is_game_over() {
            return Ok(String::new());
        }
        self.game
            .push(RecordedMove::plain(mv))
            .map(|()| String::new())
            .map_err(|e| format!("illegal move: {e}"))
    }

    fn genmove(&mut self, color: Color) -> Result<String, String> {
        let p = self.game.last();
        if p.board.is_game_over() {
            return Ok("pass".to_string());
        }
        if p.to_move != color {
            if p.board.moves(p.to_move) != 0 {
                return Err(format!("{} is to move", p.to_move.name()));
            }
            // The side to move must pass: play that pass, then move.
            self.game
                .push(RecordedMove::plain(Move::Pass))
                .map_err(|e| e.to_string())?;
        }
        let p = self.game.last();
        if p.board.moves(p.to_move) == 0 {
            self.play(color, Move::Pass)?;
            return Ok("pass".to_string());
        }
        let mut limits = self.limits;
        if let Some(left) = self.clock.left[usize::from(color == Color::White)].or(self.clock.main)
        {
            // An even share of the time left over the moves still to play,
            // a little kept in reserve.
            let empties = p.board.empty().count_ones().max(2);
            let share = left.mul_f64(0.9) / (empties / 2 + 1);
            limits.time = Some(limits.time.map_or(share, |t| t.min(share)));
        }
        let values = self
            .search
            .rank_moves(&p, 1, &limits, &self.stop, &mut |_| {});
        let mv = values.first().map_or(Move::Pass, |v| v.mv);
        self.play(color, mv)?;
        Ok(vertex(mv))
    }

    /// The board as GoGui shows it: column letters, row numbers, `X`
    /// black, `O` white, `.` empty, then the side to move.
    fn picture(&self) -> String {
        let p = self.game.last();
        let mut s = p.board.picture(PictureStyle::GOGUI, 0);
        let _ = write!(
            s,
            "X {} O {}, {} to move",
            p.board.count(Color::Black),
            p.board.count(Color::White),
            p.to_move.name()
        );
        s
    }
}

/// `B+10`, `W+4` or `0`.
fn score_text(black_minus_white: i32) -> String {
    match black_minus_white {
        0 => "0".to_string(),
        d if d > 0 => format!("B+{d}"),
        d => format!("W+{}", -d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::analyze::{Certainty, MoveValue};
    use crate::game::Game;
    use crate::reversi::Reversi;
    use crate::rng::Rng;

    /// A stand-in search: the first legal move.
    struct First;

    impl MoveSearch for First {
        fn rank_moves(
            &mut self,
            p: &Position,
            _: usize,
            _: &Limits,
            _: &AtomicBool,
            _: &mut dyn FnMut(&[MoveValue]),
        ) -> Vec<MoveValue> {
            Reversi::DISC_DIFFERENCE
                .moves(p)
                .take(1)
                .map(|mv| MoveValue {
                    mv,
                    value: crate::eval::Discs(0.0),
                    certainty: Certainty::Estimate { depth: 1 },
                    line: vec![mv],
                })
                .collect()
        }
        fn nodes(&self) -> u64 {
            0
        }
        fn clear(&mut self) {}
    }

    #[test]
    fn passes_are_played_for_the_side_that_must_pass() {
        // Random games sent without their passes: the session passes by
        // itself, and genmove answers `pass` where it must.
        let game = Reversi::DISC_DIFFERENCE;
        let mut passes = 0;
        for seed in 1..60 {
            let mut s = GtpSession::new(First, Limits::default(), "t", "0");
            let mut rng = Rng::new(seed);
            let mut p = Position::start(8);
            while !game.is_terminal(&p) {
                let moves: Vec<Move> = game.moves(&p).collect();
                let mv = *rng.pick(&moves);
                let c = if p.to_move == Color::Black { "b" } else { "w" };
                if mv == Move::Pass {
                    passes += 1;
                    if seed % 2 == 0 {
                        assert_eq!(s.handle(&format!("genmove {c}")).text, "= pass\n\n");
                    }
                } else {
                    assert_eq!(s.handle(&format!("play {c} {mv}")).text, "=\n\n");
                }
                p = game.play(&p, mv);
            }
            assert_eq!(s.game().last().board, p.board);
            let d = crate::record::standard_score(&p.board);
            assert_eq!(
                s.handle("final_score").text,
                format!("= {}\n\n", score_text(d))
            );
            assert_eq!(s.handle("genmove b").text, "= pass\n\n");
        }
        assert!(passes > 0);
    }

    #[test]
    fn random_requests_get_one_response_each() {
        let words = [
            "play",
            "genmove",
            "undo",
            "boardsize",
            "4",
            "6",
            "8",
            "9",
            "b",
            "w",
            "black",
            "x",
            "f5",
            "a1",
            "d3",
            "pass",
            "c2",
            "time_left",
            "time_settings",
            "-1",
            "1e400",
            "1e300",
            "NaN",
            "0",
            "showboard",
            "final_score",
            "clear_board",
            "known_command",
            "12",
            "#",
            "\t",
            "é",
        ];
        let mut rng = Rng::new(5);
        let mut s = GtpSession::new(First, Limits::default(), "t", "0");
        for _ in 0..5000 {
            let n = 1 + rng.below(4);
            let line: Vec<&str> = (0..n).map(|_| *rng.pick(&words)).collect();
            let r = s.handle(&line.join(" "));
            if !r.text.is_empty() {
                assert!(r.text.starts_with('=') || r.text.starts_with('?'), "{r:?}");
                assert!(r.text.ends_with("\n\n"), "{r:?}");
                assert_eq!(r.text.matches("\n\n").count(), 1, "{r:?}");
            }
            // The game stays legal whatever was sent.
            let mut replay = GameRecord::new(s.game().start);
            for m in &s.game().moves {
                replay.push(m.clone()).unwrap();
            }
        }
    }
}
