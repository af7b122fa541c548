//! Convolution tree kernels and the bilingual tree kernels iBTK and dBTK
//! (Sun, Zhang & Tan, "Exploring Syntactic Structural Features for Sub-Tree
//! Alignment using Bilingual Tree Kernels", §2-3).
//!
//! Notation, as in the paper: a sub-tree `S` is the tree rooted at a node;
//! a sub-tree pair `S·T` couples a source and a target sub-tree; `N_S` is the
//! node set of `S`; `Δ(n, n')` counts (with decay λ) the sub-structures rooted
//! at both `n` and `n'`:
//! 1. different productions: `Δ = 0`;
//! 2. both POS nodes (same production, so same tag and word): `Δ = λ`;
//! 3. else `Δ = λ ∏_l (1 + Δ(c(n,l), c(n',l)))`.
//!
//! The four sub-structure spaces ([`Space`]) give four monolingual kernels
//! `K(S, S')`; iBTK sums the source and target kernels, dBTK multiplies them.
//!
//! Cost: the SST sum uses the fast tree kernel idea (Moschitti 2006): each
//! tree keeps its nodes sorted by production ([`Tree::production_order`]), a
//! merge finds the node pairs with equal productions, and Δ is computed only
//! for those pairs, bottom-up. On real trees that is a small fraction of
//! `|N_S|·|N_S'|`. RgSST costs O(min(|S|, |S'|)) and Root O(1).
//!
//! # Examples
//! ```
//! use treelink::kernel::{tree_kernel, Space, SubTree};
//! use treelink::tree::Tree;
//! let a = Tree::parse_one("(NP (DT the) (NN dog))", "a").unwrap();
//! let b = Tree::parse_one("(NP (DT a) (NN dog))", "b").unwrap();
//! // Shared: (NN dog) twice-weighted λ, and NP -> DT NN with (NN dog) expanded or not.
//! // K = Δ(NN,NN) + Δ(NP,NP) = 0.4 + 0.4·(1+0)·(1+0.4) = 0.96
//! let k = tree_kernel(Space::Sst, 0.4, SubTree::whole(&a), SubTree::whole(&b)).unwrap();
//! assert!((k - 0.96).abs() < 1e-12);
//! ```

use std::str::FromStr;

use crate::tree::{NodeId, Tree};

pub mod index;
pub mod speed;
pub mod stream;

/// The paper's default decay factor λ.
pub const DEFAULT_LAMBDA: f64 = 0.4;

/// The most matched node pairs (node pairs with equal productions) one SST
/// or RdSST evaluation may visit unless raised. Trees of real sentences
/// match a few hundred to a few thousand; a million costs tens of
/// milliseconds and about 24 MB in [`DeltaTable`]; a 20,000-deep unary
/// chain would match 4·10⁸ (minutes and gigabytes).
pub const DEFAULT_MAX_NODE_PAIRS: u64 = 1_000_000;

/// A kernel refused before it started: it would visit more matched node
/// pairs than the limit. The message names no option: what raises the
/// limit depends on who set it (`kernel`, `btk` and `svm-light-tk` add
/// their `--max-node-pairs`; training has a fixed limit; the page none).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the tree kernel of these trees ({left_nodes} and {right_nodes} nodes) would visit {pairs} node pairs with \
     equal productions, more than the limit of {limit}"
)]
pub struct TooManyNodePairs {
    /// Matched node pairs the kernel needs.
    pub pairs: u64,
    pub limit: u64,
    /// Nodes of the two (sub-)trees.
    pub left_nodes: u64,
    pub right_nodes: u64,
}

/// Sub-structure spaces for the monolingual kernel (paper §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    /// Subset trees (§3.1): `K(S,S') = Σ_{n∈N_S} Σ_{n'∈N_S'} Δ(n,n')`.
    Sst,
    /// Root-directed subset trees (§3.2): `I(r,r') · K_SST(S,S')`.
    RdSst,
    /// Root-generated subset trees (§3.3): `Δ(r,r')`.
    RgSst,
    /// Root only (§3.4): `I(r,r')`.
    Root,
}

