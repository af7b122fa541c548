//! Context features of a candidate sub-tree pair, in the sense of
//! Lingua-Align (Tiedemann & Kotzé 2009): the features of its neighbouring
//! node pairs and its label pairs — the kernel component `ctx`.
//!
//! For a candidate `(s, t)`, from the same lexical and word-alignment
//! features φ1..φ7 as the plain ones (paper §4.1):
//! - the **parent pair** `(parent(s), parent(t))`: its φ1..φ7 (0 when either
//!   node is a root), and a flag that it exists;
//! - the **children pairs** `ch(s) × ch(t)`: each φ's maximum over them
//!   (Lingua-Align's `children_` prefix; POS children included);
//! - the **sibling pairs** `sib(s) × sib(t)`: each φ's maximum (`sister_`);
//! - two sub-tree features of Lingua-Align: `treespansim`, 1 minus the
//!   difference of the spans' relative middle positions, and
//!   `nrleafsratio`, `min(|S|/|T|, |T|/|S|)` of the spans' lengths;
//! - the candidate's own inside and outside scores of the Dublin aligner
//!   (Lingua-Align's `insideST2`… without normalisation; Tinsley et al.'s
//!   `α` with NULL on the conditioning side, [`super::baseline`]), each as
//!   a geometric mean per word: `(∏_{x} (Σ_{y} P(x|y) + P(x|NULL)))^(1/|x|)`
//!   for `α(s_l|t_l)`, `α(t_l|s_l)`, `α(s̄_l|t̄_l)`, `α(t̄_l|s̄_l)` (1 for an
//!   empty `x`). They condition the other way round from φ1–φ4: the product
//!   runs over the words being explained;
//! - the **label pair** `(label(s), label(t))` and the parents' label pair
//!   (`catpos`, `parent_catpos`), as symbols;
//! - with `unk` (beyond Lingua-Align): the share of words the lexicon does
//!   not know inside and outside each span. A pair of held-out sentences
//!   with many unknown words has weak lexical features whether or not its
//!   nodes translate each other; these say how much of the evidence is
//!   missing, so the kernel can weigh the rest (the model learns it from
//!   training pairs featurised as held-out ones, [`super::lexical::HeldOutFolds`]);
//! - with `orth` (beyond Lingua-Align): the orthographic similarity of the
//!   spans' words, which carries names, numbers and cognates the lexicon
//!   does not know (related languages share them): for each source word of
//!   the source span, its best similarity to a word of the target span,
//!   averaged over the span, and the same from the target side; the same
//!   two to the words *outside* the other span; and of the numbers in the
//!   spans, the share equal to a number inside the other span and the share
//!   equal to one only outside it. Two words' similarity ([`similarity`]) is
//!   1 when equal (ignoring case), else their longest common subsequence
//!   ratio (LCSR, Melamed 1999) when both have at least
//!   [`ORTH_MIN_CHARS`] characters and it reaches [`ORTH_MIN_LCSR`], else 0;
//!   tokens without a letter or digit (punctuation) match nothing;
//! - with `chain`: where each node sits in a chain of phrase nodes over the
//!   same words (a node and its only phrase child): whether it has a
//!   phrase child over its words (it is above in a chain) and whether its
//!   parent spans its words (below), on both sides. Annotators link one
//!   node of a chain — on SQUOIA's training gold nearly always the lowest
//!   (207 of 209 chains with one link) — and these let the model learn which;
//! - with `node`: the per-node evidence for leaving a node unlinked — each
//!   node's best inside score `(φ1 + φ2) / 2` with any phrase node of the
//!   other tree, and the candidate's distance below each; a node whose best
//!   partner scores low is likely left unlinked by annotators, and a
//!   candidate below its node's best is likely the wrong partner.
//!
//! The kernel of the component ([`super::composite::context_kernel`]) is the mean of
//! the normalised degree-2 polynomial kernel on the dense features (as the
//! plain kernel, paper §5) and of `(I[label pairs equal] + I[parent label
//! pairs equal]) / 2`; it is 1 for an instance with itself.
//!
//! φ for every node pair of a tree pair is computed once ([`PairFeatureTable`])
//! from prefix sums over the lexical matrices, so each pair costs
//! `O(|S| + |T|)` rather than `O(|S|·|T|)`; the values equal
//! [`super::features::PlainFeatures::compute`]'s up to rounding (a test checks 1e-12).
//!
//! # Examples
//! ```
//! use treelink::align::context::{ContextFeatures, ContextParts, PairFeatureTable, N_CONTEXT};
//! use treelink::align::features::LexicalMatrices;
//! use treelink::tree::{NodeId, Tree};
//! let s = Tree::parse_one("(S (NP (ART das) (NN Haus)) (VVFIN steht))", "s").unwrap();
//! let t = Tree::parse_one("(S (NP (DT the) (NN house)) (VBZ stands))", "t").unwrap();
//! let diag = |i: usize, j: usize| if i == j { 0.5 } else { 0.1 };
//! let m = LexicalMatrices::from_fn(3, 3, diag, diag, &[(0, 0), (1, 1), (2, 2)]);
//! let table = PairFeatureTable::new(&s, &t, &m);
//! let c = ContextFeatures::compute(&s, NodeId::new(1), &t, NodeId::new(1), &table, ContextParts::default());
//! assert_eq!(c.dense.len(), N_CONTEXT);
//! assert_eq!(c.dense[7], 1.0); // the parent pair (S, S) exists
//! assert_eq!(c.dense[0], table.phi(NodeId::ROOT, NodeId::ROOT)[0]); // its φ1
//! assert_eq!((c.labels.0.as_str(), c.parent_labels.as_ref().unwrap().0.as_str()), ("NP", "S"));
//! ```

