//! Log-linear beam-search decoding (Koehn et al. 2003; Koehn 2004, Pharaoh;
//! the meta-structure paper's §4), generic over the translation model: the
//! phrase-based model ([`crate::mt::phrase::decode`]) and the meta-structure
//! model ([`crate::mt::ms`]) are its instantiations.
//!
//! # The model
//!
//! A translation is built left to right in the target by applying
//! *translation options*, each covering a contiguous, not yet covered span
//! of the source. A derivation `d` has a feature vector `h(d)` (the sum of
//! the features added by each step plus those added on completion) and the
//! score `λ · h(d)` (eq. 8 of the paper): the decoder looks for the
//! derivation with the highest score. A model describes its options and
//! features through [`SearchSpace`]; [`beam_search`] does the rest.
//!
//! # The search
//!
//! * **Stacks** by number of covered source words; stack k is pruned and then
//!   expanded in order k = 0 .. n-1, so a hypothesis only goes to a later stack.
//! * **Future score**: for every source span the best weighted estimate of
//!   translating it (the best option for exactly that span, or the best split
//!   into two spans), as Koehn (2004); a hypothesis is ranked by its score so
//!   far plus the future estimates of its maximal uncovered runs.
//! * **Recombination**: two hypotheses with equal coverage and equal model
//!   state (`SearchSpace::State`, e.g. the LM context and the last source
//!   position) have the same possible futures: only the higher-scoring one is
//!   kept in the stack, the other is remembered as an *arc* of it for n-best
//!   lists (the first one wins ties).
//! * **Pruning**: histogram (at most `stack_limit` hypotheses per stack; when
//!   a stack reaches twice the limit it is cut to the limit, and anything
//!   below the worst survivor is refused from then on) and threshold (a
//!   hypothesis whose ranking score is below the stack's best by more than
//!   `-ln beam_threshold` is dropped). Ties are broken by creation order.
//! * **n-best lists** are read off the search graph (the surviving
//!   hypotheses and their recombination arcs) best first, as Moses does:
//!   each further path differs from an earlier one by taking a recombined
//!   arc instead of the winner at one more position. Different derivations
//!   may give the same words; each entry has its feature vector, for MERT.
//!
//! Everything is deterministic: no randomness, maps only for lookups, sorting
//! with total orders and creation-order ties.
//!
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hash::Hash;

use serde::{Deserialize, Serialize};

use crate::hash::{FnvMap, FnvSet};
use crate::math::{dot, ln};

// ------------------------------------------------------------ generic ----

/// The source positions covered by a hypothesis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Coverage {
    bits: Vec<u64>,
    len: usize,
    count: usize,
}

impl Coverage {
    /// Nothing covered, in a sentence of `len` words.
    pub fn new(len: usize) -> Coverage {
        Coverage { bits: vec![0; len.div_ceil(64)], len, count: 0 }
    }

    /// The sentence length.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of covered positions.
    pub fn count(&self) -> usize {
        self.count
    }

    pub fn is_complete(&self) -> bool {
        self.count == self.len
    }

    pub fn is_covered(&self, i: usize) -> bool {
        i < self.len && self.bits[i / 64] >> (i % 64) & 1 == 1
    }

    /// Whether no position of `start..end` is covered (and the span lies in the sentence).
    pub fn is_free(&self, start: usize, end: usize) -> bool {
        end <= self.len && (start..end).all(|i| !self.is_covered(i))
    }

    /// Covers `start..end` (positions past the end are ignored).
    pub fn cover(&mut self, start: usize, end: usize) {
        for i in start..end.min(self.len) {
            if !self.is_covered(i) {
                self.bits[i / 64] |= 1 << (i % 64);
                self.count += 1;
            }
        }
    }

    /// The first uncovered position, if any.
    pub fn first_free(&self) -> Option<usize> {
        self.bits
            .iter()
            .enumerate()
            .find(|(_, &w)| w != u64::MAX)
            .map(|(k, &w)| k * 64 + (!w).trailing_zeros() as usize)
            .filter(|&i| i < self.len)
    }

    /// The maximal uncovered runs, as half-open spans, left to right.
    pub fn free_runs(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.len {
            if self.is_covered(i) {
                i += 1;
                continue;
            }
            let s = i;
            while i < self.len && !self.is_covered(i) {
                i += 1;
            }
            out.push((s, i));
        }
        out
    }
}

