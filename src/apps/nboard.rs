//! The NBoard protocol, version 2: the engine side of the NBoard GUI's
//! conversation (commands on stdin, one per line; replies on stdout).
//!
//! [`NboardSession::handle`] takes one command line; the reply lines go to
//! the session's [`std::sync::mpsc::Sender`], from this thread or, for the
//! searches (`hint`, `go`, `analyze`), from a worker thread, so the caller
//! keeps reading commands while the engine thinks: `ping N` stops the
//! search, waits for it, then answers `pong N`. The command line front end
//! prints each line as it arrives and flushes it.
//!
//! Commands: `nboard 2`, `set depth N` (answers `set myname reversiN`),
//! `set game GGF`, `set contempt N`, `move F5/eval/time` (`PA` a pass),
//! `hint N` (streams `search PV EVAL 0 DEPTH`, depth `100%` when exact,
//! `100%W` when win/loss/draw is proven), `go` (`=== F5/eval/time`; the
//! move is not played), `ping N`, `learn` (`learned`), `analyze` (one
//! `analysis MOVES EVAL` per position), `quit`. Unknown lines are ignored;
//! problems (an illegal move, a bad game) are reported as `status` lines.

use crate::engine::analyze::{position_value, Certainty, Limits, MoveSearch, MoveValue};
use crate::engine::midgame::Level;
use crate::eval::Discs;
use crate::record::{parse_ggf, GameRecord, RecordedMove};
use crate::reversi::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// Whether the conversation goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit`: stop.
    Quit,
}

/// A search running on its worker thread.
struct Running<S> {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<S>,
}

/// One NBoard conversation.
pub struct NboardSession<S: MoveSearch + 'static> {
    game: GameRecord,
    limits: Limits,
    /// Draw value for black in centi-discs (`set contempt`), given to the
    /// search as [`Limits::contempt`] in discs.
    contempt: i32,
    out: Sender<String>,
    idle: Option<S>,
    running: Option<Running<S>>,
}

/// A square or pass as NBoard writes it: `F5`, `PA`.
#[must_use]
pub fn move_name(m: Move) -> String {
    match m {
        Move::Place(sq) => sq.to_string().to_ascii_uppercase(),
        Move::Pass => "PA".to_string(),
    }
}

/// The depth field of a `search` line: NBoard's form of the certainty's
/// kind ([`Certainty::kind`]): an estimate's depth, `100%W` for a proof of
/// win/loss/draw, `100%` for an exact value, a book's level.
fn depth_field(c: Certainty) -> String {
    match c {
        Certainty::Estimate { depth } => depth.to_string(),
        Certainty::WinLossDraw => "100%W".to_string(),
        Certainty::Exact => "100%".to_string(),
        Certainty::Book { level, .. } => level.to_string(),
    }
}

/// The `search PV EVAL 0 DEPTH` line of a move value, or for a book value
/// the `book PV EVAL GAMES DEPTH` line (NBoard marks those as book moves;
/// the depth is the level of the book's searches).
#[must_use]
pub fn search_line(v: &MoveValue) -> String {
    let pv: Vec<String> = v.line.iter().map(|&m| move_name(m)).collect();
    let (kind, games) = match v.certainty {
        Certainty::Book { games, .. } => ("book", games),
        _ => ("search", 0),
    };
    format!(
        "{kind} {} {:.2} {games} {}",
        pv.join("-"),
        v.value,
        depth_field(v.certainty)
    )
}

