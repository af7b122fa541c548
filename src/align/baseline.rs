//! The baseline of paper §6.2: Tinsley, Zhechev, Hearne & Way (2007),
//! "Robust language pair-independent sub-tree alignment" (Zhechev's
//! Sub-Tree Aligner).
//!
//! Every (source node, target node) pair is a hypothesis scored from lexical
//! translation probabilities over the inside spans (`s_l`, `t_l`) and the
//! outside words (`s̄_l`, `t̄_l`):
//!
//! `γ(s, t) = α(s_l|t_l) · α(t_l|s_l) · α(s̄_l|t̄_l) · α(t̄_l|s̄_l)`
//!
//! with, for word strings `x` and `y`,
//! - score function 1 (`s1`): `α(x|y) = ∏_i Σ_j P(x_i|y_j)`;
//! - score function 2 (`s2`): `α(x|y) = ∏_i (1/|y|) Σ_j P(x_i|y_j)`.
//!
//! # Readings of the original tool
//! The formula alone collapses on the tables most users have (Moses `lex`
//! files: relative frequencies of word links, NULL included): one word
//! with no linked translation in `y` zeroes the product, so most
//! hypotheses — the whole-sentence pair first — are pruned (recall 0 on the
//! nl-en sample with its own Moses tables). The original aligner avoids this
//! in three ways, which [`NullWord::Both`] and [`UnaryChains::Merged`] (the
//! defaults) follow:
//! - **NULL on both sides.** `y` is extended with the empty word, so
//!   `Σ_j` includes `P(x_i|NULL)`: a word that its lexicon often leaves
//!   unaligned explains itself. `x` is extended with NULL as well, whose
//!   factor is `Σ_j P(NULL|y_j)` (1 when that sum is 0: NULL generates
//!   NULL). With `s2` both sums are divided by `|y| + 1`.
//! - **Unknown words are skipped.** A word of `x` that the table never
//!   generates contributes no factor (tokenisations of the lexicon's corpus
//!   and of the trees differ); a word of `y` it never conditions on adds 0.
//!   So is a word with no translation in the whole other sentence and no
//!   `P(x|NULL)`: it would zero every hypothesis alike (a held-out sentence's
//!   word that never met the other side's words in training).
//!   A product is 0 only when a known word has no translation in `y` and
//!   never went unaligned; such hypotheses are pruned.
//! - **Unary chains are one node.** A node with a single child covers the
//!   same words, so every hypothesis through a chain of such nodes scores
//!   the same; skip2 then skips them all as ties and blocks their nodes.
//!   Chains are merged into one candidate; a link between two chains links
//!   their phrase nodes pairwise from the top (and their POS nodes, if both
//!   end in one), or, when one chain has no phrase node, the chains' tops.
//!
//! An empty `x` and empty `y` give 1. Hypotheses scoring 0 are pruned. The
//! search then repeatedly takes the best hypothesis and blocks those that
//! contradict it under the three well-formedness criteria ([`super::greedy`]),
//! with optional heuristics:
//! - `skip1`: skip hypotheses tied with another at the same score; take the
//!   best one that has no tie;
//! - `skip2`: as skip1, and the taken one's nodes must not belong to any
//!   skipped (tied) hypothesis;
//! - `span1`: postpone hypotheses where either node spans a single word (POS
//!   level) until no other hypothesis remains.
//!
//! When every remaining hypothesis is excluded by skip1/skip2, the best one is
//! taken, so the search always ends with every hypothesis linked or blocked.
//! Scores are compared in log space, so long sentences do not underflow
//! ([`crate::math::ln`], so natively and in wasm the same bits).
//!
//! Cost: O((n_s + n_t)·|s|·|t|) per tree pair for the factors each node
//! contributes, then O(n_s·n_t·(|s|+|t|)) for the scores (every node pair,
//! a look-up per word), then O(h·L) for h hypotheses and L links.
//!
//! # Examples
//! A Moses-style table where `Haus` was once left unaligned: its word has
//! no translation in the target sentence, yet the sentence pair is a
//! hypothesis, because `P(haus|NULL)` explains it.
//! ```
//! use treelink::align::baseline::{baseline_links, BaselineOptions};
//! use treelink::corpus::TreePair;
//! use treelink::lexicon::{LexTable, Lexicon};
//! use treelink::tree::Tree;
//! let source = Tree::parse_one("(S (NP (ART das) (NN Haus)) (VVFIN steht))", "s").unwrap();
//! let target = Tree::parse_one("(S (NP (DT the) (NN building)) (VBZ stands))", "t").unwrap();
//! // p(t|s) and p(s|t) as Moses counts them: das-the, steht-stands, Haus unaligned once.
//! let s2t = LexTable::from_entries([("the", "das", 1.0), ("stands", "steht", 1.0), ("NULL", "haus", 1.0)], true);
//! let t2s = LexTable::from_entries(
//!     [("das", "the", 1.0), ("steht", "stands", 1.0), ("haus", "NULL", 1.0), ("NULL", "building", 1.0)],
//!     true,
//! );
//! let pair = TreePair { source, target, gold: Vec::new() };
//! let links = baseline_links(&Lexicon::new(s2t, t2s), &pair, &BaselineOptions::default());
//! let pairs: Vec<(usize, usize)> = links.iter().map(|l| (l.source.index(), l.target.index())).collect();
//! assert_eq!(pairs, [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]);
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::greedy::first_conflict;
use crate::corpus::TreePair;
use crate::io::links::Link;
use crate::kernel::UnknownName;
use crate::lexicon::{Lexicon, NULL};
use crate::tree::{NodeId, Tree};

