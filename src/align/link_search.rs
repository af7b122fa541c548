//! The link searches of Lingua-Align (Tiedemann & Kotzé 2009), beside the
//! paper's greedy search (§5, phase 2; [`super::greedy`]): which of the
//! candidates classified *aligned* become links. Each takes the candidates
//! with `D` above the threshold, scored by their posterior, and returns a
//! [`Search`] whose steps list every one of them in search order (score
//! descending), taken or blocked, so the page explains any search alike.
//!
//! - [`LinkSearch::Greedy`] — the paper's: by decreasing score, a link is
//!   taken unless it breaks a well-formedness criterion (Lingua-Align's
//!   `greedyWellFormed`); every node linked at most once.
//! - [`LinkSearch::GreedyFinal`] — greedy, then a final step over the
//!   candidates again, by decreasing score: one with a node still unlinked
//!   is taken if it breaks no criterion but "linked once" for its other
//!   node, which may already be linked, to a node that neither dominates
//!   nor is dominated by the new partner (Lingua-Align's `greedyFinal`:
//!   a node may then have two links, to disjoint sub-trees).
//! - [`LinkSearch::Src2Trg`] — each source node links to its best target,
//!   with no well-formedness check (Lingua-Align's `src2trg`): a target may
//!   be linked from several sources.
//! - [`LinkSearch::Assignment`] — the one-to-one links of the largest sum
//!   of scores (a maximum-weight bipartite matching, Kuhn–Munkres), then
//!   made well-formed by dropping its lowest-scored link that breaks a
//!   criterion until none does (Lingua-Align's `assignmentWellFormed`), then
//!   completed greedily by the candidates that still fit (ours: so every
//!   candidate left out is blocked by a link).
//!
//! Cost: greedy and the final step O(k · m) for k candidates and m links;
//! src2trg O(k); the assignment O(n² · n') for n ≤ n' nodes with candidates.
//!
//! # Examples
//! ```
//! use treelink::align::greedy::Scored;
//! use treelink::align::link_search::LinkSearch;
//! use treelink::tree::{NodeId, Tree};
//! let s = Tree::parse_one("(S (NP (DT the) (NN dog)) (VP (VBZ barks)))", "s").unwrap();
//! let t = Tree::parse_one("(S (NP (ART der) (NN Hund)) (VP (VVFIN bellt)))", "t").unwrap();
//! // Greedy takes (1,1) 0.9 first, so NP1 cannot take VP4; the assignment
//! // prefers (1,4) + (4,1) (1.6) over (1,1) alone (0.9).
//! let n = NodeId::new;
//! let scored = [Scored::new(n(1), n(1), 0.9), Scored::new(n(1), n(4), 0.8), Scored::new(n(4), n(1), 0.8)];
//! assert_eq!(LinkSearch::Greedy.run(&s, &t, &scored).links, [(n(1), n(1))]);
//! assert_eq!(LinkSearch::Assignment.run(&s, &t, &scored).links, [(n(1), n(4)), (n(4), n(1))]);
//! ```

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::greedy::{first_conflict, greedy_align, search_order, violation, Criterion, Outcome, Scored, Search, Step};
use crate::tree::{NodeId, Tree};

/// Which links the classified candidates become.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LinkSearch {
    /// The paper's greedy search under the well-formedness criteria.
    #[default]
    Greedy,
    /// Greedy, then a final step for nodes still unlinked.
    GreedyFinal,
    /// Each source node's best target.
    Src2Trg,
    /// The largest sum of scores, one-to-one, made well-formed.
    Assignment,
}

impl LinkSearch {
    pub const ALL: [LinkSearch; 4] =
        [LinkSearch::Greedy, LinkSearch::GreedyFinal, LinkSearch::Src2Trg, LinkSearch::Assignment];

    pub fn name(self) -> &'static str {
        match self {
            LinkSearch::Greedy => "greedy",
            LinkSearch::GreedyFinal => "greedy-final",
            LinkSearch::Src2Trg => "src2trg",
            LinkSearch::Assignment => "assignment",
        }
    }

    /// The search over `candidates` (already above the threshold).
    pub fn run(self, src: &Tree, trg: &Tree, candidates: &[Scored]) -> Search {
        match self {
            LinkSearch::Greedy => greedy_align(src, trg, candidates),
            LinkSearch::GreedyFinal => greedy_final(src, trg, candidates),
            LinkSearch::Src2Trg => src2trg(src, trg, candidates),
            LinkSearch::Assignment => assignment(src, trg, candidates),
        }
    }
}

display_by_name!(LinkSearch);

