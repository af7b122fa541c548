//! The tree kernels' fast path: trees interned into integers, with Δ
//! memoised per pair of sub-tree *shapes*.
//!
//! A [`StructureIndex`] interns labels and words ("symbols"), productions and
//! whole sub-tree shapes to `u32` ids, once per tree. Δ(n, n') depends only
//! on the shapes of `n` and `n'`, so it is computed once per shape pair and
//! memoised (cost: one hash lookup per matched node pair after the first).
//! Two ways to sum it:
//!
//! - [`StructureIndex::tree_kernel`] over [`SubTreeKey`]s, the SVM's path: a
//!   sub-tree is a list of (production, shape, count) sorted by production,
//!   and `K(S, S') = Σ count·count'·Δ(shape, shape')` merges two lists. It
//!   is the cheapest per evaluation; its sum runs in the index's id order.
//! - [`StructureIndex::tree_kernel_in_order`] over [`IndexedTree`]s: the same
//!   Δ values summed over the node pairs `(n, n')` in pre-order, the order of
//!   [`crate::kernel::DeltaTable`], so the value is bit for bit that of
//!   [`crate::kernel::tree_kernel`] (the CLI's `kernel` and `btk` print it).
//!
//! Every evaluation is bounded: the number of matched node pairs (node pairs
//! with equal productions) is known before any Δ is computed, and a kernel
//! whose count passes the limit returns [`TooManyNodePairs`] instead of
//! running for minutes (a 20,000-deep unary chain has 4·10⁸).
//!
//! The index also serves SVM-Light-TK's trees ([`crate::svm_light_tk`]),
//! whose leaves are nodes of their own: [`StructureIndex::intern_node`] takes
//! any production and the shapes of a node's children, with [`LEAF`] for a
//! leaf child, and [`StructureIndex::with_sigma`] gives Moschitti's σ
//! (1: subset trees, Collins & Duffy; 0: subtrees, Vishwanathan & Smola):
//!
//! `Δ(n, n') = 0` if the productions differ; `λ` if either node is a
//! pre-terminal (all its children are leaves); else
//! `λ ∏_j (σ + Δ(c_j(n), c_j(n')))`, a leaf child or a child pair with
//! different productions contributing `σ`. With σ = 1 and this crate's
//! trees (a POS node is a pre-terminal whose word is part of its
//! production) it is the paper's Δ (§2.1).

use std::cell::RefCell;

use super::{Space, TooManyNodePairs};
use crate::hash::{FnvMap, WordMap};
use crate::tree::{NodeId, NodeRange, Tree};

/// The child of [`StructureIndex::intern_node`] that is a leaf, not a node.
pub const LEAF: u32 = u32::MAX;

/// Production keys start with their kind, so the kinds never collide.
const POS: u32 = 0;
const PHRASE: u32 = 1;

#[derive(Debug, Clone)]
struct Shape {
    production: u32,
    pre_terminal: bool,
    /// The children's shapes, [`LEAF`] for a leaf.
    children: Box<[u32]>,
}

/// Interned symbols, productions and sub-tree shapes of every tree seen, with
/// the Δ memo. One index serves a whole training or alignment run; a stream
/// of kernels resets it when it grows ([`StructureIndex::size`]).
#[derive(Debug, Clone)]
pub struct StructureIndex {
    lambda: f64,
    sigma: f64,
    symbols: WordMap<Box<str>, u32>,
    productions: WordMap<Box<[u32]>, u32>,
    /// (source label, target label) pairs, for the `ctx` kernel of `align::context`.
    label_pairs: WordMap<Box<[u32]>, u32>,
    shape_ids: WordMap<Box<[u32]>, u32>,
    shapes: Vec<Shape>,
    /// Δ per unordered shape pair (Δ is symmetric).
    delta_memo: RefCell<DeltaMemo>,
    /// A reusable key buffer.
    key: Vec<u32>,
    /// What was added since [`StructureIndex::checkpoint`], to be forgotten
    /// by [`StructureIndex::rollback`].
    journal: Option<Journal>,
}

/// The entries an index gained after its checkpoint: the counts it had
/// then, and the keys added since (a shape's key is rebuilt from the shape).
#[derive(Debug, Clone, Default)]
struct Journal {
    symbols: usize,
    productions: usize,
    label_pairs: usize,
    shapes: usize,
    added_symbols: Vec<Box<str>>,
    added_productions: Vec<Box<[u32]>>,
    added_label_pairs: Vec<Box<[u32]>>,
}

