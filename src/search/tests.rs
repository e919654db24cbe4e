//! Properties of the counted searches on random reachable Reversi states,
//! against the plain minimax of this module as the reference, and of the
//! board against a naive square-by-square move generator.

use super::*;
use crate::board::{Board, Color, Square};
use crate::game::{Evaluator, Game, Value};
use crate::reversi::{random_position, Move, Position, Reversi};
use crate::rng::Rng;

/// Random reachable states of a size, a spread of game stages.
fn sample(size: u8, count: usize, min_plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let cells = usize::from(size) * usize::from(size);
    (0..count)
        .map(|_| {
            let plies = min_plies + rng.below(cells - 4 - min_plies + 3);
            random_position(size, plies, &mut rng)
        })
        .collect()
}

const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Naive flips: walk each direction square by square.
fn naive_flips(b: &Board, color: Color, sq: Square) -> u64 {
    if b.get(sq).is_some() {
        return 0;
    }
    let n = i32::from(b.size());
    let mut all = 0;
    for (dr, dc) in DIRS {
        let (mut r, mut c) = (i32::from(sq.row()) + dr, i32::from(sq.col()) + dc);
        let mut line = 0;
        while (0..n).contains(&r) && (0..n).contains(&c) {
            let s = Square::new(r as u8, c as u8);
            match b.get(s) {
                Some(x) if x == color.other() => line |= s.bit(),
                Some(_) => {
                    all |= line;
                    break;
                }
                None => break,
            }
            r += dr;
            c += dc;
        }
    }
    all
}

#[test]
fn move_generation_matches_naive_loops() {
    for size in crate::board::SIZES {
        for p in sample(size, 300, 0, 7 + u64::from(size)) {
            for color in [Color::Black, Color::White] {
                let mut naive_moves = 0;
                for sq in p.board.squares() {
                    let f = naive_flips(&p.board, color, sq);
                    assert_eq!(p.board.flips(color, sq), f, "{p:?} {color:?} {sq}");
                    if f != 0 {
                        naive_moves |= sq.bit();
                    }
                }
                assert_eq!(p.board.moves(color), naive_moves, "{p:?} {color:?}");
            }
        }
    }
}

#[test]
fn successors_place_one_disc_and_flip_lines() {
    let game = Reversi::WIN_LOSS;
    for size in crate::board::SIZES {
        for p in sample(size, 200, 0, 11 + u64::from(size)) {
            let me = p.to_move;
            let discs = p.board.count(Color::Black) + p.board.count(Color::White);
            let succ = game.successors(&p);
            if succ.is_empty() {
                assert!(p.board.is_game_over());
                continue;
            }
            for (mv, child) in succ {
                assert_eq!(child.to_move, me.other());
                match mv {
                    Move::Pass => {
                        assert_eq!(p.board.moves(me), 0);
                        assert_ne!(p.board.moves(me.other()), 0);
                        assert_eq!(child.board, p.board);
                    }
                    Move::Place(sq) => {
                        let flipped = naive_flips(&p.board, me, sq);
                        assert_ne!(flipped, 0);
                        assert_eq!(
                            child.board.discs(me),
                            p.board.discs(me) | flipped | sq.bit()
                        );
                        assert_eq!(
                            child.board.discs(me.other()),
                            p.board.discs(me.other()) & !flipped
                        );
                        let after =
                            child.board.count(Color::Black) + child.board.count(Color::White);
                        assert_eq!(after, discs + 1);
                    }
                }
            }
        }
    }
}

fn assert_same_choice<G: Game, E: Evaluator<G>>(game: &G, state: &G::State, limit: &Limit<E>) {
    let mm = minimax_with(game, state, limit, &mut NoObserver);
    let ab = alphabeta_with(game, state, limit, &mut NoObserver);
    assert_eq!((ab.value, ab.best), (mm.value, mm.best), "{state:?}");
    assert!(
        ab.nodes <= mm.nodes,
        "{state:?}: {} > {}",
        ab.nodes,
        mm.nodes
    );
}

#[test]
fn alphabeta_equals_minimax_on_4x4() {
    let states = sample(4, 400, 0, 1);
    assert!(states
        .iter()
        .any(|p| Reversi::WIN_LOSS.moves(p).next() == Some(Move::Pass)));
    assert!(states.iter().any(|p| p.to_move == Color::White));
    for p in &states {
        assert_same_choice(&Reversi::WIN_LOSS, p, &Limit::NONE);
        assert_same_choice(&Reversi::DISC_DIFFERENCE, p, &Limit::NONE);
    }
}

#[test]
fn alphabeta_equals_minimax_near_the_end_of_6x6() {
    for p in sample(6, 60, 23, 2) {
        assert_same_choice(&Reversi::WIN_LOSS, &p, &Limit::NONE);
    }
}

struct Discs;
impl Evaluator<Reversi> for Discs {
    fn evaluate(&self, _: &Reversi, p: &Position) -> Value {
        p.board.disc_difference()
    }
}

#[test]
fn alphabeta_equals_minimax_with_a_depth_limit() {
    for size in [6, 8] {
        for p in sample(size, 60, 0, 3) {
            for depth in 1..=3 {
                assert_same_choice(&Reversi::DISC_DIFFERENCE, &p, &Limit::depth(depth, Discs));
            }
        }
    }
}

#[test]
fn terminal_root_counts_one_node() {
    let p = Position {
        board: Board::from_digits("2222222222222221").unwrap(),
        to_move: Color::Black,
    };
    let out = minimax(&Reversi::WIN_LOSS, &p);
    assert_eq!((out.value, out.best, out.nodes), (-1, None, 1));
}

/// An observer that looks at every node, so the searches never take the
/// game's subtree shortcut: the node-by-node reference.
struct Watching;
impl<G: Game> Observer<G> for Watching {}

#[test]
fn subtree_shortcut_equals_node_by_node_minimax() {
    let (mut shortcuts, mut passes) = (0, 0);
    // The last few plies of every size (where the shortcut applies), and
    // whole 4x4 games from any stage.
    let mut states = sample(4, 40, 0, 50);
    for size in crate::board::SIZES {
        let cells = usize::from(size) * usize::from(size);
        states.extend(sample(size, 300, cells - 8, 40 + u64::from(size)));
    }
    for p in &states {
        for game in [Reversi::WIN_LOSS, Reversi::DISC_DIFFERENCE] {
            let reference = minimax_with(&game, p, &Limit::NONE, &mut Watching);
            let fast = minimax(&game, p);
            assert_eq!(fast, reference, "{p:?}");
            if let Some((value, nodes)) = game.minimax_subtree(p) {
                assert_eq!((value, nodes), (reference.value, reference.nodes), "{p:?}");
                shortcuts += 1;
                if game.moves(p).next() == Some(Move::Pass) {
                    passes += 1;
                }
            }
        }
    }
    assert!(
        shortcuts > 200,
        "only {shortcuts} positions took the shortcut"
    );
    assert!(
        passes > 5,
        "only {passes} shortcut positions start with a pass"
    );
}

#[test]
fn start_of_4x4_counts_the_same_node_by_node() {
    let game = Reversi::WIN_LOSS;
    let out = minimax_with(&game, &Position::start(4), &Limit::NONE, &mut Watching);
    assert_eq!((out.value, out.nodes), (-1, 224_821));
    assert_eq!(out, minimax(&game, &Position::start(4)));
}
