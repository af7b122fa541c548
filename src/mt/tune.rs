//! Minimum error rate training (Och 2003): feature weights that maximise
//! corpus BLEU of the 1-best translations of a development set.
//!
//! * **n-best pool.** Each outer iteration decodes the dev set with the
//!   current weights, adds the new n-best entries (feature vector and BLEU
//!   sufficient statistics, [`BleuStats`]) to a pool kept over all
//!   iterations (an entry with the same features and statistics as one
//!   already there is not added again), and re-optimises the weights on the
//!   pool. It stops when decoding brings nothing new, or after
//!   `iterations` optimisations; the returned weights are those whose
//!   *decoded* dev BLEU was highest (the last decode measures the last
//!   weights).
//! * **Line search.** Along a direction `d` from the point `λ`, the score of
//!   a candidate is the line `λ·h + γ d·h`; the best candidate of a sentence
//!   as a function of γ is the upper envelope of its lines, a sequence of
//!   intervals found exactly by sorting the lines by slope (ties: higher
//!   intercept, then earlier candidate — the same tie rule as the argmax).
//!   Merging the envelopes of all sentences gives the intervals of γ on which
//!   the chosen translations, hence the summed statistics and corpus BLEU,
//!   are constant. The best interval is taken (ties: the one closest to
//!   γ = 0) if it beats the current BLEU by more than `tolerance`; γ is its
//!   midpoint, or 1 beyond its finite end if it is unbounded.
//! * **Directions.** From each starting point (the current weights and
//!   `random_restarts` random points, each tunable weight uniform in
//!   [-1, 1]) rounds of line searches along every coordinate and
//!   `random_directions` random directions (uniform in [-1, 1] per tunable
//!   weight, scaled to unit L1 norm) are made until a round improves
//!   nothing or `max_rounds` is reached. The best end point over the starts
//!   wins (the first on ties). Weights listed in `fixed` are not searched
//!   over.
//! * **Normalisation.** The result is scaled by a positive factor so that the
//!   tunable weights have L1 norm 1 (a positive scaling changes no argmax).
//! * **PRO** (`tuner: Pro`; Hopkins & May 2011, "Tuning as ranking") in
//!   place of the line searches: from each sentence's candidates in the
//!   pool, `PRO_SAMPLES` (Γ = 5000) pairs are drawn; those whose sentence
//!   BLEU+1 (Lin & Och 2004) differs by more than 0.05 are kept, the
//!   `PRO_KEEP` (Ξ = 50) with the largest differences per sentence; each
//!   pair gives the feature difference labelled by which is better, both
//!   ways. An L2-regularised logistic regression (Newton's method on
//!   features scaled to unit spread) learns the weights; the fixed weights
//!   are an offset. The result is interpolated with the previous weights
//!   (0.1 old, 0.9 new, as Hopkins & May), then normalised as MERT's.
//! * **Determinism.** Random numbers come from a SplitMix64 generator seeded
//!   with `seed` (and the iteration number); BLEU is [`Bleu::corpus`]
//!   (sacreBLEU's corpus BLEU with its defaults), computed with the
//!   bit-reproducible `exp`/`ln`.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::eval::bleu::{Bleu, BleuStats};
use crate::math::dot;
use crate::progress::{report, Cancelled, Observer, Progress, Quiet};
use crate::rng::SplitMix64;

/// How the weights are optimised on the n-best pool each iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tuner {
    /// Och's line searches on corpus BLEU ([`optimize`]).
    #[default]
    Mert,
    /// Pairwise ranking optimisation ([`optimize_pro`]).
    Pro,
}

impl Tuner {
    pub const ALL: [Tuner; 2] = [Tuner::Mert, Tuner::Pro];

    pub fn name(self) -> &'static str {
        match self {
            Tuner::Mert => "mert",
            Tuner::Pro => "pro",
        }
    }
}

impl std::str::FromStr for Tuner {
    type Err = String;

    fn from_str(s: &str) -> Result<Tuner, String> {
        crate::one_of(s, &Tuner::ALL.map(|t| (t.name(), t)))
    }
}

