//! The HMM word-alignment model (Vogel, Ney & Tillmann 1996) with the empty
//! word of Och & Ney (2003, §2.1.1), trained after fast_align from its
//! `t(f|e)` (as GIZA++ trains its HMM from Model 2's tables).
//!
//! Notation as in [`super::directional`]: `f_1..f_m` generated from
//! `e_1..e_n`. Vogel et al.'s model (their eq. 2–4) makes the position `a_j`
//! depend on the previous one:
//!
//! `p(f, a | e) = Π_j p(a_j | a_{j−1}, n) · t(f_j | e_{a_j})`,
//! `p(i | i', n) = c(i − i') / Σ_{i''=1..n} c(i'' − i')`,
//!
//! a distribution over jump widths `i − i'` only (shared by all sentence
//! lengths). The empty word follows Och & Ney (2003, eq. 12–13): the
//! states are `1..n` and `n+1..2n`, where `i + n` is the empty word
//! remembering position `i`, and
//!
//! `p(i + n | i', n) = p0 · δ(i, i')`, `p(i | i', n) = (1 − p0) · p(i | i', n)`
//! (a non-empty jump is taken from the position the empty word remembers).
//!
//! Here `i' = 0` is the position before the sentence (the start state, and
//! the empty word before any non-empty one: `n + 1` states with memory
//! `0..n`), and the jump distribution is smoothed with the uniform one as
//! GIZA++ does (`emAlSmooth`): `(1 − α) p(i | i', n) + α / n`.
//!
//! EM (Baum–Welch): the posteriors `γ_j(i)` and the expected jump counts
//! `ξ_j(i', i)` come from the forward–backward algorithm in scaled form
//! (Rabiner 1989, eq. 91–93: every forward column is normalised to sum 1 by
//! `c_j`, and `ln p(f | e) = Σ_j ln c_j`); `t(f|e)` is re-estimated from `γ`
//! as in [`super::directional`] and `c(d)` from `Σ ξ` over jumps `d`. The
//! Viterbi alignment is the best state sequence, each column rescaled by
//! its maximum. `p0` is fixed (not trained).
//!
//! The forward and backward sums run over the `n + 1` memories `k` rather
//! than the `2n + 1` states: a non-empty state `k` and the empty state
//! remembering `k` have the same outgoing transitions. Cost per sentence
//! O(m·n²); one workspace ([`Lattice`]) is reused for every sentence.

use super::alignment::WordAlignment;
use super::directional::{oriented, sides, Directional, Interned};
use crate::math::dot;

/// GIZA++'s `emAlSmooth`: the weight `α` of the uniform distribution mixed
/// into every jump distribution, so that no jump is impossible.
pub(super) const JUMP_SMOOTHING: f64 = 0.2;

/// The jump-width distribution `c(d)`, `d = i − i'`, and the empty word's `p0`.
#[derive(Debug, Clone)]
pub(super) struct Jumps {
    p0: f64,
    smoothing: f64,
    /// `c(d)` at `d + max_len`, for `d` in `−max_len..=max_len`.
    weights: Vec<f64>,
    max_len: usize,
}

impl Jumps {
    /// Uniform jumps for sentences of at most `max_len` given words.
    pub(super) fn uniform(max_len: usize, p0: f64, smoothing: f64) -> Jumps {
        Jumps { p0, smoothing, weights: vec![1.0; 2 * max_len + 1], max_len }
    }

    /// Fills `out[k·n + i − 1]` with `p(a_j = i | memory k, n)` for memories
    /// `k = 0..=n` and positions `i = 1..=n`: Och & Ney's
    /// `(1 − p0) · p(i | k, n)` with the smoothing above.
    fn fill(&self, n: usize, out: &mut Vec<f64>) {
        out.clear();
        out.resize((n + 1) * n, 0.0);
        let uniform = self.smoothing / n as f64;
        for k in 0..=n {
            let row = &mut out[k * n..(k + 1) * n];
            let mut z = 0.0;
            for (i, slot) in (1..=n).zip(row.iter_mut()) {
                *slot = self.weights[self.max_len + i - k];
                z += *slot;
            }
            for slot in row.iter_mut() {
                let p = if z > 0.0 { *slot / z } else { 1.0 / n as f64 };
                *slot = (1.0 - self.p0) * ((1.0 - self.smoothing) * p + uniform);
            }
        }
    }

