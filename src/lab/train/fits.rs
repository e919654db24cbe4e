//! The two fits' stages as computations, without files: `train fit` (the
//! pattern weights fitted to training and held-out positions, whole or
//! some phases of a base, with its tables: [`fit_weights`], [`FitReport`])
//! and `train probcut` (the Multi-ProbCut table and the endgame model, with
//! the table's text: [`fit_probcut_table`]).

use super::formats::probcut_table::{self, Fitted};
use super::labels::{combined_samples, Duplicates, Label, LabelSource};
use super::tables::{FitTable, TestTable};
use super::{fit_endgame_sigma, fit_probcut, samples, TrainingGame, ENDGAME_FIT_MIN_EMPTIES};
use crate::engine::probcut::{EndgameFit, ProbCutTable};
use crate::eval::pattern::fit::{
    fit_phases, phase_range, FitConfig, PartialFit, PhaseReport, Sample,
};
use crate::eval::pattern::PatternWeights;
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// A fit of some phases of a base's weights (`train fit --refit A-B
/// --base WEIGHTS [--toward-base]`).
#[derive(Clone, Copy, Debug)]
pub struct Refit<'a> {
    /// The weights whose other phases are kept.
    pub base: &'a PatternWeights,
    /// The empty squares whose phases are refitted: every phase holding
    /// positions of them ([`refits_phase`]).
    pub empties: &'a RangeInclusive<u32>,
    /// Whether the penalty pulls each refitted weight toward its base
    /// value instead of toward zero.
    pub toward_base: bool,
}

/// Whether phase `k` holds positions of some of `empties` empty squares
/// (a `--refit` of `empties` refits it).
#[must_use]
pub fn refits_phase(empties: &RangeInclusive<u32>, k: usize) -> bool {
    let (lo, hi) = phase_range(k);
    lo <= *empties.end() && *empties.start() <= hi
}

/// `train fit`'s tables: the fit's per phase and, with a test file, the
/// weights' error on its exact positions.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The fit's report per phase.
    pub fit: FitTable,
    /// The fitted weights on the test file's exact positions, if one was
    /// given.
    pub test: Option<TestTable>,
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fit)?;
        match &self.test {
            Some(test) => write!(f, "{test}"),
            None => Ok(()),
        }
    }
}

message_error! {
    /// Why `train fit` has nothing to fit: no game and no label given.
    pub struct NothingToFit(pub String);
}

/// The training and held-out positions of `train fit`: the games'
/// positions labelled by their results unless `labels` label them, a
/// position labelled twice as `duplicates` says ([`combined_samples`]).
///
/// # Errors
/// [`NothingToFit`] when there is neither a game nor a label.
pub fn fit_samples(
    games: &[TrainingGame],
    labels: &[Label],
    duplicates: Duplicates,
) -> Result<(Vec<Sample>, Vec<Sample>), NothingToFit> {
    if games.is_empty() && labels.is_empty() {
        return Err(NothingToFit(
            "no positions to fit: give --games or --labels with games or labels in them".to_owned(),
        ));
    }
    Ok(combined_samples(games, labels, duplicates))
}

/// Fits the pattern weights to `train` (measured on `held_out`) with
/// `config` on `threads` threads, every phase or, with `refit`, only the
/// phases it names (the others the base's); `progress` hears of each
/// phase done. With `test`, the games of a file and its name, the fitted
/// weights are measured on the games' exactly solved positions
/// ([`exact_samples`]). Returns the weights and the tables.
#[must_use]
pub fn fit_weights(
    train: &[Sample],
    held_out: &[Sample],
    config: &FitConfig,
    threads: usize,
    progress: &(dyn Fn(&PhaseReport) + Sync),
    refit: Option<Refit<'_>>,
    test: Option<(&str, &[TrainingGame])>,
) -> (PatternWeights, FitReport) {
    let refits = |k: usize| refit.is_some_and(|r| refits_phase(r.empties, k));
    let partial = refit.map(|r| PartialFit {
        base: r.base,
        refit: &refits,
        toward_base: r.toward_base,
    });
    let (weights, rows) = fit_phases(train, held_out, config, threads, progress, partial);
    let test = test.map(|(name, games)| TestTable::measure(&weights, &exact_samples(games), name));
    let report = FitReport {
        fit: FitTable { rows },
        test,
    };
    (weights, report)
}

