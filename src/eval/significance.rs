//! Significance of BLEU differences by paired bootstrap resampling (Koehn
//! 2004), with the definitions of sacreBLEU 2.x's `--paired-bs`, so that
//! `treelink bleu --hyp A --hyp B` prints what sacreBLEU prints for the
//! same files, within the sampling noise of the two generators.
//!
//! The test set's sentences are resampled with replacement `samples` times
//! (default 1000); resample `s` draws the same sentence indices for every
//! system, and each system's BLEU on it is corpus BLEU ([`Bleu::corpus`])
//! of the summed statistics of the drawn sentences.
//!
//! * **Confidence interval** (sacreBLEU's `estimate_ci`): the resampled
//!   scores sorted, `lo = scores[n / 40]`, `hi = scores[n − n / 40 − 1]`;
//!   reported as the mean of the resampled scores `μ` and the half-width
//!   `(hi − lo) / 2` (`μ ± ci`, a 95% interval).
//! * **p-value** of a system against the first (the baseline; sacreBLEU's
//!   `_paired_bs_test`, after Moses'
//!   `bootstrap-hypothesis-difference-significance.pl`): with the observed
//!   difference `d = |BLEU_sys − BLEU_base|` and the resampled differences
//!   `δ_s = |BLEU_sys(s) − BLEU_base(s)|`, centred at their mean
//!   (`δ'_s = δ_s − mean δ`, which simulates the null hypothesis of no
//!   difference), `p = (#{s : δ'_s > d} + 1) / (samples + 1)`: two-sided,
//!   and never 0. One departure: when the two systems score the same on
//!   every resample (identical outputs), `p = 1`. The formula would give
//!   `1 / (samples + 1)`, as sacreBLEU prints, since no centred difference
//!   exceeds a difference of 0; that would call a system significantly
//!   different from itself.
//!
//! **Several runs per system** (Clark et al. 2011, "Better hypothesis
//! testing for statistical machine translation: controlling for optimizer
//! instability"): when each system was tuned several times (MERT runs),
//! its score on a resample is the *mean* over its runs of their corpus
//! BLEU on that resample, and its observed score the mean of their test
//! BLEU; everything else is as above. The resampling accounts for the
//! choice of test sentences, the mean over runs for the optimizer's
//! instability (their standard deviation is [`RunScores::sd`]). With one
//! run this is exactly the test above.
//!
//! Random indices come from [`SplitMix64`] with the given seed (sacreBLEU
//! uses numpy's PCG64 with seed 12345: the draws differ, the distributions
//! do not).

use crate::eval::bleu::{Bleu, BleuStats};
use crate::rng::SplitMix64;

/// sacreBLEU's number of bootstrap resamples for `--paired-bs`.
pub const DEFAULT_SAMPLES: usize = 1000;
/// sacreBLEU's default seed (`SACREBLEU_SEED`), used here for our own generator.
pub const DEFAULT_SEED: u64 = 12345;

/// One system's test-set statistics: per run (MERT run), per sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct RunScores {
    /// `runs[r][i]`: run `r`'s BLEU statistics of sentence `i`.
    pub runs: Vec<Vec<BleuStats>>,
}

impl RunScores {
    /// One run.
    pub fn single(sentences: Vec<BleuStats>) -> RunScores {
        RunScores { runs: vec![sentences] }
    }

    /// Corpus BLEU of each run.
    pub fn bleus(&self) -> Vec<Bleu> {
        self.runs.iter().map(|r| Bleu::corpus(&r.iter().copied().sum())).collect()
    }

    /// Mean corpus BLEU over the runs.
    pub fn mean(&self) -> f64 {
        mean(&self.bleus().iter().map(|b| b.score).collect::<Vec<_>>())
    }

    /// Sample standard deviation of corpus BLEU over the runs (0 for one run).
    pub fn sd(&self) -> f64 {
        sample_sd(&self.bleus().iter().map(|b| b.score).collect::<Vec<_>>())
    }

    fn sentences(&self) -> usize {
        self.runs.first().map_or(0, Vec::len)
    }
}

/// The mean (0 of none).
pub fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        0.0
    } else {
        x.iter().sum::<f64>() / x.len() as f64
    }
}

/// `*` for a p value below 0.05 (significant), else nothing.
pub fn mark(p: f64) -> &'static str {
    if p < 0.05 {
        "*"
    } else {
        ""
    }
}

/// The sample standard deviation (0 for fewer than two values): runs' BLEU.
pub fn sample_sd(x: &[f64]) -> f64 {
    if x.len() < 2 {
        return 0.0;
    }
    let m = mean(x);
    (x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64).sqrt()
}