/// Pairs drawn per sentence by PRO (Hopkins & May's Γ).
pub const PRO_SAMPLES: usize = 5000;
/// Pairs kept per sentence by PRO (Ξ), those of largest BLEU+1 difference.
pub const PRO_KEEP: usize = 50;
/// Smallest sentence BLEU+1 difference (0–1) of a pair PRO keeps.
const PRO_MIN_DIFFERENCE: f64 = 0.05;
/// Weight of the previous weights in PRO's interpolation.
const PRO_OLD_WEIGHT: f64 = 0.1;

/// MERT settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MertOptions {
    /// Line searches (MERT, the default) or pairwise ranking (PRO).
    pub tuner: Tuner,
    /// Outer iterations (decode, then optimise on the pool). Default 5.
    pub iterations: usize,
    /// n-best entries per sentence and decode. Default 100.
    pub nbest: usize,
    /// Random directions per round of line searches, besides the coordinates. Default 5.
    pub random_directions: usize,
    /// Random starting points besides the current weights. Default 5.
    pub random_restarts: usize,
    /// Rounds of line searches per starting point at most. Default 20.
    pub max_rounds: usize,
    /// Smallest BLEU gain (in BLEU points, 0–100) that counts as an improvement. Default 1e-6.
    pub tolerance: f64,
    pub seed: u64,
    /// Indices of weights kept as they are.
    pub fixed: Vec<usize>,
    /// Threads decoding the dev sentences (`--threads`); the n-best lists,
    /// and so the weights, are the same with any number.
    #[serde(skip)]
    pub threads: crate::parallel::Threads,
}

impl Default for MertOptions {
    fn default() -> Self {
        MertOptions {
            tuner: Tuner::Mert,
            iterations: 5,
            nbest: 100,
            random_directions: 5,
            random_restarts: 5,
            max_rounds: 20,
            tolerance: 1e-6,
            seed: 1,
            fixed: Vec::new(),
            threads: crate::parallel::Threads::ONE,
        }
    }
}

/// One translation candidate of a dev sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub features: Vec<f64>,
    pub stats: BleuStats,
}

/// The n-best candidates of every dev sentence, accumulated over iterations.
#[derive(Debug, Clone, Default)]
pub struct NBestPool {
    sentences: Vec<Vec<Candidate>>,
    /// Statistics of an empty translation (for a sentence without candidates).
    empty: Vec<BleuStats>,
    seen: Vec<HashSet<(Vec<u64>, BleuStats)>>,
}

impl NBestPool {
    /// An empty pool for these references (one per dev sentence).
    pub fn new<S: AsRef<str>, R: AsRef<[S]>>(references: &[R]) -> NBestPool {
        let none: [S; 0] = [];
        NBestPool {
            sentences: vec![Vec::new(); references.len()],
            empty: references.iter().map(|r| BleuStats::from_tokens(&none, &[r.as_ref()])).collect(),
            seen: vec![HashSet::new(); references.len()],
        }
    }

    /// Number of sentences.
    pub fn len(&self) -> usize {
        self.sentences.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sentences.is_empty()
    }

    /// Number of candidates over all sentences.
    pub fn candidates(&self) -> usize {
        self.sentences.iter().map(Vec::len).sum()
    }

    /// The candidates of sentence `s`.
    pub fn sentence(&self, s: usize) -> &[Candidate] {
        self.sentences.get(s).map_or(&[], Vec::as_slice)
    }

    /// Adds a candidate to sentence `s`; false if it was already there, `s`
    /// is out of range or a feature value is not finite (such a candidate is left out).
    pub fn add(&mut self, s: usize, candidate: Candidate) -> bool {
        if s >= self.sentences.len() || !candidate.features.iter().all(|x| x.is_finite()) {
            return false;
        }
        let key = (candidate.features.iter().map(|x| x.to_bits()).collect(), candidate.stats);
        if !self.seen[s].insert(key) {
            return false;
        }
        self.sentences[s].push(candidate);
        true
    }