use serde::{Deserialize, Serialize};

use super::features::{LexicalMatrices, PROB_FLOOR};
use crate::tree::{NodeId, Tree};

/// Number of lexical features read from each neighbour (φ1..φ7).
const N_PHI: usize = 7;

/// Number of Dublin scores (inside and outside, both directions).
const N_DUBLIN: usize = 4;

/// Number of dense context features: parent φ1..φ7, its flag, children's
/// and siblings' maxima of φ1..φ7, `treespansim`, `nrleafsratio`, and the
/// four Dublin scores.
pub const N_CONTEXT: usize = 3 * N_PHI + 3 + N_DUBLIN;

/// Number of features `unk` adds to them: the share of words the lexicon
/// does not know inside the source span, outside it, inside the target span
/// and outside it.
pub const N_UNKNOWN: usize = 4;

/// Number of features `orth` adds: orthographic similarity inside from each
/// side, outside from each side, and the numbers matched inside and only outside.
pub const N_ORTH: usize = 6;

/// Number of features `chain` adds: above and below in a chain, each side.
pub const N_CHAIN: usize = 4;

/// Number of features `node` adds: each node's best inside score, and the
/// candidate's distance below it.
pub const N_NODE: usize = 4;

/// Two words shorter than this (in characters) are similar only when equal.
pub const ORTH_MIN_CHARS: usize = 4;

/// The least LCSR two different words need to count as similar.
pub const ORTH_MIN_LCSR: f64 = 0.6;

/// Which features beyond Lingua-Align's a context holds (each a modifier of
/// `ctx` in a kernel spec: `unk`, `orth`, `chain`, `node`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContextParts {
    pub unknown: bool,
    pub orth: bool,
    pub chain: bool,
    pub node: bool,
}

impl ContextParts {
    /// Number of dense features of a context with these parts.
    pub fn dense_len(self) -> usize {
        let on = |b: bool, n: usize| if b { n } else { 0 };
        N_CONTEXT
            + on(self.unknown, N_UNKNOWN)
            + on(self.orth, N_ORTH)
            + on(self.chain, N_CHAIN)
            + on(self.node, N_NODE)
    }
}

/// Short names of the dense context features, in order.
pub fn feature_names(parts: ContextParts) -> Vec<String> {
    let phi = |prefix: &'static str| (1..=N_PHI).map(move |k| format!("{prefix} φ{k}"));
    const UNK: [&str; N_UNKNOWN] = ["unknown inside s", "unknown outside s", "unknown inside t", "unknown outside t"];
    const ORTH: [&str; N_ORTH] = [
        "orthographic s inside t",
        "orthographic t inside s",
        "orthographic s outside t",
        "orthographic t outside s",
        "numbers matched inside",
        "numbers matched only outside",
    ];
    const CHAIN: [&str; N_CHAIN] =
        ["s above in a chain", "s below in a chain", "t above in a chain", "t below in a chain"];
    const NODE: [&str; N_NODE] =
        ["best inside score of s", "best inside score of t", "below the best of s", "below the best of t"];
    let when = |on: bool, names: &'static [&'static str]| names.iter().filter(move |_| on).map(|n| n.to_string());
    phi("parent")
        .chain(["parent pair exists".to_string()])
        .chain(phi("children max"))
        .chain(phi("siblings max"))
        .chain(["treespansim".to_string(), "nrleafsratio".to_string()])
        .chain(["Dublin inside s|t", "Dublin inside t|s", "Dublin outside s|t", "Dublin outside t|s"].map(String::from))
        .chain(when(parts.unknown, &UNK))
        .chain(when(parts.orth, &ORTH))
        .chain(when(parts.chain, &CHAIN))
        .chain(when(parts.node, &NODE))
        .collect()
}

/// The orthographic similarity of two words (see the module doc): 1 when
/// equal ignoring case; else, when both have at least [`ORTH_MIN_CHARS`]
/// characters, their LCSR if it reaches [`ORTH_MIN_LCSR`]; else 0. A token
/// with no letter or digit is similar to nothing.
///
/// ```
/// use treelink::align::context::similarity;
/// assert_eq!(similarity("Instituts", "Instituto"), 8.0 / 9.0);
/// assert_eq!(similarity("Bonn", "bonn"), 1.0);
/// assert_eq!(similarity("die", "de"), 0.0); // short and different
/// assert_eq!(similarity(",", ","), 0.0);
/// ```
pub fn similarity(a: &str, b: &str) -> f64 {
    similarity_of(&lowered(a), &lowered(b))
}