/// What the test says about one system.
#[derive(Debug, Clone, PartialEq)]
pub struct Significance {
    /// Observed BLEU (the mean over runs).
    pub score: f64,
    /// Mean BLEU over the resamples (sacreBLEU's `μ`).
    pub mean: f64,
    /// Half-width of the 95% confidence interval.
    pub ci: f64,
    /// p-value against the first system (`None` for the first).
    pub p_value: Option<f64>,
}

/// Why the test cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignificanceError {
    #[error("expected at least one system with at least one run")]
    NoSystem,
    #[error("expected every run of every system to score the same {expected} sentences, found {found}")]
    Lengths { expected: usize, found: usize },
}

/// `n` sentence indices drawn uniformly with replacement (Lemire's
/// multiply-shift: bias below 2^-50 for any test set).
fn draw(rng: &mut SplitMix64, n: usize, out: &mut Vec<usize>) {
    out.clear();
    out.extend((0..n).map(|_| ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize));
}

/// sacreBLEU's `estimate_ci`: mean and half-width of the 95% interval.
fn mean_ci(mut scores: Vec<f64>) -> (f64, f64) {
    scores.sort_by(f64::total_cmp);
    let n = scores.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let lo = n / 40;
    let hi = n - lo - 1;
    (mean(&scores), 0.5 * (scores[hi] - scores[lo]))
}

/// The resampled scores of several systems on the same resamples (module
/// documentation), from which confidence intervals and the p-value of any
/// pair of systems follow.
#[derive(Debug, Clone, PartialEq)]
pub struct Bootstrap {
    /// Observed score of each system (mean over its runs).
    observed: Vec<f64>,
    /// `resampled[k][s]`: system `k`'s score on resample `s`.
    resampled: Vec<Vec<f64>>,
}

impl Bootstrap {
    /// Draws `samples` resamples of the sentences (seeded) and scores every system on each.
    pub fn new(systems: &[RunScores], samples: usize, seed: u64) -> Result<Bootstrap, SignificanceError> {
        let n = systems.first().map(RunScores::sentences).ok_or(SignificanceError::NoSystem)?;
        for s in systems {
            if s.runs.is_empty() {
                return Err(SignificanceError::NoSystem);
            }
            if let Some(r) = s.runs.iter().find(|r| r.len() != n) {
                return Err(SignificanceError::Lengths { expected: n, found: r.len() });
            }
        }
        let observed = systems.iter().map(RunScores::mean).collect();
        Ok(Self::with_scores(observed, n, samples, seed, |k, idx| {
            mean(
                &systems[k]
                    .runs
                    .iter()
                    .map(|run| Bleu::corpus(&idx.iter().map(|&i| run[i]).sum()).score)
                    .collect::<Vec<_>>(),
            )
        }))
    }

    /// The same resampling for any score: `observed[k]` is system `k`'s
    /// score on all `n` items, `score(k, drawn)` its score on the drawn
    /// item indices (e.g. alignment F of the summed counts of the drawn pairs).
    pub fn with_scores(
        observed: Vec<f64>,
        n: usize,
        samples: usize,
        seed: u64,
        score: impl Fn(usize, &[usize]) -> f64,
    ) -> Bootstrap {
        let mut rng = SplitMix64::new(seed);
        let mut resampled: Vec<Vec<f64>> = vec![Vec::with_capacity(samples); observed.len()];
        let mut idx = Vec::with_capacity(n);
        for _ in 0..samples {
            draw(&mut rng, n, &mut idx);
            for (k, out) in resampled.iter_mut().enumerate() {
                out.push(score(k, &idx));
            }
        }
        Bootstrap { observed, resampled }
    }

    /// Number of systems.
    pub fn len(&self) -> usize {
        self.observed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.observed.is_empty()
    }

    /// System `k`'s observed score, mean over the resamples and CI half-width.
    pub fn score(&self, k: usize) -> Option<(f64, f64, f64)> {
        let (mu, ci) = mean_ci(self.resampled.get(k)?.clone());
        Some((self.observed[k], mu, ci))
    }

    /// The p-value of system `k` against system `baseline` (module documentation).
    pub fn p_value(&self, k: usize, baseline: usize) -> Option<f64> {
        let (a, b) = (self.resampled.get(k)?, self.resampled.get(baseline)?);
        let d = (self.observed[k] - self.observed[baseline]).abs();
        let deltas: Vec<f64> = a.iter().zip(b).map(|(x, y)| (x - y).abs()).collect();
        if d == 0.0 && deltas.iter().all(|&x| x == 0.0) {
            return Some(1.0);
        }
        let m = mean(&deltas);
        let c = deltas.iter().filter(|&&x| x - m > d).count();
        Some((c + 1) as f64 / (deltas.len() + 1) as f64)
    }
}

