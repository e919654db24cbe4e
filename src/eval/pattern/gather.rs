//! The sum of the kept pattern readings' weights (a phase's table made by
//! `indices::fold_phase`), by kernel: one load per reading on any CPU
//! ([`Portable`]), eight per vector gather with AVX2 ([`Avx2`],
//! [`Avx512`]): about 12% less time for the midgame search than the loads
//! one by one (`cargo bench --bench midgame`, AMD EPYC).

use super::indices::{KEPT, READINGS, READING_BASE};
use super::{Row, LANES, OFFSETS, PATTERNS, WEIGHTS_PER_PHASE};
#[cfg(target_arch = "x86_64")]
use crate::board::bits::{Avx2, Avx512};
use crate::board::bits::{Kernel, Portable};

/// A kernel that sums the weights of pattern readings.
pub trait GatherKernel: Kernel {
    /// The sum of `w[READING_BASE[r] + row[r]]` over the kept pattern
    /// readings `r` (`row` holding readings of a position: each below 3
    /// to its pattern's squares), where `w` is a phase's folded table
    /// (its weights and one 0 after them). (The vector kernels hold any
    /// reading within its pattern's weights, so that they read no memory
    /// outside `w` whatever `row` holds.)
    ///
    /// # Panics
    /// If `w` is shorter than that.
    fn pattern_sum(self, w: &[i32], row: &Row) -> i32;
}

/// The last weight of each kept reading's pattern (the padding lanes':
/// the table's last, a 0).
#[cfg(target_arch = "x86_64")]
const READING_LAST: [u32; LANES] = {
    let mut last = [WEIGHTS_PER_PHASE as u32; LANES];
    let mut r = 0;
    while r < READINGS {
        let t = KEPT[r].0;
        last[r] = (OFFSETS.0[t] + PATTERNS[t].configurations() - 1) as u32;
        r += 1;
    }
    last
};

impl GatherKernel for Portable {
    #[inline(always)]
    fn pattern_sum(self, w: &[i32], row: &Row) -> i32 {
        assert!(
            w.len() > WEIGHTS_PER_PHASE,
            "a phase's weights and one more"
        );
        let mut sum = 0;
        for r in 0..READINGS {
            sum += w[(READING_BASE[r] + u32::from(row[r])) as usize];
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
impl GatherKernel for Avx2 {
    #[inline(always)]
    fn pattern_sum(self, w: &[i32], row: &Row) -> i32 {
        // SAFETY: an `Avx2` exists only where `detect` found AVX2.
        unsafe { avx2::pattern_sum(w, row) }
    }
}

#[cfg(target_arch = "x86_64")]
impl GatherKernel for Avx512 {
    #[inline(always)]
    fn pattern_sum(self, w: &[i32], row: &Row) -> i32 {
        // SAFETY: an `Avx512` exists only where `detect` found its
        // features, AVX2 among them. (Its 16-lane gathers measured slower
        // than two of the AVX2 kernel's 8 lanes on an AMD EPYC.)
        unsafe { avx2::pattern_sum(w, row) }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Row, LANES, READINGS, READING_BASE, READING_LAST, WEIGHTS_PER_PHASE};
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_cvtepu16_epi32,
        _mm256_extracti128_si256, _mm256_i32gather_epi32, _mm256_loadu_si256, _mm256_min_epu32,
        _mm256_setzero_si256, _mm_add_epi32, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_shuffle_epi32,
    };

    /// Steps of eight readings (the last ones padding, which read the
    /// table's last weight, a 0).
    const GROUPS: usize = READINGS.div_ceil(8);
    const _: () = assert!(GROUPS * 8 <= LANES);

    /// [`super::GatherKernel::pattern_sum`]: eight readings per step,
    /// held within their patterns, their weights read by one gather.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn pattern_sum(w: &[i32], row: &Row) -> i32 {
        assert!(
            w.len() > WEIGHTS_PER_PHASE,
            "a phase's weights and one more"
        );
        let mut acc = _mm256_setzero_si256();
        for g in 0..GROUPS {
            // SAFETY: the loads read 8 u16 of `row` and 8 u32 of each
            // table at `8 g`, inside them (`8 g + 8 <= LANES`).
            let (readings, base, last) = unsafe {
                (
                    _mm_loadu_si128(row.as_ptr().add(8 * g).cast::<__m128i>()),
                    _mm256_loadu_si256(READING_BASE.as_ptr().add(8 * g).cast::<__m256i>()),
                    _mm256_loadu_si256(READING_LAST.as_ptr().add(8 * g).cast::<__m256i>()),
                )
            };
            let index = _mm256_min_epu32(
                _mm256_add_epi32(_mm256_cvtepu16_epi32(readings), base),
                last,
            );
            // SAFETY: every index is at most WEIGHTS_PER_PHASE (held by
            // `last`), within the WEIGHTS_PER_PHASE + 1 weights of `w`
            // (asserted above).
            let words = unsafe { _mm256_i32gather_epi32::<4>(w.as_ptr(), index) };
            acc = _mm256_add_epi32(acc, words);
        }
        let h = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256(acc, 1),
        );
        let h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0b01_00_11_10));
        let h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0b10_11_00_01));
        _mm_cvtsi128_si32(h)
    }
}
