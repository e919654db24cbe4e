//! Cross-checks of the engine against independent code: a naive move
//! generator (plain loops over squares and directions) for perft, and the
//! library's plain minimax over the full tree for the solver.

use super::*;
use crate::board::Board;
use crate::board::Color;
use crate::game::{Game, Side, Value};
use crate::reversi::{self as rv, Reversi};
use crate::rng::Rng;
use crate::search::minimax;
use crate::units::Score;

/// A board as cells: 0 empty, 1 side to move, 2 opponent.
#[derive(Clone)]
struct Naive {
    n: i32,
    cells: Vec<u8>,
}

impl Naive {
    fn from(pos: &RelativePosition) -> Naive {
        let n = i32::from(pos.size());
        let mut cells = vec![0u8; (n * n) as usize];
        for r in 0..n {
            for c in 0..n {
                let bit = 1u64 << (r * 8 + c);
                cells[(r * n + c) as usize] = if pos.player & bit != 0 {
                    1
                } else if pos.opponent & bit != 0 {
                    2
                } else {
                    0
                };
            }
        }
        Naive { n, cells }
    }

    /// The discs flipped by the mover at (r, c), walking each direction.
    fn flips(&self, r: i32, c: i32) -> Vec<usize> {
        let mut all = Vec::new();
        if self.cells[(r * self.n + c) as usize] != 0 {
            return all;
        }
        for dr in -1..=1 {
            for dc in -1..=1 {
                if dr == 0 && dc == 0 {
                    continue;
                }
                let mut line = Vec::new();
                let (mut y, mut x) = (r + dr, c + dc);
                while y >= 0 && y < self.n && x >= 0 && x < self.n {
                    match self.cells[(y * self.n + x) as usize] {
                        2 => line.push((y * self.n + x) as usize),
                        1 => {
                            all.extend(&line);
                            break;
                        }
                        _ => break,
                    }
                    y += dr;
                    x += dc;
                }
            }
        }
        all
    }

    fn children(&self) -> Vec<Naive> {
        let mut out = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                let f = self.flips(r, c);
                if !f.is_empty() {
                    let mut b = self.clone();
                    for i in f {
                        b.cells[i] = 1;
                    }
                    b.cells[(r * self.n + c) as usize] = 1;
                    b.swap();
                    out.push(b);
                }
            }
        }
        out
    }

    fn swap(&mut self) {
        for v in &mut self.cells {
            *v = match *v {
                1 => 2,
                2 => 1,
                x => x,
            };
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let kids = self.children();
        if kids.is_empty() {
            let mut passed = self.clone();
            passed.swap();
            if passed.children().is_empty() {
                return 1;
            }
            return passed.perft(depth - 1);
        }
        kids.iter().map(|k| k.perft(depth - 1)).sum()
    }
}

/// A random position `plies` random moves (passes included) after the
/// start of a board of `size`, with its colour to move (the crate's one
/// random-position helper).
fn random_position(rng: &mut Rng, size: u8, plies: u32) -> (RelativePosition, Color) {
    let p = rv::random_position(size, plies as usize, rng);
    (RelativePosition::from_board(&p.board, p.to_move), p.to_move)
}

#[test]
fn perft_matches_naive_generator_from_start() {
    for (size, max_depth) in [(4u8, 12u32), (6, 6)] {
        let p = RelativePosition::start(size);
        let naive = Naive::from(&p);
        for d in 0..=max_depth {
            assert_eq!(perft(&p, d), naive.perft(d), "{size}x{size} depth {d}");
        }
    }
}

#[test]
fn perft_matches_naive_generator_from_random_positions() {
    let mut rng = Rng::new(0xDEAD_BEEF_1234_5678);
    for round in 0..60 {
        let size = if round % 2 == 0 { 4 } else { 6 };
        let plies = (rng.next_u64() % if size == 4 { 12 } else { 28 }) as u32;
        let (p, _) = random_position(&mut rng, size, plies);
        let naive = Naive::from(&p);
        let max_depth = if size == 4 { 7 } else { 4 };
        for d in 1..=max_depth {
            assert_eq!(perft(&p, d), naive.perft(d), "{p:?} depth {d}");
        }
    }
}

/// Reversi scored by the standard rule (empties to the winner), black's
/// point of view, for the library's plain minimax.
struct Standard;

impl Game for Standard {
    type State = rv::Position;
    type Move = rv::Move;
    type Moves = rv::Moves;

    fn side(&self, s: &rv::Position) -> Side {
        Reversi::DISC_DIFFERENCE.side(s)
    }
    fn moves(&self, s: &rv::Position) -> rv::Moves {
        Reversi::DISC_DIFFERENCE.moves(s)
    }
    fn play(&self, s: &rv::Position, m: rv::Move) -> rv::Position {
        Reversi::DISC_DIFFERENCE.play(s, m)
    }
    fn utility(&self, s: &rv::Position) -> Value {
        let d = s.board.disc_difference();
        let e = s.board.empty().count_ones() as Value;
        d + d.signum() * e
    }
}

/// The solver's score from black's point of view.
fn black_score(solver: &mut EndgameSolver, pos: &RelativePosition, to_move: Color) -> i32 {
    let s = solver.solve(pos).score.0;
    if to_move == Color::Black {
        s
    } else {
        -s
    }
}

#[test]
fn four_by_four_start_matches_full_minimax() {
    let root = rv::Position::start(4);
    let pos = RelativePosition::start(4);
    let standard = minimax(&Standard, &root).value;
    let discs = minimax(&Reversi::DISC_DIFFERENCE, &root).value;
    assert_eq!((standard, discs), (-10, -8));
    assert_eq!(
        EndgameSolver::new(Scoring::Standard).solve(&pos).score,
        Score(-10)
    );
    assert_eq!(
        EndgameSolver::new(Scoring::DiscsOnly).solve(&pos).score,
        Score(-8)
    );
}

