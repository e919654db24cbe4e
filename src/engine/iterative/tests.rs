//! Tests of the parent module.
use super::*;
use crate::eval::Heuristic;
use crate::search::{alphabeta_with, minimax_with, Limit, NoObserver};

fn positions(size: u8, count: usize) -> Vec<Position> {
    let game = Reversi::DISC_DIFFERENCE;
    let mut out = Vec::new();
    let mut x = 7u64;
    let mut p = Position::start(size);
    while out.len() < count {
        if game.is_terminal(&p) {
            p = Position::start(size);
        }
        out.push(p);
        let moves: Vec<_> = game.moves(&p).collect();
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        p = game.play(&p, moves[(x >> 33) as usize % moves.len()]);
    }
    out
}

#[test]
fn natural_order_is_the_counted_alphabeta() {
    let game = Reversi::DISC_DIFFERENCE;
    for size in [4u8, 6] {
        for h in [Heuristic::Disc, Heuristic::Strong] {
            let e = IterativeSearch {
                order: MoveOrder::Natural,
                prune: true,
                eval: h,
            };
            for p in positions(size, 25) {
                let lib = alphabeta_with(&game, &p, &Limit::depth(4, h), &mut NoObserver);
                let f = e.fixed(&p, 4);
                assert_eq!((f.value, f.best, f.nodes), (lib.value, lib.best, lib.nodes));
                let m = IterativeSearch { prune: false, ..e }.fixed(&p, 3);
                let lib = minimax_with(&game, &p, &Limit::depth(3, h), &mut NoObserver);
                assert_eq!((m.value, m.best, m.nodes), (lib.value, lib.best, lib.nodes));
            }
        }
    }
}

#[test]
fn ordering_and_deepening_keep_the_value() {
    let game = Reversi::DISC_DIFFERENCE;
    for size in [4u8, 6, 8] {
        for h in [Heuristic::Disc, Heuristic::Weights, Heuristic::Strong] {
            let e = IterativeSearch {
                order: MoveOrder::Best,
                prune: true,
                eval: h,
            };
            for p in positions(size, 12) {
                let depth = if size == 8 { 4 } else { 5 };
                let lib = alphabeta_with(&game, &p, &Limit::depth(depth, h), &mut NoObserver);
                assert_eq!(e.fixed(&p, depth).value, lib.value);
                let f = e.deepen(&p, Some(depth), None);
                assert_eq!(f.value, lib.value);
                assert!(f.depth <= depth);
            }
        }
    }
}

#[test]
fn deepening_stops_at_the_end_of_the_game() {
    let e = IterativeSearch {
        order: MoveOrder::Best,
        prune: true,
        eval: Heuristic::Disc,
    };
    let f = e.deepen(&Position::start(4), None, None);
    let exact = crate::search::alphabeta(&Reversi::DISC_DIFFERENCE, &Position::start(4));
    assert_eq!(f.value, exact.value);
    assert!(f.depth <= 24, "{}", f.depth);
}

#[test]
fn a_passed_deadline_returns_a_finished_iteration() {
    let game = Reversi::DISC_DIFFERENCE;
    for size in [4u8, 6, 8] {
        for order in [MoveOrder::Natural, MoveOrder::Best] {
            let e = IterativeSearch {
                order,
                prune: true,
                eval: Heuristic::Strong,
            };
            for p in positions(size, 5) {
                // The clock is read every few hundred nodes, so small
                // iterations may still finish; the answer is always
                // that of a finished iteration.
                let f = e.deepen(&p, None, Some(Instant::now()));
                let h = Heuristic::Strong;
                let exact = alphabeta_with(&game, &p, &Limit::depth(f.depth, h), &mut NoObserver);
                assert!(f.depth >= 1);
                assert_eq!(f.value, exact.value);
                assert!(f.best.is_some());
            }
        }
    }
}

#[test]
fn a_set_stop_flag_returns_a_finished_iteration() {
    // Without the flag and without a deadline the 8x8 search would run
    // to the end of the game.
    let game = Reversi::DISC_DIFFERENCE;
    let stop = AtomicBool::new(true);
    let e = IterativeSearch {
        order: MoveOrder::Best,
        prune: true,
        eval: Heuristic::Strong,
    };
    for p in positions(8, 5) {
        let f = e.deepen_stoppable(&p, None, None, Some(&stop), &mut SearchMemory::default());
        // The flag is read every few hundred nodes: the first small
        // iterations may still finish.
        assert!(f.depth >= 1 && f.depth <= 6, "{}", f.depth);
        let h = Heuristic::Strong;
        let exact = alphabeta_with(&game, &p, &Limit::depth(f.depth, h), &mut NoObserver);
        assert_eq!(f.value, exact.value);
    }
}

#[test]
fn ordered_minimax_keeps_the_canonical_move() {
    let game = Reversi::DISC_DIFFERENCE;
    let e = IterativeSearch {
        order: MoveOrder::Best,
        prune: false,
        eval: Heuristic::Disc,
    };
    for p in positions(6, 20) {
        let lib = minimax_with(
            &game,
            &p,
            &Limit::depth(3, Heuristic::Disc),
            &mut NoObserver,
        );
        let f = e.fixed(&p, 3);
        assert_eq!((f.value, f.best, f.nodes), (lib.value, lib.best, lib.nodes));
    }
}

#[test]
fn deepening_with_memory_reaches_the_exact_end() {
    // With the table's answers, "searched to the end" must still mean it.
    let e = IterativeSearch {
        order: MoveOrder::Best,
        prune: true,
        eval: Heuristic::Strong,
    };
    let mut memory = SearchMemory::default();
    let game = Reversi::DISC_DIFFERENCE;
    for p in positions(4, 30) {
        let f = e.deepen_in(&p, None, None, &mut memory);
        assert_eq!(f.value, crate::search::alphabeta(&game, &p).value, "{p:?}");
    }
}
