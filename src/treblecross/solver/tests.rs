//! The solver against plain minimax and its fast paths against its
//! general path.

use super::quiet::Quiet;
use super::strips::{extend_strip_values, SHIPPED_LEN};
use super::*;
use crate::search::minimax;
use crate::treblecross::RingTreblecross;
use std::collections::HashMap;

/// Every position of every ring up to `max_n`, both sides to move:
/// the solver's value, every successor value and best move equal plain
/// minimax's.
fn check_exhaustive(max_n: usize, ks: std::ops::RangeInclusive<usize>) {
    for k in ks {
        for n in 1..=max_n {
            let game = RingTreblecross::new(n, k);
            let mut solver = RingSolver::new(n, k);
            let mut exact: HashMap<Vec<bool>, Value> = HashMap::new();
            for mask in 0u32..1 << n {
                let cells: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
                for side in [Side::Max, Side::Min] {
                    let state = Ring {
                        cells: cells.clone(),
                        to_move: side,
                    };
                    let reference = reference_value(&game, &state, &mut exact);
                    assert_eq!(solver.value(&state), reference, "n={n} k={k} {state:?}");
                    let terminal = has_run(&cells, k) || mask == (1 << n) - 1;
                    if n <= 9 {
                        let out = minimax(&game, &state);
                        assert_eq!(out.value, reference);
                        let best = solver.best(&state);
                        assert_eq!(best.map(|b| b.0), out.best, "n={n} k={k} {state:?}");
                        assert_eq!(solver.value(&state), out.value);
                        if !terminal {
                            assert_eq!(best.map(|b| b.1), Some(out.value));
                        }
                    }
                    for (c, v) in solver.successor_values(&state) {
                        let child = state.after(c);
                        assert_eq!(v, reference_value(&game, &child, &mut exact), "{child:?}");
                    }
                }
            }
        }
    }
}

/// Plain minimax values, memoised on (cells, side): the value of a
/// state depends only on the state, so this is minimax's value.
fn reference_value(
    game: &RingTreblecross,
    state: &Ring,
    memo: &mut HashMap<Vec<bool>, Value>,
) -> Value {
    let key: Vec<bool> = state
        .cells
        .iter()
        .copied()
        .chain([state.to_move == Side::Max])
        .collect();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    use crate::game::Game;
    let v = if game.is_terminal(state) {
        game.utility(state)
    } else {
        let vs = game
            .successors(state)
            .into_iter()
            .map(|(_, s)| reference_value(game, &s, memo));
        match state.to_move {
            Side::Max => vs.max().unwrap(),
            Side::Min => vs.min().unwrap(),
        }
    };
    memo.insert(key, v);
    v
}

#[test]
fn k3_matches_minimax_on_every_position() {
    check_exhaustive(12, 3..=3);
}

#[test]
fn general_k_matches_minimax_on_every_position() {
    check_exhaustive(12, 1..=2);
    check_exhaustive(12, 4..=5);
}

/// A deterministic sample of positions: random X sets of varied density.
fn sample(n: usize, k: usize, count: usize, seed: u64) -> Vec<Vec<bool>> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 33
    };
    (0..count)
        .map(|i| {
            if i % 2 == 0 {
                let density = 1 + i % 6; // in 20ths: 5% .. 30%
                return (0..n).map(|_| next() % 20 < density as u64).collect();
            }
            // A quiet position: safe moves played at random.
            let mut cells = vec![false; n];
            let steps = next() as usize % (n / 2);
            for _ in 0..steps {
                let safe: Vec<usize> = (0..n)
                    .filter(|&c| {
                        let mut after = cells.clone();
                        after[c] = true;
                        !cells[c] && !(0..n).any(|d| !after[d] && completes(&after, k, d))
                    })
                    .collect();
                if safe.is_empty() {
                    break;
                }
                cells[safe[next() as usize % safe.len()]] = true;
            }
            cells
        })
        .collect()
}

/// The fast paths (K = 3 closed form, bit masks) agree with the general
/// byte-description path on rings too large for brute force.
#[test]
fn fast_paths_match_general_path() {
    for (k, sizes, count) in [(3, 13..=40, 40), (4, 13..=26, 25), (5, 13..=22, 12)] {
        for n in sizes {
            let mut fast = RingSolver::new(n, k);
            let mut general = RingSolver::new(n, k);
            general.fast = false;
            for cells in sample(n, k, count, (n * 31 + k) as u64) {
                for to_move in [Side::Max, Side::Min] {
                    let state = Ring {
                        cells: cells.clone(),
                        to_move,
                    };
                    assert_same_answers(&mut fast, &mut general, &state);
                }
            }
        }
    }
}

/// Both solvers give every successor the same value and choose the same
/// first-best successor.
fn assert_same_answers(fast: &mut RingSolver, general: &mut RingSolver, state: &Ring) {
    assert_eq!(
        fast.successor_values(state),
        general.successor_values(state),
        "n={} k={} {state:?}",
        fast.n,
        fast.k
    );
    assert_eq!(fast.best(state), general.best(state), "{state:?}");
}

