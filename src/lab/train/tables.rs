//! The training stages' measurement tables, as values with their rows
//! computed here and their Markdown text by [`fmt::Display`]: the fit's
//! per-phase errors ([`FitTable`]), the weights' error on exact positions
//! ([`TestTable`]), the labels' error against reference labels
//! ([`CompareTable`]) and the second test set's errors by the move's loss
//! ([`MovesTable`]).

use super::labels::Label;
use super::off_path::{errors_by_estimated_loss, errors_by_loss, loss_table, ClassError};
use crate::eval::pattern::fit::{PhaseReport, Sample};
use crate::eval::pattern::{PatternWeights, SCALE};
use crate::units::Eval;
use std::collections::HashMap;
use std::fmt;

/// The fit's report per phase (`train fit`).
#[derive(Clone, Debug, PartialEq)]
pub struct FitTable {
    /// The phases' reports, in order.
    pub rows: Vec<PhaseReport>,
}

impl fmt::Display for FitTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("| phase | empties | training positions | held-out positions | training error | held-out error | error of 0 |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")?;
        for r in &self.rows {
            writeln!(
                f,
                "| {} | {}-{} | {} | {} | {:.2} | {:.2} | {:.2} |",
                r.phase,
                r.empties.0,
                r.empties.1,
                r.train,
                r.held_out,
                r.train_error,
                r.held_out_error,
                r.zero_error
            )?;
        }
        Ok(())
    }
}

/// One row of a [`TestTable`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestRow {
    /// Empty squares.
    pub empties: u32,
    /// Positions with that many.
    pub positions: usize,
    /// The weights' mean absolute error on them, in discs.
    pub error: f64,
}

/// The mean absolute error of weights on exactly labelled positions, by
/// number of empty squares (`train fit --test`, `train heldout`).
#[derive(Clone, Debug, PartialEq)]
pub struct TestTable {
    /// The file of the positions, named in the title.
    pub name: String,
    /// A row per number of empty squares held, most first.
    pub rows: Vec<TestRow>,
}

impl TestTable {
    /// Measures `weights` on the `exact` positions of the file `name`.
    #[must_use]
    pub fn measure(weights: &PatternWeights, exact: &[Sample], name: &str) -> TestTable {
        let mut rows = Vec::new();
        for empties in (0..=60).rev() {
            let here: Vec<&Sample> = exact.iter().filter(|s| s.empties() == empties).collect();
            if here.is_empty() {
                continue;
            }
            let error: f64 = here
                .iter()
                .map(|s| {
                    let v = f64::from(weights.evaluate(s.p, s.o)) / f64::from(SCALE);
                    (v - f64::from(s.target)).abs()
                })
                .sum::<f64>()
                / here.len() as f64;
            rows.push(TestRow {
                empties,
                positions: here.len(),
                error,
            });
        }
        TestTable {
            name: name.to_owned(),
            rows,
        }
    }
}

impl fmt::Display for TestTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\nExact positions of {}:\n\n| empties | positions | mean absolute error (discs) |\n| ---: | ---: | ---: |\n",
            self.name
        )?;
        for r in &self.rows {
            writeln!(f, "| {} | {} | {:.2} |", r.empties, r.positions, r.error)?;
        }
        Ok(())
    }
}

/// The error of labels against reference labels on one set of positions:
/// their count, and the sums of the absolute and signed differences, in
/// discs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ErrorSums {
    /// Positions.
    pub positions: u64,
    /// Sum of |label - reference|.
    pub absolute: f64,
    /// Sum of label - reference.
    pub signed: f64,
}

impl ErrorSums {
    fn add(&mut self, other: ErrorSums) {
        self.positions += other.positions;
        self.absolute += other.absolute;
        self.signed += other.signed;
    }
}

/// Labels measured against reference labels on the positions both hold,
/// per number of empty squares (`train compare`).
#[derive(Clone, Debug, PartialEq)]
pub struct CompareTable {
    /// The label file measured, named in the title.
    pub labels: String,
    /// The reference label file, named in the title.
    pub reference: String,
    /// A row per number of empty squares held, most first.
    pub rows: Vec<(u32, ErrorSums)>,
    /// All rows together.
    pub total: ErrorSums,
}

