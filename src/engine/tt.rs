//! A fixed-size transposition table for the solver: one entry per slot,
//! indexed by a multiplicative hash of the two bitboards, replaced when the
//! slot belongs to an older search, holds the same position, or holds a
//! shallower one. Entries store the full position, so there are no false
//! hits; a generation number makes clearing between solves free.

/// One stored result.
#[derive(Clone, Copy, Default)]
pub(crate) struct Entry {
    player: u64,
    opponent: u64,
    generation: u32,
    /// A lower bound of the exact score.
    pub lower: i8,
    /// An upper bound of the exact score.
    pub upper: i8,
    /// The best (or refuting) move found, 64 if none.
    pub best: u8,
    /// Empties of the position: the depth of the search that produced it.
    depth: u8,
}

/// The table.
pub(crate) struct Table {
    entries: Vec<Entry>,
    shift: u32,
    generation: u32,
}

impl Table {
    /// A table of `2^bits` entries (24 bytes each).
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            shift: 64 - bits,
            generation: 0,
        }
    }

    /// The table has `2^bits` entries.
    pub fn bits(&self) -> u32 {
        64 - self.shift
    }

    /// Forgets every entry (in constant time).
    pub fn clear(&mut self) {
        self.generation += 1;
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
        let e = self.entries[self.index(p, o)];
        (e.generation == self.generation && e.player == p && e.opponent == o).then_some(e)
    }

    /// Stores bounds for a position searched with `depth` empties.
    #[inline]
    pub fn store(&mut self, p: u64, o: u64, depth: u32, lower: i32, upper: i32, best: u8) {
        let i = self.index(p, o);
        let e = &mut self.entries[i];
        if e.generation != self.generation
            || (e.player == p && e.opponent == o)
            || depth >= u32::from(e.depth)
        {
            *e = Entry {
                player: p,
                opponent: o,
                generation: self.generation,
                lower: lower as i8,
                upper: upper as i8,
                best,
                depth: depth as u8,
            };
        }
    }
}
