//! Properties of the pattern evaluation: readings against the pattern's
//! squares, symmetry, colour swap, the file format, and fitting.

use super::fit::{fit, phase_range, FitConfig, Sample};
use super::*;
use crate::rng::Rng;

/// The pattern's squares read one by one.
fn naive_read(pattern: &Pattern, x: u64) -> u32 {
    pattern
        .squares
        .iter()
        .enumerate()
        .map(|(i, &sq)| ((x >> sq & 1) as u32) << i)
        .sum()
}

/// Random reachable 8x8 positions as (mover, opponent) bitboards.
fn positions(count: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let plies = rng.below(60);
            let p = crate::reversi::random_position(8, plies, &mut rng);
            let mover = p.board.discs(p.to_move);
            (mover, p.board.discs(p.to_move.other()))
        })
        .collect()
}

/// Weights with every entry random in -200..200 (1/64 disc).
fn random_weights(seed: u64) -> PatternWeights {
    let mut rng = Rng::new(seed);
    let phases: Vec<Vec<f64>> = (0..PHASES)
        .map(|_| {
            (0..WEIGHTS_PER_PHASE)
                .map(|_| (rng.below(400) as f64 - 200.0) / f64::from(SCALE))
                .collect()
        })
        .collect();
    PatternWeights::from_discs(&phases)
}

#[test]
fn readings_are_the_patterns_squares() {
    let mut rng = Rng::new(11);
    for _ in 0..2000 {
        let x = rng.next_u64();
        for pattern in &PATTERNS {
            assert_eq!(
                (pattern.read)(x),
                naive_read(pattern, x),
                "{}",
                pattern.name
            );
        }
    }
}

#[test]
fn ternary_indices_stay_inside_each_pattern() {
    for (p, o) in positions(300, 12) {
        let f = features(p, o);
        for (t, pattern) in PATTERNS.iter().enumerate() {
            for &i in &f[8 * t..8 * t + 8] {
                let local = i as usize - OFFSETS.0[t];
                assert!(local < pattern.configurations());
            }
        }
        assert!((f[FEATURES - 1] as usize) < WEIGHTS_PER_PHASE);
    }
}

#[test]
fn value_is_symmetric_and_colour_blind() {
    let weights = random_weights(13);
    for (p, o) in positions(300, 14) {
        let v = weights.evaluate(p, o);
        let (ps, os) = (symmetry::all(p), symmetry::all(o));
        for s in 0..8 {
            assert_eq!(weights.evaluate(ps[s], os[s]), v, "symmetry {s}");
        }
        // The same discs with the colours and the side to move swapped are
        // the same position for the side to move.
        let black_to_move = crate::reversi::Position {
            board: crate::board::Board::from_bits(p, o, 8).unwrap(),
            to_move: crate::board::Color::Black,
        };
        let white_to_move = crate::reversi::Position {
            board: crate::board::Board::from_bits(o, p, 8).unwrap(),
            to_move: crate::board::Color::White,
        };
        let h = crate::eval::Heuristic::Pattern;
        assert_eq!(h.value(&black_to_move), -h.value(&white_to_move));
    }
}

#[test]
fn weights_file_round_trips_and_refuses_damage() {
    let weights = random_weights(15);
    let bytes = weights.to_bytes();
    assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), weights);
    let mut corrupt = bytes.clone();
    corrupt[1000] ^= 1;
    assert_eq!(
        PatternWeights::from_bytes(&corrupt),
        Err(WeightsError::Checksum)
    );
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(
        PatternWeights::from_bytes(&version),
        Err(WeightsError::Version(9))
    );
    let mut layout = bytes.clone();
    layout[12] ^= 0xFF;
    assert_eq!(
        PatternWeights::from_bytes(&layout),
        Err(WeightsError::Layout)
    );
    assert!(matches!(
        PatternWeights::from_bytes(&bytes[..bytes.len() - 1]),
        Err(WeightsError::Truncated { .. })
    ));
    assert_eq!(
        PatternWeights::from_bytes(b"hello"),
        Err(WeightsError::NotWeights)
    );
    assert_eq!(
        PatternWeights::from_bytes(&[]),
        Err(WeightsError::NotWeights)
    );
}

/// `weights` with every parity pair set to zero.
fn without_parity(weights: &PatternWeights) -> PatternWeights {
    let mut bytes = weights.to_bytes();
    if read_version(&bytes) == 2 {
        let mut phases = Vec::new();
        for k in 0..PHASES {
            let w = weights.phase_weights(phase_range(k).1);
            let mut discs: Vec<f64> = w.iter().map(|&x| f64::from(x) / f64::from(SCALE)).collect();
            discs[WEIGHTS_PER_PHASE_V1..].fill(0.0);
            phases.push(discs);
        }
        bytes = PatternWeights::from_discs(&phases).to_bytes();
    }
    PatternWeights::from_bytes(&bytes).unwrap()
}

