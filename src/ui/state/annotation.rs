//! Annotating: the model in hand proposes each pair's links; the annotator
//! removes a wrong one (clicks it) or adds a missed one (a source node,
//! then a target node), and the pair is decoded again under the edits so
//! far ([`search_under_edits`]: added links kept, removed ones forbidden),
//! so one correction can fix others. *Accept* makes the proposal the
//! pair's hand links (kept, exported and checked like every hand link) and
//! shows the next pair: the one the model is least sure of, or the next in
//! the file. An accepted pair's links are the annotator's: the model no
//! longer changes them, and clicks edit them as in *Align by hand*.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Effect, JobKind, Mode, SelectAction, State};
use crate::align::greedy::{first_conflict, Scored};
use crate::align::lexical::InputSentences;
use crate::app::annotation::{search_under_edits, Edits, NodePair, Order};
use crate::corpus::PairIndex;
use crate::io::links::Link;
use crate::tree::{NodeId, Tree};
use crate::ui::protocol::{CorpusText, Request};

/// The annotation so far: each pair's edits, the pairs accepted, the order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Annotation {
    /// The edits of each pair not yet accepted, and how many the annotator made.
    #[serde(with = "super::session::pair_list")]
    pub edits: BTreeMap<PairIndex, (Edits, usize)>,
    /// The pairs accepted, in the order done.
    pub done: Vec<Accepted>,
    pub order: Order,
    /// The source node clicked, waiting for its target.
    #[serde(skip)]
    pub pending: Option<NodeId>,
    /// What the last click or *Accept* did.
    #[serde(skip)]
    pub message: Option<Result<String, String>>,
    /// Updates of the model started after an *Accept*, and the pairs accepted when the last started.
    #[serde(skip)]
    pub updates: (usize, usize),
}

/// An accepted pair: the edits its proposal needed and the links it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accepted {
    pub pair: PairIndex,
    pub edits: usize,
    pub links: usize,
}

/// The annotation panel's buttons.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AnnotateAction {
    /// The pair's links are right: keep them, show the next pair, and
    /// update the model (at `now`) with the pairs accepted.
    Accept { now: f64 },
    /// Forget the edits of the pair shown (the model's proposal comes back).
    StartOver,
    /// Which pair *Accept* shows next.
    SetOrder(Order),
}

/// Accepted pairs the progress line's "lately" counts.
pub const LATELY: usize = 10;

impl Annotation {
    pub fn is_done(&self, k: PairIndex) -> bool {
        self.done.iter().any(|a| a.pair == k)
    }

    /// The progress line: pairs done, links made, and how much the last
    /// [`LATELY`] proposals needed correcting.
    pub fn progress(&self, pairs: usize) -> String {
        let word = crate::io::text::counted;
        let links: usize = self.done.iter().map(|a| a.links).sum();
        let mut line = format!("Annotated {} of {pairs} pairs, {links} {}.", self.done.len(), word(links, "links"));
        let lately = &self.done[self.done.len().saturating_sub(LATELY)..];
        if !lately.is_empty() {
            let (edits, links) = lately.iter().fold((0, 0), |(e, l), a| (e + a.edits, l + a.links));
            let n = lately.len();
            line.push_str(&format!(" The last {n} {} needed {edits} {}", word(n, "pairs"), word(edits, "edits")));
            if links > 0 {
                line.push_str(&format!(
                    " for {links} {} ({:.0}%)",
                    word(links, "links"),
                    100.0 * edits as f64 / links as f64
                ));
            }
            line.push('.');
        }
        line
    }
}

/// Node `n` of `tree` as the page's messages name it: its label and number.
pub(super) fn name(tree: &Tree, n: NodeId) -> String {
    format!("{} ({n})", tree.label(n))
}

impl State {
    /// The candidates the model in hand scored for pair `k` (above its
    /// threshold, by posterior), from its alignment of the pairs; none if
    /// it did not align `k`.
    fn candidates(&self, k: PairIndex) -> Vec<Scored> {
        let Some(r) = self.results().filter(|r| r.aligned(k)) else { return Vec::new() };
        r.searches.get(k.index()).map_or_else(Vec::new, |s| s.steps.iter().map(|st| st.candidate).collect())
    }

