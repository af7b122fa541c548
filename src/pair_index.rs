//! The place of a sentence pair in its corpus.

use std::fmt;

/// Index of a sentence pair in its corpus, counted from 0 (the first pair
/// is index 0).
///
/// A number of its own so that a pair is never taken for a node, a count
/// or a pair's number as people write it: files and messages number pairs
/// from 1, and that number is what [`PairIndex::number`] and `Display`
/// give (`"pair {p}"` reads "pair 1" for the first). Serialised (serde) and
/// `Debug` as the bare index, so every file reads as it did when it was a
/// `usize`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
#[repr(transparent)]
pub struct PairIndex(usize);

impl PairIndex {
    /// The first pair.
    pub const FIRST: PairIndex = PairIndex(0);

    /// The pair at index `index` (from 0).
    #[inline]
    pub const fn new(index: usize) -> Self {
        PairIndex(index)
    }

    /// The pair people call number `number` (from 1); `None` for 0.
    pub fn from_number(number: usize) -> Option<Self> {
        number.checked_sub(1).map(PairIndex)
    }

    /// Its index, from 0, to index a per-pair table.
    #[inline]
    pub const fn index(self) -> usize {
        self.0
    }

    /// Its number as files and messages write it, from 1.
    #[inline]
    pub const fn number(self) -> usize {
        self.0 + 1
    }

    /// This pair, or the last of a corpus of `pairs` pairs when it is
    /// beyond them (the first when there are none).
    pub fn within(self, pairs: usize) -> PairIndex {
        PairIndex(self.0.min(pairs.saturating_sub(1)))
    }

    /// The pair `delta` places on (back when negative), never before the first.
    pub fn step(self, delta: isize) -> PairIndex {
        PairIndex(self.0.saturating_add_signed(delta))
    }

    /// Every pair of a corpus of `pairs` pairs, in order.
    pub fn all(pairs: usize) -> impl DoubleEndedIterator<Item = PairIndex> + ExactSizeIterator {
        (0..pairs).map(PairIndex)
    }
}

/// The pair's number, from 1.
impl fmt::Display for PairIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.number(), f)
    }
}

impl fmt::Debug for PairIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::PairIndex;

    #[test]
    fn the_first_pair_is_index_0_and_number_1_in_messages_and_0_in_files() {
        let p = PairIndex::new(0);
        assert_eq!((p.index(), p.number(), p.to_string()), (0, 1, "1".to_string()));
        assert_eq!(PairIndex::from_number(12), Some(PairIndex::new(11)));
        assert_eq!(PairIndex::from_number(0), None);
        assert_eq!(serde_json::to_string(&PairIndex::new(4)).unwrap(), "4");
        assert_eq!(format!("{:?}", PairIndex::new(4)), "4");
    }

    #[test]
    fn steps_stay_at_or_after_the_first_pair_and_within_the_corpus() {
        let p = PairIndex::new(3);
        assert_eq!((p.step(-2), p.step(-9), p.step(4)), (PairIndex::new(1), PairIndex::FIRST, PairIndex::new(7)));
        assert_eq!((p.within(10), p.within(3), p.within(0)), (p, PairIndex::new(2), PairIndex::FIRST));
        assert_eq!(PairIndex::all(3).map(PairIndex::number).collect::<Vec<_>>(), vec![1, 2, 3]);
    }
}
