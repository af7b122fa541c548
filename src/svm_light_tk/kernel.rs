//! SVM-Light-TK's kernel over examples (`-t 5`), on treelink's fast path.
//!
//! For examples `a` and `b` with trees `a_i`, `b_j` and vectors `u_i`, `v_j`:
//!
//! - tree part: `-W S` sums `K̂(a_i, b_i)` over `i < min(#a, #b)`; `-W A`
//!   sums `K̂(a_i, b_j)` over all pairs;
//! - vector part (`-V S` / `-V A` alike) of `K̂v(u_i, v_j)`;
//! - `-C T`: the tree part; `-C +`: vector part + `T` · tree part.
//!
//! `K(t, t')` is the ST kernel (`-F 0`, σ = 0: Vishwanathan & Smola's
//! subtrees, as SVM-Light-TK computes it) or the SST kernel (`-F 1`, σ = 1:
//! Collins & Duffy), with decay `-L` (see [`crate::kernel::index`] for Δ).
//! `Kv` is `u·v` (`-S 0`) or `(s u·v + r)^d` (`-S 1`). Normalisation is per
//! tree and per vector, as SVM-Light-TK's `evaluateNorma` does it:
//! `K̂(x, y) = K(x, y) / sqrt(n(x) n(y))` with `n(x) = K(x, x)`, or 1 when
//! that is 0 or normalisation is off for trees (`-N 0`, `-N 2`) or vectors
//! (`-N 0`, `-N 1`). An empty tree or a missing vector contributes 0.
//!
//! Everything is computed in f64; SVM-Light-TK rounds each kernel value
//! and vector weight to f32, so the two agree to about 7 digits.

use std::fmt;

use super::example::{Example, TkTree};
use crate::hash::FnvMap;
use crate::kernel::index::{equal_production_runs, StructureIndex, SubTreeKey, LEAF};
use crate::kernel::TooManyNodePairs;
use crate::svm::PolyKernel;

/// `-F`: which tree kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeKernel {
    /// `-F 0`: subtrees (Vishwanathan & Smola 2002), σ = 0.
    Subtree,
    /// `-F 1`: subset trees (Collins & Duffy 2002), σ = 1.
    SubsetTree,
}

/// `-W` / `-V`: how the trees (vectors) of two examples pair up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    /// `S`: the i-th with the i-th.
    Sequence,
    /// `A`: every one with every one.
    AllPairs,
}

/// `-C`: what the kernel is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combination {
    /// `T`: trees only.
    Trees,
    /// `+`: vectors plus `-T` times trees.
    Sum,
}

/// `-S` (with `-d`, `-s`, `-r`): the kernel on vectors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VectorKernel {
    /// `-S 0`: `u·v`.
    Linear,
    /// `-S 1`: `(s u·v + r)^d`.
    Polynomial(PolyKernel),
}

/// Every setting of SVM-Light-TK's kernel that treelink supports.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelParams {
    pub tree_kernel: TreeKernel,
    pub trees: Pairing,
    pub vectors: Pairing,
    pub combination: Combination,
    /// `-L`: the decay λ.
    pub lambda: f64,
    /// `-T`: the weight of the tree part in `-C +`.
    pub tree_constant: f64,
    /// `-N`: 0 none, 1 trees, 2 vectors, 3 both.
    pub normalization: u8,
    pub vector_kernel: VectorKernel,
}

impl Default for KernelParams {
    /// SVM-Light-TK's defaults: `-F 1 -W S -V S -C T -L 0.4 -T 1 -N 3 -S 1 -d 3 -s 1 -r 1`.
    fn default() -> Self {
        KernelParams {
            tree_kernel: TreeKernel::SubsetTree,
            trees: Pairing::Sequence,
            vectors: Pairing::Sequence,
            combination: Combination::Trees,
            lambda: 0.4,
            tree_constant: 1.0,
            normalization: 3,
            vector_kernel: VectorKernel::Polynomial(PolyKernel { gamma: 1.0, coef0: 1.0, degree: 3 }),
        }
    }
}

impl KernelParams {
    fn normalize_trees(&self) -> bool {
        matches!(self.normalization, 1 | 3)
    }

    fn normalize_vectors(&self) -> bool {
        matches!(self.normalization, 2 | 3)
    }

    fn sigma(&self) -> f64 {
        match self.tree_kernel {
            TreeKernel::Subtree => 0.0,
            TreeKernel::SubsetTree => 1.0,
        }
    }

