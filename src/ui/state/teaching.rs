//! Teaching: the student's hand links per pair (*Align by hand*), the
//! verdict on the last click (a link that breaks a well-formedness
//! criterion is refused, by the greedy search's own check,
//! [`first_conflict`]), their undo and redo, and the step of the model's
//! search shown (*Search steps*).

use std::collections::BTreeMap;

use super::annotation::name;
use super::{Mode, SelectAction, State};
use crate::align::greedy::first_conflict;
use crate::corpus::{PairIndex, TreePair};
use crate::tree::NodeId;

/// One change to the hand links of a pair: its links before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkEdit {
    pub pair: PairIndex,
    pub before: Vec<(NodeId, NodeId)>,
    pub after: Vec<(NodeId, NodeId)>,
}

/// The hand links' undo and redo stacks (most recent last).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LinkHistory {
    pub undo: Vec<LinkEdit>,
    pub redo: Vec<LinkEdit>,
}

impl LinkHistory {
    /// Edits kept for undo; older ones are forgotten.
    pub const LIMIT: usize = 500;

    /// A new edit: it can be undone, and what was undone can no longer be redone.
    fn record(&mut self, edit: LinkEdit) {
        self.undo.push(edit);
        if self.undo.len() > Self::LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }
}

/// Teaching mode: the student's links per pair and the last verdict.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Teach {
    /// Undo and redo of changes to `links`.
    pub history: LinkHistory,
    pub links: BTreeMap<PairIndex, Vec<(NodeId, NodeId)>>,
    pub pending: Option<NodeId>,
    pub message: Option<Result<String, String>>,
    pub reveal_gold: bool,
    /// The step of the model's search shown in [`Mode::Steps`].
    pub step: usize,
    /// The link last refused, drawn on the diagram with the criterion it
    /// breaks, until the student's next click.
    pub refused: Option<(NodeId, NodeId, String)>,
}

/// What the teaching panel and the undo keys ask (the clicks on nodes and
/// links are the workbench's [`SelectAction`]s, taken here in teaching mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeachAction {
    /// Clear the hand links of the pair shown.
    Clear,
    /// Undo the last change to the hand links (Ctrl+Z), or redo the last undone (Ctrl+Shift+Z).
    Undo,
    Redo,
    RevealGold(bool),
    /// Show this step of the model's search.
    SetStep(usize),
}

impl Teach {
    /// The teaching panel's reducer, on pair `shown`: the pair an undo or
    /// redo changed, to be shown.
    pub(super) fn reduce(&mut self, action: TeachAction, shown: PairIndex) -> Option<PairIndex> {
        match action {
            TeachAction::Clear => {
                self.links.remove(&shown);
                self.pending = None;
                self.refused = None;
                self.message = Some(Ok("Cleared your links of this pair.".into()));
            }
            TeachAction::Undo | TeachAction::Redo => {
                let undo = action == TeachAction::Undo;
                let (pair, n) = self.undo_redo(undo)?;
                self.pending = None;
                let verb = if undo { "Undone" } else { "Redone" };
                let links = crate::io::text::counted(n, "links");
                self.message = Some(Ok(format!("{verb}: pair {pair} has {n} {links} of yours.")));
                return Some(pair);
            }
            TeachAction::RevealGold(on) => self.reveal_gold = on,
            TeachAction::SetStep(k) => self.step = k,
        }
        None
    }

    /// The student clicked source node `n` (again: not chosen).
    pub(super) fn choose_source(&mut self, n: NodeId) {
        self.pending = if self.pending == Some(n) { None } else { Some(n) };
        self.message = None;
    }

    /// The student clicked target node `t` of pair `k` (`pair`) after a
    /// source node: the link is made, or removed if it was there, or
    /// refused with the criterion it breaks. Whether a source was chosen
    /// (the links were edited, or an edit refused).
    fn choose_target(&mut self, k: PairIndex, pair: &TreePair, t: NodeId) -> bool {
        let Some(s) = self.pending.take() else {
            self.message = Some(Err("Click a source node first, then a target node.".into()));
            return false;
        };
        let links = self.links.entry(k).or_default();
        let this = format!("{} ↔ {}", name(&pair.source, s), name(&pair.target, t));
        if let Some(k) = links.iter().position(|&l| l == (s, t)) {
            links.remove(k);
            self.message = Some(Ok(format!("Removed your link {this}.")));
        } else if let Some((by, criterion)) = first_conflict(&pair.source, &pair.target, (s, t), links) {
            self.refused =
                Some((s, t, format!("refused {this}: it breaks criterion {criterion} (your link {}-{})", by.0, by.1)));
            self.message = Some(Err(format!(
                "Refused {this}: it breaks criterion {criterion}, because of your link {} ↔ {}.",
                name(&pair.source, by.0),
                name(&pair.target, by.1)
            )));
        } else {
            links.push((s, t));
            self.message = Some(Ok(format!("Linked {this}.")));
        }
        true
    }

