//! Tests of the parent module.
use super::*;
use crate::board::Color;
use crate::rng::Rng;

/// Negamax over the plain rules, standard scoring, for the side to move.
fn brute(p: &Position) -> i32 {
    let kids = children(p);
    if kids.is_empty() {
        let s = crate::record::standard_score(&p.board);
        return if p.to_move == Color::Black { s } else { -s };
    }
    kids.iter().map(|(_, c)| -brute(c)).max().unwrap()
}

fn late_positions(empties: u32, count: usize) -> Vec<Position> {
    let mut rng = Rng::new(3);
    let mut out = Vec::new();
    while out.len() < count {
        let p = crate::reversi::random_position(8, (60 - empties) as usize, &mut rng);
        if !p.board.is_game_over() && p.board.empty().count_ones() == empties {
            out.push(p);
        }
    }
    out
}

fn budget(exact: u32, wld: u32) -> Budget {
    Budget {
        depth: Some(2),
        exact_empties: exact,
        wld_empties: wld,
        ..Budget::default()
    }
}

#[test]
fn exact_values_agree_with_brute_force() {
    let stop = AtomicBool::new(false);
    for p in late_positions(8, 20) {
        let mut s = StandardSearch::new();
        let all = s.rank_moves(&p, 64, &budget(8, 8), &stop, &mut |_| {});
        assert_eq!(all.len(), children(&p).len());
        for v in &all {
            assert_eq!(v.certainty, Certainty::Exact);
            let child = Reversi::DISC_DIFFERENCE.play(&p, v.mv);
            assert_eq!(v.value, f64::from(-brute(&child)), "{p:?} {}", v.mv);
            assert_eq!(v.line[0], v.mv);
        }
        assert!(all.windows(2).all(|w| w[0].value >= w[1].value));
        let best = s.rank_moves(&p, 1, &budget(8, 8), &stop, &mut |_| {});
        assert_eq!(best.len(), 1);
        assert_eq!(best[0].value, f64::from(brute(&p)));
    }
}

#[test]
fn contempt_makes_a_draw_worth_it_for_black() {
    // Positions where a move draws and the best wins by 2 or less: a
    // draw worth 3 discs to black is chosen by black, and refused by
    // white (for whom it is worth -3).
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    for p in late_positions(8, 400) {
        let values: Vec<i32> = children(&p).iter().map(|(_, c)| -brute(c)).collect();
        let best = *values.iter().max().unwrap();
        if !(values.contains(&0) && best > 0 && best <= 2) {
            continue;
        }
        seen += 1;
        let contempt = if p.to_move == Color::Black { 3.0 } else { -3.0 };
        let mut s = StandardSearch::new();
        let b = Budget {
            contempt,
            ..budget(8, 8)
        };
        let v = s.rank_moves(&p, 1, &b, &stop, &mut |_| {});
        assert_eq!(v[0].value, 3.0, "{p:?}");
        let child = Reversi::DISC_DIFFERENCE.play(&p, v[0].mv);
        assert_eq!(brute(&child), 0);
        // The other way round the draw is worth -3: the win stays best.
        let b = Budget {
            contempt: -contempt,
            ..budget(8, 8)
        };
        let v = s.rank_moves(&p, 1, &b, &stop, &mut |_| {});
        assert_eq!(v[0].value, f64::from(best));
    }
    assert!(seen > 0);
}

#[test]
fn win_loss_draw_has_the_sign_of_the_exact_value() {
    let stop = AtomicBool::new(false);
    for p in late_positions(9, 15) {
        let mut s = StandardSearch::new();
        let all = s.rank_moves(&p, 64, &budget(0, 9), &stop, &mut |_| {});
        for v in &all {
            assert_eq!(v.certainty, Certainty::WinLossDraw);
            let child = Reversi::DISC_DIFFERENCE.play(&p, v.mv);
            assert_eq!(v.value, f64::from((-brute(&child)).signum()));
        }
        let best = s.rank_moves(&p, 1, &budget(0, 9), &stop, &mut |_| {});
        assert_eq!(best[0].value, f64::from(brute(&p).signum()));
    }
}

#[test]
fn a_forced_pass_is_the_one_move_and_a_finished_game_has_none() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(9);
    let mut found = 0;
    for _ in 0..400 {
        let p = crate::reversi::random_position(8, 50 + rng.below(10), &mut rng);
        let mut s = StandardSearch::new();
        let v = s.rank_moves(&p, 3, &budget(12, 12), &stop, &mut |_| {});
        if p.board.is_game_over() {
            assert!(v.is_empty());
        } else if p.board.moves(p.to_move) == 0 {
            found += 1;
            assert_eq!(v.len(), 1);
            assert_eq!(v[0].mv, Move::Pass);
            assert_eq!(v[0].value, f64::from(brute(&p)));
            assert!(v[0].value.is_finite());
        }
    }
    assert!(found > 0);
}

#[test]
fn analysis_losses_are_best_minus_played() {
    let stop = AtomicBool::new(false);
    let p = late_positions(10, 1)[0];
    let mut g = GameRecord::new(p);
    let mut rng = Rng::new(4);
    while !g.last().board.is_game_over() {
        let kids = children(&g.last());
        g.push(crate::record::RecordedMove::plain(rng.pick(&kids).0))
            .unwrap();
    }
    let mut s = StandardSearch::new();
    let a = analyze_game(&mut s, &g, &budget(10, 10), &stop, &mut |_| {});
    assert_eq!(a.moves.len(), g.moves.len());
    let positions = g.positions();
    let mut totals = [0.0, 0.0];
    for m in &a.moves {
        let before = positions[m.index];
        assert_eq!(m.best.value, f64::from(brute(&before)));
        let after = positions[m.index + 1];
        assert_eq!(m.played_value, f64::from(-brute(&after)));
        assert_eq!(m.loss, m.best.value - m.played_value);
        assert!(m.exact);
        totals[usize::from(before.to_move == Color::White)] += m.loss;
    }
    assert_eq!(a.total_loss, totals);
}