impl Space {
    pub const ALL: [Space; 4] = [Space::Sst, Space::RdSst, Space::RgSst, Space::Root];

    /// The name the paper uses.
    pub fn paper_name(self) -> &'static str {
        match self {
            Space::Sst => "SST",
            Space::RdSst => "RdSST",
            Space::RgSst => "RgSST",
            Space::Root => "Root",
        }
    }

    /// The name used on the command line and in model files.
    pub fn name(self) -> &'static str {
        match self {
            Space::Sst => "sst",
            Space::RdSst => "rdsst",
            Space::RgSst => "rgsst",
            Space::Root => "root",
        }
    }
}

display_by_name!(Space);

/// An unknown kernel or space name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{found}': expected one of {expected}")]
pub struct UnknownName {
    pub what: &'static str,
    pub found: String,
    pub expected: String,
}

impl UnknownName {
    /// The one of `all` whose `name` is `key` (`found`, as given, perhaps
    /// in other case), or the error listing every name.
    pub fn find<T: Copy>(
        what: &'static str,
        found: &str,
        key: &str,
        all: &[T],
        name: fn(T) -> &'static str,
    ) -> Result<T, Self> {
        all.iter().copied().find(|&v| name(v) == key).ok_or_else(|| UnknownName {
            what,
            found: found.to_string(),
            expected: all.iter().map(|&v| name(v)).collect::<Vec<_>>().join(", "),
        })
    }
}

impl FromStr for Space {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UnknownName::find("sub-structure space", s, &s.to_ascii_lowercase(), &Space::ALL, Space::name)
    }
}

/// How the source and target kernels combine (paper §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BtkKind {
    /// Independent BTK (§2.1): `K(S,S') + K(T,T')`.
    Ibtk,
    /// Dependent BTK (§2.2): `K(S,S') · K(T,T')`.
    Dbtk,
}

impl BtkKind {
    pub const ALL: [BtkKind; 2] = [BtkKind::Ibtk, BtkKind::Dbtk];

    pub fn name(self) -> &'static str {
        match self {
            BtkKind::Ibtk => "ibtk",
            BtkKind::Dbtk => "dbtk",
        }
    }
}

display_by_name!(BtkKind);

impl FromStr for BtkKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UnknownName::find("bilingual tree kernel", s, &s.to_ascii_lowercase(), &BtkKind::ALL, BtkKind::name)
    }
}

/// A sub-tree: the tree rooted at `root` within `tree`.
#[derive(Debug, Clone, Copy)]
pub struct SubTree<'a> {
    pub tree: &'a Tree,
    pub root: NodeId,
}

impl<'a> SubTree<'a> {
    pub fn new(tree: &'a Tree, root: NodeId) -> Self {
        SubTree { tree, root }
    }

    /// The whole tree (rooted at node 0).
    pub fn whole(tree: &'a Tree) -> Self {
        SubTree { tree, root: NodeId::ROOT }
    }

    fn root_label(&self) -> &str {
        self.tree.label(self.root)
    }
}

/// A bilingual sub-tree pair `S·T` (source and target sub-trees).
#[derive(Debug, Clone, Copy)]
pub struct SubTreePair<'a> {
    pub source: SubTree<'a>,
    pub target: SubTree<'a>,
}

impl<'a> SubTreePair<'a> {
    pub fn new(source: SubTree<'a>, target: SubTree<'a>) -> Self {
        SubTreePair { source, target }
    }

    /// A whole tree pair.
    pub fn whole(source: &'a Tree, target: &'a Tree) -> Self {
        SubTreePair { source: SubTree::whole(source), target: SubTree::whole(target) }
    }
}