    /// M-step: `c(d) = Σ ξ(d) / Σ_d' Σ ξ(d')` (kept when nothing was counted).
    fn set_counts(&mut self, counts: &[f64]) {
        let total: f64 = counts.iter().sum();
        if total > 0.0 && total.is_finite() {
            for (w, &c) in self.weights.iter_mut().zip(counts) {
                *w = c / total;
            }
        }
    }
}

/// The per-sentence workspace: transitions, emissions, the forward and
/// backward tables, posteriors and Viterbi back-pointers, grown to the
/// longest sentence and reused.
#[derive(Debug, Default)]
pub(super) struct Lattice {
    /// `(n + 1) × n`: [`Jumps::fill`].
    trans: Vec<f64>,
    /// `m × (n + 1)`: `t(f_j | e_i)` at `j·(n+1) + i`, `i = 0` the empty word.
    emit: Vec<f64>,
    /// `m × (2n + 1)`: scaled forward (or Viterbi) values, position `i` at
    /// `i − 1`, the empty word remembering `k` at `n + k`.
    alpha: Vec<f64>,
    /// `m × (n + 1)`: scaled backward values by memory `k` (equal for
    /// position `k` and the empty word remembering `k`).
    beta: Vec<f64>,
    /// `c_j`.
    scale: Vec<f64>,
    /// `m × (n + 1)`: `γ_j(i)`, `i = 0` the empty word (summed over memories).
    post: Vec<f64>,
    /// Scratch of `n + 1`.
    memory: Vec<f64>,
    next: Vec<f64>,
    /// Viterbi: the memory each position came from (`m × n`), and whether
    /// memory `k` at `j` was best reached by the empty word (`m × (n + 1)`).
    back: Vec<u32>,
    from_empty: Vec<bool>,
}

impl Lattice {
    fn shape(&mut self, n: usize, m: usize) {
        self.alpha.resize(m * (2 * n + 1), 0.0);
        self.beta.resize(m * (n + 1), 0.0);
        self.scale.resize(m, 0.0);
        self.post.resize(m * (n + 1), 0.0);
        self.memory.resize(n + 1, 0.0);
        self.next.resize(n + 1, 0.0);
    }
}

/// Forward mass by memory at `j` from the forward column `row` (`2n + 1`
/// values): position `k` plus the empty word remembering `k`.
fn memory_mass(row: &[f64], n: usize, out: &mut [f64]) {
    out[0] = row[n];
    for k in 1..=n {
        out[k] = row[k - 1] + row[n + k];
    }
}

