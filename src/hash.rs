//! The engine's deterministic hashers: [`Fnv`] (FNV-1a over bytes, one
//! multiply per `u64`) for [`FnvMap`] and the exercise fingerprints, and
//! [`Words`] for [`WordMap`], which takes bytes eight at a time (id
//! sequences and words, the kernels' and translation tables' keys); both
//! finished by murmur3's `fmix64` so every input bit reaches the bits a
//! table indexes by.
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

/// A multiply-xor hash over 8-byte words (the last one zero-padded, with
/// its length in the top byte), finished as [`Fnv`]: a quarter to an
/// eighth of FNV-1a's multiplies on keys such as `[u32]` id sequences.
/// For lookups only (its values are not kept anywhere).
#[derive(Default, Clone, Copy)]
pub struct Words(u64);

const WORD_PRIME: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for Words {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0 ^ u64::from_le_bytes(w)).wrapping_mul(WORD_PRIME);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            w[7] = rest.len() as u8;
            self.0 = (self.0 ^ u64::from_le_bytes(w)).wrapping_mul(WORD_PRIME);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n) | 1 << 63);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(WORD_PRIME);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        Fnv(self.0).finish()
    }
}

/// A `HashMap` hashed by [`Fnv`].
pub type FnvMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;
/// A `HashSet` hashed by [`Fnv`].
pub type FnvSet<K> = HashSet<K, BuildHasherDefault<Fnv>>;
/// A `HashMap` hashed by [`Words`].
pub type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<Words>>;

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
    fn word_hashing_tells_apart_keys_that_differ_in_any_byte_or_length() {
        let b = BuildHasherDefault::<Words>::default();
        assert_eq!(b.hash_one("Klimawandel"), b.hash_one("Klimawandel"));
        let keys: [&[u32]; 5] = [&[], &[0], &[0, 0], &[1, 2, 3], &[1, 2, 4]];
        for (i, x) in keys.iter().enumerate() {
            for y in &keys[i + 1..] {
                assert_ne!(b.hash_one(x), b.hash_one(y), "{x:?} {y:?}");
            }
        }
        assert_ne!(b.hash_one("a"), b.hash_one("a\0"));
        assert_ne!(b.hash_one("abcdefgh"), b.hash_one("abcdefgh\0"));
    }

    #[test]
    fn packed_id_pairs_differ_in_the_low_bits() {
        // The LM's trie keys are `(parent << 32) | word`: parents must reach the table index.
        let b = BuildHasherDefault::<Fnv>::default();
        let key = |parent: u64, word: u64| (parent << 32) | word;
        assert_ne!(b.hash_one(key(1, 5)) & 0xffff, b.hash_one(key(2, 5)) & 0xffff);
    }
}
