//! Multi-ProbCut parameters: how well a shallow search predicts a deep one.
//!
//! For a search of `depth` plies in a phase, the deep value is modelled as
//! `a * shallow + b` plus an error of standard deviation `sigma` (all in
//! discs), where `shallow` is the value of a [`shallow_depth`] search. A
//! node whose shallow value predicts, with `t` standard deviations to
//! spare, a deep value outside the window is cut without the deep search.
//!
//! The endgame solver's selective passes use the same idea with one model
//! for every node ([`EndgameSigma`]): the exact score of a position with `n`
//! empty squares is modelled as the value of its `d`-ply pattern search
//! plus an error of standard deviation `c0 + c1 * (n - 8) + c2 * d` discs.
//!
//! The parameters are fitted on training positions by `reversi-lab train
//! probcut` and shipped as text (`data/probcut.txt`, embedded): one line
//! `depth phase a b sigma` per midgame cut and one line `endgame c0 c1 c2`.
//! A file without the `endgame` line (written before it existed) still
//! reads, as a table without the endgame model.

use crate::eval::pattern::PHASES;
use std::fmt;
use std::sync::OnceLock;

/// The deepest search depth with a cut.
pub const MAX_CUT_DEPTH: u32 = 12;

/// The shallow search depth used to predict a search of `depth` plies
/// (`depth >= 3`).
#[must_use]
pub const fn shallow_depth(depth: u32) -> u32 {
    let d = depth / 2;
    if d < 2 {
        1
    } else if depth.is_multiple_of(2) {
        d - 1
    } else {
        d
    }
}

/// The prediction of one depth in one phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// Slope.
    pub a: f64,
    /// Intercept, in discs.
    pub b: f64,
    /// Standard deviation of the error, in discs.
    pub sigma: f64,
}

/// The endgame solver's model of its cut error: the standard deviation,
/// in discs, of the exact score of a position with `n` empty squares
/// around the value of its `d`-ply pattern search is
/// `c0 + c1 * (n - 8) + c2 * d`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameSigma {
    /// Standard deviation at 8 empties and depth 0, in discs.
    pub c0: f64,
    /// Change per empty square beyond 8.
    pub c1: f64,
    /// Change per ply of the shallow search.
    pub c2: f64,
}

impl EndgameSigma {
    /// The standard deviation, in discs, at `n` empties and depth `d`
    /// (`n` below 8 counts as 8).
    #[inline]
    #[must_use]
    pub fn sigma(&self, n: u32, d: u32) -> f64 {
        self.c0 + self.c1 * f64::from(n.saturating_sub(8)) + self.c2 * f64::from(d)
    }

    /// Whether the model gives a positive standard deviation everywhere it
    /// can be used: 8 to 60 empties, depths 0 to [`ENDGAME_MAX_DEPTH`]
    /// (being linear, at the four corners).
    #[must_use]
    pub fn is_positive(&self) -> bool {
        [8, 60].iter().all(|&n| {
            [0, ENDGAME_MAX_DEPTH]
                .iter()
                .all(|&d| self.sigma(n, d) > 0.0)
        })
    }
}

/// The deepest shallow search an [`EndgameSigma`] is checked for.
pub const ENDGAME_MAX_DEPTH: u32 = 4;

/// Cuts for depths 3 to [`MAX_CUT_DEPTH`] and every phase, and the
/// endgame solver's model.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCutTable {
    cuts: Vec<Option<Cut>>,
    endgame: Option<EndgameSigma>,
}

impl Default for ProbCutTable {
    fn default() -> ProbCutTable {
        ProbCutTable {
            cuts: vec![None; (MAX_CUT_DEPTH as usize + 1) * PHASES],
            endgame: None,
        }
    }
}

/// A line of a ProbCut file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbCutError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ProbCutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ProbCutError {}

static EMBEDDED: &str = include_str!("../../data/probcut.txt");

impl ProbCutTable {
    /// The cut of `depth` plies in `phase`, if fitted.
    #[must_use]
    pub fn get(&self, depth: u32, phase: usize) -> Option<Cut> {
        if depth > MAX_CUT_DEPTH || phase >= PHASES {
            return None;
        }
        self.cuts[depth as usize * PHASES + phase]
    }

