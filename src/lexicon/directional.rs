//! The EM of a directional word-alignment model, shared by IBM Model 1 and
//! fast_align: `p(f, a | e) = Π_j p(a_j | j, m, n) · t(f_j | e_{a_j})`,
//! with the alignment distribution [`Prior`] uniform (Model 1) or diagonal
//! (fast_align, [`super::ibm2`]). E step, M step (maximum likelihood or
//! mean-field variational Bayes with a Dirichlet prior), Viterbi alignment.
//!
//! Notation: a directional model generates the words `f_1..f_m` of one side
//! from the words `e_1..e_n` of the other side plus `e_0 = NULL`; `a_j` is
//! the position that generates `f_j`. In direction
//! [`SourceToTarget`](Direction::SourceToTarget) `e` is the source and `f`
//! the target sentence, so its `t(f|e)` is `p(t|s)`.
//!
//! Implementation: words are interned; every co-occurring pair `(e, f)` of
//! the corpus gets a slot in a flat `t` table (sorted by `e` then `f`), and
//! every sentence keeps the slot of each of its `(n+1)·m` cells, so the EM
//! inner loops are array reads with no hashing. Sums run in a fixed order,
//! `exp`/`log` come from `libm`, and no randomness is used, so training is
//! deterministic, natively and in wasm32.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::alignment::WordAlignment;
use super::ibm2::{diagonal_feature, Prior, TensionStats};
use super::table::{normalize_word, LexTable, WordId, NULL, NULL_ID};
use super::SentencePair;
use crate::math::{exp, ln};

/// Which way a directional model generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// The model `p(t|s)`: generates the target sentence from the source
    /// sentence; its Viterbi alignment links each target word to at most one
    /// source word.
    SourceToTarget,
    /// The model `p(s|t)`: generates the source sentence from the target one.
    TargetToSource,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::SourceToTarget => "source-to-target",
            Direction::TargetToSource => "target-to-source",
        })
    }
}

// ---------------------------------------------------------------------------
// Interned corpus

struct Interner {
    words: Vec<String>,
    ids: HashMap<String, WordId>,
}

impl Interner {
    fn new() -> Interner {
        Interner { words: vec![NULL.to_string()], ids: HashMap::from([(NULL.to_string(), NULL_ID)]) }
    }

    fn id(&mut self, word: &str, lowercase: bool) -> WordId {
        let w = normalize_word(word, lowercase);
        if let Some(&id) = self.ids.get(w.as_ref()) {
            return id;
        }
        let id = self.words.len() as WordId;
        self.words.push(w.to_string());
        self.ids.insert(w.into_owned(), id);
        id
    }
}

/// A bitext as word ids (ids in order of first occurrence; 0 is NULL).
pub(super) struct Interned {
    pub(super) src_words: Vec<String>,
    pub(super) trg_words: Vec<String>,
    pub(super) pairs: Vec<(Vec<WordId>, Vec<WordId>)>,
    /// Whether a pair takes part (both sides non-empty and not too long).
    pub(super) active: Vec<bool>,
    pub(super) lowercase: bool,
}

pub(super) fn intern(bitext: &[SentencePair], lowercase: bool, max_len: usize) -> Interned {
    let (mut src, mut trg) = (Interner::new(), Interner::new());
    let mut pairs = Vec::with_capacity(bitext.len());
    let mut active = Vec::with_capacity(bitext.len());
    for (s, t) in bitext {
        let s: Vec<WordId> = s.iter().map(|w| src.id(w, lowercase)).collect();
        let t: Vec<WordId> = t.iter().map(|w| trg.id(w, lowercase)).collect();
        active.push(!s.is_empty() && !t.is_empty() && s.len() <= max_len && t.len() <= max_len);
        pairs.push((s, t));
    }
    Interned { src_words: src.words, trg_words: trg.words, pairs, active, lowercase }
}