/// The exactly solved positions of `games` (from each game's solve on),
/// training and held-out alike, each once up to symmetry.
#[must_use]
pub fn exact_samples(games: &[TrainingGame]) -> Vec<Sample> {
    let (train, held_out) = samples(games, true);
    train.into_iter().chain(held_out).collect()
}

/// How `train probcut` fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbcutSettings {
    /// Positions searched per phase.
    pub positions: usize,
    /// The deepest search fitted.
    pub depth: u32,
    /// The fewest solved positions of an (empties, depth) cell of the
    /// endgame model's fit.
    pub cell_positions: u64,
    /// Worker threads.
    pub threads: usize,
    /// The midgame lines fitted on positions off the games' path (one in
    /// N of the positions after the moves their players did not make:
    /// [`super::off_path::deviation_list`]) instead of the games' own.
    pub off_path: Option<u64>,
}

/// The fitted Multi-ProbCut table.
#[derive(Clone, Debug)]
pub struct ProbcutFit {
    /// The table, with the endgame model when there is one.
    pub table: ProbCutTable,
    /// The endgame model's fit, if the games' solved lines gave one.
    pub endgame: Option<EndgameFit>,
    /// The table's text, as its file holds it.
    pub text: String,
    /// The fewest solved positions of an endgame cell the fit used.
    pub cell_positions: usize,
}

impl ProbcutFit {
    /// The warning that the table has no endgame model, or `None` if it
    /// has one.
    #[must_use]
    pub fn missing_endgame(&self) -> Option<String> {
        self.endgame.is_none().then(|| format!(
            "no endgame model (the table has no `endgame` line, so a solver given it runs no selective passes): the games' solved lines give no cells of {} positions with {ENDGAME_FIT_MIN_EMPTIES}+ empties at two depths and two empties counts",
            self.cell_positions
        ))
    }
}

