//! Candidate sub-tree pairs of a tree pair and the pruning of unlikely ones
//! (paper §6.3): thresholds on the lexical features φ1..φ4 and the online
//! structural features, tuned on development data.
//!
//! φ1 and φ2 (inside-inside translation mass) are high for equivalent pairs,
//! so they get lower bounds; φ3 and φ4 (inside-outside mass) and the three
//! structural differences are low for them, so they get upper bounds.

use serde::{Deserialize, Serialize};

use super::features::PlainFeatures;
use crate::tree::{NodeId, Tree};

/// Which nodes may be linked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CandidateNodes {
    /// Phrase nodes only (the gold links of our data are between phrase nodes).
    #[default]
    Phrase,
    /// Phrase and POS nodes.
    All,
}

impl CandidateNodes {
    fn admits(self, tree: &Tree, n: NodeId) -> bool {
        match self {
            CandidateNodes::Phrase => tree.is_phrase(n),
            CandidateNodes::All => true,
        }
    }
}

/// How many node pairs [`candidate_pairs`] gives, without listing them.
pub fn candidate_count(src: &Tree, trg: &Tree, nodes: CandidateNodes) -> usize {
    let admitted = |tree: &Tree| tree.node_ids().filter(|&n| nodes.admits(tree, n)).count();
    admitted(src).saturating_mul(admitted(trg))
}

/// Every admitted (source, target) node pair, in (source, target) order.
pub fn candidate_pairs(src: &Tree, trg: &Tree, nodes: CandidateNodes) -> Vec<(NodeId, NodeId)> {
    let s: Vec<NodeId> = src.node_ids().filter(|&n| nodes.admits(src, n)).collect();
    let t: Vec<NodeId> = trg.node_ids().filter(|&n| nodes.admits(trg, n)).collect();
    s.iter().flat_map(|&a| t.iter().map(move |&b| (a, b))).collect()
}

/// Pruning thresholds. The defaults prune nothing. (Open bounds are
/// `f64::MAX`, not infinity, so the thresholds survive JSON.)
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// Lower bounds on φ1 and φ2.
    pub min_inside: [f64; 2],
    /// Upper bounds on φ3 and φ4.
    pub max_outside: [f64; 2],
    /// Upper bounds on the span, descendant and depth differences.
    pub max_structural: [f64; 3],
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { min_inside: [0.0; 2], max_outside: [f64::MAX; 2], max_structural: [f64::MAX; 3] }
    }
}

impl Thresholds {
    /// Whether a candidate with these features survives pruning.
    pub fn keeps(&self, f: &PlainFeatures) -> bool {
        f.lexical[0] >= self.min_inside[0]
            && f.lexical[1] >= self.min_inside[1]
            && f.lexical[2] <= self.max_outside[0]
            && f.lexical[3] <= self.max_outside[1]
            && f.structural.iter().zip(&self.max_structural).all(|(v, max)| v <= max)
    }

    /// Thresholds that keep all but a fraction `q` of the given positive
    /// (gold-aligned) examples on each feature: the `q`-quantile of φ1, φ2
    /// from below and the `(1-q)`-quantile of the others from above.
    /// With `q = 0` they keep every positive.
    pub fn from_positive_quantile(positives: &[PlainFeatures], q: f64) -> Self {
        if positives.is_empty() {
            return Thresholds::default();
        }
        let quantile = |mut v: Vec<f64>, p: f64| {
            v.sort_by(f64::total_cmp);
            let k = ((v.len() - 1) as f64 * p.clamp(0.0, 1.0)).round() as usize;
            v[k]
        };
        let feature = |k: usize| positives.iter().map(|f| f.to_vec()[k]).collect::<Vec<_>>();
        Thresholds {
            min_inside: [quantile(feature(0), q), quantile(feature(1), q)],
            max_outside: [quantile(feature(2), 1.0 - q), quantile(feature(3), 1.0 - q)],
            max_structural: [
                quantile(feature(7), 1.0 - q),
                quantile(feature(8), 1.0 - q),
                quantile(feature(9), 1.0 - q),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrase_candidates_exclude_pos_nodes() {
        let s = Tree::parse_one("(S (NP (DT a) (NN b)) (V c))", "s").unwrap();
        let t = Tree::parse_one("(S (NP (NN b)))", "t").unwrap();
        assert_eq!(
            candidate_pairs(&s, &t, CandidateNodes::Phrase),
            [
                (NodeId::new(0), NodeId::new(0)),
                (NodeId::new(0), NodeId::new(1)),
                (NodeId::new(1), NodeId::new(0)),
                (NodeId::new(1), NodeId::new(1))
            ]
        );
        assert_eq!(candidate_pairs(&s, &t, CandidateNodes::All).len(), 5 * 3);
    }

    #[test]
    fn quantile_thresholds_keep_the_positives_they_were_made_from() {
        let mk = |a: f64, c: f64, s: f64| PlainFeatures { lexical: [a, a, c, c, 0.0, 0.0, 0.0], structural: [s; 3] };
        let pos: Vec<_> = (0..=10).map(|k| mk(0.1 * k as f64, 0.05 * k as f64, 0.02 * k as f64)).collect();
        let all = Thresholds::from_positive_quantile(&pos, 0.0);
        assert!(pos.iter().all(|f| all.keeps(f)));
        let most = Thresholds::from_positive_quantile(&pos, 0.1);
        assert_eq!(pos.iter().filter(|f| most.keeps(f)).count(), 9, "drops the lowest φ1 and the highest φ3");
        assert!(Thresholds::default().keeps(&mk(0.0, 9.0, 9.0)));
    }
}