/// `Δ(n, n')` of §2.1 by the recursion itself: the production-matched child
/// pairs are followed with an explicit stack (no call recursion, so deep
/// trees cannot overflow). Cost O(min(|S|, |S'|)). This is the RgSST kernel.
pub fn subset_tree_delta(a: SubTree<'_>, b: SubTree<'_>, lambda: f64) -> f64 {
    struct Frame {
        u: NodeId,
        v: NodeId,
        next_child: usize,
        product: f64,
    }
    let (ta, tb) = (a.tree, b.tree);
    if !ta.same_production(a.root, tb, b.root) {
        return 0.0;
    }
    let mut stack = vec![Frame { u: a.root, v: b.root, next_child: 0, product: 1.0 }];
    // Δ of the frame just finished, to multiply into its parent as (1 + Δ).
    let mut finished: Option<f64> = None;
    while let Some(top) = stack.last_mut() {
        if let Some(d) = finished.take() {
            top.product *= 1.0 + d;
        }
        let children_u = ta.children(top.u);
        if top.next_child < children_u.len() {
            let (cu, cv) = (children_u[top.next_child], tb.children(top.v)[top.next_child]);
            top.next_child += 1;
            if ta.same_production(cu, tb, cv) {
                stack.push(Frame { u: cu, v: cv, next_child: 0, product: 1.0 });
            }
            // A child pair with different productions contributes (1 + 0).
        } else {
            // Case 2 (POS: no children, product stays 1) and case 3 alike.
            let delta = lambda * top.product;
            stack.pop();
            finished = Some(delta);
        }
    }
    finished.unwrap_or(0.0)
}

/// The Δ values of every node pair with equal productions between two
/// sub-trees, found by merging the trees' production-sorted node lists (the
/// fast tree kernel). Pairs missing from the table have `Δ = 0`.
#[derive(Debug, Clone, Default)]
pub struct DeltaTable {
    /// Matched `(n, n')` pairs, sorted.
    pairs: Vec<(NodeId, NodeId)>,
    /// `Δ` of each pair in `pairs`.
    deltas: Vec<f64>,
}

impl DeltaTable {
    /// Δ for all production-matched pairs `(n, n') ∈ N_S × N_S'`, if they
    /// are at most [`DEFAULT_MAX_NODE_PAIRS`]: counted before any is stored,
    /// so a refusal costs O(|S| + |S'|).
    pub fn new(a: SubTree<'_>, b: SubTree<'_>, lambda: f64) -> Result<Self, TooManyNodePairs> {
        let limit = DEFAULT_MAX_NODE_PAIRS;
        let (ta, tb) = (a.tree, b.tree);
        let (ra, rb) = (ta.subtree(a.root), tb.subtree(b.root));
        let la: Vec<NodeId> = ta.production_order().iter().copied().filter(|n| ra.contains(n)).collect();
        let lb: Vec<NodeId> = tb.production_order().iter().copied().filter(|n| rb.contains(n)).collect();
        // Runs of equal productions, merged: (la range, lb range).
        let mut runs = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < la.len() && j < lb.len() {
            match ta.cmp_production(la[i], tb, lb[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    let i_end = i + la[i..].iter().take_while(|&&n| ta.same_production(n, ta, la[i])).count();
                    let j_end = j + lb[j..].iter().take_while(|&&n| tb.same_production(n, tb, lb[j])).count();
                    runs.push((i..i_end, j..j_end));
                    (i, j) = (i_end, j_end);
                }
            }
        }
        let count: u64 = runs.iter().map(|(x, y)| x.len() as u64 * y.len() as u64).sum();
        if count > limit {
            return Err(TooManyNodePairs {
                pairs: count,
                limit,
                left_nodes: ra.len() as u64,
                right_nodes: rb.len() as u64,
            });
        }
        let mut pairs = Vec::with_capacity(count as usize);
        for (x, y) in runs {
            for &u in &la[x] {
                for &v in &lb[y.clone()] {
                    pairs.push((u, v));
                }
            }
        }
        pairs.sort_unstable();
        let mut table = DeltaTable { deltas: vec![0.0; pairs.len()], pairs };
        // Children have larger pre-order ids than their parent, so going
        // backwards every child pair's Δ is known before its parent's.
        for k in (0..table.pairs.len()).rev() {
            let (u, v) = table.pairs[k];
            let product: f64 =
                ta.children(u).iter().zip(tb.children(v)).map(|(&cu, &cv)| 1.0 + table.get(cu, cv)).product();
            table.deltas[k] = lambda * product;
        }
        Ok(table)
    }