/// Fits `train probcut`'s table to `games` with `weights`: the endgame
/// model ([`fit_endgame_sigma`] of the games' solved lines and the exact
/// labels `exact`), then the midgame searches' lines ([`fit_probcut`] of
/// the games' positions, or of positions off their path with
/// `settings.off_path`; `progress` hearing of each position searched), and
/// the table's text naming how.
#[must_use]
pub fn fit_probcut_table(
    games: &[TrainingGame],
    exact: &[Label],
    weights: &Arc<PatternWeights>,
    settings: &ProbcutSettings,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> ProbcutFit {
    let positions: Vec<Sample> = match settings.off_path {
        Some(every) => super::off_path::deviation_list(games, &(0..=60), every)
            .iter()
            .map(|p| Sample {
                p: p.player,
                o: p.opponent,
                target: 0.0,
            })
            .collect(),
        None => samples(games, false).0,
    };
    let cell_positions = usize::try_from(settings.cell_positions).unwrap_or(usize::MAX);
    let exact: Vec<Sample> = exact
        .iter()
        .filter(|l| l.source == LabelSource::Exact)
        .map(Label::sample)
        .collect();
    let endgame = fit_endgame_sigma(games, &exact, weights, cell_positions);
    let mut table = fit_probcut(
        &positions,
        weights,
        settings.positions,
        settings.depth,
        settings.threads,
        progress,
    );
    if let Some(fit) = &endgame {
        table.set_endgame(fit.model);
    }
    let fitted = Fitted {
        games: games.len(),
        positions: settings.positions,
        depth: settings.depth,
        cell_positions,
        endgame: endgame.as_ref(),
        off_path: settings.off_path,
        exact_labels: exact.len(),
    };
    let text = probcut_table::text(&table, &fitted);
    ProbcutFit {
        table,
        endgame,
        text,
        cell_positions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::probcut::ProbCutTable;
    use crate::eval::pattern::{phase, PHASES};
    use crate::lab::train::test_games;

    /// Against the evaluation's own phase of each number of empty
    /// squares: a phase is refitted exactly when it is the phase of one of
    /// the empties asked.
    #[test]
    fn a_refit_takes_the_phases_of_its_empties() {
        for a in 0..=60 {
            for b in a..=60 {
                for k in 0..PHASES {
                    assert_eq!(
                        refits_phase(&(a..=b), k),
                        (a..=b).any(|e| phase(e) == k),
                        "{a}-{b} phase {k}"
                    );
                }
            }
        }
    }

    /// A refit of 0-12 empty squares keeps the base's other phases
    /// weight for weight; the test table measures the fitted weights on
    /// the test games' exact positions, printed after the fit's.
    #[test]
    fn a_refit_keeps_the_other_phases_and_the_test_table_follows() {
        let games = test_games(12, 12);
        let (train, held_out) = samples(&games, false);
        let base = PatternWeights::embedded();
        let config = FitConfig {
            iterations: 3,
            ..FitConfig::default()
        };
        let refit = Refit {
            base,
            empties: &(0..=12),
            toward_base: false,
        };
        let (weights, report) = fit_weights(
            &train,
            &held_out,
            &config,
            2,
            &|_| {},
            Some(refit),
            Some(("test.txt", &games[..4])),
        );
        assert_eq!(report.fit.rows.len(), PHASES);
        for k in 0..PHASES {
            let (_, hi) = phase_range(k);
            let kept = weights.phase_weights(hi) == base.phase_weights(hi);
            assert_eq!(kept, !refits_phase(&(0..=12), k), "phase {k}");
        }
        let exact = exact_samples(&games[..4]);
        assert!(!exact.is_empty() && exact.iter().all(|s| s.empties() <= 12));
        let test = TestTable::measure(&weights, &exact, "test.txt");
        assert_eq!(report.test.as_ref(), Some(&test));
        assert_eq!(report.to_string(), format!("{}{test}", report.fit));
        let (_, alone) = fit_weights(&train, &held_out, &config, 1, &|_| {}, None, None);
        assert_eq!(
            fit_samples(&games, &[], Duplicates::First),
            Ok(combined_samples(&games, &[], Duplicates::First))
        );
        assert_eq!(
            fit_samples(&[], &[], Duplicates::MeanOfSearches),
            Err(NothingToFit(
                "no positions to fit: give --games or --labels with games or labels in them"
                    .to_owned()
            ))
        );
        assert_eq!(alone.to_string(), alone.fit.to_string());
    }

    /// The table's text parses back to the table; cells of more solved
    /// positions than the games hold give no endgame model, and say so.
    #[test]
    fn the_probcut_fit_writes_its_table_and_says_when_it_has_no_endgame_model() {
        let games = test_games(6, 12);
        let weights = PatternWeights::shared_embedded();
        let settings = ProbcutSettings {
            positions: 10,
            depth: 3,
            cell_positions: 3,
            threads: 2,
            off_path: None,
        };
        let heard = std::sync::Mutex::new(Vec::new());
        let fit = fit_probcut_table(&games, &[], weights, &settings, &|done, total| {
            heard.lock().expect("no panics").push((done, total));
        });
        assert!(fit.endgame.is_some() && fit.missing_endgame().is_none());
        // As written (rounded), the table reads back to the same text.
        let parsed = ProbCutTable::parse(&fit.text).expect("parses");
        assert_eq!(parsed.to_text("c"), fit.table.to_text("c"));
        assert!(parsed.endgame().is_some());
        assert!((3..=3).any(|d| (0..PHASES).any(|k| parsed.get(d, k).is_some())));
        assert!(fit.text.starts_with("# Multi-ProbCut table fitted by `reversi-lab train probcut` on 6 games, 10 positions per phase, depths 3-3\n"), "{}", fit.text);
        assert!(fit.text.contains("\n# endgame cell: "), "{}", fit.text);
        let heard = heard.into_inner().expect("no panics");
        assert!(!heard.is_empty() && heard.iter().all(|&(d, t)| d <= t));
        let none = ProbcutSettings {
            cell_positions: u64::MAX,
            ..settings
        };
        let fit = fit_probcut_table(&games, &[], weights, &none, &|_, _| {});
        assert!(fit.endgame.is_none());
        assert!(!fit.text.contains("endgame"), "{}", fit.text);
        assert_eq!(
            fit.missing_endgame().expect("a warning"),
            format!("no endgame model (the table has no `endgame` line, so a solver given it runs no selective passes): the games' solved lines give no cells of {} positions with 8+ empties at two depths and two empties counts", usize::MAX)
        );
    }
}