/// Whether a hypothesis whose last phrase ended at `last_end` may go on
/// with the span `start..end` under a distortion limit of `limit` words
/// (`None`: any): the jump to `start` is at most `limit`, and while a word
/// before `start` is still untranslated, `end` stays within `limit` of it,
/// so that the search can still come back to it (Moses' rule). Both
/// systems' [`SearchSpace::span_allowed`].
pub fn within_distortion_limit(
    limit: Option<usize>,
    last_end: usize,
    coverage: &Coverage,
    start: usize,
    end: usize,
) -> bool {
    let Some(limit) = limit else { return true };
    if start.abs_diff(last_end) > limit {
        return false;
    }
    match coverage.first_free() {
        Some(gap) if gap < start => end - gap <= limit,
        _ => true,
    }
}

/// A translation model as the beam search sees it. Options are numbered
/// `0..num_options()`; each covers the source span `option_span(o)`.
pub trait SearchSpace {
    /// What, besides the coverage, decides the future of a hypothesis. Two
    /// hypotheses with equal coverage and equal states must receive equal
    /// feature values from every possible continuation: they are recombined.
    type State: Clone + Eq + Hash;

    /// Number of source words.
    fn source_len(&self) -> usize;
    /// Length of the feature vectors.
    fn num_features(&self) -> usize;
    fn num_options(&self) -> usize;
    /// The half-open source span of an option (spans outside the sentence or empty are ignored).
    fn option_span(&self, option: usize) -> (usize, usize);
    /// An optimistic weighted estimate of the option's contribution, for the future-score table.
    fn option_estimate(&self, option: usize, weights: &[f64]) -> f64;
    /// The state of the empty hypothesis.
    fn initial_state(&self) -> Self::State;
    /// Whether a hypothesis in `state` with `coverage` may go on with the span
    /// `start..end` (a cheap test made once per span, before any option).
    fn span_allowed(&self, _state: &Self::State, _coverage: &Coverage, _start: usize, _end: usize) -> bool {
        true
    }
    /// Applies `option` to a hypothesis (`coverage` does not yet include the
    /// option's span): adds the step's feature values to `delta` (zeroed,
    /// `num_features` long) and returns the new state, or `None` if the step
    /// is not allowed.
    fn extend(&self, state: &Self::State, coverage: &Coverage, option: usize, delta: &mut [f64])
        -> Option<Self::State>;
    /// Adds the feature values of completing a hypothesis (all words covered) to `delta`.
    fn finish(&self, state: &Self::State, delta: &mut [f64]);
}

/// Search settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BeamOptions {
    /// Histogram pruning: hypotheses kept per stack (0: no limit). Default 100.
    pub stack_limit: usize,
    /// Threshold pruning: a hypothesis is dropped if its ranking score is
    /// below the stack's best plus ln(beam_threshold); 0 turns it off.
    /// Default 1e-5 (Moses).
    pub beam_threshold: f64,
    /// Length of the n-best list (at least 1 is returned). Default 1.
    pub nbest: usize,
    /// Recombine hypotheses (turning it off is for testing). Default true.
    pub recombine: bool,
}

impl Default for BeamOptions {
    fn default() -> Self {
        BeamOptions { stack_limit: 100, beam_threshold: 1e-5, nbest: 1, recombine: true }
    }
}

impl BeamOptions {
    /// −ln(beam_threshold): how far below the best a hypothesis may rank (∞ when off).
    pub fn beam_width(&self) -> f64 {
        let t = self.beam_threshold;
        if t.is_nan() || t <= 0.0 {
            f64::INFINITY
        } else if t >= 1.0 {
            0.0
        } else {
            -ln(t)
        }
    }
}

/// One complete derivation: the options applied in order, its feature vector and score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Derivation {
    pub options: Vec<usize>,
    pub features: Vec<f64>,
    pub score: f64,
}

/// Counts from one search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchStats {
    /// Hypotheses scored (extensions tried and allowed).
    pub created: usize,
    /// Hypotheses refused or removed by histogram or threshold pruning.
    pub pruned: usize,
    /// Hypotheses recombined into another.
    pub recombined: usize,
    /// Hypotheses expanded.
    pub expanded: usize,
}