    /// `Δ(n, n')` (0 when the productions differ).
    pub fn get(&self, u: NodeId, v: NodeId) -> f64 {
        self.pairs.binary_search(&(u, v)).map_or(0.0, |k| self.deltas[k])
    }

    /// The matched pairs and their Δ, in `(n, n')` order.
    pub fn iter(&self) -> impl Iterator<Item = ((NodeId, NodeId), f64)> + '_ {
        self.pairs.iter().copied().zip(self.deltas.iter().copied())
    }

    /// Number of production-matched node pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// `Σ_{n∈N_S} Σ_{n'∈N_S'} Δ(n,n')` for sub-trees `S` of the first tree
    /// and `S'` of the second, both within the table's sub-trees.
    pub fn sum_over(&self, a: SubTree<'_>, b: SubTree<'_>) -> f64 {
        let (ra, rb) = (a.tree.subtree(a.root), b.tree.subtree(b.root));
        let lo = self.pairs.partition_point(|&(u, _)| u < ra.start);
        let hi = self.pairs.partition_point(|&(u, _)| u < ra.end);
        // A fold from +0.0, not `sum()`, whose empty sum is -0.0 and would print "-0".
        (lo..hi).filter(|&k| rb.contains(&self.pairs[k].1)).fold(0.0, |acc, k| acc + self.deltas[k])
    }
}

/// `I(r, r')`: 1 when the two roots carry the same label.
fn root_indicator(a: SubTree<'_>, b: SubTree<'_>) -> f64 {
    if a.root_label() == b.root_label() {
        1.0
    } else {
        0.0
    }
}

/// The monolingual kernel `K(S, S')` in a sub-structure space (paper §2.1,
/// §3); SST and RdSST refuse more than [`DEFAULT_MAX_NODE_PAIRS`] matched
/// node pairs.
pub fn tree_kernel(space: Space, lambda: f64, a: SubTree<'_>, b: SubTree<'_>) -> Result<f64, TooManyNodePairs> {
    Ok(match space {
        Space::Sst => DeltaTable::new(a, b, lambda)?.sum_over(a, b),
        Space::RdSst => {
            if root_indicator(a, b) == 0.0 {
                0.0
            } else {
                DeltaTable::new(a, b, lambda)?.sum_over(a, b)
            }
        }
        Space::RgSst => subset_tree_delta(a, b, lambda),
        Space::Root => root_indicator(a, b),
    })
}

/// `K(x, y) / sqrt(K(x, x) · K(y, y))`, or 0 when the denominator is 0.
pub fn normalize(k_xy: f64, k_xx: f64, k_yy: f64) -> f64 {
    let denominator = (k_xx * k_yy).sqrt();
    if denominator > 0.0 {
        k_xy / denominator
    } else {
        0.0
    }
}

/// iBTK (§2.1): `K(S, S') + K(T, T')`.
pub fn ibtk(space: Space, lambda: f64, x: SubTreePair<'_>, y: SubTreePair<'_>) -> Result<f64, TooManyNodePairs> {
    Ok(tree_kernel(space, lambda, x.source, y.source)? + tree_kernel(space, lambda, x.target, y.target)?)
}

/// dBTK (§2.2): `K(S, S') · K(T, T')`, the kernel of the product space of
/// source and target sub-structures.
pub fn dbtk(space: Space, lambda: f64, x: SubTreePair<'_>, y: SubTreePair<'_>) -> Result<f64, TooManyNodePairs> {
    Ok(tree_kernel(space, lambda, x.source, y.source)? * tree_kernel(space, lambda, x.target, y.target)?)
}

/// The bilingual tree kernel of the given kind.
pub fn btk(
    kind: BtkKind,
    space: Space,
    lambda: f64,
    x: SubTreePair<'_>,
    y: SubTreePair<'_>,
) -> Result<f64, TooManyNodePairs> {
    match kind {
        BtkKind::Ibtk => ibtk(space, lambda, x, y),
        BtkKind::Dbtk => dbtk(space, lambda, x, y),
    }
}