/// Δ per unordered pair of shapes, key `min << 32 | max`. (An
/// open-addressing table of its own was tried: no faster natively or in
/// wasm32 once measured robustly, and twice the bytes per entry.) After a
/// checkpoint, the keys of pairs with a shape newer than it are logged, so a
/// rollback removes them and keeps the Δ of older shape pairs.
#[derive(Debug, Clone, Default)]
struct DeltaMemo {
    values: FnvMap<u64, f64>,
    /// Shapes from this id on are newer than the checkpoint.
    journal_from: Option<u32>,
    added: Vec<u64>,
}

impl DeltaMemo {
    fn get(&self, key: &u64) -> Option<&f64> {
        self.values.get(key)
    }

    fn insert(&mut self, key: u64, value: f64) {
        // The key's low half is the larger shape id.
        if self.journal_from.is_some_and(|from| key as u32 >= from) {
            self.added.push(key);
        }
        self.values.insert(key, value);
    }

    fn len(&self) -> usize {
        self.values.len()
    }
}

/// The key of a shape pair in the [`DeltaMemo`] (Δ is symmetric).
fn memo_key(a: u32, b: u32) -> u64 {
    if a <= b {
        u64::from(a) << 32 | u64::from(b)
    } else {
        u64::from(b) << 32 | u64::from(a)
    }
}

/// A tree's nodes as interned ids, by node id.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedTree {
    label: Vec<u32>,
    production: Vec<u32>,
    shape: Vec<u32>,
    /// Node ids sorted by (production, id): the runs of equal productions.
    by_production: Vec<NodeId>,
}

impl IndexedTree {
    /// The interned shape of the sub-tree rooted at `n`.
    pub fn shape(&self, n: NodeId) -> u32 {
        self.shape[n.index()]
    }

    /// The nodes of `range` (a sub-tree) sorted by (production, id): the
    /// tree's own order filtered when the sub-tree is much of the tree,
    /// else its nodes sorted (a small sub-tree of a long sentence).
    fn production_sorted(&self, range: NodeRange) -> std::borrow::Cow<'_, [NodeId]> {
        if range.len() == self.by_production.len() {
            std::borrow::Cow::Borrowed(&self.by_production)
        } else if 4 * range.len() >= self.by_production.len() {
            self.by_production.iter().copied().filter(|n| range.contains(n)).collect()
        } else {
            let mut nodes: Vec<NodeId> = range.collect();
            nodes.sort_unstable_by_key(|&k| (self.production[k.index()], k));
            std::borrow::Cow::Owned(nodes)
        }
    }
}

/// A sub-tree as the SVM's kernels see it.
#[derive(Debug, Clone, PartialEq)]
pub struct SubTreeKey {
    root_label: u32,
    root_shape: u32,
    /// (production, shape, count) over the sub-tree's nodes, sorted.
    nodes: Vec<(u32, u32, u32)>,
    /// Node pairs with equal productions between the sub-tree and itself.
    self_node_pairs: u64,
}

impl SubTreeKey {
    /// Interned label of the root.
    pub fn root_label(&self) -> u32 {
        self.root_label
    }

    /// Interned shape of the whole sub-tree.
    pub fn root_shape(&self) -> u32 {
        self.root_shape
    }

    /// (production, shape, count) over the sub-tree's nodes, sorted.
    pub fn entries(&self) -> &[(u32, u32, u32)] {
        &self.nodes
    }

    /// The matched node pairs of `K(S, S)`. By Cauchy–Schwarz, `K(S, S')`
    /// matches at most `sqrt(self(S) · self(S'))` pairs, so checking every
    /// key once bounds every evaluation between them.
    pub fn self_node_pairs(&self) -> u64 {
        self.self_node_pairs
    }

    /// [`TooManyNodePairs`] if `K(S, S)` passes `limit`.
    pub fn check(&self, limit: u64) -> Result<(), TooManyNodePairs> {
        if self.self_node_pairs > limit {
            let n = self.nodes.iter().map(|e| u64::from(e.2)).sum();
            return Err(TooManyNodePairs { pairs: self.self_node_pairs, limit, left_nodes: n, right_nodes: n });
        }
        Ok(())
    }
}