/// Memos cleared every 64 entries change no answer (rings of 13 to 20
/// cells, K = 4 and 5, fast and general paths).
#[test]
fn cleared_memos_give_the_same_answers() {
    for (k, fast) in [(4, true), (5, true), (4, false)] {
        for n in (13..=20).step_by(7 - k) {
            let mut full = RingSolver::new(n, k);
            let mut forgetful = RingSolver::new(n, k);
            (full.fast, forgetful.fast) = (fast, fast);
            forgetful.memo_limit = 64;
            for cells in sample(n, k, 6, (n * 41 + k) as u64) {
                let state = Ring {
                    cells,
                    to_move: Side::Min,
                };
                assert_same_answers(&mut full, &mut forgetful, &state);
                let held = forgetful.memo_sizes();
                assert!(held.wrapping_rings + held.components <= 64, "{held:?}");
            }
        }
    }
}

/// The bit-mask ring search (with its child ordering) agrees with the
/// general path on sampled rings up to N = 40, K = 4 and 5.
#[test]
fn bit_rings_match_general_path_up_to_40() {
    for (k, sizes, count) in [(4, 28..=40, 6), (5, 24..=40, 4)] {
        for n in sizes.step_by(4) {
            let mut fast = RingSolver::new(n, k);
            let mut general = RingSolver::new(n, k);
            general.fast = false;
            for cells in sample(n, k, count, (n * 37 + k) as u64) {
                // Rings with a few X: the wrapping phase.
                if cells.iter().filter(|&&c| c).count() < n / 6 {
                    continue;
                }
                let state = Ring {
                    cells,
                    to_move: Side::Max,
                };
                assert_same_answers(&mut fast, &mut general, &state);
            }
        }
    }
}

#[test]
fn spec_values() {
    let mut s = RingSolver::new(7, 3);
    assert_eq!(s.value(&Ring::new(7, &[], Side::Max)), -1);
    let mut s = RingSolver::new(10, 3);
    assert_eq!(s.best(&Ring::new(10, &[5], Side::Max)), Some((0, 1)));
}

/// The strip recurrence written out directly from the rules: a strip of `l`
/// live cells, filling cell `j` leaves strips of `max(0, j - 2)` and
/// `max(0, l - j - 3)` cells.
fn strip_values_by_definition(up_to: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    while g.len() <= up_to {
        let l = g.len();
        let mut options: Vec<u32> = (0..l)
            .map(|j| g[j.saturating_sub(2)] ^ g[(l - j).saturating_sub(3)])
            .collect();
        g.push(components::mex(&mut options));
    }
    g
}

/// A quiet K = 3 ring with one X: its live cells are those of one strip, so
/// the strip values must agree with the general (any K) solver's values of
/// these rings.
#[test]
fn strip_values_match_the_general_solver() {
    let by_definition = strip_values_by_definition(30);
    for n in 6..=30 {
        let mut general = RingSolver::new(n, 3);
        general.fast = false;
        let q = general.analyse(&Ring::new(n, &[0], Side::Max).cells);
        let Quiet::Descriptions(descs) = q else {
            panic!("one component expected, got {q:?}")
        };
        assert_eq!(descs.len(), 1);
        let g = general.component_grundy(descs.into_iter().next().unwrap());
        assert_eq!(g, by_definition[n - 5], "strip of {} cells", n - 5);
    }
}

/// The fast recurrence and the shipped table give the values of the
/// definition (up to 3,000 here; the fast recurrence up to 60,000 below).
#[test]
fn strip_table_matches_the_definition() {
    let direct = strip_values_by_definition(3_000);
    let mut computed = Vec::new();
    extend_strip_values(&mut computed, 3_000);
    assert_eq!(computed, direct);
    let mut table = strips::StripTable::default();
    table.ensure(3_000);
    assert_eq!(
        (0..=3_000).map(|l| table.get(l)).collect::<Vec<_>>(),
        direct
    );
}

/// The shipped table against the recurrence: the first 60,000 lengths
/// (about a second), and beyond the table the recurrence continues from it.
#[test]
fn shipped_strip_table_matches_the_recurrence() {
    check_shipped_prefix(60_000);
    let mut table = strips::StripTable::default();
    table.ensure(SHIPPED_LEN + 2);
    assert_eq!(table.len(), SHIPPED_LEN + 3);
}

/// The whole shipped table against the recurrence (a few minutes):
/// `cargo test --release --lib -- --ignored shipped_strip_table_whole`.
#[test]
#[ignore = "long: recomputes the 10^6 shipped strip values"]
fn shipped_strip_table_whole() {
    check_shipped_prefix(SHIPPED_LEN - 1);
}

fn check_shipped_prefix(up_to: usize) {
    let mut computed = Vec::new();
    extend_strip_values(&mut computed, up_to);
    let mut table = strips::StripTable::default();
    table.ensure(up_to);
    for (l, &g) in computed.iter().enumerate() {
        assert_eq!(table.get(l), g, "strip of {l} cells");
    }
}
