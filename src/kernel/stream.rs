//! Kernels of one tree pair after another (the CLI's `kernel` and `btk`),
//! on the fast path with bounded memory.
//!
//! A [`KernelStream`] keeps one [`StructureIndex`] across pairs, so Δ of a
//! shape pair met before is a lookup, and caches the self-kernels `K(S, S)`
//! that normalisation needs by the root's shape (a self-kernel depends on
//! nothing else). When the index passes [`KernelStream::RESET_AT`] entries it
//! starts afresh, so memory does not grow with the number of pairs. The
//! values are those of [`crate::kernel::tree_kernel`] and
//! [`crate::kernel::btk`], bit for bit (summed in the same order), and a
//! kernel that would visit more than the limit's matched node pairs is
//! refused with [`TooManyNodePairs`].
//!
//! ```
//! use treelink::kernel::{stream::KernelStream, tree_kernel, Space, SubTree, DEFAULT_MAX_NODE_PAIRS};
//! use treelink::tree::Tree;
//! let a = Tree::parse_one("(NP (DT the) (NN dog))", "a").unwrap();
//! let b = Tree::parse_one("(NP (DT a) (NN dog))", "b").unwrap();
//! let mut stream = KernelStream::new(Space::Sst, 0.4, DEFAULT_MAX_NODE_PAIRS);
//! let k = stream.tree_kernel(SubTree::whole(&a), SubTree::whole(&b), false).unwrap();
//! assert_eq!(k, tree_kernel(Space::Sst, 0.4, SubTree::whole(&a), SubTree::whole(&b)).unwrap());
//! ```

use super::index::{IndexedTree, StructureIndex};
use super::{normalize, BtkKind, Space, SubTree, SubTreePair, TooManyNodePairs};
use crate::hash::FnvMap;

/// Kernels in one space over a stream of tree pairs (module documentation).
#[derive(Debug)]
pub struct KernelStream {
    space: Space,
    lambda: f64,
    max_node_pairs: u64,
    /// Index entries beyond which it starts afresh.
    reset_at: usize,
    index: StructureIndex,
    /// `K(S, S)` by the interned shape of S's root.
    selfs: FnvMap<u32, f64>,
}

/// A sub-tree with its tree's interned ids.
type Indexed<'t> = (SubTree<'t>, IndexedTree);

impl KernelStream {
    /// Index entries (symbols, productions, shapes, memoised Δ) beyond which
    /// the index and the self-kernel cache start afresh: some tens of MB.
    pub const RESET_AT: usize = 1 << 16;

    pub fn new(space: Space, lambda: f64, max_node_pairs: u64) -> Self {
        KernelStream {
            space,
            lambda,
            max_node_pairs,
            reset_at: Self::RESET_AT,
            index: StructureIndex::new(lambda),
            selfs: FnvMap::default(),
        }
    }

    fn index(&mut self, s: SubTree<'_>) -> IndexedTree {
        self.index.index_tree(s.tree)
    }

    fn kernel(&self, a: &Indexed<'_>, b: &Indexed<'_>) -> Result<f64, TooManyNodePairs> {
        self.index.tree_kernel_in_order(
            self.space,
            (a.0.tree, &a.1, a.0.root),
            (b.0.tree, &b.1, b.0.root),
            self.max_node_pairs,
        )
    }

    fn self_kernel(&mut self, a: &Indexed<'_>) -> Result<f64, TooManyNodePairs> {
        let shape = a.1.shape(a.0.root);
        if let Some(&k) = self.selfs.get(&shape) {
            return Ok(k);
        }
        let k = self.kernel(a, a)?;
        self.selfs.insert(shape, k);
        Ok(k)
    }

    /// Starts afresh when the index has grown past [`Self::RESET_AT`]
    /// (before indexing the next pair, so ids within a pair are comparable).
    fn bound_memory(&mut self) {
        if self.index.size() > self.reset_at {
            self.index = StructureIndex::new(self.lambda);
            self.selfs.clear();
        }
    }

    /// `K(S, S')`, normalised if asked: `K(S,S') / sqrt(K(S,S) K(S',S'))`.
    pub fn tree_kernel(&mut self, a: SubTree<'_>, b: SubTree<'_>, normalized: bool) -> Result<f64, TooManyNodePairs> {
        self.bound_memory();
        let (a, b) = ((a, self.index(a)), (b, self.index(b)));
        let k = self.kernel(&a, &b)?;
        if !normalized {
            return Ok(k);
        }
        Ok(normalize(k, self.self_kernel(&a)?, self.self_kernel(&b)?))
    }