impl StructureIndex {
    /// An index for subset-tree kernels (σ = 1) with decay `lambda`.
    pub fn new(lambda: f64) -> Self {
        Self::with_sigma(lambda, 1.0)
    }

    /// An index whose Δ uses `sigma` (module documentation): 1 for subset
    /// trees, 0 for subtrees.
    pub fn with_sigma(lambda: f64, sigma: f64) -> Self {
        StructureIndex {
            lambda,
            sigma,
            symbols: WordMap::default(),
            productions: WordMap::default(),
            label_pairs: WordMap::default(),
            shape_ids: WordMap::default(),
            shapes: Vec::new(),
            delta_memo: RefCell::new(DeltaMemo::default()),
            key: Vec::new(),
            journal: None,
        }
    }

    /// Marks what the index holds now as kept: [`StructureIndex::rollback`]
    /// forgets everything interned and memoised after this point (a later
    /// checkpoint replaces this one).
    ///
    /// Why: the SVM's sums ([`StructureIndex::tree_kernel`]) run in id
    /// order, so the bits of a kernel value depend on the ids its trees got.
    /// A scorer that rolls back to the support vectors' index before each
    /// pair gives that pair the ids it would get alone: its values do not
    /// depend on which pairs came before it (on another thread, in another
    /// worker, or none), and the index does not grow with the input.
    pub fn checkpoint(&mut self) {
        self.journal = Some(Journal {
            symbols: self.symbols.len(),
            productions: self.productions.len(),
            label_pairs: self.label_pairs.len(),
            shapes: self.shapes.len(),
            ..Journal::default()
        });
        let memo = self.delta_memo.get_mut();
        memo.journal_from = Some(self.shapes.len() as u32);
        memo.added.clear();
    }

    /// Forgets every symbol, production, label pair, shape and Δ added since
    /// the last [`StructureIndex::checkpoint`] (nothing without one): ids
    /// given out after it are given out again.
    pub fn rollback(&mut self) {
        let Some(journal) = &mut self.journal else { return };
        for key in journal.added_symbols.drain(..) {
            self.symbols.remove(&key);
        }
        for key in journal.added_productions.drain(..) {
            self.productions.remove(&key);
        }
        for key in journal.added_label_pairs.drain(..) {
            self.label_pairs.remove(&key);
        }
        let mut key = std::mem::take(&mut self.key);
        for shape in self.shapes.drain(journal.shapes..) {
            key.clear();
            key.extend([shape.production, u32::from(shape.pre_terminal)]);
            key.extend_from_slice(&shape.children);
            self.shape_ids.remove(key.as_slice());
        }
        self.key = key;
        let memo = self.delta_memo.get_mut();
        for key in std::mem::take(&mut memo.added) {
            memo.values.remove(&key);
        }
        debug_assert_eq!(
            (self.symbols.len(), self.productions.len(), self.label_pairs.len(), self.shape_ids.len()),
            (journal.symbols, journal.productions, journal.label_pairs, journal.shapes)
        );
    }

    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// Entries held (symbols, productions, shapes, memoised Δ): what a
    /// long stream watches to reset the index.
    pub fn size(&self) -> usize {
        self.symbols.len()
            + self.productions.len()
            + self.label_pairs.len()
            + self.shapes.len()
            + self.delta_memo.borrow().len()
    }

    /// Interned production at the root of a shape (RgSST is 0 unless equal).
    pub fn shape_production(&self, shape: u32) -> u32 {
        self.shapes[shape as usize].production
    }

    /// The children of a shape ([`LEAF`] for a leaf).
    pub fn children(&self, shape: u32) -> &[u32] {
        &self.shapes[shape as usize].children
    }

    /// Whether a shape is a pre-terminal's (Δ = λ against any shape of its production).
    pub fn is_pre_terminal(&self, shape: u32) -> bool {
        self.shapes[shape as usize].pre_terminal
    }

    /// The id of a label or word.
    pub fn symbol(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.symbols.get(s) {
            return id;
        }
        let id = self.symbols.len() as u32;
        self.symbols.insert(s.into(), id);
        if let Some(j) = &mut self.journal {
            j.added_symbols.push(s.into());
        }
        id
    }