impl<S: MoveSearch + 'static> NboardSession<S> {
    /// A session at the 8x8 start position whose replies go to `out`.
    pub fn new(search: S, limits: Limits, out: Sender<String>) -> NboardSession<S> {
        NboardSession {
            game: GameRecord::new(Position::start(8)),
            limits,
            contempt: 0,
            out,
            idle: Some(search),
            running: None,
        }
    }

    /// The game the session is at.
    #[must_use]
    pub fn game(&self) -> &GameRecord {
        &self.game
    }

    /// The contempt set by the GUI (centi-discs, a draw's value for black).
    #[must_use]
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    fn send(&self, line: String) {
        // A closed receiver means the front end is gone: nothing to tell.
        let _ = self.out.send(line);
    }

    /// Stops the running search (if any) and waits for it.
    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
        self.wait();
    }

    /// Waits for the running search (if any) to finish by itself.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(search) => self.idle = Some(search),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "quit" => {
                self.stop();
                return Flow::Quit;
            }
            "ping" => {
                self.stop();
                self.send(format!("pong {rest}"));
            }
            "nboard" => self.stop(),
            "set" => {
                self.stop();
                self.set(rest);
            }
            "move" => {
                self.stop();
                self.play(rest);
            }
            "hint" => {
                self.stop();
                let n = rest.parse::<usize>().unwrap_or(1).max(1);
                self.search(Task::Hint(n));
            }
            "go" => {
                self.stop();
                self.search(Task::Go);
            }
            "analyze" => {
                self.stop();
                self.search(Task::Analyze);
            }
            "learn" => {
                self.stop();
                self.send("learned".to_string());
            }
            _ => {}
        }
        Flow::Continue
    }

    fn set(&mut self, rest: &str) {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        match what {
            "depth" => {
                if let Ok(d) = value.parse::<u32>() {
                    // The name it answers is the level it will play.
                    let d = Level::played(d);
                    self.limits.level = Some(d);
                    self.send(format!("set myname reversi{d}"));
                }
            }
            "game" => match parse_ggf(value) {
                Ok(g) => {
                    self.game = g;
                    if let Some(s) = self.idle.as_mut() {
                        s.clear();
                    }
                }
                Err(e) => self.send(format!("status cannot read the game: {e}")),
            },
            "contempt" => {
                if let Ok(c) = value.parse::<f64>() {
                    self.contempt = c.round().clamp(-6400.0, 6400.0) as i32;
                    self.limits.contempt = Discs(f64::from(self.contempt) / 100.0);
                }
            }
            _ => {}
        }
    }

    fn play(&mut self, text: &str) {
        let mut parts = text.split('/');
        let name = parts.next().unwrap_or("").trim();
        let eval = parts.next().and_then(|e| e.trim().parse::<f64>().ok());
        let seconds = parts.next().and_then(|e| e.trim().parse::<f64>().ok());
        let Ok(mv) = name.parse::<Move>() else {
            self.send(format!("status cannot read the move {name:?}"));
            return;
        };
        let p = self.game.last();
        if mv != Move::Pass && p.board.moves(p.to_move) == 0 && !p.board.is_game_over() {
            // The side to move must pass; the GUI sent the next move at once.
            let _ = self.game.push(RecordedMove::plain(Move::Pass));
        }
        if let Err(e) = self.game.push(RecordedMove { mv, eval, seconds }) {
            self.send(format!("status move {name} refused: {e}"));
        }
    }

    fn search(&mut self, task: Task) {
        let Some(mut search) = self.idle.take() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let out = self.out.clone();
        let game = self.game.clone();
        let limits = self.limits;
        let handle = std::thread::spawn(move || {
            run(task, &mut search, &game, &limits, &flag, &out);
            search
        });
        self.running = Some(Running { stop, handle });
    }
}

/// What a worker thread does.
#[derive(Clone, Copy, Debug)]
enum Task {
    Hint(usize),
    Go,
    Analyze,
}

fn run(
    task: Task,
    search: &mut dyn MoveSearch,
    game: &GameRecord,
    limits: &Limits,
    stop: &AtomicBool,
    out: &Sender<String>,
) {
    let send = |s: String| {
        let _ = out.send(s);
    };
    let start = Instant::now();
    let p = game.last();
    match task {
        Task::Hint(n) => {
            send("status thinking".to_string());
            let mut progress = |values: &[MoveValue]| {
                for v in values {
                    send(search_line(v));
                }
            };
            let values = search.rank_moves(&p, n, limits, stop, &mut progress);
            if values.is_empty() {
                send("status the game is over".to_string());
            }
            send(nodestats(search.nodes(), start));
            send("status".to_string());
        }
        Task::Go => {
            let values = search.rank_moves(&p, 1, limits, stop, &mut |_| {});
            let seconds = start.elapsed().as_secs_f64();
            send(nodestats(search.nodes(), start));
            match values.first() {
                Some(v) => send(format!(
                    "=== {}/{:.2}/{seconds:.1}",
                    move_name(v.mv),
                    v.value
                )),
                None => send("status the game is over".to_string()),
            }
        }
        Task::Analyze => {
            send("status analysing".to_string());
            // Every position's value for its side to move, from the last
            // (near the end: exact and quick) to the first.
            for (made, p) in game.positions().iter().enumerate().rev() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let (v, _) = position_value(search, p, limits, stop);
                send(format!("analysis {made} {v:.2}"));
            }
            send("status".to_string());
        }
    }
}

