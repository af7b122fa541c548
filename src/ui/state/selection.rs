//! What the workbench shows and what is selected in it: the pair, the
//! mode (what clicking a node does), the selected node pair and the pair
//! the kernel view compares it with; and a pair the address asked for
//! before it was loaded.

use serde::{Deserialize, Serialize};

use super::State;
use crate::corpus::{PairIndex, TreePair};
use crate::io::links::Link;
use crate::tree::{NodeId, Tree};

/// Which sub-tree pair the selected one is compared with in the kernel view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// A gold link near the selected node pair, never itself when there
    /// is another ([`nearest_gold`]).
    Auto,
    Itself,
    Gold(Link),
}

/// What clicking nodes does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Select a node pair: explanation and kernel view.
    Inspect,
    /// Teaching: the student links nodes by hand.
    Teach,
    /// Teaching: step through the model's greedy search.
    Steps,
    /// Annotating: the model proposes, the annotator corrects and accepts.
    Annotate,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Inspect, Mode::Teach, Mode::Steps, Mode::Annotate];

    /// Its name in the page's address (`#pair=12&mode=teach`).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Inspect => "inspect",
            Mode::Teach => "teach",
            Mode::Steps => "steps",
            Mode::Annotate => "annotate",
        }
    }
}

/// The pair shown, the mode and the selected node pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    pub pair: PairIndex,
    pub mode: Mode,
    pub source: Option<NodeId>,
    pub target: Option<NodeId>,
    pub compare: Compare,
    /// A pair the address asked for beyond the pairs loaded (opened when pairs that have it arrive).
    pub wanted_pair: Option<PairIndex>,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            pair: PairIndex::FIRST,
            mode: Mode::Inspect,
            source: None,
            target: None,
            compare: Compare::Auto,
            wanted_pair: None,
        }
    }
}

/// What the workbench's clicks, keys and buttons ask.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SelectAction {
    SelectPair(PairIndex),
    /// Previous (-1) or next (+1) pair.
    StepPair(isize),
    ClickSource(NodeId),
    ClickTarget(NodeId),
    /// Clicking a drawn link: select its two nodes (or, teaching, remove it).
    ClickLink(NodeId, NodeId),
    /// Select a drawn link's two nodes, in any mode (stepping through the
    /// links by key: never a click that removes a hand link).
    SelectLink(NodeId, NodeId),
    Clear,
    SetMode(Mode),
    SetCompare(Compare),
}

/// What a [`SelectAction`] changed, for the sub-states that follow the selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Selected {
    /// The node pair (or what it is compared with), or nothing.
    Nodes,
    /// The node pair was cleared.
    Cleared,
    /// Another pair is shown (the node pair cleared).
    Pair,
    /// Another mode (the node pair cleared).
    Mode,
}

impl Selection {
    /// The selection's reducer, for a corpus of `pairs` pairs (clicks on
    /// nodes and links as they are outside teaching).
    pub(super) fn apply(&mut self, action: SelectAction, pairs: usize) -> Selected {
        match action {
            SelectAction::SelectPair(p) => self.select_pair(p, pairs),
            SelectAction::StepPair(delta) => self.select_pair(self.pair.step(delta), pairs),
            SelectAction::ClickSource(n) => {
                self.source = if self.source == Some(n) { None } else { Some(n) };
                self.compare = Compare::Auto;
                Selected::Nodes
            }
            SelectAction::ClickTarget(n) => {
                self.target = if self.target == Some(n) { None } else { Some(n) };
                self.compare = Compare::Auto;
                Selected::Nodes
            }
            SelectAction::ClickLink(a, b) | SelectAction::SelectLink(a, b) => {
                (self.source, self.target, self.compare) = (Some(a), Some(b), Compare::Auto);
                Selected::Nodes
            }
            SelectAction::Clear => self.clear(),
            SelectAction::SetMode(mode) if mode != self.mode => {
                self.mode = mode;
                self.clear();
                Selected::Mode
            }
            SelectAction::SetMode(_) => Selected::Nodes,
            SelectAction::SetCompare(c) => {
                self.compare = c;
                Selected::Nodes
            }
        }
    }

