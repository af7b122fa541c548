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
//!   training pairs featurised as held-out ones, [`super::lexical::HeldOutFolds`]).
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
//! use treelink::align::context::{ContextFeatures, PairFeatureTable, N_CONTEXT};
//! use treelink::align::features::LexicalMatrices;
//! use treelink::tree::Tree;
//! let s = Tree::parse_one("(S (NP (ART das) (NN Haus)) (VVFIN steht))", "s").unwrap();
//! let t = Tree::parse_one("(S (NP (DT the) (NN house)) (VBZ stands))", "t").unwrap();
//! let diag = |i: usize, j: usize| if i == j { 0.5 } else { 0.1 };
//! let m = LexicalMatrices::from_fn(3, 3, diag, diag, &[(0, 0), (1, 1), (2, 2)]);
//! let table = PairFeatureTable::new(&s, &t, &m);
//! let c = ContextFeatures::compute(&s, 1, &t, 1, &table, false);
//! assert_eq!(c.dense.len(), N_CONTEXT);
//! assert_eq!(c.dense[7], 1.0); // the parent pair (S, S) exists
//! assert_eq!(c.dense[0], table.phi(0, 0)[0]); // its φ1
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

/// Short names of the dense context features, in order (with `unk`'s when `unknown`).
pub fn feature_names(unknown: bool) -> Vec<String> {
    let phi = |prefix: &'static str| (1..=N_PHI).map(move |k| format!("{prefix} φ{k}"));
    let unk = ["unknown inside s", "unknown outside s", "unknown inside t", "unknown outside t"];
    phi("parent")
        .chain(["parent pair exists".to_string()])
        .chain(phi("children max"))
        .chain(phi("siblings max"))
        .chain(["treespansim".to_string(), "nrleafsratio".to_string()])
        .chain(["Dublin inside s|t", "Dublin inside t|s", "Dublin outside s|t", "Dublin outside t|s"].map(String::from))
        .chain(unk.into_iter().filter(|_| unknown).map(String::from))
        .collect()
}

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

/// `(∏_{y} max(floor, sum(y)))^(1/|ys|)` over `ys`; 0 when `ys` is empty or
/// the `xs` the sums run over are.
fn geometric_mean(ys: impl Iterator<Item = usize>, xs_empty: bool, sum: impl Fn(usize) -> f64) -> f64 {
    if xs_empty {
        return 0.0;
    }
    let (mut log_sum, mut n) = (0.0, 0usize);
    for y in ys {
        log_sum += crate::math::ln(sum(y).max(PROB_FLOOR));
        n += 1;
    }
    if n == 0 {
        0.0
    } else {
        crate::math::exp(log_sum / n as f64)
    }
}

impl PairFeatureTable {
    /// φ1..φ7 (paper §4.1) of every (source node, target node) pair.
    pub fn new(src: &Tree, trg: &Tree, m: &LexicalMatrices) -> Self {
        let (ns, nt) = (m.n_src(), m.n_trg());
        // P(u|v) (u source), P(v|u), and δ(u,v)·sqrt(P(u|v)·P(v|u)).
        let a = Prefix2::new(ns, nt, |i, j| m.p_s_given_t(i, j));
        let b = Prefix2::new(ns, nt, |i, j| m.p_t_given_s(i, j));
        let w = Prefix2::new(ns, nt, |i, j| {
            if m.aligned(i, j) {
                (m.p_s_given_t(i, j) * m.p_t_given_s(i, j)).sqrt()
            } else {
                0.0
            }
        });
        let mut phi = Vec::with_capacity(src.len() * trg.len());
        let mut dublin = Vec::with_capacity(src.len() * trg.len());
        // Σ_{y ∈ span} P(x|y) + P(x|NULL), geometric mean over the x words (1 for none).
        let explained = |xs: &mut dyn Iterator<Item = usize>, sum: &dyn Fn(usize) -> f64| {
            let (mut log_sum, mut n) = (0.0, 0usize);
            for x in xs {
                log_sum += crate::math::ln(sum(x).max(PROB_FLOOR));
                n += 1;
            }
            if n == 0 {
                1.0
            } else {
                crate::math::exp(log_sum / n as f64)
            }
        };
        for s in 0..src.len() {
            let si = src.span(s);
            let si = si.start.min(ns)..si.end.min(ns);
            let (in_s, out_s) = (si.len(), ns - si.len());
            let out_rows = |j: usize, f: &Prefix2| (f.rect(0..ns, j..j + 1) - f.rect(si.clone(), j..j + 1)).max(0.0);
            for t in 0..trg.len() {
                let ti = trg.span(t);
                let ti = ti.start.min(nt)..ti.end.min(nt);
                let (in_t, out_t) = (ti.len(), nt - ti.len());
                let out_cols =
                    |i: usize, f: &Prefix2| (f.rect(i..i + 1, 0..nt) - f.rect(i..i + 1, ti.clone())).max(0.0);
                let ratio = |x: f64, n: usize| if n == 0 { 0.0 } else { x / (n as f64).sqrt() };
                let inside_w = w.rect(si.clone(), ti.clone());
                phi.push([
                    geometric_mean(ti.clone(), in_s == 0, |j| a.rect(si.clone(), j..j + 1)),
                    geometric_mean(si.clone(), in_t == 0, |i| b.rect(i..i + 1, ti.clone())),
                    geometric_mean(ti.clone(), out_s == 0, |j| out_rows(j, &a)),
                    geometric_mean(si.clone(), out_t == 0, |i| out_cols(i, &b)),
                    ratio(inside_w, in_s * in_t),
                    ratio((w.rect(0..ns, ti.clone()) - inside_w).max(0.0), out_s * in_t),
                    ratio((w.rect(si.clone(), 0..nt) - inside_w).max(0.0), in_s * out_t),
                ]);
                let outside = |r: std::ops::Range<usize>, n: usize| (0..n).filter(move |k| !r.contains(k));
                dublin.push([
                    explained(&mut si.clone(), &|i| a.rect(i..i + 1, ti.clone()) + m.p_s_given_null(i)),
                    explained(&mut ti.clone(), &|j| b.rect(si.clone(), j..j + 1) + m.p_t_given_null(j)),
                    explained(&mut outside(si.clone(), ns), &|i| out_cols(i, &a) + m.p_s_given_null(i)),
                    explained(&mut outside(ti.clone(), nt), &|j| out_rows(j, &b) + m.p_t_given_null(j)),
                ]);
            }
        }
        PairFeatureTable {
            unknown_src: unknown_shares(src, ns, |i| m.unknown_src(i)),
            unknown_trg: unknown_shares(trg, nt, |j| m.unknown_trg(j)),
            n_trg_nodes: trg.len(),
            phi,
            dublin,
        }
    }