fn nodestats(nodes: u64, start: Instant) -> String {
    format!("nodestats {nodes} {:.2}", start.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::reversi::Reversi;
    use std::sync::mpsc::{channel, Receiver};

    /// A stand-in search: every move is worth its square number, exact.
    struct Squares(u64);

    impl MoveSearch for Squares {
        fn rank_moves(
            &mut self,
            p: &Position,
            count: usize,
            _: &Limits,
            _: &AtomicBool,
            progress: &mut dyn FnMut(&[MoveValue]),
        ) -> Vec<MoveValue> {
            self.0 += 1;
            let mut v: Vec<MoveValue> = Reversi::DISC_DIFFERENCE
                .moves(p)
                .map(|mv| MoveValue {
                    mv,
                    value: match mv {
                        Move::Place(sq) => Discs(f64::from(sq.0)),
                        Move::Pass => Discs(-1.0),
                    },
                    certainty: Certainty::Exact,
                    line: vec![mv],
                })
                .collect();
            v.sort_by(|a, b| b.value.0.total_cmp(&a.value.0));
            v.truncate(count);
            progress(&v);
            v
        }
        fn nodes(&self) -> u64 {
            self.0
        }
        fn clear(&mut self) {}
    }

    fn session() -> (NboardSession<Squares>, Receiver<String>) {
        let (tx, rx) = channel();
        (NboardSession::new(Squares(0), Limits::default(), tx), rx)
    }

    fn drain(s: &mut NboardSession<Squares>, rx: &Receiver<String>) -> Vec<String> {
        s.wait();
        rx.try_iter().collect()
    }

    #[test]
    fn a_move_after_a_forced_pass_may_leave_the_pass_out() {
        let game = Reversi::DISC_DIFFERENCE;
        let mut rng = crate::rng::Rng::new(11);
        let record = loop {
            let mut g = GameRecord::new(Position::start(8));
            let found = loop {
                let moves: Vec<Move> = game.moves(&g.last()).collect();
                if moves.is_empty() {
                    break false;
                }
                if moves == [Move::Pass] {
                    break true;
                }
                g.push(RecordedMove::plain(*rng.pick(&moves))).unwrap();
            };
            if found {
                break g;
            }
        };
        let (mut s, rx) = session();
        s.handle(&format!("set game {}", crate::record::write_ggf(&record)));
        let after = game.play(&record.last(), Move::Pass);
        let Some(Move::Place(sq)) = game.moves(&after).next() else {
            panic!("the other side moves")
        };
        s.handle(&format!("move {}", sq.to_string().to_ascii_uppercase()));
        assert_eq!(drain(&mut s, &rx), Vec::<String>::new());
        assert_eq!(s.game().moves.len(), record.moves.len() + 2);
        assert_eq!(s.game().moves[record.moves.len()].mv, Move::Pass);
    }

    #[test]
    fn a_depth_past_the_deepest_level_names_the_level_played() {
        let (mut s, rx) = session();
        for (asked, named) in [("0", 1), ("30", 30), ("31", 30), ("99", 30)] {
            s.handle(&format!("set depth {asked}"));
            assert_eq!(
                drain(&mut s, &rx),
                [format!("set myname reversi{named}")],
                "{asked}"
            );
            assert_eq!(s.limits.level, Some(named), "{asked}");
        }
    }

    #[test]
    fn replies_through_any_move_search() {
        let (mut s, rx) = session();
        s.handle("nboard 2");
        s.handle("set depth 3");
        s.handle("move f5");
        s.handle("hint 2");
        let out = drain(&mut s, &rx);
        // After f5 white has d6 (43), f6 (45), f4 (29).
        assert_eq!(out[0], "set myname reversi3");
        assert_eq!(out[1], "status thinking");
        assert_eq!(out[2], "search F6 45.00 0 100%");
        assert_eq!(out[3], "search D6 43.00 0 100%");
        assert!(out[4].starts_with("nodestats 1 "), "{out:?}");
        s.handle("go");
        let out = drain(&mut s, &rx);
        assert!(out.last().unwrap().starts_with("=== F6/45.00/"), "{out:?}");
        // go does not play the move.
        assert_eq!(s.game().moves.len(), 1);
        s.handle("ping 5");
        assert_eq!(drain(&mut s, &rx), vec!["pong 5"]);
        s.handle("set contempt 150");
        assert_eq!(s.contempt(), 150);
        assert_eq!(s.handle("quit"), Flow::Quit);
    }

    #[test]
    fn random_lines_never_break_the_session() {
        let words = [
            "nboard",
            "2",
            "set",
            "depth",
            "game",
            "contempt",
            "move",
            "hint",
            "go",
            "ping",
            "learn",
            "analyze",
            "F5",
            "d6",
            "PA",
            "/",
            "//1.5",
            "1e400",
            "-3",
            "(;GM[Othello];)",
            "(;B[f5",
            "myname",
            "x",
        ];
        let mut rng = crate::rng::Rng::new(8);
        let (mut s, rx) = session();
        for _ in 0..3000 {
            let n = 1 + rng.below(4);
            let line: Vec<&str> = (0..n).map(|_| *rng.pick(&words)).collect();
            let line = line.join(" ");
            if line.starts_with("quit") {
                continue;
            }
            assert_eq!(s.handle(&line), Flow::Continue);
            s.wait();
            for reply in rx.try_iter() {
                assert!(!reply.contains('\n') && !reply.contains("NaN"), "{reply:?}");
            }
        }
    }

    #[test]
    fn a_value_of_zero_is_sent_without_a_minus_sign() {
        for value in [-0.0, -0.001] {
            let v = MoveValue {
                mv: Move::Pass,
                value: Discs(value),
                certainty: Certainty::Estimate { depth: 3 },
                line: vec![Move::Pass],
            };
            let line = search_line(&v);
            assert!(line.contains(" 0.00 0 3") && !line.contains('-'), "{line}");
        }
    }
}
