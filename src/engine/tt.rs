//! The transposition table of the engine's searches (the endgame solver,
//! shared by its threads, and the midgame search): one entry per slot,
//! indexed by a multiplicative hash of the two bitboards, replaced when the
//! slot belongs to an older search, holds the same position, or holds a
//! shallower one. Entries store the full position, so there are no false
//! hits; a generation number makes clearing between searches free.
//!
//! An entry holds bounds on the value (the solver's discs or the midgame's
//! 1/64 discs: any value within +-32767; beyond it they saturate, which
//! the searches' values never reach), the best move, the depth searched
//! (the solver's empty squares, the midgame's plies; 63 at most) and the
//! level of trust of the search that stored it: the solver's selective
//! passes store bounds that only later passes at the same or a lower level
//! may use; the exact pass ([`EXACT`]) and the midgame search use only
//! their own level's bounds, but every entry's best move.
//!
//! Slots are three atomic words written without locks: the data word and
//! the two bitboards each XORed with it. A reader recomputes the position
//! from the three words, so a slot torn by two threads writing at once
//! reads as a miss rather than as a wrong result.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// The level of the exact search (selective passes store lower levels).
pub(crate) const EXACT: u8 = u8::MAX;

/// One stored result.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// The level of the search that stored it ([`EXACT`] if exact).
    pub level: u8,
    /// A lower bound of the value.
    pub lower: i32,
    /// An upper bound of the value.
    pub upper: i32,
    /// The best (or refuting) move found, 64 if none.
    pub best: u8,
    /// The depth it was searched to.
    pub depth: u32,
}

/// Bit layout of a slot's data word: lower and upper bound (16 bits each),
/// best move (7), depth (6), level (3), generation (16).
const UPPER_SHIFT: u32 = 16;
const BEST_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 39;
const LEVEL_SHIFT: u32 = 45;
const GENERATION_SHIFT: u32 = 48;
/// The stored level that stands for [`EXACT`] (3 bits; passes store 0-6).
const EXACT_BITS: u64 = 7;

#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    /// Bounds, best move, depth, level and generation (the low 16 bits of
    /// the table's), laid out as the `*_SHIFT` constants say.
    data: AtomicU64,
}

/// The table.
pub(crate) struct Table {
    slots: Slots,
    shift: u32,
    generation: AtomicU32,
}

impl Table {
    /// A table of `2^bits` entries (24 bytes each).
    pub fn new(bits: u32) -> Table {
        Table {
            slots: Slots::zeroed(1 << bits),
            shift: 64 - bits,
            generation: AtomicU32::new(0),
        }
    }

    /// Writes to every memory page of the table (one word per 4 KiB,
    /// rewritten with the value it holds: no entry changes), so that the
    /// pages are mapped now, each by one write fault, instead of by a read
    /// fault (mapping the zero page) and a write fault (copying it) in the
    /// search.
    pub fn touch(&self) {
        for s in self
            .slots
            .slots()
            .iter()
            .step_by(4096 / std::mem::size_of::<Slot>())
        {
            // One instruction that is a write to the processor whether or
            // not it changes the word (x86's `lock cmpxchg`: a zero stays
            // zero, anything else fails and stays): one fault. (A load
            // first would fault twice; an idempotent `fetch_or(0)` may be
            // compiled as a load.)
            let _ = s.data.compare_exchange(0, 0, Relaxed, Relaxed);
        }
    }

    /// Asks the kernel to back the table with transparent huge pages
    /// (Linux's `madvise(MADV_HUGEPAGE)` on x86-64 and ARM64; a hint, that
    /// it follows where its settings let it; nothing elsewhere), for the
    /// pages not mapped yet. A search that will visit many positions asks
    /// before its first store: the midgame search's table of 24 MiB is
    /// then 12 pages instead of 6,144, 12 page faults instead of 6,144
    /// and about no TLB misses for probes spread over the whole table (a
    /// hint at level 14 after ply 30: 33 ms of CPU before, 23 ms with,
    /// `perf stat`). A small search should not: each huge page it touches
    /// is 2 MiB to clear (levels 4 to 6 touch all 12 and took 1.5-2.5 ms
    /// more a process).
    pub fn advise_huge_pages(&self) {
        self.slots.advise_huge_pages();
    }

