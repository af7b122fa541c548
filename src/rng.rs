//! The one seeded random number generator: SplitMix64 (Steele, Lea & Flood
//! 2014). Small, fast and the same sequence on every target, so sampling
//! (negative examples for the alignment SVM, SMS samples for the structure
//! model, MERT's random restarts) is reproducible from its seed, natively
//! and in wasm32.

/// SplitMix64: a 64-bit state advanced by the golden-ratio increment, each
/// output a bijective mix of the state.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1).
    pub fn symmetric(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    /// Keeps a uniformly drawn `k` of `items` (partial Fisher–Yates), in
    /// sorted order; all of them when there are at most `k`.
    pub fn sample<T: Ord>(&mut self, items: &mut Vec<T>, k: usize) {
        if items.len() <= k {
            return;
        }
        for i in 0..k {
            let j = i + (self.next_u64() % (items.len() - i) as u64) as usize;
            items.swap(i, j);
        }
        items.truncate(k);
        items.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_outputs_match_the_reference() {
        // The reference implementation (Vigna's splitmix64.c) seeded with 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn same_seed_same_sequence() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for _ in 0..10 {
            let x = a.symmetric();
            assert!((-1.0..1.0).contains(&x));
            assert_eq!(x.to_bits(), b.symmetric().to_bits());
        }
    }

    #[test]
    fn sample_keeps_k_distinct_items_sorted() {
        let mut items: Vec<u32> = (0..100).collect();
        SplitMix64::new(3).sample(&mut items, 10);
        assert_eq!(items.len(), 10);
        assert!(items.windows(2).all(|w| w[0] < w[1]));
        let mut few = vec![5, 1];
        SplitMix64::new(3).sample(&mut few, 10);
        assert_eq!(few, [5, 1]);
    }
}