    /// The links proposed for pair `k` under the annotator's edits (its
    /// hand links once accepted).
    pub fn proposal(&self, k: PairIndex) -> Vec<NodePair> {
        if self.annotation.is_done(k) {
            return self.teach.links.get(&k).cloned().unwrap_or_default();
        }
        let Some(pair) = self.loaded.corpus.pair(k) else { return Vec::new() };
        let search = self.results().map(|r| r.link_search).unwrap_or_default();
        let none = Edits::default();
        let edits = self.annotation.edits.get(&k).map_or(&none, |(e, _)| e);
        search_under_edits(&pair.source, &pair.target, &self.candidates(k), search, edits)
    }

    /// The model's posterior of link `(s, t)` of pair `k`, if it scored it.
    pub fn proposed_posterior(&self, k: PairIndex, s: NodeId, t: NodeId) -> Option<f64> {
        self.results().filter(|r| r.aligned(k)).and_then(|r| r.posterior(k, s, t))
    }

    /// A click on the diagram while annotating.
    pub(super) fn annotate_click(&mut self, action: SelectAction) {
        let k = self.selection.pair;
        if self.annotation.is_done(k) {
            // An accepted pair's links are the annotator's: edited by hand.
            match action {
                SelectAction::ClickSource(n) => self.teach.choose_source(n),
                SelectAction::ClickTarget(n) => self.teach_target(n),
                SelectAction::ClickLink(a, b) => self.teach.remove(k, a, b),
                _ => {}
            }
            self.annotation.message = self.teach.message.take();
            if let Some(a) = self.annotation.done.iter_mut().find(|a| a.pair == k) {
                a.links = self.teach.links.get(&k).map_or(0, Vec::len);
            }
            return;
        }
        let Some(pair) = self.loaded.corpus.pair(k).cloned() else { return };
        let link = match action {
            SelectAction::ClickSource(n) => {
                self.annotation.pending = if self.annotation.pending == Some(n) { None } else { Some(n) };
                self.annotation.message = None;
                return;
            }
            SelectAction::ClickTarget(t) => match self.annotation.pending.take() {
                Some(s) => (s, t),
                None => {
                    self.annotation.message = Some(Err("Click a source node first, then a target node.".into()));
                    return;
                }
            },
            SelectAction::ClickLink(a, b) => (a, b),
            _ => return,
        };
        let this = format!("{} ↔ {}", name(&pair.source, link.0), name(&pair.target, link.1));
        let proposed = self.proposal(k).contains(&link);
        let (edits, count) = self.annotation.edits.entry(k).or_default();
        let said = if proposed {
            edits.kept.retain(|&l| l != link);
            edits.forbidden.push(link);
            format!("Removed {this}")
        } else {
            // The annotator's word is final, even against a criterion (gold links may break one): said, not refused.
            let warning = first_conflict(&pair.source, &pair.target, link, &edits.kept).map(|(by, criterion)| {
                let by = format!("{} ↔ {}", name(&pair.source, by.0), name(&pair.target, by.1));
                format!(" (against your link {by}, it breaks criterion {criterion})")
            });
            edits.forbidden.retain(|&l| l != link);
            edits.kept.push(link);
            format!("Added {this}{}", warning.unwrap_or_default())
        };
        *count += 1;
        let n = self.proposal(k).len();
        self.annotation.message =
            Some(Ok(format!("{said}; the pair is decoded again: {n} {}.", crate::io::text::counted(n, "links"))));
    }