    /// Corpus BLEU (0–100) of each sentence's best candidate under `weights`
    /// (ties: the earlier candidate), from their summed statistics.
    pub fn bleu(&self, weights: &[f64]) -> f64 {
        let stats: BleuStats = self
            .sentences
            .iter()
            .zip(&self.empty)
            .map(|(cands, &empty)| {
                let mut best: Option<(f64, &Candidate)> = None;
                for c in cands {
                    let s = dot(weights, &c.features);
                    if best.is_none_or(|(b, _)| s > b) {
                        best = Some((s, c));
                    }
                }
                best.map_or(empty, |(_, c)| c.stats)
            })
            .sum();
        Bleu::corpus(&stats).score
    }
}

/// The result of one line search.
#[derive(Debug, Clone, PartialEq)]
pub struct LineSearch {
    /// Step to take along the direction (0: stay).
    pub gamma: f64,
    /// BLEU at the new point.
    pub bleu: f64,
    /// The points where some sentence's best candidate changes, ascending.
    pub breakpoints: Vec<f64>,
    /// BLEU on each interval between breakpoints (one more than breakpoints).
    pub interval_bleu: Vec<f64>,
}

/// The upper envelope of lines `a + γ b` (index, intercept a, slope b): the
/// winning line on each interval, as (start of interval, index), starts ascending
/// (the first is −∞).
fn envelope(lines: &mut [(usize, f64, f64)]) -> Vec<(f64, usize)> {
    lines.sort_by(|x, y| x.2.total_cmp(&y.2).then(y.1.total_cmp(&x.1)).then(x.0.cmp(&y.0)));
    let mut hull: Vec<(f64, usize, f64, f64)> = Vec::new(); // (start, index, a, b)
    let mut last_slope: Option<f64> = None;
    for &(i, a, b) in lines.iter() {
        if last_slope == Some(b) {
            continue; // a line of equal slope and higher intercept came first
        }
        last_slope = Some(b);
        loop {
            match hull.last() {
                None => {
                    hull.push((f64::NEG_INFINITY, i, a, b));
                    break;
                }
                Some(&(start, _, ta, tb)) => {
                    let x = (ta - a) / (b - tb);
                    if x <= start {
                        hull.pop();
                    } else {
                        hull.push((x, i, a, b));
                        break;
                    }
                }
            }
        }
    }
    hull.into_iter().map(|(x, i, _, _)| (x, i)).collect()
}

