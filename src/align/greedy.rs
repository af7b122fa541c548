//! Greedy search over the candidates classified *aligned* (paper §5, phase 2),
//! keeping the well-formedness criteria of §1 (Tinsley et al. 2007):
//! (i) a node is linked at most once; (ii) descendants of a linked source node
//! link only to descendants of its target counterpart; (iii) ancestors link
//! only to ancestors. The criteria are applied in both directions (a target
//! descendant likewise needs a source descendant), which is what makes the
//! alignment a tree-to-tree mapping that preserves dominance.
//!
//! Cost: O(k · m) for k candidates and m links taken.
//!
//! # Examples
//! ```
//! use treelink::align::greedy::{greedy_align, Scored};
//! use treelink::tree::{NodeId, Tree};
//! let n = NodeId::new;
//! let s = Tree::parse_one("(S (NP (DT the) (NN dog)) (VBZ barks))", "s").unwrap();
//! let t = Tree::parse_one("(S (NP (ART der) (NN Hund)) (VVFIN bellt))", "t").unwrap();
//! let scored = [Scored::new(n(0), n(0), 0.9), Scored::new(n(1), n(1), 0.8), Scored::new(n(1), n(4), 0.7), Scored::new(n(4), n(1), 0.6)];
//! let search = greedy_align(&s, &t, &scored);
//! assert_eq!(search.links, [(n(0), n(0)), (n(1), n(1))]); // (1,4): NP already linked; (4,1) likewise.
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::io::links::Link;
use crate::tree::{NodeId, Tree};

/// Which well-formedness criterion a link would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Criterion {
    /// (i) a node can only be linked once.
    LinkedOnce,
    /// (ii) descendants of a linked node may only link to descendants of its counterpart.
    Descendants,
    /// (iii) ancestors of a linked node may only link to ancestors of its counterpart.
    Ancestors,
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Criterion::LinkedOnce => "(i) a node can only be linked once",
            Criterion::Descendants => {
                "(ii) descendants of a linked node may only link to descendants of its counterpart"
            }
            Criterion::Ancestors => "(iii) ancestors of a linked node may only link to ancestors of its counterpart",
        })
    }
}

/// The criterion that link `(s, t)` breaks given the existing link `(s2, t2)`, if any.
pub fn violation(src: &Tree, trg: &Tree, (s, t): (NodeId, NodeId), (s2, t2): (NodeId, NodeId)) -> Option<Criterion> {
    if s == s2 || t == t2 {
        return Some(Criterion::LinkedOnce);
    }
    let (s_below, t_below) = (src.is_ancestor(s2, s), trg.is_ancestor(t2, t));
    if s_below != t_below {
        return Some(Criterion::Descendants);
    }
    let (s_above, t_above) = (src.is_ancestor(s, s2), trg.is_ancestor(t, t2));
    if s_above != t_above {
        return Some(Criterion::Ancestors);
    }
    None
}

/// The first existing link that `(s, t)` conflicts with, and how.
pub fn first_conflict(
    src: &Tree,
    trg: &Tree,
    new: (NodeId, NodeId),
    links: &[(NodeId, NodeId)],
) -> Option<((NodeId, NodeId), Criterion)> {
    links.iter().find_map(|&old| violation(src, trg, new, old).map(|c| (old, c)))
}

/// A link that breaks a criterion because of an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Violation {
    pub link: (NodeId, NodeId),
    pub blocked_by: (NodeId, NodeId),
    pub criterion: Criterion,
}

/// Checks a whole set of links, in order, against the three criteria.
pub fn check_links(src: &Tree, trg: &Tree, links: &[(NodeId, NodeId)]) -> Result<(), Violation> {
    for (k, &link) in links.iter().enumerate() {
        if let Some((blocked_by, criterion)) = first_conflict(src, trg, link, &links[..k]) {
            return Err(Violation { link, blocked_by, criterion });
        }
    }
    Ok(())
}

/// A candidate with its score (the posterior alignment probability).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    pub source: NodeId,
    pub target: NodeId,
    pub score: f64,
}

impl Scored {
    pub fn new(source: NodeId, target: NodeId, score: f64) -> Self {
        Scored { source, target, score }
    }
}

/// What happened to a candidate during the search.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// Taken as the `n`-th link (from 0).
    Taken(usize),
    /// Refused because of an earlier link, under a criterion.
    Blocked { by: (NodeId, NodeId), criterion: Criterion },
}

/// One step of the search: a candidate and its outcome, in search order.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub candidate: Scored,
    pub outcome: Outcome,
}

/// The links found and the log of every step (for the page's explanations).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Search {
    pub links: Vec<(NodeId, NodeId)>,
    pub steps: Vec<Step>,
}

/// Search order: score descending, ties by (source, target) so it is deterministic.
pub fn search_order(candidates: &[Scored]) -> Vec<Scored> {
    let mut order = candidates.to_vec();
    order.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.source.cmp(&b.source)).then(a.target.cmp(&b.target)));
    order
}

