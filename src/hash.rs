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
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

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

/// A multiply-xor hash over 8-byte words (the last one shorter, with its
/// length above its bytes), finished as [`Fnv`]: a quarter to an
/// eighth of FNV-1a's multiplies on keys such as `[u32]` id sequences.
/// For lookups only (its values are not kept anywhere).
#[derive(Default, Clone, Copy)]
pub struct Words(u64);

const WORD_PRIME: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for Words {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(<[u8; 8]>::try_from(c).unwrap_or_default());
            self.0 = (self.0 ^ w).wrapping_mul(WORD_PRIME);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            // The bytes, then their number just above them (so no two tails collide).
            let w = rest.iter().rev().fold(rest.len() as u64, |w, &b| w << 8 | u64::from(b));
            self.0 = (self.0 ^ w).wrapping_mul(WORD_PRIME);
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

/// Distinct keys stored end to end in one buffer, each with a dense id (in
/// order of insertion) and found through an open-addressing index of ids:
/// a table of a million short keys costs a few buffers, not a million
/// allocations (the translation tables' words and phrases). Hashed by [`Words`].
#[derive(Debug, Clone)]
pub struct SliceSet<T> {
    data: Vec<T>,
    /// Per id, one past its last element in `data`.
    ends: Vec<usize>,
    /// `(id + 1, hash)` of the key hashed there (the hash's low 32 bits),
    /// `(0, _)` for a free slot; a power of two, at most half full. The
    /// hash spares comparing keys that differ, and rehashing on growth.
    slots: Vec<(u32, u32)>,
}

impl<T> Default for SliceSet<T> {
    fn default() -> Self {
        SliceSet { data: Vec::new(), ends: Vec::new(), slots: Vec::new() }
    }
}

impl<T: Copy + Eq + Hash> SliceSet<T> {
    /// Keys held.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The key of `id` (empty for an id not given out).
    pub fn get(&self, id: u32) -> &[T] {
        let id = id as usize;
        let start = if id == 0 { 0 } else { self.ends.get(id - 1).copied().unwrap_or(0) };
        self.data.get(start..self.ends.get(id).copied().unwrap_or(start)).unwrap_or(&[])
    }

    fn hash(key: &[T]) -> u32 {
        (BuildHasherDefault::<Words>::default().hash_one(key) >> 16) as u32
    }

    /// The slot holding `key` (of hash `h`), or the free slot where it would go.
    fn probe(&self, key: &[T], h: u32) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            match self.slots[i] {
                (0, _) => return Err(i),
                (id, g) if g == h && self.get(id - 1) == key => return Ok(i),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The id of `key`, if held.
    pub fn id(&self, key: &[T]) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        self.probe(key, Self::hash(key)).ok().map(|i| self.slots[i].0 - 1)
    }

    /// The id of `key`, added if new; with whether it was.
    pub fn insert(&mut self, key: &[T]) -> (u32, bool) {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let h = Self::hash(key);
        match self.probe(key, h) {
            Ok(i) => (self.slots[i].0 - 1, false),
            Err(i) => {
                let id = self.ends.len() as u32;
                self.data.extend_from_slice(key);
                self.ends.push(self.data.len());
                self.slots[i] = (id + 1, h);
                (id, true)
            }
        }
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(16);
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); size]);
        let mask = self.slots.len() - 1;
        for (id, h) in old.into_iter().filter(|s| s.0 != 0) {
            let mut i = h as usize & mask;
            while self.slots[i].0 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (id, h);
        }
    }
}

/// Distinct strings as a [`SliceSet`] of their bytes.
#[derive(Debug, Clone, Default)]
pub struct StrSet(SliceSet<u8>);

impl StrSet {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The string of `id` (empty for an id not given out).
    pub fn get(&self, id: u32) -> &str {
        // The bytes of one inserted `str`: always UTF-8.
        std::str::from_utf8(self.0.get(id)).unwrap_or_default()
    }

    /// The bytes of `id`'s string (they compare as the strings do).
    pub fn bytes(&self, id: u32) -> &[u8] {
        self.0.get(id)
    }

    pub fn id(&self, s: &str) -> Option<u32> {
        self.0.id(s.as_bytes())
    }

    pub fn insert(&mut self, s: &str) -> (u32, bool) {
        self.0.insert(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_sets_give_dense_ids_and_find_every_key_again() {
        let mut set = SliceSet::<u32>::default();
        assert_eq!(set.id(&[1]), None);
        let keys: Vec<Vec<u32>> = (0..1000u32).map(|k| (0..k % 7).map(|j| j * k).collect()).collect();
        let mut ids = Vec::new();
        for k in &keys {
            ids.push(set.insert(k).0);
        }
        // Keys repeat (k % 7 == 0 gives the empty key; j * k repeats for j = 0).
        for (k, &id) in keys.iter().zip(&ids) {
            assert_eq!(set.get(id), k.as_slice());
            assert_eq!(set.id(k), Some(id));
            assert_eq!(set.insert(k), (id, false));
        }
        assert_eq!(ids.iter().copied().max().map(|m| m as usize + 1), Some(set.len()));
        assert_eq!(set.get(u32::MAX), &[] as &[u32]);
        let mut words = StrSet::default();
        assert_eq!(words.insert("Straße"), (0, true));
        assert_eq!(words.insert(""), (1, true));
        assert_eq!(words.insert("Straße"), (0, false));
        assert_eq!((words.get(0), words.get(1), words.id("Strasse")), ("Straße", "", None));
    }

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
