//! Kernels: the bitboard primitives a search is compiled with, chosen at
//! run time.
//!
//! The default build targets every x86-64 CPU (and any other architecture),
//! so it cannot assume AVX2, BMI2 or even POPCNT. A search therefore takes
//! a kernel type parameter `K: Kernel` and is compiled once per kernel:
//! with [`Portable`] (scalar code, any CPU) and, on x86-64, with [`Avx2`]
//! (vector move generation, `pext`, `popcnt`, `lzcnt`, `tzcnt`) and
//! [`Avx512`] (the same code compiled for AVX-512), whose values can only
//! be obtained from their `detect`, so holding one proves the CPU has the
//! features. [`with_best_kernel!`] picks the kernel once,
//! at the top of a search.
//!
//! The kernel's methods are `#[inline(always)]`, so a search's loop keeps
//! them inline. Recursive functions are never inlined into themselves, so
//! each recursive (or large, not inlined) function of a search is entered
//! through a method of a small per-search trait made by
//! [`kernel_entries!`]: for [`Avx2`] that method calls a copy of the
//! function compiled with [`AVX2_FEATURES`] (`#[target_feature]`; for
//! [`Avx512`] with [`AVX512_FEATURES`]), inside
//! which the generic body, `#[inline(always)]`, is inlined; its recursive
//! calls go through the same method, so the whole search runs in featured
//! code. For [`Portable`] the method calls the body directly.

/// The bitboard primitives a search is compiled with (see the module
/// documentation). Every kernel gives exactly the results of the portable
/// reference functions.
pub trait Kernel: Copy + Send + Sync + 'static {
    /// The legal moves of the owner of `p` against `o` on `valid` (as
    /// [`super::moves_reference`]).
    fn moves(self, p: u64, o: u64, valid: u64) -> u64;

    /// The discs of `o` flipped when the owner of `p` plays on the empty
    /// square `sq` (as [`super::flips_reference`]; empty if illegal).
    fn flips(self, p: u64, o: u64, sq: u8) -> u64;

    /// The bits of `x` selected by `mask`, packed toward bit 0 (BMI2's
    /// `pext`).
    fn pext(self, x: u64, mask: u64) -> u64;
}

/// The portable kernel: [`super::moves_scalar`], [`super::flips_scalar`]
/// and a loop for `pext`; runs on any CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn moves(self, p: u64, o: u64, valid: u64) -> u64 {
        super::moves_scalar(p, o, valid)
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64 {
        super::flips_scalar(p, o, sq)
    }

    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        let (mut out, mut m, mut k) = (0, mask, 0);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << k;
            }
            k += 1;
            m &= m - 1;
        }
        out
    }
}

/// The CPU features of the [`Avx2`] kernel, as `#[target_feature]` spells
/// them (the attributes repeat this literal; [`Avx2::detect`] checks each).
pub const AVX2_FEATURES: &str = "avx2,bmi1,bmi2,popcnt,lzcnt";

/// The AVX2 kernel (x86-64 only): vector move and flip generation, BMI2
/// `pext`, and, in the featured copies of a search, `popcnt`, `lzcnt` and
/// `tzcnt`. A value exists only on a CPU with [`AVX2_FEATURES`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    /// Private: only [`Avx2::detect`] makes one.
    _proof: (),
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The kernel if this CPU has every feature of [`AVX2_FEATURES`]
    /// (AVX2, BMI1, BMI2, POPCNT, LZCNT: the x86-64-v3 level's integer
    /// part, Intel since Haswell, AMD since Excavator). The CPU is asked
    /// once per process; later calls read the cached answer.
    #[inline]
    #[must_use]
    pub fn detect() -> Option<Avx2> {
        (cpu_level() >= CpuLevel::Avx2).then_some(Avx2 { _proof: () })
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx2 {
    #[inline(always)]
    fn moves(self, p: u64, o: u64, valid: u64) -> u64 {
        // SAFETY: `self` exists only where `detect` found AVX2.
        unsafe { avx2::moves(p, o, valid) }
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64 {
        // SAFETY: `self` exists only where `detect` found AVX2.
        unsafe { avx2::flips(p, o, sq) }
    }

    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        // SAFETY: `self` exists only where `detect` found BMI2.
        unsafe { avx2::pext(x, mask) }
    }
}

/// The CPU features of the [`Avx512`] kernel: those of [`Avx2`] and the
/// x86-64-v4 level's AVX-512 subsets.
pub const AVX512_FEATURES: &str =
    "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq,avx512cd";

/// The [`Avx2`] kernel's code compiled for AVX-512 CPUs (x86-64 only):
/// the same intrinsics, which the compiler then encodes with the AVX-512
/// forms (three-input logic, more registers). perft 12 runs about 12%
/// faster than with [`Avx2`]. A value exists only on a CPU with
/// [`AVX512_FEATURES`].
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx512 {
    /// The AVX2 kernel whose code this one runs (private: only
    /// [`Avx512::detect`] makes one).
    avx2: Avx2,
}

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The kernel if this CPU has every feature of [`AVX512_FEATURES`]
    /// (asked once per process, as for [`Avx2::detect`]).
    #[inline]
    #[must_use]
    pub fn detect() -> Option<Avx512> {
        (cpu_level() >= CpuLevel::Avx512).then_some(Avx512 {
            avx2: Avx2 { _proof: () },
        })
    }
}