    /// Pair `p`, within the `pairs` loaded.
    fn select_pair(&mut self, p: PairIndex, pairs: usize) -> Selected {
        let p = p.within(pairs);
        if p == self.pair {
            return Selected::Nodes;
        }
        self.pair = p;
        self.clear();
        Selected::Pair
    }

    fn clear(&mut self) -> Selected {
        (self.source, self.target, self.compare) = (None, None, Compare::Auto);
        Selected::Cleared
    }

    /// The sub-tree pair the selection is compared with in `pair` (the one
    /// shown), as (source, target).
    pub fn comparison(&self, pair: &TreePair) -> Option<(NodeId, NodeId)> {
        let (s, t) = (self.source?, self.target?);
        Some(match self.compare {
            Compare::Itself => (s, t),
            Compare::Gold(l) => (l.source, l.target),
            Compare::Auto => nearest_gold(pair, s, t).map_or((s, t), |l| (l.source, l.target)),
        })
    }
}

/// The gold link a selected node pair `(s, t)` is best compared with,
/// never `(s, t)` itself (every normalised value would be 1): one at `s`,
/// else at `t`, else the first below `s` (a sub-tree of x, short to read),
/// else at the nearest ancestor of `s` (then of `t`), else the first other.
/// A wrong link is compared with the gold link it misses; a correct one
/// with a gold link near it. `None` when the pair has no other gold link.
fn nearest_gold(pair: &TreePair, s: NodeId, t: NodeId) -> Option<&Link> {
    let gold: Vec<&Link> = pair.gold.iter().filter(|l| (l.source, l.target) != (s, t)).collect();
    let at_source = |n: NodeId| gold.iter().copied().find(|l| l.source == n);
    let at_target = |n: NodeId| gold.iter().copied().find(|l| l.target == n);
    let up = |tree: &Tree, n: NodeId| -> Vec<NodeId> {
        tree.contains(n).then(|| tree.ancestors(n)).into_iter().flatten().collect()
    };
    let below = |l: &&Link| pair.source.contains(s) && pair.source.subtree(s).contains(&l.source);
    at_source(s)
        .or_else(|| at_target(t))
        .or_else(|| gold.iter().copied().find(below))
        .or_else(|| up(&pair.source, s).into_iter().find_map(at_source))
        .or_else(|| up(&pair.target, t).into_iter().find_map(at_target))
        .or_else(|| gold.first().copied())
}

impl State {
    /// A [`SelectAction`]: teaching takes the clicks on nodes and links;
    /// the rest is the selection's, and what follows it (the explanation,
    /// the teaching panel's message and step) follows here.
    pub(super) fn select(&mut self, action: SelectAction) {
        // A refused link is drawn until the student's next click, or another pair or mode.
        if !matches!(action, SelectAction::SelectLink(..) | SelectAction::Clear | SelectAction::SetCompare(_)) {
            self.teach.refused = None;
        }
        match (action, self.selection.mode) {
            (SelectAction::ClickSource(n), Mode::Teach) => self.teach.choose_source(n),
            (SelectAction::ClickTarget(n), Mode::Teach) => self.teach_target(n),
            (SelectAction::ClickLink(a, b), Mode::Teach) => self.teach.remove(self.selection.pair, a, b),
            (
                SelectAction::ClickSource(_) | SelectAction::ClickTarget(_) | SelectAction::ClickLink(..),
                Mode::Annotate,
            ) => self.annotate_click(action),
            _ => self.reselect(action),
        }
    }

