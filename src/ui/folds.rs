//! Which sub-trees the diagram draws folded (a node's label over its
//! yield, for long pairs), per pair and per side: a sub-state of the
//! page's ([`super::State::folds`]), changed by its [`FoldAction`]s.

use std::collections::{BTreeMap, BTreeSet};

use super::ids::CorpusGen;
use crate::corpus::{Corpus, PairIndex, TreePair};
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

    /// Its name in sentences ("source node 3").
    pub fn name_long(self) -> &'static str {
        match self {
            Side::Source => "source",
            Side::Target => "target",
        }
    }
}

/// The folded nodes of each pair, for the trees of one corpus: a new
/// corpus (another `corpus_gen`) has none.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Folds {
    gen: CorpusGen,
    by_pair: BTreeMap<PairIndex, [BTreeSet<NodeId>; 2]>,
}

/// What the diagram's fold controls ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldAction {
    /// Fold a phrase node of the diagram to its label and yield, or unfold it.
    Toggle(Side, NodeId),
    /// Unfold every node of the pair shown.
    UnfoldAll,
}

/// A pair's folds as a session keeps them: (pair, source nodes, target nodes).
pub type SavedFolds = (PairIndex, Vec<NodeId>, Vec<NodeId>);

static NONE: [BTreeSet<NodeId>; 2] = [BTreeSet::new(), BTreeSet::new()];

impl Folds {
    /// The folded nodes of pair `pair` of corpus `gen`: (source, target).
    pub fn of(&self, gen: CorpusGen, pair: PairIndex) -> (&BTreeSet<NodeId>, &BTreeSet<NodeId>) {
        let sets = if self.gen == gen { self.by_pair.get(&pair).unwrap_or(&NONE) } else { &NONE };
        (&sets[0], &sets[1])
    }

    /// Folds phrase node `n` of `tree` (on `side` of pair `pair`), or
    /// unfolds it if folded. A POS node or an id outside the tree changes
    /// nothing; folds inside a folded node are kept for when it unfolds.
    /// Whether anything changed.
    pub fn toggle(&mut self, gen: CorpusGen, pair: PairIndex, side: Side, tree: &Tree, n: NodeId) -> bool {
        if !tree.contains(n) || tree.is_pos(n) {
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
            let Some(p) = corpus.pair(*pair) else { continue };
            for (side, tree, nodes) in [(Side::Source, &p.source, source), (Side::Target, &p.target, target)] {
                for &n in nodes.iter().collect::<BTreeSet<_>>() {
                    folds.toggle(gen, *pair, side, tree, n);
                }
            }
        }
        folds
    }

    /// The folds' reducer, on pair `k` (`pair`, if the corpus of `gen` has it).
    pub fn apply(&mut self, action: FoldAction, gen: CorpusGen, k: PairIndex, pair: Option<&TreePair>) {
        match action {
            FoldAction::Toggle(side, n) => {
                if let Some(pair) = pair {
                    let tree = if side == Side::Source { &pair.source } else { &pair.target };
                    self.toggle(gen, k, side, tree, n);
                }
            }
            FoldAction::UnfoldAll => self.unfold_all(k),
        }
    }

    /// Unfolds every node of pair `pair`.
    pub fn unfold_all(&mut self, pair: PairIndex) {
        self.by_pair.remove(&pair);
    }
}

#[cfg(test)]
mod tests {
    use super::super::state::{Action, SelectAction, State};
    use super::*;

    #[test]
    fn folding_is_per_pair_and_side_and_unfolds() {
        let mut s = State::with_sample();
        let gen = s.loaded.gen;
        s.apply(Action::Fold(FoldAction::Toggle(Side::Source, NodeId::new(1))));
        s.apply(Action::Fold(FoldAction::Toggle(Side::Target, NodeId::new(0))));
        assert_eq!(s.folds.of(gen, PairIndex::new(0)).0.iter().copied().collect::<Vec<_>>(), [NodeId::new(1)]);
        assert_eq!(s.folds.of(gen, PairIndex::new(0)).1.iter().copied().collect::<Vec<_>>(), [NodeId::new(0)]);
        // A POS node or a node outside the tree does not fold.
        let before = s.folds.clone();
        s.apply(Action::Fold(FoldAction::Toggle(Side::Source, NodeId::new(2))));
        s.apply(Action::Fold(FoldAction::Toggle(Side::Source, NodeId::new(9999))));
        assert_eq!(s.folds, before);
        // Another pair has its own folds; coming back finds these.
        s.apply(Action::Select(SelectAction::StepPair(1)));
        assert!(s.folds.of(gen, PairIndex::new(1)).0.is_empty());
        s.apply(Action::Select(SelectAction::StepPair(-1)));
        s.apply(Action::Fold(FoldAction::Toggle(Side::Source, NodeId::new(1))));
        assert!(s.folds.of(gen, PairIndex::new(0)).0.is_empty(), "toggled again: unfolded");
        assert_eq!(s.folds.of(gen, PairIndex::new(0)).1.len(), 1);
        s.apply(Action::Fold(FoldAction::UnfoldAll));
        assert!(s.folds.of(gen, PairIndex::new(0)).1.is_empty());
        // Folds belong to one corpus: another generation has none.
        s.apply(Action::Fold(FoldAction::Toggle(Side::Source, NodeId::new(0))));
        assert!(s.folds.of(gen.next(), PairIndex::new(0)).0.is_empty());
    }
}