/// The forward–backward algorithm on one sentence of `n` given and `m`
/// generated words, with `lat.trans` and `lat.emit` filled. Leaves `γ` in
/// `lat.post`, adds the expected jump counts `Σ_j ξ_j(k, i)` at
/// `jump_counts[offset + i − k]` and returns `ln p(f | e)`; `None` (nothing
/// counted) when the sentence has probability 0.
fn forward_backward(
    n: usize,
    m: usize,
    p0: f64,
    lat: &mut Lattice,
    jump_counts: &mut [f64],
    offset: usize,
) -> Option<f64> {
    lat.shape(n, m);
    let w = 2 * n + 1;
    let Lattice { trans, emit, alpha, beta, scale, post, memory, next, .. } = lat;
    // Forward: α_j(i) = t(f_j|e_i) Σ_k M_{j−1}(k) p(i|k), α_j(n+k) = t(f_j|NULL) p0 M_{j−1}(k).
    for j in 0..m {
        if j == 0 {
            memory.fill(0.0);
            memory[0] = 1.0;
        } else {
            memory_mass(&alpha[(j - 1) * w..j * w], n, memory);
        }
        let b = &emit[j * (n + 1)..(j + 1) * (n + 1)];
        let row = &mut alpha[j * w..(j + 1) * w];
        row[..n].fill(0.0);
        for (k, &mk) in memory.iter().enumerate() {
            if mk == 0.0 {
                continue;
            }
            for (r, &p) in row[..n].iter_mut().zip(&trans[k * n..(k + 1) * n]) {
                *r += mk * p;
            }
        }
        let mut sum = 0.0;
        for (r, &bi) in row[..n].iter_mut().zip(&b[1..]) {
            *r *= bi;
            sum += *r;
        }
        for (r, &mk) in row[n..].iter_mut().zip(memory.iter()) {
            *r = p0 * b[0] * mk;
            sum += *r;
        }
        if !(sum > 0.0 && sum.is_finite()) {
            return None;
        }
        for r in row.iter_mut() {
            *r /= sum;
        }
        scale[j] = sum;
    }
    // Backward by memory: β_j(k) = (Σ_i p(i|k) t(f_{j+1}|e_i) β_{j+1}(i) + p0 t(f_{j+1}|NULL) β_{j+1}(k)) / c_{j+1}.
    beta[(m - 1) * (n + 1)..m * (n + 1)].fill(1.0);
    for j in (0..m - 1).rev() {
        let b = &emit[(j + 1) * (n + 1)..(j + 2) * (n + 1)];
        let (head, tail) = beta.split_at_mut((j + 1) * (n + 1));
        let after = &tail[..n + 1];
        for i in 1..=n {
            next[i] = b[i] * after[i];
        }
        let here = &mut head[j * (n + 1)..];
        for k in 0..=n {
            let mut s = p0 * b[0] * after[k];
            for (&p, &x) in trans[k * n..(k + 1) * n].iter().zip(&next[1..]) {
                s += p * x;
            }
            here[k] = s / scale[j + 1];
        }
    }
    // Posteriors γ_j = α̂_j β̂_j; the empty word summed over its memories.
    for j in 0..m {
        let a = &alpha[j * w..(j + 1) * w];
        let bt = &beta[j * (n + 1)..(j + 1) * (n + 1)];
        let g = &mut post[j * (n + 1)..(j + 1) * (n + 1)];
        g[0] = dot(&a[n..], bt);
        for i in 1..=n {
            g[i] = a[i - 1] * bt[i];
        }
    }
    // Jump counts: from the start (memory 0) to position i, γ_1(i); then
    // ξ_j(k, i) = M̂_{j−1}(k) p(i|k) t(f_j|e_i) β̂_j(i) / c_j.
    for i in 1..=n {
        jump_counts[offset + i] += post[i];
    }
    for j in 1..m {
        memory_mass(&alpha[(j - 1) * w..j * w], n, memory);
        let b = &emit[j * (n + 1)..(j + 1) * (n + 1)];
        let bt = &beta[j * (n + 1)..(j + 1) * (n + 1)];
        for i in 1..=n {
            next[i] = b[i] * bt[i] / scale[j];
        }
        for (k, &mk) in memory.iter().enumerate() {
            if mk == 0.0 {
                continue;
            }
            let counts = &mut jump_counts[offset + 1 - k..offset + 1 - k + n];
            for ((c, &p), &x) in counts.iter_mut().zip(&trans[k * n..(k + 1) * n]).zip(&next[1..]) {
                *c += mk * p * x;
            }
        }
    }
    Some(scale[..m].iter().map(|&c| crate::math::ln(c)).sum())
}