    /// The student clicked their link `a`-`b` of pair `k`, which removes it.
    pub(super) fn remove(&mut self, k: PairIndex, a: NodeId, b: NodeId) {
        if let Some(links) = self.links.get_mut(&k) {
            if let Some(i) = links.iter().position(|&l| l == (a, b)) {
                links.remove(i);
                self.message = Some(Ok(format!("Removed your link {a}-{b}.")));
            }
        }
    }

    /// Takes the last edit off the undo (or redo) stack and puts its links
    /// back: the pair it was on and how many links it has now; `None`
    /// when there was nothing to take (said in `message`).
    fn undo_redo(&mut self, undo: bool) -> Option<(PairIndex, usize)> {
        let history = &mut self.history;
        let (from, to) =
            if undo { (&mut history.undo, &mut history.redo) } else { (&mut history.redo, &mut history.undo) };
        let Some(edit) = from.pop() else {
            self.message = Some(Err(format!("Nothing to {}.", if undo { "undo" } else { "redo" })));
            return None;
        };
        let links = if undo { &edit.before } else { &edit.after };
        if links.is_empty() {
            self.links.remove(&edit.pair);
        } else {
            self.links.insert(edit.pair, links.clone());
        }
        let done = (edit.pair, links.len());
        to.push(edit);
        Some(done)
    }

    /// Pair `pair` had the hand links `before` an action: if it changed
    /// them, the change can be undone.
    pub(super) fn record(&mut self, pair: PairIndex, before: Vec<(NodeId, NodeId)>) {
        let after = self.links.get(&pair).cloned().unwrap_or_default();
        if after != before {
            self.history.record(LinkEdit { pair, before, after });
        }
    }
}

impl State {
    /// The student's links of the current pair.
    pub fn student_links(&self) -> &[(NodeId, NodeId)] {
        self.teach.links.get(&self.selection.pair).map_or(&[], Vec::as_slice)
    }

    /// A [`TeachAction`] (cross-part: undo and redo show the pair they
    /// changed, in teaching mode).
    pub(super) fn teaching(&mut self, action: TeachAction) {
        if let Some(pair) = self.teach.reduce(action, self.selection.pair) {
            let said = self.teach.message.take();
            self.select_pair(pair);
            self.reselect(SelectAction::SetMode(Mode::Teach));
            self.teach.message = said;
        }
    }

