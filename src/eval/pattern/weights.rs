//! The weight set of the pattern evaluation and its file format.
//!
//! A weights file is, in little-endian order: the 8 bytes `RVPATTRN`, the
//! format version (u32), the layout id (u32: a checksum of the pattern
//! list, so weights of another pattern set are refused), the number of
//! phases (u32), the weights per phase (u32), the scale (u32, weights are
//! in 1/scale disc), then every weight (i16) phase by phase, and last an
//! FNV-1a 64-bit checksum (u64) of everything before it.
//!
//! Version 2 holds a phase's parity pair ([`super::PARITY_WEIGHTS`]) as
//! its last two weights; version 1, the first files, holds every other
//! weight in the same order and is read with a parity pair of zeros.
//! Weights whose parity pairs are all zero are written as version 1, so
//! that they keep the bytes and the checksum they always had (the checksum
//! names weights in the lab's files).

use super::gather::GatherKernel;
use super::{
    features, other_features, phase, Row, PATTERNS, PHASES, SCALE, WEIGHTS_PER_PHASE,
    WEIGHTS_PER_PHASE_V1,
};
use crate::files::Signature;
use std::fmt;
use std::sync::{Arc, OnceLock};

const MAGIC: &[u8; 8] = b"RVPATTRN";
/// How a weights file begins: what a writer that replaces only weights
/// files looks for.
pub const WEIGHTS_SIGNATURE: Signature = Signature::of_magic(MAGIC, "a weights file");
/// The newest version of the weights file format, which this build reads
/// and writes (with version 1: see the module's documentation).
pub const FORMAT_VERSION: u32 = 2;
const HEADER: usize = 8 + 5 * 4;
/// The length in bytes of a weights file of this build's layout, of the
/// newest version (the longest): a reader needs no more than this (and one
/// byte to see that a file is longer).
pub const FILE_BYTES: usize = file_bytes(WEIGHTS_PER_PHASE);

/// The length of a weights file of `per_phase` weights a phase.
const fn file_bytes(per_phase: usize) -> usize {
    HEADER + 2 * PHASES * per_phase + 8
}

/// The weights of every phase of the pattern evaluation.
#[derive(Clone)]
pub struct PatternWeights {
    /// Phase by phase, then one 0.
    weights: Vec<i16>,
    /// Each phase's weights as the searches' evaluation from
    /// [`super::Indices`] reads them ([`super::indices::fold_phase`]),
    /// made at the phase's first such evaluation.
    folded: [OnceLock<Box<[i32]>>; PHASES],
}

impl PartialEq for PatternWeights {
    fn eq(&self, other: &PatternWeights) -> bool {
        // The folded tables follow from the weights.
        self.weights == other.weights
    }
}

impl Eq for PatternWeights {}

/// The weights stored: every phase's and the trailing 0.
const STORED: usize = PHASES * WEIGHTS_PER_PHASE + 1;

impl fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nonzero = self.weights.iter().filter(|&&w| w != 0).count();
        write!(
            f,
            "PatternWeights({nonzero} of {} non-zero)",
            PHASES * WEIGHTS_PER_PHASE
        )
    }
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// Shorter than its header says.
    Truncated {
        /// The bytes found.
        found: usize,
        /// The bytes the header announces.
        expected: usize,
    },
    /// Not a weights file (wrong magic bytes).
    NotWeights,
    /// A format version this build does not read.
    Version(u32),
    /// Weights for another pattern set, phase count, size or scale.
    Layout,
    /// The checksum does not match: the file is corrupt.
    Checksum,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Truncated { found, expected } => write!(
                f,
                "is truncated ({found} bytes, a weights file of this layout has {expected})"
            ),
            WeightsError::NotWeights => f.write_str("is not a pattern weights file"),
            WeightsError::Version(v) => write!(
                f,
                "has format version {v}; this build reads versions 1 to {FORMAT_VERSION}"
            ),
            WeightsError::Layout => {
                f.write_str("holds weights for another pattern set (retrain with this build)")
            }
            WeightsError::Checksum => f.write_str("is corrupt (checksum mismatch)"),
        }
    }
}

impl std::error::Error for WeightsError {}

use crate::hash::fnv1a;