    /// The Dublin scores of the pair (see the module doc).
    pub fn dublin(&self, s: NodeId, t: NodeId) -> [f64; N_DUBLIN] {
        self.dublin.get(s * self.n_trg_nodes + t).copied().unwrap_or([0.0; N_DUBLIN])
    }

    /// φ1..φ7 of the pair (source node `s`, target node `t`).
    pub fn phi(&self, s: NodeId, t: NodeId) -> [f64; N_PHI] {
        self.phi.get(s * self.n_trg_nodes + t).copied().unwrap_or([0.0; N_PHI])
    }
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
    (0..tree.len())
        .map(|node| {
            let span = tree.span(node);
            let span = span.start.min(n)..span.end.min(n);
            let inside = prefix[span.end] - prefix[span.start];
            [share(inside, span.len()), share(prefix[n] - inside, n - span.len())]
        })
        .collect()
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
    /// The context of the candidate (source node `s`, target node `t`);
    /// with `unknown` (`unk`), the unknown words' shares too.
    pub fn compute(src: &Tree, s: NodeId, trg: &Tree, t: NodeId, table: &PairFeatureTable, unknown: bool) -> Self {
        let mut dense = Vec::with_capacity(N_CONTEXT);
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
        if unknown {
            dense.extend(table.unknown_src.get(s).copied().unwrap_or_default());
            dense.extend(table.unknown_trg.get(t).copied().unwrap_or_default());
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
    use crate::align::features::PlainFeatures;
    use crate::corpus::Corpus;
    use crate::lexicon::{bitext_of, train_lexicon, LexiconOptions};

    #[test]
    fn the_table_equals_the_plain_features_on_real_pairs() {
        let corpus = Corpus::read_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/www/sample/dev"), true).unwrap();
        let pairs = &corpus.pairs[..20];
        let bitext = bitext_of(&Corpus { pairs: pairs.to_vec() });
        let (lexicon, links) = train_lexicon(&bitext, &LexiconOptions::default(), &mut |_| {});
        let mut checked = 0;
        for (pair, l) in pairs.iter().zip(&links) {
            let m = crate::align::model::pair_matrices(&lexicon, pair, l);
            let table = PairFeatureTable::new(&pair.source, &pair.target, &m);
            for s in 0..pair.source.len() {
                for t in 0..pair.target.len() {
                    let direct = PlainFeatures::compute(&pair.source, s, &pair.target, t, &m).lexical;
                    for (a, b) in table.phi(s, t).iter().zip(direct) {
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
        let with = ContextFeatures::compute(&s, 1, &t, 2, &table, true);
        let without = ContextFeatures::compute(&s, 1, &t, 2, &table, false);
        assert_eq!(without.dense.len(), N_CONTEXT);
        assert_eq!(with.dense[..N_CONTEXT], without.dense[..]);
        // NP spans a b (1 of 2 unknown), outside c (0 of 1); E spans e (1 of 1), outside d (0 of 1).
        assert_eq!(with.dense[N_CONTEXT..], [0.5, 0.0, 1.0, 0.0]);
        let root = ContextFeatures::compute(&s, 0, &t, 0, &table, true);
        assert_eq!(root.dense[N_CONTEXT..], [1.0 / 3.0, 0.0, 0.5, 0.0], "nothing outside the roots");
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
        let c = ContextFeatures::compute(&s, 1, &t, 2, &table, false);
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
        let with_null = ContextFeatures::compute(&s, 1, &t, 2, &PairFeatureTable::new(&s, &t, &m_null), false);
        for (k, want) in [(24, 1.0), (25, 1.0), (26, 0.1), (27, 0.1)] {
            assert!((with_null.dense[k] - want).abs() < 1e-12, "{k}: {}", with_null.dense[k]);
        }
        // The φ features do not read NULL.
        assert_eq!(with_null.dense[..24], c.dense[..24]);
        assert_eq!(c.labels, ("NP".to_string(), "NP".to_string()));
        assert_eq!(c.parent_labels, Some(("S".to_string(), "S".to_string())));
        // The root pair has no parent pair and no siblings.
        let r = ContextFeatures::compute(&s, 0, &t, 0, &table, false);
        assert_eq!((r.dense[7], r.parent_labels), (0.0, None));
        assert!(r.dense[15..22].iter().all(|&v| v == 0.0));
        assert_eq!(feature_names(false).len(), N_CONTEXT);
        assert_eq!(feature_names(true).len(), N_CONTEXT + N_UNKNOWN);
    }
}