fn read_version(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[8..12].try_into().unwrap())
}

#[test]
fn weights_without_a_parity_term_are_written_as_version_1_and_read_back() {
    // Random weights have parity pairs: format 2, every weight kept.
    let weights = random_weights(16);
    let v2 = weights.to_bytes();
    assert_eq!(read_version(&v2), 2);
    assert_eq!(v2.len(), FILE_BYTES);
    // The same weights without them: format 1, two weights a phase fewer,
    // read back with a parity pair of zeros.
    let plain = without_parity(&weights);
    let v1 = plain.to_bytes();
    assert_eq!(read_version(&v1), 1);
    assert_eq!(v1.len(), FILE_BYTES - 2 * PARITY_WEIGHTS * PHASES);
    assert_eq!(PatternWeights::from_bytes(&v1).unwrap(), plain);
    // A version 1 file is the version 2 file without each phase's last two
    // weights, under its own header and checksum.
    let weights_of = |bytes: &[u8], per_phase: usize| -> Vec<Vec<u8>> {
        bytes[28..bytes.len() - 8]
            .chunks_exact(2 * per_phase)
            .map(<[u8]>::to_vec)
            .collect()
    };
    let phases_v1 = weights_of(&v1, WEIGHTS_PER_PHASE_V1);
    let phases_v2 = weights_of(&plain_as_v2(&plain), WEIGHTS_PER_PHASE);
    for (a, b) in phases_v1.iter().zip(&phases_v2) {
        assert_eq!(&b[..a.len()], &a[..]);
        assert_eq!(&b[a.len()..], &[0; 2 * PARITY_WEIGHTS][..]);
    }
    // The embedded weights (a version 1 file) keep their bytes.
    let embedded = include_bytes!("../../../data/pattern-weights.bin");
    if read_version(embedded) == 1 {
        assert_eq!(PatternWeights::embedded().to_bytes(), &embedded[..]);
    }
    // A version 1 header with version 2's count, and the reverse, are refused.
    let mut wrong = v1.clone();
    wrong[8] = 2;
    assert_eq!(
        PatternWeights::from_bytes(&wrong),
        Err(WeightsError::Layout)
    );
    let mut wrong = v2.clone();
    wrong[8] = 1;
    assert_eq!(
        PatternWeights::from_bytes(&wrong),
        Err(WeightsError::Layout)
    );
}

/// The version 2 bytes of weights without a parity term (which
/// `to_bytes` writes as version 1): the version 1 body with two zero
/// weights after each phase.
fn plain_as_v2(weights: &PatternWeights) -> Vec<u8> {
    let v1 = weights.to_bytes();
    let mut out = v1[..28].to_vec();
    out[8..12].copy_from_slice(&2u32.to_le_bytes());
    out[20..24].copy_from_slice(&(WEIGHTS_PER_PHASE as u32).to_le_bytes());
    for phase in v1[28..v1.len() - 8].chunks_exact(2 * WEIGHTS_PER_PHASE_V1) {
        out.extend_from_slice(phase);
        out.extend_from_slice(&[0; 2 * PARITY_WEIGHTS]);
    }
    let sum = out.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    });
    out.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(PatternWeights::from_bytes(&out).unwrap(), *weights);
    out
}

#[test]
fn the_parity_weight_is_added_by_the_empty_squares_parity() {
    let weights = random_weights(19);
    let plain = without_parity(&weights);
    for (p, o) in positions(300, 20) {
        let empties = 64 - (p | o).count_ones();
        let w = weights.phase_weights(empties);
        let pair = &w[WEIGHTS_PER_PHASE_V1..];
        let parity = i32::from(pair[(empties % 2) as usize]);
        assert_eq!(weights.evaluate(p, o), plain.evaluate(p, o) + parity);
        assert_eq!(
            features(p, o)[FEATURES - 1] as usize,
            WEIGHTS_PER_PHASE_V1 + (empties % 2) as usize
        );
    }
}

#[test]
fn embedded_weights_are_valid() {
    // Read without its checksum by the engine: checked here.
    let file = include_bytes!("../../../data/pattern-weights.bin");
    assert_eq!(
        PatternWeights::from_bytes(file).as_ref(),
        Ok(PatternWeights::embedded())
    );
}