/// A checksum of the pattern list: names and squares.
fn layout_id() -> u32 {
    let mut text = Vec::new();
    for p in &PATTERNS {
        text.extend_from_slice(p.name.as_bytes());
        text.extend_from_slice(p.squares);
    }
    fnv1a(&text) as u32
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// The project's trained weights, embedded in the binary.
static EMBEDDED_FILE: &[u8] = include_bytes!("../../../data/pattern-weights.bin");

impl PatternWeights {
    /// All weights zero: every position evaluates to 0.
    #[must_use]
    pub fn zero() -> PatternWeights {
        PatternWeights::of(vec![0; STORED])
    }

    /// Weights from values in discs, phase by phase (`PHASES` slices of
    /// `WEIGHTS_PER_PHASE`), rounded to the stored precision and clamped to
    /// its range.
    ///
    /// # Panics
    /// If the slices do not have that shape.
    #[must_use]
    pub fn from_discs(phases: &[Vec<f64>]) -> PatternWeights {
        assert_eq!(phases.len(), PHASES, "one weight vector per phase");
        let mut weights = Vec::with_capacity(STORED);
        for w in phases {
            assert_eq!(w.len(), WEIGHTS_PER_PHASE, "weights per phase");
            weights.extend(w.iter().map(|&x| {
                (x * f64::from(SCALE))
                    .round()
                    .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
            }));
        }
        weights.push(0);
        PatternWeights::of(weights)
    }

    /// Weights stored as [`PatternWeights::weights`] holds them.
    fn of(weights: Vec<i16>) -> PatternWeights {
        debug_assert_eq!(weights.len(), STORED);
        PatternWeights {
            weights,
            folded: std::array::from_fn(|_| OnceLock::new()),
        }
    }

    /// The folded table of phase `k` ([`super::indices::fold_phase`]).
    #[inline(always)]
    fn folded(&self, k: usize) -> &[i32] {
        self.folded[k].get_or_init(|| {
            super::indices::fold_phase(&self.weights[k * WEIGHTS_PER_PHASE..][..WEIGHTS_PER_PHASE])
        })
    }

    /// The weights of the phase of positions with `empties` empty squares.
    #[inline]
    #[must_use]
    pub fn phase_weights(&self, empties: u32) -> &[i16] {
        let k = phase(empties);
        &self.weights[k * WEIGHTS_PER_PHASE..(k + 1) * WEIGHTS_PER_PHASE]
    }

    /// The value, in 1/[`SCALE`] disc, of the 8x8 position where the side
    /// to move has discs `p` and the other side `o`, for the side to move.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        let w = self.phase_weights(64 - (p | o).count_ones());
        features(p, o)
            .iter()
            .map(|&i| i32::from(w[i as usize]))
            .sum()
    }

    /// [`PatternWeights::evaluate`] of the position `p` against `o` from
    /// its pattern readings as the side to move sees them (`mover`: the
    /// [`super::Indices`] of the position) and both sides' legal moves:
    /// the same sum, without reading the board's images, the readings'
    /// weights summed by the kernel `k`.
    #[inline(always)]
    #[must_use]
    pub fn evaluate_indexed<K: GatherKernel>(
        &self,
        k: K,
        mover: &Row,
        p: u64,
        o: u64,
        mover_moves: u64,
        opponent_moves: u64,
    ) -> i32 {
        let w = self.folded(phase(64 - (p | o).count_ones()));
        let mut sum = k.pattern_sum(w, mover);
        for i in other_features(p, o, mover_moves, opponent_moves) {
            sum += w[i as usize];
        }
        sum
    }

    /// The project's trained weights (embedded in the binary; parsed once).
    ///
    /// # Panics
    /// If the embedded file is not a valid weights file of this build,
    /// which the crate's tests rule out.
    #[must_use]
    pub fn embedded() -> &'static PatternWeights {
        Self::shared_embedded()
    }

    /// [`PatternWeights::embedded`] as a shared handle, for a search to
    /// keep: the default of every search that is given no weights. (Other
    /// weights reach a search only by being passed to it:
    /// `Analyzer::with_weights`, `MidgameSearch::new`,
    /// `EndgameSolver::set_weights`, [`crate::eval::Evaluation`].)
    #[must_use]
    pub fn shared_embedded() -> &'static Arc<PatternWeights> {
        static PARSED: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        PARSED.get_or_init(|| {
            Arc::new(
                PatternWeights::parse(EMBEDDED_FILE, false)
                    .expect("the embedded weights file is valid"),
            )
        })
    }

    /// The checksum of the weights file's bytes (its last 8 bytes): names
    /// these weights in the records of what was made with them.
    #[must_use]
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"))
    }

    /// Every phase's weights (without the trailing 0).
    fn phases(&self) -> std::slice::ChunksExact<'_, i16> {
        self.weights[..PHASES * WEIGHTS_PER_PHASE].chunks_exact(WEIGHTS_PER_PHASE)
    }

    /// Whether every phase's parity pair is zero (the weights of a model
    /// without the parity term, written as format version 1).
    fn without_parity(&self) -> bool {
        self.phases()
            .all(|phase| phase[WEIGHTS_PER_PHASE_V1..].iter().all(|&w| w == 0))
    }

    /// The weights file's bytes: format version 1 when every parity pair
    /// is zero (the bytes such weights always had), else version 2.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let (version, per_phase) = if self.without_parity() {
            (1, WEIGHTS_PER_PHASE_V1)
        } else {
            (FORMAT_VERSION, WEIGHTS_PER_PHASE)
        };
        let mut out = Vec::with_capacity(file_bytes(per_phase));
        out.extend_from_slice(MAGIC);
        for x in [
            version,
            layout_id(),
            PHASES as u32,
            per_phase as u32,
            SCALE as u32,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for phase in self.phases() {
            for w in &phase[..per_phase] {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// A [`WeightsError`] saying why the bytes are not weights this build
    /// can use.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        PatternWeights::parse(bytes, true)
    }

    /// Reads a weights file, checking its checksum if `check` (the
    /// embedded file's is checked by the crate's tests instead: its FNV-1a
    /// over 4 MB took a fifth of a `hint`'s start).
    fn parse(bytes: &[u8], check: bool) -> Result<PatternWeights, WeightsError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        if bytes.len() < HEADER {
            return Err(WeightsError::Truncated {
                found: bytes.len(),
                expected: FILE_BYTES,
            });
        }
        let version = read_u32(bytes, 8);
        let per_phase = match version {
            1 => WEIGHTS_PER_PHASE_V1,
            FORMAT_VERSION => WEIGHTS_PER_PHASE,
            _ => return Err(WeightsError::Version(version)),
        };
        let expected = file_bytes(per_phase);
        let shape = [
            read_u32(bytes, 12),
            read_u32(bytes, 16),
            read_u32(bytes, 20),
            read_u32(bytes, 24),
        ];
        if shape != [layout_id(), PHASES as u32, per_phase as u32, SCALE as u32] {
            return Err(WeightsError::Layout);
        }
        if bytes.len() != expected {
            return Err(WeightsError::Truncated {
                found: bytes.len(),
                expected,
            });
        }
        let (body, sum) = bytes.split_at(expected - 8);
        if check && fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(WeightsError::Checksum);
        }
        let mut weights = vec![0; STORED];
        let read = body[HEADER..].chunks_exact(2 * per_phase);
        for (phase, bytes) in weights.chunks_exact_mut(WEIGHTS_PER_PHASE).zip(read) {
            for (w, c) in phase.iter_mut().zip(bytes.chunks_exact(2)) {
                *w = i16::from_le_bytes([c[0], c[1]]);
            }
        }
        Ok(PatternWeights::of(weights))
    }
}