    /// The selection's own action, and what follows it: a cleared node
    /// pair has no explanation and no pending teaching click; another
    /// pair or mode starts the teaching panel afresh.
    pub(super) fn reselect(&mut self, action: SelectAction) {
        let selected = self.selection.apply(action, self.loaded.corpus.len());
        if selected == Selected::Nodes {
            return;
        }
        self.alignment.explained = None;
        self.teach.pending = None;
        self.annotation.pending = None;
        if selected != Selected::Cleared {
            self.teach.message = None;
            self.annotation.message = None;
        }
        if selected == Selected::Pair {
            self.teach.step = 0;
        }
    }

    /// Shows pair `p` (within the pairs loaded).
    pub(super) fn select_pair(&mut self, p: PairIndex) {
        self.reselect(SelectAction::SelectPair(p));
    }

    /// Clears the selected node pair.
    pub(super) fn clear_selection(&mut self) {
        self.reselect(SelectAction::Clear);
    }

    /// The sub-tree pair the selection is compared with, as (source, target).
    pub fn comparison(&self) -> Option<(NodeId, NodeId)> {
        self.selection.comparison(self.loaded.corpus.pair(self.selection.pair)?)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;

    #[test]
    fn pairs_are_selected_within_the_corpus() {
        let mut s = State::with_sample();
        let n = s.loaded.corpus.len();
        assert!(n > 2, "the sample has {n} pairs");
        s.apply(Action::Select(SelectAction::StepPair(-1)));
        assert_eq!(s.selection.pair.index(), 0);
        s.apply(Action::Select(SelectAction::ClickSource(NodeId::new(1))));
        assert_eq!(s.selection.source, Some(NodeId::new(1)));
        select_pair(&mut s, n + 7);
        assert_eq!(s.selection.pair.index(), n - 1);
        assert_eq!(s.selection.source, None, "a new pair clears the selection");
        s.apply(Action::Select(SelectAction::StepPair(1)));
        assert_eq!(s.selection.pair.index(), n - 1);
    }

    #[test]
    fn a_wrong_link_is_compared_with_the_nearest_gold_link_not_itself() {
        let mut s = State::with_sample();
        // Pair 1's one gold link is 0-0. CARD (2) ↔ a target POS: no gold link at either node.
        click(&mut s, 2, 3);
        assert_eq!(s.comparison(), Some((NodeId::ROOT, NodeId::ROOT)), "the gold link of the nearest linked ancestor");
        s.apply(Action::Select(SelectAction::SetCompare(Compare::Itself)));
        assert_eq!(s.comparison(), Some((NodeId::new(2), NodeId::new(3))));
        // A pair without gold links compares with itself (nothing else to compare with).
        let mut p = s.loaded.corpus.pairs[0].clone();
        p.gold.clear();
        assert!(nearest_gold(&p, NodeId::new(2), NodeId::new(3)).is_none());
    }

    /// A correct link is compared with another gold link, so the kernel
    /// table is informative (with itself every normalised value is 1).
    #[test]
    fn a_correct_link_is_compared_with_the_gold_link_nearest_it_not_itself() {
        let mut s = State::with_sample();
        select_pair(&mut s, 2);
        let pair = s.loaded.corpus.pairs[2].clone();
        assert!(pair.gold.len() > 2);
        for l in &pair.gold {
            s.apply(Action::Select(SelectAction::ClickLink(l.source, l.target)));
            let (ys, yt) = s.comparison().unwrap();
            assert_ne!((ys, yt), (l.source, l.target), "link {l}");
            assert!(pair.gold.iter().any(|g| (g.source, g.target) == (ys, yt)), "a gold link: {ys}-{yt}");
        }
        // The root link 0-0: the nearest other is one below it, at its first linked descendant.
        s.apply(Action::Select(SelectAction::ClickLink(NodeId::ROOT, NodeId::ROOT)));
        let first_below = pair.gold.iter().find(|g| (g.source, g.target) != (NodeId::ROOT, NodeId::ROOT)).unwrap();
        assert_eq!(s.comparison(), Some((first_below.source, first_below.target)));
    }
}