#[test]
fn fitting_a_tiny_data_set_beats_zero_weights() {
    // Labels: the disc difference plus noise (every square lies on some
    // pattern, so the weights can express it).
    let mut rng = Rng::new(17);
    let samples: Vec<Sample> = positions(3000, 18)
        .into_iter()
        .map(|(p, o)| Sample {
            p,
            o,
            target: (p.count_ones() as f32 - o.count_ones() as f32) + (rng.below(5) as f32 - 2.0),
        })
        .collect();
    let (train, held_out) = samples.split_at(2700);
    let config = FitConfig {
        iterations: 60,
        ..FitConfig::default()
    };
    let (_, reports) = fit(train, held_out, &config, 2, &|_| {});
    let total = |f: fn(&super::fit::PhaseReport) -> f64| -> f64 {
        reports.iter().map(|r| f(r) * r.held_out as f64).sum()
    };
    let (fitted, zero) = (total(|r| r.held_out_error), total(|r| r.zero_error));
    assert!(
        fitted < zero,
        "held-out error {fitted} against {zero} for zero weights"
    );
    for r in &reports {
        assert!(r.train_error < r.zero_error || r.train == 0, "{r:?}");
    }
}

#[test]
fn a_partial_fit_keeps_the_base_weights_of_the_other_phases() {
    let mut rng = Rng::new(5);
    let samples: Vec<Sample> = positions(1500, 30)
        .into_iter()
        .map(|(p, o)| Sample {
            p,
            o,
            target: (p.count_ones() as f32 - o.count_ones() as f32) + (rng.below(5) as f32 - 2.0),
        })
        .collect();
    let config = FitConfig {
        iterations: 30,
        ..FitConfig::default()
    };
    let base = PatternWeights::embedded();
    let refit = |k: usize| k == super::phase(30);
    let partial = |toward_base| super::fit::PartialFit {
        base,
        refit: &refit,
        toward_base,
    };
    let (weights, _) =
        super::fit::fit_phases(&samples, &[], &config, 2, &|_| {}, Some(partial(false)));
    // Toward the base, with a penalty that leaves nothing to the data,
    // the refitted phase is the base too.
    let stiff = FitConfig {
        lambda: 1e12,
        ..config
    };
    let (kept, _) = super::fit::fit_phases(&samples, &[], &stiff, 2, &|_| {}, Some(partial(true)));
    assert_eq!(kept, *base);
    let (all, _) = fit(&samples, &[], &config, 2, &|_| {});
    for empties in 0..=60 {
        if refit(super::phase(empties)) {
            // The refitted phase is the full fit's.
            assert_eq!(weights.phase_weights(empties), all.phase_weights(empties));
            assert_ne!(weights.phase_weights(empties), base.phase_weights(empties));
        } else {
            assert_eq!(weights.phase_weights(empties), base.phase_weights(empties));
        }
    }
}

#[test]
fn indices_kept_up_to_date_along_random_games_are_the_boards_readings() {
    // Every move of 200 random games (passes included), from the start:
    // the readings updated by `after` and `passed` against the ones read
    // from the board, and the evaluation from them against `evaluate`.
    use crate::board::bits::{after, flips_reference, moves_reference, Bits};
    // Random weights whose parity pairs are non-zero and unequal (so that
    // leaving the pair out, or reading the wrong one, changes the value).
    let weights = {
        let mut rng = Rng::new(31);
        let phases: Vec<Vec<f64>> = (0..PHASES)
            .map(|_| {
                let mut w: Vec<f64> = (0..WEIGHTS_PER_PHASE)
                    .map(|_| (rng.below(400) as f64 - 200.0) / f64::from(SCALE))
                    .collect();
                let even = 1 + rng.below(200) as i32;
                w[WEIGHTS_PER_PHASE_V1] = f64::from(even) / f64::from(SCALE);
                w[WEIGHTS_PER_PHASE_V1 + 1] = -f64::from(even + 1) / f64::from(SCALE);
                w
            })
            .collect();
        PatternWeights::from_discs(&phases)
    };
    assert_eq!(
        PatternWeights::from_bytes(&weights.to_bytes()).as_ref(),
        Ok(&weights)
    );
    let mut rng = Rng::new(32);
    let (mut moves_checked, mut passes) = (0, 0);
    for _ in 0..200 {
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut indices = Indices::new(p, o);
        loop {
            assert_eq!(indices, Indices::new(p, o), "p {p:x} o {o:x}");
            let (mine, theirs) = (moves_reference(p, o, !0), moves_reference(o, p, !0));
            assert_indexed_is_the_reference(&weights, &indices, p, o);
            if mine == 0 {
                if theirs == 0 {
                    break;
                }
                indices = indices.passed();
                (p, o) = (o, p);
                passes += 1;
                continue;
            }
            let choices: Vec<u8> = Bits(mine).collect();
            let sq = choices[rng.below(choices.len())];
            let f = flips_reference(p, o, sq);
            let row = indices.mover_after(sq, f);
            indices = indices.after(sq, f);
            assert_eq!(row, indices.mover);
            (p, o) = after(p, o, sq, f);
            moves_checked += 1;
        }
    }
    assert!(
        moves_checked > 10_000 && passes > 0,
        "{moves_checked} {passes}"
    );
}