    /// An [`AnnotateAction`].
    pub(super) fn annotate(&mut self, action: AnnotateAction) -> Vec<Effect> {
        let k = self.selection.pair;
        match action {
            AnnotateAction::SetOrder(order) => self.annotation.order = order,
            AnnotateAction::StartOver => {
                self.annotation.edits.remove(&k);
                // An accepted pair's hand links go with it: what is exported is what is shown.
                if self.annotation.is_done(k) {
                    self.teach.links.remove(&k);
                }
                self.annotation.done.retain(|a| a.pair != k);
                self.annotation.pending = None;
                self.annotation.message = Some(Ok("The model's proposal of this pair is back.".into()));
            }
            // The key `a` outside annotating does nothing.
            AnnotateAction::Accept { .. } if !self.annotating() => {}
            AnnotateAction::Accept { now } => {
                if self.annotation.is_done(k) {
                    self.annotation.message = Some(Ok("This pair is annotated already.".into()));
                } else {
                    let links = self.proposal(k);
                    let edits = self.annotation.edits.remove(&k).map_or(0, |(_, n)| n);
                    self.annotation.done.push(Accepted { pair: k, edits, links: links.len() });
                    self.teach.links.insert(k, links);
                }
                match self.next_to_annotate() {
                    Some(next) => {
                        let said = format!("Pair {} accepted. ", k.number());
                        self.select_pair(next);
                        self.annotation.message = Some(Ok(format!("{said}Pair {} is next.", next.number())));
                    }
                    None => self.annotation.message = Some(Ok("Every pair is annotated.".into())),
                }
                return self.update_model(now).into_iter().collect();
            }
        }
        Vec::new()
    }

    /// The model trained again with the pairs accepted so far (a job: the
    /// worker trains the kept configuration on the pairs the model saw and
    /// the pairs accepted, their hand links as gold, then aligns every
    /// pair, and the proposals are the new model's): when the model was
    /// trained in this page on these pairs and no job runs (else the next
    /// *Accept* updates it with every pair accepted by then).
    fn update_model(&mut self, now: f64) -> Option<Effect> {
        let m = self.alignment.model.as_ref()?;
        let kept = m.kept.clone()?;
        let seen = m.trained_on.as_ref().filter(|t| t.gen == self.loaded.gen)?.first_unseen;
        if self.jobs.running.is_some() {
            return None;
        }
        let mut corpus = (*self.loaded.corpus).clone();
        let mut train: Vec<usize> = (0..seen.min(corpus.len())).collect();
        for a in &self.annotation.done {
            // A pair a kept session names beyond the pairs loaded is none to learn from.
            let Some(pair) = corpus.pairs.get_mut(a.pair.index()) else { continue };
            let links = self.teach.links.get(&a.pair).map_or(&[][..], Vec::as_slice);
            pair.gold = links.iter().map(|&(s, t)| Link::good(s, t)).collect();
            train.push(a.pair.index());
        }
        train.sort_unstable();
        train.dedup();
        // The pairs the model never saw are aligned held out, as the page's Train aligned them; else every pair.
        let (aligned_from, sentences) = match seen < corpus.len() {
            true => (seen, InputSentences::HeldOut),
            false => (0, InputSentences::Train),
        };
        let request = Request::Update {
            job: self.jobs.next_id(),
            corpus: CorpusText::of(&corpus),
            model: m.json.to_string(),
            kept,
            train,
            aligned_from,
            sentences,
            lexicon: self.lexicon_files(),
        };
        if let Request::Update { job, train, .. } = &request {
            self.start_job(*job, JobKind::Update, now);
            if let Some(j) = &mut self.jobs.running {
                j.annotated = train.iter().copied().filter(|&k| k >= seen).collect();
            }
        }
        self.annotation.updates = (self.annotation.updates.0 + 1, self.annotation.done.len());
        Some(Effect::Post(request))
    }

    /// The pair to annotate next: of the pairs not accepted, the one the
    /// model is least sure of (ties and pairs it did not align: the file's
    /// order), or the next in the file after the pair shown.
    pub fn next_to_annotate(&self) -> Option<PairIndex> {
        let n = self.loaded.corpus.len();
        let open = |k: &usize| !self.annotation.is_done(PairIndex::new(*k));
        let shown = self.selection.pair.index();
        let next = match self.annotation.order {
            Order::File => (shown + 1..n).chain(0..shown).find(open),
            Order::Uncertainty => {
                let unsure = |k: usize| self.results().and_then(|r| r.uncertainty.get(k).copied()).unwrap_or(0.0);
                // Stable: equals keep the file's order.
                (0..n).filter(open).fold(None::<usize>, |best, k| match best {
                    Some(b) if unsure(b) >= unsure(k) => Some(b),
                    _ => Some(k),
                })
            }
        };
        next.map(PairIndex::new)
    }