/// A BTK normalised as a whole: `K(x,y) / sqrt(K(x,x) K(y,y))`.
pub fn btk_normalized(
    kind: BtkKind,
    space: Space,
    lambda: f64,
    x: SubTreePair<'_>,
    y: SubTreePair<'_>,
) -> Result<f64, TooManyNodePairs> {
    Ok(normalize(btk(kind, space, lambda, x, y)?, btk(kind, space, lambda, x, x)?, btk(kind, space, lambda, y, y)?))
}

/// The monolingual kernel normalised: `K(S,S') / sqrt(K(S,S) K(S',S'))`.
pub fn tree_kernel_normalized(
    space: Space,
    lambda: f64,
    a: SubTree<'_>,
    b: SubTree<'_>,
) -> Result<f64, TooManyNodePairs> {
    Ok(normalize(
        tree_kernel(space, lambda, a, b)?,
        tree_kernel(space, lambda, a, a)?,
        tree_kernel(space, lambda, b, b)?,
    ))
}

/// One row of the kernel table the page shows for a pair of sub-tree pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BtkValue {
    pub kind: BtkKind,
    pub space: Space,
    pub raw: f64,
    pub normalized: f64,
}

/// Every BTK (both kinds × four spaces), raw and normalised.
pub fn all_btk_values(lambda: f64, x: SubTreePair<'_>, y: SubTreePair<'_>) -> Result<Vec<BtkValue>, TooManyNodePairs> {
    let mut rows = Vec::with_capacity(8);
    for space in Space::ALL {
        // The six monolingual kernels this space needs, computed once.
        let k = |a, b| tree_kernel(space, lambda, a, b);
        let (s_xy, s_xx, s_yy) = (k(x.source, y.source)?, k(x.source, x.source)?, k(y.source, y.source)?);
        let (t_xy, t_xx, t_yy) = (k(x.target, y.target)?, k(x.target, x.target)?, k(y.target, y.target)?);
        for kind in BtkKind::ALL {
            let combine = |s: f64, t: f64| match kind {
                BtkKind::Ibtk => s + t,
                BtkKind::Dbtk => s * t,
            };
            let raw = combine(s_xy, t_xy);
            rows.push(BtkValue {
                kind,
                space,
                raw,
                normalized: normalize(raw, combine(s_xx, t_xx), combine(s_yy, t_yy)),
            });
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tree {
        Tree::parse_one(s, "t").unwrap()
    }

    const L: f64 = 0.4;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
    }

    #[test]
    fn hand_worked_sst_values() {
        let a = t("(NP (DT the) (NN dog))");
        // With itself: Δ(NP,NP) = λ(1+λ)², Δ(DT,DT) = Δ(NN,NN) = λ.
        let k = tree_kernel(Space::Sst, L, SubTree::whole(&a), SubTree::whole(&a)).unwrap();
        assert!(close(k, 0.4 * 1.4 * 1.4 + 0.8), "{k}");
        // Six fragments of NP (2×2 choices + (DT the) + (NN dog)), at λ = 1 each counts 1.
        assert!(close(tree_kernel(Space::Sst, 1.0, SubTree::whole(&a), SubTree::whole(&a)).unwrap(), 6.0));
    }

    #[test]
    fn hand_worked_spaces_on_sub_trees() {
        // S -> NP VP; the NP sub-trees share NP -> DT NN and (NN cat).
        let a = t("(S (NP (DT the) (NN cat)) (VP (VBZ sleeps)))");
        let b = t("(S (NP (DT a) (NN cat)) (VP (VBZ sleeps)))");
        let (np_a, np_b) = (SubTree::new(&a, NodeId::new(1)), SubTree::new(&b, NodeId::new(1)));
        let delta_np = L * (1.0 + 0.0) * (1.0 + L); // DT differs, NN equal
        assert!(close(tree_kernel(Space::Sst, L, np_a, np_b).unwrap(), delta_np + L));
        assert!(close(tree_kernel(Space::RdSst, L, np_a, np_b).unwrap(), delta_np + L));
        assert!(close(tree_kernel(Space::RgSst, L, np_a, np_b).unwrap(), delta_np));
        assert_eq!(tree_kernel(Space::Root, L, np_a, np_b).unwrap(), 1.0);
        // NP against VP: they share no production; roots differ.
        let vp_b = SubTree::new(&b, NodeId::new(4));
        assert_eq!(tree_kernel(Space::Sst, L, np_a, vp_b).unwrap().to_string(), "0", "never -0");
        assert_eq!(tree_kernel(Space::Root, L, np_a, vp_b).unwrap(), 0.0);
        // Whole trees: Δ(VBZ)=λ, Δ(VP)=λ(1+λ), Δ(S)=λ(1+Δ(NP))(1+Δ(VP)).
        let delta_vp = L * (1.0 + L);
        let delta_s = L * (1.0 + delta_np) * (1.0 + delta_vp);
        let whole = delta_s + delta_np + L + delta_vp + L;
        assert!(close(tree_kernel(Space::Sst, L, SubTree::whole(&a), SubTree::whole(&b)).unwrap(), whole));
        assert!(close(tree_kernel(Space::RgSst, L, SubTree::whole(&a), SubTree::whole(&b)).unwrap(), delta_s));
        // RdSST differs from SST only through the root indicator.
        assert_eq!(tree_kernel(Space::RdSst, L, np_a, vp_b).unwrap(), 0.0);
    }

    #[test]
    fn ibtk_sums_and_dbtk_multiplies_then_normalises_as_a_whole() {
        let s1 = t("(NP (DT the) (NN dog))");
        let t1 = t("(NP (DT el) (NN perro))");
        let s2 = t("(NP (DT a) (NN dog))");
        let t2 = t("(NP (DT un) (NN perro))");
        let x = SubTreePair::whole(&s1, &t1);
        let y = SubTreePair::whole(&s2, &t2);
        let kxy_s = 0.96; // see the module example
        let kxy_t = 0.96;
        let kxx = 0.4 * 1.96 + 0.8;
        assert!(close(ibtk(Space::Sst, L, x, y).unwrap(), kxy_s + kxy_t));
        assert!(close(dbtk(Space::Sst, L, x, y).unwrap(), kxy_s * kxy_t));
        assert!(close(btk_normalized(BtkKind::Ibtk, Space::Sst, L, x, y).unwrap(), (kxy_s + kxy_t) / (2.0 * kxx)));
        assert!(close(btk_normalized(BtkKind::Dbtk, Space::Sst, L, x, y).unwrap(), (kxy_s * kxy_t) / (kxx * kxx)));
        assert!(close(btk_normalized(BtkKind::Dbtk, Space::Sst, L, x, x).unwrap(), 1.0));
        let rows = all_btk_values(L, x, y).unwrap();
        assert_eq!(rows.len(), 8);
        for r in rows {
            assert!(close(r.raw, btk(r.kind, r.space, L, x, y).unwrap()));
            assert!(close(r.normalized, btk_normalized(r.kind, r.space, L, x, y).unwrap()));
        }
    }

    #[test]
    fn normalisation_of_zero_is_zero() {
        assert_eq!(normalize(0.0, 0.0, 3.0), 0.0);
        let a = t("(A (B x))");
        let b = t("(C (D y))");
        let x = SubTreePair::whole(&a, &a);
        let y = SubTreePair::whole(&b, &b);
        assert_eq!(btk_normalized(BtkKind::Dbtk, Space::Root, L, x, y).unwrap(), 0.0);
    }

    #[test]
    fn names_parse() {
        assert_eq!("RgSST".parse::<Space>().unwrap(), Space::RgSst);
        assert_eq!("dbtk".parse::<BtkKind>().unwrap(), BtkKind::Dbtk);
        let e = "ptk".parse::<Space>().unwrap_err();
        assert_eq!(e.to_string(), "unknown sub-structure space 'ptk': expected one of sst, rdsst, rgsst, root");
    }

    #[test]
    fn deep_trees_do_not_overflow() {
        let deep = format!("{}(B b){}", "(A ".repeat(50_000), ")".repeat(50_000));
        let a = t(&deep);
        let k = tree_kernel(Space::RgSst, 0.5, SubTree::whole(&a), SubTree::whole(&a)).unwrap();
        assert!(k.is_finite() && k > 0.0);
    }
}