#[test]
fn solver_matches_minimax_on_random_small_positions() {
    let mut rng = Rng::new(0x0123_4567_89AB_CDEF);
    let mut standard = EndgameSolver::with_table_bits(Scoring::Standard, 12);
    let mut discs = EndgameSolver::with_table_bits(Scoring::DiscsOnly, 12);
    for round in 0..80 {
        let size = if round % 4 == 3 { 6 } else { 4 };
        let plies = if size == 4 {
            (rng.next_u64() % 12) as u32
        } else {
            24 + (rng.next_u64() % 8) as u32
        };
        let (pos, to_move) = random_position(&mut rng, size, plies);
        let board: Board = pos.to_board(to_move);
        let root = rv::Position { board, to_move };
        let m_std = minimax(&Standard, &root).value;
        let m_disc = minimax(&Reversi::DISC_DIFFERENCE, &root).value;
        assert_eq!(black_score(&mut standard, &pos, to_move), m_std, "{root:?}");
        assert_eq!(black_score(&mut discs, &pos, to_move), m_disc, "{root:?}");
    }
}

#[test]
fn best_move_reaches_the_score() {
    let mut rng = Rng::new(42);
    let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 12);
    for _ in 0..40 {
        let plies = (rng.next_u64() % 10) as u32;
        let (pos, _) = random_position(&mut rng, 4, plies);
        let s = solver.solve(&pos);
        let child = match s.best {
            Some(rv::Move::Place(sq)) => pos.play(sq.0),
            Some(rv::Move::Pass) => pos.pass(),
            None => continue,
        };
        assert_eq!(-solver.solve(&child).score, s.score, "{pos:?}");
    }
}

#[test]
fn solve_is_deterministic() {
    let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";
    let pos = parse_obf(line, 1).unwrap().position;
    let a = EndgameSolver::new(Scoring::Standard).solve(&pos);
    let mut s = EndgameSolver::new(Scoring::Standard);
    let _ = s.solve(&RelativePosition::start(4));
    let b = s.solve(&pos);
    assert_eq!(a, b);
    assert_eq!(a.score, Score(18));
}

/// FFO #1-#10 (14-16 empties) with their published best scores.
fn ffo_1_to_10() -> Vec<(RelativePosition, i32)> {
    let text = include_str!("../../tests/data/ffo/fforum-1-19.obf");
    crate::engine::parse_obf_file(text)
        .unwrap()
        .into_iter()
        .zip(text.lines().filter(|l| !l.trim().is_empty()))
        .take(10)
        .map(|(p, line)| {
            // The first listed move's score, after "X;" or "O;".
            let after = line.split(';').nth(1).unwrap();
            let score: i32 = after.split(':').nth(1).unwrap().trim().parse().unwrap();
            (p.position, score)
        })
        .collect()
}

#[test]
fn threaded_solve_matches_one_thread_on_ffo_1_to_10() {
    let mut one = EndgameSolver::with_table_bits(Scoring::Standard, 16);
    let mut two = EndgameSolver::with_table_bits(Scoring::Standard, 16);
    for (pos, score) in ffo_1_to_10() {
        let a = one.solve(&pos);
        let b = two.solve_parallel(&pos, 2, &mut |_| {});
        assert_eq!((a.score.0, b.score.0), (score, score), "{pos:?}");
    }
}

#[test]
fn threaded_solve_matches_minimax_on_random_6x6_positions() {
    let mut rng = Rng::new(7);
    let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 12);
    let mut threaded = EndgameSolver::with_table_bits(Scoring::Standard, 12);
    for _ in 0..30 {
        let plies = 14 + (rng.next_u64() % 4) as u32;
        let (pos, _) = random_position(&mut rng, 6, plies);
        let a = solver.solve(&pos).score;
        for threads in [2, 3, 8] {
            let b = threaded.solve_parallel(&pos, threads, &mut |_| {}).score;
            assert_eq!(a, b, "{pos:?} threads {threads}");
        }
    }
}

#[test]
fn null_window_proofs_and_principal_line() {
    let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 16);
    for (pos, score) in ffo_1_to_10().into_iter().take(4) {
        solver.clear();
        for threads in [1, 2] {
            // Fail-soft: a result at or above beta is a lower bound of the
            // score, one at or below alpha an upper bound.
            let lower = solver.solve_window(&pos, score - 1, score, threads, &mut |_| {});
            assert_eq!(lower.score.0, score, "{pos:?} >= {score}");
            let upper = solver.solve_window(&pos, score, score + 1, threads, &mut |_| {});
            assert_eq!(upper.score.0, score, "{pos:?} <= {score}");
            let above = solver.solve_window(&pos, score + 1, score + 3, threads, &mut |_| {});
            assert!((score..=score + 1).contains(&above.score.0), "{pos:?}");
            let below = solver.solve_window(&pos, score - 3, score - 1, threads, &mut |_| {});
            assert!((score - 1..=score).contains(&below.score.0), "{pos:?}");
        }
        // Playing the line out ends the game with the score.
        let line = solver.principal_line(&pos, Score(score));
        let (mut p, mut sign) = (pos, 1);
        for m in line {
            p = match m {
                rv::Move::Place(sq) => p.play(sq.0),
                rv::Move::Pass => p.pass(),
            };
            sign = -sign;
        }
        assert!(p.is_game_over());
        let final_score = EndgameSolver::new(Scoring::Standard).solve(&p).score.0;
        assert_eq!(sign * final_score, score, "{pos:?}");
    }
}