/// Tinsley et al.'s two score functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ScoreFunction {
    #[default]
    S1,
    S2,
}

impl FromStr for ScoreFunction {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s {
            "s1" => Ok(ScoreFunction::S1),
            "s2" => Ok(ScoreFunction::S2),
            _ => Err(UnknownName { what: "score function", found: s.into(), expected: "s1, s2".into() }),
        }
    }
}

impl fmt::Display for ScoreFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScoreFunction::S1 => "s1",
            ScoreFunction::S2 => "s2",
        })
    }
}

/// The search heuristics; any combination may be on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Heuristics {
    pub skip1: bool,
    pub skip2: bool,
    pub span1: bool,
}

impl FromStr for Heuristics {
    type Err = UnknownName;
    /// A comma-separated list such as `skip2,span1` (empty: none).
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        let mut h = Heuristics::default();
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "skip1" => h.skip1 = true,
                "skip2" => h.skip2 = true,
                "span1" => h.span1 = true,
                _ => {
                    return Err(UnknownName {
                        what: "heuristic",
                        found: name.into(),
                        expected: "skip1, skip2, span1".into(),
                    })
                }
            }
        }
        Ok(h)
    }
}

impl fmt::Display for Heuristics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = [(self.skip1, "skip1"), (self.skip2, "skip2"), (self.span1, "span1")]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
        f.write_str(&names.join(","))
    }
}

/// How the empty word enters `α(x|y)` (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum NullWord {
    /// The formula as printed: no NULL, unknown words count as probability 0.
    Off,
    /// `y` is extended with NULL (`Σ_j` includes `P(x_i|NULL)`); unknown words skipped.
    Generating,
    /// As `Generating`, and `x` is extended with NULL too (the original tool).
    #[default]
    Both,
}

/// Whether unary chains are one candidate (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum UnaryChains {
    /// Every node is a candidate of its own.
    Separate,
    /// A chain of single-child nodes is one candidate (the original tool).
    #[default]
    Merged,
}

/// The baseline's settings. The defaults are the paper's best
/// (`skip2_s1_span1`) with the original tool's readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineOptions {
    pub score: ScoreFunction,
    pub heuristics: Heuristics,
    pub null: NullWord,
    pub unary: UnaryChains,
}

impl Default for BaselineOptions {
    fn default() -> Self {
        BaselineOptions {
            score: ScoreFunction::S1,
            heuristics: Heuristics { skip1: false, skip2: true, span1: true },
            null: NullWord::Both,
            unary: UnaryChains::Merged,
        }
    }
}

/// The lexical probabilities of one sentence pair that the scores read,
/// NULL included, by word position (`i` source, `j` target).
#[derive(Debug, Clone, PartialEq)]
pub struct PairLexicon {
    n_src: usize,
    n_trg: usize,
    /// `P(s_i|t_j)` and `P(t_j|s_i)` at `i * n_trg + j`.
    s_given_t: Vec<f64>,
    t_given_s: Vec<f64>,
    /// `P(s_i|NULL)`, `P(NULL|s_i)`, and whether `s_i` is a word the table `P(s|t)` generates.
    s_given_null: Vec<f64>,
    null_given_s: Vec<f64>,
    s_known: Vec<bool>,
    /// The same for the target words.
    t_given_null: Vec<f64>,
    null_given_t: Vec<f64>,
    t_known: Vec<bool>,
}

impl PairLexicon {
    /// Looks up every probability of the pair `source`/`target` once.
    pub fn new<S: AsRef<str>, T: AsRef<str>>(lexicon: &Lexicon, source: &[S], target: &[T]) -> Self {
        let probs = lexicon.pair_probs(source, target);
        let (n_src, n_trg) = (source.len(), target.len());
        let mut m = PairLexicon {
            n_src,
            n_trg,
            s_given_t: Vec::with_capacity(n_src * n_trg),
            t_given_s: Vec::with_capacity(n_src * n_trg),
            s_given_null: (0..n_src).map(|i| probs.p_s_given_null(i)).collect(),
            null_given_s: source.iter().map(|w| lexicon.s2t.prob(NULL, w.as_ref())).collect(),
            s_known: source.iter().map(|w| lexicon.t2s.x_id(w.as_ref()).is_some()).collect(),
            t_given_null: (0..n_trg).map(|j| probs.p_t_given_null(j)).collect(),
            null_given_t: target.iter().map(|w| lexicon.t2s.prob(NULL, w.as_ref())).collect(),
            t_known: target.iter().map(|w| lexicon.s2t.x_id(w.as_ref()).is_some()).collect(),
        };
        for i in 0..n_src {
            for j in 0..n_trg {
                m.s_given_t.push(probs.p_s_given_t(i, j));
                m.t_given_s.push(probs.p_t_given_s(i, j));
            }
        }
        // A word with no translation anywhere in the other sentence, and never
        // left unaligned, would zero every hypothesis (inside or outside, it
        // meets the same nothing): it tells them nothing apart, so it is
        // skipped as an unknown word is. Seen on held-out sentences, whose
        // known words may never have met the other side's words in training.
        for i in 0..n_src {
            let row = &m.s_given_t[i * n_trg..(i + 1) * n_trg];
            m.s_known[i] &= row.iter().sum::<f64>() + m.s_given_null[i] > 0.0;
        }
        for j in 0..n_trg {
            let column = (0..n_src).map(|i| m.t_given_s[i * n_trg + j]).sum::<f64>();
            m.t_known[j] &= column + m.t_given_null[j] > 0.0;
        }
        m
    }

