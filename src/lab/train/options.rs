//! The training stages' options decided on their text and values, without
//! a command line: the ranges of empty squares and the selectivity
//! (`--empties A-B`, `--selectivity SIGMAS`, clap's value parsers), the
//! evaluation by name and the games' settings together (`train generate`),
//! and the held-out set's bound (`train heldout`). The messages name the
//! options.

use super::GameSettings;
use crate::eval::Heuristic;
use std::ops::RangeInclusive;

message_error! {
    /// Why a stage's options are refused: the message, naming the options.
    pub struct OptionError(pub String);
}

/// Reads `A-B` or `A` (empty squares, 0 to 60).
///
/// # Errors
/// Anything else, or `A` above `B`, or `B` above 60: the message quotes
/// `text`.
pub fn parse_empties(text: &str) -> Result<RangeInclusive<u32>, String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let number = |t: &str| {
        (!t.is_empty() && t.len() <= 2 && t.bytes().all(|c| c.is_ascii_digit()))
            .then(|| t.parse::<u32>().ok())
            .flatten()
    };
    match (number(a), number(b)) {
        (Some(a), Some(b)) if a <= b && b <= 60 => Ok(a..=b),
        _ => Err(format!("{text:?} is not A-B or A with 0 <= A <= B <= 60")),
    }
}

/// Reads a number of standard deviations (0.1 to 10).
///
/// # Errors
/// Anything else: the message quotes `text`.
pub fn parse_selectivity(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.1..=10.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "{text:?} is not a number of standard deviations from 0.1 to 10"
        )),
    }
}

/// The evaluation `--eval NAME` names.
///
/// # Errors
/// A name of none of the four.
pub fn eval_named(name: &str) -> Result<Heuristic, OptionError> {
    Heuristic::by_name(name).ok_or_else(|| {
        OptionError(format!(
            "--eval {name:?} is not disc, weights, strong or pattern"
        ))
    })
}

impl GameSettings {
    /// Checks `train generate`'s settings together; `weights_given`:
    /// whether `--weights` was given (for `--level`'s search alone).
    ///
    /// # Errors
    /// More fewest random moves than most, or weights without a level.
    pub fn check(&self, weights_given: bool) -> Result<(), OptionError> {
        if self.random_min > self.random_max {
            return Err(OptionError(
                "--random-min is larger than --random-max".to_owned(),
            ));
        }
        if self.level.is_none() && weights_given {
            return Err(OptionError(
                "--weights is for --level's search: give --level too".to_owned(),
            ));
        }
        Ok(())
    }
}

/// The most empty squares `train heldout` solves exactly (as `train label
/// --exact-empties` and the engine's `--exact`): one position of 30 can
/// take hours.
pub const MAX_HELDOUT_EMPTIES: u32 = 30;

/// Checks `train heldout --empties`.
///
/// # Errors
/// Positions of more than [`MAX_HELDOUT_EMPTIES`] empty squares.
pub fn check_heldout_empties(empties: &RangeInclusive<u32>) -> Result<(), OptionError> {
    if *empties.end() > MAX_HELDOUT_EMPTIES {
        return Err(OptionError(format!(
            "--empties {}-{}: heldout solves every position exactly, at most {MAX_HELDOUT_EMPTIES} empty squares",
            empties.start(),
            empties.end()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empties_are_a_range_within_the_board() {
        assert_eq!(parse_empties("20-24"), Ok(20..=24));
        assert_eq!(parse_empties("7"), Ok(7..=7));
        assert_eq!(parse_empties("0-60"), Ok(0..=60));
        for bad in [
            "", "-", "24-20", "0-61", "100", "+1", "1-", "-1", "1-2-3", "007", " 1",
        ] {
            assert_eq!(
                parse_empties(bad),
                Err(format!("{bad:?} is not A-B or A with 0 <= A <= B <= 60")),
                "{bad:?}"
            );
        }
        assert_eq!(check_heldout_empties(&(20..=30)), Ok(()));
        assert_eq!(
            check_heldout_empties(&(20..=31)),
            Err(OptionError(
                "--empties 20-31: heldout solves every position exactly, at most 30 empty squares"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn selectivity_is_a_tenth_to_ten_deviations() {
        assert_eq!(parse_selectivity("1.5"), Ok(1.5));
        assert_eq!(parse_selectivity("0.1"), Ok(0.1));
        assert_eq!(parse_selectivity("10"), Ok(10.0));
        for bad in ["0.09", "10.5", "x", "", "NaN", "-1"] {
            assert!(parse_selectivity(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            parse_selectivity("11"),
            Err("\"11\" is not a number of standard deviations from 0.1 to 10".to_owned())
        );
    }

    #[test]
    fn generate_settings_are_checked_together() {
        assert_eq!(eval_named("pattern"), Ok(Heuristic::Pattern));
        assert_eq!(
            eval_named("best"),
            Err(OptionError(
                "--eval \"best\" is not disc, weights, strong or pattern".to_owned()
            ))
        );
        let settings = GameSettings::default();
        assert_eq!(settings.check(false), Ok(()));
        let reversed = GameSettings {
            random_min: 25,
            ..settings
        };
        assert_eq!(
            reversed.check(true),
            Err(OptionError(
                "--random-min is larger than --random-max".to_owned()
            ))
        );
        assert_eq!(
            settings.check(true),
            Err(OptionError(
                "--weights is for --level's search: give --level too".to_owned()
            ))
        );
        let level = GameSettings {
            level: Some(3),
            ..settings
        };
        assert_eq!(level.check(true), Ok(()));
    }
}
