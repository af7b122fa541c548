//! Plain features of a candidate sub-tree pair (paper §4): seven lexical and
//! word-alignment features φ1..φ7 and three online structural features.
//!
//! Notation: `S`/`T` are the source/target sub-trees, `in(S)` the words of
//! S's span, `out(S)` the other words of the sentence, `P(v|u)` the
//! probability of target word `v` given source word `u`, `P(u|v)` the
//! reverse, and `δ(u,v)` 1 when the word alignment links `u` and `v`.
//!
//! All lexical lookups are done once per sentence pair into dense matrices
//! ([`LexicalMatrices`]); each feature is then a sum over word positions, so a
//! candidate costs O(|S|·|T|) and no string hashing.
//!
//! A product over words is zero as soon as one word has no translation
//! probability; like GIZA++-based tools, sums are floored at [`PROB_FLOOR`] so
//! that one unknown word lowers a feature instead of zeroing it.
//!
//! # Examples
//! ```
//! use treelink::align::features::{LexicalMatrices, PlainFeatures};
//! use treelink::tree::{NodeId, Tree};
//! let s = Tree::parse_one("(S (NP (ART das) (NN Haus)) (VVFIN steht))", "s").unwrap();
//! let t = Tree::parse_one("(S (NP (DT the) (NN house)) (VBZ stands))", "t").unwrap();
//! // P(t|s) and P(s|t): 0.5 on the diagonal, 0.1 elsewhere; word links on the diagonal.
//! let diag = |i: usize, j: usize| if i == j { 0.5 } else { 0.1 };
//! let m = LexicalMatrices::from_fn(3, 3, diag, diag, &[(0, 0), (1, 1), (2, 2)]);
//! let f = PlainFeatures::compute(&s, NodeId::new(1), &t, NodeId::new(1), &m);
//! // φ1: for each target word in the NP, sum P(u|v) over source words in the NP (0.5 + 0.1),
//! // geometric mean over the 2 target words = 0.6.
//! assert!((f.lexical[0] - 0.6).abs() < 1e-12);
//! ```

use serde::{Deserialize, Serialize};

use crate::tree::{NodeId, Tree};

/// Lower bound of a sum of probabilities inside a product (see the module doc).
pub const PROB_FLOOR: f64 = 1e-7;

/// Number of plain features: φ1..φ7 then the three structural ones.
pub const N_PLAIN: usize = 10;

/// How φ5–φ7 weigh a word link `δ(u,v) = 1`.
///
/// The paper (§4.1) weighs each by `sqrt(P(u|v)·P(v|u))`, right for links an
/// aligner drew from that lexicon. Links given with a treebank (its STA word
/// links, another aligner's) are evidence of their own, and a lexicon trained
/// without the pair barely knows many linked words: weighed by it, most of
/// their evidence is lost. Counted as 1 each, as Lingua-Align's `moses`
/// features count them, they lift F by 8.5 (SQUOIA) and 11 (nl-en) points
/// (docs/alignment-results.md); with the engine's own links the two weights
/// are level. A model records the weight it was trained with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkWeight {
    /// `sqrt(P(u|v)·P(v|u))` (§4.1): the engine's own word links.
    #[default]
    Lexicon,
    /// 1: word links given with the training pairs.
    Unit,
}

impl LinkWeight {
    /// Whether it is the paper's (models that keep it leave it out of the file).
    pub fn is_lexicon(&self) -> bool {
        *self == LinkWeight::Lexicon
    }
}