/// `(e, f)`: the given and the generated side of a pair.
pub(super) fn sides(pair: &(Vec<WordId>, Vec<WordId>), dir: Direction) -> (&[WordId], &[WordId]) {
    match dir {
        Direction::SourceToTarget => (&pair.0, &pair.1),
        Direction::TargetToSource => (&pair.1, &pair.0),
    }
}

/// Link `(source, target)` of generated position `j` aligned to given position `i` (0-based, not NULL).
pub(super) fn oriented(dir: Direction, i: usize, j: usize) -> (usize, usize) {
    match dir {
        Direction::SourceToTarget => (i, j),
        Direction::TargetToSource => (j, i),
    }
}

pub(super) fn key(e: WordId, f: WordId) -> u64 {
    (u64::from(e) << 32) | u64::from(f)
}

/// Viterbi alignment of one sentence pair under a directional model:
/// `a_j = argmax_i p(a_j = i) · t(f_j|e_i)` (ties to the lowest `i`, NULL
/// first; NULL means unaligned). `t(i, j)` is `t(f_j|e_i)` for 0-based `j`
/// and `i = 0` NULL, `i ≥ 1` the word `e_i`. Returns (given, generated)
/// positions, both 0-based.
pub(super) fn viterbi_sentence(
    n: usize,
    m: usize,
    prior: Prior,
    t: impl Fn(usize, usize) -> f64,
    pr: &mut Vec<f64>,
) -> Vec<(usize, usize)> {
    pr.resize(n + 1, 0.0);
    let mut links = Vec::new();
    for j in 0..m {
        prior.fill(j + 1, m, n, pr);
        let (mut best_i, mut best) = (0, pr[0] * t(0, j));
        for (i, &p) in pr.iter().enumerate().skip(1) {
            let v = p * t(i, j);
            if v > best {
                best = v;
                best_i = i;
            }
        }
        if best_i > 0 {
            links.push((best_i - 1, j));
        }
    }
    links
}

// ---------------------------------------------------------------------------
// The model

pub(super) struct Directional {
    pub(super) dir: Direction,
    /// `key(e, f)` of every co-occurring pair (`e` may be NULL), sorted.
    keys: Vec<u64>,
    /// Slots of given word `e`: `row_start[e]..row_start[e + 1]`.
    row_start: Vec<usize>,
    /// `t(f|e)` by slot.
    pub(super) t: Vec<f64>,
    /// Cells of pair `s`: `cells[cell_start[s]..cell_start[s + 1]]`, the slot
    /// of `(e_i, f_j)` at `j·(n+1) + i` (`i = 0` NULL).
    pub(super) cell_start: Vec<usize>,
    pub(super) cells: Vec<u32>,
}

impl Directional {
    /// Slots for every co-occurrence, `t` uniform.
    pub(super) fn new(data: &Interned, dir: Direction) -> Directional {
        let (n_e, n_f) = match dir {
            Direction::SourceToTarget => (data.src_words.len(), data.trg_words.len()),
            Direction::TargetToSource => (data.trg_words.len(), data.src_words.len()),
        };
        let active = || data.pairs.iter().zip(&data.active).filter(|(_, &a)| a).map(|(p, _)| sides(p, dir));
        let mut keys = Vec::new();
        for (e, f) in active() {
            for &fw in f {
                keys.push(key(NULL_ID, fw));
                keys.extend(e.iter().map(|&ew| key(ew, fw)));
            }
        }
        keys.sort_unstable();
        keys.dedup();
        let mut row_start = vec![0; n_e + 1];
        for k in &keys {
            row_start[(k >> 32) as usize + 1] += 1;
        }
        for e in 1..=n_e {
            row_start[e] += row_start[e - 1];
        }
        let slot = |ew: WordId, fw: WordId| -> u32 {
            let row = row_start[ew as usize]..row_start[ew as usize + 1];
            let k = keys[row.clone()].binary_search(&key(ew, fw)).expect("every co-occurrence has a slot");
            (row.start + k) as u32
        };
        let mut cell_start = Vec::with_capacity(data.pairs.len() + 1);
        let mut cells = Vec::new();
        for (pair, &on) in data.pairs.iter().zip(&data.active) {
            cell_start.push(cells.len());
            if on {
                let (e, f) = sides(pair, dir);
                for &fw in f {
                    cells.push(slot(NULL_ID, fw));
                    cells.extend(e.iter().map(|&ew| slot(ew, fw)));
                }
            }
        }
        cell_start.push(cells.len());
        let uniform = 1.0 / n_f.saturating_sub(1).max(1) as f64;
        let t = vec![uniform; keys.len()];
        Directional { dir, keys, row_start, t, cell_start, cells }
    }