/// A word as [`similarity_of`] compares it: lowercased characters, `None`
/// without a letter or digit.
fn lowered(w: &str) -> Option<Vec<char>> {
    w.chars().any(char::is_alphanumeric).then(|| w.chars().flat_map(char::to_lowercase).collect())
}

/// [`similarity`] of two [`lowered`] words.
fn similarity_of(a: &Option<Vec<char>>, b: &Option<Vec<char>>) -> f64 {
    let (Some(a), Some(b)) = (a, b) else {
        return 0.0;
    };
    if a == b {
        return 1.0;
    }
    if a.len().min(b.len()) < ORTH_MIN_CHARS {
        return 0.0;
    }
    let lcsr = lcs(a, b) as f64 / a.len().max(b.len()) as f64;
    if lcsr >= ORTH_MIN_LCSR {
        lcsr
    } else {
        0.0
    }
}

/// The length of the longest common subsequence (one row of the table at a time).
fn lcs(a: &[char], b: &[char]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for &x in a {
        let mut diagonal = 0;
        for (j, &y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if x == y { diagonal + 1 } else { up.max(row[j]) };
            diagonal = up;
        }
    }
    row[b.len()]
}

/// Whether a token is a number: a digit, and nothing but digits and `.,:/-`.
fn is_number(w: &str) -> bool {
    w.chars().any(|c| c.is_ascii_digit()) && w.chars().all(|c| c.is_ascii_digit() || ".,:/-".contains(c))
}

/// The numbers of a sentence ([`is_number`]): word position and text.
type Numbers = Vec<(usize, String)>;

/// φ1..φ7 of every node pair of one tree pair.
#[derive(Debug, Clone, PartialEq)]
pub struct PairFeatureTable {
    /// Per source node: the share of unknown source words inside and outside its span.
    unknown_src: Vec<[f64; 2]>,
    /// The same per target node.
    unknown_trg: Vec<[f64; 2]>,
    n_trg_nodes: usize,
    phi: Vec<[f64; N_PHI]>,
    dublin: Vec<[f64; N_DUBLIN]>,
    /// `orth`: per (source node, target node), the four similarity sums of
    /// the module doc (not yet divided by the spans' lengths).
    orth: Vec<[f64; 4]>,
    /// The numbers of each sentence: (word position, text).
    numbers: [Numbers; 2],
    /// `node`: each node's best inside score with a phrase node of the other tree.
    best_src: Vec<f64>,
    best_trg: Vec<f64>,
}

/// Prefix sums of a `rows × cols` matrix given by `f(i, j)`: `at(i, j)` is
/// the sum over rows `< i` and columns `< j`.
struct Prefix2 {
    cols: usize,
    sums: Vec<f64>,
}

impl Prefix2 {
    fn new(rows: usize, cols: usize, f: impl Fn(usize, usize) -> f64) -> Self {
        let w = cols + 1;
        let mut sums = vec![0.0; (rows + 1) * w];
        for i in 0..rows {
            for j in 0..cols {
                sums[(i + 1) * w + j + 1] = f(i, j) + sums[i * w + j + 1] + sums[(i + 1) * w + j] - sums[i * w + j];
            }
        }
        Prefix2 { cols, sums }
    }

    fn at(&self, i: usize, j: usize) -> f64 {
        self.sums[i * (self.cols + 1) + j]
    }

    /// Sum over rows `r` and columns `c` (half-open ranges).
    fn rect(&self, r: std::ops::Range<usize>, c: std::ops::Range<usize>) -> f64 {
        self.at(r.end, c.end) - self.at(r.start, c.end) - self.at(r.end, c.start) + self.at(r.start, c.start)
    }
}

/// `(∏_{y} max(floor, sum(y)))^(1/|ys|)` over `ys`; 0 when the `xs` the sums
/// run over are empty, `none` when `ys` is.
fn geometric_mean(ys: impl Iterator<Item = usize>, xs_empty: bool, none: f64, sum: impl Fn(usize) -> f64) -> f64 {
    if xs_empty {
        return 0.0;
    }
    let (mut log_sum, mut n) = (0.0, 0usize);
    for y in ys {
        log_sum += crate::math::ln(sum(y).max(PROB_FLOOR));
        n += 1;
    }
    if n == 0 {
        none
    } else {
        crate::math::exp(log_sum / n as f64)
    }
}