impl CompareTable {
    /// Measures `labels` (of the file `labels_name`) against `reference`
    /// (of `reference_name`): a position labelled in both counts once per
    /// label of `labels`.
    ///
    /// # Errors
    /// [`NothingInCommon`] when no position is labelled in both: a table
    /// of no row would measure nothing.
    pub fn measure(
        labels: &[Label],
        reference: &[Label],
        labels_name: &str,
        reference_name: &str,
    ) -> Result<CompareTable, NothingInCommon> {
        let truth: HashMap<(u64, u64), Eval> = reference
            .iter()
            .map(|l| ((l.position.player, l.position.opponent), l.value))
            .collect();
        let mut cells = [ErrorSums::default(); 61];
        for l in labels {
            let key = (l.position.player, l.position.opponent);
            if let Some(t) = truth.get(&key) {
                let d = f64::from(l.value.0 - t.0) / f64::from(Eval::PER_DISC);
                let c = &mut cells[(64 - (key.0 | key.1).count_ones()) as usize];
                c.add(ErrorSums {
                    positions: 1,
                    absolute: d.abs(),
                    signed: d,
                });
            }
        }
        let mut total = ErrorSums::default();
        let mut rows = Vec::new();
        for (empties, &c) in cells.iter().enumerate().rev() {
            if c.positions > 0 {
                rows.push((empties as u32, c));
                total.add(c);
            }
        }
        if total.positions == 0 {
            return Err(NothingInCommon(format!(
                "{labels_name} and {reference_name} have no position in common"
            )));
        }
        Ok(CompareTable {
            labels: labels_name.to_owned(),
            reference: reference_name.to_owned(),
            rows,
            total,
        })
    }
}

message_error! {
    /// Why two label files cannot be compared: they label no position in
    /// common (the message names both).
    pub struct NothingInCommon(pub String);
}

impl fmt::Display for CompareTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Labels of {} against {} ({} positions in both):\n\n| empties | positions | mean absolute error (discs) | mean error (discs) |\n| ---: | ---: | ---: | ---: |\n",
            self.labels, self.reference, self.total.positions
        )?;
        let row = |f: &mut fmt::Formatter<'_>, name: &str, c: ErrorSums| {
            let count = c.positions as f64;
            writeln!(
                f,
                "| {name} | {} | {:.2} | {:+.2} |",
                c.positions,
                c.absolute / count,
                c.signed / count
            )
        };
        for (empties, c) in &self.rows {
            row(f, &empties.to_string(), *c)?;
        }
        row(f, "all", self.total)
    }
}

/// The weights' error on the positions after every move of exactly
/// labelled parents (`train heldout-moves`): per number of empty squares,
/// then by the move's loss, for the static evaluation and for each level's
/// move list measured.
#[derive(Clone, Debug, PartialEq)]
pub struct MovesTable {
    /// The static evaluation's error per number of empty squares.
    pub test: TestTable,
    /// The moves measured (the positions after them).
    pub moves: usize,
    /// The parents whose moves they are.
    pub parents: usize,
    /// The static evaluation's error on the moves' values, by the move's
    /// loss.
    pub by_loss: Vec<ClassError>,
    /// The same, by the loss the evaluation estimates.
    pub by_estimated_loss: Vec<ClassError>,
    /// Each level's move list's error, by the move's loss, in the order
    /// measured.
    pub levels: Vec<(u32, Vec<ClassError>)>,
}

impl MovesTable {
    /// Measures `weights` on `children`, the exact labels of the positions
    /// after the moves of the exact labels `parents`, of the file `name`;
    /// no level yet.
    ///
    /// # Errors
    /// As [`errors_by_loss`]: a child of no parent, a label not exact.
    pub fn measure(
        weights: &PatternWeights,
        parents: &[Label],
        children: &[Label],
        name: &str,
    ) -> Result<MovesTable, String> {
        let estimate = |c: &Label| Eval(weights.evaluate(c.position.player, c.position.opponent));
        let by_loss = errors_by_loss(parents, children, estimate)?;
        let by_estimated_loss = errors_by_estimated_loss(parents, children, estimate)?;
        let samples: Vec<Sample> = children.iter().map(Label::sample).collect();
        Ok(MovesTable {
            test: TestTable::measure(weights, &samples, name),
            moves: children.len(),
            parents: parents.len(),
            by_loss,
            by_estimated_loss,
            levels: Vec::new(),
        })
    }
}