/// Lexical probabilities and word links of one sentence pair, by position.
#[derive(Debug, Clone, PartialEq)]
pub struct LexicalMatrices {
    n_src: usize,
    n_trg: usize,
    /// `P(v_j | u_i)` at `i * n_trg + j`.
    p_t_given_s: Vec<f64>,
    /// `P(u_i | v_j)` at `i * n_trg + j`.
    p_s_given_t: Vec<f64>,
    /// `δ(u_i, v_j)` at `i * n_trg + j`.
    aligned: Vec<bool>,
    /// `P(u_i | NULL)` and `P(v_j | NULL)` (0 unless [`with_null`](Self::with_null) set them;
    /// the paper's features do not read them).
    s_given_null: Vec<f64>,
    t_given_null: Vec<f64>,
    /// Whether each source / target word is unknown to the lexicon's tables.
    unknown_src: Vec<bool>,
    unknown_trg: Vec<bool>,
    /// How φ5–φ7 weigh a link.
    link_weight: LinkWeight,
}

impl LexicalMatrices {
    /// Builds the matrices from lookups by position (`i` source, `j` target)
    /// and the word links `(i, j)` of the pair (links out of range are ignored).
    pub fn from_fn(
        n_src: usize,
        n_trg: usize,
        p_t_given_s: impl Fn(usize, usize) -> f64,
        p_s_given_t: impl Fn(usize, usize) -> f64,
        links: &[(usize, usize)],
    ) -> Self {
        let mut m = LexicalMatrices {
            n_src,
            n_trg,
            p_t_given_s: Vec::with_capacity(n_src * n_trg),
            p_s_given_t: Vec::with_capacity(n_src * n_trg),
            aligned: vec![false; n_src * n_trg],
            s_given_null: vec![0.0; n_src],
            t_given_null: vec![0.0; n_trg],
            unknown_src: vec![false; n_src],
            unknown_trg: vec![false; n_trg],
            link_weight: LinkWeight::Lexicon,
        };
        for i in 0..n_src {
            for j in 0..n_trg {
                m.p_t_given_s.push(p_t_given_s(i, j));
                m.p_s_given_t.push(p_s_given_t(i, j));
            }
        }
        for &(i, j) in links {
            if i < n_src && j < n_trg {
                m.aligned[i * n_trg + j] = true;
            }
        }
        m
    }

    /// Sets `P(u_i | NULL)` and `P(v_j | NULL)` by position (missing positions 0).
    pub fn with_null(mut self, s_given_null: impl Fn(usize) -> f64, t_given_null: impl Fn(usize) -> f64) -> Self {
        self.s_given_null = (0..self.n_src).map(s_given_null).collect();
        self.t_given_null = (0..self.n_trg).map(t_given_null).collect();
        self
    }

    /// Sets how φ5–φ7 weigh a link (the paper's [`LinkWeight::Lexicon`] unless set).
    pub fn with_link_weight(mut self, weight: LinkWeight) -> Self {
        self.link_weight = weight;
        self
    }

    /// The weight φ5–φ7 give the pair `(u_i, v_j)`: 0 unless linked, then
    /// as [`LinkWeight`] says.
    pub fn link(&self, i: usize, j: usize) -> f64 {
        match (self.aligned(i, j), self.link_weight) {
            (false, _) => 0.0,
            (true, LinkWeight::Lexicon) => (self.p_s_given_t(i, j) * self.p_t_given_s(i, j)).sqrt(),
            (true, LinkWeight::Unit) => 1.0,
        }
    }

    /// Marks the words the lexicon does not know.
    pub fn with_unknown(mut self, src: Vec<bool>, trg: Vec<bool>) -> Self {
        self.unknown_src = src;
        self.unknown_trg = trg;
        self
    }

    pub fn unknown_src(&self, i: usize) -> bool {
        self.unknown_src.get(i).copied().unwrap_or(false)
    }

    pub fn unknown_trg(&self, j: usize) -> bool {
        self.unknown_trg.get(j).copied().unwrap_or(false)
    }

    /// `P(u_i | NULL)`.
    pub fn p_s_given_null(&self, i: usize) -> f64 {
        self.s_given_null.get(i).copied().unwrap_or(0.0)
    }

    /// `P(v_j | NULL)`.
    pub fn p_t_given_null(&self, j: usize) -> f64 {
        self.t_given_null.get(j).copied().unwrap_or(0.0)
    }