/// Which kernels this CPU runs, best last.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum CpuLevel {
    Portable = 1,
    Avx2 = 2,
    Avx512 = 3,
}

/// This CPU's [`CpuLevel`]: asked with `is_x86_feature_detected!` on the
/// first call, then read from a cache.
#[cfg(target_arch = "x86_64")]
#[inline]
fn cpu_level() -> CpuLevel {
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
    static LEVEL: AtomicU8 = AtomicU8::new(0);
    match LEVEL.load(Relaxed) {
        1 => CpuLevel::Portable,
        2 => CpuLevel::Avx2,
        3 => CpuLevel::Avx512,
        _ => {
            let avx2 = is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("lzcnt");
            let avx512 = avx2
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx512dq")
                && is_x86_feature_detected!("avx512cd");
            let level = match (avx2, avx512) {
                (_, true) => CpuLevel::Avx512,
                (true, false) => CpuLevel::Avx2,
                (false, false) => CpuLevel::Portable,
            };
            LEVEL.store(level as u8, Relaxed);
            level
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx512 {
    #[inline(always)]
    fn moves(self, p: u64, o: u64, valid: u64) -> u64 {
        self.avx2.moves(p, o, valid)
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64 {
        self.avx2.flips(p, o, sq)
    }

    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        self.avx2.pext(x, mask)
    }
}

/// Evaluates `$body` with `$k` bound to the fastest kernel this CPU runs
/// ([`Avx512`], else [`Avx2`], when `detect` finds their features, else
/// [`Portable`]); `$body` is compiled once per kernel.
macro_rules! with_best_kernel {
    (|$k:ident| $body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if let Some($k) = $crate::board::bits::Avx512::detect() {
                $body
            } else if let Some($k) = $crate::board::bits::Avx2::detect() {
                $body
            } else {
                let $k = $crate::board::bits::Portable;
                $body
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let $k = $crate::board::bits::Portable;
            $body
        }
    }};
}
pub(crate) use with_best_kernel;

/// Declares a trait of a search's entry points, implemented for every
/// kernel (see the module documentation). Each entry is written
///
/// ```text
/// fn name(arg: Type, ...) -> Output = |k| call_using(k, arg, ...);
/// ```
///
/// and becomes a method `k.name(arg, ...)`: for [`Portable`] it evaluates
/// the call; for [`Avx2`] and [`Avx512`] it calls a copy of the call
/// compiled with [`AVX2_FEATURES`] or [`AVX512_FEATURES`], so the call's
/// `#[inline(always)]` generic body is compiled with them too.
macro_rules! kernel_entries {
    (
        $(#[$meta:meta])*
        $vis:vis trait $name:ident { $($entries:tt)* }
    ) => {
        $crate::board::bits::kernel_entries!(@trait [$(#[$meta])*] $vis $name { $($entries)* });
        $crate::board::bits::kernel_entries!(@plain $name { $($entries)* });
        #[cfg(target_arch = "x86_64")]
        $crate::board::bits::kernel_entries!(
            @featured $name, Avx2, "avx2,bmi1,bmi2,popcnt,lzcnt" { $($entries)* }
        );
        #[cfg(target_arch = "x86_64")]
        $crate::board::bits::kernel_entries!(
            @featured $name, Avx512,
            "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq,avx512cd"
            { $($entries)* }
        );
    };
    (@trait [$(#[$meta:meta])*] $vis:vis $name:ident {
        $(
            $(#[$fn_meta:meta])*
            fn $f:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = |$k:ident| $call:expr;
        )*
    }) => {
        $(#[$meta])*
        $vis trait $name: $crate::board::bits::Kernel {
            $(
                $(#[$fn_meta])*
                #[allow(clippy::too_many_arguments, clippy::unused_unit)]
                fn $f(self, $($arg: $ty),*) -> $ret;
            )*
        }
    };
    // The portable kernel evaluates the call.
    (@plain $name:ident {
        $(
            $(#[$fn_meta:meta])*
            fn $f:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = |$k:ident| $call:expr;
        )*
    }) => {
        impl $name for $crate::board::bits::Portable {
            $(
                #[allow(clippy::too_many_arguments, clippy::unused_unit)]
                fn $f(self, $($arg: $ty),*) -> $ret {
                    let $k = self;
                    $call
                }
            )*
        }
    };
    // A vector kernel calls a copy of the call compiled with its features.
    (@featured $name:ident, $kernel:ident, $features:literal {
        $(
            $(#[$fn_meta:meta])*
            fn $f:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = |$k:ident| $call:expr;
        )*
    }) => {
        impl $name for $crate::board::bits::$kernel {
            $(
                #[inline(always)]
                #[allow(clippy::too_many_arguments, clippy::unused_unit)]
                fn $f(self, $($arg: $ty),*) -> $ret {
                    #[target_feature(enable = $features)]
                    #[allow(clippy::too_many_arguments, clippy::unused_unit)]
                    fn featured($k: $crate::board::bits::$kernel, $($arg: $ty),*) -> $ret {
                        $call
                    }
                    // SAFETY: `self` exists only where the kernel's `detect`
                    // found every feature `featured` is compiled with.
                    unsafe { featured(self, $($arg),*) }
                }
            )*
        }
    };
}
pub(crate) use kernel_entries;

/// The AVX2 and BMI2 code of [`Avx2`]. Every function needs its CPU
/// features: callers hold an [`Avx2`] or are compiled with the features.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::{FILE_A, FILE_H, RAYS};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128,
        _mm256_cmpeq_epi64, _mm256_extracti128_si256, _mm256_load_si256, _mm256_or_si256,
        _mm256_set1_epi64x, _mm256_set_epi64x, _mm256_setzero_si256, _mm256_sllv_epi64,
        _mm256_srli_epi64, _mm256_srlv_epi64, _mm256_sub_epi64, _mm_cvtsi128_si64, _mm_or_si128,
        _mm_unpackhi_epi64,
    };

    /// The rays of [`RAYS`] regrouped for vector loads: for every square,
    /// the four rays toward higher bits, then the four toward lower bits.
    #[repr(align(32))]
    struct VectorRays([[u64; 8]; 64]);

    static VECTOR_RAYS: VectorRays = VectorRays(RAYS);

    /// The OR of the four 64-bit lanes of `r`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn or_lanes(r: __m256i) -> u64 {
        let h = _mm_or_si128(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
        let h = _mm_or_si128(h, _mm_unpackhi_epi64(h, h));
        _mm_cvtsi128_si64(h) as u64
    }

    /// [`super::super::moves_scalar`] with AVX2: the four shift amounts
    /// (1, 8, 9, 7) sit in the four lanes of a vector, so each propagation
    /// step serves four directions toward higher bits, and a second vector
    /// serves the four toward lower bits.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn moves(p: u64, o: u64, valid: u64) -> u64 {
        let inner = (o & !(FILE_A | FILE_H)) as i64;
        let pv = _mm256_set1_epi64x(p as i64);
        // Lanes 0-3: shifts 1, 8, 9, 7; only the vertical one may wrap.
        let m = _mm256_set_epi64x(inner, inner, o as i64, inner);
        let s = _mm256_set_epi64x(7, 9, 8, 1);
        let s2 = _mm256_add_epi64(s, s);
        let and = |a: __m256i, b: __m256i| _mm256_and_si256(a, b);
        let or = |a: __m256i, b: __m256i| _mm256_or_si256(a, b);
        // Toward higher bits.
        let mut u = and(m, _mm256_sllv_epi64(pv, s));
        u = or(u, and(m, _mm256_sllv_epi64(u, s)));
        let pair_u = and(m, _mm256_sllv_epi64(m, s));
        u = or(u, and(pair_u, _mm256_sllv_epi64(u, s2)));
        u = or(u, and(pair_u, _mm256_sllv_epi64(u, s2)));
        // Toward lower bits.
        let mut d = and(m, _mm256_srlv_epi64(pv, s));
        d = or(d, and(m, _mm256_srlv_epi64(d, s)));
        let pair_d = and(m, _mm256_srlv_epi64(m, s));
        d = or(d, and(pair_d, _mm256_srlv_epi64(d, s2)));
        d = or(d, and(pair_d, _mm256_srlv_epi64(d, s2)));
        let r = or(_mm256_sllv_epi64(u, s), _mm256_srlv_epi64(d, s));
        or_lanes(r) & valid & !(p | o)
    }

    /// [`super::super::flips_scalar`] with AVX2: the four rays toward
    /// higher bits in one vector (the first non-opponent square isolated by
    /// `x & -x`), the four toward lower bits in another (the highest
    /// non-opponent square found by smearing it down, as AVX2 has no vector
    /// leading-zero count; the ray squares above the smear are the
    /// candidates). `sq` must be empty.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn flips(p: u64, o: u64, sq: u8) -> u64 {
        let rays = &VECTOR_RAYS.0[sq as usize];
        // SAFETY: the loads read 32 bytes inside `rays`, a row of a
        // 32-byte-aligned table of 64-byte rows, at offsets 0 and 32.
        let (up, down) = unsafe {
            (
                _mm256_load_si256(rays.as_ptr().cast::<__m256i>()),
                _mm256_load_si256(rays.as_ptr().add(4).cast::<__m256i>()),
            )
        };
        let pv = _mm256_set1_epi64x(p as i64);
        let ov = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        let ones = _mm256_set1_epi64x(-1);
        // Higher bits: lowest stopper.
        let stop = _mm256_andnot_si256(ov, up);
        let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
        let miss = _mm256_cmpeq_epi64(_mm256_and_si256(first, pv), zero);
        let fu = _mm256_andnot_si256(miss, _mm256_and_si256(up, _mm256_add_epi64(first, ones)));
        // Lower bits: highest stopper; `x` smears it over every lower bit.
        let mut x = _mm256_andnot_si256(ov, down);
        x = _mm256_or_si256(x, _mm256_srli_epi64(x, 1));
        x = _mm256_or_si256(x, _mm256_srli_epi64(x, 2));
        x = _mm256_or_si256(x, _mm256_srli_epi64(x, 4));
        x = _mm256_or_si256(x, _mm256_srli_epi64(x, 8));
        x = _mm256_or_si256(x, _mm256_srli_epi64(x, 16));
        x = _mm256_or_si256(x, _mm256_srli_epi64(x, 32));
        let top = _mm256_andnot_si256(_mm256_srli_epi64(x, 1), x);
        let miss = _mm256_cmpeq_epi64(_mm256_and_si256(top, pv), zero);
        let fd = _mm256_andnot_si256(miss, _mm256_andnot_si256(x, down));
        or_lanes(_mm256_or_si256(fu, fd))
    }

    /// BMI2 `pext`.
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub(super) fn pext(x: u64, mask: u64) -> u64 {
        std::arch::x86_64::_pext_u64(x, mask)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{flips_reference, moves_reference, valid_mask, Bits};
    use super::*;

    /// Every kernel this CPU runs against the references on random boards
    /// of every size and density.
    fn agrees_with_the_references<K: Kernel>(k: K) -> usize {
        let mut s = crate::rng::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut checked = 0;
        for n in [4u8, 6, 8] {
            let valid = valid_mask(n);
            for i in 0..30_000 {
                // Vary the density: sparse, mixed and nearly full boards.
                let a = s.next_u64() & valid;
                let b = s.next_u64() & valid;
                let fill = match i % 3 {
                    0 => a & b,
                    1 => a,
                    _ => a | b,
                };
                let p = fill & s.next_u64();
                let o = fill & !p;
                assert_eq!(
                    k.moves(p, o, valid),
                    moves_reference(p, o, valid),
                    "p {p:x} o {o:x}"
                );
                for sq in Bits(valid & !(p | o)) {
                    let f = flips_reference(p, o, sq);
                    assert_eq!(k.flips(p, o, sq), f, "p {p:x} o {o:x} sq {sq}");
                    checked += 1;
                }
                let mask = s.next_u64();
                let packed = Bits(mask)
                    .enumerate()
                    .fold(0u64, |acc, (i, b)| acc | ((p >> b) & 1) << i);
                assert_eq!(k.pext(p, mask), packed, "p {p:x} mask {mask:x}");
            }
        }
        checked
    }

    #[test]
    fn portable_kernel_agrees_with_the_references() {
        assert!(agrees_with_the_references(Portable) > 1_000_000);
    }

    #[test]
    fn avx2_kernels_agree_with_the_references_where_the_cpu_has_them() {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(k) = Avx2::detect() {
                assert!(agrees_with_the_references(k) > 1_000_000);
            } else {
                eprintln!("this CPU has no AVX2 kernel: nothing to check");
            }
            if let Some(k) = Avx512::detect() {
                assert!(agrees_with_the_references(k) > 1_000_000);
            } else {
                eprintln!("this CPU has no AVX-512 kernel: nothing to check");
            }
        }
    }
}