impl fmt::Display for MovesTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.test)?;
        f.write_str(&loss_table(
            &format!(
                "\nThe static evaluation's error on the moves' values (minus the positions' after them), by the move's loss ({} moves of {} positions):",
                self.moves, self.parents
            ),
            &self.by_loss,
        ))?;
        f.write_str(&loss_table(
            "\nThe same, by the loss the static evaluation estimates (its best move's value minus the move's, rounded):",
            &self.by_estimated_loss,
        ))?;
        for (level, rows) in &self.levels {
            f.write_str(&loss_table(
                &format!("\nLevel {level}'s move list (every move ranked as `reversi hint --level {level}` ranks them), by the move's loss:"),
                rows,
            ))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::symmetry::canonical;
    use crate::lab::train::labels::{LabelSource, ListedPosition};

    /// A label of the position `(p, o)` (made canonical) valued `discs`.
    fn label(p: u64, o: u64, discs: i32) -> Label {
        let ((player, opponent), _) = canonical(p, o);
        Label {
            position: ListedPosition {
                item: 0,
                game: 0,
                player,
                opponent,
            },
            value: Eval(discs * Eval::PER_DISC),
            source: LabelSource::Exact,
        }
    }

    #[test]
    fn compare_rows_are_per_empties_with_a_total() {
        let start = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        // After f5: 59 empty squares.
        let after = (0x0000_0010_0000_0000, 0x0000_0008_1c00_0000);
        let measured = [
            label(start.0, start.1, 4),
            label(after.0, after.1, -2),
            label(1, 2 | 4 | 8, 0),
        ];
        let reference = [label(start.0, start.1, 2), label(after.0, after.1, 0)];
        let table = CompareTable::measure(&measured, &reference, "a", "b").expect("in common");
        assert_eq!(table.total.positions, 2);
        assert_eq!(
            table.to_string(),
            "Labels of a against b (2 positions in both):\n\n| empties | positions | mean absolute error (discs) | mean error (discs) |\n| ---: | ---: | ---: | ---: |\n| 60 | 1 | 2.00 | +2.00 |\n| 59 | 1 | 2.00 | -2.00 |\n| all | 2 | 2.00 | +0.00 |\n"
        );
        let none = CompareTable::measure(&measured[2..], &reference, "a", "b");
        assert_eq!(
            none,
            Err(NothingInCommon(
                "a and b have no position in common".to_owned()
            ))
        );
    }

    #[test]
    fn fit_and_test_tables() {
        let report = PhaseReport {
            phase: 3,
            empties: (40, 44),
            train: 100,
            held_out: 10,
            train_error: 1.234,
            held_out_error: 2.0,
            zero_error: 9.999,
        };
        assert_eq!(
            FitTable { rows: vec![report] }.to_string(),
            "| phase | empties | training positions | held-out positions | training error | held-out error | error of 0 |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n| 3 | 40-44 | 100 | 10 | 1.23 | 2.00 | 10.00 |\n"
        );
        let weights = PatternWeights::zero();
        let exact = [
            label(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, 3).sample(),
            label(0x0000_0008_1000_0000, 0x0000_0010_0800_0000, -1).sample(),
        ];
        // Zero weights value every position 0: the errors are 3 and 1.
        assert_eq!(weights.evaluate(exact[0].p, exact[0].o), 0);
        let table = TestTable::measure(&weights, &exact, "t.txt");
        assert_eq!(
            table.rows,
            [TestRow {
                empties: 60,
                positions: 2,
                error: 2.0
            }]
        );
        assert_eq!(
            table.to_string(),
            "\nExact positions of t.txt:\n\n| empties | positions | mean absolute error (discs) |\n| ---: | ---: | ---: |\n| 60 | 2 | 2.00 |\n"
        );
    }

    /// By hand, with zero weights (every position valued 0): after the
    /// four opening moves (59 empty squares), three children valued 0 and
    /// one valued +4 for its side to move, so that its move loses 4 discs
    /// of the parent's 0 and the static estimate values it 4 discs too
    /// kindly.
    #[test]
    fn moves_table_by_hand() {
        let start = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let parent = label(start.0, start.1, 0);
        let after = (0x0000_0010_0000_0000, 0x0000_0008_1c00_0000);
        let children: Vec<Label> = [0, 0, 0, 4]
            .iter()
            .enumerate()
            .map(|(i, &discs)| {
                let mut c = label(after.0, after.1, discs);
                c.position.item = i as u64;
                c
            })
            .collect();
        let weights = PatternWeights::zero();
        let mut table =
            MovesTable::measure(&weights, &[parent], &children, "m.txt").expect("exact");
        assert_eq!((table.moves, table.parents), (4, 1));
        assert_eq!(
            table.test.rows,
            [TestRow {
                empties: 59,
                positions: 4,
                error: 1.0
            }]
        );
        let head = "\nExact positions of m.txt:\n\n| empties | positions | mean absolute error (discs) |\n| ---: | ---: | ---: |\n| 59 | 4 | 1.00 |\n\nThe static evaluation's error on the moves' values (minus the positions' after them), by the move's loss (4 moves of 1 positions):\n| the move | moves | mean error (discs) | bias (discs) |\n| --- | ---: | ---: | ---: |\n| best | 3 | 0.00 | +0.00 |\n| loses 1-6 | 1 | 4.00 | +4.00 |\n| all | 4 | 1.00 | +1.00 |\n\nThe same, by the loss the static evaluation estimates (its best move's value minus the move's, rounded):\n| the move | moves | mean error (discs) | bias (discs) |\n| --- | ---: | ---: | ---: |\n| best | 4 | 1.00 | +1.00 |\n| all | 4 | 1.00 | +1.00 |\n";
        assert_eq!(table.to_string(), head);
        table.levels.push((5, Vec::new()));
        assert_eq!(
            table.to_string(),
            format!("{head}\nLevel 5's move list (every move ranked as `reversi hint --level 5` ranks them), by the move's loss:\n| the move | moves | mean error (discs) | bias (discs) |\n| --- | ---: | ---: | ---: |\n")
        );
        // A child of no parent is refused.
        assert!(MovesTable::measure(&weights, &[], &children, "m.txt").is_err());
    }
}