    /// One E-step: adds the posteriors `q(a_j = i) ∝ p(a_j = i) t(f_j|e_i)`
    /// to `counts` (by slot) and, with `stats`, the tension statistics.
    /// Returns the log-likelihood and the number of generated words.
    fn e_step(
        &self,
        data: &Interned,
        prior: Prior,
        counts: &mut [f64],
        mut stats: Option<&mut TensionStats>,
    ) -> (f64, usize) {
        let (mut ll, mut tokens) = (0.0, 0);
        let mut pr = Vec::new();
        for (s, pair) in data.pairs.iter().enumerate() {
            if !data.active[s] {
                continue;
            }
            let (e, f) = sides(pair, self.dir);
            let (n, m) = (e.len(), f.len());
            let cells = &self.cells[self.cell_start[s]..self.cell_start[s + 1]];
            pr.resize(n + 1, 0.0);
            let mut mass = stats.as_mut().map(|st| st.mass.entry((m, n)).or_insert_with(|| vec![0.0; m]));
            let mut empirical = 0.0;
            for j in 0..m {
                prior.fill(j + 1, m, n, &mut pr);
                let col = &cells[j * (n + 1)..(j + 1) * (n + 1)];
                let mut sum = 0.0;
                for i in 0..=n {
                    sum += pr[i] * self.t[col[i] as usize];
                }
                if !(sum > 0.0 && sum.is_finite()) {
                    continue;
                }
                ll += ln(sum);
                tokens += 1;
                for i in 0..=n {
                    let slot = col[i] as usize;
                    let q = pr[i] * self.t[slot] / sum;
                    counts[slot] += q;
                    if i > 0 {
                        if let Some(mass) = mass.as_mut() {
                            mass[j] += q;
                            empirical += q * diagonal_feature(i, j + 1, m, n);
                        }
                    }
                }
            }
            if let Some(st) = stats.as_mut() {
                st.empirical += empirical;
            }
        }
        (ll, tokens)
    }

    /// M-step: `t(f|e) = c(e, f) / Σ_f' c(e, f')` (rows with no count keep
    /// their values), or its variational-Bayes form with a Dirichlet prior.
    pub(super) fn m_step(&mut self, counts: &[f64], dirichlet: Option<f64>) {
        for e in 0..self.row_start.len() - 1 {
            let row = self.row_start[e]..self.row_start[e + 1];
            let total: f64 = counts[row.clone()].iter().sum();
            if total <= 0.0 || total.is_nan() {
                continue;
            }
            match dirichlet {
                None => {
                    for k in row {
                        self.t[k] = counts[k] / total;
                    }
                }
                Some(alpha) => {
                    let norm = digamma(total + alpha * row.len() as f64);
                    for k in row {
                        self.t[k] = exp(digamma(counts[k] + alpha) - norm);
                    }
                }
            }
        }
    }

    /// Runs one EM iteration; returns (log-likelihood, tokens, stats).
    pub(super) fn em_iteration(
        &mut self,
        data: &Interned,
        prior: Prior,
        dirichlet: Option<f64>,
        want_stats: bool,
    ) -> (f64, usize, TensionStats) {
        let mut counts = vec![0.0; self.t.len()];
        let mut stats = TensionStats::default();
        let (ll, tokens) = self.e_step(data, prior, &mut counts, want_stats.then_some(&mut stats));
        self.m_step(&counts, dirichlet);
        (ll, tokens, stats)
    }