    /// Teaching: the student clicked target node `t` after a source node.
    pub(super) fn teach_target(&mut self, t: NodeId) {
        let k = self.selection.pair;
        let Some(pair) = self.loaded.corpus.pair(k).cloned() else { return };
        // A refused attempt is drawn too: the check no longer says what is drawn.
        if self.teach.choose_target(k, &pair, t) && self.teach.refused.is_some() {
            self.classroom.links_changed();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::svg::{DrawnLink, LinkStyle};

    #[test]
    fn a_refused_link_is_drawn_with_its_criterion_until_the_next_click() {
        let mut s = State::with_sample();
        set_mode(&mut s, Mode::Teach);
        // Pair 1: source NP0 (NP1 (CARD2 NN3) NE4); link the roots, then NP (1) to the target root.
        click(&mut s, 0, 0);
        assert_eq!(s.student_links(), [(NodeId::new(0), NodeId::new(0))]);
        click(&mut s, 1, 0);
        assert_eq!(s.student_links(), [(NodeId::new(0), NodeId::new(0))], "refused: the target root is linked already");
        let drawn = s.drawn_links();
        let refused: Vec<&DrawnLink> = drawn.iter().filter(|l| l.style == LinkStyle::Refused).collect();
        assert_eq!(refused.len(), 1);
        assert_eq!((refused[0].source, refused[0].target), (NodeId::new(1), NodeId::new(0)));
        let title = &refused[0].title;
        assert!(title.contains("criterion (i)") && title.contains("your link 0-0"), "{title}");
        // The next click clears it; the student's link stays drawn.
        s.apply(Action::Select(SelectAction::ClickSource(NodeId::new(4))));
        assert!(s.drawn_links().iter().all(|l| l.style != LinkStyle::Refused));
        assert_eq!(s.drawn_links().iter().filter(|l| l.style == LinkStyle::Student).count(), 1);
    }

    #[test]
    fn hand_links_are_undone_and_redone_on_their_pair() {
        let mut s = State::with_sample();
        set_mode(&mut s, Mode::Teach);
        click(&mut s, 0, 0);
        click(&mut s, 1, 1);
        hand_link(&mut s, 3);
        s.apply(Action::Select(SelectAction::ClickLink(NodeId::new(0), NodeId::new(0)))); // removed again
        assert_eq!((s.teach.history.undo.len(), s.student_links()), (4, &[][..]));
        select_pair(&mut s, 5);
        s.apply(Action::Teach(TeachAction::Undo)); // the removal, on pair 4
        assert_eq!((s.selection.pair.index(), s.student_links()), (3, &[(NodeId::new(0), NodeId::new(0))][..]));
        s.apply(Action::Teach(TeachAction::Undo));
        s.apply(Action::Teach(TeachAction::Undo)); // pair 1's second link
        assert_eq!((s.selection.pair.index(), s.student_links()), (0, &[(NodeId::new(0), NodeId::new(0))][..]));
        assert!(!s.teach.links.contains_key(&PairIndex::new(3)));
        s.apply(Action::Teach(TeachAction::Redo));
        assert_eq!(s.student_links(), [(NodeId::new(0), NodeId::new(0)), (NodeId::new(1), NodeId::new(1))]);
        // A new edit forgets what was undone.
        s.apply(Action::Teach(TeachAction::Clear));
        assert!(s.teach.history.redo.is_empty());
        s.apply(Action::Teach(TeachAction::Redo));
        assert!(matches!(&s.teach.message, Some(Err(m)) if m == "Nothing to redo."));
        s.apply(Action::Teach(TeachAction::Undo));
        assert_eq!(s.student_links(), [(NodeId::new(0), NodeId::new(0)), (NodeId::new(1), NodeId::new(1))]);
        // Undo to the start, then redo all: the same links.
        let all = s.teach.links.clone();
        let n = s.teach.history.undo.len();
        for _ in 0..n {
            s.apply(Action::Teach(TeachAction::Undo));
        }
        assert!(s.teach.links.is_empty());
        for _ in 0..n {
            s.apply(Action::Teach(TeachAction::Redo));
        }
        assert_eq!(s.teach.links, all);
        // Refused links and clicks outside teaching are not edits.
        let n = s.teach.history.undo.len();
        set_mode(&mut s, Mode::Inspect);
        s.apply(Action::Select(SelectAction::ClickLink(NodeId::new(0), NodeId::new(0))));
        assert_eq!(s.teach.history.undo.len(), n);
    }

    /// An action is an edit only if it changed the links; the history
    /// keeps the last [`LinkHistory::LIMIT`] edits, and a new edit forgets
    /// what was undone.
    #[test]
    fn the_undo_history_keeps_the_last_edits_that_changed_the_links() {
        let (link, last) = (|k| (NodeId::new(k), NodeId::new(k)), LinkHistory::LIMIT - 1);
        let mut teach = Teach::default();
        teach.record(PairIndex::new(0), Vec::new());
        assert!(teach.history.undo.is_empty(), "no change, no edit");
        for k in 0..=LinkHistory::LIMIT {
            teach.links.insert(PairIndex::new(0), vec![link(k)]);
            teach.record(PairIndex::new(0), if k == 0 { Vec::new() } else { vec![link(k - 1)] });
        }
        assert_eq!(teach.history.undo.len(), LinkHistory::LIMIT);
        assert_eq!(teach.history.undo[0].after, [link(1)], "the oldest edit is forgotten");
        assert_eq!(teach.undo_redo(true), Some((PairIndex::FIRST, 1)));
        assert_eq!(teach.links[&PairIndex::FIRST], [link(last)]);
        assert_eq!(teach.history.redo.len(), 1);
        teach.links.insert(PairIndex::new(0), Vec::new());
        teach.record(PairIndex::new(0), vec![link(last)]);
        assert!(teach.history.redo.is_empty(), "a new edit forgets what was undone");
        assert_eq!(teach.undo_redo(false), None);
        assert_eq!(teach.message, Some(Err("Nothing to redo.".into())));
    }
}
