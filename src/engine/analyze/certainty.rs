//! How a value's [`Certainty`] is named, once for every front end: the
//! kind of value (`book`, `estimate`, `win-loss-draw`, `exact`,
//! [`Certainty::kind`]) with its details, the short text the command line
//! prints ([`fmt::Display`]: `depth 12`, `book (level 12)`), and the
//! outcome a proof of win/loss/draw proved ([`Outcome`]). The command
//! line's text and JSON, the web API and NBoard's `search` lines write
//! these in their own formats; the names and their meaning are these.

use super::{Certainty, MoveValue};
use std::fmt;

impl Certainty {
    /// The kind of value, as every front end names it: `estimate` (a
    /// search's estimate at a depth), `win-loss-draw` (the outcome is
    /// proved, the value is an estimate on its side), `exact` (the final
    /// disc difference with perfect play) or `book` (the opening book's
    /// value).
    #[must_use]
    pub const fn kind(self) -> &'static str {
        match self {
            Certainty::Estimate { .. } => "estimate",
            Certainty::WinLossDraw => "win-loss-draw",
            Certainty::Exact => "exact",
            Certainty::Book { .. } => "book",
        }
    }
}

/// The command line's text of a certainty: `exact`, `win-loss-draw`,
/// `depth N` (an estimate of a search N plies deep), `book (level L)` or,
/// for a book position that games reached, `book (level L, G games)`.
impl fmt::Display for Certainty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Certainty::Estimate { depth } => write!(f, "depth {depth}"),
            Certainty::Book { level, games: 0 } => write!(f, "book (level {level})"),
            Certainty::Book { level, games } => write!(f, "book (level {level}, {games} games)"),
            c => f.write_str(c.kind()),
        }
    }
}

/// The result a proof of win/loss/draw proved, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins with perfect play.
    Win,
    /// Neither side wins.
    Draw,
    /// The side to move loses with perfect play.
    Loss,
}

impl Outcome {
    /// The outcome a value of `certainty` proves: for a proof of
    /// win/loss/draw the sign of its value (an estimate on the proved
    /// side); `None` for any other kind, which proves no outcome apart
    /// from its value (an exact value is its own outcome).
    #[must_use]
    pub fn proved(value: f64, certainty: Certainty) -> Option<Outcome> {
        (certainty == Certainty::WinLossDraw).then_some(if value > 0.0 {
            Outcome::Win
        } else if value < 0.0 {
            Outcome::Loss
        } else {
            Outcome::Draw
        })
    }

    /// `win`, `draw` or `loss`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl MoveValue {
    /// The outcome the move's value proves, if it is a proof of
    /// win/loss/draw ([`Outcome::proved`]).
    #[must_use]
    pub fn proved_outcome(&self) -> Option<Outcome> {
        Outcome::proved(self.value.0, self.certainty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_certainty_has_one_kind_and_one_text() {
        let all = [
            (Certainty::Estimate { depth: 12 }, "estimate", "depth 12"),
            (Certainty::WinLossDraw, "win-loss-draw", "win-loss-draw"),
            (Certainty::Exact, "exact", "exact"),
            (
                Certainty::Book {
                    level: 16,
                    games: 3,
                },
                "book",
                "book (level 16, 3 games)",
            ),
            (
                Certainty::Book {
                    level: 12,
                    games: 0,
                },
                "book",
                "book (level 12)",
            ),
        ];
        for (c, kind, text) in all {
            assert_eq!((c.kind(), c.to_string().as_str()), (kind, text));
        }
    }

    #[test]
    fn only_a_proof_of_win_loss_draw_proves_an_outcome_by_its_sign() {
        let wld = Certainty::WinLossDraw;
        assert_eq!(Outcome::proved(-22.0, wld), Some(Outcome::Loss));
        assert_eq!(Outcome::proved(2.0, wld), Some(Outcome::Win));
        assert_eq!(Outcome::proved(0.0, wld), Some(Outcome::Draw));
        assert_eq!(Outcome::proved(4.0, Certainty::Exact), None);
        assert_eq!(Outcome::proved(4.0, Certainty::Estimate { depth: 8 }), None);
        assert_eq!(Outcome::Loss.to_string(), "loss");
    }
}