    /// Forgets every entry (in constant time).
    pub fn clear(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// Forgets every entry by emptying every slot: unlike [`Table::clear`],
    /// no entry of 65,536 clears ago can come back, so a search after it
    /// depends on nothing searched before (in time proportional to the
    /// table).
    pub fn wipe(&mut self) {
        self.slots.slots_mut().fill_with(Slot::default);
        self.generation = AtomicU32::new(0);
    }

    #[inline]
    fn index(&self, p: u64, o: u64) -> usize {
        let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let h = h ^ (h >> 29);
        (h.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> self.shift) as usize
    }

    /// The entry of the position, if stored.
    #[inline]
    pub fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let s = &self.slots.slots()[self.index(p, o)];
        let d = s.data.load(Relaxed);
        let hit = s.player.load(Relaxed) ^ d == p
            && s.opponent.load(Relaxed) ^ d == o
            && d >> GENERATION_SHIFT == self.generation_bits();
        let level = (d >> LEVEL_SHIFT) & 7;
        hit.then_some(Entry {
            level: if level == EXACT_BITS {
                EXACT
            } else {
                level as u8
            },
            lower: i32::from(d as u16 as i16),
            upper: i32::from((d >> UPPER_SHIFT) as u16 as i16),
            best: ((d >> BEST_SHIFT) & 0x7F) as u8,
            depth: ((d >> DEPTH_SHIFT) & 0x3F) as u32,
        })
    }

    /// Asks the processor to start loading the slot of the position into
    /// its cache, so that a later [`Table::probe`] or [`Table::store`]
    /// finds it there instead of waiting for memory (a hint: no effect on
    /// results; nothing on processors other than x86-64).
    #[inline]
    pub fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot: *const Slot = &self.slots.slots()[self.index(p, o)];
            // SAFETY: a prefetch only hints the cache; it reads nothing the
            // program sees and cannot fault (the address is a live slot).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// The current generation as stored in the slots.
    #[inline]
    fn generation_bits(&self) -> u64 {
        u64::from(self.generation.load(Relaxed)) & 0xFFFF
    }

    /// Stores bounds for a position searched `depth` deep (empties or
    /// plies) by a search of `level`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, p: u64, o: u64, depth: u32, level: u8, lower: i32, upper: i32, best: u8) {
        let s = &self.slots.slots()[self.index(p, o)];
        let generation = self.generation_bits();
        let old = s.data.load(Relaxed);
        let depth = u64::from(depth.min(63));
        if old >> GENERATION_SHIFT != generation
            || (s.player.load(Relaxed) ^ old == p && s.opponent.load(Relaxed) ^ old == o)
            || depth >= (old >> DEPTH_SHIFT) & 0x3F
        {
            let level = if level == EXACT {
                EXACT_BITS
            } else {
                u64::from(level.min(6))
            };
            let bound = |v: i32| u64::from(v.clamp(-32768, 32767) as i16 as u16);
            let d = bound(lower)
                | bound(upper) << UPPER_SHIFT
                | u64::from(best & 0x7F) << BEST_SHIFT
                | depth << DEPTH_SHIFT
                | level << LEVEL_SHIFT
                | generation << GENERATION_SHIFT;
            s.player.store(p ^ d, Relaxed);
            s.opponent.store(o ^ d, Relaxed);
            s.data.store(d, Relaxed);
        }
    }
}

/// The size of a huge page of x86-64 and of ARM64 with 4 KiB pages (the
/// PMD size of Linux's transparent huge pages).
const HUGE_PAGE: usize = 2 << 20;

/// A table's slots: zeroed memory (the allocator's `calloc`, whose large
/// blocks are fresh pages that nothing touches before the search writes
/// them), starting on a [`HUGE_PAGE`] boundary when the slots span one or
/// more, so that they can be marked for the kernel's transparent huge
/// pages ([`Table::advise_huge_pages`]). No slot's content depends on it.
struct Slots {
    /// The block from the allocator and its layout (to give it back).
    block: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    /// The first slot, within `block`.
    first: std::ptr::NonNull<Slot>,
    len: usize,
}

// SAFETY: `Slots` owns its block alone, as a `Vec<Slot>` would; slots are
// atomics, safe to share and to send.
unsafe impl Send for Slots {}
// SAFETY: as above: shared access hands out `&[Slot]` alone.
unsafe impl Sync for Slots {}

impl Slots {
    /// `len` (at least 1) zeroed slots.
    fn zeroed(len: usize) -> Slots {
        use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
        let bytes = len * std::mem::size_of::<Slot>();
        // Room to start on a huge page boundary where the slots fill one;
        // the alignment stays the slot's so that the allocator's `calloc`
        // serves it (a larger alignment would be allocated and then zeroed
        // by writing every page).
        let pad = if bytes >= HUGE_PAGE { HUGE_PAGE } else { 0 };
        let layout = Layout::from_size_align(bytes + pad, std::mem::align_of::<Slot>())
            .expect("a table that fits the address space");
        // SAFETY: the layout's size is not zero (`len >= 1`).
        let block = unsafe { alloc_zeroed(layout) };
        let Some(block) = std::ptr::NonNull::new(block) else {
            handle_alloc_error(layout)
        };
        let address = block.as_ptr() as usize;
        let offset = if pad == 0 {
            0
        } else {
            address.next_multiple_of(HUGE_PAGE) - address
        };
        // SAFETY: `offset <= pad`, so the slots lie within the block, and
        // the block's address is aligned for `Slot`, `HUGE_PAGE` too.
        let first = unsafe { block.add(offset) }.cast::<Slot>();
        Slots {
            block,
            layout,
            first,
            len,
        }
    }