    /// From lookups by position, with no NULL entries and every word known
    /// (for worked examples).
    pub fn from_fn(
        n_src: usize,
        n_trg: usize,
        p_t_given_s: impl Fn(usize, usize) -> f64,
        p_s_given_t: impl Fn(usize, usize) -> f64,
    ) -> Self {
        let cells = (0..n_src).flat_map(|i| (0..n_trg).map(move |j| (i, j)));
        PairLexicon {
            n_src,
            n_trg,
            s_given_t: cells.clone().map(|(i, j)| p_s_given_t(i, j)).collect(),
            t_given_s: cells.map(|(i, j)| p_t_given_s(i, j)).collect(),
            s_given_null: vec![0.0; n_src],
            null_given_s: vec![0.0; n_src],
            s_known: vec![true; n_src],
            t_given_null: vec![0.0; n_trg],
            null_given_t: vec![0.0; n_trg],
            t_known: vec![true; n_trg],
        }
    }
}

/// One direction of the scores: `P(x|y)` with `x` on one side and `y` on the other.
struct Direction<'a> {
    /// `P(x|y)` at `i * n_trg + j` of the source position `i` and target position `j`.
    table: &'a [f64],
    n_trg: usize,
    /// Whether `x` is the source side (else `x` is the target side).
    x_is_source: bool,
    x_given_null: &'a [f64],
    null_given_y: &'a [f64],
    x_known: &'a [bool],
}

impl Direction<'_> {
    /// `P(x|y)`; 0 outside the pair.
    fn p(&self, x: usize, y: usize) -> f64 {
        let (i, j) = if self.x_is_source { (x, y) } else { (y, x) };
        self.table.get(i * self.n_trg + j).copied().unwrap_or(0.0)
    }
}

impl PairLexicon {
    /// The two directions: `P(s|t)` and `P(t|s)`.
    fn directions(&self) -> (Direction<'_>, Direction<'_>) {
        let s_given_t = Direction {
            table: &self.s_given_t,
            n_trg: self.n_trg,
            x_is_source: true,
            x_given_null: &self.s_given_null,
            null_given_y: &self.null_given_t,
            x_known: &self.s_known,
        };
        let t_given_s = Direction {
            table: &self.t_given_s,
            n_trg: self.n_trg,
            x_is_source: false,
            x_given_null: &self.t_given_null,
            null_given_y: &self.null_given_s,
            x_known: &self.t_known,
        };
        (s_given_t, t_given_s)
    }
}

/// `ln α(x|y)` for positions `xs`, `ys` (see the module doc); `-inf` for 0.
fn ln_alpha(xs: &[usize], ys: &[usize], d: &Direction<'_>, function: ScoreFunction, null: NullWord) -> f64 {
    if null == NullWord::Off {
        let norm = match function {
            ScoreFunction::S1 => 1.0,
            ScoreFunction::S2 => ys.len() as f64,
        };
        return xs.iter().map(|&x| crate::math::ln(ys.iter().map(|&y| d.p(x, y)).sum::<f64>() / norm)).sum();
    }
    if xs.is_empty() && ys.is_empty() {
        return 0.0;
    }
    // |y| + 1: the words of y and NULL.
    let norm = match function {
        ScoreFunction::S1 => 1.0,
        ScoreFunction::S2 => (ys.len() + 1) as f64,
    };
    let mut ln = 0.0;
    for &x in xs.iter().filter(|&&x| d.x_known.get(x).copied().unwrap_or(false)) {
        let sum = ys.iter().map(|&y| d.p(x, y)).sum::<f64>() + d.x_given_null.get(x).copied().unwrap_or(0.0);
        if sum <= 0.0 {
            return f64::NEG_INFINITY;
        }
        ln += crate::math::ln(sum / norm);
    }
    if null == NullWord::Both {
        let sum: f64 = ys.iter().map(|&y| d.null_given_y.get(y).copied().unwrap_or(0.0)).sum();
        // NULL generates NULL when no word of y was ever left unaligned.
        ln += crate::math::ln(if sum > 0.0 { sum } else { 1.0 } / norm);
    }
    ln
}