/// The n-best derivations, best first (empty only if no hypothesis covered the sentence).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    pub nbest: Vec<Derivation>,
    pub stats: SearchStats,
}

/// `table[s][e]`: best weighted estimate of translating `s..e`.
struct FutureTable {
    n: usize,
    table: Vec<f64>,
}

impl FutureTable {
    fn new<M: SearchSpace>(model: &M, spans: &[(usize, usize, Vec<u32>)], weights: &[f64]) -> FutureTable {
        let n = model.source_len();
        let w = n + 1;
        let mut table = vec![f64::NEG_INFINITY; w * w];
        for (s, e, opts) in spans {
            for &o in opts {
                let est = model.option_estimate(o as usize, weights);
                if est > table[s * w + e] {
                    table[s * w + e] = est;
                }
            }
        }
        for len in 2..=n {
            for s in 0..=n - len {
                let e = s + len;
                let mut best = table[s * w + e];
                for m in s + 1..e {
                    let c = table[s * w + m] + table[m * w + e];
                    if c > best {
                        best = c;
                    }
                }
                table[s * w + e] = best;
            }
        }
        FutureTable { n, table }
    }

    fn estimate(&self, coverage: &Coverage) -> f64 {
        coverage.free_runs().iter().map(|&(s, e)| self.table[s * (self.n + 1) + e]).sum()
    }
}

const NONE: u32 = u32::MAX;

struct Hyp<S> {
    prev: u32,
    option: u32,
    /// Weighted score so far.
    score: f64,
    /// Score plus future estimate (the ranking score).
    total: f64,
    state: S,
    coverage: Coverage,
    /// Hypotheses recombined into this one.
    arcs: Vec<u32>,
    /// Position in its stack's member list, NONE if not a member.
    slot: u32,
}

type RecombinationIndex<S> = FnvMap<(Coverage, S), u32>;

struct Stack<S> {
    members: Vec<u32>,
    index: RecombinationIndex<S>,
    best: f64,
    /// The worst ranking score kept by the last histogram pruning.
    floor: f64,
}

impl<S> Stack<S> {
    fn new() -> Self {
        Stack { members: Vec::new(), index: FnvMap::default(), best: f64::NEG_INFINITY, floor: f64::NEG_INFINITY }
    }
}

struct Search<M: SearchSpace> {
    weights: Vec<f64>,
    nf: usize,
    hyps: Vec<Hyp<M::State>>,
    deltas: Vec<f64>,
    stacks: Vec<Stack<M::State>>,
    stats: SearchStats,
    limit: usize,
    width: f64,
    recombine: bool,
}