    /// Viterbi alignments of every pair, as `(source, target)` links.
    pub(super) fn viterbi(&self, data: &Interned, prior: Prior) -> Vec<WordAlignment> {
        let mut pr = Vec::new();
        data.pairs
            .iter()
            .enumerate()
            .map(|(s, pair)| {
                if !data.active[s] {
                    return WordAlignment::default();
                }
                let (e, f) = sides(pair, self.dir);
                let (n, m) = (e.len(), f.len());
                let cells = &self.cells[self.cell_start[s]..self.cell_start[s + 1]];
                let links = viterbi_sentence(n, m, prior, |i, j| self.t[cells[j * (n + 1) + i] as usize], &mut pr);
                WordAlignment::new(links.into_iter().map(|(i, j)| oriented(self.dir, i, j)))
            })
            .collect()
    }

    /// The `t(f|e)` entries as a table `p(f|e)` (x = generated word), without those below `min_prob`.
    pub(super) fn table(&self, data: &Interned, min_prob: f64) -> LexTable {
        let (e_words, f_words) = match self.dir {
            Direction::SourceToTarget => (&data.src_words, &data.trg_words),
            Direction::TargetToSource => (&data.trg_words, &data.src_words),
        };
        let entries =
            self.keys.iter().zip(&self.t).filter(|(_, &p)| p >= min_prob).map(|(&k, &p)| {
                (f_words[(k & 0xffff_ffff) as usize].as_str(), e_words[(k >> 32) as usize].as_str(), p)
            });
        LexTable::from_entries(entries, data.lowercase)
    }
}

/// The digamma function `ψ(x) = d ln Γ(x) / dx` for `x > 0`: the recurrence
/// `ψ(x) = ψ(x + 1) − 1/x` up to `x ≥ 10`, then the asymptotic series
/// (truncation error below 1e-14).
pub(super) fn digamma(mut x: f64) -> f64 {
    if x <= 0.0 || x.is_nan() {
        return f64::NEG_INFINITY;
    }
    let mut r = 0.0;
    while x < 10.0 {
        r -= 1.0 / x;
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    r + ln(x)
        - 0.5 / x
        - f * (1.0 / 12.0 - f * (1.0 / 120.0 - f * (1.0 / 252.0 - f * (1.0 / 240.0 - f * (1.0 / 132.0)))))
}

pub(super) fn perplexity(ll: f64, tokens: usize) -> f64 {
    if tokens == 0 {
        1.0
    } else {
        exp(-ll / tokens as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digamma_known_values() {
        let euler = 0.577_215_664_901_532_9;
        assert!((digamma(1.0) + euler).abs() < 1e-13);
        assert!((digamma(0.5) + euler + 2.0 * std::f64::consts::LN_2).abs() < 1e-13);
        // ψ(10) = H_9 − γ
        let h9: f64 = (1..=9).map(|k| 1.0 / k as f64).sum();
        assert!((digamma(10.0) - (h9 - euler)).abs() < 1e-13);
        assert_eq!(digamma(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn viterbi_ties_go_to_null_and_the_lowest_position() {
        let mut pr = Vec::new();
        // All zero: nothing is aligned.
        assert!(viterbi_sentence(3, 2, Prior::Uniform, |_, _| 0.0, &mut pr).is_empty());
        // Uniform prior, equal t for e_1 and e_2: e_1 wins; NULL ties lose to nothing.
        let links = viterbi_sentence(2, 1, Prior::Uniform, |i, _| if i == 0 { 0.1 } else { 0.5 }, &mut pr);
        assert_eq!(links, [(0, 0)]);
        let links = viterbi_sentence(2, 1, Prior::Uniform, |_, _| 0.5, &mut pr);
        assert!(links.is_empty());
    }
}