    /// Sets the cut of `depth` plies in `phase`.
    pub fn set(&mut self, depth: u32, phase: usize, cut: Cut) {
        if depth <= MAX_CUT_DEPTH && phase < PHASES {
            self.cuts[depth as usize * PHASES + phase] = Some(cut);
        }
    }

    /// The endgame solver's model, if fitted.
    #[must_use]
    pub fn endgame(&self) -> Option<EndgameSigma> {
        self.endgame
    }

    /// Sets the endgame solver's model.
    pub fn set_endgame(&mut self, model: EndgameSigma) {
        self.endgame = Some(model);
    }

    /// The project's fitted table (embedded; parsed once).
    ///
    /// # Panics
    /// If the embedded file does not parse, which the tests rule out.
    #[must_use]
    pub fn embedded() -> &'static ProbCutTable {
        static PARSED: OnceLock<ProbCutTable> = OnceLock::new();
        PARSED.get_or_init(|| {
            ProbCutTable::parse(EMBEDDED).expect("the embedded ProbCut table parses")
        })
    }

    /// The table as text: one line `depth phase a b sigma` per cut, then
    /// the line `endgame c0 c1 c2` if there is an endgame model, after
    /// comment lines starting with `#`.
    #[must_use]
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        out.push_str("# depth phase a b sigma (discs); shallow depth = reversi::engine::probcut::shallow_depth(depth)\n");
        for depth in 0..=MAX_CUT_DEPTH {
            for phase in 0..PHASES {
                if let Some(c) = self.get(depth, phase) {
                    out.push_str(&format!(
                        "{depth} {phase} {:.4} {:.4} {:.4}\n",
                        c.a, c.b, c.sigma
                    ));
                }
            }
        }
        if let Some(m) = self.endgame {
            out.push_str(
                "# endgame c0 c1 c2: the solver's sigma(n, d) = c0 + c1 * (n - 8) + c2 * d discs\n",
            );
            out.push_str(&format!("endgame {:.4} {:.4} {:.4}\n", m.c0, m.c1, m.c2));
        }
        out
    }

    /// Reads the text of [`ProbCutTable::to_text`].
    ///
    /// A file without an `endgame` line reads as a table without the
    /// endgame model.
    ///
    /// # Errors
    /// The first line that is neither a valid cut nor a valid (and first)
    /// `endgame` line.
    pub fn parse(text: &str) -> Result<ProbCutTable, ProbCutError> {
        let mut table = ProbCutTable::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |reason: &str| ProbCutError {
                line: i + 1,
                reason: reason.to_owned(),
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
            if fields.first() == Some(&"endgame") {
                let [_, c0, c1, c2] = fields[..] else {
                    return Err(err("expected 4 fields: endgame c0 c1 c2"));
                };
                let (Some(c0), Some(c1), Some(c2)) = (number(c0), number(c1), number(c2)) else {
                    return Err(err("c0, c1 and c2 must be finite numbers"));
                };
                let model = EndgameSigma { c0, c1, c2 };
                if !model.is_positive() {
                    return Err(err(
                        "the endgame sigma must be positive for 8 to 60 empties and depths 0 to 4",
                    ));
                }
                if table.endgame.replace(model).is_some() {
                    return Err(err("a second endgame line"));
                }
                continue;
            }
            let [depth, phase, a, b, sigma] = fields[..] else {
                return Err(err("expected 5 fields: depth phase a b sigma"));
            };
            let depth: u32 = depth.parse().map_err(|_| err("depth is not a number"))?;
            let phase: usize = phase.parse().map_err(|_| err("phase is not a number"))?;
            if !(3..=MAX_CUT_DEPTH).contains(&depth) || phase >= PHASES {
                return Err(err("depth or phase out of range"));
            }
            let (Some(a), Some(b), Some(sigma)) = (number(a), number(b), number(sigma)) else {
                return Err(err("a, b and sigma must be finite numbers"));
            };
            if a <= 0.0 || sigma < 0.0 {
                return Err(err("a must be positive and sigma not negative"));
            }
            table.set(depth, phase, Cut { a, b, sigma });
        }
        Ok(table)
    }
}