    /// The id of a pair of a source and a target label (ids of pairs only
    /// compare with ids of pairs).
    pub fn label_pair(&mut self, source: &str, target: &str) -> u32 {
        let key = [self.symbol(source), self.symbol(target)];
        let (id, new) = Self::intern(&mut self.label_pairs, &key);
        if let (true, Some(j)) = (new, &mut self.journal) {
            j.added_label_pairs.push(key.into());
        }
        id
    }

    fn intern(map: &mut WordMap<Box<[u32]>, u32>, key: &[u32]) -> (u32, bool) {
        if let Some(&id) = map.get(key) {
            return (id, false);
        }
        let id = map.len() as u32;
        map.insert(key.into(), id);
        (id, true)
    }

    /// Interns a node bottom-up: its production (any symbol sequence; equal
    /// sequences are equal productions), whether it is a pre-terminal, and
    /// its children's shapes ([`LEAF`] for a leaf). Returns (production, shape).
    pub fn intern_node(&mut self, production: &[u32], pre_terminal: bool, children: &[u32]) -> (u32, u32) {
        let (p, new) = Self::intern(&mut self.productions, production);
        if let (true, Some(j)) = (new, &mut self.journal) {
            j.added_productions.push(production.into());
        }
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        key.extend([p, u32::from(pre_terminal)]);
        key.extend_from_slice(children);
        let (shape, new) = Self::intern(&mut self.shape_ids, &key);
        if new {
            self.shapes.push(Shape { production: p, pre_terminal, children: children.into() });
        }
        self.key = key;
        (p, shape)
    }

    /// Interns every node of `tree` (a POS node's production is its label
    /// and word, a phrase node's its label and its children's labels).
    pub fn index_tree(&mut self, tree: &Tree) -> IndexedTree {
        let n = tree.len();
        let label: Vec<u32> = tree.node_ids().map(|k| self.symbol(tree.label(k))).collect();
        let (mut production, mut shape) = (vec![0u32; n], vec![0u32; n]);
        let mut key = Vec::new();
        let mut kids = Vec::new();
        // Bottom-up: children have larger pre-order ids.
        for k in tree.node_ids().rev() {
            key.clear();
            kids.clear();
            match tree.word_of(k) {
                Some(w) => key.extend([POS, label[k.index()], self.symbol(w)]),
                None => {
                    key.extend([PHRASE, label[k.index()]]);
                    for &c in tree.children(k) {
                        key.push(label[c.index()]);
                        kids.push(shape[c.index()]);
                    }
                }
            }
            (production[k.index()], shape[k.index()]) = self.intern_node(&key, tree.is_pos(k), &kids);
        }
        let mut by_production: Vec<NodeId> = tree.node_ids().collect();
        by_production.sort_unstable_by_key(|&k| (production[k.index()], k));
        IndexedTree { label, production, shape, by_production }
    }

    /// The key of the sub-tree rooted at `n`.
    pub fn subtree_key(&self, tree: &Tree, indexed: &IndexedTree, n: NodeId) -> SubTreeKey {
        self.key_of(
            indexed.label[n.index()],
            indexed.shape[n.index()],
            tree.subtree(n).map(|k| (indexed.production[k.index()], indexed.shape[k.index()])),
        )
    }

    /// The key of a sub-tree from its root's label and shape and the
    /// (production, shape) of each of its nodes (leaves excluded).
    pub fn key_of(&self, root_label: u32, root_shape: u32, nodes: impl Iterator<Item = (u32, u32)>) -> SubTreeKey {
        let mut nodes: Vec<(u32, u32, u32)> = nodes.map(|(p, s)| (p, s, 1)).collect();
        nodes.sort_unstable();
        // Merge identical (production, shape) entries into counts.
        let mut merged: Vec<(u32, u32, u32)> = Vec::with_capacity(nodes.len());
        for e in nodes {
            match merged.last_mut() {
                Some(last) if (last.0, last.1) == (e.0, e.1) => last.2 += 1,
                _ => merged.push(e),
            }
        }
        let mut self_node_pairs = 0u64;
        for run in merged.chunk_by(|a, b| a.0 == b.0) {
            let c: u64 = run.iter().map(|e| u64::from(e.2)).sum();
            self_node_pairs = self_node_pairs.saturating_add(c.saturating_mul(c));
        }
        SubTreeKey { root_label, root_shape, nodes: merged, self_node_pairs }
    }

