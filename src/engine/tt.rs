//! A fixed-size transposition table for the solver, shared by its threads:
//! one entry per slot, indexed by a multiplicative hash of the two
//! bitboards, replaced when the slot belongs to an older search, holds the
//! same position, or holds a shallower one. Entries store the full
//! position, so there are no false hits; a generation number makes
//! clearing between solves free.
//!
//! Each entry carries the level of trust of the search that stored it:
//! the selective passes of a solve store bounds that only later passes at
//! the same or a lower level may use; the exact pass ([`EXACT`]) uses only
//! its own bounds, but every entry's best move.
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
    /// A lower bound of the exact score.
    pub lower: i8,
    /// An upper bound of the exact score.
    pub upper: i8,
    /// The best (or refuting) move found, 64 if none.
    pub best: u8,
}

#[derive(Default)]
struct Slot {
    player: AtomicU64,
    opponent: AtomicU64,
    /// lower, upper, best, depth, level (a byte each), generation (the
    /// low 24 bits of the table's).
    data: AtomicU64,
}

/// The table.
pub(crate) struct Table {
    slots: Vec<Slot>,
    shift: u32,
    generation: AtomicU32,
}

impl Table {
    /// A table of `2^bits` entries (24 bytes each).
    pub fn new(bits: u32) -> Table {
        Table {
            slots: (0..1usize << bits).map(|_| Slot::default()).collect(),
            shift: 64 - bits,
            generation: AtomicU32::new(0),
        }
    }

    /// Forgets every entry (in constant time).
    pub fn clear(&self) {
        self.generation.fetch_add(1, Relaxed);
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
        let s = &self.slots[self.index(p, o)];
        let d = s.data.load(Relaxed);
        let hit = s.player.load(Relaxed) ^ d == p
            && s.opponent.load(Relaxed) ^ d == o
            && d >> 40 == self.generation_bits();
        hit.then_some(Entry {
            level: (d >> 32) as u8,
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            best: (d >> 16) as u8,
        })
    }

    /// The current generation as stored in the slots.
    #[inline]
    fn generation_bits(&self) -> u64 {
        u64::from(self.generation.load(Relaxed)) & 0xFF_FFFF
    }

    /// Stores bounds for a position searched with `depth` empties by a
    /// search of `level`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, p: u64, o: u64, depth: u32, level: u8, lower: i32, upper: i32, best: u8) {
        let s = &self.slots[self.index(p, o)];
        let generation = self.generation_bits();
        let old = s.data.load(Relaxed);
        if old >> 40 != generation
            || (s.player.load(Relaxed) ^ old == p && s.opponent.load(Relaxed) ^ old == o)
            || depth >= (old >> 24) as u8 as u32
        {
            let d = u64::from(lower as i8 as u8)
                | u64::from(upper as i8 as u8) << 8
                | u64::from(best) << 16
                | u64::from(depth as u8) << 24
                | u64::from(level) << 32
                | generation << 40;
            s.player.store(p ^ d, Relaxed);
            s.opponent.store(o ^ d, Relaxed);
            s.data.store(d, Relaxed);
        }
    }
}
