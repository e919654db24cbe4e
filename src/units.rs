//! The units of position values, each a type of its own so that a value
//! cannot be read in the wrong one, with every conversion here:
//!
//! - [`Score`]: an exact final disc difference for the side to move (the
//!   solver's answer; under standard scoring the empty squares go to the
//!   winner).
//! - [`Eval`]: a fine evaluation for the side to move in 1/64 disc
//!   ([`Eval::PER_DISC`]; the pattern evaluation and the midgame search).
//! - [`Discs`]: a value in discs for the side to move, fractional where it
//!   is an estimate (what the front ends show).
//!
//! The counted searches of the contracts keep their own unit, black's
//! (MAX's) utility [`crate::game::Value`]; [`Discs::from_black_points`]
//! reads one of those in the mover's discs. (A utility of the first layer:
//! records and protocols write [`Discs`] too.)
//!
//! ```
//! use reversi::{Color, Discs, Eval, Score};
//! assert_eq!(Score(12).discs(), Discs(12.0));
//! assert_eq!(Eval(96).discs(), Discs(1.5)); // 64 units a disc
//! assert_eq!(Eval(96).for_color(Color::White), Eval(-96)); // black's view to white's
//! assert_eq!(format!("{:+.1}", Discs(-0.0)), "+0.0"); // never -0
//! ```

/// Units of a fine evaluation per disc.
const SCALE: i32 = 64;

use crate::board::Color;
use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub};

/// An exact final disc difference for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

/// A fine evaluation for the side to move, in 1/[`Eval::PER_DISC`] disc.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eval(pub i32);

/// A value in discs for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Discs(pub f64);

impl Score {
    /// The same score as a fine evaluation.
    #[must_use]
    pub const fn eval(self) -> Eval {
        Eval(self.0 * SCALE)
    }

    /// The same score in discs.
    #[must_use]
    pub fn discs(self) -> Discs {
        Discs(f64::from(self.0))
    }
}

impl Eval {
    /// Units of an evaluation per disc.
    pub const PER_DISC: i32 = SCALE;

    /// The evaluation in discs.
    #[must_use]
    pub fn discs(self) -> Discs {
        Discs(f64::from(self.0) / f64::from(SCALE))
    }

    /// The evaluation in the view of `color` when `self` is in the view of
    /// the side to move and `color` is to move (or the reverse).
    #[must_use]
    pub fn for_color(self, color: Color) -> Eval {
        match color {
            Color::Black => self,
            Color::White => -self,
        }
    }

    /// The evaluation in whole discs, rounded half away from zero.
    #[must_use]
    pub const fn round_discs(self) -> i32 {
        (self.0 + self.0.signum() * SCALE / 2) / SCALE
    }
}

impl Discs {
    /// The value as an evaluation: 1/64 disc, rounded to the nearest
    /// (half away from zero); the one conversion from discs to [`Eval`].
    #[must_use]
    pub fn to_eval(self) -> Eval {
        Eval((self.0 * f64::from(Eval::PER_DISC)).round() as i32)
    }

    /// A value of `points` from black's point of view, at `per_disc`
    /// points a disc, read for the player `to_move`.
    #[must_use]
    pub fn from_black_points(points: i32, per_disc: f64, to_move: Color) -> Discs {
        let v = f64::from(points) / per_disc;
        match to_move {
            Color::Black => Discs(v),
            Color::White => Discs(-v),
        }
    }

    /// The value in black's view when `self` is in the view of `color`
    /// (or the reverse: the map is its own inverse).
    #[must_use]
    pub fn for_color(self, color: Color) -> Discs {
        match color {
            Color::Black => self,
            Color::White => -self,
        }
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl Neg for Eval {
    type Output = Eval;
    fn neg(self) -> Eval {
        Eval(-self.0)
    }
}

impl Neg for Discs {
    type Output = Discs;
    fn neg(self) -> Discs {
        Discs(-self.0)
    }
}

impl Add for Discs {
    type Output = Discs;
    fn add(self, other: Discs) -> Discs {
        Discs(self.0 + other.0)
    }
}

impl AddAssign for Discs {
    fn add_assign(&mut self, other: Discs) {
        self.0 += other.0;
    }
}

impl Sub for Discs {
    type Output = Discs;
    fn sub(self, other: Discs) -> Discs {
        Discs(self.0 - other.0)
    }
}

/// A score shows as its number (`-10`).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Discs are written with any of `f64`'s format specifications (`{:.2}`,
/// `{:+7.2}`, ...), except that a value that would be written as a
/// negative zero at the precision asked for (`-0.0` itself, or `-0.001` at
/// two decimals) is written as zero: `0.00`, `+0.00`.
impl fmt::Display for Discs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        let written = match f.precision() {
            Some(decimals) => format!("{v:.decimals$}"),
            None => v.to_string(),
        };
        let negative_zero = written
            .strip_prefix('-')
            .is_some_and(|digits| digits.chars().all(|c| c == '0' || c == '.'));
        fmt::Display::fmt(&if negative_zero { 0.0 } else { v }, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_agree() {
        assert_eq!(Score(-10).eval(), Eval(-10 * SCALE));
        assert_eq!(Score(3).discs(), Discs(3.0));
        assert_eq!(Eval(SCALE / 2).discs(), Discs(0.5));
        assert_eq!(Eval(SCALE / 2).round_discs(), 1);
        assert_eq!(Eval(-SCALE / 2).round_discs(), -1);
        assert_eq!(Eval(SCALE / 2 - 1).round_discs(), 0);
        assert_eq!(Discs(1.5).to_eval(), Eval(3 * SCALE / 2));
        assert_eq!(Discs(-0.01).to_eval(), Eval(-1));
        assert_eq!(Discs(0.007).to_eval(), Eval(0));
        assert_eq!(Eval(-37).discs().to_eval(), Eval(-37));
        assert_eq!(Discs::from_black_points(16, 8.0, Color::White), Discs(-2.0));
        assert_eq!(Discs(1.5).for_color(Color::White), Discs(-1.5));
    }

    #[test]
    fn discs_never_show_negative_zero() {
        assert_eq!(format!("{:.2}", Discs(-0.0)), "0.00");
        assert_eq!(format!("{:.2}", Discs(-0.004)), "0.00");
        assert_eq!(format!("{:+.2}", Discs(-0.004)), "+0.00");
        assert_eq!(format!("{:.2}", Discs(-0.006)), "-0.01");
        assert_eq!(format!("{}", Discs(-0.0)), "0");
        assert_eq!(format!("{:.1}", Discs(2.25)), "2.2");
        assert_eq!(format!("{:+7.2}", Discs(-1.5)), "  -1.50");
        assert_eq!(format!("{:<6.1}|", Discs(1.0)), "1.0   |");
        assert_eq!(format!("{}", Score(-4)), "-4");
        for v in [-0.0, -0.001, -0.004_999] {
            assert_eq!(format!("{:>6.2}", Discs(v)), "  0.00", "{v}");
        }
        assert_eq!(format!("{:+}", Discs(-0.0)), "+0");
        assert_eq!(format!("{:+.1}", Discs(-0.04)), "+0.0");
        assert_eq!(format!("{:+.3}", Discs(-0.04)), "-0.040");
        assert_eq!(format!("{:.2}", Discs(f64::NEG_INFINITY)), "-inf");
    }
}