impl FromStr for LinkSearch {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        crate::one_of(s, &LinkSearch::ALL.map(|l| (l.name(), l)))
    }
}

/// The log of a search that chose `links` among `candidates`: every
/// candidate in search order, taken (its index in `links`) or blocked by
/// the first chosen link it conflicts with (`conflict`).
fn log_of(
    candidates: &[Scored],
    links: Vec<(NodeId, NodeId)>,
    conflict: impl Fn((NodeId, NodeId), &[(NodeId, NodeId)]) -> Option<((NodeId, NodeId), Criterion)>,
) -> Search {
    let steps = search_order(candidates)
        .into_iter()
        .map(|candidate| {
            let new = (candidate.source, candidate.target);
            let outcome = match links.iter().position(|&l| l == new) {
                Some(k) => Outcome::Taken(k),
                None => {
                    let (by, criterion) = conflict(new, &links).unwrap_or((new, Criterion::LinkedOnce));
                    Outcome::Blocked { by, criterion }
                }
            };
            Step { candidate, outcome }
        })
        .collect();
    Search { links, steps }
}

/// The criterion `new` breaks against `old` in the final step: as
/// [`violation`], except that a shared node is allowed when the other two
/// nodes are disjoint sub-trees (neither dominates the other).
fn final_violation(src: &Tree, trg: &Tree, new: (NodeId, NodeId), old: (NodeId, NodeId)) -> Option<Criterion> {
    let disjoint = |t: &Tree, a: NodeId, b: NodeId| a != b && !t.is_ancestor(a, b) && !t.is_ancestor(b, a);
    match (new.0 == old.0, new.1 == old.1) {
        (true, true) => Some(Criterion::LinkedOnce),
        (true, false) => (!disjoint(trg, new.1, old.1)).then_some(Criterion::LinkedOnce),
        (false, true) => (!disjoint(src, new.0, old.0)).then_some(Criterion::LinkedOnce),
        (false, false) => violation(src, trg, new, old),
    }
}

fn greedy_final(src: &Tree, trg: &Tree, candidates: &[Scored]) -> Search {
    let mut links = greedy_align(src, trg, candidates).links;
    for c in search_order(candidates) {
        let new = (c.source, c.target);
        let unlinked_source = links.iter().all(|l| l.0 != new.0);
        let unlinked_target = links.iter().all(|l| l.1 != new.1);
        if (unlinked_source || unlinked_target)
            && links.iter().all(|&old| final_violation(src, trg, new, old).is_none())
        {
            links.push(new);
        }
    }
    log_of(candidates, links, |new, links| {
        links.iter().find_map(|&old| final_violation(src, trg, new, old).map(|c| (old, c)))
    })
}

fn src2trg(src: &Tree, trg: &Tree, candidates: &[Scored]) -> Search {
    let mut links: Vec<(NodeId, NodeId)> = Vec::new();
    // In search order, the first candidate of each source node is its best.
    for c in search_order(candidates) {
        if links.iter().all(|l| l.0 != c.source) {
            links.push((c.source, c.target));
        }
    }
    let _ = (src, trg);
    log_of(candidates, links, |new, links| links.iter().find(|l| l.0 == new.0).map(|&l| (l, Criterion::LinkedOnce)))
}

fn assignment(src: &Tree, trg: &Tree, candidates: &[Scored]) -> Search {
    let order = search_order(candidates);
    let mut sources: Vec<NodeId> = order.iter().map(|c| c.source).collect();
    let mut targets: Vec<NodeId> = order.iter().map(|c| c.target).collect();
    sources.sort_unstable();
    sources.dedup();
    targets.sort_unstable();
    targets.dedup();
    let mut weight = vec![vec![0.0; targets.len()]; sources.len()];
    for c in &order {
        let (i, j) = (sources.binary_search(&c.source), targets.binary_search(&c.target));
        if let (Ok(i), Ok(j)) = (i, j) {
            weight[i][j] = f64::max(weight[i][j], c.score);
        }
    }
    let matched = max_weight_matching(&weight);
    // The matching's links in search order (score descending, ties by ids).
    let chosen: Vec<(NodeId, NodeId)> = order
        .iter()
        .map(|c| (c.source, c.target))
        .filter(|&(s, t)| {
            let (i, j) = (sources.binary_search(&s), targets.binary_search(&t));
            matches!((i, j), (Ok(i), Ok(j)) if matched[i] == Some(j) && weight[i][j] > 0.0)
        })
        .collect();
    let mut links = chosen;
    // Made well-formed: drop the lowest-scored link that breaks a criterion, until none does.
    while let Some(k) = (0..links.len())
        .rev()
        .find(|&k| links.iter().enumerate().any(|(m, &other)| m != k && violation(src, trg, links[k], other).is_some()))
    {
        links.remove(k);
    }
    // Completed greedily.
    for c in &order {
        let new = (c.source, c.target);
        if !links.contains(&new) && first_conflict(src, trg, new, &links).is_none() {
            links.push(new);
        }
    }
    let mut ordered: Vec<(NodeId, NodeId)> =
        order.iter().map(|c| (c.source, c.target)).filter(|l| links.contains(l)).collect();
    ordered.dedup();
    log_of(candidates, ordered, |new, links| first_conflict(src, trg, new, links))
}