/// Reads the weights file `path`: a regular file, of which at most one
/// byte more than a weights file's length is read.
///
/// # Errors
/// A file that cannot be read or is not a weights file
/// ([`UsageError`](crate::files::UsageError)).
#[cfg(feature = "files")]
pub fn read_weights(path: &str) -> anyhow::Result<PatternWeights> {
    use crate::files::input::{open_regular, read_capped};
    use crate::files::usage;
    use std::path::Path;
    let (file, len) = open_regular(Path::new(path), &format!("weights {path}"))?;
    let bytes = read_capped(file, FILE_BYTES as u64, &format!("weights {path}"))?;
    PatternWeights::from_bytes(&bytes).or_else(|e| {
        let why = match e {
            WeightsError::Truncated { .. } if bytes.len() > FILE_BYTES => format!(
                "is longer than a weights file of this layout ({len} bytes, expected {FILE_BYTES})"
            ),
            e => e.to_string(),
        };
        usage(format!("weights file {path} {why}"))
    })
}

/// The weights a command measures or searches with: those of the file
/// `path` when given ([`read_weights`]), else the embedded ones.
///
/// # Errors
/// As [`read_weights`].
#[cfg(feature = "files")]
pub fn weights_or_embedded(path: Option<&str>) -> anyhow::Result<Arc<PatternWeights>> {
    Ok(match path {
        Some(path) => Arc::new(read_weights(path)?),
        None => Arc::clone(PatternWeights::shared_embedded()),
    })
}