/// The Viterbi alignment of one sentence (`lat.trans`, `lat.emit` filled):
/// the state sequence of highest probability, as `(i, j)` links of given
/// position `i` and generated position `j` (0-based; the empty word gives
/// no link). Ties go to the lowest memory, and to a position over the
/// empty word. Empty when every alignment has probability 0.
fn viterbi_links(n: usize, m: usize, p0: f64, lat: &mut Lattice, links: &mut Vec<(usize, usize)>) {
    links.clear();
    lat.shape(n, m);
    lat.back.resize(m * n, 0);
    lat.from_empty.resize(m * (n + 1), false);
    let w = 2 * n + 1;
    let Lattice { trans, emit, alpha: delta, memory, back, from_empty, .. } = lat;
    for j in 0..m {
        if j == 0 {
            memory.fill(0.0);
            memory[0] = 1.0;
        } else {
            let prev = &delta[(j - 1) * w..j * w];
            let flags = &mut from_empty[(j - 1) * (n + 1)..j * (n + 1)];
            memory[0] = prev[n];
            flags[0] = true;
            for k in 1..=n {
                flags[k] = prev[n + k] > prev[k - 1];
                memory[k] = prev[k - 1].max(prev[n + k]);
            }
        }
        let b = &emit[j * (n + 1)..(j + 1) * (n + 1)];
        let row = &mut delta[j * w..(j + 1) * w];
        let mut top: f64 = 0.0;
        for i in 1..=n {
            let (mut best, mut from) = (0.0, 0);
            for (k, &mk) in memory.iter().enumerate() {
                let v = mk * trans[k * n + i - 1];
                if v > best {
                    best = v;
                    from = k;
                }
            }
            row[i - 1] = best * b[i];
            back[j * n + i - 1] = from as u32;
            top = top.max(row[i - 1]);
        }
        for k in 0..=n {
            row[n + k] = p0 * b[0] * memory[k];
            top = top.max(row[n + k]);
        }
        if !(top > 0.0 && top.is_finite()) {
            return;
        }
        for r in row.iter_mut() {
            *r /= top;
        }
    }
    // The best final state: a position (1..=n) or the empty word remembering k (n+1+k).
    let last = &delta[(m - 1) * w..m * w];
    let (mut state, mut best) = (0, f64::NEG_INFINITY);
    for (s, &v) in last.iter().enumerate() {
        if v > best {
            best = v;
            state = s;
        }
    }
    let mut state = state + 1;
    for j in (0..m).rev() {
        let memory = if state <= n {
            links.push((state - 1, j));
            back[j * n + state - 1] as usize
        } else {
            state - n - 1
        };
        if j > 0 {
            state = if from_empty[(j - 1) * (n + 1) + memory] { n + 1 + memory } else { memory };
        }
    }
    links.reverse();
}

/// The HMM of one direction, over the slots and `t` of a [`Directional`]
/// model (trained before by IBM Model 1 and fast_align).
pub(super) struct Hmm {
    jumps: Jumps,
    lattice: Lattice,
    links: Vec<(usize, usize)>,
}

impl Hmm {
    /// Uniform jumps over the longest given sentence of `data` in `model`'s direction.
    pub(super) fn new(data: &Interned, model: &Directional, p0: f64) -> Hmm {
        let max_len = data
            .pairs
            .iter()
            .zip(&data.active)
            .filter(|(_, &on)| on)
            .map(|(p, _)| sides(p, model.dir).0.len())
            .max()
            .unwrap_or(0);
        Hmm { jumps: Jumps::uniform(max_len, p0, JUMP_SMOOTHING), lattice: Lattice::default(), links: Vec::new() }
    }

    /// Fills the lattice's transitions and emissions for pair `s`; returns `(n, m)`.
    fn load(&mut self, model: &Directional, data: &Interned, s: usize) -> (usize, usize) {
        let (e, f) = sides(&data.pairs[s], model.dir);
        let (n, m) = (e.len(), f.len());
        self.jumps.fill(n, &mut self.lattice.trans);
        let cells = &model.cells[model.cell_start[s]..model.cell_start[s + 1]];
        self.lattice.emit.clear();
        self.lattice.emit.extend(cells.iter().map(|&slot| model.t[slot as usize]));
        (n, m)
    }

    /// One Baum–Welch iteration: E-step over every active pair, then the
    /// M-steps of `t` (maximum likelihood or the Dirichlet prior's
    /// variational Bayes, as [`Directional::m_step`]) and of the jumps.
    /// Returns the log-likelihood and the number of generated words counted.
    pub(super) fn em_iteration(
        &mut self,
        model: &mut Directional,
        data: &Interned,
        dirichlet: Option<f64>,
    ) -> (f64, usize) {
        let mut counts = vec![0.0; model.t.len()];
        let mut jump_counts = vec![0.0; self.jumps.weights.len()];
        let (mut ll, mut tokens) = (0.0, 0);
        for s in 0..data.pairs.len() {
            if !data.active[s] {
                continue;
            }
            let (n, m) = self.load(model, data, s);
            let offset = self.jumps.max_len;
            let Some(l) = forward_backward(n, m, self.jumps.p0, &mut self.lattice, &mut jump_counts, offset) else {
                continue;
            };
            ll += l;
            tokens += m;
            let cells = &model.cells[model.cell_start[s]..model.cell_start[s + 1]];
            for (&slot, &g) in cells.iter().zip(&self.lattice.post) {
                counts[slot as usize] += g;
            }
        }
        model.m_step(&counts, dirichlet);
        self.jumps.set_counts(&jump_counts);
        (ll, tokens)
    }