/// `ln γ(s, t)`; `-inf` for a zero score.
pub fn ln_score(
    src: &Tree,
    s: NodeId,
    trg: &Tree,
    t: NodeId,
    m: &PairLexicon,
    function: ScoreFunction,
    null: NullWord,
) -> f64 {
    let split =
        |span: std::ops::Range<usize>, n: usize| -> (Vec<usize>, Vec<usize>) { (0..n).partition(|i| span.contains(i)) };
    let (s_in, s_out) = split(src.span(s), m.n_src);
    let (t_in, t_out) = split(trg.span(t), m.n_trg);
    let (s_given_t, t_given_s) = m.directions();
    let score = ln_alpha(&s_in, &t_in, &s_given_t, function, null)
        + ln_alpha(&t_in, &s_in, &t_given_s, function, null)
        + ln_alpha(&s_out, &t_out, &s_given_t, function, null)
        + ln_alpha(&t_out, &s_out, &t_given_s, function, null);
    if score.is_nan() {
        f64::NEG_INFINITY
    } else {
        score
    }
}

/// The factors of one `ln α(x|y)` term for every node of the `y` tree: per
/// node, `ln` of each `x` word's sum over the node's inside (or outside)
/// words, and the NULL factor, each summed in the order [`ln_alpha`] sums.
/// A hypothesis's `ln α` is then the sum of its `x` words' looked-up
/// factors, in `ln_alpha`'s order, so it is bit-identical to it at O(|x|)
/// instead of O(|x|·|y|) (a 200-word pair: minutes to about a second).
struct NodeTerms {
    /// Words on the `x` side (the row length).
    n_x: usize,
    /// `ln(Σ_y P(x|y) [+ P(x|NULL)] / norm)`, or `-inf` for a zero sum, at `node * n_x + x`.
    ln: Vec<f64>,
    /// The NULL factor `ln(Σ_y P(NULL|y) / norm)` (1 for a zero sum) per node.
    ln_null: Vec<f64>,
    /// Whether the node's `y` words are none.
    y_empty: Vec<bool>,
}

impl NodeTerms {
    /// Terms against the `y` words of each node of `tree`: its inside (`inside`) or outside words.
    fn new(
        tree: &Tree,
        inside: bool,
        n_x: usize,
        n_y: usize,
        d: &Direction<'_>,
        function: ScoreFunction,
        null: NullWord,
    ) -> Self {
        let mut t =
            NodeTerms { n_x, ln: Vec::with_capacity(tree.len() * n_x), ln_null: Vec::new(), y_empty: Vec::new() };
        for node in tree.node_ids() {
            let span = tree.span(node);
            let ys: Vec<usize> = (0..n_y).filter(|y| span.contains(y) == inside).collect();
            let words = if null == NullWord::Off { ys.len() } else { ys.len() + 1 };
            let norm = match function {
                ScoreFunction::S1 => 1.0,
                ScoreFunction::S2 => words as f64,
            };
            t.ln.extend((0..n_x).map(|x| {
                let sum = ys.iter().map(|&y| d.p(x, y)).sum::<f64>();
                if null == NullWord::Off {
                    return crate::math::ln(sum / norm);
                }
                let sum = sum + d.x_given_null.get(x).copied().unwrap_or(0.0);
                if sum <= 0.0 {
                    f64::NEG_INFINITY
                } else {
                    crate::math::ln(sum / norm)
                }
            }));
            let sum: f64 = ys.iter().map(|&y| d.null_given_y.get(y).copied().unwrap_or(0.0)).sum();
            t.ln_null.push(crate::math::ln(if sum > 0.0 { sum } else { 1.0 } / norm));
            t.y_empty.push(ys.is_empty());
        }
        t
    }

    /// `ln α(xs | node's words)`, as [`ln_alpha`] computes it.
    fn ln_alpha(&self, node: NodeId, xs: &[usize], d: &Direction<'_>, null: NullWord) -> f64 {
        let row = &self.ln[node.index() * self.n_x..(node.index() + 1) * self.n_x];
        if null == NullWord::Off {
            return xs.iter().map(|&x| row[x]).sum();
        }
        if xs.is_empty() && self.y_empty[node.index()] {
            return 0.0;
        }
        let mut ln = 0.0;
        for &x in xs.iter().filter(|&&x| d.x_known.get(x).copied().unwrap_or(false)) {
            // A zero sum makes `ln_alpha` return -inf; adding -inf here gives the same.
            ln += row[x];
        }
        if null == NullWord::Both {
            ln += self.ln_null[node.index()];
        }
        ln
    }
}

/// `ln γ` of every pair of a source node in `sources` and a target node in
/// `targets`, as [`ln_score`] gives it, through [`NodeTerms`].
fn ln_scores(
    src: &Tree,
    sources: &[NodeId],
    trg: &Tree,
    targets: &[NodeId],
    m: &PairLexicon,
    function: ScoreFunction,
    null: NullWord,
) -> Vec<Hypothesis> {
    let (n_src, n_trg) = (m.n_src, m.n_trg);
    let (s_given_t, t_given_s) = m.directions();
    let terms = |tree: &Tree, inside: bool, n_x: usize, n_y: usize, d: &Direction<'_>| {
        NodeTerms::new(tree, inside, n_x, n_y, d, function, null)
    };
    let (t_in, t_out) = (terms(trg, true, n_src, n_trg, &s_given_t), terms(trg, false, n_src, n_trg, &s_given_t));
    let (s_in, s_out) = (terms(src, true, n_trg, n_src, &t_given_s), terms(src, false, n_trg, n_src, &t_given_s));
    let split =
        |span: std::ops::Range<usize>, n: usize| -> (Vec<usize>, Vec<usize>) { (0..n).partition(|i| span.contains(i)) };
    let target_words: Vec<(Vec<usize>, Vec<usize>)> = targets.iter().map(|&t| split(trg.span(t), n_trg)).collect();
    let mut out = Vec::new();
    for &s in sources {
        let (s_words_in, s_words_out) = split(src.span(s), n_src);
        for (&t, (t_words_in, t_words_out)) in targets.iter().zip(&target_words) {
            let score = t_in.ln_alpha(t, &s_words_in, &s_given_t, null)
                + s_in.ln_alpha(s, t_words_in, &t_given_s, null)
                + t_out.ln_alpha(t, &s_words_out, &s_given_t, null)
                + s_out.ln_alpha(s, t_words_out, &t_given_s, null);
            let ln_score = if score.is_nan() { f64::NEG_INFINITY } else { score };
            if ln_score > f64::NEG_INFINITY {
                out.push(Hypothesis { s, t, ln_score });
            }
        }
    }
    out
}