    /// Δ between two shapes (module documentation), memoised; iterative, so
    /// deep trees cannot overflow the stack.
    pub fn delta(&self, a: u32, b: u32) -> f64 {
        // The cheap cases without borrowing the memo (the kernel sums of
        // `svm_light_tk` call this per shape pair, many of them pre-terminal).
        let (sa, sb) = (&self.shapes[a as usize], &self.shapes[b as usize]);
        if sa.production != sb.production {
            return 0.0;
        }
        if sa.pre_terminal || sb.pre_terminal {
            return self.lambda;
        }
        self.delta_in(&mut self.delta_memo.borrow_mut(), a, b)
    }

    /// [`StructureIndex::delta`] with the memo borrowed once by the caller
    /// (a kernel sum looks up many pairs).
    fn delta_in(&self, memo: &mut DeltaMemo, a: u32, b: u32) -> f64 {
        let (sa, sb) = (&self.shapes[a as usize], &self.shapes[b as usize]);
        if sa.production != sb.production {
            return 0.0;
        }
        if sa.pre_terminal || sb.pre_terminal {
            return self.lambda;
        }
        let key = memo_key;
        if let Some(&d) = memo.get(&key(a, b)) {
            return d;
        }
        // Post-order over the child pairs with equal productions:
        // (shape, shape', next child, product so far).
        let mut stack: Vec<(u32, u32, usize, f64)> = vec![(a, b, 0, 1.0)];
        let mut finished = 0.0;
        while let Some(top) = stack.last_mut() {
            let (ua, ub) = (&self.shapes[top.0 as usize], &self.shapes[top.1 as usize]);
            if top.2 < ua.children.len() {
                let (ca, cb) = (ua.children[top.2], ub.children[top.2]);
                top.2 += 1;
                if ca == LEAF
                    || cb == LEAF
                    || self.shapes[ca as usize].production != self.shapes[cb as usize].production
                {
                    top.3 *= self.sigma;
                } else if self.shapes[ca as usize].pre_terminal || self.shapes[cb as usize].pre_terminal {
                    top.3 *= self.sigma + self.lambda;
                } else if let Some(&d) = memo.get(&key(ca, cb)) {
                    top.3 *= self.sigma + d;
                } else {
                    stack.push((ca, cb, 0, 1.0));
                }
            } else {
                let d = self.lambda * top.3;
                memo.insert(key(top.0, top.1), d);
                stack.pop();
                match stack.last_mut() {
                    Some(parent) => parent.3 *= self.sigma + d,
                    None => finished = d,
                }
            }
        }
        finished
    }

    /// `K(S, S')` in `space` (paper §2.1, §3), summed over the keys' entries.
    /// Unchecked: check each key once with [`SubTreeKey::check`].
    pub fn tree_kernel(&self, space: Space, a: &SubTreeKey, b: &SubTreeKey) -> f64 {
        match space {
            Space::Root => f64::from(u8::from(a.root_label == b.root_label)),
            Space::RgSst => self.delta(a.root_shape, b.root_shape),
            Space::RdSst if a.root_label != b.root_label => 0.0,
            Space::Sst | Space::RdSst => self.sst_sum(a, b),
        }
    }

    /// `Σ_{n∈S} Σ_{n'∈S'} Δ(n, n')` by merging the production-sorted lists.
    fn sst_sum(&self, a: &SubTreeKey, b: &SubTreeKey) -> f64 {
        let memo = &mut self.delta_memo.borrow_mut();
        let mut sum = 0.0;
        for (xs, ys) in equal_production_runs(&a.nodes, &b.nodes) {
            for &(_, sa, ca) in xs {
                for &(_, sb, cb) in ys {
                    // Both counts are exact in f64, so their product is the
                    // exact product rounded once, as `(ca * cb) as f64` (whose
                    // unsigned 64-bit conversion costs more, in wasm32 too).
                    sum += f64::from(ca) * f64::from(cb) * self.delta_in(memo, sa, sb);
                }
            }
        }
        sum
    }

