//! Precision, recall and F of predicted sub-tree links against gold (paper §6).
//!
//! Only links between two phrase nodes count, on both sides (the gold links of
//! our data are between phrase nodes). Good and fuzzy gold links both count as
//! gold; recall on good links alone is reported too. Scores are micro-averaged
//! over the corpus, in percent.
//!
//! # Examples
//! ```
//! use treelink::eval::prf::Counts;
//! let c = Counts { correct: 3, predicted: 4, gold: 6, correct_good: 2, gold_good: 3 };
//! assert_eq!(c.precision(), 75.0);
//! assert_eq!(c.recall(), 50.0);
//! assert_eq!(c.f(), 60.0);
//! ```

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::corpus::TreePair;
use crate::eval::significance::{Bootstrap, DEFAULT_SAMPLES, DEFAULT_SEED};
use crate::io::links::{Link, LinkKind};
use crate::tree::NodeId;

/// Link counts, summed over pairs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Predicted links that are gold (good or fuzzy).
    pub correct: usize,
    pub predicted: usize,
    pub gold: usize,
    /// Predicted links that are good gold links.
    pub correct_good: usize,
    pub gold_good: usize,
}

fn percent(num: usize, den: usize) -> f64 {
    if den == 0 {
        0.0
    } else {
        100.0 * num as f64 / den as f64
    }
}

impl Counts {
    pub fn precision(&self) -> f64 {
        percent(self.correct, self.predicted)
    }

    pub fn recall(&self) -> f64 {
        percent(self.correct, self.gold)
    }

    /// Harmonic mean of precision and recall (0 when both are 0).
    pub fn f(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }

    /// Recall on good (sure) gold links only.
    pub fn recall_good(&self) -> f64 {
        percent(self.correct_good, self.gold_good)
    }

    /// Counts of one pair: `predicted` against the pair's gold links.
    pub fn of_pair(pair: &TreePair, predicted: &[Link]) -> Counts {
        let phrase = |l: &Link| pair.source.is_phrase(l.source) && pair.target.is_phrase(l.target);
        let gold: BTreeSet<(NodeId, NodeId)> = pair.phrase_links(&pair.gold);
        let good: BTreeSet<(NodeId, NodeId)> =
            pair.gold.iter().filter(|l| phrase(l) && l.kind == LinkKind::Good).map(|l| (l.source, l.target)).collect();
        let pred: BTreeSet<(NodeId, NodeId)> = pair.phrase_links(predicted);
        Counts {
            correct: pred.intersection(&gold).count(),
            predicted: pred.len(),
            gold: gold.len(),
            correct_good: pred.intersection(&good).count(),
            gold_good: good.len(),
        }
    }

    /// Micro-averaged counts over a corpus and one line of predicted links per pair.
    pub fn of_corpus<'a>(pairs: impl IntoIterator<Item = (&'a TreePair, &'a [Link])>) -> Counts {
        pairs.into_iter().map(|(p, pred)| Counts::of_pair(p, pred)).fold(Counts::default(), |a, b| a + b)
    }
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts {
            correct: self.correct + o.correct,
            predicted: self.predicted + o.predicted,
            gold: self.gold + o.gold,
            correct_good: self.correct_good + o.correct_good,
            gold_good: self.gold_good + o.gold_good,
        }
    }
}

impl std::iter::Sum for Counts {
    fn sum<I: Iterator<Item = Counts>>(iter: I) -> Counts {
        iter.fold(Counts::default(), |a, b| a + b)
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "P = {:.2}  R = {:.2}  F = {:.2}  (R good = {:.2}; {} correct of {} predicted, {} gold)",
            self.precision(),
            self.recall(),
            self.f(),
            self.recall_good(),
            self.correct,
            self.predicted,
            self.gold
        )
    }
}

/// The paired bootstrap p-value of alignment F between two systems' counts
/// on the same pairs (`a[i]`, `b[i]` for pair `i`): the pairs resampled
/// [`DEFAULT_SAMPLES`] times with seed [`DEFAULT_SEED`], as `mt-experiment`
/// and `bleu` test BLEU ([`crate::eval::significance`]). `None` when the
/// lists differ in length or are empty.
pub fn paired_p(a: &[Counts], b: &[Counts]) -> Option<f64> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    let systems = [a, b];
    let observed = systems.iter().map(|s| s.iter().copied().sum::<Counts>().f()).collect();
    let bootstrap = Bootstrap::with_scores(observed, a.len(), DEFAULT_SAMPLES, DEFAULT_SEED, |k, drawn| {
        drawn.iter().map(|&i| systems[k][i]).sum::<Counts>().f()
    });
    bootstrap.p_value(0, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Tree;

    #[test]
    fn counts_only_phrase_links_and_separates_good_from_fuzzy() {
        let good = |s, t| Link::good(NodeId::new(s), NodeId::new(t));
        let fuzzy = Link { source: NodeId::new(1), target: NodeId::new(1), kind: LinkKind::Fuzzy };
        let pair = TreePair {
            source: Tree::parse_one("(S (NP (DT a) (NN b)) (VP (V c)))", "s").unwrap(),
            target: Tree::parse_one("(S (NP (DT a) (NN b)) (VP (V c)))", "t").unwrap(),
            gold: vec![good(0, 0), fuzzy, good(4, 4)],
        };
        // (2,2) is a POS link: ignored. (4,1) is wrong.
        let pred = [good(0, 0), good(1, 1), good(2, 2), good(4, 1)];
        let c = Counts::of_pair(&pair, &pred);
        assert_eq!(c, Counts { correct: 2, predicted: 3, gold: 3, correct_good: 1, gold_good: 2 });
        assert!((c.precision() - 200.0 / 3.0).abs() < 1e-12);
        assert!((c.f() - 200.0 / 3.0).abs() < 1e-12);
        assert_eq!(c.recall_good(), 50.0);
        assert_eq!(Counts::default().f(), 0.0);
    }

    #[test]
    fn a_system_against_itself_has_p_1_and_against_a_much_better_one_a_small_p() {
        let pair = |correct| Counts { correct, predicted: 10, gold: 10, correct_good: correct, gold_good: 10 };
        let a: Vec<Counts> = (0..40).map(|i| pair(5 + i % 3)).collect();
        let b: Vec<Counts> = (0..40).map(|i| pair(9 + i % 2)).collect();
        assert_eq!(paired_p(&a, &a), Some(1.0));
        // B is better on every pair: no resample comes near the null.
        assert_eq!(paired_p(&a, &b), Some(1.0 / (DEFAULT_SAMPLES + 1) as f64));
        assert_eq!(paired_p(&a, &b[..3]), None);
        assert_eq!(paired_p(&[], &[]), None);
    }
}