impl PairFeatureTable {
    /// φ1..φ7 (paper §4.1) of every (source node, target node) pair.
    pub fn new(src: &Tree, trg: &Tree, m: &LexicalMatrices) -> Self {
        let (ns, nt) = (m.n_src(), m.n_trg());
        // P(u|v) (u source), P(v|u), and each link's weight δ(u,v)·w(u,v).
        let a = Prefix2::new(ns, nt, |i, j| m.p_s_given_t(i, j));
        let b = Prefix2::new(ns, nt, |i, j| m.p_t_given_s(i, j));
        let w = Prefix2::new(ns, nt, |i, j| m.link(i, j));
        let mut phi = Vec::with_capacity(src.len() * trg.len());
        let mut dublin = Vec::with_capacity(src.len() * trg.len());
        for s in src.node_ids() {
            let si = src.span(s);
            let si = si.start.min(ns)..si.end.min(ns);
            let (in_s, out_s) = (si.len(), ns - si.len());
            let out_rows = |j: usize, f: &Prefix2| (f.rect(0..ns, j..j + 1) - f.rect(si.clone(), j..j + 1)).max(0.0);
            for t in trg.node_ids() {
                let ti = trg.span(t);
                let ti = ti.start.min(nt)..ti.end.min(nt);
                let (in_t, out_t) = (ti.len(), nt - ti.len());
                let out_cols =
                    |i: usize, f: &Prefix2| (f.rect(i..i + 1, 0..nt) - f.rect(i..i + 1, ti.clone())).max(0.0);
                let ratio = |x: f64, n: usize| if n == 0 { 0.0 } else { x / (n as f64).sqrt() };
                let inside_w = w.rect(si.clone(), ti.clone());
                phi.push([
                    geometric_mean(ti.clone(), in_s == 0, 0.0, |j| a.rect(si.clone(), j..j + 1)),
                    geometric_mean(si.clone(), in_t == 0, 0.0, |i| b.rect(i..i + 1, ti.clone())),
                    geometric_mean(ti.clone(), out_s == 0, 0.0, |j| out_rows(j, &a)),
                    geometric_mean(si.clone(), out_t == 0, 0.0, |i| out_cols(i, &b)),
                    ratio(inside_w, in_s * in_t),
                    ratio((w.rect(0..ns, ti.clone()) - inside_w).max(0.0), out_s * in_t),
                    ratio((w.rect(si.clone(), 0..nt) - inside_w).max(0.0), in_s * out_t),
                ]);
                let outside = |r: std::ops::Range<usize>, n: usize| (0..n).filter(move |k| !r.contains(k));
                // Σ_{y ∈ span} P(x|y) + P(x|NULL), geometric mean over the x words (1 for none).
                dublin.push([
                    geometric_mean(si.clone(), false, 1.0, |i| a.rect(i..i + 1, ti.clone()) + m.p_s_given_null(i)),
                    geometric_mean(ti.clone(), false, 1.0, |j| b.rect(si.clone(), j..j + 1) + m.p_t_given_null(j)),
                    geometric_mean(outside(si.clone(), ns), false, 1.0, |i| out_cols(i, &a) + m.p_s_given_null(i)),
                    geometric_mean(outside(ti.clone(), nt), false, 1.0, |j| out_rows(j, &b) + m.p_t_given_null(j)),
                ]);
            }
        }
        let inside = |p: &[f64; N_PHI]| (p[0] + p[1]) / 2.0;
        let (mut best_src, mut best_trg) = (vec![0.0f64; src.len()], vec![0.0f64; trg.len()]);
        for s in src.node_ids().filter(|&s| src.is_phrase(s)) {
            for t in trg.node_ids().filter(|&t| trg.is_phrase(t)) {
                let q = inside(&phi[s.index() * trg.len() + t.index()]);
                best_src[s.index()] = best_src[s.index()].max(q);
                best_trg[t.index()] = best_trg[t.index()].max(q);
            }
        }
        let numbers = |words: &[String]| -> Vec<(usize, String)> {
            words.iter().enumerate().filter(|(_, w)| is_number(w)).map(|(k, w)| (k, w.clone())).collect()
        };
        PairFeatureTable {
            unknown_src: unknown_shares(src, ns, |i| m.unknown_src(i)),
            unknown_trg: unknown_shares(trg, nt, |j| m.unknown_trg(j)),
            n_trg_nodes: trg.len(),
            phi,
            dublin,
            orth: orthographic_sums(src, trg),
            numbers: [numbers(src.words()), numbers(trg.words())],
            best_src,
            best_trg,
        }
    }

    /// The Dublin scores of the pair (see the module doc).
    pub fn dublin(&self, s: NodeId, t: NodeId) -> [f64; N_DUBLIN] {
        self.dublin.get(s.index() * self.n_trg_nodes + t.index()).copied().unwrap_or([0.0; N_DUBLIN])
    }

    /// φ1..φ7 of the pair (source node `s`, target node `t`).
    pub fn phi(&self, s: NodeId, t: NodeId) -> [f64; N_PHI] {
        self.phi.get(s.index() * self.n_trg_nodes + t.index()).copied().unwrap_or([0.0; N_PHI])
    }
}

