//! The postings of a games index: one number per position of every game,
//! `key << game_bits | game` (the position's [`KEY_BITS`]-bit key and the
//! game's number), sorted, in blocks of [`BLOCK`] whose gaps are
//! Golomb-Rice coded: a gap `d` is `d >> k` one bits, a zero bit, then the
//! low `k` bits of `d` (first bit in the low bit of each byte), with `k`
//! chosen from the mean gap. About `k + 2` bits a posting: two bytes and a
//! half for the world's 15 million.

/// The bits of a position's key in a posting: the top bits of
/// [`super::position_key`]. A query replays the games under its key, so a
/// key shared by chance (about one posting in a query of the world's games)
/// costs a replay, never a wrong answer.
pub(super) const KEY_BITS: u32 = 24;

/// The postings of a block (the last may hold fewer).
pub(super) const BLOCK: usize = 256;

/// How the postings of one index are coded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Coding {
    /// The bits of a game's number.
    pub game_bits: u32,
    /// The Rice parameter: the low bits of a gap written as they are.
    pub k: u32,
}

impl Coding {
    /// The coding of `postings` postings of `games` games: `k` the
    /// logarithm of the mean gap between them.
    pub(super) fn new(games: u64, postings: u64) -> Coding {
        let game_bits = 64 - games.max(1).leading_zeros();
        let universe = 1u128 << (KEY_BITS + game_bits);
        let mean = universe / u128::from(postings.max(1));
        let k = (127 - mean.max(1).leading_zeros()).min(40);
        Coding { game_bits, k }
    }

    /// The posting of the position whose full key is `key` in game `game`.
    pub(super) fn posting(self, key: u32, game: u32) -> u64 {
        u64::from(key >> (32 - KEY_BITS)) << self.game_bits | u64::from(game)
    }

    /// The first posting a position of full key `key` can have, and the
    /// first beyond them.
    pub(super) fn range(self, key: u32) -> (u64, u64) {
        let k = u64::from(key >> (32 - KEY_BITS));
        (k << self.game_bits, (k + 1) << self.game_bits)
    }

    /// The postings of pass `pass` of `passes` (from 0): an equal share of
    /// the keys, every posting of a key in one pass.
    pub(super) fn range_of_keys(self, pass: u64, passes: u64) -> (u64, u64) {
        let keys = 1u64 << KEY_BITS;
        let at = |p: u64| (keys * p / passes.max(1)) << self.game_bits;
        (at(pass), at(pass + 1))
    }

    /// The game of a posting.
    pub(super) fn game(self, posting: u64) -> u64 {
        posting & ((1 << self.game_bits) - 1)
    }

    /// Appends the block `block` (sorted; its first posting goes to the
    /// directory) to `out`: the gaps after the first.
    pub(super) fn encode(self, block: &[u64], out: &mut Vec<u8>) {
        let mut bits = BitWriter {
            out,
            byte: 0,
            used: 0,
        };
        for pair in block.windows(2) {
            let d = pair[1] - pair[0];
            for _ in 0..d >> self.k {
                bits.put(1);
            }
            bits.put(0);
            for i in 0..self.k {
                bits.put((d >> i & 1) as u8);
            }
        }
        bits.flush();
    }

    /// The postings of the block whose first is `first`, `count` in all,
    /// from `bytes`; fewer if the bytes end first.
    pub(super) fn decode(self, bytes: &[u8], first: u64, count: usize) -> Vec<u64> {
        let mut out = Vec::with_capacity(count);
        out.push(first);
        let mut bits = BitReader { bytes, at: 0 };
        let mut v = first;
        'next: while out.len() < count {
            let mut q = 0u64;
            loop {
                match bits.get() {
                    Some(1) => q += 1,
                    Some(_) => break,
                    None => break 'next,
                }
            }
            let mut r = 0u64;
            for i in 0..self.k {
                match bits.get() {
                    Some(b) => r |= u64::from(b) << i,
                    None => break 'next,
                }
            }
            v = v.saturating_add(q << self.k | r);
            out.push(v);
        }
        out
    }
}

struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    byte: u8,
    used: u32,
}

impl BitWriter<'_> {
    fn put(&mut self, bit: u8) {
        self.byte |= bit << self.used;
        self.used += 1;
        if self.used == 8 {
            self.out.push(self.byte);
            (self.byte, self.used) = (0, 0);
        }
    }

    fn flush(&mut self) {
        if self.used > 0 {
            self.out.push(self.byte);
            (self.byte, self.used) = (0, 0);
        }
    }
}

struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl BitReader<'_> {
    fn get(&mut self) -> Option<u8> {
        let byte = *self.bytes.get(self.at / 8)?;
        let bit = byte >> (self.at % 8) & 1;
        self.at += 1;
        Some(bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn blocks_decode_to_what_was_encoded() {
        let mut rng = Rng::new(5);
        for (games, n) in [(1u64, 1usize), (3, 40), (250_000, 256), (1 << 20, 256)] {
            let coding = Coding::new(games, n as u64 * 1000);
            let mut block: Vec<u64> = (0..n)
                .map(|_| coding.posting(rng.next_u64() as u32, (rng.next_u64() % games) as u32))
                .collect();
            block.sort_unstable();
            let mut bytes = Vec::new();
            coding.encode(&block, &mut bytes);
            assert_eq!(coding.decode(&bytes, block[0], n), block);
            // A block cut short gives what its bytes hold, never more.
            let cut = coding.decode(&bytes[..bytes.len() / 2], block[0], n);
            assert!(cut.len() <= n && block.starts_with(&cut));
        }
    }

    #[test]
    fn a_key_range_holds_exactly_its_postings() {
        let coding = Coding::new(1000, 5000);
        let key = 0xdead_beef;
        let (lo, hi) = coding.range(key);
        assert!((lo..hi).contains(&coding.posting(key, 0)));
        assert!((lo..hi).contains(&coding.posting(key | 0xff, 999)));
        assert!(!(lo..hi).contains(&coding.posting(key + 0x100, 0)));
        assert_eq!(coding.game(coding.posting(key, 999)), 999);
    }
}
