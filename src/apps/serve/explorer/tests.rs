//! Tests of the explorer trees.
use super::*;
use crate::board::Board;
use crate::board::Color;
use crate::eval::Heuristic;
use crate::search::{alphabeta, minimax};
use std::time::Duration;

fn start() -> Position {
    Position {
        board: Board::from_digits("0000021001200000").unwrap(),
        to_move: Color::Black,
    }
}

fn caps() -> Caps {
    Caps {
        max_nodes: 1_000_000,
        deadline: Instant::now() + Duration::from_secs(600),
    }
}

fn spec(algorithm: Algorithm, order: MoveOrder) -> SearchSpec {
    SearchSpec {
        root: start(),
        algorithm,
        order,
        depth: None,
        eval: Heuristic::Disc,
    }
}

/// Alpha-beta's tree of the start position in natural order, to the end.
fn natural_alphabeta_tree() -> Tree {
    let never = AtomicBool::new(false);
    search(
        spec(Algorithm::AlphaBeta, MoveOrder::Natural),
        caps(),
        &never,
    )
    .unwrap()
}

#[test]
fn natural_order_trees_have_the_contracts_value_and_count() {
    let never = AtomicBool::new(false);
    let game = Reversi::WIN_LOSS;
    for (algorithm, lib) in [
        (Algorithm::Minimax, minimax(&game, &start())),
        (Algorithm::AlphaBeta, alphabeta(&game, &start())),
    ] {
        let t = search(spec(algorithm, MoveOrder::Natural), caps(), &never).unwrap();
        assert_eq!(
            (t.value(), t.count(), t.best()),
            (lib.value, lib.nodes, lib.best)
        );
        assert_eq!(t.len() as u64, lib.nodes);
        assert_eq!(t.recs[0].size as usize, t.len());
    }
}

#[test]
fn best_order_keeps_the_value_and_prunes_more_here() {
    let never = AtomicBool::new(false);
    let natural = search(
        spec(Algorithm::AlphaBeta, MoveOrder::Natural),
        caps(),
        &never,
    );
    let best = search(spec(Algorithm::AlphaBeta, MoveOrder::Best), caps(), &never);
    let (natural, best) = (natural.unwrap(), best.unwrap());
    assert_eq!(natural.value(), best.value());
    assert_ne!(natural.count(), best.count());
    // Best-order minimax visits the same tree, only in another order.
    let mm = search(spec(Algorithm::Minimax, MoveOrder::Best), caps(), &never).unwrap();
    assert_eq!(mm.count(), 224_821);
}

#[test]
fn details_agree_with_a_search_from_the_node() {
    // Every child's value is the value of a fresh search from its position.
    let never = AtomicBool::new(false);
    let t = search(spec(Algorithm::Minimax, MoveOrder::Natural), caps(), &never).unwrap();
    let root = t.detail(0).unwrap();
    assert_eq!(root.children.len(), 4);
    assert!(root.on_chosen_line);
    let mut total = 1;
    for c in &root.children {
        let d = t.detail(c.index).unwrap();
        let fresh = minimax(&Reversi::WIN_LOSS, &d.position);
        assert_eq!((c.value, u64::from(c.size)), (fresh.value, fresh.nodes));
        total += c.size;
    }
    assert_eq!(total as usize, t.len());
    // The chosen line starts with the search's best move and keeps the value.
    let line = t.chosen_line();
    assert_eq!(t.detail(line[1]).unwrap().node.mv, t.best());
    for &n in &line {
        let d = t.detail(n).unwrap();
        assert_eq!(d.node.value, t.value());
        assert!(d.on_chosen_line);
    }
    assert!(t.detail(*line.last().unwrap()).unwrap().node.leaf);
}

#[test]
fn pruned_moves_are_the_rest_of_the_order() {
    let t = natural_alphabeta_tree();
    let mut seen = 0;
    for i in 0..t.len() as u32 {
        let d = t.detail(i).unwrap();
        let all: Vec<Move> = Reversi::WIN_LOSS.moves(&d.position).collect();
        assert_eq!(d.children.len() + d.pruned.len(), all.len(), "node {i}");
        if !d.pruned.is_empty() {
            seen += 1;
            assert!(d.node.cutoff);
        }
        if seen > 50 {
            break;
        }
    }
    assert!(seen > 0);
}