    /// `K(S, S')` in `space` for the sub-trees rooted at `a.2` and `b.2`,
    /// summed over node pairs in pre-order: the value of
    /// [`crate::kernel::tree_kernel`], bit for bit, or [`TooManyNodePairs`]
    /// when the SST sum would visit more than `limit` node pairs.
    pub fn tree_kernel_in_order(
        &self,
        space: Space,
        a: (&Tree, &IndexedTree, NodeId),
        b: (&Tree, &IndexedTree, NodeId),
        limit: u64,
    ) -> Result<f64, TooManyNodePairs> {
        let ((ta, ia, ra), (tb, ib, rb)) = (a, b);
        match space {
            Space::Root => return Ok(f64::from(u8::from(ia.label[ra.index()] == ib.label[rb.index()]))),
            Space::RgSst => return Ok(self.delta(ia.shape[ra.index()], ib.shape[rb.index()])),
            Space::RdSst if ia.label[ra.index()] != ib.label[rb.index()] => return Ok(0.0),
            Space::Sst | Space::RdSst => {}
        }
        let (sa, sb) = (ta.subtree(ra), tb.subtree(rb));
        // For each node u of S, its run of equal productions among the nodes
        // of S' in `order` (in increasing id): one merge of the two trees'
        // production-sorted lists.
        let (mut order, mut runs) = (Vec::new(), vec![(0u32, 0u32); sa.len()]);
        let (in_a, in_b) = (ia.production_sorted(sa.clone()), ib.production_sorted(sb.clone()));
        let mut in_b = in_b.iter().copied().peekable();
        let mut pairs = 0u64;
        let mut last: Option<(u32, (u32, u32))> = None;
        for &u in in_a.iter() {
            let p = ia.production[u.index()];
            let run = match last {
                Some((q, run)) if q == p => run,
                _ => {
                    while in_b.next_if(|&v| ib.production[v.index()] < p).is_some() {}
                    let lo = order.len() as u32;
                    while let Some(v) = in_b.next_if(|&v| ib.production[v.index()] == p) {
                        order.push(v);
                    }
                    (lo, order.len() as u32)
                }
            };
            last = Some((p, run));
            runs[u.index() - sa.start.index()] = run;
            pairs += u64::from(run.1 - run.0);
        }
        if pairs > limit {
            return Err(TooManyNodePairs { pairs, limit, left_nodes: sa.len() as u64, right_nodes: sb.len() as u64 });
        }
        // In pre-order of u, then of v: the order of the reference's sum, so
        // the same bits. A fold from +0.0, not `sum()`, whose empty sum is
        // -0.0 and would print "-0".
        let memo = &mut self.delta_memo.borrow_mut();
        let mut sum = 0.0;
        for (u, &(lo, hi)) in sa.zip(&runs) {
            let su = ia.shape[u.index()];
            for &v in &order[lo as usize..hi as usize] {
                sum += self.delta_in(memo, su, ib.shape[v.index()]);
            }
        }
        Ok(sum)
    }
}

/// `(production, shape, count)` of a sub-tree's nodes ([`SubTreeKey::entries`]).
pub(crate) type NodeEntry = (u32, u32, u32);

