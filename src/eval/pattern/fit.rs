//! Fitting the pattern weights to labelled positions: regularised least
//! squares, solved phase by phase with the conjugate gradient method
//! preconditioned by the diagonal (each weight's step scaled by how often it
//! appears).
//!
//! Every phase is fitted on the positions of its own empty-square range
//! widened by a margin on both sides, which smooths neighbouring phases; a
//! weight that no position uses stays zero.

use super::{features, phase, PatternWeights, FEATURES, PHASES, SCALE, WEIGHTS_PER_PHASE};

/// A position with its label: the side to move's discs `p`, the other
/// side's `o`, and the target value for the side to move, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Discs of the side to move.
    pub p: u64,
    /// Discs of the other side.
    pub o: u64,
    /// The label, in discs, for the side to move.
    pub target: f32,
}

impl Sample {
    /// The number of empty squares.
    #[must_use]
    pub fn empties(&self) -> u32 {
        64 - (self.p | self.o).count_ones()
    }
}

/// Settings of a fit.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// The ridge penalty: the weight of `sum(w^2)` against the squared
    /// errors (in discs^2).
    pub lambda: f64,
    /// Conjugate gradient iterations per phase.
    pub iterations: usize,
    /// Positions with up to this many empty squares more or fewer than a
    /// phase's range also train it.
    pub margin: u32,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            lambda: 2.0,
            iterations: 150,
            margin: 2,
        }
    }
}

/// What the fit of one phase achieved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseReport {
    /// The phase.
    pub phase: usize,
    /// Its empty-square range.
    pub empties: (u32, u32),
    /// Training positions used (margin included).
    pub train: usize,
    /// Held-out positions of the phase's own range.
    pub held_out: usize,
    /// Mean absolute error on the training positions of the phase's own
    /// range, in discs, with the stored (rounded) weights.
    pub train_error: f64,
    /// Mean absolute error on the held-out positions, in discs.
    pub held_out_error: f64,
    /// The held-out error of always answering 0, for comparison.
    pub zero_error: f64,
}

/// The empty-square range of phase `k`.
#[must_use]
pub fn phase_range(k: usize) -> (u32, u32) {
    let lo = if k == 0 { 0 } else { 5 * k as u32 + 1 };
    let hi = if k + 1 == PHASES {
        60
    } else {
        5 * k as u32 + 5
    };
    (lo, hi)
}

/// The rows of one phase: features and targets.
struct Rows {
    features: Vec<[u32; FEATURES]>,
    targets: Vec<f64>,
}

impl Rows {
    fn of(samples: &[Sample], keep: impl Fn(u32) -> bool) -> Rows {
        let chosen: Vec<&Sample> = samples.iter().filter(|s| keep(s.empties())).collect();
        Rows {
            features: chosen.iter().map(|s| features(s.p, s.o)).collect(),
            targets: chosen.iter().map(|s| f64::from(s.target)).collect(),
        }
    }

    /// `A x` (one sum per row).
    fn times(&self, x: &[f64]) -> Vec<f64> {
        self.features
            .iter()
            .map(|f| f.iter().map(|&j| x[j as usize]).sum())
            .collect()
    }

    /// `A^T y` (scattered back over the weights).
    fn transposed_times(&self, y: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; WEIGHTS_PER_PHASE];
        for (f, &v) in self.features.iter().zip(y) {
            for &j in f {
                out[j as usize] += v;
            }
        }
        out
    }

    /// The diagonal of `A^T A`: how often each weight appears, squared per row.
    fn diagonal(&self) -> Vec<f64> {
        let mut out = vec![0.0; WEIGHTS_PER_PHASE];
        for f in &self.features {
            let mut sorted = *f;
            sorted.sort_unstable();
            let mut i = 0;
            while i < sorted.len() {
                let j = sorted[i];
                let mut n = 0.0;
                while i < sorted.len() && sorted[i] == j {
                    n += 1.0;
                    i += 1;
                }
                out[j as usize] += n * n;
            }
        }
        out
    }

    /// The mean absolute error of `weights` (in 1/SCALE disc) on the rows.
    fn error(&self, weights: &[i16]) -> f64 {
        if self.targets.is_empty() {
            return 0.0;
        }
        let total: f64 = self
            .features
            .iter()
            .zip(&self.targets)
            .map(|(f, &t)| {
                let v: i32 = f.iter().map(|&j| i32::from(weights[j as usize])).sum();
                (f64::from(v) / f64::from(SCALE) - t).abs()
            })
            .sum();
        total / self.targets.len() as f64
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solves `(A^T A + lambda I) w = A^T y` by preconditioned conjugate
/// gradients from `w = 0`.
fn solve(rows: &Rows, config: &FitConfig) -> Vec<f64> {
    let mut w = vec![0.0; WEIGHTS_PER_PHASE];
    if rows.targets.is_empty() {
        return w;
    }
    let precondition: Vec<f64> = rows
        .diagonal()
        .iter()
        .map(|&d| 1.0 / (d + config.lambda))
        .collect();
    let mut r = rows.transposed_times(&rows.targets);
    let mut z: Vec<f64> = r.iter().zip(&precondition).map(|(a, b)| a * b).collect();
    let mut d = z.clone();
    let mut rz = dot(&r, &z);
    for _ in 0..config.iterations {
        if rz <= 0.0 {
            break;
        }
        let mut q = rows.transposed_times(&rows.times(&d));
        for (qj, dj) in q.iter_mut().zip(&d) {
            *qj += config.lambda * dj;
        }
        let alpha = rz / dot(&d, &q);
        for j in 0..WEIGHTS_PER_PHASE {
            w[j] += alpha * d[j];
            r[j] -= alpha * q[j];
            z[j] = r[j] * precondition[j];
        }
        let next = dot(&r, &z);
        let beta = next / rz;
        rz = next;
        for (dj, zj) in d.iter_mut().zip(&z) {
            *dj = zj + beta * *dj;
        }
    }
    w
}

/// Fits every phase on `train` and measures it on `held_out`; phases run on
/// `threads` threads. `progress` hears of each finished phase.
pub fn fit(
    train: &[Sample],
    held_out: &[Sample],
    config: &FitConfig,
    threads: usize,
    progress: &(dyn Fn(&PhaseReport) + Sync),
) -> (PatternWeights, Vec<PhaseReport>) {
    fit_phases(train, held_out, config, threads, progress, None)
}

/// Which phases a partial fit refits, and from what.
#[derive(Clone, Copy)]
pub struct PartialFit<'a> {
    /// The weights whose other phases are kept.
    pub base: &'a PatternWeights,
    /// Whether phase `k` is refitted.
    pub refit: &'a (dyn Fn(usize) -> bool + Sync),
    /// Whether the refitted phases start from the base: the penalty then
    /// pulls each weight toward its base value instead of toward zero (a
    /// fine-tuning on new labels, for data sets too small to fit alone).
    pub toward_base: bool,
}