/// Per (source node, target node), in the order of [`PairFeatureTable`]'s
/// φ: `[Σ_{i∈S} max_{j∈T} o(i,j), Σ_{j∈T} max_{i∈S} o(i,j), Σ_{i∈S} max_{j∉T}
/// o(i,j), Σ_{j∈T} max_{i∉S} o(i,j)]` with `o` the words' [`similarity`].
/// Each word's best match inside and outside every node of the other tree
/// is found once (prefix and suffix maxima for outside), then summed over
/// the spans by prefix sums: O(n·N) for n words and N nodes.
fn orthographic_sums(src: &Tree, trg: &Tree) -> Vec<[f64; 4]> {
    let (sw, tw) = (src.words(), trg.words());
    let (sl, tl): (Vec<_>, Vec<_>) = (sw.iter().map(|w| lowered(w)).collect(), tw.iter().map(|w| lowered(w)).collect());
    let o: Vec<Vec<f64>> = sl.iter().map(|a| tl.iter().map(|b| similarity_of(a, b)).collect()).collect();
    // best[w][node]: word w's best match inside and outside the node's span, then
    // prefix sums of both over the words.
    let sums = |n_words: usize, other: &Tree, sim: &dyn Fn(usize, usize) -> f64| -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let n_other = other.words().len();
        let (mut inside, mut outside) =
            (vec![vec![0.0; n_words + 1]; other.len()], vec![vec![0.0; n_words + 1]; other.len()]);
        for w in 0..n_words {
            let row: Vec<f64> = (0..n_other).map(|k| sim(w, k)).collect();
            let mut prefix = vec![0.0f64; n_other + 1];
            for k in 0..n_other {
                prefix[k + 1] = prefix[k].max(row[k]);
            }
            let mut suffix = vec![0.0f64; n_other + 1];
            for k in (0..n_other).rev() {
                suffix[k] = suffix[k + 1].max(row[k]);
            }
            for node in other.node_ids() {
                let span = other.span(node);
                let span = span.start.min(n_other)..span.end.min(n_other);
                let best_in = row[span.clone()].iter().copied().fold(0.0, f64::max);
                let best_out = prefix[span.start].max(suffix[span.end]);
                let k = node.index();
                inside[k][w + 1] = inside[k][w] + best_in;
                outside[k][w + 1] = outside[k][w] + best_out;
            }
        }
        (inside, outside)
    };
    let (s_in, s_out) = sums(sw.len(), trg, &|i, j| o[i][j]);
    let (t_in, t_out) = sums(tw.len(), src, &|j, i| o[i][j]);
    let range = |tree: &Tree, n: NodeId, words: usize| {
        let span = tree.span(n);
        span.start.min(words)..span.end.min(words)
    };
    let mut out = Vec::with_capacity(src.len() * trg.len());
    for s in src.node_ids() {
        let ss = range(src, s, sw.len());
        for t in trg.node_ids() {
            let ts = range(trg, t, tw.len());
            let over = |p: &[f64], r: &std::ops::Range<usize>| p[r.end] - p[r.start];
            let (si, ti) = (s.index(), t.index());
            out.push([over(&s_in[ti], &ss), over(&t_in[si], &ts), over(&s_out[ti], &ss), over(&t_out[si], &ts)]);
        }
    }
    out
}

/// Per node of `tree`: the share of its `n` words with `unknown` inside the
/// node's span and outside it (0 for no words).
fn unknown_shares(tree: &Tree, n: usize, unknown: impl Fn(usize) -> bool) -> Vec<[f64; 2]> {
    let prefix: Vec<usize> = std::iter::once(0)
        .chain((0..n).scan(0, |count, k| {
            *count += usize::from(unknown(k));
            Some(*count)
        }))
        .collect();
    let share = |count: usize, words: usize| if words == 0 { 0.0 } else { count as f64 / words as f64 };
    tree.node_ids()
        .map(|node| {
            let span = tree.span(node);
            let span = span.start.min(n)..span.end.min(n);
            let inside = prefix[span.end] - prefix[span.start];
            [share(inside, span.len()), share(prefix[n] - inside, n - span.len())]
        })
        .collect()
}

/// `[above, below]`: whether node `n` has a phrase child over the same
/// words, and whether its parent spans the same words (1 or 0).
fn chain_position(tree: &Tree, n: NodeId) -> [f64; 2] {
    let span = tree.span(n);
    let above = tree.children(n).iter().any(|&c| tree.is_phrase(c) && tree.span(c) == span);
    let below = tree.parent(n).is_some_and(|p| tree.span(p) == span);
    [f64::from(u8::from(above)), f64::from(u8::from(below))]
}

impl PairFeatureTable {
    /// The `orth` features of the candidate (source node `s`, target node `t`).
    pub fn orthographic(&self, src: &Tree, s: NodeId, trg: &Tree, t: NodeId) -> [f64; N_ORTH] {
        let sums = self.orth.get(s.index() * self.n_trg_nodes + t.index()).copied().unwrap_or([0.0; 4]);
        let (ls, lt) = (src.span(s).len(), trg.span(t).len());
        let per = |x: f64, n: usize| if n == 0 { 0.0 } else { x / n as f64 };
        let (span_s, span_t) = (src.span(s), trg.span(t));
        let [nums_s, nums_t] = &self.numbers;
        let (mut inside, mut outside, mut total) = (0usize, 0usize, 0usize);
        for (mine, theirs, my_span, their_span) in
            [(nums_s, nums_t, &span_s, &span_t), (nums_t, nums_s, &span_t, &span_s)]
        {
            for (_, w) in mine.iter().filter(|(k, _)| my_span.contains(k)) {
                total += 1;
                let equal = |(k, v): &&(usize, String)| v == w && their_span.contains(k);
                if theirs.iter().any(|x| equal(&x)) {
                    inside += 1;
                } else if theirs.iter().any(|(_, v)| v == w) {
                    outside += 1;
                }
            }
        }
        [
            per(sums[0], ls),
            per(sums[1], lt),
            per(sums[2], ls),
            per(sums[3], lt),
            per(inside as f64, total),
            per(outside as f64, total),
        ]
    }
}