/// The runs of one production in two production-sorted `(production, shape,
/// count)` lists, in increasing production: the only node pairs whose Δ can
/// be non-zero (a merge, so linear in the two lengths).
pub(crate) fn equal_production_runs<'a>(
    x: &'a [NodeEntry],
    y: &'a [NodeEntry],
) -> impl Iterator<Item = (&'a [NodeEntry], &'a [NodeEntry])> + 'a {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || {
        while i < x.len() && j < y.len() {
            match x[i].0.cmp(&y[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    let p = x[i].0;
                    let i_end = i + x[i..].iter().take_while(|e| e.0 == p).count();
                    let j_end = j + y[j..].iter().take_while(|e| e.0 == p).count();
                    let runs = (&x[i..i_end], &y[j..j_end]);
                    (i, j) = (i_end, j_end);
                    return Some(runs);
                }
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{tree_kernel, SubTree};

    #[test]
    fn indexed_kernels_equal_the_reference_kernels_on_real_sub_trees() {
        let trees: Vec<Tree> = crate::corpus::sample(..30).pairs.into_iter().map(|p| p.source).collect();
        let mut index = StructureIndex::new(0.4);
        let indexed: Vec<IndexedTree> = trees.iter().map(|t| index.index_tree(t)).collect();
        let mut checked = 0;
        for (a, b) in (0..trees.len()).zip((1..trees.len()).chain([0])) {
            for na in (0..trees[a].len()).step_by(3) {
                for nb in (0..trees[b].len()).step_by(2) {
                    let ka = index.subtree_key(&trees[a], &indexed[a], NodeId::new(na));
                    let kb = index.subtree_key(&trees[b], &indexed[b], NodeId::new(nb));
                    let (sa, sb) = (SubTree::new(&trees[a], NodeId::new(na)), SubTree::new(&trees[b], NodeId::new(nb)));
                    for space in Space::ALL {
                        let fast = index.tree_kernel(space, &ka, &kb);
                        let reference = tree_kernel(space, 0.4, sa, sb).unwrap();
                        assert!(
                            (fast - reference).abs() <= 1e-9 * (1.0 + reference.abs()),
                            "{space}: {fast} vs {reference}"
                        );
                        checked += usize::from(reference > 0.0);
                    }
                }
            }
        }
        assert!(checked > 500, "{checked} non-zero values checked");
    }

    /// A scorer's use: support vectors indexed, a checkpoint, then each
    /// pair after a rollback gets the same ids, keys and values whichever
    /// pairs came before it, and the index is back to its size.
    #[test]
    fn after_a_rollback_a_tree_gets_the_ids_and_values_it_would_get_alone() {
        let trees: Vec<Tree> = crate::corpus::sample(..).pairs.into_iter().map(|p| p.source).collect();
        let mut index = StructureIndex::new(0.4);
        let base: Vec<SubTreeKey> = trees[..10]
            .iter()
            .map(|t| {
                let it = index.index_tree(t);
                index.subtree_key(t, &it, NodeId::ROOT)
            })
            .collect();
        let _ = index.label_pair("NP", "SN");
        index.checkpoint();
        let interned = |i: &StructureIndex| (i.symbols.len(), i.productions.len(), i.label_pairs.len(), i.shapes.len());
        let size = interned(&index);
        // Pair 20's keys and kernel values against the base, after pairs `before`.
        let mut seen = |before: &[usize]| {
            index.rollback();
            for &k in before {
                let it = index.index_tree(&trees[k]);
                let key = index.subtree_key(&trees[k], &it, NodeId::ROOT);
                let _ = index.tree_kernel(Space::Sst, &key, &base[0]);
                let _ = index.label_pair(trees[k].label(NodeId::new(1)), "X");
            }
            index.rollback();
            // Δ of two support vectors' shapes may stay memoised (their ids are fixed).
            assert_eq!(interned(&index), size);
            assert!(index.delta_memo.borrow().values.keys().all(|&k| (k as u32) < size.3 as u32));
            let t = &trees[20];
            let it = index.index_tree(t);
            let keys: Vec<SubTreeKey> = (0..t.len()).map(|n| index.subtree_key(t, &it, NodeId::new(n))).collect();
            let values: Vec<u64> = keys
                .iter()
                .flat_map(|k| base.iter().map(move |b| (k, b)))
                .flat_map(|(k, b)| [index.tree_kernel(Space::Sst, k, b), index.tree_kernel(Space::Sst, k, k)])
                .map(f64::to_bits)
                .collect();
            (keys, values, index.label_pair("S", "X"))
        };
        let alone = seen(&[]);
        assert!(alone.1.iter().any(|&v| f64::from_bits(v) > 0.0));
        for before in [&[21, 22][..], &[20], &[30, 20, 40, 50]] {
            assert!(seen(before) == alone, "after pairs {before:?}");
        }
        // Without the rollback, pair 20's new shapes would get other ids.
        index.rollback();
        let it = index.index_tree(&trees[30]);
        let _ = index.subtree_key(&trees[30], &it, NodeId::ROOT);
        let it = index.index_tree(&trees[20]);
        assert_ne!(index.subtree_key(&trees[20], &it, NodeId::ROOT), alone.0[0]);
    }

    #[test]
    fn key_checks_bound_every_evaluation_between_checked_keys() {
        let t = Tree::parse_one("(S (NP (N a) (N a)) (NP (N a) (N b)) (V c))", "t").unwrap();
        let mut index = StructureIndex::new(0.4);
        let it = index.index_tree(&t);
        let key = index.subtree_key(&t, &it, NodeId::new(0));
        // Productions: S (1 node), NP -> N N (2), N -> a (3), N -> b (1), V -> c (1).
        assert_eq!(key.self_node_pairs(), 1 + 4 + 9 + 1 + 1);
        assert!(key.check(16).is_ok());
        let e = key.check(15).unwrap_err();
        assert_eq!((e.pairs, e.limit, e.left_nodes), (16, 15, 8));
    }
}
