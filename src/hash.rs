//! The crate's one fast hasher for in-memory tables (memo and
//! transposition keys): a multiply-rotate hash in the style of rustc's
//! `FxHasher`. It is not resistant to chosen keys, which a search's own
//! positions are not.
//!
//! ```
//! use reversi::hash::FastHashMap;
//! let mut seen: FastHashMap<u64, u32> = FastHashMap::default();
//! seen.insert(7, 1);
//! assert_eq!(seen.get(&7), Some(&1));
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a's starting state (64 bits).
pub const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;

/// FNV-1a, 64 bits: the checksum of the files the project writes (books,
/// weights, games indexes) and a stable hash of bytes.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_continue(FNV_OFFSET, bytes)
}

/// FNV-1a from the state `h` (of the bytes before) over `bytes`: a file's
/// checksum computed as it is written.
#[must_use]
pub fn fnv1a_continue(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3))
}

/// The multiplier of each step (as in rustc's `FxHasher` on 64-bit targets).
const SEED: u64 = 0x517c_c1b7_2722_0a95;

/// A small fast hasher: each 64-bit word `w` turns the state `h` into
/// `(h.rotate_left(5) ^ w) * SEED`.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastHasher(u64);

impl FastHasher {
    /// Mixes one word into the state.
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    /// Bytes are mixed in as little-endian words of 8 (the last one padded
    /// with zeros).
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }

    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }

    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    fn write_u128(&mut self, v: u128) {
        self.add(v as u64);
        self.add((v >> 64) as u64);
    }

    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

/// Builds [`FastHasher`]s (for `HashMap::with_hasher` and `default`).
pub type BuildFastHasher = BuildHasherDefault<FastHasher>;

/// A `HashMap` with the [`FastHasher`].
pub type FastHashMap<K, V> = HashMap<K, V, BuildFastHasher>;

/// A hash set with [`FastHasher`].
pub type FastHashSet<K> = std::collections::HashSet<K, BuildFastHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn hash_of(v: impl Hash) -> u64 {
        let mut h = FastHasher::default();
        v.hash(&mut h);
        h.finish()
    }

    #[test]
    fn one_word_is_one_step() {
        // From the zero state a single word w hashes to w * SEED.
        assert_eq!(hash_of(3u64), 3u64.wrapping_mul(SEED));
        assert_eq!(hash_of(3u32), hash_of(3u64));
    }

    #[test]
    fn different_keys_differ() {
        assert_ne!(hash_of(1u128), hash_of(1u128 << 64));
        assert_ne!(hash_of(vec![1u8, 2]), hash_of(vec![2u8, 1]));
        assert_ne!(hash_of((1u32, 2u32)), hash_of((2u32, 1u32)));
    }
}