/// Least-squares line through `(x, y)` pairs: the cut with the residuals'
/// standard deviation; `None` with fewer than 10 pairs or no spread in x.
#[must_use]
pub fn fit_line(pairs: &[(f64, f64)]) -> Option<Cut> {
    let n = pairs.len() as f64;
    if pairs.len() < 10 {
        return None;
    }
    let (sx, sy) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = pairs.iter().map(|&(x, _)| (x - mx) * (x - mx)).sum();
    let sxy: f64 = pairs.iter().map(|&(x, y)| (x - mx) * (y - my)).sum();
    if sxx <= f64::EPSILON {
        return None;
    }
    let a = (sxy / sxx).max(0.1);
    let b = my - a * mx;
    let var = pairs
        .iter()
        .map(|&(x, y)| (y - a * x - b).powi(2))
        .sum::<f64>()
        / n;
    Some(Cut {
        a,
        b,
        sigma: var.sqrt(),
    })
}

/// The errors of one (empties, depth) cell of the endgame fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndgameCell {
    /// Empty squares.
    pub empties: u32,
    /// Depth of the shallow search.
    pub depth: u32,
    /// Positions measured.
    pub count: usize,
    /// Root mean square of exact score minus estimate, in discs: the
    /// standard deviation around the estimate itself (the solver cuts
    /// around the estimate, so a bias counts as error).
    pub sigma: f64,
    /// Mean of exact score minus estimate, in discs.
    pub bias: f64,
}

/// The endgame model fitted by [`fit_endgame`] with the cells it used.
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameFit {
    /// The fitted model.
    pub model: EndgameSigma,
    /// The cells with enough positions, by empties then depth.
    pub cells: Vec<EndgameCell>,
}