    /// Marks the slots for transparent huge pages where they span one or
    /// more (whole 4 KiB pages of the slots alone).
    fn advise_huge_pages(&self) {
        let bytes = self.len * std::mem::size_of::<Slot>();
        if bytes >= HUGE_PAGE {
            advise_huge_pages(self.first.as_ptr().cast(), bytes & !4095);
        }
    }

    fn slots(&self) -> &[Slot] {
        // SAFETY: `first` holds `len` slots of zeroed or written memory
        // (all zeros is a valid `Slot`: three atomic words), owned by
        // `self` and shared only as atomics.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }

    fn slots_mut(&mut self) -> &mut [Slot] {
        // SAFETY: as in `slots`, borrowed mutably through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        // SAFETY: `block` came from `alloc_zeroed` with `layout`, once.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) }
    }
}

/// Asks Linux to back the `bytes` (whole 4 KiB pages) at `start` (a
/// [`HUGE_PAGE`] boundary) with transparent huge pages; nothing elsewhere, and nothing if the
/// kernel refuses (the pages stay 4 KiB: slower, the same slots).
#[allow(unused_variables)]
fn advise_huge_pages(start: *mut std::ffi::c_void, bytes: usize) {
    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    {
        // The C library's `madvise` (std links it on Linux), declared here
        // so that the library keeps its std-only dependencies.
        extern "C" {
            fn madvise(
                addr: *mut std::ffi::c_void,
                len: usize,
                advice: std::ffi::c_int,
            ) -> std::ffi::c_int;
        }
        /// `MADV_HUGEPAGE` of Linux's generic `mman-common.h` (x86-64
        /// and ARM64 alike).
        const MADV_HUGEPAGE: std::ffi::c_int = 14;
        // SAFETY: the range lies within one live block of this process's
        // memory, page-aligned; the advice changes no byte of it. The
        // result is ignored: a refusal only leaves the small pages.
        let _ = unsafe { madvise(start, bytes, MADV_HUGEPAGE) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_as_stored() {
        let t = Table::new(4);
        t.store(1, 2, 20, EXACT, -64, 64, 63);
        let e = t.probe(1, 2).unwrap();
        assert_eq!(
            (e.level, e.lower, e.upper, e.best, e.depth),
            (EXACT, -64, 64, 63, 20)
        );
        t.store(3, 4, 70, 2, -(1 << 20), 4095, 64);
        let e = t.probe(3, 4).unwrap();
        assert_eq!(
            (e.level, e.lower, e.upper, e.best, e.depth),
            (2, -32768, 4095, 64, 63)
        );
        assert!(t.probe(1, 3).is_none());
        t.clear();
        assert!(t.probe(1, 2).is_none() && t.probe(3, 4).is_none());
    }

    #[test]
    fn a_deeper_entry_is_kept_against_a_shallower_one() {
        // Two positions in one slot of a table of two.
        let t = Table::new(1);
        let other = (3..).find(|&p| t.index(p, 4) == t.index(1, 2)).unwrap();
        t.store(1, 2, 10, EXACT, 0, 0, 5);
        t.store(other, 4, 9, EXACT, 0, 0, 6);
        assert!(t.probe(1, 2).is_some() && t.probe(other, 4).is_none());
        t.store(other, 4, 10, EXACT, 0, 0, 6);
        assert!(t.probe(other, 4).is_some() && t.probe(1, 2).is_none());
    }

    #[test]
    fn a_table_spanning_huge_pages_starts_on_one_and_holds_every_slot() {
        // 2^17 slots: 3 MiB, padded and aligned; every slot is zero at
        // first and keeps what is written to it, first and last included.
        let mut t = Table::new(17);
        t.advise_huge_pages();
        let slots = t.slots.slots();
        assert_eq!(slots.len(), 1 << 17);
        assert_eq!(slots.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(slots.iter().all(|s| s.data.load(Relaxed) == 0));
        for i in [0, slots.len() - 1] {
            slots[i].player.store(i as u64 + 7, Relaxed);
        }
        assert_eq!(
            t.slots.slots()[(1 << 17) - 1].player.load(Relaxed),
            (1 << 17) + 6
        );
        t.wipe();
        assert!(t.slots.slots().iter().all(|s| s.player.load(Relaxed) == 0));
        t.store(1, 2, 20, EXACT, -64, 64, 63);
        assert_eq!(t.probe(1, 2).map(|e| e.best), Some(63));
        // A small table is not padded.
        assert_eq!(Table::new(4).slots.layout.size(), 16 * 24);
    }
}
