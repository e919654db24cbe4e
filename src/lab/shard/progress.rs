//! A long stage's progress over its items, as lines for stderr: when one
//! is due and what it says (the front end keeps the clock and prints).

/// The fewest seconds between two progress lines (the last one, at the
/// end, comes whenever it is reached).
pub const PROGRESS_EVERY: f64 = 2.0;

/// Whether a progress line is due with `done` of `total` items done,
/// `since_last` seconds after the last line: at most every
/// [`PROGRESS_EVERY`] seconds, and at the last item. The one throttle of
/// the lab's progress lines (the stages' and `train probcut`'s).
#[must_use]
pub fn progress_due(done: u64, total: u64, since_last: f64) -> bool {
    since_last >= PROGRESS_EVERY || done == total
}

/// A run of a stage over its shard's items: what runs and what its items
/// are (`generate`, `games`), how many its file held before this run and
/// how many it holds when done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageProgress {
    /// What runs (`generate`).
    pub what: &'static str,
    /// What its items are (`games`).
    pub unit: &'static str,
    /// The items done before this run.
    pub done_before: u64,
    /// The items of the run's shard in all.
    pub total: u64,
}

impl StageProgress {
    /// Whether the file holds every item already: nothing is left to run.
    #[must_use]
    pub const fn is_done(&self) -> bool {
        self.done_before >= self.total
    }

    /// The line saying that the file `out` holds every item already.
    #[must_use]
    pub fn already_done(&self, out: &str) -> String {
        format!(
            "{}: {out} already holds its {} {}",
            self.what, self.done_before, self.unit
        )
    }

    /// Whether a line is due with `done` items done, `since_last` seconds
    /// after the last one ([`progress_due`]).
    #[must_use]
    pub fn is_due(&self, done: u64, since_last: f64) -> bool {
        progress_due(done, self.total, since_last)
    }

    /// The line for `done` items done `elapsed` seconds after the run
    /// started: this run's rate and the time left at that rate.
    #[must_use]
    pub fn line(&self, done: u64, elapsed: f64) -> String {
        let rate = (done - self.done_before) as f64 / elapsed;
        format!(
            "{}: {done}/{} {}, {rate:.1}/s, about {:.0} s left",
            self.what,
            self.total,
            self.unit,
            (self.total - done) as f64 / rate
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_say_the_rate_and_the_time_left() {
        let p = StageProgress {
            what: "label",
            unit: "positions",
            done_before: 10,
            total: 110,
        };
        // 30 of this run's positions in 12 s: 2.5 a second, 60 left.
        assert_eq!(
            p.line(40, 12.0),
            "label: 40/110 positions, 2.5/s, about 28 s left"
        );
        assert_eq!(
            p.line(110, 40.0),
            "label: 110/110 positions, 2.5/s, about 0 s left"
        );
        assert!(!p.is_due(40, 1.9));
        assert!(p.is_due(40, 2.0));
        assert!(p.is_due(110, 0.1), "the last line whenever it comes");
        assert!(!p.is_done());
        let done = StageProgress {
            done_before: 110,
            ..p
        };
        assert!(done.is_done());
        assert_eq!(
            done.already_done("l.txt"),
            "label: l.txt already holds its 110 positions"
        );
    }
}