    /// Viterbi alignments of every pair, as `(source, target)` links.
    pub(super) fn viterbi(&mut self, model: &Directional, data: &Interned) -> Vec<WordAlignment> {
        (0..data.pairs.len())
            .map(|s| {
                if !data.active[s] {
                    return WordAlignment::default();
                }
                let (n, m) = self.load(model, data, s);
                viterbi_links(n, m, self.jumps.p0, &mut self.lattice, &mut self.links);
                WordAlignment::new(self.links.iter().map(|&(i, j)| oriented(model.dir, i, j)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::directional::{intern, Direction};
    use super::*;

    /// `p(f, a | e)` straight from the definition (module doc): `a[j] = 0`
    /// is the empty word, `a[j] = i ≥ 1` position `i`; the memory starts at 0.
    fn path_prob(n: usize, trans: &[f64], emit: &[f64], p0: f64, a: &[usize]) -> f64 {
        let mut memory = 0;
        let mut p = 1.0;
        for (j, &i) in a.iter().enumerate() {
            if i == 0 {
                p *= p0 * emit[j * (n + 1)];
            } else {
                p *= trans[memory * n + i - 1] * emit[j * (n + 1) + i];
                memory = i;
            }
        }
        p
    }

    /// Every alignment `a ∈ {0..=n}^m`.
    fn all_alignments(n: usize, m: usize) -> Vec<Vec<usize>> {
        let mut out = vec![vec![]];
        for _ in 0..m {
            out = out.into_iter().flat_map(|a| (0..=n).map(move |i| [a.clone(), vec![i]].concat())).collect();
        }
        out
    }

    /// The memory (last non-empty position) before each `j`.
    fn memories(a: &[usize]) -> Vec<usize> {
        let mut memory = 0;
        a.iter()
            .map(|&i| {
                let before = memory;
                if i > 0 {
                    memory = i;
                }
                before
            })
            .collect()
    }

    /// A deterministic, uneven emission matrix for `m × (n + 1)`.
    fn emissions(n: usize, m: usize, seed: u64) -> Vec<f64> {
        let mut rng = crate::rng::SplitMix64::new(seed);
        (0..m * (n + 1)).map(|_| 0.05 + 0.5 * (1.0 + rng.symmetric())).collect()
    }

    fn jumps_for_test(max_len: usize) -> Jumps {
        let mut jumps = Jumps::uniform(max_len, 0.3, 0.1);
        for (k, w) in jumps.weights.iter_mut().enumerate() {
            *w = 1.0 + (k % 3) as f64 + if k == max_len + 1 { 4.0 } else { 0.0 };
        }
        jumps
    }

    #[test]
    fn transitions_are_distributions() {
        let jumps = jumps_for_test(6);
        let mut trans = Vec::new();
        for n in 1..=6 {
            jumps.fill(n, &mut trans);
            for k in 0..=n {
                let sum: f64 = trans[k * n..(k + 1) * n].iter().sum();
                assert!((sum + jumps.p0 - 1.0).abs() < 1e-12, "n {n} k {k}");
            }
        }
        // Jumps from memory 2 of 4: i − 2 = -1, 0, 1, 2, weights c(d) at d + 6.
        jumps.fill(4, &mut trans);
        let c: Vec<f64> = (1..=4).map(|i| jumps.weights[6 + i - 2]).collect();
        let z: f64 = c.iter().sum();
        for i in 1..=4 {
            let want = 0.7 * (0.9 * c[i - 1] / z + 0.1 / 4.0);
            assert!((trans[2 * 4 + i - 1] - want).abs() < 1e-15);
        }
    }

    #[test]
    fn forward_backward_is_brute_force_enumeration() {
        for (n, m, seed) in [(1, 1, 1), (2, 3, 2), (3, 2, 3), (3, 4, 4), (4, 3, 5)] {
            let jumps = jumps_for_test(4);
            let mut lat = Lattice::default();
            jumps.fill(n, &mut lat.trans);
            lat.emit = emissions(n, m, seed);
            let mut counts = vec![0.0; 9];
            let ll = forward_backward(n, m, jumps.p0, &mut lat, &mut counts, 4).unwrap();
            // Brute force: p(f|e) = Σ_a p(f, a|e), γ_j(i) = Σ_{a: a_j = i} p(f, a|e) / p(f|e),
            // and the expected count of each jump d between non-empty positions (from memory).
            let (mut total, mut gamma, mut want_counts) = (0.0, vec![0.0; m * (n + 1)], vec![0.0; 9]);
            for a in all_alignments(n, m) {
                let p = path_prob(n, &lat.trans, &lat.emit, jumps.p0, &a);
                total += p;
                for (j, (&i, &k)) in a.iter().zip(&memories(&a)).enumerate() {
                    gamma[j * (n + 1) + i] += p;
                    if i > 0 {
                        want_counts[4 + i - k] += p;
                    }
                }
            }
            assert!((ll - total.ln()).abs() < 1e-12, "{n}x{m}: {ll} vs {}", total.ln());
            for (g, want) in lat.post[..m * (n + 1)].iter().zip(&gamma) {
                assert!((g - want / total).abs() < 1e-12, "{n}x{m}");
            }
            for (c, want) in counts.iter().zip(&want_counts) {
                assert!((c - want / total).abs() < 1e-12, "{n}x{m}: {counts:?} vs {want_counts:?}");
            }
        }
    }

    #[test]
    fn viterbi_is_the_brute_force_argmax() {
        let mut links = Vec::new();
        for (n, m, seed) in [(1, 1, 7), (2, 3, 8), (3, 3, 9), (3, 4, 10), (4, 3, 11), (4, 4, 12), (2, 5, 13)] {
            let jumps = jumps_for_test(4);
            let mut lat = Lattice::default();
            jumps.fill(n, &mut lat.trans);
            lat.emit = emissions(n, m, seed);
            // Make the empty word likely at j = 1, so that its memory matters.
            if m > 1 {
                lat.emit[n + 1] *= 8.0;
            }
            viterbi_links(n, m, jumps.p0, &mut lat, &mut links);
            let mut found = vec![0; m];
            for &(i, j) in &links {
                found[j] = i + 1;
            }
            let found_p = path_prob(n, &lat.trans, &lat.emit, jumps.p0, &found);
            let best = all_alignments(n, m)
                .iter()
                .map(|a| path_prob(n, &lat.trans, &lat.emit, jumps.p0, a))
                .fold(0.0, f64::max);
            assert!((found_p - best).abs() <= 1e-12 * best, "{n}x{m}: {found:?} {found_p} vs {best}");
        }
        // Probability 0 everywhere: no links.
        let jumps = jumps_for_test(2);
        let mut lat = Lattice::default();
        jumps.fill(2, &mut lat.trans);
        lat.emit = vec![0.0; 6];
        viterbi_links(2, 2, jumps.p0, &mut lat, &mut links);
        assert!(links.is_empty());
        assert!(forward_backward(2, 2, jumps.p0, &mut lat, &mut [0.0; 5], 2).is_none());
    }

    fn bitext(pairs: &[(&str, &str)]) -> Vec<crate::lexicon::SentencePair> {
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        pairs.iter().map(|(s, t)| (words(s), words(t))).collect()
    }

    /// One EM iteration on a three-pair corpus, from uniform `t` (1/4 for
    /// the four target words) and uniform jumps, against the same
    /// iteration by enumeration of all 3^2 + 3^2 + 2^1 alignments:
    /// `t'(f|e) = Σ_pairs Σ_a p(a|f,e) #(e aligned to f in a) / Σ_f' (...)`,
    /// `c'(d) = Σ_pairs Σ_a p(a|f,e) #(jumps of width d in a) / Σ_d' (...)`.
    #[test]
    fn one_em_iteration_by_enumeration() {
        let text = bitext(&[("das Haus", "the house"), ("das Buch", "the book"), ("ein", "a")]);
        let data = intern(&text, true, usize::MAX);
        let mut model = Directional::new(&data, Direction::SourceToTarget);
        let p0 = 0.2;
        let mut hmm = Hmm::new(&data, &model, p0);
        assert_eq!(hmm.jumps.max_len, 2);
        let t0 = model.t.clone();
        let (ll, tokens) = hmm.em_iteration(&mut model, &data, None);
        assert_eq!(tokens, 5);

        // Brute force with the initial parameters.
        let (src, trg) = (&data.src_words, &data.trg_words);
        let uniform = Jumps::uniform(2, p0, JUMP_SMOOTHING);
        let mut t_counts = std::collections::BTreeMap::<(String, String), f64>::new();
        let mut jump_counts = [0.0; 5];
        let mut want_ll = 0.0;
        for (e, f) in &data.pairs {
            let (n, m) = (e.len(), f.len());
            let mut trans = Vec::new();
            uniform.fill(n, &mut trans);
            let emit = vec![t0[0]; m * (n + 1)]; // uniform t: every entry 1/4
            assert!(t0.iter().all(|&x| x == 0.25));
            let alignments = all_alignments(n, m);
            let probs: Vec<f64> = alignments.iter().map(|a| path_prob(n, &trans, &emit, p0, a)).collect();
            let total: f64 = probs.iter().sum();
            want_ll += total.ln();
            for (a, p) in alignments.iter().zip(&probs) {
                for (j, (&i, &k)) in a.iter().zip(&memories(a)).enumerate() {
                    let ew = if i == 0 { "NULL".to_string() } else { src[e[i - 1] as usize].clone() };
                    *t_counts.entry((ew, trg[f[j] as usize].clone())).or_default() += p / total;
                    if i > 0 {
                        jump_counts[2 + i - k] += p / total;
                    }
                }
            }
        }
        assert!((ll - want_ll).abs() < 1e-12);
        let table = model.table(&data, 0.0);
        for ((e, f), c) in &t_counts {
            let row: f64 = t_counts.iter().filter(|((e2, _), _)| e2 == e).map(|(_, c)| c).sum();
            let got = table.prob(f, e);
            assert!((got - c / row).abs() < 1e-12, "t({f}|{e}) = {got}, want {}", c / row);
        }
        let z: f64 = jump_counts.iter().sum();
        for (w, c) in hmm.jumps.weights.iter().zip(&jump_counts) {
            assert!((w - c / z).abs() < 1e-12);
        }
        // Worked by hand for the one-word pair (ein, a): the start state goes to
        // position 1 with (1 − p0)(0.8 · 1 + 0.2) = 0.8 or to the empty word with p0 = 0.2,
        // both emitting 1/4, so γ(ein → a) = 0.8 and t(a|ein) = 1 after the M-step.
        assert!((table.prob("a", "ein") - 1.0).abs() < 1e-12);
        // And the model moved: `the` goes with `das` more than with NULL.
        assert!(table.prob("the", "das") > table.prob("the", "NULL"));
    }

    #[test]
    fn training_is_deterministic_and_finds_the_diagonal() {
        let text = bitext(&[
            ("das Haus ist klein", "the house is small"),
            ("das Buch ist klein", "the book is small"),
            ("ein Buch", "a book"),
            ("das Haus", "the house"),
            ("klein ist das Haus", "small is the house"),
        ]);
        let run = || {
            let data = intern(&text, true, usize::MAX);
            let mut model = Directional::new(&data, Direction::TargetToSource);
            let mut hmm = Hmm::new(&data, &model, 0.2);
            let lls: Vec<f64> = (0..5).map(|_| hmm.em_iteration(&mut model, &data, None).0).collect();
            (lls, model.t.clone(), hmm.jumps.weights.clone(), hmm.viterbi(&model, &data))
        };
        let (a, b) = (run(), run());
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a.0), bits(&b.0));
        assert_eq!(bits(&a.1), bits(&b.1));
        assert_eq!(a.2, b.2);
        assert_eq!(a.3, b.3);
        // Baum–Welch never lowers the likelihood.
        for w in a.0.windows(2) {
            assert!(w[1] >= w[0] - 1e-9, "{:?}", a.0);
        }
        assert_eq!(a.3[0].to_string(), "0-0 1-1 2-2 3-3");
        assert_eq!(a.3[4].to_string(), "0-0 1-1 2-2 3-3");
    }
}
