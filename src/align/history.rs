//! History features: a second pass that sees a first pass's decisions on
//! the neighbouring pairs — the kernel component `hist` (structured
//! prediction as in Lingua-Align's link-dependency features, Tiedemann &
//! Kotzé 2009).
//!
//! The first pass is a model of the same spec without `hist`. For a
//! candidate `(s, t)` the second pass reads, from the first pass on the same
//! tree pair: its own posterior `P(a+|s,t)`; the parent pair's posterior
//! and whether the first pass's search linked it; the highest posterior
//! among the children pairs and the share of the smaller child list that
//! the search linked inside `ch(s) × ch(t)`; the highest posterior among
//! the sibling pairs. A pair that is no kept candidate has posterior 0.
//!
//! Training never shows the second pass gold decisions: the training pairs'
//! first-pass outputs come from cross-validation (each fold aligned by a
//! first pass trained on the other folds), and aligning runs the first pass
//! (trained on all the training pairs, stored in the model) on the input.
//!
//! Cost: one first-pass alignment per tree pair, then O(children² +
//! siblings²) per candidate.
//!
//! # Examples
//! ```
//! use treelink::align::greedy::{Search, Step, Outcome, Scored};
//! use treelink::align::history::FirstPassOutput;
//! use treelink::tree::{NodeId, Tree};
//! let n = NodeId::new;
//! let s = Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", "s").unwrap();
//! let t = Tree::parse_one("(S (NP (ART der) (NN Hund)) (VP (VVFIN bellt)))", "t").unwrap();
//! // The first pass scored (S,S) 0.9, (NP,NP) 0.8, (VP,VP) 0.7 and linked the first two.
//! let posteriors = [((n(0), n(0)), 0.9), ((n(1), n(1)), 0.8), ((n(4), n(4)), 0.7)];
//! let out = FirstPassOutput::new(&s, &t, &posteriors, &[(n(0), n(0)), (n(1), n(1))]);
//! let h = out.features(&s, n(1), &t, n(1)); // the candidate (NP, NP)
//! assert_eq!(h, [0.8, 0.9, 1.0, 0.0, 0.0, 0.7]); // own, parent, parent linked, children ×2, siblings
//! ```

use crate::tree::{NodeId, Tree};

/// Number of history features.
pub const N_HISTORY: usize = 6;

/// Short names of the history features, in order.
pub const FEATURE_NAMES: [&str; N_HISTORY] = [
    "first pass: own posterior",
    "first pass: parent posterior",
    "first pass: parent linked",
    "first pass: children max posterior",
    "first pass: children linked share",
    "first pass: siblings max posterior",
];

/// A first pass's output on one tree pair: every node pair's posterior
/// (0 for no kept candidate) and the links its search took.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstPassOutput {
    n_trg: usize,
    posterior: Vec<f64>,
    linked: Vec<bool>,
}

impl FirstPassOutput {
    /// From the first pass's posteriors of kept candidates and its links.
    pub fn new(src: &Tree, trg: &Tree, posteriors: &[((NodeId, NodeId), f64)], links: &[(NodeId, NodeId)]) -> Self {
        let n_trg = trg.len();
        let mut out =
            FirstPassOutput { n_trg, posterior: vec![0.0; src.len() * n_trg], linked: vec![false; src.len() * n_trg] };
        for &((s, t), p) in posteriors {
            if let Some(slot) = out.slot(s, t) {
                out.posterior[slot] = p;
            }
        }
        for &(s, t) in links {
            if let Some(slot) = out.slot(s, t) {
                out.linked[slot] = true;
            }
        }
        out
    }

    fn slot(&self, s: NodeId, t: NodeId) -> Option<usize> {
        let (s, t) = (s.index(), t.index());
        (t < self.n_trg && s * self.n_trg + t < self.posterior.len()).then_some(s * self.n_trg + t)
    }

    fn posterior(&self, s: NodeId, t: NodeId) -> f64 {
        self.slot(s, t).map_or(0.0, |k| self.posterior[k])
    }

    fn linked(&self, s: NodeId, t: NodeId) -> bool {
        self.slot(s, t).is_some_and(|k| self.linked[k])
    }

    /// The history features of the candidate `(s, t)` (see the module doc).
    pub fn features(&self, src: &Tree, s: NodeId, trg: &Tree, t: NodeId) -> [f64; N_HISTORY] {
        let parents = src.parent(s).zip(trg.parent(t));
        let (cs, ct) = (src.children(s), trg.children(t));
        let child_pairs = || cs.iter().flat_map(|&a| ct.iter().map(move |&b| (a, b)));
        let max_of = |pairs: &mut dyn Iterator<Item = (NodeId, NodeId)>| {
            pairs.map(|(a, b)| self.posterior(a, b)).fold(0.0, f64::max)
        };
        let linked_children = child_pairs().filter(|&(a, b)| self.linked(a, b)).count();
        let fewer = cs.len().min(ct.len());
        let siblings = |tree: &Tree, n: NodeId| -> Vec<NodeId> {
            tree.parent(n).map_or(Vec::new(), |p| tree.children(p).iter().copied().filter(|&c| c != n).collect())
        };
        let (ss, st) = (siblings(src, s), siblings(trg, t));
        [
            self.posterior(s, t),
            parents.map_or(0.0, |(a, b)| self.posterior(a, b)),
            f64::from(u8::from(parents.is_some_and(|(a, b)| self.linked(a, b)))),
            max_of(&mut child_pairs()),
            if fewer == 0 { 0.0 } else { linked_children as f64 / fewer as f64 },
            max_of(&mut ss.iter().flat_map(|&a| st.iter().map(move |&b| (a, b)))),
        ]
    }
}