    /// The bilingual tree kernel of `kind` between `x` and `y`, normalised
    /// as a whole if asked (paper §2).
    pub fn btk(
        &mut self,
        kind: BtkKind,
        x: SubTreePair<'_>,
        y: SubTreePair<'_>,
        normalized: bool,
    ) -> Result<f64, TooManyNodePairs> {
        self.bound_memory();
        let (xs, xt) = ((x.source, self.index(x.source)), (x.target, self.index(x.target)));
        let (ys, yt) = ((y.source, self.index(y.source)), (y.target, self.index(y.target)));
        let combine = |s: f64, t: f64| match kind {
            BtkKind::Ibtk => s + t,
            BtkKind::Dbtk => s * t,
        };
        let k = combine(self.kernel(&xs, &ys)?, self.kernel(&xt, &yt)?);
        if !normalized {
            return Ok(k);
        }
        let kx = combine(self.self_kernel(&xs)?, self.self_kernel(&xt)?);
        let ky = combine(self.self_kernel(&ys)?, self.self_kernel(&yt)?);
        Ok(normalize(k, kx, ky))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{btk, btk_normalized, tree_kernel, tree_kernel_normalized};
    use crate::tree::{NodeId, Tree};

    #[test]
    fn stream_values_equal_the_reference_kernels_bit_for_bit_on_real_trees() {
        let (src, trg): (Vec<Tree>, Vec<Tree>) =
            crate::corpus::sample(..).pairs.into_iter().map(|p| (p.source, p.target)).unzip();
        let n = 40;
        for space in Space::ALL {
            let mut stream = KernelStream::new(space, 0.4, u64::MAX);
            for i in 0..n {
                let (a, b) = (SubTree::whole(&src[i]), SubTree::whole(&src[i + 1]));
                for normalized in [false, true] {
                    let fast = stream.tree_kernel(a, b, normalized).unwrap();
                    let reference = if normalized {
                        tree_kernel_normalized(space, 0.4, a, b).unwrap()
                    } else {
                        tree_kernel(space, 0.4, a, b).unwrap()
                    };
                    assert_eq!(fast.to_bits(), reference.to_bits(), "{space} {i} {normalized}");
                }
                // Sub-trees too: node 1 of one pair against node 1 of the next.
                let node_1 = |k: usize| {
                    SubTreePair::new(SubTree::new(&src[k], NodeId::new(1)), SubTree::new(&trg[k], NodeId::new(1)))
                };
                let (x, y) = (node_1(i), node_1(i + 1));
                for kind in BtkKind::ALL {
                    let fast = stream.btk(kind, x, y, true).unwrap();
                    let reference = btk_normalized(kind, space, 0.4, x, y).unwrap();
                    assert_eq!(fast.to_bits(), reference.to_bits(), "{kind}-{space} {i}");
                    let fast = stream.btk(kind, x, y, false).unwrap();
                    assert_eq!(fast.to_bits(), btk(kind, space, 0.4, x, y).unwrap().to_bits());
                }
            }
        }
    }

    #[test]
    fn a_deep_unary_chain_is_refused_at_once_with_the_numbers() {
        // 20,000 nodes A (19,999 of them A -> A, one A -> B) over (B b).
        let deep = format!("{}(B b){}", "(A ".repeat(20_000), ")".repeat(20_000));
        let t = Tree::parse_one(&deep, "chain").unwrap();
        let mut stream = KernelStream::new(Space::Sst, 0.4, crate::kernel::DEFAULT_MAX_NODE_PAIRS);
        let e = stream.tree_kernel(SubTree::whole(&t), SubTree::whole(&t), false).unwrap_err();
        assert_eq!(
            e,
            TooManyNodePairs { pairs: 19_999 * 19_999 + 2, limit: 1_000_000, left_nodes: 20_001, right_nodes: 20_001 }
        );
        // The numbers; the option that raises the limit is the caller's to name.
        assert!(e.to_string().contains("399960003 node pairs") && !e.to_string().contains("--"), "{e}");
        // The same refusal from the reference kernel; RgSST (O(depth)) is computed.
        assert_eq!(tree_kernel(Space::Sst, 0.4, SubTree::whole(&t), SubTree::whole(&t)).unwrap_err(), e);
        let mut rg = KernelStream::new(Space::RgSst, 0.5, crate::kernel::DEFAULT_MAX_NODE_PAIRS);
        assert!(rg.tree_kernel(SubTree::whole(&t), SubTree::whole(&t), true).unwrap() == 1.0);
    }

    #[test]
    fn memory_is_bounded_by_resetting_the_index() {
        let mut stream = KernelStream::new(Space::Sst, 0.4, u64::MAX);
        stream.reset_at = 1000;
        let mut max = 0;
        for i in 0..3000 {
            let t = Tree::parse_one(&format!("(S (NP (N w{i}) (N v{i})) (V x{i}))"), "t").unwrap();
            let k = stream.tree_kernel(SubTree::whole(&t), SubTree::whole(&t), true).unwrap();
            assert_eq!(k, 1.0);
            max = max.max(stream.index.size());
        }
        assert!(max <= 1000 + 100, "{max}");
    }
}