    pub fn n_src(&self) -> usize {
        self.n_src
    }

    pub fn n_trg(&self) -> usize {
        self.n_trg
    }

    /// `P(v_j | u_i)`.
    pub fn p_t_given_s(&self, i: usize, j: usize) -> f64 {
        self.p_t_given_s[i * self.n_trg + j]
    }

    /// `P(u_i | v_j)`.
    pub fn p_s_given_t(&self, i: usize, j: usize) -> f64 {
        self.p_s_given_t[i * self.n_trg + j]
    }

    /// `δ(u_i, v_j)`.
    pub fn aligned(&self, i: usize, j: usize) -> bool {
        self.aligned[i * self.n_trg + j]
    }
}

/// The plain features of one candidate pair.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlainFeatures {
    /// φ1..φ7 of §4.1.
    pub lexical: [f64; 7],
    /// Span, descendant and depth differences of §4.2.
    pub structural: [f64; 3],
}

/// One plain feature, by name: φ1..φ7 (§4.1) and the three structural
/// differences (§4.2), in [`PlainFeatures::to_vec`] order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlainFeature {
    Phi1,
    Phi2,
    Phi3,
    Phi4,
    Phi5,
    Phi6,
    Phi7,
    SpanDifference,
    DescendantDifference,
    DepthDifference,
}

impl PlainFeature {
    /// Its place in [`PlainFeatures::to_vec`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its short name, as the explanation panel shows it.
    pub fn name(self) -> &'static str {
        FEATURE_NAMES[self.index()]
    }
}

/// Short names of the plain features, in [`PlainFeatures::to_vec`] order.
pub const FEATURE_NAMES: [&str; N_PLAIN] = [
    "φ1 inside P(s|t)",
    "φ2 inside P(t|s)",
    "φ3 source outside P(s|t)",
    "φ4 target outside P(t|s)",
    "φ5 word links inside both",
    "φ6 word links out of S into T",
    "φ7 word links from S out of T",
    "span difference",
    "descendant difference",
    "depth difference",
];

impl PlainFeatures {
    /// The value of `feature`.
    pub fn get(&self, feature: PlainFeature) -> f64 {
        match feature.index() {
            i @ 0..7 => self.lexical[i],
            i => self.structural[i - 7],
        }
    }
}

/// Positions of a half-open span and of its complement in `0..n`.
fn inside_outside(span: std::ops::Range<usize>, n: usize) -> (Vec<usize>, Vec<usize>) {
    let inside: Vec<usize> = span.clone().collect();
    let outside: Vec<usize> = (0..n).filter(|i| !span.contains(i)).collect();
    (inside, outside)
}

/// `(∏_{y ∈ ys} max(floor, Σ_{x ∈ xs} p(x, y)))^(1/|ys|)`, computed in log space;
/// 0 when `xs` or `ys` is empty.
fn geometric_mean_of_sums(ys: &[usize], xs: &[usize], p: impl Fn(usize, usize) -> f64) -> f64 {
    if ys.is_empty() || xs.is_empty() {
        return 0.0;
    }
    let log_sum: f64 =
        ys.iter().map(|&y| xs.iter().map(|&x| p(x, y)).sum::<f64>().max(PROB_FLOOR)).map(crate::math::ln).sum();
    crate::math::exp(log_sum / ys.len() as f64)
}

/// `Σ_{u∈us} Σ_{v∈vs} δ(u,v)·w(u,v) / sqrt(|us|·|vs|)`, `w` the matrices'
/// [`LinkWeight`] (§4.1: `sqrt(P(u|v)·P(v|u))`); 0 when either is empty.
fn word_alignment_feature(m: &LexicalMatrices, us: &[usize], vs: &[usize]) -> f64 {
    if us.is_empty() || vs.is_empty() {
        return 0.0;
    }
    let sum: f64 = us.iter().flat_map(|&u| vs.iter().map(move |&v| m.link(u, v))).sum();
    sum / ((us.len() * vs.len()) as f64).sqrt()
}

