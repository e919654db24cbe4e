//! The sum of the pattern readings' weights, by kernel: one load per
//! reading on any CPU ([`Portable`]), eight per vector gather with AVX2
//! ([`Avx2`], [`Avx512`]): about 12% less time for the midgame search
//! than the loads one by one (`cargo bench --bench midgame`, AMD EPYC).

use super::indices::READING_BASE;
use super::{Row, OFFSETS, PATTERNS, PATTERN_FEATURES, WEIGHTS_PER_PHASE};
#[cfg(target_arch = "x86_64")]
use crate::board::bits::{Avx2, Avx512};
use crate::board::bits::{Kernel, Portable};

/// A kernel that sums the weights of pattern readings.
pub trait GatherKernel: Kernel {
    /// The sum of `w[READING_BASE[f] + row[f]]` over the pattern readings
    /// `f` (`row` holding readings of a position: each below 3 to its
    /// pattern's squares), where `w` starts at a phase's first weight and
    /// holds at least one value after the phase's last. (The vector
    /// kernels hold any reading within its pattern's weights, so that
    /// they read no memory outside `w` whatever `row` holds.)
    ///
    /// # Panics
    /// If `w` is shorter than that.
    fn pattern_sum(self, w: &[i16], row: &Row) -> i32;
}

/// The last weight of each reading's pattern.
#[cfg(target_arch = "x86_64")]
const READING_LAST: [u32; PATTERN_FEATURES] = {
    let mut last = [0u32; PATTERN_FEATURES];
    let mut f = 0;
    while f < PATTERN_FEATURES {
        last[f] = (OFFSETS.0[f / 8] + PATTERNS[f / 8].configurations() - 1) as u32;
        f += 1;
    }
    last
};

impl GatherKernel for Portable {
    #[inline(always)]
    fn pattern_sum(self, w: &[i16], row: &Row) -> i32 {
        assert!(
            w.len() > WEIGHTS_PER_PHASE,
            "a phase's weights and one more"
        );
        let mut sum = 0;
        for f in 0..PATTERN_FEATURES {
            sum += i32::from(w[(READING_BASE[f] + u32::from(row[f])) as usize]);
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
impl GatherKernel for Avx2 {
    #[inline(always)]
    fn pattern_sum(self, w: &[i16], row: &Row) -> i32 {
        // SAFETY: an `Avx2` exists only where `detect` found AVX2.
        unsafe { avx2::pattern_sum(w, row) }
    }
}

#[cfg(target_arch = "x86_64")]
impl GatherKernel for Avx512 {
    #[inline(always)]
    fn pattern_sum(self, w: &[i16], row: &Row) -> i32 {
        // SAFETY: an `Avx512` exists only where `detect` found its
        // features, AVX2 among them. (Its 16-lane gathers measured slower
        // than two of the AVX2 kernel's 8 lanes on an AMD EPYC.)
        unsafe { avx2::pattern_sum(w, row) }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Row, PATTERN_FEATURES, READING_BASE, READING_LAST, WEIGHTS_PER_PHASE};
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_cvtepu16_epi32,
        _mm256_extracti128_si256, _mm256_i32gather_epi32, _mm256_loadu_si256, _mm256_min_epu32,
        _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srai_epi32, _mm_add_epi32,
        _mm_cvtsi128_si32, _mm_loadu_si128, _mm_shuffle_epi32,
    };

    const GROUPS: usize = PATTERN_FEATURES / 8;
    const _: () = assert!(GROUPS * 8 == PATTERN_FEATURES);

    /// [`super::GatherKernel::pattern_sum`]: eight readings per step,
    /// held within their patterns, their weights read as 32-bit words by
    /// one gather (the weight in the low half) and sign-extended.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn pattern_sum(w: &[i16], row: &Row) -> i32 {
        assert!(
            w.len() > WEIGHTS_PER_PHASE,
            "a phase's weights and one more"
        );
        let mut acc = _mm256_setzero_si256();
        for g in 0..GROUPS {
            // SAFETY: the loads read 8 u16 of `row` and 8 u32 of each
            // table at `8 g`, inside them (`8 g + 8 <= 88`).
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
            // SAFETY: every index is at most WEIGHTS_PER_PHASE - 1 (held
            // by `last`), so each 4-byte read at `2 * index` ends within
            // the WEIGHTS_PER_PHASE + 1 weights of `w` (asserted above).
            let words = unsafe { _mm256_i32gather_epi32::<2>(w.as_ptr().cast::<i32>(), index) };
            acc = _mm256_add_epi32(acc, _mm256_srai_epi32(_mm256_slli_epi32(words, 16), 16));
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
