//! BLEU (Papineni et al. 2002) exactly as sacreBLEU 2.x computes it on
//! already tokenised text (`--tokenize none`): corpus BLEU-4 from the summed
//! n-gram statistics of all segments, with n-gram precisions for n = 1..4 and
//! the brevity penalty.
//!
//! sacreBLEU's defaults are reproduced:
//!
//! * tokens are the text split at whitespace (Python's `str.split()`, so the
//!   separators U+001C..U+001F count as whitespace too), nothing else;
//! * case-sensitive;
//! * **corpus BLEU** ([`corpus_bleu`]) uses smoothing `exp` without effective
//!   order: an order n whose clipped match count is 0 gets the precision
//!   `100 / (2^k · total_n)` where k counts the zero-match orders so far (the
//!   NIST `mteval-v13a` smoothing); an order without any hypothesis n-gram
//!   (`total_n = 0`) ends the precisions and contributes `ln 0`, treated as
//!   -9999999999 as in sacreBLEU, so BLEU rounds to 0;
//! * **sentence BLEU** ([`sentence_bleu`]) uses smoothing `exp` *with*
//!   effective order: only the orders up to the last one with any hypothesis
//!   n-gram are averaged, so a 2-word hypothesis can still score;
//! * if no n-gram of any order matches, BLEU is 0 and all precisions are
//!   reported as 0;
//! * brevity penalty `BP = exp(1 - r / c)` when the hypothesis length c is
//!   below the reference length r (and 0 when c = 0), otherwise 1;
//! * with several references, clipping uses the maximum count of each n-gram
//!   over the references and r is the reference length closest to c (ties to
//!   the shorter), as in sacreBLEU.
//!
//! `exp` and `ln` are the bit-reproducible ports in [`crate::math`], so
//! the command line and the page print the same digits.
//!
//! # Examples
//! ```
//! use treelink::eval::bleu::corpus_bleu;
//! let bleu = corpus_bleu(&["the cat sat on the mat"], &["the cat sat on the mat"]).unwrap();
//! assert_eq!(bleu.to_string(), "BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)");
//! ```

use std::collections::HashMap;
use std::fmt;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

use crate::math::{exp, ln};

/// BLEU-4: n-gram orders 1..=4.
pub const MAX_NGRAM_ORDER: usize = 4;

/// sacreBLEU's floor for `ln 0` (`my_log`).
const LN_ZERO: f64 = -9_999_999_999.0;

/// How precisions with no matched n-gram are smoothed (sacreBLEU's
/// `smooth_method`; Chen & Cherry 2014).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Smoothing {
    /// No smoothing: a zero precision makes BLEU 0.
    None,
    /// A zero match count is replaced by the given value (sacreBLEU's default 0.1).
    Floor(f64),
    /// The given value is added to matches and totals of orders 2..=4 (sacreBLEU's default 1).
    AddK(f64),
    /// NIST smoothing: the k-th zero precision becomes 1 / (2^k · total). sacreBLEU's default.
    Exp,
}

/// The sufficient statistics of BLEU. They add up over segments, so corpus
/// BLEU is `Bleu::from_stats(&sum of segment stats, ..)`; minimum error rate
/// training can keep them per sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct BleuStats {
    /// Hypothesis length in tokens (c).
    pub sys_len: u64,
    /// Effective reference length in tokens (r).
    pub ref_len: u64,
    /// Clipped n-gram matches, n = 1..=4.
    pub counts: [u64; MAX_NGRAM_ORDER],
    /// Hypothesis n-grams, n = 1..=4.
    pub totals: [u64; MAX_NGRAM_ORDER],
}

impl AddAssign for BleuStats {
    fn add_assign(&mut self, o: BleuStats) {
        self.sys_len += o.sys_len;
        self.ref_len += o.ref_len;
        for n in 0..MAX_NGRAM_ORDER {
            self.counts[n] += o.counts[n];
            self.totals[n] += o.totals[n];
        }
    }
}