/// Greedy search: take candidates by decreasing score unless they break a criterion.
pub fn greedy_align(src: &Tree, trg: &Tree, candidates: &[Scored]) -> Search {
    let mut search = Search::default();
    for candidate in search_order(candidates) {
        let new = (candidate.source, candidate.target);
        let outcome = match first_conflict(src, trg, new, &search.links) {
            Some((by, criterion)) => Outcome::Blocked { by, criterion },
            None => {
                search.links.push(new);
                Outcome::Taken(search.links.len() - 1)
            }
        };
        search.steps.push(Step { candidate, outcome });
    }
    search
}

/// The search of §5's second phase over a pair's classified candidates
/// `(source, target, D)`: those with `D > threshold` (the paper: 0) are
/// scored by their posterior alignment probability `posterior(D)` and
/// searched greedily ([`greedy_align`]).
pub fn search_decided(
    src: &Tree,
    trg: &Tree,
    decided: impl IntoIterator<Item = (NodeId, NodeId, f64)>,
    threshold: f64,
    posterior: impl Fn(f64) -> f64,
) -> Search {
    let scored: Vec<Scored> = decided
        .into_iter()
        .filter(|&(_, _, value)| value > threshold)
        .map(|(s, t, value)| Scored::new(s, t, posterior(value)))
        .collect();
    greedy_align(src, trg, &scored)
}

/// The links of a search as good links, in search order.
pub fn search_links(search: &Search) -> Vec<Link> {
    search.links.iter().map(|&(s, t)| Link::good(s, t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: usize) -> NodeId {
        NodeId::new(i)
    }

    fn trees() -> (Tree, Tree) {
        // S0 -> NP1 (DT2 NN3) VP4 (V5 NP6 (NN7))
        let s = Tree::parse_one("(S (NP (DT a) (NN b)) (VP (V c) (NP (NN d))))", "s").unwrap();
        let t = Tree::parse_one("(S (NP (DT a) (NN b)) (VP (V c) (NP (NN d))))", "t").unwrap();
        (s, t)
    }

    #[test]
    fn each_criterion_by_hand() {
        let (s, t) = trees();
        let v = |(a, b): (usize, usize), (c, d): (usize, usize)| violation(&s, &t, (n(a), n(b)), (n(c), n(d)));
        assert_eq!(v((1, 2), (1, 1)), Some(Criterion::LinkedOnce));
        assert_eq!(v((4, 2), (4, 1)), Some(Criterion::LinkedOnce));
        // NP6 is below VP4 in the source; its partner NP1 is not below VP4 in the target.
        assert_eq!(v((6, 1), (4, 4)), Some(Criterion::Descendants));
        // Symmetric: target NP6 below VP4, source NP1 not below VP4.
        assert_eq!(v((1, 6), (4, 4)), Some(Criterion::Descendants));
        // S0 is above NP6 in the source but its partner NN3 is not above NP6.
        assert_eq!(v((0, 3), (6, 6)), Some(Criterion::Ancestors));
        assert_eq!(v((6, 6), (4, 4)), None);
        assert_eq!(v((1, 1), (4, 4)), None);
        assert!(check_links(&s, &t, &[(n(0), n(0)), (n(1), n(1)), (n(4), n(4)), (n(6), n(6))]).is_ok());
        let blocked = Violation { link: (n(6), n(1)), blocked_by: (n(4), n(4)), criterion: Criterion::Descendants };
        assert_eq!(check_links(&s, &t, &[(n(4), n(4)), (n(6), n(1))]), Err(blocked));
    }

    #[test]
    fn only_candidates_above_the_threshold_are_searched_by_their_posterior() {
        let (s, t) = trees();
        // D: (4,4) 0.5, (1,1) 2.0, (6,6) exactly at the threshold, (6,1) 1.0 (its target taken by (1,1)).
        let decided = [(4, 4, 0.5), (1, 1, 2.0), (6, 6, 0.0), (6, 1, 1.0)].map(|(s, t, d)| (n(s), n(t), d));
        let search = search_decided(&s, &t, decided, 0.0, |d| d / 10.0);
        assert_eq!(search.links, [(n(1), n(1)), (n(4), n(4))]);
        assert_eq!(search.steps.len(), 3);
        assert_eq!(search.steps[0].candidate, Scored::new(n(1), n(1), 0.2));
        assert_eq!(search.steps[1].outcome, Outcome::Blocked { by: (n(1), n(1)), criterion: Criterion::LinkedOnce });
        assert_eq!(search_links(&search), [Link::good(n(1), n(1)), Link::good(n(4), n(4))]);
    }

    #[test]
    fn search_log_says_who_blocked_whom() {
        let (s, t) = trees();
        let c = [(4, 4, 0.9), (6, 1, 0.8), (6, 6, 0.7), (1, 1, 0.7)].map(|(s, t, p)| Scored::new(n(s), n(t), p));
        let search = greedy_align(&s, &t, &c);
        assert_eq!(search.links, [(n(4), n(4)), (n(1), n(1)), (n(6), n(6))]);
        assert_eq!(search.steps[1].outcome, Outcome::Blocked { by: (n(4), n(4)), criterion: Criterion::Descendants });
        // Equal scores: (1,1) before (6,6).
        assert_eq!(search.steps[2].outcome, Outcome::Taken(1));
    }
}