/// The maximum-weight matching of a bipartite graph given by its weights
/// `w[i][j] ≥ 0` (0: no edge): for each row, its column, if any. The
/// Kuhn–Munkres algorithm with potentials (the shortest augmenting path
/// form) on costs `−w`, over the smaller side as rows; O(n² · n').
pub fn max_weight_matching(w: &[Vec<f64>]) -> Vec<Option<usize>> {
    let rows = w.len();
    let cols = w.first().map_or(0, Vec::len);
    if rows == 0 || cols == 0 {
        return vec![None; rows];
    }
    if rows > cols {
        let transposed: Vec<Vec<f64>> = (0..cols).map(|j| (0..rows).map(|i| w[i][j]).collect()).collect();
        let by_col = max_weight_matching(&transposed);
        let mut out = vec![None; rows];
        for (j, i) in by_col.into_iter().enumerate() {
            if let Some(i) = i {
                out[i] = Some(j);
            }
        }
        return out;
    }
    // 1-based arrays as in the textbook form; column 0 is the virtual start.
    let (n, m) = (rows, cols);
    let cost = |i: usize, j: usize| -w[i - 1][j - 1];
    let mut u = vec![0.0f64; n + 1];
    let mut v = vec![0.0f64; m + 1];
    let mut p = vec![0usize; m + 1];
    let mut way = vec![0usize; m + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = vec![f64::INFINITY; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let (mut delta, mut j1) = (f64::INFINITY, 0);
            for j in 1..=m {
                if !used[j] {
                    let cur = cost(i0, j) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut out = vec![None; n];
    for j in 1..=m {
        if p[j] != 0 && w[p[j] - 1][j - 1] > 0.0 {
            out[p[j] - 1] = Some(j - 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sc(s: usize, t: usize, score: f64) -> Scored {
        Scored::new(NodeId::new(s), NodeId::new(t), score)
    }

    fn ids(links: &[(NodeId, NodeId)]) -> Vec<(usize, usize)> {
        links.iter().map(|(s, t)| (s.index(), t.index())).collect()
    }
    use crate::align::greedy::check_links;

    fn trees() -> (Tree, Tree) {
        // S0 -> NP1 (DT2 NN3) VP4 (V5 NP6 (NN7))
        let s = Tree::parse_one("(S (NP (DT a) (NN b)) (VP (V c) (NP (NN d))))", "s").unwrap();
        let t = Tree::parse_one("(S (NP (DT a) (NN b)) (VP (V c) (NP (NN d))))", "t").unwrap();
        (s, t)
    }

    /// Every matching of a small weight matrix, by brute force over permutations.
    fn best_by_brute_force(w: &[Vec<f64>]) -> f64 {
        fn go(w: &[Vec<f64>], i: usize, used: &mut Vec<bool>) -> f64 {
            if i == w.len() {
                return 0.0;
            }
            let mut best = go(w, i + 1, used);
            for j in 0..used.len() {
                if !used[j] && w[i][j] > 0.0 {
                    used[j] = true;
                    best = best.max(w[i][j] + go(w, i + 1, used));
                    used[j] = false;
                }
            }
            best
        }
        go(w, 0, &mut vec![false; w.first().map_or(0, Vec::len)])
    }

    #[test]
    fn the_matching_has_the_largest_sum_of_weights() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for shape in [(3, 3), (2, 5), (5, 2), (4, 4), (1, 3), (6, 4)] {
            for _ in 0..50 {
                let weight = |x: f64| if x < -0.2 { 0.0 } else { (x + 1.0) / 2.0 };
                let w: Vec<Vec<f64>> =
                    (0..shape.0).map(|_| (0..shape.1).map(|_| weight(rng.symmetric())).collect()).collect();
                let m = max_weight_matching(&w);
                let mut cols: Vec<usize> = m.iter().flatten().copied().collect();
                let n = cols.len();
                cols.sort_unstable();
                cols.dedup();
                assert_eq!(cols.len(), n, "one row per column");
                let sum: f64 = m.iter().enumerate().filter_map(|(i, j)| j.map(|j| w[i][j])).sum();
                assert!((sum - best_by_brute_force(&w)).abs() < 1e-9, "{w:?}: {m:?}");
                assert!(m.iter().enumerate().all(|(i, j)| j.is_none_or(|j| w[i][j] > 0.0)), "no absent edge");
            }
        }
        assert_eq!(max_weight_matching(&[]), Vec::<Option<usize>>::new());
    }

    #[test]
    fn src2trg_takes_each_sources_best_target_even_twice() {
        let (s, t) = trees();
        let c = [sc(1, 1, 0.9), sc(4, 1, 0.8), sc(1, 4, 0.7), sc(6, 6, 0.5)];
        let search = LinkSearch::Src2Trg.run(&s, &t, &c);
        assert_eq!(ids(&search.links), [(1, 1), (4, 1), (6, 6)]);
        // (6,6) under (4,1): not well-formed, but src2trg does not check.
        assert!(check_links(&s, &t, &search.links).is_err());
        let by = (NodeId::new(1), NodeId::new(1));
        assert_eq!(search.steps[2].outcome, Outcome::Blocked { by, criterion: Criterion::LinkedOnce });
    }

    #[test]
    fn the_final_step_links_a_node_left_over_to_a_disjoint_sub_tree() {
        let (s, t) = trees();
        // Greedy takes (4,4) and (5,5); (5,6) is blocked, 5 being linked. The final
        // step takes it: target 6 is unlinked, 6 and 5 are disjoint in the target,
        // and against (4,4) 5 and 6 are both below 4.
        let c = [sc(4, 4, 0.9), sc(5, 5, 0.8), sc(5, 6, 0.6)];
        assert_eq!(ids(&LinkSearch::Greedy.run(&s, &t, &c).links), [(4, 4), (5, 5)]);
        let fin = LinkSearch::GreedyFinal.run(&s, &t, &c);
        assert_eq!(ids(&fin.links), [(4, 4), (5, 5), (5, 6)]);
        assert_eq!(fin.steps[2].outcome, Outcome::Taken(2));
        // Not when a criterion other than "linked once" breaks: (1,6) has 6 below 4 in
        // the target, 1 not below 4 in the source; (6,1) the other way round.
        let c = [sc(4, 4, 0.9), sc(6, 6, 0.8), sc(1, 6, 0.6), sc(6, 1, 0.5)];
        assert_eq!(ids(&LinkSearch::GreedyFinal.run(&s, &t, &c).links), [(4, 4), (6, 6)]);
        // Nor to a node that dominates (or is dominated by) the other partner: (4,6)
        // would link source 4 to 6, below its partner 4.
        let c = [sc(4, 4, 0.9), sc(4, 6, 0.8)];
        assert_eq!(ids(&LinkSearch::GreedyFinal.run(&s, &t, &c).links), [(4, 4)]);
        // Nor when both nodes are linked already: (1,5) after (1,1) and (5,5).
        let c = [sc(1, 1, 0.9), sc(5, 5, 0.8), sc(1, 5, 0.7)];
        assert_eq!(ids(&LinkSearch::GreedyFinal.run(&s, &t, &c).links), [(1, 1), (5, 5)]);
    }

    #[test]
    fn the_assignment_is_well_formed_and_logs_every_candidate() {
        let (s, t) = trees();
        // The matching takes (1,4) and (4,1) (1.4) rather than (1,1) and (4,4) (1.0).
        let c = [sc(0, 0, 0.9), sc(1, 4, 0.7), sc(4, 1, 0.7), sc(1, 1, 0.5), sc(4, 4, 0.5), sc(6, 6, 0.4)];
        let search = LinkSearch::Assignment.run(&s, &t, &c);
        assert!(check_links(&s, &t, &search.links).is_ok());
        // The matching (0,0), (1,4), (4,1), (6,6) breaks (ii) at (6,6), its lowest link
        // (6 is below 4 in the source, not below 1 in the target): dropped.
        assert_eq!(ids(&search.links), [(0, 0), (1, 4), (4, 1)]);
        assert_eq!(search.steps.len(), c.len());
        assert!(search.steps.iter().all(|st| match st.outcome {
            Outcome::Taken(k) => search.links[k] == (st.candidate.source, st.candidate.target),
            Outcome::Blocked { by, .. } => search.links.contains(&by),
        }));
        assert_eq!("assignment".parse::<LinkSearch>(), Ok(LinkSearch::Assignment));
        assert!("best".parse::<LinkSearch>().is_err());
    }
}
