//! How fast each path evaluates a tree kernel, measured the same way
//! natively (`treelink bench`) and in wasm32 (`tests/wasm_bench.rs`), so
//! the two figures compare like for like.
//!
//! The evaluations are the sub-tree pairs of consecutive trees at the same
//! node number (node n of tree i against node n of tree i+1, every n both
//! have; source trees with source trees, target with target), in each
//! space, by three paths:
//! - `reference`: [`crate::kernel::tree_kernel`] ([`crate::kernel::DeltaTable`]);
//! - `in order`: [`StructureIndex::tree_kernel_in_order`] over trees indexed
//!   once (what `kernel`/`btk` run per pair, minus reading and indexing);
//! - `keyed`: [`StructureIndex::tree_kernel`] over sub-tree keys (what the
//!   SVM runs).
//!
//! The indexed paths are timed with their Δ memo warm (one pass first), as
//! in training, where each shape pair recurs many times. Each path runs in
//! batches of passes (at least 2 ms each) for at least `min_seconds`, and
//! the figure is its fastest batch: on a shared machine, the batches another
//! process interrupts are slower, never faster.

use super::index::{IndexedTree, StructureIndex, SubTreeKey};
use super::{tree_kernel, Space, SubTree};
use crate::tree::{NodeId, Tree};

/// Nanoseconds per evaluation in one space.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedRow {
    pub space: Space,
    pub evaluations: usize,
    pub reference_ns: f64,
    pub in_order_ns: f64,
    pub keyed_ns: f64,
    /// Σ of the kernel values (the three paths agree to 1e-9 relative), so
    /// nothing is optimised away and runs can be compared.
    pub checksum: f64,
}

/// Times each path over consecutive trees of each group (e.g. the source
/// trees, then the target trees), repeating each until `min_seconds` have
/// passed; `now()` is a clock in seconds.
pub fn measure(groups: &[&[Tree]], lambda: f64, min_seconds: f64, now: &mut dyn FnMut() -> f64) -> Vec<SpeedRow> {
    let trees: Vec<&Tree> = groups.iter().flat_map(|g| g.iter()).collect();
    let mut pairs: Vec<(usize, usize, NodeId)> = Vec::new();
    let mut start = 0;
    for g in groups {
        for i in start..(start + g.len()).saturating_sub(1) {
            pairs.extend((0..trees[i].len().min(trees[i + 1].len())).map(|n| (i, i + 1, NodeId::new(n))));
        }
        start += g.len();
    }
    let mut index = StructureIndex::new(lambda);
    let indexed: Vec<IndexedTree> = trees.iter().map(|&t| index.index_tree(t)).collect();
    let keys: Vec<(SubTreeKey, SubTreeKey)> = pairs
        .iter()
        .map(|&(a, b, n)| (index.subtree_key(trees[a], &indexed[a], n), index.subtree_key(trees[b], &indexed[b], n)))
        .collect();
    // Passes in batches of at least `BATCH` seconds, batches until
    // `min_seconds` have passed; the fastest batch's ns per evaluation, so
    // that another process taking the CPU (a shared machine) lengthens some
    // batches but not the figure.
    const BATCH: f64 = 0.002;
    let mut timed = |f: &mut dyn FnMut() -> f64| {
        let (start, mut best, mut sum, mut passes) = (now(), f64::INFINITY, 0.0, 1usize);
        loop {
            let batch_start = now();
            for _ in 0..passes {
                sum += f();
            }
            let took = now() - batch_start;
            if took < BATCH {
                passes *= 2;
                continue;
            }
            best = best.min(took * 1e9 / (passes * pairs.len().max(1)) as f64);
            if now() - start >= min_seconds {
                std::hint::black_box(sum);
                return best;
            }
        }
    };
    Space::ALL
        .into_iter()
        .map(|space| {
            let mut reference = || -> f64 {
                pairs
                    .iter()
                    .map(|&(a, b, n)| {
                        tree_kernel(space, lambda, SubTree::new(trees[a], n), SubTree::new(trees[b], n))
                            .unwrap_or(f64::NAN)
                    })
                    .sum()
            };
            let checksum = reference();
            let reference_ns = timed(&mut reference);
            let mut in_order = || -> f64 {
                pairs
                    .iter()
                    .map(|&(a, b, n)| {
                        let (x, y) = ((trees[a], &indexed[a], n), (trees[b], &indexed[b], n));
                        index.tree_kernel_in_order(space, x, y, u64::MAX).unwrap_or(f64::NAN)
                    })
                    .sum()
            };
            in_order();
            let in_order_ns = timed(&mut in_order);
            let mut keyed = || -> f64 { keys.iter().map(|(x, y)| index.tree_kernel(space, x, y)).sum() };
            keyed();
            let keyed_ns = timed(&mut keyed);
            SpeedRow { space, evaluations: pairs.len(), reference_ns, in_order_ns, keyed_ns, checksum }
        })
        .collect()
}
