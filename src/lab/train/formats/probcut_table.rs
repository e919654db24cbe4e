//! The Multi-ProbCut table of `train probcut`: comment lines (`# `, the
//! first its title naming how it was fitted, then the endgame model's
//! cells), then the table's lines ([`ProbCutTable::to_text`]).

use crate::engine::probcut::{EndgameFit, ProbCutTable};
use crate::lab::shard::FileKind;
use crate::lab::train::ENDGAME_FIT_MIN_EMPTIES;
use std::fmt::Write as _;
use std::io::{self, Write};

/// The first words of a table's title line.
pub const TITLE: &str = "Multi-ProbCut table";

/// A Multi-ProbCut table: its first line is `# ` and the [`TITLE`].
pub const PROBCUT: FileKind = FileKind {
    start: "# Multi-ProbCut table",
    former: None,
    kind: "a Multi-ProbCut table",
};

/// How a table was fitted.
#[derive(Clone, Copy, Debug)]
pub struct Fitted<'a> {
    /// The games of the games file.
    pub games: usize,
    /// Positions searched per phase.
    pub positions: usize,
    /// The deepest search fitted.
    pub depth: u32,
    /// The fewest solved positions of an endgame cell.
    pub cell_positions: usize,
    /// The endgame model fitted, if any.
    pub endgame: Option<&'a EndgameFit>,
    /// The midgame positions: one in N off the games' path, or the games' own.
    pub off_path: Option<u64>,
    /// The exact labels also given to the endgame model.
    pub exact_labels: usize,
}

/// The table's comment (its lines without the `# `): the title, and the
/// endgame model's cells when there is one.
#[must_use]
pub fn comment(f: &Fitted) -> String {
    let mut comment = format!(
        "{TITLE} fitted by `reversi-lab train probcut` on {} games, {} positions per phase, depths 3-{}",
        f.games, f.positions, f.depth
    );
    if let Some(every) = f.off_path {
        let _ = write!(comment, ", off the games' path (1/{every})");
    }
    if f.exact_labels > 0 {
        let _ = write!(comment, ", {} exact labels", f.exact_labels);
    }
    if let Some(fit) = f.endgame {
        let _ = write!(
            comment,
            "\nendgame model: RMS of exact score minus estimate per (empties, depth) cell of at least {} solved positions with {ENDGAME_FIT_MIN_EMPTIES}+ empties, least squares weighted by the cells' counts\nendgame cell: empties depth positions sigma bias (discs)",
            f.cell_positions
        );
        for c in &fit.cells {
            let _ = write!(
                comment,
                "\nendgame cell: {} {} {} {:.3} {:.3}",
                c.empties, c.depth, c.count, c.sigma, c.bias
            );
        }
    }
    comment
}

/// The table's text: the comment of `fitted` and the lines of `table`.
#[must_use]
pub fn text(table: &ProbCutTable, fitted: &Fitted) -> String {
    table.to_text(&comment(fitted))
}

/// Writes the table's text ([`text`]) to `out`.
///
/// # Errors
/// `out`'s write errors.
pub fn write(out: &mut impl Write, table: &ProbCutTable, fitted: &Fitted) -> io::Result<()> {
    out.write_all(text(table, fitted).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::probcut::{EndgameCell, EndgameSigma};

    #[test]
    fn the_signature_is_the_title_line() {
        assert_eq!(PROBCUT.start, format!("# {TITLE}"));
        let fitted = Fitted {
            games: 10,
            positions: 40,
            depth: 8,
            cell_positions: 30,
            endgame: None,
            off_path: None,
            exact_labels: 0,
        };
        let table = ProbCutTable::default();
        let mut bytes = Vec::new();
        write(&mut bytes, &table, &fitted).expect("a Vec");
        let text = String::from_utf8(bytes).expect("text");
        assert!(PROBCUT.starts(&text));
        assert!(text.starts_with("# Multi-ProbCut table fitted by `reversi-lab train probcut` on 10 games, 40 positions per phase, depths 3-8\n# depth phase"), "{text}");
    }

    #[test]
    fn the_endgame_model_lists_its_cells() {
        let fit = EndgameFit {
            model: EndgameSigma {
                c0: 1.0,
                c1: 0.0,
                c2: 0.0,
            },
            cells: vec![EndgameCell {
                empties: 12,
                depth: 2,
                count: 31,
                sigma: 2.5,
                bias: -0.25,
            }],
        };
        let fitted = Fitted {
            games: 1,
            positions: 2,
            depth: 3,
            cell_positions: 30,
            endgame: Some(&fit),
            off_path: Some(4),
            exact_labels: 7,
        };
        assert_eq!(
            comment(&fitted),
            "Multi-ProbCut table fitted by `reversi-lab train probcut` on 1 games, 2 positions per phase, depths 3-3, off the games' path (1/4), 7 exact labels\nendgame model: RMS of exact score minus estimate per (empties, depth) cell of at least 30 solved positions with 8+ empties, least squares weighted by the cells' counts\nendgame cell: empties depth positions sigma bias (discs)\nendgame cell: 12 2 31 2.500 -0.250"
        );
    }
}