/// The unary chains of a tree: maximal runs of nodes each the only child
/// of the one before, top first. Every node is in exactly one chain; with
/// [`UnaryChains::Separate`] every chain is one node.
fn chains(tree: &Tree, unary: UnaryChains) -> Vec<Vec<NodeId>> {
    let mut out = Vec::new();
    for n in tree.node_ids() {
        let starts = match (unary, tree.parent(n)) {
            (UnaryChains::Separate, _) | (_, None) => true,
            (UnaryChains::Merged, Some(p)) => tree.children(p).len() != 1,
        };
        if starts {
            let mut chain = vec![n];
            while let (UnaryChains::Merged, [only]) = (unary, tree.children(*chain.last().unwrap_or(&n))) {
                chain.push(*only);
            }
            out.push(chain);
        }
    }
    out
}

/// The links a link between two chains stands for (see the module doc).
fn chain_links(src: &Tree, a: &[NodeId], trg: &Tree, b: &[NodeId]) -> Vec<(NodeId, NodeId)> {
    let phrases = |tree: &Tree, c: &[NodeId]| c.iter().copied().filter(|&n| tree.is_phrase(n)).collect::<Vec<_>>();
    let (pa, pb) = (phrases(src, a), phrases(trg, b));
    let mut links: Vec<(NodeId, NodeId)> = pa.iter().copied().zip(pb.iter().copied()).collect();
    match (a.last(), b.last()) {
        (Some(&x), Some(&y)) if !links.is_empty() && src.is_pos(x) && trg.is_pos(y) => links.push((x, y)),
        (Some(_), Some(_)) if links.is_empty() => links.push((a[0], b[0])),
        _ => {}
    }
    links
}

/// A scored hypothesis between two chains (by index), compared by their top nodes.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Hypothesis {
    s: NodeId,
    t: NodeId,
    ln_score: f64,
}

/// Aligns one tree pair with the baseline: returns the links in the order taken.
pub fn tinsley_align(src: &Tree, trg: &Tree, m: &PairLexicon, options: &BaselineOptions) -> Vec<(NodeId, NodeId)> {
    let (src_chains, trg_chains) = (chains(src, options.unary), chains(trg, options.unary));
    // Chains by their top node.
    let chain_at = |cs: &[Vec<NodeId>], top: NodeId| cs.iter().find(|c| c[0] == top).cloned().unwrap_or_default();
    let tops = |cs: &[Vec<NodeId>]| cs.iter().map(|c| c[0]).collect::<Vec<_>>();
    let mut pool = ln_scores(src, &tops(&src_chains), trg, &tops(&trg_chains), m, options.score, options.null);
    pool.sort_by(|a, b| b.ln_score.total_cmp(&a.ln_score).then(a.s.cmp(&b.s)).then(a.t.cmp(&b.t)));
    let single_word = |h: &Hypothesis| src.span(h.s).len() == 1 || trg.span(h.t).len() == 1;
    let mut links = Vec::new();
    while !pool.is_empty() {
        // span1: consider single-word hypotheses only once nothing else is left.
        let phase: Vec<usize> = if options.heuristics.span1 && pool.iter().any(|h| !single_word(h)) {
            (0..pool.len()).filter(|&k| !single_word(&pool[k])).collect()
        } else {
            (0..pool.len()).collect()
        };
        let h = pool[choose(&pool, &phase, options.heuristics)];
        links.extend(chain_links(src, &chain_at(&src_chains, h.s), trg, &chain_at(&trg_chains, h.t)));
        // Chains nest as their tops do, so conflicts are checked on the tops.
        pool.retain(|o| first_conflict(src, trg, (o.s, o.t), &[(h.s, h.t)]).is_none());
    }
    links
}

/// The baseline's links of one tree pair under `lexicon`, sorted (what the
/// `baseline` command writes).
pub fn baseline_links(lexicon: &Lexicon, pair: &TreePair, options: &BaselineOptions) -> Vec<Link> {
    let m = PairLexicon::new(lexicon, pair.source.words(), pair.target.words());
    let mut links: Vec<Link> =
        tinsley_align(&pair.source, &pair.target, &m, options).into_iter().map(|(s, t)| Link::good(s, t)).collect();
    links.sort();
    links
}