/// Each phase's odd-minus-even parity gap, in discs, of weights fitted on
/// random positions labelled with the disc difference plus `effect` discs
/// for the side to move at an odd number of empty squares and minus
/// `effect` at an even one.
fn fitted_parity_gaps(effect: f32) -> Vec<f64> {
    let samples: Vec<Sample> = positions(30_000, 21)
        .into_iter()
        .filter(|&(p, o)| (p | o).count_zeros() >= 6)
        .map(|(p, o)| {
            let odd = (p | o).count_zeros() % 2 == 1;
            Sample {
                p,
                o,
                target: (p.count_ones() as f32 - o.count_ones() as f32)
                    + if odd { effect } else { -effect },
            }
        })
        .collect();
    let config = FitConfig {
        iterations: 80,
        lambda: 2.0,
        ..FitConfig::default()
    };
    let (weights, _) = fit(&samples, &[], &config, 2, &|_| {});
    (1..PHASES)
        .map(|k| {
            let (_, hi) = phase_range(k);
            let pair = &weights.phase_weights(hi)[WEIGHTS_PER_PHASE_V1..];
            f64::from(pair[1] - pair[0]) / f64::from(SCALE)
        })
        .collect()
}

#[test]
fn the_fit_finds_a_parity_effect_in_its_pair() {
    // The patterns cannot tell the parities apart (each count's positions
    // mix both colours to move, and a sum over squares sees the number of
    // discs, not its parity), so a 6-disc odd-even gap in the labels must
    // land in each phase's pair; labels without one leave the pairs level.
    for (k, gap) in fitted_parity_gaps(3.0).into_iter().enumerate() {
        assert!((gap - 6.0).abs() < 0.5, "phase {}: gap {gap}", k + 1);
    }
    for (k, gap) in fitted_parity_gaps(0.0).into_iter().enumerate() {
        assert!(
            gap.abs() < 0.5,
            "phase {}: gap {gap} without an effect",
            k + 1
        );
    }
}

#[test]
fn the_folded_readings_sum_to_the_weights_of_all_eight_images_at_any_size() {
    // Weights over the whole i16 range, so that the sums of the images
    // that read the same squares (up to four for the long diagonal) leave
    // it: the folded tables must hold them exactly.
    let mut rng = Rng::new(41);
    let phases: Vec<Vec<f64>> = (0..PHASES)
        .map(|_| {
            (0..WEIGHTS_PER_PHASE)
                .map(|_| {
                    let w = if rng.below(4) == 0 {
                        32767.0 * if rng.below(2) == 0 { 1.0 } else { -1.0 }
                    } else {
                        rng.below(65536) as f64 - 32768.0
                    };
                    w / f64::from(SCALE)
                })
                .collect()
        })
        .collect();
    let weights = PatternWeights::from_discs(&phases);
    assert_eq!(READINGS, 46);
    for (p, o) in positions(400, 42) {
        if (p | o).count_ones() < 4 {
            continue;
        }
        assert_indexed_is_the_reference(&weights, &Indices::new(p, o), p, o);
    }
}

/// `evaluate_indexed` from the readings `indices` of `p` against `o`,
/// with the portable kernel and the best this CPU runs, equals
/// `evaluate` from the board.
fn assert_indexed_is_the_reference(weights: &PatternWeights, indices: &Indices, p: u64, o: u64) {
    use crate::board::bits::moves_reference;
    let (mine, theirs) = (moves_reference(p, o, !0), moves_reference(o, p, !0));
    let v = weights.evaluate(p, o);
    let k = crate::board::bits::Portable;
    assert_eq!(
        weights.evaluate_indexed(k, &indices.mover, p, o, mine, theirs),
        v,
        "p {p:x} o {o:x}"
    );
    let fast = crate::board::bits::with_best_kernel!(|k| weights.evaluate_indexed(
        k,
        &indices.mover,
        p,
        o,
        mine,
        theirs
    ));
    assert_eq!(fast, v, "p {p:x} o {o:x}");
}