/// Fits the endgame model to `residuals`, each `(n, d, exact - estimate)`
/// in discs for a position with `n` empties and its `d`-ply estimate: per
/// (n, d) cell of at least `min_count` residuals their root mean square,
/// then `c0 + c1 * (n - 8) + c2 * d` through the cells by least squares,
/// each cell weighted by its count. `None` when the cells do not determine
/// the three coefficients (fewer than two empties counts or depths among
/// them).
#[must_use]
pub fn fit_endgame(residuals: &[(u32, u32, f64)], min_count: usize) -> Option<EndgameFit> {
    use std::collections::BTreeMap;
    let mut sums: BTreeMap<(u32, u32), (usize, f64, f64)> = BTreeMap::new();
    for &(n, d, r) in residuals {
        let e = sums.entry((n, d)).or_insert((0, 0.0, 0.0));
        *e = (e.0 + 1, e.1 + r, e.2 + r * r);
    }
    let cells: Vec<EndgameCell> = sums
        .into_iter()
        .filter(|&(_, (count, _, _))| count >= min_count.max(1))
        .map(|((empties, depth), (count, sum, squares))| EndgameCell {
            empties,
            depth,
            count,
            sigma: (squares / count as f64).sqrt(),
            bias: sum / count as f64,
        })
        .collect();
    // Normal equations of the weighted least squares: m * c = v.
    let mut m = [[0.0f64; 3]; 3];
    let mut v = [0.0f64; 3];
    for c in &cells {
        let x = [
            1.0,
            f64::from(c.empties.saturating_sub(8)),
            f64::from(c.depth),
        ];
        let w = c.count as f64;
        for ((row, vi), xi) in m.iter_mut().zip(v.iter_mut()).zip(x) {
            *vi += w * xi * c.sigma;
            for (mij, xj) in row.iter_mut().zip(x) {
                *mij += w * xi * xj;
            }
        }
    }
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(&m);
    if m[0][0] == 0.0 || d.abs() <= 1e-9 * m[0][0].powi(3) {
        return None;
    }
    // Cramer's rule.
    let coefficient = |k: usize| {
        let mut mk = m;
        for (row, &value) in mk.iter_mut().zip(&v) {
            row[k] = value;
        }
        det(&mk) / d
    };
    Some(EndgameFit {
        model: EndgameSigma {
            c0: coefficient(0),
            c1: coefficient(1),
            c2: coefficient(2),
        },
        cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_are_shallower() {
        for d in 3..=MAX_CUT_DEPTH {
            assert!(shallow_depth(d) >= 1 && shallow_depth(d) + 2 <= d, "{d}");
        }
    }

    #[test]
    fn text_round_trips_and_bad_lines_are_refused() {
        let mut t = ProbCutTable::default();
        t.set(
            4,
            3,
            Cut {
                a: 1.1,
                b: -0.5,
                sigma: 3.25,
            },
        );
        t.set(
            9,
            11,
            Cut {
                a: 0.9,
                b: 0.0,
                sigma: 5.0,
            },
        );
        assert_eq!(ProbCutTable::parse(&t.to_text("fitted")).unwrap(), t);
        // The text of a table without the endgame model (a file written
        // before the model existed) reads as such a table.
        assert_eq!(t.endgame(), None);
        t.set_endgame(EndgameSigma {
            c0: 6.5,
            c1: 0.0875,
            c2: -0.4,
        });
        let text = t.to_text("fitted");
        assert_eq!(
            text.lines().filter(|l| l.starts_with("endgame ")).count(),
            1
        );
        assert_eq!(ProbCutTable::parse(&text).unwrap(), t);
        for bad in [
            "endgame 6 0.1",
            "endgame 6 0.1 -0.4 1",
            "endgame 6 inf -0.4",
            "endgame x 0.1 -0.4",
            // Not positive at 8 empties and depth 4, or at 60 empties.
            "endgame 1 0.1 -0.4",
            "endgame 6 -0.2 0",
            "endgame 6 0.1 -0.4\nendgame 6 0.1 -0.4",
        ] {
            assert!(ProbCutTable::parse(bad).is_err(), "{bad}");
        }
        for bad in [
            "4 3 1 0",
            "2 0 1 0 1",
            "4 12 1 0 1",
            "4 0 -1 0 1",
            "4 0 1 0 nan",
            "x 0 1 0 1",
        ] {
            assert!(ProbCutTable::parse(bad).is_err(), "{bad}");
        }
        assert!(ProbCutTable::embedded().endgame().is_some());
    }

    /// A standard normal draw (Box-Muller).
    fn normal(rng: &mut crate::rng::Rng) -> f64 {
        let uniform =
            |rng: &mut crate::rng::Rng| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (u, v) = (1.0 - uniform(rng), uniform(rng));
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    #[test]
    fn the_endgame_fit_recovers_the_model_of_synthetic_errors() {
        let truth = EndgameSigma {
            c0: 6.0,
            c1: 0.1,
            c2: -0.4,
        };
        let mut rng = crate::rng::Rng::new(0x51_67_3a);
        let mut residuals = Vec::new();
        for n in 8..=20 {
            for d in [0, 2, 4] {
                for _ in 0..2000 {
                    residuals.push((n, d, truth.sigma(n, d) * normal(&mut rng)));
                }
            }
        }
        // A cell of too few residuals is left out, whatever its errors.
        residuals.extend((0..5).map(|_| (21, 0, 100.0)));
        let fit = fit_endgame(&residuals, 30).unwrap();
        assert_eq!(fit.cells.len(), 13 * 3);
        let m = fit.model;
        assert!((m.c0 - truth.c0).abs() < 0.1, "{m:?}");
        assert!((m.c1 - truth.c1).abs() < 0.01, "{m:?}");
        assert!((m.c2 - truth.c2).abs() < 0.03, "{m:?}");
        assert!(fit.cells.iter().all(|c| c.bias.abs() < 0.5), "{fit:?}");
        // Without noise the fit is exact.
        let exact: Vec<(u32, u32, f64)> = (8..=12)
            .flat_map(|n| [0, 2, 4].map(|d| (n, d, truth.sigma(n, d))))
            .collect();
        let m = fit_endgame(&exact, 1).unwrap().model;
        assert!(
            (m.c0 - 6.0).abs() < 1e-9 && (m.c1 - 0.1).abs() < 1e-9 && (m.c2 + 0.4).abs() < 1e-9
        );
        // One depth alone does not determine the model.
        let flat: Vec<(u32, u32, f64)> = (8..=12).map(|n| (n, 2, 1.0)).collect();
        assert_eq!(fit_endgame(&flat, 1), None);
        assert_eq!(fit_endgame(&[], 1), None);
    }

    #[test]
    fn a_line_is_fitted_exactly_when_there_is_no_noise() {
        let pairs: Vec<(f64, f64)> = (0..20)
            .map(|i| (f64::from(i), 2.0 * f64::from(i) + 1.0))
            .collect();
        let c = fit_line(&pairs).unwrap();
        assert!((c.a - 2.0).abs() < 1e-9 && (c.b - 1.0).abs() < 1e-9 && c.sigma < 1e-9);
    }
}