/// Index into `pool` of the hypothesis to take among the `candidates` (in score order).
fn choose(pool: &[Hypothesis], candidates: &[usize], heuristics: Heuristics) -> usize {
    if !(heuristics.skip1 || heuristics.skip2) {
        return candidates[0];
    }
    let mut skipped_s = Vec::new();
    let mut skipped_t = Vec::new();
    let mut k = 0;
    while k < candidates.len() {
        // The run of hypotheses tied at this score.
        let score = pool[candidates[k]].ln_score;
        let end = k + candidates[k..].iter().take_while(|&&i| pool[i].ln_score == score).count();
        if end - k == 1 {
            let h = pool[candidates[k]];
            if !heuristics.skip2 || (!skipped_s.contains(&h.s) && !skipped_t.contains(&h.t)) {
                return candidates[k];
            }
        } else {
            for &i in &candidates[k..end] {
                skipped_s.push(pool[i].s);
                skipped_t.push(pool[i].t);
            }
        }
        k = end;
    }
    candidates[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::LexTable;

    fn n(i: usize) -> NodeId {
        NodeId::new(i)
    }

    /// Node pairs by their numbers.
    fn ids(pairs: &[(usize, usize)]) -> Vec<(NodeId, NodeId)> {
        pairs.iter().map(|&(s, t)| (n(s), n(t))).collect()
    }

    fn opts(null: NullWord, unary: UnaryChains, heuristics: &str) -> BaselineOptions {
        BaselineOptions { null, unary, heuristics: heuristics.parse().unwrap(), ..BaselineOptions::default() }
    }

    #[test]
    fn scores_through_node_terms_equal_ln_score_bit_for_bit() {
        for (k, pair) in crate::corpus::sample(..).pairs.into_iter().enumerate().step_by(19).take(6) {
            let (s, t) = (pair.source, pair.target);
            let (n, m) = (s.words().len(), t.words().len());
            // Probabilities with zeros and ties, NULL entries and unknown words.
            let p = |i: usize, j: usize, salt: usize| match (i * 7 + j * 3 + salt) % 5 {
                0 => 0.0,
                r => r as f64 / 10.0 + ((i * j + salt) % 3) as f64 / 1000.0,
            };
            let mut lex = PairLexicon::from_fn(n, m, |i, j| p(i, j, k), |i, j| p(i, j, k + 1));
            for (i, x) in lex.s_given_null.iter_mut().enumerate() {
                *x = p(i, 1, k) / 3.0;
            }
            for (j, x) in lex.null_given_t.iter_mut().enumerate() {
                *x = p(2, j, k) / 4.0;
            }
            lex.s_known[n / 2] = false;
            lex.t_known[0] = false;
            let (all_s, all_t): (Vec<NodeId>, Vec<NodeId>) = (s.node_ids().collect(), t.node_ids().collect());
            for function in [ScoreFunction::S1, ScoreFunction::S2] {
                for null in [NullWord::Off, NullWord::Generating, NullWord::Both] {
                    let fast = ln_scores(&s, &all_s, &t, &all_t, &lex, function, null);
                    let mut slow = Vec::new();
                    for a in 0..s.len() {
                        for b in 0..t.len() {
                            let ln_score = ln_score(&s, NodeId::new(a), &t, NodeId::new(b), &lex, function, null);
                            if ln_score > f64::NEG_INFINITY {
                                slow.push(Hypothesis { s: NodeId::new(a), t: NodeId::new(b), ln_score });
                            }
                        }
                    }
                    assert!(!slow.is_empty(), "pair {k} {function} {null:?}");
                    let bits =
                        |h: &[Hypothesis]| h.iter().map(|h| (h.s, h.t, h.ln_score.to_bits())).collect::<Vec<_>>();
                    assert_eq!(bits(&fast), bits(&slow), "pair {k} {function} {null:?}");
                }
            }
        }
    }

    #[test]
    fn score_functions_by_hand() {
        // Source "a b" (X = a), target "c d" (Y = c); P(c|a) etc. below.
        let s = Tree::parse_one("(S (X a) (Z b))", "s").unwrap();
        let t = Tree::parse_one("(S (Y c) (W d))", "t").unwrap();
        // P(t_j|s_i) = pts[i][j]; P(s_i|t_j) = pst[i][j].
        let pts = [[0.8, 0.1], [0.2, 0.6]];
        let pst = [[0.7, 0.3], [0.1, 0.5]];
        let m = PairLexicon::from_fn(2, 2, |i, j| pts[i][j], |i, j| pst[i][j]);
        let (s1, s2, off) = (ScoreFunction::S1, ScoreFunction::S2, NullWord::Off);
        // (X, Y): α(a|c) α(c|a) α(b|d) α(d|b) = 0.7 · 0.8 · 0.5 · 0.6
        let g = ln_score(&s, n(1), &t, n(1), &m, s1, off).exp();
        assert!((g - 0.7 * 0.8 * 0.5 * 0.6).abs() < 1e-12);
        // (S, S): outside empty on both sides (factor 1); inside:
        // α(ab|cd) = (0.7+0.3)(0.1+0.5), α(cd|ab) = (0.8+0.2)(0.1+0.6).
        let g = ln_score(&s, n(0), &t, n(0), &m, s1, off).exp();
        assert!((g - 1.0 * 0.6 * 1.0 * 0.7).abs() < 1e-12);
        // s2 divides each sum by |y| = 2.
        let g2 = ln_score(&s, n(0), &t, n(0), &m, s2, off).exp();
        assert!((g2 - 0.5 * 0.3 * 0.5 * 0.35).abs() < 1e-12);
        // (S, Y): the source outside is empty but the target's is not: 0.
        assert_eq!(ln_score(&s, n(0), &t, n(1), &m, s1, off), f64::NEG_INFINITY);
        // With NULL (no NULL entries here): the same products, except that
        // an empty y leaves each x word only NULL to explain it (0 again),
        // and with s2 every sum is divided by |y| + 1.
        let g = ln_score(&s, n(1), &t, n(1), &m, s1, NullWord::Both).exp();
        assert!((g - 0.7 * 0.8 * 0.5 * 0.6).abs() < 1e-12);
        assert_eq!(ln_score(&s, n(0), &t, n(1), &m, s1, NullWord::Both), f64::NEG_INFINITY);
        // s2 with NULL: inside sums /3 (two words and NULL), the NULL factor 1/3 per direction.
        let g2 = ln_score(&s, n(0), &t, n(0), &m, s2, NullWord::Both).exp();
        let third = 1.0 / 3.0;
        let expected = (1.0 * third) * (0.6 * third) * third * (1.0 * third) * (0.7 * third) * third;
        assert!((g2 - expected).abs() < 1e-15, "{g2} {expected}");
    }

    #[test]
    fn a_word_with_no_translation_in_the_other_sentence_is_skipped_not_fatal() {
        // "b" is known (it translates "d" elsewhere) but has no translation
        // in this target sentence and was never unaligned: every hypothesis
        // would have a zero factor, so b tells them nothing and is skipped.
        let s = Tree::parse_one("(S (X a) (Z b))", "s").unwrap();
        let t = Tree::parse_one("(S (Y c))", "t").unwrap();
        let s2t = LexTable::from_entries([("c", "a", 0.9), ("d", "b", 1.0)], true);
        let t2s = LexTable::from_entries([("a", "c", 0.8), ("b", "d", 1.0)], true);
        let lexicon = Lexicon::new(s2t, t2s);
        let m = PairLexicon::new(&lexicon, &["a", "b"], &["c"]);
        assert_eq!((m.s_known.as_slice(), m.t_known.as_slice()), (&[true, false][..], &[true][..]));
        let score = |sn, tn| ln_score(&s, sn, &t, tn, &m, ScoreFunction::S1, NullWord::Both).exp();
        // (S, S): α(ab|c) = P(a|c) (b skipped) · NULL factor 1; α(c|ab) = P(c|a) + P(c|b) = 0.9 · 1.
        assert!((score(n(0), n(0)) - 0.8 * 0.9).abs() < 1e-12);
        // (X, Y) as (S, S) here, and the pair gets its links.
        assert!((score(n(1), n(1)) - 0.8 * 0.9).abs() < 1e-12);
        let pair = TreePair { source: s, target: t, gold: Vec::new() };
        assert!(!baseline_links(&lexicon, &pair, &BaselineOptions::default()).is_empty());
    }

    #[test]
    fn null_entries_and_unknown_words_by_hand() {
        // Source "a b", target "c"; a-c linked, b left unaligned once.
        let s = Tree::parse_one("(S (X a) (Z b))", "s").unwrap();
        let t = Tree::parse_one("(S (Y c))", "t").unwrap();
        let s2t = LexTable::from_entries([("c", "a", 0.9), ("NULL", "a", 0.1), ("NULL", "b", 1.0)], true);
        let t2s = LexTable::from_entries([("a", "c", 0.8), ("b", "NULL", 0.5), ("NULL", "c", 0.2)], true);
        let lexicon = Lexicon::new(s2t, t2s);
        let m = PairLexicon::new(&lexicon, &["a", "b"], &["c"]);
        let both = |sn, tn| ln_score(&s, sn, &t, tn, &m, ScoreFunction::S1, NullWord::Both).exp();
        // (S, S): α(ab|c) = (P(a|c) + P(a|NULL)) (P(b|c) + P(b|NULL)) · Σ_y P(NULL|y)
        //        = (0.8 + 0) (0 + 0.5) · P(NULL|c) 0.2;
        // α(c|ab) = (P(c|a) + P(c|b) + P(c|NULL)) · (P(NULL|a) + P(NULL|b)) = 0.9 · 1.1;
        // outsides empty: 1.
        assert!((both(n(0), n(0)) - 0.8 * 0.5 * 0.2 * 0.9 * 1.1).abs() < 1e-12);
        // (Z = b, S): inside α(b|c) = 0.5 · 0.2, α(c|b) = (0 + 0) → 0: pruned.
        assert_eq!(both(n(2), n(0)), 0.0);
        // Without NULL, b has no translation in c: the sentence pair is pruned too.
        assert_eq!(ln_score(&s, n(0), &t, n(0), &m, ScoreFunction::S1, NullWord::Off), f64::NEG_INFINITY);
        // Generating: no NULL factor on the x side.
        let gen = ln_score(&s, n(0), &t, n(0), &m, ScoreFunction::S1, NullWord::Generating).exp();
        assert!((gen - 0.8 * 0.5 * 0.9).abs() < 1e-12);
        // An unknown word contributes no factor; an unknown y word adds 0.
        let m = PairLexicon::new(&lexicon, &["a", "b", "zzz"], &["c"]);
        let s3 = Tree::parse_one("(S (X a) (Z b) (W zzz))", "s").unwrap();
        let g = ln_score(&s3, n(0), &t, n(0), &m, ScoreFunction::S1, NullWord::Both).exp();
        assert!((g - 0.8 * 0.5 * 0.2 * 0.9 * 1.1).abs() < 1e-12);
    }

    #[test]
    fn unary_chains_are_one_candidate_linked_from_the_top() {
        // Source: S0 (NP1 (NN2 a)) (VP3 (V4 b) (NP5 (NN6 c))); NP1-NN2 and NP5-NN6 are chains.
        let s = Tree::parse_one("(S (NP (NN a)) (VP (V b) (NP (NN c))))", "s").unwrap();
        assert_eq!(
            chains(&s, UnaryChains::Merged),
            [vec![n(0)], vec![n(1), n(2)], vec![n(3)], vec![n(4)], vec![n(5), n(6)]]
        );
        assert_eq!(chains(&s, UnaryChains::Separate).len(), s.len());
        // Target: TOP0 (S1 (NP2 (NN3 x)) (VP4 (V5 y) (NN6 z))).
        let t = Tree::parse_one("(TOP (S (NP (NN x)) (VP (V y) (NN z))))", "t").unwrap();
        assert_eq!(chains(&t, UnaryChains::Merged)[0], [n(0), n(1)]);
        // Two phrase chains: phrases zipped from the top.
        assert_eq!(chain_links(&s, &[n(0)], &t, &[n(0), n(1)]), [(n(0), n(0))]);
        // Phrase over POS with phrase over POS: both levels.
        assert_eq!(chain_links(&s, &[n(1), n(2)], &t, &[n(2), n(3)]), ids(&[(1, 2), (2, 3)]));
        // A chain without a phrase node: the tops.
        assert_eq!(chain_links(&s, &[n(5), n(6)], &t, &[n(6)]), [(n(5), n(6))]);
        // The diagonal lexicon links every word to its counterpart: merged,
        // the NP-over-NN chains are linked at both levels and S to the TOP chain.
        let diag = |i: usize, j: usize| if i == j { 0.9 } else { 0.05 };
        let m = PairLexicon::from_fn(3, 3, diag, diag);
        let merged = tinsley_align(&s, &t, &m, &opts(NullWord::Both, UnaryChains::Merged, "skip2,span1"));
        assert!(crate::align::greedy::check_links(&s, &t, &merged).is_ok());
        let mut sorted = merged.clone();
        sorted.sort();
        assert_eq!(sorted, ids(&[(0, 0), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]));
        // Separately, S ties with TOP and with S1 (same span, same score), so
        // skip2 skips the root pairs and takes VP-VP first; merged, the
        // root pair has no tie and comes first.
        let separate = tinsley_align(&s, &t, &m, &opts(NullWord::Both, UnaryChains::Separate, "skip2,span1"));
        assert!(crate::align::greedy::check_links(&s, &t, &separate).is_ok());
        assert_eq!((merged[0], separate[0]), ((n(0), n(0)), (n(3), n(4))));
    }

    #[test]
    fn alignment_is_well_formed_and_finds_the_obvious_links() {
        let s = Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", "s").unwrap();
        let t = Tree::parse_one("(S (NP (ART der) (NN Hund)) (VP (VVFIN bellt)))", "t").unwrap();
        let diag = |i: usize, j: usize| if i == j { 0.9 } else { 0.05 };
        let m = PairLexicon::from_fn(3, 3, diag, diag);
        for null in [NullWord::Off, NullWord::Generating, NullWord::Both] {
            for unary in [UnaryChains::Separate, UnaryChains::Merged] {
                for h in ["", "skip1", "skip2", "span1", "skip2,span1", "skip1,skip2,span1"] {
                    let links = tinsley_align(&s, &t, &m, &opts(null, unary, h));
                    assert!(crate::align::greedy::check_links(&s, &t, &links).is_ok());
                    for l in ids(&[(0, 0), (1, 1), (4, 4)]) {
                        assert!(links.contains(&l), "{h}: {links:?}");
                    }
                }
            }
        }
        assert!("skip3".parse::<Heuristics>().is_err());
    }

    #[test]
    fn skip1_skips_ties_and_skip2_also_their_nodes() {
        let h = |s, t, ln_score| Hypothesis { s: n(s), t: n(t), ln_score };
        let pool = [h(1, 1, -1.0), h(1, 2, -1.0), h(1, 3, -2.0), h(4, 4, -3.0)];
        let all = [0, 1, 2, 3];
        assert_eq!(choose(&pool, &all, Heuristics::default()), 0);
        let skip1 = Heuristics { skip1: true, ..Default::default() };
        assert_eq!(choose(&pool, &all, skip1), 2);
        let skip2 = Heuristics { skip2: true, ..Default::default() };
        assert_eq!(choose(&pool, &all, skip2), 3, "(1,3) shares source node 1 with skipped ties");
    }
}