impl Add for BleuStats {
    type Output = BleuStats;
    fn add(mut self, o: BleuStats) -> BleuStats {
        self += o;
        self
    }
}

impl std::iter::Sum for BleuStats {
    fn sum<I: Iterator<Item = BleuStats>>(iter: I) -> BleuStats {
        iter.fold(BleuStats::default(), Add::add)
    }
}

/// Whitespace as Python's `str.split()` sees it: Unicode White_Space plus the
/// information separators U+001C..U+001F.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// sacreBLEU's tokenisation with `tokenize = none`: split at whitespace.
pub fn tokenize(text: &str) -> Vec<&str> {
    text.split(is_python_space).filter(|t| !t.is_empty()).collect()
}

/// Counts of all n-grams of orders 1..=4, keyed by the token slice.
fn ngram_counts<'a>(words: &'a [&'a str]) -> HashMap<&'a [&'a str], u64> {
    let mut counts = HashMap::new();
    for n in 1..=MAX_NGRAM_ORDER.min(words.len()) {
        for gram in words.windows(n) {
            *counts.entry(gram).or_insert(0) += 1;
        }
    }
    counts
}

fn as_strs<S: AsRef<str>>(tokens: &[S]) -> Vec<&str> {
    tokens.iter().map(AsRef::as_ref).collect()
}

impl BleuStats {
    /// Statistics of one tokenised hypothesis against one or more tokenised
    /// references. With no reference, nothing matches and r = 0.
    pub fn from_tokens<S: AsRef<str>, R: AsRef<[S]>>(hyp: &[S], refs: &[R]) -> BleuStats {
        let hyp = as_strs(hyp);
        let refs: Vec<Vec<&str>> = refs.iter().map(|r| as_strs(r.as_ref())).collect();
        let mut ref_max: HashMap<&[&str], u64> = HashMap::new();
        let c = hyp.len() as u64;
        // sacreBLEU's _get_closest_ref_len: closest length, ties to the shorter.
        let mut closest: Option<(u64, u64)> = None; // (difference, length)
        for r in &refs {
            for (gram, n) in ngram_counts(r) {
                let e = ref_max.entry(gram).or_insert(0);
                *e = (*e).max(n);
            }
            let len = r.len() as u64;
            let diff = len.abs_diff(c);
            closest = match closest {
                Some((d, l)) if d < diff || (d == diff && l <= len) => Some((d, l)),
                _ => Some((diff, len)),
            };
        }
        let mut stats = BleuStats { sys_len: c, ref_len: closest.map_or(0, |(_, l)| l), ..BleuStats::default() };
        for (gram, n) in ngram_counts(&hyp) {
            let order = gram.len() - 1;
            stats.totals[order] += n;
            if let Some(&m) = ref_max.get(gram) {
                stats.counts[order] += n.min(m);
            }
        }
        stats
    }

    /// Statistics of one untokenised hypothesis against its references (split at whitespace).
    pub fn from_text<R: AsRef<str>>(hyp: &str, refs: &[R]) -> BleuStats {
        let refs: Vec<Vec<&str>> = refs.iter().map(|r| tokenize(r.as_ref())).collect();
        BleuStats::from_tokens(&tokenize(hyp), &refs)
    }
}

/// A BLEU score with its parts, as sacreBLEU's `BLEUScore`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bleu {
    /// BLEU in 0..=100.
    pub score: f64,
    /// n-gram precisions in percent, n = 1..=4 (after smoothing; 0 past the last order used).
    pub precisions: [f64; MAX_NGRAM_ORDER],
    /// Brevity penalty in 0..=1.
    pub bp: f64,
    /// sys_len / ref_len (0 when ref_len = 0).
    pub ratio: f64,
    /// Hypothesis length c.
    pub sys_len: u64,
    /// Reference length r.
    pub ref_len: u64,
    /// Clipped matches per order.
    pub counts: [u64; MAX_NGRAM_ORDER],
    /// Hypothesis n-grams per order.
    pub totals: [u64; MAX_NGRAM_ORDER],
}