    fn vector_kernel(&self, u: &[(u32, f64)], v: &[(u32, f64)]) -> f64 {
        let dot = sparse_dot(u, v);
        match self.vector_kernel {
            VectorKernel::Linear => dot,
            VectorKernel::Polynomial(p) => p.of_dot(dot),
        }
    }
}

impl fmt::Display for Pairing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pairing::Sequence => "S",
            Pairing::AllPairs => "A",
        })
    }
}

/// `u·v` over sparse vectors sorted by index.
fn sparse_dot(u: &[(u32, f64)], v: &[(u32, f64)]) -> f64 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < u.len() && j < v.len() {
        match u[i].0.cmp(&v[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += u[i].1 * v[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

/// An example as the kernel sees it: interned trees with their norms, and
/// vectors with theirs.
#[derive(Debug, Clone)]
pub struct Doc {
    trees: Vec<Option<(SubTreeKey, f64)>>,
    vectors: Vec<(Vec<(u32, f64)>, f64)>,
}

/// The kernel of a set of documents, sharing one index.
#[derive(Debug)]
pub struct ForestKernel {
    pub params: KernelParams,
    index: StructureIndex,
    max_node_pairs: u64,
}

/// Why an example cannot enter the kernel.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tree {} of the example: {error}: raise the limit (--max-node-pairs) to compute it", tree + 1)]
pub struct DocError {
    pub tree: usize,
    pub error: TooManyNodePairs,
}

impl ForestKernel {
    /// `max_node_pairs` bounds each tree kernel (every tree's self-kernel is
    /// checked, which bounds every kernel between checked trees).
    pub fn new(params: KernelParams, max_node_pairs: u64) -> Self {
        let index = StructureIndex::with_sigma(params.lambda, params.sigma());
        ForestKernel { params, index, max_node_pairs }
    }

    /// Interns a tree: every node with children is a kernel node (its
    /// production is its label and its children's labels, leaves included);
    /// a pre-terminal has only leaves as children.
    fn key(&mut self, t: &TkTree) -> SubTreeKey {
        let n = t.len();
        let (mut production, mut shape) = (vec![LEAF; n], vec![LEAF; n]);
        let (mut key, mut kids) = (Vec::new(), Vec::new());
        for k in (0..n).rev() {
            if t.children[k].is_empty() {
                continue;
            }
            key.clear();
            kids.clear();
            key.push(self.index.symbol(&t.labels[k]));
            for &c in &t.children[k] {
                key.push(self.index.symbol(&t.labels[c]));
                kids.push(shape[c]);
            }
            let pre_terminal = kids.iter().all(|&s| s == LEAF);
            (production[k], shape[k]) = self.index.intern_node(&key, pre_terminal, &kids);
        }
        let root_label = self.index.symbol(&t.labels[0]);
        let nodes = (0..n).filter(|&k| shape[k] != LEAF).map(|k| (production[k], shape[k]));
        self.index.key_of(root_label, shape[0], nodes)
    }

    /// The document of an example: its trees interned and checked against
    /// the node-pair limit, and every norm computed.
    pub fn doc(&mut self, e: &Example) -> Result<Doc, DocError> {
        let mut trees = Vec::with_capacity(e.trees.len());
        for (i, t) in e.trees.iter().enumerate() {
            trees.push(match t {
                None => None,
                Some(t) => {
                    let key = self.key(t);
                    key.check(self.max_node_pairs).map_err(|error| DocError { tree: i, error })?;
                    let k = self.raw_tree(&key, &key);
                    let norm = if k != 0.0 && self.params.normalize_trees() { k } else { 1.0 };
                    Some((key, norm))
                }
            });
        }
        let vectors = e
            .vectors
            .iter()
            .map(|v| {
                let k = self.params.vector_kernel(v, v);
                (v.clone(), if k != 0.0 && self.params.normalize_vectors() { k } else { 1.0 })
            })
            .collect();
        Ok(Doc { trees, vectors })
    }

    /// `K(a, b)`, summed in one canonical order that a whole row can also
    /// be computed in ([`RowKernel`]): per production `p` shared by both
    /// (increasing), `Σ_{x∈a_p} c_x · (Σ_{y∈b_p} c_y · Δ(x, y))`, shapes in
    /// increasing order.
    pub fn raw_tree(&self, a: &SubTreeKey, b: &SubTreeKey) -> f64 {
        let mut sum = 0.0;
        for (xs, ys) in equal_production_runs(a.entries(), b.entries()) {
            let mut acc = 0.0;
            for &(_, sa, ca) in xs {
                let mut inner = 0.0;
                for &(_, sb, cb) in ys {
                    inner += f64::from(cb) * self.index.delta(sa, sb);
                }
                acc += f64::from(ca) * inner;
            }
            sum += acc;
        }
        sum
    }

    /// `K̂(a_i, b_j)`: 0 if either tree is empty.
    fn tree(&self, a: &Option<(SubTreeKey, f64)>, b: &Option<(SubTreeKey, f64)>) -> f64 {
        match (a, b) {
            (Some((x, nx)), Some((y, ny))) => self.raw_tree(x, y) / (nx * ny).sqrt(),
            _ => 0.0,
        }
    }

    fn vector(&self, a: &(Vec<(u32, f64)>, f64), b: &(Vec<(u32, f64)>, f64)) -> f64 {
        self.params.vector_kernel(&a.0, &b.0) / (a.1 * b.1).sqrt()
    }

    // Sums fold from +0.0 (an empty `sum()` is -0.0), so that rows computed
    // at once (RowKernel) give the same bits.
    fn tree_part(&self, a: &Doc, b: &Doc) -> f64 {
        match self.params.trees {
            Pairing::Sequence => a.trees.iter().zip(&b.trees).fold(0.0, |acc, (x, y)| acc + self.tree(x, y)),
            Pairing::AllPairs => {
                a.trees.iter().flat_map(|x| b.trees.iter().map(move |y| self.tree(x, y))).fold(0.0, |acc, v| acc + v)
            }
        }
    }

    fn vector_part(&self, a: &Doc, b: &Doc) -> f64 {
        match self.params.vectors {
            Pairing::Sequence => a.vectors.iter().zip(&b.vectors).fold(0.0, |acc, (x, y)| acc + self.vector(x, y)),
            Pairing::AllPairs => a
                .vectors
                .iter()
                .flat_map(|x| b.vectors.iter().map(move |y| self.vector(x, y)))
                .fold(0.0, |acc, v| acc + v),
        }
    }

    /// `K(a, b)` (module documentation).
    pub fn eval(&self, a: &Doc, b: &Doc) -> f64 {
        match self.params.combination {
            Combination::Trees => self.tree_part(a, b),
            Combination::Sum => self.vector_part(a, b) + self.params.tree_constant * self.tree_part(a, b),
        }
    }

    /// The decision function `D(x) = Σ_i coef_i K(sv_i, x) − b` folded over
    /// the support vectors' trees, so classifying costs one pass over the
    /// test example's nodes instead of one kernel per support vector.
    pub fn decision_function(&self, svs: &[(f64, Doc)], b: f64) -> Decision {
        let tree_weight = match self.params.combination {
            Combination::Trees => 1.0,
            Combination::Sum => self.params.tree_constant,
        };
        // Slot j of x meets tree j (S) or every tree (A) of each SV.
        let slots = match self.params.trees {
            Pairing::Sequence => svs.iter().map(|(_, d)| d.trees.len()).max().unwrap_or(0),
            Pairing::AllPairs => 1,
        };
        // Per slot: the weight of each (production, shape), summed in SV order.
        let mut sums: Vec<FnvMap<(u32, u32), f64>> = vec![FnvMap::default(); slots];
        for (coef, sv) in svs {
            for (i, t) in sv.trees.iter().enumerate() {
                let Some((key, norm)) = t else { continue };
                let slot = if self.params.trees == Pairing::Sequence { i } else { 0 };
                let w = tree_weight * coef / norm.sqrt();
                for &(p, s, c) in key.entries() {
                    *sums[slot].entry((p, s)).or_insert(0.0) += w * f64::from(c);
                }
            }
        }
        let weights = sums
            .into_iter()
            .map(|slot| {
                let mut entries: Vec<((u32, u32), f64)> = slot.into_iter().collect();
                entries.sort_unstable_by_key(|e| e.0);
                let mut groups: FnvMap<u32, Group> = FnvMap::default();
                for ((p, s), w) in entries {
                    let g = groups.entry(p).or_default();
                    g.shapes.push((s, w));
                    g.total += w;
                }
                groups
            })
            .collect();
        let vector_svs = match self.params.combination {
            Combination::Trees => Vec::new(),
            Combination::Sum => svs.iter().filter(|(_, d)| !d.vectors.is_empty()).cloned().collect(),
        };
        Decision { weights, vector_svs, b }
    }

    /// `D(x)` by the folded decision function.
    pub fn decide(&self, d: &Decision, x: &Doc) -> f64 {
        let mut sum = 0.0;
        for (j, t) in x.trees.iter().enumerate() {
            let Some((key, norm)) = t else { continue };
            let slots: &[FnvMap<u32, Group>] = match self.params.trees {
                Pairing::Sequence => d.weights.get(j..j + 1).unwrap_or(&[]),
                Pairing::AllPairs => &d.weights,
            };
            for slot in slots {
                let mut part = 0.0;
                for &(p, s, c) in key.entries() {
                    if let Some(group) = slot.get(&p) {
                        // Δ is λ against every shape of a pre-terminal's production.
                        let inner: f64 = if self.index.is_pre_terminal(s) {
                            self.params.lambda * group.total
                        } else {
                            group.shapes.iter().map(|&(s2, w)| w * self.index.delta(s, s2)).sum()
                        };
                        part += f64::from(c) * inner;
                    }
                }
                sum += part / norm.sqrt();
            }
        }
        for (coef, sv) in &d.vector_svs {
            sum += coef * self.vector_part(sv, x);
        }
        sum - d.b
    }
}

/// The support vectors' shapes of one production, with their weights.
#[derive(Debug, Clone, Default)]
struct Group {
    shapes: Vec<(u32, f64)>,
    total: f64,
}

/// A decision function folded over its support vectors' trees: per slot,
/// per production, each shape's weight `Σ coef · count / sqrt(n(tree))`.
#[derive(Debug, Clone)]
pub struct Decision {
    weights: Vec<FnvMap<u32, Group>>,
    /// Support vectors whose vectors enter the kernel (`-C +`), pairwise.
    vector_svs: Vec<(f64, Doc)>,
    b: f64,
}

/// The training kernel for SMO: [`ForestKernel::eval`] between documents,
/// and with `-W S` whole rows at once, bit for bit the same values, through
/// an inverted index per tree slot: each production's shapes (a *group*),
/// each shape's documents, and for each shape its Δ against every shape of
/// its group as one dense row (computed once, bottom-up: a shape's id is
/// larger than its children's). A row of the Gram matrix then costs one
/// read per (shape of the row's tree, shape of its group) plus one addition
/// per matched document, instead of a merge and hash lookups per document.
pub struct RowKernel<'k> {
    kernel: &'k ForestKernel,
    docs: &'k [Doc],
    slots: Vec<Slot>,
    scratch: std::cell::RefCell<Scratch>,
}

/// The documents holding a shape (increasing) and its count in each.
type Postings = Vec<(u32, u32)>;

/// The shapes of one tree slot of every document.
struct Slot {
    /// Production → group.
    groups: FnvMap<u32, SlotGroup>,
    /// Shape → (production, rank in its group).
    rank: FnvMap<u32, (u32, u32)>,
}

struct SlotGroup {
    /// Shapes, increasing.
    shapes: Vec<u32>,
    /// Per shape: the documents holding it (increasing) and its count there.
    postings: Vec<Vec<(u32, u32)>>,
    /// Per shape: Δ against each shape of the group, if within the budget.
    deltas: Vec<Option<Box<[f64]>>>,
}

/// Per-document accumulators of a row, reset after use (see [`RowKernel`]).
#[derive(Default)]
struct Scratch {
    raw: Vec<f64>,
    acc: Vec<f64>,
    inner: Vec<f64>,
    touched_acc: Vec<u32>,
    touched_inner: Vec<u32>,
    row: Vec<f64>,
    /// Δ of the current shape against its group, when not stored.
    deltas: Vec<f64>,
}

impl<'k> RowKernel<'k> {
    /// Dense Δ rows are kept up to this many values (8 bytes each) over all
    /// slots; shapes beyond it are computed through the index's memo.
    pub const DELTA_BUDGET: usize = 32 << 20;

    pub fn new(kernel: &'k ForestKernel, docs: &'k [Doc]) -> Self {
        let mut slots = Vec::new();
        if kernel.params.trees == Pairing::Sequence {
            let n_slots = docs.iter().map(|d| d.trees.len()).max().unwrap_or(0);
            for t in 0..n_slots {
                let mut by_shape: FnvMap<(u32, u32), Vec<(u32, u32)>> = FnvMap::default();
                for (j, d) in docs.iter().enumerate() {
                    if let Some(Some((key, _))) = d.trees.get(t) {
                        for &(p, s, c) in key.entries() {
                            by_shape.entry((p, s)).or_default().push((j as u32, c));
                        }
                    }
                }
                let mut shapes: Vec<((u32, u32), Postings)> = by_shape.into_iter().collect();
                shapes.sort_unstable_by_key(|e| e.0);
                let mut slot = Slot { groups: FnvMap::default(), rank: FnvMap::default() };
                for ((p, s), postings) in shapes {
                    let g = slot.groups.entry(p).or_insert_with(|| SlotGroup {
                        shapes: Vec::new(),
                        postings: Vec::new(),
                        deltas: Vec::new(),
                    });
                    slot.rank.insert(s, (p, g.shapes.len() as u32));
                    g.shapes.push(s);
                    g.postings.push(postings);
                    g.deltas.push(None);
                }
                slots.push(slot);
            }
        }
        let mut budget = Self::DELTA_BUDGET;
        for slot in &mut slots {
            slot.fill_deltas(&kernel.index, kernel.params.sigma(), &mut budget);
        }
        let n = docs.len();
        let scratch = Scratch {
            raw: vec![0.0; n],
            acc: vec![0.0; n],
            inner: vec![0.0; n],
            row: vec![0.0; n],
            ..Scratch::default()
        };
        RowKernel { kernel, docs, slots, scratch: std::cell::RefCell::new(scratch) }
    }
}

impl Slot {
    /// Dense Δ rows, shapes in increasing id order so that every child's row
    /// is there before its parent's, each value computed as
    /// [`StructureIndex::delta`] computes it (same factors, same order).
    fn fill_deltas(&mut self, index: &StructureIndex, sigma: f64, budget: &mut usize) {
        let mut order: Vec<(u32, u32, u32)> = self.rank.iter().map(|(&s, &(p, r))| (s, p, r)).collect();
        order.sort_unstable();
        let lambda = index.lambda();
        for (x, p, r) in order {
            let len = self.groups[&p].shapes.len();
            if len > *budget {
                continue;
            }
            let row: Option<Box<[f64]>> = if index.is_pre_terminal(x) {
                Some(vec![lambda; len].into())
            } else {
                let kids = index.children(x);
                let mut row = Vec::with_capacity(len);
                let mut ok = true;
                for &y in &self.groups[&p].shapes {
                    if index.is_pre_terminal(y) {
                        row.push(lambda);
                        continue;
                    }
                    let mut product = 1.0;
                    for (&cx, &cy) in kids.iter().zip(index.children(y)) {
                        product *=
                            if cx == LEAF || cy == LEAF || index.shape_production(cx) != index.shape_production(cy) {
                                sigma
                            } else if index.is_pre_terminal(cx) || index.is_pre_terminal(cy) {
                                sigma + lambda
                            } else {
                                match self.delta_stored(cx, cy) {
                                    Some(d) => sigma + d,
                                    None => {
                                        ok = false;
                                        break;
                                    }
                                }
                            };
                    }
                    if !ok {
                        break;
                    }
                    row.push(lambda * product);
                }
                ok.then(|| row.into())
            };
            if let Some(row) = row {
                *budget -= len;
                if let Some(g) = self.groups.get_mut(&p) {
                    g.deltas[r as usize] = Some(row);
                }
            }
        }
    }

    /// Δ(x, y) from x's dense row, if stored.
    fn delta_stored(&self, x: u32, y: u32) -> Option<f64> {
        let &(p, r) = self.rank.get(&x)?;
        let &(_, ry) = self.rank.get(&y)?;
        let g = self.groups.get(&p)?;
        g.deltas[r as usize].as_ref().map(|row| row[ry as usize])
    }
}

impl RowKernel<'_> {
    /// Adds `K_t(i, j)` (raw) into `sc.raw[j]` for every `j ≠ i` sharing a
    /// production with tree `t` of `i`, in [`ForestKernel::raw_tree`]'s order
    /// for the pair (min(i, j), max(i, j)).
    fn raw_row(&self, t: usize, i: usize, key: &SubTreeKey, sc: &mut Scratch) {
        let index = &self.kernel.index;
        let Some(slot) = self.slots.get(t) else { return };
        for run in key.entries().chunk_by(|a, b| a.0 == b.0) {
            let Some(group) = slot.groups.get(&run[0].0) else { continue };
            // Δ of each of the run's shapes against the group, row by row.
            let rows: Vec<&[f64]> = run
                .iter()
                .map(|&(_, x, _)| {
                    let r = slot.rank.get(&x).map_or(0, |&(_, r)| r as usize);
                    match &group.deltas[r] {
                        Some(row) => &row[..],
                        None => &[][..],
                    }
                })
                .collect();
            let stored = rows.iter().all(|r| !r.is_empty());
            if !stored {
                sc.deltas.clear();
                for &(_, x, _) in run {
                    sc.deltas.extend(group.shapes.iter().map(|&y| index.delta(x, y)));
                }
            }
            let g = group.shapes.len();
            let delta = |k: usize, y: usize, sc: &Scratch| if stored { rows[k][y] } else { sc.deltas[k * g + y] };
            // j > i: i's shapes outer, j's inner.
            for (k, &(_, _, cx)) in run.iter().enumerate() {
                for (yi, postings) in group.postings.iter().enumerate() {
                    let d = delta(k, yi, sc);
                    if d == 0.0 {
                        continue;
                    }
                    for &(j, cy) in postings.iter().rev().take_while(|&&(j, _)| j as usize > i) {
                        if sc.inner[j as usize] == 0.0 {
                            sc.touched_inner.push(j);
                        }
                        sc.inner[j as usize] += f64::from(cy) * d;
                    }
                }
                for ti in 0..sc.touched_inner.len() {
                    let j = sc.touched_inner[ti] as usize;
                    if sc.acc[j] == 0.0 {
                        sc.touched_acc.push(j as u32);
                    }
                    sc.acc[j] += f64::from(cx) * sc.inner[j];
                    sc.inner[j] = 0.0;
                }
                sc.touched_inner.clear();
            }
            // j < i: j's shapes outer (the group's order), i's inner.
            for (yi, postings) in group.postings.iter().enumerate() {
                if postings.first().is_none_or(|&(j, _)| j as usize >= i) {
                    continue;
                }
                let mut inner = 0.0;
                for (k, &(_, _, cx)) in run.iter().enumerate() {
                    inner += f64::from(cx) * delta(k, yi, sc);
                }
                if inner == 0.0 {
                    continue;
                }
                for &(j, cy) in postings.iter().take_while(|&&(j, _)| (j as usize) < i) {
                    if sc.acc[j as usize] == 0.0 {
                        sc.touched_acc.push(j);
                    }
                    sc.acc[j as usize] += f64::from(cy) * inner;
                }
            }
            for ti in 0..sc.touched_acc.len() {
                let j = sc.touched_acc[ti] as usize;
                sc.raw[j] += sc.acc[j];
                sc.acc[j] = 0.0;
            }
            sc.touched_acc.clear();
        }
    }
}

impl crate::svm::KernelFn for RowKernel<'_> {
    fn eval(&self, i: usize, j: usize) -> f64 {
        self.kernel.eval(&self.docs[i], &self.docs[j])
    }

    fn rows_at_once(&self) -> bool {
        !self.slots.is_empty()
    }

    fn eval_many(&self, i: usize, ks: &[usize], out: &mut [f64]) {
        let n = self.docs.len();
        // A few entries, or all-pairs trees: entry by entry.
        if self.slots.is_empty() || ks.len() * 8 < n {
            for (o, &k) in out.iter_mut().zip(ks) {
                *o = if i <= k { self.eval(i, k) } else { self.eval(k, i) };
            }
            return;
        }
        let mut sc = self.scratch.borrow_mut();
        let sc = &mut *sc;
        let a = &self.docs[i];
        sc.row.iter_mut().for_each(|v| *v = 0.0);
        for (t, tree) in a.trees.iter().enumerate() {
            let Some((key, na)) = tree else { continue };
            self.raw_row(t, i, key, sc);
            // As tree_part sums slots: K̂_t = K_t / sqrt(n_a n_b), in slot order.
            for &k in ks {
                let b = &self.docs[k];
                let v = match b.trees.get(t) {
                    Some(Some((_, nb))) => {
                        let (x, y) = if i <= k { (na, nb) } else { (nb, na) };
                        sc.raw[k] / (x * y).sqrt()
                    }
                    _ => 0.0,
                };
                sc.row[k] = if t == 0 { v } else { sc.row[k] + v };
            }
            sc.raw.iter_mut().for_each(|v| *v = 0.0);
        }
        for (o, &k) in out.iter_mut().zip(ks) {
            let (a, b) = if i <= k { (&self.docs[i], &self.docs[k]) } else { (&self.docs[k], &self.docs[i]) };
            // Slots beyond i's trees add K̂ = 0, as in tree_part.
            let trees = sc.row[k];
            *o = match self.kernel.params.combination {
                Combination::Trees => trees,
                Combination::Sum => self.kernel.vector_part(a, b) + self.kernel.params.tree_constant * trees,
            };
        }
    }
}
