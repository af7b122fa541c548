//! Which sub-trees the diagram draws folded (a node's label over its
//! yield, for long pairs), per pair and per side. Plain data under the
//! state ([`super::State::folds`]), changed only by the reducer.

use std::collections::{BTreeMap, BTreeSet};

use super::ids::CorpusGen;
use crate::corpus::Corpus;
use crate::tree::{NodeId, Tree};

/// A side of the pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    Source,
    Target,
}

impl Side {
    /// The short name the page's ids use (`src-node-3`).
    pub fn name(self) -> &'static str {
        match self {
            Side::Source => "src",
            Side::Target => "trg",
        }
    }
}

/// The folded nodes of each pair, for the trees of one corpus: a new
/// corpus (another `corpus_gen`) has none.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Folds {
    gen: CorpusGen,
    by_pair: BTreeMap<usize, [BTreeSet<NodeId>; 2]>,
}

/// A pair's folds as a session keeps them: (pair, source nodes, target nodes).
pub type SavedFolds = (usize, Vec<NodeId>, Vec<NodeId>);

static NONE: [BTreeSet<NodeId>; 2] = [BTreeSet::new(), BTreeSet::new()];

impl Folds {
    /// The folded nodes of pair `pair` of corpus `gen`: (source, target).
    pub fn of(&self, gen: CorpusGen, pair: usize) -> (&BTreeSet<NodeId>, &BTreeSet<NodeId>) {
        let sets = if self.gen == gen { self.by_pair.get(&pair).unwrap_or(&NONE) } else { &NONE };
        (&sets[0], &sets[1])
    }

    /// Folds phrase node `n` of `tree` (on `side` of pair `pair`), or
    /// unfolds it if folded. A POS node or an id outside the tree changes
    /// nothing; folds inside a folded node are kept for when it unfolds.
    /// Whether anything changed.
    pub fn toggle(&mut self, gen: CorpusGen, pair: usize, side: Side, tree: &Tree, n: NodeId) -> bool {
        if n >= tree.len() || tree.is_pos(n) {
            return false;
        }
        if self.gen != gen {
            *self = Folds { gen, by_pair: BTreeMap::new() };
        }
        let set = &mut self.by_pair.entry(pair).or_default()[side as usize];
        if !set.remove(&n) {
            set.insert(n);
        }
        true
    }

    /// Every fold of corpus `gen`, for a saved session: (pair, source
    /// nodes, target nodes).
    pub fn saved(&self, gen: CorpusGen) -> Vec<SavedFolds> {
        if self.gen != gen {
            return Vec::new();
        }
        let nodes = |set: &BTreeSet<NodeId>| set.iter().copied().collect();
        (self.by_pair.iter())
            .filter(|(_, [s, t])| !s.is_empty() || !t.is_empty())
            .map(|(&pair, [s, t])| (pair, nodes(s), nodes(t)))
            .collect()
    }

    /// The folds of a saved session, on the pairs of corpus `gen`: a fold
    /// of a pair or node the corpus does not have is dropped.
    pub fn restored(gen: CorpusGen, saved: &[SavedFolds], corpus: &Corpus) -> Folds {
        let mut folds = Folds { gen, by_pair: BTreeMap::new() };
        for (pair, source, target) in saved {
            let Some(p) = corpus.pairs.get(*pair) else { continue };
            for (side, tree, nodes) in [(Side::Source, &p.source, source), (Side::Target, &p.target, target)] {
                for &n in nodes.iter().collect::<BTreeSet<_>>() {
                    folds.toggle(gen, *pair, side, tree, n);
                }
            }
        }
        folds
    }

    /// Unfolds every node of pair `pair`.
    pub fn unfold_all(&mut self, pair: usize) {
        self.by_pair.remove(&pair);
    }
}