impl Bleu {
    /// BLEU from summed statistics (sacreBLEU's `compute_bleu`, step by step).
    pub fn from_stats(stats: &BleuStats, smoothing: Smoothing, effective_order: bool) -> Bleu {
        let (c, r) = (stats.sys_len, stats.ref_len);
        let bp = if c < r {
            if c > 0 {
                exp(1.0 - r as f64 / c as f64)
            } else {
                0.0
            }
        } else {
            1.0
        };
        let mut bleu = Bleu {
            score: 0.0,
            precisions: [0.0; MAX_NGRAM_ORDER],
            bp,
            ratio: if r > 0 { c as f64 / r as f64 } else { 0.0 },
            sys_len: c,
            ref_len: r,
            counts: stats.counts,
            totals: stats.totals,
        };
        // Early stop when nothing matches (sacreBLEU #141).
        if stats.counts.iter().all(|&m| m == 0) {
            return bleu;
        }
        let mut smooth_mteval = 1.0;
        let mut eff_order = MAX_NGRAM_ORDER;
        for n in 0..MAX_NGRAM_ORDER {
            let (mut correct, mut total) = (stats.counts[n] as f64, stats.totals[n] as f64);
            if let Smoothing::AddK(k) = smoothing {
                if n > 0 {
                    correct += k;
                    total += k;
                }
            }
            if total == 0.0 {
                break;
            }
            if effective_order {
                eff_order = n + 1;
            }
            if correct == 0.0 {
                match smoothing {
                    Smoothing::Exp => {
                        smooth_mteval *= 2.0;
                        bleu.precisions[n] = 100.0 / (smooth_mteval * total);
                    }
                    Smoothing::Floor(v) => bleu.precisions[n] = 100.0 * v / total,
                    Smoothing::None | Smoothing::AddK(_) => {}
                }
            } else {
                bleu.precisions[n] = 100.0 * correct / total;
            }
        }
        let log_sum = bleu.precisions[..eff_order].iter().fold(0.0, |s, &p| s + if p == 0.0 { LN_ZERO } else { ln(p) });
        bleu.score = bp * exp(log_sum / eff_order as f64);
        bleu
    }

    /// Corpus BLEU from summed statistics with sacreBLEU's corpus defaults.
    pub fn corpus(stats: &BleuStats) -> Bleu {
        Bleu::from_stats(stats, Smoothing::Exp, false)
    }

    /// Sentence BLEU from one segment's statistics with sacreBLEU's sentence
    /// smoothing (`exp`, effective order).
    pub fn sentence(stats: &BleuStats) -> Bleu {
        Bleu::from_stats(stats, Smoothing::Exp, true)
    }
}

/// sacreBLEU's score line, e.g.
/// `BLEU = 23.45 56.7/30.1/17.0/10.2 (BP = 0.950 ratio = 0.951 hyp_len = 1234 ref_len = 1297)`.
impl fmt::Display for Bleu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.precisions;
        write!(
            f,
            "BLEU = {:.2} {:.1}/{:.1}/{:.1}/{:.1} (BP = {:.3} ratio = {:.3} hyp_len = {} ref_len = {})",
            self.score, p[0], p[1], p[2], p[3], self.bp, self.ratio, self.sys_len, self.ref_len
        )
    }
}

/// Hypotheses and references that do not pair up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BleuError {
    #[error("expected as many references as hypotheses ({hyps}), found {refs} in reference set {set}")]
    LengthMismatch { hyps: usize, refs: usize, set: usize },
    #[error("expected at least one reference set, found none")]
    NoReferences,
}

fn check_lengths(hyps: usize, sets: &[usize]) -> Result<(), BleuError> {
    if sets.is_empty() {
        return Err(BleuError::NoReferences);
    }
    match sets.iter().position(|&n| n != hyps) {
        Some(set) => Err(BleuError::LengthMismatch { hyps, refs: sets[set], set: set + 1 }),
        None => Ok(()),
    }
}

