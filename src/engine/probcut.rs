//! Multi-ProbCut parameters: how well a shallow search predicts a deep one.
//!
//! For a search of `depth` plies in a phase, the deep value is modelled as
//! `a * shallow + b` plus an error of standard deviation `sigma` (all in
//! discs), where `shallow` is the value of a [`shallow_depth`] search. A
//! node whose shallow value predicts, with `t` standard deviations to
//! spare, a deep value outside the window is cut without the deep search.
//!
//! The parameters are fitted on training positions by `reversi train
//! probcut` and shipped as text (`data/probcut.txt`, embedded).

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

/// Cuts for depths 3 to [`MAX_CUT_DEPTH`] and every phase.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCutTable {
    cuts: Vec<Option<Cut>>,
}

impl Default for ProbCutTable {
    fn default() -> ProbCutTable {
        ProbCutTable {
            cuts: vec![None; (MAX_CUT_DEPTH as usize + 1) * PHASES],
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

    /// The table as text: one line `depth phase a b sigma` per cut, after
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
        out
    }

    /// Reads the text of [`ProbCutTable::to_text`].
    ///
    /// # Errors
    /// The first line that is not a valid cut.
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
            let [depth, phase, a, b, sigma] = fields[..] else {
                return Err(err("expected 5 fields: depth phase a b sigma"));
            };
            let depth: u32 = depth.parse().map_err(|_| err("depth is not a number"))?;
            let phase: usize = phase.parse().map_err(|_| err("phase is not a number"))?;
            if !(3..=MAX_CUT_DEPTH).contains(&depth) || phase >= PHASES {
                return Err(err("depth or phase out of range"));
            }
            let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
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
        let _ = ProbCutTable::embedded();
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