impl<M: SearchSpace> Search<M> {
    /// Offers a scored extension to stack `k`.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        k: usize,
        prev: u32,
        option: u32,
        score: f64,
        total: f64,
        state: M::State,
        cov: &Coverage,
        delta: &[f64],
    ) {
        let stack = &self.stacks[k];
        let cutoff = stack.floor.max(stack.best - self.width);
        if total.is_nan() || total < cutoff {
            self.stats.pruned += 1;
            return;
        }
        let id = self.hyps.len() as u32;
        let key = if self.recombine { Some((cov.clone(), state.clone())) } else { None };
        let winner = key.as_ref().and_then(|k2| self.stacks[k].index.get(k2).copied());
        self.hyps.push(Hyp { prev, option, score, total, state, coverage: cov.clone(), arcs: Vec::new(), slot: NONE });
        self.deltas.extend_from_slice(delta);
        if let Some(w) = winner {
            self.stats.recombined += 1;
            if score > self.hyps[w as usize].score {
                let mut arcs = std::mem::take(&mut self.hyps[w as usize].arcs);
                arcs.push(w);
                let slot = self.hyps[w as usize].slot;
                self.hyps[w as usize].slot = NONE;
                let h = &mut self.hyps[id as usize];
                h.arcs = arcs;
                h.slot = slot;
                let stack = &mut self.stacks[k];
                stack.members[slot as usize] = id;
                if let Some(key) = key {
                    stack.index.insert(key, id);
                }
                stack.best = stack.best.max(total);
            } else {
                self.hyps[w as usize].arcs.push(id);
            }
            return;
        }
        let stack = &mut self.stacks[k];
        self.hyps[id as usize].slot = stack.members.len() as u32;
        stack.members.push(id);
        if let Some(key) = key {
            stack.index.insert(key, id);
        }
        stack.best = stack.best.max(total);
        if self.limit > 0 && stack.members.len() >= 2 * self.limit {
            self.prune(k, false);
        }
    }

    /// Histogram pruning of stack `k` to the limit; with `last`, also threshold pruning and sorting.
    fn prune(&mut self, k: usize, last: bool) {
        let mut members = std::mem::take(&mut self.stacks[k].members);
        members.sort_by(|&a, &b| self.hyps[b as usize].total.total_cmp(&self.hyps[a as usize].total).then(a.cmp(&b)));
        let mut keep = members.len();
        if self.limit > 0 {
            keep = keep.min(self.limit);
        }
        if last {
            let cutoff = self.stacks[k].best - self.width;
            keep =
                members[..keep].iter().take_while(|&&h| self.hyps[h as usize].total >= cutoff).count().max(1.min(keep));
        }
        for &h in &members[keep..] {
            self.hyps[h as usize].slot = NONE;
        }
        self.stats.pruned += members.len() - keep;
        members.truncate(keep);
        for (pos, &h) in members.iter().enumerate() {
            self.hyps[h as usize].slot = pos as u32;
        }
        let stack = &mut self.stacks[k];
        if self.limit > 0 && members.len() == self.limit {
            if let Some(&worst) = members.last() {
                stack.floor = stack.floor.max(self.hyps[worst as usize].total);
            }
        }
        if last {
            stack.index = FnvMap::default();
        } else {
            let hyps = &self.hyps;
            stack.index.retain(|_, h| hyps[*h as usize].slot != NONE);
        }
        stack.members = members;
    }
}

/// Runs the beam search of `model` with `weights` (missing weights count as
/// 0, extra ones are ignored). See the module documentation.
pub fn beam_search<M: SearchSpace>(model: &M, weights: &[f64], options: &BeamOptions) -> SearchResult {
    let n = model.source_len();
    let nf = model.num_features();
    let w: Vec<f64> = (0..nf).map(|i| weights.get(i).copied().unwrap_or(0.0)).collect();
    // Options grouped by span, spans sorted by (start, end).
    let mut all: Vec<(usize, usize, u32)> = (0..model.num_options())
        .filter_map(|o| {
            let (s, e) = model.option_span(o);
            (s < e && e <= n).then_some((s, e, o as u32))
        })
        .collect();
    all.sort_unstable();
    let mut spans: Vec<(usize, usize, Vec<u32>)> = Vec::new();
    for (s, e, o) in all {
        match spans.last_mut() {
            Some(last) if (last.0, last.1) == (s, e) => last.2.push(o),
            _ => spans.push((s, e, vec![o])),
        }
    }
    let mut by_start: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, sp) in spans.iter().enumerate() {
        by_start[sp.0].push(k);
    }
    let future = FutureTable::new(model, &spans, &w);
    let mut search: Search<M> = Search {
        weights: w,
        nf,
        hyps: Vec::new(),
        deltas: Vec::new(),
        stacks: (0..=n).map(|_| Stack::new()).collect(),
        stats: SearchStats::default(),
        limit: options.stack_limit,
        width: options.beam_width(),
        recombine: options.recombine,
    };
    let root_cov = Coverage::new(n);
    let root_state = model.initial_state();
    let mut root_delta = vec![0.0; nf];
    if n == 0 {
        model.finish(&root_state, &mut root_delta);
    }
    let root_score = dot(&search.weights, &root_delta);
    search.hyps.push(Hyp {
        prev: NONE,
        option: NONE,
        score: root_score,
        total: root_score + future.estimate(&root_cov),
        state: root_state,
        coverage: root_cov,
        arcs: Vec::new(),
        slot: 0,
    });
    search.deltas.extend_from_slice(&root_delta);
    search.stacks[0].members.push(0);
    let mut delta = vec![0.0; nf];
    for k in 0..n {
        search.prune(k, true);
        let members = search.stacks[k].members.clone();
        for h in members {
            search.stats.expanded += 1;
            let (cov, state, score) = {
                let hyp = &search.hyps[h as usize];
                (hyp.coverage.clone(), hyp.state.clone(), hyp.score)
            };
            for (start, groups) in by_start.iter().enumerate() {
                if cov.is_covered(start) {
                    continue;
                }
                for &sp in groups {
                    let (s, e, ref opts) = spans[sp];
                    if !cov.is_free(s, e) {
                        break; // ends ascend: longer spans overlap too
                    }
                    if !model.span_allowed(&state, &cov, s, e) {
                        continue;
                    }
                    let mut new_cov = cov.clone();
                    new_cov.cover(s, e);
                    let complete = new_cov.is_complete();
                    let fut = if complete { 0.0 } else { future.estimate(&new_cov) };
                    let target = new_cov.count();
                    for &o in opts {
                        delta.iter_mut().for_each(|d| *d = 0.0);
                        let Some(new_state) = model.extend(&state, &cov, o as usize, &mut delta) else { continue };
                        if complete {
                            model.finish(&new_state, &mut delta);
                        }
                        search.stats.created += 1;
                        let sc = score + dot(&search.weights, &delta);
                        search.add(target, h, o, sc, sc + fut, new_state, &new_cov, &delta);
                    }
                }
            }
        }
        // Expanded stacks are no longer needed for recombination.
        search.stacks[k].index = FnvMap::default();
    }
    search.prune(n, true);
    let finals = search.stacks[n].members.clone();
    let nbest = nbest_paths(&search, &finals, options.nbest.max(1));
    SearchResult { nbest, stats: search.stats }
}