/// Corpus BLEU of untokenised lines against one reference per line, as
/// `sacrebleu -tok none` (`corpus_bleu(hyps, [refs], tokenize='none')`).
pub fn corpus_bleu<H: AsRef<str>, R: AsRef<str>>(hyps: &[H], refs: &[R]) -> Result<Bleu, BleuError> {
    corpus_bleu_multi(hyps, &[refs])
}

/// Corpus BLEU against several reference sets, laid out as sacreBLEU's
/// `references`: `ref_sets[k][i]` is the k-th reference of hypothesis i.
pub fn corpus_bleu_multi<H: AsRef<str>, R: AsRef<str>, Set: AsRef<[R]>>(
    hyps: &[H],
    ref_sets: &[Set],
) -> Result<Bleu, BleuError> {
    check_lengths(hyps.len(), &ref_sets.iter().map(|s| s.as_ref().len()).collect::<Vec<_>>())?;
    let stats = hyps
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let refs: Vec<&str> = ref_sets.iter().map(|s| s.as_ref()[i].as_ref()).collect();
            BleuStats::from_text(h.as_ref(), &refs)
        })
        .sum();
    Ok(Bleu::corpus(&stats))
}

/// Corpus BLEU of tokenised sentences against one tokenised reference each.
/// Tokens are taken as given (a token containing a space stays one token).
pub fn corpus_bleu_tokens<S: AsRef<str>, H: AsRef<[S]>, R: AsRef<[S]>>(
    hyps: &[H],
    refs: &[R],
) -> Result<Bleu, BleuError> {
    check_lengths(hyps.len(), &[refs.len()])?;
    let stats = hyps.iter().zip(refs).map(|(h, r)| BleuStats::from_tokens(h.as_ref(), &[r.as_ref()])).sum();
    Ok(Bleu::corpus(&stats))
}

/// Sentence BLEU of one untokenised hypothesis against one reference, as
/// sacreBLEU's `sentence_bleu(hyp, [ref], tokenize='none')` (smoothing `exp`,
/// effective order).
pub fn sentence_bleu(hyp: &str, reference: &str) -> Bleu {
    Bleu::sentence(&BleuStats::from_text(hyp, &[reference]))
}

/// Sentence BLEU against several references.
pub fn sentence_bleu_multi<R: AsRef<str>>(hyp: &str, refs: &[R]) -> Bleu {
    Bleu::sentence(&BleuStats::from_text(hyp, refs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_whitespace() {
        assert_eq!(tokenize("  a\tb\u{1f}c\u{3000}d\n"), ["a", "b", "c", "d"]);
        assert!(tokenize(" \n").is_empty());
    }

    #[test]
    fn closest_reference_length_ties_to_shorter() {
        let s = BleuStats::from_text("a b c", &["a b", "a b c d"]);
        assert_eq!(s.ref_len, 2);
        let s = BleuStats::from_text("a b c", &["a b c d", "a"]);
        assert_eq!(s.ref_len, 4);
    }

    #[test]
    fn multi_reference_clipping_takes_the_maximum() {
        // "a a a": unigram a appears once in ref 1, twice in ref 2 → clipped 2.
        let s = BleuStats::from_text("a a a", &["a b", "a a"]);
        assert_eq!(s.counts[0], 2);
        assert_eq!(s.totals, [3, 2, 1, 0]);
    }

    #[test]
    fn stats_add_up() {
        let a = BleuStats::from_text("a b", &["a b"]);
        let b = BleuStats::from_text("c", &["d e"]);
        let s: BleuStats = [a, b].into_iter().sum();
        assert_eq!((s.sys_len, s.ref_len, s.counts, s.totals), (3, 4, [2, 1, 0, 0], [3, 1, 0, 0]));
    }

    #[test]
    fn mismatched_lengths_are_errors() {
        assert_eq!(
            corpus_bleu(&["a", "b"], &["a"]).unwrap_err().to_string(),
            "expected as many references as hypotheses (2), found 1 in reference set 1"
        );
        let none: [&[&str]; 0] = [];
        assert_eq!(corpus_bleu_multi(&["a"], &none), Err(BleuError::NoReferences));
    }
}