/// Exact line search from `point` along `direction` over the pool (module documentation).
pub fn line_search(pool: &NBestPool, point: &[f64], direction: &[f64], tolerance: f64) -> LineSearch {
    let current = pool.bleu(point);
    if !point.iter().chain(direction).all(|x| x.is_finite()) {
        return LineSearch { gamma: 0.0, bleu: current, breakpoints: Vec::new(), interval_bleu: vec![current] };
    }
    let mut stats = BleuStats::default();
    // (x, old stats, new stats)
    let mut events: Vec<(f64, BleuStats, BleuStats)> = Vec::new();
    for (cands, &empty) in pool.sentences.iter().zip(&pool.empty) {
        if cands.is_empty() {
            stats = add(stats, empty);
            continue;
        }
        let mut lines: Vec<(usize, f64, f64)> =
            cands.iter().enumerate().map(|(i, c)| (i, dot(point, &c.features), dot(direction, &c.features))).collect();
        let env = envelope(&mut lines);
        stats = add(stats, cands[env[0].1].stats);
        for w in env.windows(2) {
            events.push((w[1].0, cands[w[0].1].stats, cands[w[1].1].stats));
        }
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut breakpoints = Vec::new();
    let mut interval_bleu = vec![Bleu::corpus(&stats).score];
    let mut k = 0;
    while k < events.len() {
        let x = events[k].0;
        while k < events.len() && events[k].0 == x {
            let (_, old, new) = events[k];
            stats = add(sub(stats, old), new);
            k += 1;
        }
        breakpoints.push(x);
        interval_bleu.push(Bleu::corpus(&stats).score);
    }
    let gamma_of = |i: usize| -> f64 {
        match (i.checked_sub(1).map(|j| breakpoints[j]), breakpoints.get(i).copied()) {
            (None, None) => 0.0,
            (None, Some(r)) => r - 1.0,
            (Some(l), None) => l + 1.0,
            (Some(l), Some(r)) => 0.5 * (l + r),
        }
    };
    let best_bleu = interval_bleu.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if best_bleu.is_nan() || best_bleu <= current + tolerance {
        return LineSearch { gamma: 0.0, bleu: current, breakpoints, interval_bleu };
    }
    let mut chosen: Option<(usize, f64)> = None;
    for (i, &b) in interval_bleu.iter().enumerate() {
        if b == best_bleu {
            let g = gamma_of(i);
            if chosen.is_none_or(|(_, cg)| g.abs() < cg.abs()) {
                chosen = Some((i, g));
            }
        }
    }
    let gamma = chosen.map_or(0.0, |c| c.1);
    LineSearch { gamma, bleu: best_bleu, breakpoints, interval_bleu }
}

/// `a + b` (wrapping: the sweep only ever removes what it added, so nothing wraps in practice).
fn add(a: BleuStats, b: BleuStats) -> BleuStats {
    combine(a, b, u64::wrapping_add)
}

/// `a - b` (wrapping).
fn sub(a: BleuStats, b: BleuStats) -> BleuStats {
    combine(a, b, u64::wrapping_sub)
}

/// `op` on every count of `a` and `b`.
fn combine(a: BleuStats, b: BleuStats, op: fn(u64, u64) -> u64) -> BleuStats {
    let mut out = a;
    out.sys_len = op(a.sys_len, b.sys_len);
    out.ref_len = op(a.ref_len, b.ref_len);
    for n in 0..out.counts.len() {
        out.counts[n] = op(a.counts[n], b.counts[n]);
        out.totals[n] = op(a.totals[n], b.totals[n]);
    }
    out
}

fn normalized(mut w: Vec<f64>, tunable: &[bool]) -> Vec<f64> {
    let norm: f64 = w.iter().zip(tunable).filter(|(_, &t)| t).map(|(x, _)| x.abs()).sum();
    if norm > 0.0 && norm.is_finite() {
        w.iter_mut().for_each(|x| *x /= norm);
    }
    w
}

/// Optimises the weights on the pool from `start` (module documentation):
/// returns the normalised weights and their pool BLEU.
pub fn optimize(pool: &NBestPool, start: &[f64], options: &MertOptions) -> (Vec<f64>, f64) {
    let dim = start.len();
    let tunable: Vec<bool> = (0..dim).map(|i| !options.fixed.contains(&i)).collect();
    let mut rng = SplitMix64::new(options.seed);
    let mut starts = vec![start.to_vec()];
    for _ in 0..options.random_restarts {
        starts.push((0..dim).map(|i| if tunable[i] { rng.symmetric() } else { start[i] }).collect());
    }
    let mut best: Option<(Vec<f64>, f64)> = None;
    for s in starts {
        let mut w = s;
        let mut bleu = pool.bleu(&w);
        for _ in 0..options.max_rounds {
            let mut dirs: Vec<Vec<f64>> = (0..dim)
                .filter(|&i| tunable[i])
                .map(|i| (0..dim).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
                .collect();
            for _ in 0..options.random_directions {
                let d: Vec<f64> = (0..dim).map(|i| if tunable[i] { rng.symmetric() } else { 0.0 }).collect();
                let norm: f64 = d.iter().map(|x| x.abs()).sum();
                if norm > 0.0 {
                    dirs.push(d.iter().map(|x| x / norm).collect());
                }
            }
            let mut improved = false;
            for d in &dirs {
                let ls = line_search(pool, &w, d, options.tolerance);
                if ls.gamma != 0.0 && ls.bleu > bleu + options.tolerance {
                    for (x, dx) in w.iter_mut().zip(d) {
                        *x += ls.gamma * dx;
                    }
                    bleu = pool.bleu(&w);
                    improved = true;
                }
            }
            if !improved {
                break;
            }
        }
        if best.as_ref().is_none_or(|(_, b)| bleu > b + options.tolerance) {
            best = Some((w, bleu));
        }
    }
    let (w, _) = best.unwrap_or_else(|| (start.to_vec(), pool.bleu(start)));
    let w = normalized(w, &tunable);
    let bleu = pool.bleu(&w);
    (w, bleu)
}

/// Sentence BLEU+1 (0–1) as PRO ranks by it, with Nakov, Guzmán & Vogel's
/// (2012) remedy for the short translations plain BLEU+1 leads PRO to:
/// add-one smoothing of every order, the unigrams too, and one word more
/// in the reference length of the brevity penalty.
fn bleu_plus_one(stats: &BleuStats) -> f64 {
    let mut log_precision = 0.0;
    for (m, t) in stats.counts.iter().zip(&stats.totals) {
        log_precision += crate::math::ln((*m as f64 + 1.0) / (*t as f64 + 1.0));
    }
    let (c, r) = (stats.sys_len as f64, stats.ref_len as f64 + 1.0);
    let brevity = if c < r { 1.0 - r / c.max(1.0) } else { 0.0 };
    crate::math::exp(brevity + log_precision / stats.counts.len() as f64)
}

/// PRO on the pool from `start` (module documentation): the normalised
/// weights and their pool BLEU.
pub fn optimize_pro(pool: &NBestPool, start: &[f64], options: &MertOptions) -> (Vec<f64>, f64) {
    let dim = start.len();
    let tunable: Vec<bool> = (0..dim).map(|i| !options.fixed.contains(&i)).collect();
    let mut rng = SplitMix64::new(options.seed);
    // (difference of the tunable features, offset of the fixed ones, label ±1)
    let mut examples: Vec<(Vec<f64>, f64, f64)> = Vec::new();
    for s in 0..pool.len() {
        let cands = pool.sentence(s);
        if cands.len() < 2 {
            continue;
        }
        let bleu: Vec<f64> = cands.iter().map(|c| bleu_plus_one(&c.stats)).collect();
        let n = cands.len() as u64;
        let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
        for _ in 0..PRO_SAMPLES {
            let (i, j) = ((rng.next_u64() % n) as usize, (rng.next_u64() % n) as usize);
            let d = (bleu[i] - bleu[j]).abs();
            if d > PRO_MIN_DIFFERENCE {
                pairs.push((d, i, j));
            }
        }
        // Largest differences first; ties in drawing order (a stable sort).
        pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
        for &(_, i, j) in pairs.iter().take(PRO_KEEP) {
            let (better, worse) = if bleu[i] > bleu[j] { (i, j) } else { (j, i) };
            let diff: Vec<f64> = (0..dim).map(|k| cands[better].features[k] - cands[worse].features[k]).collect();
            let x: Vec<f64> = (0..dim).map(|k| if tunable[k] { diff[k] } else { 0.0 }).collect();
            let offset: f64 = (0..dim).filter(|&k| !tunable[k]).map(|k| start[k] * diff[k]).sum();
            examples.push((x.iter().map(|v| -v).collect(), -offset, -1.0));
            examples.push((x, offset, 1.0));
        }
    }
    if examples.is_empty() {
        let w = normalized(start.to_vec(), &tunable);
        let bleu = pool.bleu(&w);
        return (w, bleu);
    }
    let learned = logistic_regression(&examples, &tunable);
    let norm = |w: &[f64]| -> f64 { w.iter().zip(&tunable).filter(|(_, &t)| t).map(|(x, _)| x.abs()).sum() };
    // Interpolate on the same scale (each tunable part at L1 norm 1), the fixed weights as they are.
    let (old_norm, new_norm) = (norm(start), norm(&learned));
    let w: Vec<f64> = (0..dim)
        .map(|k| match tunable[k] {
            false => start[k],
            true => {
                let old = if old_norm > 0.0 { start[k] / old_norm } else { 0.0 };
                let new = if new_norm > 0.0 { learned[k] / new_norm } else { 0.0 };
                PRO_OLD_WEIGHT * old + (1.0 - PRO_OLD_WEIGHT) * new
            }
        })
        .collect();
    let w = normalized(w, &tunable);
    let bleu = pool.bleu(&w);
    (w, bleu)
}

/// Weights of an L2-regularised logistic regression (λ = 1 on features
/// scaled to unit spread) of the labels on `x · w + offset`, by Newton's
/// method (at most 50 steps; the tunable dimensions only).
fn logistic_regression(examples: &[(Vec<f64>, f64, f64)], tunable: &[bool]) -> Vec<f64> {
    let dims: Vec<usize> = (0..tunable.len()).filter(|&k| tunable[k]).collect();
    let m = dims.len();
    let n = examples.len() as f64;
    let scale: Vec<f64> = dims
        .iter()
        .map(|&k| {
            let mean = examples.iter().map(|e| e.0[k]).sum::<f64>() / n;
            let var = examples.iter().map(|e| (e.0[k] - mean).powi(2)).sum::<f64>() / n;
            if var > 0.0 {
                var.sqrt()
            } else {
                1.0
            }
        })
        .collect();
    let lambda = 1.0;
    let scaled: Vec<Vec<f64>> =
        examples.iter().map(|(x, ..)| dims.iter().zip(&scale).map(|(&k, s)| x[k] / s).collect()).collect();
    let mut v = vec![0.0; m];
    for _ in 0..50 {
        let mut grad: Vec<f64> = v.iter().map(|x| lambda * x).collect();
        let mut hess = vec![vec![0.0; m]; m];
        for (a, row) in hess.iter_mut().enumerate() {
            row[a] = lambda;
        }
        for ((_, offset, y), z) in examples.iter().zip(&scaled) {
            let margin = y * (dot(&v, z) + offset);
            let p = crate::math::logistic(-margin); // the loss's slope: σ(−y·score)
            for a in 0..m {
                grad[a] -= y * p * z[a];
                for b in 0..m {
                    hess[a][b] += p * (1.0 - p) * z[a] * z[b];
                }
            }
        }
        let Some(step) = solve(hess, grad) else { break };
        let size: f64 = step.iter().map(|x| x.abs()).sum();
        for (x, d) in v.iter_mut().zip(&step) {
            *x -= d;
        }
        if size < 1e-9 {
            break;
        }
    }
    let mut w = vec![0.0; tunable.len()];
    for ((&k, x), s) in dims.iter().zip(&v).zip(&scale) {
        w[k] = x / s;
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is
/// small and positive definite here); `None` if it is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (above, below) = a.split_at_mut(col + 1);
        let pivot_row = &above[col];
        for (offset, r) in below.iter_mut().enumerate() {
            let f = r[col] / pivot_row[col];
            for (x, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + offset] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

/// What one outer iteration did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MertIteration {
    /// The weights the dev set was decoded with.
    pub weights: Vec<f64>,
    /// Corpus BLEU of the decoded 1-best translations.
    pub decoded_bleu: f64,
    /// Candidates new to the pool.
    pub new_candidates: usize,
    /// Candidates in the pool after adding.
    pub pool_candidates: usize,
    /// Pool BLEU of the optimised weights (`None` if no optimisation followed).
    pub optimized_bleu: Option<f64>,
}

/// The outcome of [`mert`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MertReport {
    /// The weights with the best decoded dev BLEU.
    pub weights: Vec<f64>,
    /// Their decoded dev BLEU.
    pub bleu: f64,
    pub iterations: Vec<MertIteration>,
}

/// MERT around a decoder: `decode(weights)` returns, for every dev sentence
/// in order, its n-best list as (words, feature vector), best first;
/// `references` holds one tokenised reference per sentence. See the module
/// documentation.
pub fn mert<F>(references: &[Vec<String>], initial: &[f64], options: &MertOptions, decode: F) -> MertReport
where
    F: FnMut(&[f64]) -> Vec<Vec<(Vec<String>, Vec<f64>)>>,
{
    match mert_with_progress(references, initial, options, &mut Quiet, decode) {
        Ok(report) => report,
        Err(Cancelled) => unreachable!("a quiet observer never stops a step"),
    }
}

/// [`mert`], reporting each iteration to `progress` (stage "tuning (MERT)",
/// iteration `k` of at most `options.iterations + 1`) before it decodes;
/// when `progress` says stop, MERT ends there with [`Cancelled`]. The
/// reports change nothing of the result.
pub fn mert_with_progress<F>(
    references: &[Vec<String>],
    initial: &[f64],
    options: &MertOptions,
    progress: &mut dyn Observer,
    mut decode: F,
) -> Result<MertReport, Cancelled>
where
    F: FnMut(&[f64]) -> Vec<Vec<(Vec<String>, Vec<f64>)>>,
{
    let mut pool = NBestPool::new(references);
    let mut w = initial.to_vec();
    let mut best: (f64, Vec<f64>) = (f64::NEG_INFINITY, w.clone());
    let mut iterations = Vec::new();
    let dim = initial.len();
    for it in 0..=options.iterations {
        let stage = match options.tuner {
            Tuner::Mert => MERT_STAGE,
            Tuner::Pro => PRO_STAGE,
        };
        report(progress, Progress::new(stage, it as u64, options.iterations as u64 + 1))?;
        let lists = decode(&w);
        let mut one_best = BleuStats::default();
        let mut new = 0;
        for (s, reference) in references.iter().enumerate() {
            let list = lists.get(s).map_or(&[][..], Vec::as_slice);
            let none: [String; 0] = [];
            one_best += match list.first() {
                Some((words, _)) => BleuStats::from_tokens(words, &[reference]),
                None => BleuStats::from_tokens(&none, &[reference]),
            };
            for (words, features) in list {
                let mut f = features.clone();
                f.resize(dim, 0.0);
                let c = Candidate { features: f, stats: BleuStats::from_tokens(words, &[reference]) };
                if pool.add(s, c) {
                    new += 1;
                }
            }
        }
        let decoded = Bleu::corpus(&one_best).score;
        if decoded > best.0 {
            best = (decoded, w.clone());
        }
        let mut record = MertIteration {
            weights: w.clone(),
            decoded_bleu: decoded,
            new_candidates: new,
            pool_candidates: pool.candidates(),
            optimized_bleu: None,
        };
        if it == options.iterations || new == 0 {
            iterations.push(record);
            break;
        }
        let opts = MertOptions { seed: options.seed.wrapping_add(it as u64), ..options.clone() };
        let (nw, ob) = match options.tuner {
            Tuner::Mert => optimize(&pool, &w, &opts),
            Tuner::Pro => optimize_pro(&pool, &w, &opts),
        };
        record.optimized_bleu = Some(ob);
        iterations.push(record);
        w = nw;
    }
    Ok(MertReport { weights: best.1, bleu: best.0, iterations })
}

/// The stage MERT reports its iterations under.
pub const MERT_STAGE: &str = "tuning (MERT)";
/// The stage PRO reports its iterations under.
pub const PRO_STAGE: &str = "tuning (PRO)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Flow;

    #[test]
    fn envelope_by_hand() {
        // Lines: 0: 1 + 0γ, 1: 0 + 1γ, 2: -5 + 2γ, 3: 0.5 + 0γ (below line 0 everywhere).
        let mut lines = vec![(0, 1.0, 0.0), (1, 0.0, 1.0), (2, -5.0, 2.0), (3, 0.5, 0.0)];
        // 0 wins until γ = 1 (where 1 takes over), 1 until γ = 5 (where 2 does).
        assert_eq!(envelope(&mut lines), [(f64::NEG_INFINITY, 0), (1.0, 1), (5.0, 2)]);
        // A line through an intersection point adds no interval: 0 + 1γ, 2 - 1γ... and 1 + 0γ
        // passes through their crossing at γ = 1.
        let mut lines = vec![(0, 2.0, -1.0), (1, 0.0, 1.0), (2, 1.0, 0.0)];
        assert_eq!(envelope(&mut lines), [(f64::NEG_INFINITY, 0), (1.0, 1)]);
        // Equal lines: the earlier candidate.
        let mut lines = vec![(4, 1.0, 1.0), (2, 1.0, 1.0)];
        assert_eq!(envelope(&mut lines), [(f64::NEG_INFINITY, 2)]);
    }

    #[test]
    fn mert_reports_each_iteration_changes_nothing_and_stops_when_told() {
        let refs = vec![vec!["a".to_string(), "b".to_string()], vec!["c".to_string()]];
        // Two candidates per sentence; the worse one first under the initial weights.
        let decode = |w: &[f64]| {
            let list = |good: Vec<String>, bad: Vec<String>| {
                let mut l = vec![(good, vec![1.0, 0.0]), (bad, vec![0.0, 1.0])];
                if w[1] > w[0] {
                    l.reverse();
                }
                l
            };
            vec![list(vec!["a".into(), "b".into()], vec!["x".into()]), list(vec!["c".into()], vec!["y".into()])]
        };
        let options = MertOptions { iterations: 3, ..MertOptions::default() };
        let quiet = mert(&refs, &[0.0, 1.0], &options, decode);
        let mut seen = Vec::new();
        let mut observer = |p: Progress| {
            seen.push((p.stage, p.done, p.total));
            Flow::Continue(())
        };
        let observed = mert_with_progress(&refs, &[0.0, 1.0], &options, &mut observer, decode);
        assert_eq!(observed.as_ref(), Ok(&quiet));
        assert_eq!(seen.len(), quiet.iterations.len());
        assert_eq!(seen[0], (MERT_STAGE, 0, 4));
        let mut stop_at_second = |p: Progress| if p.done >= 1 { Flow::Break(()) } else { Flow::Continue(()) };
        assert_eq!(mert_with_progress(&refs, &[0.0, 1.0], &options, &mut stop_at_second, decode), Err(Cancelled));
    }

    /// PRO on a pool where the first feature marks the better candidate and
    /// the second the worse: it learns a positive weight for the first and a
    /// negative one for the second, reaches the pool's best BLEU from a start
    /// that picks the worst, keeps a fixed weight, and is the same on a rerun.
    #[test]
    fn pro_learns_the_feature_that_ranks_candidates_by_bleu() {
        let refs: Vec<Vec<String>> = (0..6)
            .map(|s| ["the", "cat", "sat", "on", "mat", &format!("w{s}")].iter().map(|w| w.to_string()).collect())
            .collect();
        let mut pool = NBestPool::new(&refs);
        for (s, r) in refs.iter().enumerate() {
            for k in 0..4usize {
                // Candidate k has the first 6 - k words of the reference: fewer is worse.
                let words: Vec<String> = r[..6 - k].to_vec();
                let features = vec![(6 - k) as f64, k as f64, 1.0];
                pool.add(s, Candidate { features, stats: BleuStats::from_tokens(&words, &[r]) });
            }
        }
        let best = pool.bleu(&[1.0, 0.0, 0.0]);
        let start = [-1.0, 1.0, 0.5];
        assert!(pool.bleu(&start) < best);
        let options = MertOptions { fixed: vec![2], ..MertOptions::default() };
        let (w, bleu) = optimize_pro(&pool, &start, &options);
        assert!(w[0] > 0.0 && w[1] < 0.0, "{w:?}");
        assert_eq!(bleu, best);
        assert_eq!(bleu, pool.bleu(&w));
        let tunable_norm = w[0].abs() + w[1].abs();
        assert!((tunable_norm - 1.0).abs() < 1e-12);
        assert!(w[2] > 0.0, "the fixed weight keeps its sign, scaled with the rest: {w:?}");
        assert_eq!(optimize_pro(&pool, &start, &options), (w, bleu));
        // BLEU+1 by hand: a 4-word hypothesis equal to its reference has every smoothed
        // precision 1 and the brevity penalty of a 5-word reference, exp(1 - 5/4).
        let same: Vec<String> = refs[0][..4].to_vec();
        let exact = bleu_plus_one(&BleuStats::from_tokens(&same, &[&same]));
        assert!((exact - (-0.25f64).exp()).abs() < 1e-12, "{exact}");
        // The linear system under it, by hand: 2x + y = 5, x + 3y = 10.
        assert_eq!(solve(vec![vec![2.0, 1.0], vec![1.0, 3.0]], vec![5.0, 10.0]), Some(vec![1.0, 3.0]));
        assert_eq!(solve(vec![vec![1.0, 2.0], vec![2.0, 4.0]], vec![1.0, 2.0]), None);
    }
}