impl std::fmt::Debug for PartialFit<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PartialFit(toward_base: {})", self.toward_base)
    }
}

/// Like [`fit`], but with `partial` only the phases it names are fitted
/// and the others copied from its base (and measured like the fitted
/// ones): a stage of the pipeline refits the phases its labels cover and
/// keeps the rest.
pub fn fit_phases(
    train: &[Sample],
    held_out: &[Sample],
    config: &FitConfig,
    threads: usize,
    progress: &(dyn Fn(&PhaseReport) + Sync),
    partial: Option<PartialFit<'_>>,
) -> (PatternWeights, Vec<PhaseReport>) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; PHASES]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if k >= PHASES {
                    return;
                }
                let base_discs = |base: &PatternWeights| -> Vec<f64> {
                    let (_, hi) = phase_range(k);
                    base.phase_weights(hi)
                        .iter()
                        .map(|&w| f64::from(w) / f64::from(SCALE))
                        .collect()
                };
                let outcome = match partial {
                    Some(p) if !(p.refit)(k) => {
                        let (_, report) = fit_phase(k, &[], held_out, config, None);
                        (base_discs(p.base), report)
                    }
                    Some(p) if p.toward_base => {
                        fit_phase(k, train, held_out, config, Some(&base_discs(p.base)))
                    }
                    _ => fit_phase(k, train, held_out, config, None),
                };
                progress(&outcome.1);
                results.lock().expect("no fit panics")[k] = Some(outcome);
            });
        }
    });
    let results: Vec<(Vec<f64>, PhaseReport)> = results
        .into_inner()
        .expect("no fit panics")
        .into_iter()
        .map(|r| r.expect("every phase fitted"))
        .collect();
    let discs: Vec<Vec<f64>> = results.iter().map(|(w, _)| w.clone()).collect();
    let weights = PatternWeights::from_discs(&discs);
    let mut reports: Vec<PhaseReport> = results.into_iter().map(|(_, r)| r).collect();
    // The errors of the stored (rounded) weights, phase by phase.
    for report in &mut reports {
        let (lo, hi) = report.empties;
        let own = |e: u32| lo <= e && e <= hi;
        let w = &weights.phase_weights(hi);
        report.train_error = Rows::of(train, own).error(w);
        report.held_out_error = Rows::of(held_out, own).error(w);
    }
    (weights, reports)
}

/// Fits phase `k`; with a `prior` (the phase's weights in discs) the
/// penalty pulls toward it: the fit of the residuals `y - A prior`, plus
/// the prior.
fn fit_phase(
    k: usize,
    train: &[Sample],
    held_out: &[Sample],
    config: &FitConfig,
    prior: Option<&[f64]>,
) -> (Vec<f64>, PhaseReport) {
    let (lo, hi) = phase_range(k);
    let margin = config.margin;
    let mut rows = Rows::of(train, |e| e + margin >= lo && e <= hi + margin && e > 0);
    if let Some(prior) = prior {
        let predicted = rows.times(prior);
        for (t, p) in rows.targets.iter_mut().zip(predicted) {
            *t -= p;
        }
    }
    let mut w = solve(&rows, config);
    if let Some(prior) = prior {
        for (wj, pj) in w.iter_mut().zip(prior) {
            *wj += pj;
        }
    }
    let own = |e: u32| lo <= e && e <= hi;
    let test = Rows::of(held_out, own);
    let zero_error = if test.targets.is_empty() {
        0.0
    } else {
        test.targets.iter().map(|t| t.abs()).sum::<f64>() / test.targets.len() as f64
    };
    debug_assert_eq!(phase(hi), k);
    let report = PhaseReport {
        phase: k,
        empties: (lo, hi),
        train: rows.targets.len(),
        held_out: test.targets.len(),
        train_error: 0.0,
        held_out_error: 0.0,
        zero_error,
    };
    (w, report)
}