    /// How the model learns from the pairs accepted, in a sentence.
    pub fn learning(&self) -> String {
        let m = self.alignment.model.as_ref();
        let here =
            m.is_some_and(|m| m.kept.is_some() && m.trained_on.as_ref().is_some_and(|t| t.gen == self.loaded.gen));
        match self.annotation.updates {
            _ if !here => "The model is not updated as you go: only a model trained in this page on these pairs is (Train, then annotate the held-out pairs).".into(),
            (0, _) => "After each pair accepted, the model is trained again with the pairs accepted, and proposes the next pairs.".into(),
            (n, pairs) => format!(
                "The model was updated {n} {} with the pairs accepted (the last with {pairs}): it proposes the next pairs.",
                crate::io::text::counted(n, "times")
            ),
        }
    }

    /// Whether the diagram's clicks annotate.
    pub fn annotating(&self) -> bool {
        self.selection.mode == Mode::Annotate
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use super::*;
    use crate::align::greedy::greedy_align;
    use crate::svg::LinkStyle;

    fn n(k: usize) -> NodeId {
        NodeId::new(k)
    }

    /// The sample aligned by a model whose candidates for pair `k` are
    /// `candidates` (none elsewhere), and whose uncertainty of each pair is `unsure`.
    fn aligned(k: usize, candidates: &[Scored], unsure: &[(usize, f64)]) -> State {
        let mut s = State::with_sample();
        s.alignment.model = Some(uploaded_model());
        let pair = s.loaded.corpus.pairs[k].clone();
        align_changed(&mut s, |searches, uncertainty| {
            searches[k] = greedy_align(&pair.source, &pair.target, candidates);
            for &(p, u) in unsure {
                uncertainty[p] = u;
            }
        });
        set_mode(&mut s, Mode::Annotate);
        select_pair(&mut s, k);
        s
    }

    fn links(s: &State) -> BTreeSet<(usize, usize)> {
        s.proposal(s.selection.pair).into_iter().map(|(a, b)| (a.index(), b.index())).collect()
    }

    use std::collections::BTreeSet;

    /// Pair 3 of the sample: its gold links proposed, but for a wrong link
    /// the model is surest of, which blocks two of them; removing it brings
    /// both back (one correction fixes others), adding a link keeps it and
    /// drops what conflicts with it, and *Accept* makes the links hand links
    /// and shows the pair the model is least sure of.
    #[test]
    fn a_removed_link_is_decoded_again_without_it_and_accept_keeps_the_links_and_goes_to_the_least_sure_pair() {
        let k = 2;
        let s0 = State::with_sample();
        let gold: Vec<(NodeId, NodeId)> = s0.loaded.corpus.pairs[k].gold.iter().map(|l| (l.source, l.target)).collect();
        assert!(gold.len() >= 3, "{gold:?}");
        let wrong = (gold[1].0, gold[2].1);
        assert!(!gold.contains(&wrong));
        let mut candidates: Vec<Scored> =
            gold.iter().enumerate().map(|(i, &(a, b))| Scored::new(a, b, 0.9 - 0.01 * i as f64)).collect();
        candidates.push(Scored::new(wrong.0, wrong.1, 0.95));
        let mut s = aligned(k, &candidates, &[(5, 0.9), (7, 0.5), (k, 0.95)]);
        let mut inspecting = s.clone();
        set_mode(&mut inspecting, Mode::Inspect);
        inspecting.apply(Action::Annotate(AnnotateAction::Accept { now: 0.0 }));
        assert!(inspecting.annotation.done.is_empty(), "the key a outside annotating accepts nothing");
        let expected = |l: &[(NodeId, NodeId)]| l.iter().map(|(a, b)| (a.index(), b.index())).collect::<BTreeSet<_>>();
        let first = links(&s);
        assert!(first.contains(&(wrong.0.index(), wrong.1.index())));
        assert!(expected(&gold[1..3]).is_disjoint(&first));
        // The proposal is the model's own alignment of the pair, drawn as proposed.
        assert_eq!(first, expected(&s.results().unwrap().searches[k].links));
        assert!(s.drawn_links().iter().all(|l| l.style == LinkStyle::Predicted));
        // Removing the wrong link: both gold links it blocked come back.
        s.apply(Action::Select(SelectAction::ClickLink(wrong.0, wrong.1)));
        assert_eq!(links(&s), expected(&gold));
        assert!(matches!(&s.annotation.message, Some(Ok(m)) if m.starts_with("Removed")), "{:?}", s.annotation.message);
        // Adding a link that breaks no criterion against kept links: kept, drawn as the annotator's.
        let before = links(&s);
        let added = (1..9).flat_map(|a| (1..9).map(move |b| (a, b))).find(|l| !before.contains(l)).unwrap();
        click(&mut s, added.0, added.1);
        let added = (n(added.0), n(added.1));
        assert!(links(&s).contains(&(added.0.index(), added.1.index())));
        let drawn = s.drawn_links();
        assert!(drawn.iter().any(|l| (l.source, l.target, l.style) == (added.0, added.1, LinkStyle::Student)));
        assert_eq!(s.annotation.edits[&PairIndex::new(k)].1, 2);
        // Start over: the model's proposal is back.
        s.apply(Action::Annotate(AnnotateAction::StartOver));
        assert_eq!(links(&s), first);
        s.apply(Action::Select(SelectAction::ClickLink(wrong.0, wrong.1)));
        // Accept: the hand links are the proposal; the next pair is the least sure (5, then 7, then the file's order).
        s.apply(Action::Annotate(AnnotateAction::Accept { now: 0.0 }));
        assert_eq!(expected(&s.teach.links[&PairIndex::new(k)]), expected(&gold));
        assert_eq!(s.annotation.done, [Accepted { pair: PairIndex::new(k), edits: 1, links: gold.len() }]);
        assert_eq!(s.selection.pair, PairIndex::new(5));
        s.apply(Action::Annotate(AnnotateAction::Accept { now: 0.0 }));
        assert_eq!(s.selection.pair, PairIndex::new(7));
        s.apply(Action::Annotate(AnnotateAction::Accept { now: 0.0 }));
        assert_eq!(s.selection.pair, PairIndex::new(0));
        s.apply(Action::Annotate(AnnotateAction::SetOrder(Order::File)));
        s.apply(Action::Annotate(AnnotateAction::Accept { now: 0.0 }));
        assert_eq!(s.selection.pair, PairIndex::new(1));
        let (total, g, share) = (s.loaded.corpus.len(), gold.len(), 100.0 / gold.len() as f64);
        assert_eq!(
            s.annotation.progress(total),
            format!(
                "Annotated 4 of {total} pairs, {g} links. The last 4 pairs needed 1 edit for {g} links ({share:.0}%)."
            )
        );
        // An accepted pair's links are the annotator's: a click removes one, as in teaching, and it can be undone.
        select_pair(&mut s, k);
        s.apply(Action::Select(SelectAction::ClickLink(gold[0].0, gold[0].1)));
        assert_eq!(s.teach.links[&PairIndex::new(k)].len(), gold.len() - 1);
        assert_eq!(s.annotation.done[0].links, gold.len() - 1);
        s.apply(Action::Teach(TeachAction::Undo));
        assert_eq!(s.teach.links[&PairIndex::new(k)].len(), gold.len());
        // Starting an accepted pair over takes its hand links away with it: the model's proposal is back.
        s.apply(Action::Annotate(AnnotateAction::StartOver));
        assert!(!s.annotation.is_done(PairIndex::new(k)) && !s.teach.links.contains_key(&PairIndex::new(k)));
        assert_eq!(links(&s), first);
    }

    /// *Accept* updates a model trained in this page on these pairs: the
    /// worker is asked to train it again on the pairs it saw and those
    /// accepted, their hand links as gold; an uploaded model is not
    /// updated, and neither while a job runs.
    #[test]
    fn accept_updates_a_model_trained_here_with_the_pairs_accepted() {
        let mut s = aligned(2, &[], &[]);
        click(&mut s, 0, 0);
        let posts =
            |effects: Vec<Effect>| effects.into_iter().filter(|e| matches!(e, Effect::Post(_))).collect::<Vec<_>>();
        assert!(posts(s.apply(Action::Annotate(AnnotateAction::Accept { now: 1.0 }))).is_empty(), "an uploaded model");
        let trained_on = Some(TrainedOn { gen: s.loaded.gen, first_unseen: 100, annotated: Default::default() });
        let (origin, kept) = (ModelOrigin::TrainedHere, Some("{\"kept\": 1}".into()));
        s.alignment.model =
            Some(LoadedAlignmentModel { json: "{}".into(), origin, trained_on, kept, ..uploaded_model() });
        select_pair(&mut s, 120);
        click(&mut s, 1, 1);
        let effects = posts(s.apply(Action::Annotate(AnnotateAction::Accept { now: 2.0 })));
        let [Effect::Post(Request::Update { corpus, train, kept, aligned_from, sentences, .. })] = effects.as_slice()
        else {
            panic!("{effects:?}")
        };
        assert_eq!(*train, (0..100).chain([120]).collect::<Vec<_>>(), "pair 3 (index 2) is among the pairs seen");
        assert_eq!(kept, "{\"kept\": 1}", "relayed unread");
        assert_eq!((*aligned_from, *sentences), (100, InputSentences::HeldOut), "the pairs it never saw, held out");
        let corpus = corpus.parse().unwrap();
        let gold = |c: &crate::corpus::Corpus, k: usize| {
            c.pairs[k].gold.iter().map(|l| (l.source.index(), l.target.index())).collect::<Vec<_>>()
        };
        let learnt = (gold(&corpus, 2), gold(&corpus, 120));
        assert_eq!(learnt, (vec![(0, 0)], vec![(1, 1)]), "the hand links are the gold to learn");
        assert_eq!(gold(&corpus, 5), gold(&s.loaded.corpus, 5));
        assert_eq!(s.jobs.running.as_ref().map(|j| j.kind), Some(JobKind::Update));
        // While it runs, the next Accept starts nothing (the one after it takes every pair accepted by then).
        assert!(posts(s.apply(Action::Annotate(AnnotateAction::Accept { now: 3.0 }))).is_empty());
        // The updated model saw the pairs before 100 and pair 121 (index 120): their scores carry the warning.
        let job = s.jobs.running.clone().unwrap();
        s.alignment.trained(&job, "{}".into(), "updated".into(), Some("{}".into()), s.loaded.corpus.len());
        let seen = |s: &State| s.alignment.model.as_ref().and_then(|m| m.trained_on.clone()).unwrap();
        let t = seen(&s);
        assert_eq!((t.first_unseen, t.saw(99), t.saw(120), t.saw(100), t.saw(121)), (100, true, true, false, false));
        // Kept with the session.
        let r = restored(serde_json::from_str(&serde_json::to_string(&s.session()).unwrap()).unwrap());
        assert_eq!(seen(&r).annotated, t.annotated);
    }

    /// A link the annotator adds is kept even when it breaks a criterion
    /// against another they added (as `simulate-annotation`'s annotator
    /// keeps every gold link), and the page says which.
    #[test]
    fn an_added_link_is_kept_even_against_a_criterion_and_the_page_says_so() {
        let mut s = aligned(2, &[], &[]);
        assert!(links(&s).is_empty(), "no candidates, nothing proposed");
        click(&mut s, 0, 0);
        click(&mut s, 1, 0);
        assert_eq!(links(&s), BTreeSet::from([(0, 0), (1, 0)]));
        assert!(
            matches!(&s.annotation.message, Some(Ok(m)) if m.starts_with("Added") && m.contains("against your link S (0) ↔ S (0), it breaks criterion (i)")),
            "{:?}",
            s.annotation.message
        );
    }

    /// The annotation survives a reload: edits, pairs accepted and the order.
    #[test]
    fn the_annotation_is_kept_with_the_session() {
        let mut s = aligned(2, &[], &[]);
        click(&mut s, 0, 0);
        s.apply(Action::Annotate(AnnotateAction::SetOrder(Order::File)));
        s.apply(Action::Annotate(AnnotateAction::Accept { now: 0.0 }));
        click(&mut s, 1, 1);
        let session = s.session();
        let json = serde_json::to_string(&session).unwrap();
        let r = restored(serde_json::from_str(&json).unwrap());
        assert_eq!((&r.annotation.done, &r.annotation.edits), (&s.annotation.done, &s.annotation.edits));
        assert_eq!(r.annotation.order, Order::File);
        assert_eq!(r.teach.links, s.teach.links);
        assert_eq!((r.selection.mode, r.selection.pair), (Mode::Annotate, PairIndex::new(3)));
    }
}