/// The context of one candidate pair (see the module doc).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContextFeatures {
    pub dense: Vec<f64>,
    /// `(label(s), label(t))`.
    pub labels: (String, String),
    /// The parents' labels; `None` when either node is a root.
    pub parent_labels: Option<(String, String)>,
}

/// The element-wise maximum of φ over `pairs` (0 for none).
fn max_phi(table: &PairFeatureTable, pairs: impl Iterator<Item = (NodeId, NodeId)>) -> [f64; N_PHI] {
    let mut best = [0.0f64; N_PHI];
    for (a, b) in pairs {
        for (m, v) in best.iter_mut().zip(table.phi(a, b)) {
            *m = m.max(v);
        }
    }
    best
}

impl ContextFeatures {
    /// The context of the candidate (source node `s`, target node `t`),
    /// with the features of `parts` beyond Lingua-Align's.
    pub fn compute(
        src: &Tree,
        s: NodeId,
        trg: &Tree,
        t: NodeId,
        table: &PairFeatureTable,
        parts: ContextParts,
    ) -> Self {
        let mut dense = Vec::with_capacity(parts.dense_len());
        let parents = src.parent(s).zip(trg.parent(t));
        dense.extend(parents.map_or([0.0; N_PHI], |(ps, pt)| table.phi(ps, pt)));
        dense.push(f64::from(u8::from(parents.is_some())));
        let (cs, ct) = (src.children(s), trg.children(t));
        dense.extend(max_phi(table, cs.iter().flat_map(|&a| ct.iter().map(move |&b| (a, b)))));
        let siblings = |tree: &Tree, n: NodeId| -> Vec<NodeId> {
            tree.parent(n).map_or(Vec::new(), |p| tree.children(p).iter().copied().filter(|&c| c != n).collect())
        };
        let (ss, st) = (siblings(src, s), siblings(trg, t));
        dense.extend(max_phi(table, ss.iter().flat_map(|&a| st.iter().map(move |&b| (a, b)))));
        let (span_s, span_t) = (src.span(s), trg.span(t));
        let middle = |span: &std::ops::Range<usize>, n: usize| {
            if n == 0 {
                0.0
            } else {
                (span.start + span.end) as f64 / 2.0 / n as f64
            }
        };
        dense.push(1.0 - (middle(&span_s, src.words().len()) - middle(&span_t, trg.words().len())).abs());
        let (ls, lt) = (span_s.len() as f64, span_t.len() as f64);
        dense.push(if ls > 0.0 && lt > 0.0 { (ls / lt).min(lt / ls) } else { 0.0 });
        dense.extend(table.dublin(s, t));
        if parts.unknown {
            dense.extend(table.unknown_src.get(s.index()).copied().unwrap_or_default());
            dense.extend(table.unknown_trg.get(t.index()).copied().unwrap_or_default());
        }
        if parts.orth {
            dense.extend(table.orthographic(src, s, trg, t));
        }
        if parts.chain {
            dense.extend(chain_position(src, s).into_iter().chain(chain_position(trg, t)));
        }
        if parts.node {
            let q = table.phi(s, t);
            let q = (q[0] + q[1]) / 2.0;
            let (bs, bt) = (
                table.best_src.get(s.index()).copied().unwrap_or(0.0),
                table.best_trg.get(t.index()).copied().unwrap_or(0.0),
            );
            dense.extend([bs, bt, (bs - q).max(0.0), (bt - q).max(0.0)]);
        }
        ContextFeatures {
            dense,
            labels: (src.label(s).to_string(), trg.label(t).to_string()),
            parent_labels: parents.map(|(ps, pt)| (src.label(ps).to_string(), trg.label(pt).to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::align::features::{LinkWeight, PlainFeatures};
    use crate::corpus::Corpus;
    use crate::lexicon::{bitext_of, train_lexicon, LexiconOptions};

    fn n(i: usize) -> NodeId {
        NodeId::new(i)
    }

    #[test]
    fn the_table_equals_the_plain_features_on_real_pairs() {
        let corpus = crate::corpus::sample(..);
        let pairs = &corpus.pairs[..20];
        let bitext = bitext_of(&Corpus { pairs: pairs.to_vec() });
        let (lexicon, links) = train_lexicon(&bitext, &LexiconOptions::default(), &mut |_| {});
        let mut checked = 0;
        let weights = [LinkWeight::Lexicon, LinkWeight::Unit];
        for ((pair, l), weight) in pairs.iter().zip(&links).zip(weights.iter().cycle()) {
            let m = crate::align::model::pair_matrices(&lexicon, pair, l, *weight);
            let table = PairFeatureTable::new(&pair.source, &pair.target, &m);
            for s in 0..pair.source.len() {
                for t in 0..pair.target.len() {
                    let direct = PlainFeatures::compute(&pair.source, n(s), &pair.target, n(t), &m).lexical;
                    for (a, b) in table.phi(n(s), n(t)).iter().zip(direct) {
                        assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "({s},{t}): {a} vs {b}");
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn unknown_words_shares_by_hand() {
        // S0 (NP1 (A2 a) (B3 b)) (C4 c)  and  S0 (D1 d) (E2 e): b and e unknown.
        let s = Tree::parse_one("(S (NP (A a) (B b)) (C c))", "s").unwrap();
        let t = Tree::parse_one("(S (D d) (E e))", "t").unwrap();
        let m = LexicalMatrices::from_fn(3, 2, |_, _| 0.5, |_, _| 0.5, &[])
            .with_unknown(vec![false, true, false], vec![false, true]);
        let table = PairFeatureTable::new(&s, &t, &m);
        let unk = ContextParts { unknown: true, ..ContextParts::default() };
        let with = ContextFeatures::compute(&s, n(1), &t, n(2), &table, unk);
        let without = ContextFeatures::compute(&s, n(1), &t, n(2), &table, ContextParts::default());
        assert_eq!(without.dense.len(), N_CONTEXT);
        assert_eq!(with.dense[..N_CONTEXT], without.dense[..]);
        // NP spans a b (1 of 2 unknown), outside c (0 of 1); E spans e (1 of 1), outside d (0 of 1).
        assert_eq!(with.dense[N_CONTEXT..], [0.5, 0.0, 1.0, 0.0]);
        let root = ContextFeatures::compute(&s, n(0), &t, n(0), &table, unk);
        assert_eq!(root.dense[N_CONTEXT..], [1.0 / 3.0, 0.0, 0.5, 0.0], "nothing outside the roots");
    }

    #[test]
    fn orthography_chains_and_nodes_by_hand() {
        // S0 (NP1 (N2 (NN3 Instituts))) (CARD4 2010) (ADV5 hier): NP1 over N2 over the same word.
        let s = Tree::parse_one("(S (NP (N (NN Instituts))) (CARD 2010) (ADV hier))", "s").unwrap();
        // S0 (NP1 (NC2 instituto)) (Z3 2010) (ADV4 aquí)
        let t = Tree::parse_one("(S (NP (NC instituto)) (Z 2010) (ADV aquí))", "t").unwrap();
        let p = |i: usize, j: usize| if i == j { 0.5 } else { 0.1 };
        let m = LexicalMatrices::from_fn(3, 3, p, p, &[(0, 0), (1, 1), (2, 2)]);
        let table = PairFeatureTable::new(&s, &t, &m);
        let all = ContextParts { unknown: false, orth: true, chain: true, node: true };
        let at = |a: usize, b: usize| ContextFeatures::compute(&s, n(a), &t, n(b), &table, all).dense;
        let o = 8.0 / 9.0; // instituts / instituto: LCS "institut"
                           // NP1–NP1: each span's word matches the other's (8/9); nothing outside; no numbers.
        let np = at(1, 1);
        assert_eq!(np[N_CONTEXT..N_CONTEXT + N_ORTH], [o, o, 0.0, 0.0, 0.0, 0.0]);
        // NP1 above N2 in a chain; the target NP1's only child is a POS node: no chain.
        assert_eq!(np[N_CONTEXT + N_ORTH..N_CONTEXT + N_ORTH + N_CHAIN], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(at(2, 1)[N_CONTEXT + N_ORTH..N_CONTEXT + N_ORTH + N_CHAIN], [0.0, 1.0, 0.0, 0.0]);
        // NP1–S0: the target's 3 words against "Instituts" inside (8/9, 0, 0), and against
        // 2010 and hier outside (0, 1, 0); 2010 of the target equals 2010 outside NP1.
        let wide = at(1, 0);
        let want = [o, o / 3.0, 0.0, 1.0 / 3.0, 0.0, 1.0];
        for (k, (a, b)) in wide[N_CONTEXT..N_CONTEXT + N_ORTH].iter().zip(want).enumerate() {
            assert!((a - b).abs() < 1e-12, "{k}: {a} vs {b}");
        }
        // S0–S0: both 2010s inside: numbers matched inside.
        assert_eq!(at(0, 0)[N_CONTEXT + 4..N_CONTEXT + 6], [1.0, 0.0]);
        // Node features: each node's best inside score over the other tree's phrase nodes.
        let q = |a, b| table.phi(n(a), n(b))[..2].iter().sum::<f64>() / 2.0;
        let best_s = [0, 1].iter().map(|&b| q(2, b)).fold(0.0, f64::max);
        let best_t = [0, 1, 2].iter().map(|&a| q(a, 1)).fold(0.0, f64::max);
        let node = &at(2, 1)[N_CONTEXT + N_ORTH + N_CHAIN..];
        assert_eq!(node, [best_s, best_t, best_s - q(2, 1), best_t - q(2, 1)]);
        assert!(node.iter().all(|&v| v >= 0.0));
        assert_eq!(at(2, 1).len(), all.dense_len());
    }

    #[test]
    fn similarity_is_the_lcs_ratio_of_long_words_and_equality_of_short_ones() {
        assert_eq!(lcs(&['a', 'b', 'c', 'd'], &['a', 'c', 'd', 'b']), 3);
        assert_eq!(similarity("Klimawandel", "Klimawandels"), 11.0 / 12.0);
        assert_eq!(similarity("Haus", "casa"), 0.0, "LCS 'as': 2 of 4, below the least ratio");
        assert_eq!(similarity("Unión", "Union"), 0.8);
        assert_eq!(similarity("2010", "2010"), 1.0);
        assert_eq!(similarity("EU", "eu"), 1.0);
        assert_eq!(similarity("--", "--"), 0.0);
        assert!(is_number("3,5") && is_number("2010") && !is_number("B2") && !is_number("-"));
    }

    #[test]
    fn neighbours_by_hand() {
        // S0 (NP1 (A2 a) (B3 b)) (C4 c)  and  S0 (D1 d) (NP2 (E3 e) (F4 f)).
        let s = Tree::parse_one("(S (NP (A a) (B b)) (C c))", "s").unwrap();
        let t = Tree::parse_one("(S (D d) (NP (E e) (F f)))", "t").unwrap();
        // Only a-e and b-f translate each other (both ways, 0.9), and are word-linked.
        let p = |i: usize, j: usize| if (i, j) == (0, 1) || (i, j) == (1, 2) { 0.9 } else { 0.0 };
        let m = LexicalMatrices::from_fn(3, 3, p, p, &[(0, 1), (1, 2)]);
        let table = PairFeatureTable::new(&s, &t, &m);
        let c = ContextFeatures::compute(&s, n(1), &t, n(2), &table, ContextParts::default());
        // Parent pair (S, S): φ5 = (0.9 + 0.9) / sqrt(3·3).
        assert_eq!(c.dense[7], 1.0);
        assert!((c.dense[4] - 1.8 / 3.0).abs() < 1e-12);
        // Children: the best child pair (A, E) has φ1 = P(a|e) = 0.9 and φ5 = 0.9.
        assert!((c.dense[8] - 0.9).abs() < 1e-12 && (c.dense[12] - 0.9).abs() < 1e-12);
        // Siblings: (C, D) only; c and d translate nothing: φ1 at the floor.
        assert!((c.dense[15] - PROB_FLOOR).abs() < 1e-18);
        // Spans: [0,2) of 3 and [1,3) of 3: middles 1/3 and 2/3; lengths equal.
        assert!((c.dense[22] - (1.0 - 1.0 / 3.0)).abs() < 1e-12);
        assert_eq!(c.dense[23], 1.0);
        // Dublin scores: inside, each source word of NP [0,2) is explained by
        // NP [1,3) with 0.9 (a by e, b by f), and each target word likewise;
        // outside, c (source 2) and d (target 0) explain nothing: the floor.
        assert!((c.dense[24] - 0.9).abs() < 1e-12 && (c.dense[25] - 0.9).abs() < 1e-12);
        assert!((c.dense[26] / PROB_FLOOR - 1.0).abs() < 1e-9 && (c.dense[27] / PROB_FLOOR - 1.0).abs() < 1e-9);
        // With P(x|NULL) = 0.1 on both sides: 0.9 + 0.1 inside, 0 + 0.1 outside.
        let m_null = LexicalMatrices::from_fn(3, 3, p, p, &[(0, 1), (1, 2)]).with_null(|_| 0.1, |_| 0.1);
        let table_null = PairFeatureTable::new(&s, &t, &m_null);
        let with_null = ContextFeatures::compute(&s, n(1), &t, n(2), &table_null, ContextParts::default());
        for (k, want) in [(24, 1.0), (25, 1.0), (26, 0.1), (27, 0.1)] {
            assert!((with_null.dense[k] - want).abs() < 1e-12, "{k}: {}", with_null.dense[k]);
        }
        // The φ features do not read NULL.
        assert_eq!(with_null.dense[..24], c.dense[..24]);
        assert_eq!(c.labels, ("NP".to_string(), "NP".to_string()));
        assert_eq!(c.parent_labels, Some(("S".to_string(), "S".to_string())));
        // The root pair has no parent pair and no siblings.
        let r = ContextFeatures::compute(&s, n(0), &t, n(0), &table, ContextParts::default());
        assert_eq!((r.dense[7], r.parent_labels), (0.0, None));
        assert!(r.dense[15..22].iter().all(|&v| v == 0.0));
        assert_eq!(feature_names(ContextParts::default()).len(), N_CONTEXT);
        let all = ContextParts { unknown: true, orth: true, chain: true, node: true };
        assert_eq!(feature_names(all).len(), N_CONTEXT + N_UNKNOWN + N_ORTH + N_CHAIN + N_NODE);
        assert_eq!(feature_names(all).len(), all.dense_len());
    }
}
