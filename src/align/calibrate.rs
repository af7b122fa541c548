//! A calibrated decision: the threshold on the decision value `D` that
//! maximises F on development data.
//!
//! The paper links candidates classified *aligned* (`D > 0`). An SVM trained
//! on sampled, re-weighted examples is not calibrated for F: on our data it
//! over-predicts (recall well above precision). So the model may keep a
//! threshold τ and the greedy search links only candidates with `D > τ`.
//!
//! τ is found from one search per dev pair over every kept candidate
//! (τ = −∞). The search takes candidates by decreasing posterior, a
//! monotone function of `D`, so the search over the candidates with
//! `D > τ` takes exactly the links of the full search whose `D` exceeds τ:
//! a prefix of it, each link's fate decided by higher-scored links only.
//! Every τ is then scored by counting, not by searching again: the taken
//! links of all pairs sorted by `D`, F after each distinct value. (Within a
//! pair a link's key is the lowest `D` up to it in search order, so a cut
//! is always a prefix even where the posterior saturates.) τ is the midpoint
//! between the last kept key and the next; ties in F go to the higher τ
//! (fewer links).
//!
//! Cost: O(L log L) for L taken links.
//!
//! # Examples
//! Three dev links taken in this order; only the first two are gold. Taking
//! all gives P = 2/3, R = 2/2 (F 80); cutting after two gives P = R = 1.
//! ```
//! use treelink::align::calibrate::{best_threshold, TakenLink};
//! use treelink::corpus::PairIndex;
//! use treelink::eval::prf::Counts;
//! let gold = Counts { gold: 2, gold_good: 2, ..Counts::default() };
//! let link =
//!     |value: f64, correct: bool| TakenLink { pair: PairIndex::FIRST, value, correct, good: correct, counted: true };
//! let cut = best_threshold(gold, &[link(1.5, true), link(0.7, true), link(0.2, false)]);
//! assert_eq!(cut.threshold, (0.7 + 0.2) / 2.0);
//! assert_eq!((cut.counts.predicted, cut.counts.correct), (2, 2));
//! ```

use serde::{Deserialize, Serialize};

use crate::corpus::PairIndex;
use crate::eval::prf::Counts;

/// A link taken by a dev search at τ = −∞, in search order within its pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TakenLink {
    /// Which dev pair (links of one pair are given in search order).
    pub pair: PairIndex,
    /// Its decision value `D`.
    pub value: f64,
    /// Gold (good or fuzzy), and good gold.
    pub correct: bool,
    pub good: bool,
    /// Whether P/R/F count it (a link between phrase nodes).
    pub counted: bool,
}

/// The chosen threshold and the dev counts it gives.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Cut {
    pub threshold: f64,
    pub counts: Counts,
}

/// The τ maximising F over `taken` (see the module doc); `gold` holds the
/// gold counts of the dev pairs (its link counts are ignored). With no
/// link, τ = 0.
pub fn best_threshold(gold: Counts, taken: &[TakenLink]) -> Cut {
    let base = Counts { predicted: 0, correct: 0, correct_good: 0, ..gold };
    // Keys: the running minimum of D along each pair's search order.
    let mut keyed: Vec<(f64, &TakenLink)> = Vec::with_capacity(taken.len());
    let mut last: Option<(PairIndex, f64)> = None;
    for t in taken {
        let key = match last {
            Some((pair, low)) if pair == t.pair => low.min(t.value),
            _ => t.value,
        };
        last = Some((t.pair, key));
        keyed.push((key, t));
    }
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best = Cut { threshold: 0.0, counts: base };
    let mut best_f = f64::NEG_INFINITY;
    let mut counts = base;
    for (k, &(key, t)) in keyed.iter().enumerate() {
        counts.predicted += usize::from(t.counted);
        counts.correct += usize::from(t.counted && t.correct);
        counts.correct_good += usize::from(t.counted && t.good);
        let next = keyed.get(k + 1).map(|e| e.0);
        if next == Some(key) {
            continue;
        }
        if counts.f() > best_f {
            best_f = counts.f();
            let threshold = match next {
                Some(n) => (key + n) / 2.0,
                None => key - 1.0,
            };
            best = Cut { threshold, counts };
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(pair: usize, value: f64, correct: bool) -> TakenLink {
        TakenLink { pair: PairIndex::new(pair), value, correct, good: correct, counted: true }
    }

    /// Every threshold tried by brute force: the F at τ counts the links
    /// whose key exceeds τ.
    #[test]
    fn the_cut_is_the_best_of_all_thresholds() {
        let taken = [
            link(0, 2.0, true),
            link(0, 0.9, false),
            link(0, 1.1, true), // after a lower D in its pair: key 0.9
            link(1, 1.4, true),
            link(1, 0.3, false),
            link(1, -0.5, true),
            link(2, 0.3, true),
            TakenLink { pair: PairIndex::new(2), value: 0.1, correct: true, good: false, counted: false },
        ];
        let gold = Counts { gold: 7, gold_good: 6, ..Counts::default() };
        let cut = best_threshold(gold, &taken);
        let keys = [2.0, 0.9, 0.9, 1.4, 0.3, -0.5, 0.3, 0.1];
        let at = |tau: f64| {
            let mut c = Counts { gold: 7, gold_good: 6, ..Counts::default() };
            for (t, &k) in taken.iter().zip(&keys) {
                if k > tau && t.counted {
                    c.predicted += 1;
                    c.correct += usize::from(t.correct);
                    c.correct_good += usize::from(t.good);
                }
            }
            c
        };
        assert_eq!(at(cut.threshold), cut.counts);
        let best = (-100..=300).map(|k| at(k as f64 / 100.0).f()).fold(f64::MIN, f64::max);
        assert_eq!(cut.counts.f(), best);
        // Here: keep 2.0, 1.4, 0.9, 0.9, 0.3, 0.3 → 4 correct of 6 (F 4/6.5);
        // down to −0.5 → 5 of 7 (F 5/7 ≈ 0.714 > 0.615).
        assert_eq!((cut.counts.predicted, cut.counts.correct), (7, 5));
        assert_eq!(cut.threshold, -1.5);
    }

    #[test]
    fn no_links_keep_the_paper_threshold() {
        let cut = best_threshold(Counts { gold: 3, ..Counts::default() }, &[]);
        assert_eq!((cut.threshold, cut.counts.predicted), (0.0, 0));
    }
}