/// `x / whole`, 0 when `whole` is 0.
fn ratio(x: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        x as f64 / whole as f64
    }
}

impl PlainFeatures {
    /// The features of the candidate (source node `s` of `src`, target node
    /// `t` of `trg`) with the pair's lexical matrices.
    pub fn compute(src: &Tree, s: NodeId, trg: &Tree, t: NodeId, m: &LexicalMatrices) -> Self {
        let (in_s, out_s) = inside_outside(src.span(s), m.n_src);
        let (in_t, out_t) = inside_outside(trg.span(t), m.n_trg);
        let p_s_t = |u: usize, v: usize| m.p_s_given_t(u, v);
        let p_t_s = |v: usize, u: usize| m.p_t_given_s(u, v);
        let lexical = [
            // φ1(S|T) = (∏_{v∈in(T)} Σ_{u∈in(S)} P(u|v))^(1/|in(T)|)
            geometric_mean_of_sums(&in_t, &in_s, p_s_t),
            // φ2(T|S) = (∏_{u∈in(S)} Σ_{v∈in(T)} P(v|u))^(1/|in(S)|)
            geometric_mean_of_sums(&in_s, &in_t, p_t_s),
            // φ3(S|T): source words outside S.
            geometric_mean_of_sums(&in_t, &out_s, p_s_t),
            // φ4(T|S): target words outside T.
            geometric_mean_of_sums(&in_s, &out_t, p_t_s),
            // φ5: links inside both spans.
            word_alignment_feature(m, &in_s, &in_t),
            // φ6: links from outside S into T.
            word_alignment_feature(m, &out_s, &in_t),
            // φ7: links from inside S to outside T.
            word_alignment_feature(m, &in_s, &out_t),
        ];
        PlainFeatures { lexical, structural: structural_features(src, s, trg, t) }
    }

    /// The features as one vector: φ1..φ7 then the structural ones.
    pub fn to_vec(&self) -> [f64; N_PLAIN] {
        let mut v = [0.0; N_PLAIN];
        v[..7].copy_from_slice(&self.lexical);
        v[7..].copy_from_slice(&self.structural);
        v
    }
}

