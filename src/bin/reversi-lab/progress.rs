//! Progress on stderr: the clock and the printing of a long run's lines
//! (the library's [`StageEvent`]s and [`StageProgress`] lines), at most
//! every 2 seconds.

use reversi::lab::shard::{StageEvent, StageProgress};
use std::time::Instant;

/// A command's progress lines, none with `--quiet`.
pub struct Progress {
    quiet: bool,
    run: Option<(StageProgress, Instant, Instant)>,
}

impl Progress {
    /// No line yet; `quiet`: none at all.
    pub fn new(quiet: bool) -> Progress {
        Progress { quiet, run: None }
    }

    /// A run of `total` items, none done, whose clock starts now.
    pub fn of(what: &'static str, unit: &'static str, quiet: bool, total: u64) -> Progress {
        let mut progress = Progress::new(quiet);
        progress.start(StageProgress {
            what,
            unit,
            done_before: 0,
            total,
        });
        progress
    }

    /// The run of `stage` starts now.
    fn start(&mut self, stage: StageProgress) {
        let now = Instant::now();
        self.run = Some((stage, now, now));
    }

    /// A line to show unless `--quiet`.
    pub fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }

    /// Reports that `done` of the run's items are done (a line when one
    /// is due).
    pub fn at(&mut self, done: u64) {
        let Some((stage, start, last)) = &mut self.run else {
            return;
        };
        if self.quiet || !stage.is_due(done, last.elapsed().as_secs_f64()) {
            return;
        }
        *last = Instant::now();
        eprintln!("{}", stage.line(done, start.elapsed().as_secs_f64()));
    }

    /// Shows what a stage writing the file `out` reports.
    pub fn event(&mut self, out: &str, event: StageEvent) {
        match event {
            StageEvent::Note(text) => self.note(&text),
            StageEvent::Opened(stage) if stage.is_done() => self.note(&stage.already_done(out)),
            StageEvent::Opened(stage) => self.start(stage),
            StageEvent::Written(done) => self.at(done),
        }
    }
}
