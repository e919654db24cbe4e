//! [`DiscValue`]: a value in discs as records, protocols and reports write
//! it, never as `-0.00`.

use std::fmt;

/// A value in discs (an evaluation, a loss, a margin) for writing with any
/// of `f64`'s format specifications (`{:.2}`, `{:+7.2}`, ...), except that
/// a value that would be written as a negative zero at the precision asked
/// for (`-0.0` itself, or `-0.001` at two decimals) is written as zero:
/// `0.00`, `+0.00`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiscValue(pub f64);

impl fmt::Display for DiscValue {
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
    use super::DiscValue;

    #[test]
    fn zero_is_never_written_negative() {
        for v in [-0.0, 0.0, -0.001, -0.004_999] {
            assert_eq!(format!("{:.2}", DiscValue(v)), "0.00", "{v}");
            assert_eq!(format!("{:+7.2}", DiscValue(v)), "  +0.00", "{v}");
            assert_eq!(format!("{:>6.2}", DiscValue(v)), "  0.00", "{v}");
        }
        assert_eq!(format!("{}", DiscValue(-0.0)), "0");
        assert_eq!(format!("{:+}", DiscValue(-0.0)), "+0");
        // What rounds away from zero keeps its sign, at every precision.
        assert_eq!(format!("{:.2}", DiscValue(-0.006)), "-0.01");
        assert_eq!(format!("{:+.1}", DiscValue(-0.04)), "+0.0");
        assert_eq!(format!("{:+.3}", DiscValue(-0.04)), "-0.040");
        assert_eq!(format!("{:+7.2}", DiscValue(-1.5)), "  -1.50");
        assert_eq!(format!("{:.2}", DiscValue(2.0)), "2.00");
        assert_eq!(format!("{:.2}", DiscValue(f64::NEG_INFINITY)), "-inf");
    }
}