/// §4.2: span difference, descendant-count difference and depth difference,
/// each side normalised by its whole tree: `|a_S/a_𝐒 − a_T/a_𝐓|`.
/// Depth is normalised by the tree's height in edges (the deepest node's depth).
pub fn structural_features(src: &Tree, s: NodeId, trg: &Tree, t: NodeId) -> [f64; 3] {
    let span = |tree: &Tree, n: NodeId| ratio(tree.span(n).len(), tree.words().len());
    let descendants = |tree: &Tree, n: NodeId| ratio(tree.descendants(n).len(), tree.descendants(NodeId::ROOT).len());
    let depth = |tree: &Tree, n: NodeId| ratio(tree.depth(n), tree.height(NodeId::ROOT) - 1);
    [
        (span(src, s) - span(trg, t)).abs(),
        (descendants(src, s) - descendants(trg, t)).abs(),
        (depth(src, s) - depth(trg, t)).abs(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn worked_example_of_all_ten_features() {
        // Source: u0 u1 u2 (NP = u0 u1), target: v0 v1 v2 v3 (NP = v1 v2).
        let s = Tree::parse_one("(S (NP (A u0) (B u1)) (C u2))", "s").unwrap();
        let t = Tree::parse_one("(S (D v0) (NP (E v1) (F v2)) (G v3))", "t").unwrap();
        // P(v_j|u_i) = pts[i][j], P(u_i|v_j) = pst[i][j].
        let pts = [[0.1, 0.6, 0.1, 0.0], [0.0, 0.2, 0.5, 0.0], [0.3, 0.0, 0.0, 0.4]];
        let pst = [[0.2, 0.7, 0.1, 0.0], [0.0, 0.1, 0.8, 0.0], [0.5, 0.1, 0.0, 0.6]];
        let links = [(0, 1), (1, 2), (2, 3)];
        let m = LexicalMatrices::from_fn(3, 4, |i, j| pts[i][j], |i, j| pst[i][j], &links);
        let f = PlainFeatures::compute(&s, NodeId::new(1), &t, NodeId::new(2), &m);
        // in(S) = {0,1}, out(S) = {2}; in(T) = {1,2}, out(T) = {0,3}.
        // φ1 = sqrt((pst[0][1]+pst[1][1]) · (pst[0][2]+pst[1][2])) = sqrt(0.8 · 0.9)
        assert!(close(f.lexical[0], (0.8f64 * 0.9).sqrt()));
        // φ2 = sqrt((pts[0][1]+pts[0][2]) · (pts[1][1]+pts[1][2])) = sqrt(0.7 · 0.7)
        assert!(close(f.lexical[1], 0.7));
        // φ3 = sqrt(pst[2][1] · max(floor, pst[2][2])) = sqrt(0.1 · 1e-7)
        assert!(close(f.lexical[2], (0.1 * PROB_FLOOR).sqrt()));
        // φ4 = sqrt((pts[0][0]+pts[0][3]) · (pts[1][0]+pts[1][3])) = sqrt(0.1 · floor)
        assert!(close(f.lexical[3], (0.1 * PROB_FLOOR).sqrt()));
        // φ5: links (0,1) and (1,2) inside both: (sqrt(.7·.6) + sqrt(.8·.5)) / sqrt(2·2)
        assert!(close(f.lexical[4], ((0.7f64 * 0.6).sqrt() + (0.8f64 * 0.5).sqrt()) / 2.0));
        // φ6: no link from u2 into {v1, v2}.
        assert!(close(f.lexical[5], 0.0));
        // φ7: no link from {u0,u1} to {v0,v3}.
        assert!(close(f.lexical[6], 0.0));
        // Span: |2/3 − 2/4|; descendants: |2/4 − 2/5|; depth: |1/2 − 1/2|.
        assert!(close(f.structural[0], 2.0 / 3.0 - 0.5));
        assert!(close(f.structural[1], 0.5 - 2.0 / 5.0));
        assert!(close(f.structural[2], 0.0));
        // The link (2,3) is outside both spans; moving T to G (v3) makes it φ6.
        let g = PlainFeatures::compute(&s, NodeId::new(1), &t, NodeId::new(5), &m);
        assert!(close(g.lexical[5], (0.6f64 * 0.4).sqrt()));
        let c = PlainFeatures::compute(&s, NodeId::new(4), &t, NodeId::new(5), &m); // C (u2) with G (v3)
        assert!(close(c.lexical[4], (0.6f64 * 0.4).sqrt()));
        // Given links count 1 each: φ5 = 2 / sqrt(2·2); φ6 of (NP, G) = 1 / sqrt(1·1); φ1–φ4 unchanged.
        let unit = m.clone().with_link_weight(LinkWeight::Unit);
        let fu = PlainFeatures::compute(&s, NodeId::new(1), &t, NodeId::new(2), &unit);
        assert_eq!((fu.lexical[..4].to_vec(), &fu.lexical[4..]), (f.lexical[..4].to_vec(), &[1.0, 0.0, 0.0][..]));
        let gu = PlainFeatures::compute(&s, NodeId::new(1), &t, NodeId::new(5), &unit);
        assert_eq!(gu.lexical[5], 1.0);
    }

    #[test]
    fn root_pairs_have_no_outside_words() {
        let s = Tree::parse_one("(X (A a))", "s").unwrap();
        let m = LexicalMatrices::from_fn(1, 1, |_, _| 1.0, |_, _| 1.0, &[(0, 0)]);
        let f = PlainFeatures::compute(&s, NodeId::new(0), &s, NodeId::new(0), &m);
        assert_eq!(f.lexical, [1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!(f.structural, [0.0, 0.0, 0.0]);
    }
}