#[test]
fn steps_replay_the_visit_order() {
    let t = natural_alphabeta_tree();
    let s0 = t.step(0).unwrap();
    assert_eq!((s0.count, s0.path.len()), (1, 1));
    assert!(s0.path[0]
        .children
        .iter()
        .all(|c| c.2 == ChildState::Waiting || c.2 == ChildState::Current));
    // Step k enters node k, whose parent is on the path.
    for k in 1..200 {
        let s = t.step(k).unwrap();
        assert_eq!(s.path.last().unwrap().node.index, k);
        let parent = &s.path[s.path.len() - 2];
        assert!(parent
            .children
            .iter()
            .any(|c| c.1 == Some(k) && c.2 == ChildState::Current));
    }
    // The last step has every child of the root finished or pruned.
    let last = t.step(t.len() as u32 - 1).unwrap();
    assert!(last.path[0]
        .children
        .iter()
        .all(|c| c.2 != ChildState::Waiting));
    assert!(t.step(t.len() as u32).is_none());
}

#[test]
fn caps_and_cancellation_stop_the_search() {
    let never = AtomicBool::new(false);
    let small = Caps {
        max_nodes: 1000,
        ..caps()
    };
    let err = search(spec(Algorithm::Minimax, MoveOrder::Natural), small, &never);
    assert_eq!(err.unwrap_err(), Stopped::TooManyNodes(1000));
    let late = Caps {
        deadline: Instant::now(),
        ..caps()
    };
    let err = search(spec(Algorithm::Minimax, MoveOrder::Natural), late, &never);
    assert_eq!(err.unwrap_err(), Stopped::OutOfTime);
    let cancel = AtomicBool::new(true);
    let err = search(
        spec(Algorithm::Minimax, MoveOrder::Natural),
        caps(),
        &cancel,
    );
    assert_eq!(err.unwrap_err(), Stopped::Cancelled);
}

#[test]
fn the_replay_has_a_cutoff_event_per_cut_node_and_keeps_the_count() {
    let never = AtomicBool::new(false);
    for order in [MoveOrder::Natural, MoveOrder::Best] {
        let t = search(spec(Algorithm::AlphaBeta, order), caps(), &never).unwrap();
        let cut_nodes = (0..t.len() as u32)
            .filter(|&k| t.detail(k).unwrap().node.cutoff)
            .count();
        assert!(cut_nodes > 0);
        assert_eq!(t.events(), t.len() + cut_nodes);
        // Every node entered once, in visit order; the counter counts entries only.
        let mut entered = 0u32;
        let mut last_count = 0;
        for e in 0..t.events() as u32 {
            match t.event(e).unwrap() {
                Event::Enter(k) => {
                    assert_eq!(k, entered);
                    assert_eq!(t.enter_event(k), e);
                    entered += 1;
                    last_count = t.step(k).unwrap().count;
                }
                Event::Cutoff(k) => {
                    // Right after the last node of its subtree.
                    let d = t.detail(k).unwrap();
                    assert_eq!(entered, k + d.node.size);
                    let (s, c) = t.cutoff(k).unwrap();
                    assert_eq!(s.count, last_count);
                    assert_eq!(c.pruned, d.pruned);
                    assert!(!c.pruned.is_empty());
                    // The window is closed by the value of its searched children.
                    assert!(c.window.alpha >= c.window.beta, "{c:?}");
                    if c.max {
                        assert!(c.value >= c.node.window.beta, "{c:?}");
                    } else {
                        assert!(c.value <= c.node.window.alpha, "{c:?}");
                    }
                }
            }
        }
        assert_eq!(entered as usize, t.len());
        assert_eq!(last_count, t.count());
        assert!(t.event(t.events() as u32).is_none());
    }
    // Minimax never cuts off: its replay is its nodes.
    let t = search(spec(Algorithm::Minimax, MoveOrder::Natural), caps(), &never).unwrap();
    assert_eq!(t.events(), t.len());
}

#[test]
fn the_cutoffs_around_an_event_are_the_nearest_cutoff_events() {
    let t = natural_alphabeta_tree();
    let cutoffs: Vec<u32> = (0..t.events() as u32)
        .filter(|&e| matches!(t.event(e), Some(Event::Cutoff(_))))
        .collect();
    assert!(!cutoffs.is_empty());
    for e in 0..t.events() as u32 {
        let next = cutoffs.iter().copied().find(|&c| c > e);
        let prev = cutoffs.iter().copied().rev().find(|&c| c < e);
        assert_eq!(t.cutoffs_around(e), (prev, next), "event {e}");
    }
}
