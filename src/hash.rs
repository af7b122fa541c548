//! One deterministic hasher for the engine's hash maps: FNV-1a over bytes,
//! one multiply per `u64`, finished by murmur3's `fmix64` so every input bit
//! reaches the bits a table indexes by.
//!
//! Unlike the standard library's `RandomState` it has no per-process seed,
//! so a map behaves the same in every run and in wasm32. It is for lookups
//! only: nothing iterates a map into a result (the invariant that keeps
//! outputs independent of hashing), and it is not meant to resist
//! adversarial keys.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a (Fowler, Noll & Vo) with an `fmix64` finish.
#[derive(Default, Clone, Copy)]
pub struct Fnv(u64);

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        if self.0 == 0 {
            self.0 = OFFSET_BASIS;
        }
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(PRIME);
        }
    }

    /// Integer keys (packed id pairs) in one step instead of eight.
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// A `HashMap` hashed by [`Fnv`].
pub type FnvMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;
/// A `HashSet` hashed by [`Fnv`].
pub type FnvSet<K> = HashSet<K, BuildHasherDefault<Fnv>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn hashing_is_the_same_in_every_run() {
        let b = BuildHasherDefault::<Fnv>::default();
        // FNV-1a of "a" is 0xaf63dc4c8601ec8c; fmix64 of it, fixed forever.
        let mut h = Fnv::default();
        h.write(b"a");
        assert_eq!(h.0, 0xaf63_dc4c_8601_ec8c);
        assert_eq!(b.hash_one("a"), b.hash_one("a"));
    }

    #[test]
    fn packed_id_pairs_differ_in_the_low_bits() {
        // The LM's trie keys are `(parent << 32) | word`: parents must reach the table index.
        let b = BuildHasherDefault::<Fnv>::default();
        let key = |parent: u64, word: u64| (parent << 32) | word;
        assert_ne!(b.hash_one(key(1, 5)) & 0xffff, b.hash_one(key(2, 5)) & 0xffff);
    }
}