/// A path through the search graph: the final winner and the deviations
/// (position counted from the end, arc taken instead of the winner).
struct Path {
    score: f64,
    seq: u64,
    root: u32,
    devs: Vec<(u32, u32)>,
    from: usize,
}

impl PartialEq for Path {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Path {}
impl PartialOrd for Path {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Path {
    fn cmp(&self, o: &Self) -> Ordering {
        self.score.total_cmp(&o.score).then(o.seq.cmp(&self.seq))
    }
}

fn nbest_paths<M: SearchSpace>(search: &Search<M>, finals: &[u32], k: usize) -> Vec<Derivation> {
    let hyps = &search.hyps;
    let mut heap = BinaryHeap::new();
    let mut seq = 0u64;
    for &f in finals {
        heap.push(Path { score: hyps[f as usize].score, seq, root: f, devs: Vec::new(), from: 0 });
        seq += 1;
    }
    let mut out = Vec::new();
    while out.len() < k {
        let Some(path) = heap.pop() else { break };
        // Nodes from the final hypothesis back to (not including) the root.
        let mut nodes = Vec::new();
        let (mut cur, mut d) = (path.root, 0);
        while cur != NONE && cur != 0 {
            let node = match path.devs.get(d) {
                Some(&(pos, arc)) if pos as usize == nodes.len() => {
                    d += 1;
                    arc
                }
                _ => cur,
            };
            nodes.push(node);
            cur = hyps[node as usize].prev;
        }
        let mut features = search.deltas[..search.nf].to_vec();
        let mut score = dot(&search.weights, &features);
        let mut opts = Vec::with_capacity(nodes.len());
        for &h in nodes.iter().rev() {
            let delta = &search.deltas[h as usize * search.nf..(h as usize + 1) * search.nf];
            features.iter_mut().zip(delta).for_each(|(f, d)| *f += d);
            score += dot(&search.weights, delta);
            opts.push(hyps[h as usize].option as usize);
        }
        for (pos, &w) in nodes.iter().enumerate().skip(path.from) {
            for &a in &hyps[w as usize].arcs {
                let mut devs = path.devs.clone();
                devs.push((pos as u32, a));
                let s = path.score - (hyps[w as usize].score - hyps[a as usize].score);
                heap.push(Path { score: s, seq, root: path.root, devs, from: pos + 1 });
                seq += 1;
            }
        }
        out.push(Derivation { options: opts, features, score });
    }
    out
}

/// Searches `model` as both systems decode a sentence: with `distinct`, up
/// to `10 · nbest` derivations are read off the search graph and only the
/// best of each word sequence is kept ([`distinct_nbest`]); where no
/// complete translation is found and `lift_limit` lifts a limit of the model
/// (the distortion limit: it says whether there was one), the sentence is
/// searched again and the counts of both searches are summed. Returns the
/// search's derivations and the n-best list of their words (`words_of`).
pub fn search_nbest<M: SearchSpace>(
    model: &mut M,
    weights: &[f64],
    beam: &BeamOptions,
    distinct: bool,
    lift_limit: impl FnOnce(&mut M) -> bool,
    words_of: impl Fn(&M, &[usize]) -> Vec<String>,
) -> (SearchResult, Vec<NBestEntry>) {
    let mut wide = beam.clone();
    if distinct && wide.nbest > 1 {
        wide.nbest = wide.nbest.saturating_mul(10);
    }
    let mut result = beam_search(model, weights, &wide);
    if result.nbest.is_empty() && lift_limit(model) {
        let again = beam_search(model, weights, &wide);
        let s = result.stats;
        result.nbest = again.nbest;
        result.stats = SearchStats {
            created: s.created + again.stats.created,
            pruned: s.pruned + again.stats.pruned,
            recombined: s.recombined + again.stats.recombined,
            expanded: s.expanded + again.stats.expanded,
        };
    }
    let mut nbest: Vec<NBestEntry> = result
        .nbest
        .iter()
        .map(|d| NBestEntry { words: words_of(model, &d.options), features: d.features.clone(), score: d.score })
        .collect();
    if distinct {
        nbest = distinct_nbest(nbest, beam.nbest.max(1));
    }
    (result, nbest)
}

/// Keeps the first (best) entry of each word sequence of a best-first
/// n-best list, at most `k` entries (as Moses' distinct n-best lists for MERT).
pub fn distinct_nbest(entries: Vec<NBestEntry>, k: usize) -> Vec<NBestEntry> {
    let mut seen: FnvSet<Vec<String>> = FnvSet::default();
    let mut out = Vec::new();
    for e in entries {
        if out.len() >= k {
            break;
        }
        if seen.insert(e.words.clone()) {
            out.push(e);
        }
    }
    out
}

/// One entry of an n-best list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NBestEntry {
    pub words: Vec<String>,
    pub features: Vec<f64>,
    pub score: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distortion_limit_by_hand() {
        // Words 0..8, words 0..2 and 4..5 translated, the last phrase ended at 5.
        let mut c = Coverage::new(8);
        c.cover(0, 2);
        c.cover(4, 5);
        assert!(within_distortion_limit(None, 5, &c, 7, 8));
        // A jump of 2 (5 to 7) within 2, but word 2 would then lie 6 back.
        assert!(!within_distortion_limit(Some(2), 5, &c, 7, 8));
        assert!(within_distortion_limit(Some(6), 5, &c, 7, 8));
        // Back to the gap: a jump of 3.
        assert!(!within_distortion_limit(Some(2), 5, &c, 2, 4));
        assert!(within_distortion_limit(Some(3), 5, &c, 2, 4));
        // Starting at the first gap itself: only the jump counts.
        assert!(within_distortion_limit(Some(3), 5, &c, 2, 3));
    }

    #[test]
    fn coverage_basics() {
        let mut c = Coverage::new(70);
        assert_eq!(c.first_free(), Some(0));
        c.cover(0, 65);
        assert_eq!(c.first_free(), Some(65));
        assert!(c.is_free(65, 70));
        assert!(!c.is_free(64, 66));
        assert!(!c.is_free(69, 71));
        assert_eq!(c.free_runs(), [(65, 70)]);
        c.cover(66, 80);
        assert_eq!(c.count(), 69);
        assert_eq!(c.free_runs(), [(65, 66)]);
        c.cover(65, 66);
        assert!(c.is_complete());
        assert_eq!(c.first_free(), None);
        let e = Coverage::new(0);
        assert!(e.is_complete());
        assert_eq!(e.first_free(), None);
    }

    #[test]
    fn beam_width() {
        let o = BeamOptions { beam_threshold: 0.0, ..BeamOptions::default() };
        assert_eq!(o.beam_width(), f64::INFINITY);
        let o = BeamOptions { beam_threshold: 1.0, ..BeamOptions::default() };
        assert_eq!(o.beam_width(), 0.0);
        assert!((BeamOptions::default().beam_width() - 11.512925464970229).abs() < 1e-12);
    }
}