/// The paired bootstrap test of every system against the first (module
/// documentation): `samples` resamples of the sentences, seeded.
pub fn paired_bootstrap(
    systems: &[RunScores],
    samples: usize,
    seed: u64,
) -> Result<Vec<Significance>, SignificanceError> {
    let b = Bootstrap::new(systems, samples, seed)?;
    Ok((0..b.len())
        .filter_map(|k| {
            let (score, mean, ci) = b.score(k)?;
            Some(Significance { score, mean, ci, p_value: if k == 0 { None } else { b.p_value(k, 0) } })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(hyp: &str, r: &str) -> BleuStats {
        BleuStats::from_text(hyp, &[r])
    }

    #[test]
    fn ci_indices_are_sacrebleus() {
        // n = 1000: lo = scores[25], hi = scores[974].
        let scores: Vec<f64> = (0..1000).rev().map(f64::from).collect();
        let (m, ci) = mean_ci(scores);
        assert_eq!(m, 499.5);
        assert_eq!(ci, 0.5 * (974.0 - 25.0));
    }

    #[test]
    fn a_system_against_itself_and_against_a_clearly_better_one() {
        let refs = ["a b c d e", "f g h i j", "k l m n o", "p q r s t", "u v w x y", "a c e g i"];
        let bad = ["a x c y e", "f z h w j", "k q m u o", "p l r n t", "u a w b y", "a d e f i"];
        let base = RunScores::single(refs.iter().zip(&bad).map(|(r, h)| stats(h, r)).collect());
        let good = RunScores::single(refs.iter().map(|r| stats(r, r)).collect());
        let out = paired_bootstrap(&[base.clone(), base.clone(), good], 200, 3).unwrap();
        assert_eq!(out[0].p_value, None);
        // Identical systems: every resampled difference is 0: p = 1 (sacreBLEU's formula: 1 / 201).
        assert_eq!(out[1].p_value, Some(1.0));
        assert_eq!(out[1].score, out[0].score);
        // Perfect against poor: the centred differences almost never exceed the observed one.
        assert!((out[2].score - 100.0).abs() < 1e-9);
        assert!(out[2].p_value.unwrap() < 0.05, "{:?}", out[2]);
        // Same seed, same numbers.
        assert_eq!(paired_bootstrap(&[base.clone(), base], 200, 3).unwrap()[1], out[1]);
    }

    /// Any score: the mean of 0/1 outcomes over the drawn items. Identical
    /// systems give p = 1; a system right on every item scores 1
    /// on every resample; the other's resampled scores centre on its 0.5.
    #[test]
    fn any_score_resamples_the_same_items() {
        let half = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0];
        let all = [1.0; 8];
        let systems = [half, half, all];
        let score = |k: usize, idx: &[usize]| idx.iter().map(|&i| systems[k][i]).sum::<f64>() / idx.len() as f64;
        let b = Bootstrap::with_scores(vec![0.5, 0.5, 1.0], 8, 300, 7, score);
        assert_eq!(b.p_value(1, 0), Some(1.0));
        let (observed, mean, _) = b.score(2).unwrap();
        assert_eq!((observed, mean), (1.0, 1.0));
        let (_, mean_half, _) = b.score(0).unwrap();
        assert!((mean_half - 0.5).abs() < 0.05, "{mean_half}");
    }

    #[test]
    fn several_runs_average_and_lengths_are_checked() {
        let refs = ["a b c d", "e f g h"];
        let run = |h: [&str; 2]| refs.iter().zip(h).map(|(r, h)| stats(h, r)).collect::<Vec<_>>();
        let two = RunScores { runs: vec![run(["a b c d", "e f g h"]), run(["a b x d", "e f g h"])] };
        let b: Vec<f64> = two.bleus().iter().map(|b| b.score).collect();
        assert_eq!(two.mean(), (b[0] + b[1]) / 2.0);
        assert!((two.sd() - (b[0] - b[1]).abs() / 2f64.sqrt()).abs() < 1e-12);
        let short = RunScores::single(run(["a b c d", "e f g h"])[..1].to_vec());
        assert_eq!(paired_bootstrap(&[two, short], 10, 1), Err(SignificanceError::Lengths { expected: 2, found: 1 }));
        assert_eq!(paired_bootstrap(&[], 10, 1), Err(SignificanceError::NoSystem));
    }
}
