//! Dev and test pairs given as their own files (the Data panel's *Dev
//! pairs* and *Test pairs* inputs): they follow the pairs loaded, the dev
//! set's then the test set's, so the pairs shown are `treelink train
//! --train A --dev B` and `treelink align --input C` one after another, and
//! the Train panel's split takes them as its dev and its test
//! ([`PairsTraining::split`](crate::app::alignment::PairsTraining::split)).
//! Loading other pairs keeps them after the new ones; each can be removed.

use std::rc::Rc;

use super::{Effect, Loaded, State};
use crate::app::alignment::pair_span;
use crate::corpus::{Corpus, PairIndex};
use crate::ui::load::{HeldRole, Slot};
use crate::ui::protocol::CorpusText;

/// One set: what its input says it is, and how many pairs it adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldSet {
    pub name: String,
    pub pairs: usize,
}

/// The dev and test sets given as files, in the order they follow the pairs loaded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HeldSets {
    pub dev: Option<HeldSet>,
    pub test: Option<HeldSet>,
}

impl HeldSets {
    pub fn get(&self, role: HeldRole) -> Option<&HeldSet> {
        match role {
            HeldRole::Dev => self.dev.as_ref(),
            HeldRole::Test => self.test.as_ref(),
        }
    }

    fn get_mut(&mut self, role: HeldRole) -> &mut Option<HeldSet> {
        match role {
            HeldRole::Dev => &mut self.dev,
            HeldRole::Test => &mut self.test,
        }
    }

    /// The pairs of the set of `role` (0 without one).
    pub fn pairs(&self, role: HeldRole) -> usize {
        self.get(role).map_or(0, |s| s.pairs)
    }

    /// The pairs of both sets: the last of the corpus shown.
    pub fn total(&self) -> usize {
        self.pairs(HeldRole::Dev) + self.pairs(HeldRole::Test)
    }
}

impl Loaded {
    /// The pairs loaded before the dev and test sets given as files.
    pub fn base_len(&self) -> usize {
        self.corpus.len().saturating_sub(self.held.total())
    }

    /// `base`, pairs read from the training files, followed by the dev and
    /// test sets shown now: the corpus those files make on the page.
    pub(super) fn with_held(&self, mut base: Corpus) -> Corpus {
        if self.held.total() > 0 {
            base.pairs.extend_from_slice(&self.corpus.pairs[self.base_len()..]);
        }
        base
    }

    /// The range of the pairs of the set of `role` in the corpus shown.
    pub(super) fn held_range(&self, role: HeldRole) -> std::ops::Range<usize> {
        let start = match role {
            HeldRole::Dev => self.base_len(),
            HeldRole::Test => self.base_len() + self.held.pairs(HeldRole::Dev),
        };
        start..start + self.held.pairs(role)
    }

    /// The sets in a line, pairs numbered from 1: "pairs 33–40 the dev set
    /// (b.src, b.trg, b.gold), pairs 41–50 the test set (…)"; empty without sets.
    pub fn held_line(&self) -> String {
        let parts: Vec<String> = [HeldRole::Dev, HeldRole::Test]
            .into_iter()
            .filter_map(|role| {
                let set = self.held.get(role)?;
                let range = self.held_range(role);
                Some(format!("pairs {} the {} set ({})", pair_span(range), role.name(), set.name))
            })
            .collect();
        parts.join(", ")
    }
}

impl State {
    /// Asks the file worker to check `slot` (see `Slots::load_request`),
    /// read the way the pairs shown are. Gold links alone are for the
    /// pairs loaded before the sets (each set has its own); word links, one
    /// line per pair shown, are for all (as `--word-align` for the
    /// training pairs and for the test's `align`).
    pub(super) fn check(&mut self, slot: Slot) -> Effect {
        let mut request = self.slots.load_request(slot, &self.loaded.corpus);
        request.sides_swapped = self.loaded.sides_swapped;
        if let (Some(current), true) = (&mut request.current, self.loaded.held.total() > 0) {
            let text = CorpusText::of(&Corpus { pairs: self.loaded.corpus.pairs[..self.loaded.base_len()].to_vec() });
            *current = (text.source, text.target);
        }
        Effect::Load(self.jobs.next_id(), request)
    }

    /// A set given as files read: its pairs take the place of the set of
    /// its role (after the pairs loaded, the dev set before the test set).
    /// The hand links and the pair shown before it stay; what was
    /// computed on the pairs (a new generation) goes. `None` for a set: removed.
    ///
    /// Word links in use are checked again: they are one line per pair shown.
    pub(super) fn replace_held(&mut self, role: HeldRole, set: Option<(Corpus, String)>) -> Vec<Effect> {
        let range = self.loaded.held_range(role);
        let mut pairs = self.loaded.corpus.pairs.clone();
        let (held, new_pairs) = match set {
            Some((c, name)) => (Some(HeldSet { name, pairs: c.len() }), c.pairs),
            None => (None, Vec::new()),
        };
        let end = range.start + new_pairs.len();
        pairs.splice(range.clone(), new_pairs);
        *self.loaded.held.get_mut(role) = held;
        self.loaded.corpus = Rc::new(Corpus { pairs });
        self.loaded.gen = self.loaded.gen.next();
        // Hand links and the annotation stay with their pairs: those of the
        // set replaced go, those of the test set after a new dev set move with it.
        let moved = |k: PairIndex| match k.index() {
            i if i < range.start => Some(k),
            i if i >= range.end => Some(PairIndex::new(i - range.end + end)),
            _ => None,
        };
        let links = std::mem::take(&mut self.teach.links);
        self.teach.links = links.into_iter().filter_map(|(k, l)| Some((moved(k)?, l))).collect();
        let edits = std::mem::take(&mut self.annotation.edits);
        self.annotation.edits = edits.into_iter().filter_map(|(k, e)| Some((moved(k)?, e))).collect();
        let done = std::mem::take(&mut self.annotation.done);
        self.annotation.done =
            done.into_iter().filter_map(|a| Some(super::Accepted { pair: moved(a.pair)?, ..a })).collect();
        self.find.search_again(&self.loaded.corpus);
        if self.selection.pair.index() >= self.loaded.corpus.len() {
            self.selection.pair = PairIndex::FIRST;
        }
        self.clear_selection();
        let word_links = self.slots.slot(Slot::WordLinks);
        if word_links.kept.is_empty() || word_links.checking {
            return Vec::new();
        }
        vec![self.check(Slot::WordLinks)]
    }

    /// *Remove* next to a set's input: its pairs go, and its input says
    /// nothing is loaded (a job running on the pairs before is for another
    /// generation of them: its results are not shown on these).
    pub(super) fn remove_held(&mut self, role: HeldRole) -> Vec<Effect> {
        if self.loaded.held.get(role).is_none() {
            return Vec::new();
        }
        self.slots.not_in_use(role.slot());
        self.replace_held(role, None)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use crate::app::alignment::PairSplit;
    use crate::io::links::write_links;
    use crate::ui::load::{self, HeldRole};
    use crate::ui::protocol::Request;

    /// Pairs `range` of the built-in sample as bracketed files' texts (source, target, gold).
    fn texts(range: std::ops::Range<usize>) -> [String; 3] {
        let sample = load::sample();
        let pairs = &sample.pairs[range];
        [
            pairs.iter().map(|p| p.source.to_bracketed() + "\n").collect(),
            pairs.iter().map(|p| p.target.to_bracketed() + "\n").collect(),
            write_links(&pairs.iter().map(|p| p.gold.clone()).collect::<Vec<_>>()),
        ]
    }

    /// The pairs `range` of the sample as the files `prefix.src`, `.trg`, `.gold`, given to `slots`.
    fn give(s: &mut State, prefix: &str, range: std::ops::Range<usize>, slots: [Slot; 3]) {
        for ((ext, text), slot) in ["src", "trg", "gold"].into_iter().zip(texts(range)).zip(slots) {
            read(s, &format!("{prefix}.{ext}"), &text, Some(slot));
        }
    }

    /// The sample's pairs 0..20 as the training files, 20..26 as the dev
    /// set and 26..30 as the test set: the pairs shown are the three one
    /// after another, and Train's split is theirs, whatever the boxes say.
    fn three_sets() -> State {
        let mut s = State::with_sample();
        give(&mut s, "a", 0..20, [Slot::Source, Slot::Target, Slot::Gold]);
        give(&mut s, "b", 20..26, [Slot::DevSet; 3]);
        give(&mut s, "c", 26..30, [Slot::TestSet; 3]);
        s
    }

    #[test]
    fn dev_and_test_sets_follow_the_pairs_loaded_and_are_trains_split() {
        let s = three_sets();
        let sample = load::sample();
        assert_eq!(s.loaded.corpus.pairs, sample.pairs[..30].to_vec());
        let held = &s.loaded.held;
        assert_eq!((s.loaded.base_len(), held.pairs(HeldRole::Dev), held.pairs(HeldRole::Test)), (20, 6, 4));
        let dev_gold: usize = s.loaded.corpus.pairs[20..26].iter().map(|p| p.gold.len()).sum();
        let dev = format!("b.src, b.trg, b.gold: 6 pairs, {dev_gold} gold links, the dev pairs");
        assert_eq!(message(&s, Slot::DevSet), dev);
        let summary = s.corpus_summary();
        let sets = "; pairs 21–26 the dev set (b.src, b.trg, b.gold), pairs 27–30 the test set (c.src, c.trg, c.gold)";
        assert!(summary.ends_with(sets), "{summary}");
        // The sets are the split, with Dev pairs off and no test share asked for.
        let mut form = s.form.clone();
        (form.calibrate, form.test) = (false, false);
        let how = form.pairs_training(&s.loaded.held);
        assert!(how.calibrate && how.test);
        assert_eq!(how.split(30), Some(PairSplit { train: 20, dev: 6, test: 4 }));
    }

    #[test]
    fn new_training_pairs_or_their_gold_links_keep_the_sets_after_them() {
        let mut s = three_sets();
        let sample = load::sample();
        // Gold links again for the training pairs: read against them alone.
        let [_, _, gold] = texts(0..20);
        read(&mut s, "a2.gold", &gold, Some(Slot::Gold));
        assert_read(&s, Slot::Gold, "a2.gold: 20 lines");
        assert_eq!((s.loaded.corpus.len(), s.loaded.base_len()), (30, 20));
        // Other training pairs: the sets follow them.
        give(&mut s, "d", 30..40, [Slot::Source, Slot::Target, Slot::Gold]);
        let mut expected = sample.pairs[30..40].to_vec();
        expected.extend_from_slice(&sample.pairs[20..30]);
        assert_eq!(s.loaded.corpus.pairs, expected);
        assert_eq!(s.form.pairs_training(&s.loaded.held).split(20), Some(PairSplit { train: 10, dev: 6, test: 4 }));
    }

    #[test]
    fn removing_or_replacing_a_set_keeps_the_hand_links_of_the_pairs_that_stay() {
        let mut s = three_sets();
        for pair in [3, 28] {
            hand_link(&mut s, pair);
        }
        assert_eq!(s.teach.links.keys().map(|k| k.index()).collect::<Vec<_>>(), [3, 28]);
        // A smaller dev set: the test pairs, and their hand links, move up.
        give(&mut s, "b2", 20..22, [Slot::DevSet; 3]);
        assert_eq!((s.loaded.corpus.len(), s.loaded.held.pairs(HeldRole::Dev)), (26, 2));
        assert_eq!(s.loaded.corpus.pairs[22..], load::sample().pairs[26..30]);
        assert_eq!(s.teach.links.keys().map(|k| k.index()).collect::<Vec<_>>(), [3, 24]);
        // Removed: its pairs go, its input says nothing is in use.
        run(&mut s, Action::Load(LoadAction::RemoveHeld(HeldRole::Dev)));
        let dev_set = s.form.pairs_training(&s.loaded.held).dev_set;
        assert_eq!((s.loaded.corpus.len(), s.loaded.held.dev.is_none(), dev_set), (24, true, 0));
        assert!(s.slots.slot(Slot::DevSet).kept.is_empty());
        assert_eq!(s.teach.links.keys().map(|k| k.index()).collect::<Vec<_>>(), [3, 22]);
        run(&mut s, Action::Load(LoadAction::RemoveHeld(HeldRole::Test)));
        assert_eq!((s.loaded.corpus.len(), s.teach.links.len()), (20, 1));
    }

    /// Word links are one line per pair shown, the sets' too (as
    /// `--word-align` for the training pairs and for the test's `align`):
    /// a set removed, they no longer fit, and their input says so.
    #[test]
    fn word_links_are_checked_against_every_pair_shown_again_when_a_set_goes() {
        let mut s = three_sets();
        read(&mut s, "aligned.gdfa", &"0-0\n".repeat(30), Some(Slot::WordLinks));
        assert_eq!(message(&s, Slot::WordLinks), "aligned.gdfa: 30 lines, 30 word links");
        run(&mut s, Action::Load(LoadAction::RemoveHeld(HeldRole::Test)));
        assert_refused(&s, Slot::WordLinks, "aligned.gdfa:27:1:");
    }

    #[test]
    fn a_set_waits_for_its_three_files_and_a_bad_one_never_replaces_the_set_in_use() {
        let mut s = three_sets();
        let [src, trg, _] = texts(0..3);
        read(&mut s, "e.src", &src, Some(Slot::DevSet));
        assert_eq!(message(&s, Slot::DevSet), "e.src: waiting for the set's .trg and .gold file");
        read(&mut s, "e.txt", &trg, Some(Slot::DevSet));
        assert_refused(&s, Slot::DevSet, "e.txt: expected PREFIX.src, PREFIX.trg or PREFIX.gold");
        // Gold links that do not fit the trees: refused, located; the set in use stays.
        read(&mut s, "e.trg", &trg, Some(Slot::DevSet));
        read(&mut s, "e.gold", "0-0\n", Some(Slot::DevSet));
        assert_refused(&s, Slot::DevSet, "e.gold:");
        assert_eq!((s.loaded.corpus.len(), s.loaded.held.pairs(HeldRole::Dev)), (30, 6));
        assert!(s.slots.slot(Slot::DevSet).still_in_use().is_some_and(|m| m.starts_with("still in use: b.src")));
    }

    #[test]
    fn swapped_pairs_read_a_new_set_the_same_way_and_a_session_brings_the_sets_back() {
        let mut s = three_sets();
        run(&mut s, Action::Load(LoadAction::SwapSides));
        give(&mut s, "b3", 20..25, [Slot::DevSet; 3]);
        let swapped: Vec<_> = load::sample().pairs[20..25].iter().map(|p| p.swapped()).collect();
        assert_eq!(s.loaded.corpus.pairs[20..25], swapped);
        let r = restored(s.session());
        assert_eq!(
            (&r.loaded.corpus, &r.loaded.held, r.loaded.sides_swapped),
            (&s.loaded.corpus, &s.loaded.held, true)
        );
        let split = r.form.pairs_training(&r.loaded.held).split(r.loaded.corpus.len());
        assert_eq!(split, Some(PairSplit { train: 20, dev: 5, test: 4 }));
    }

    /// The Translate view's Train: `mt-train --train A --dev B` on the
    /// training and dev pairs, the test set given as its own files left
    /// out; without sets, the last 20% are dev; unticked, none; a pair it
    /// trained or tuned on carries the training-data warning, a test pair not.
    #[test]
    fn translate_trains_on_the_training_pairs_and_tunes_on_the_dev_pairs_never_the_test_set() {
        let train_mt = |s: &mut State| {
            let effects = s.apply(Action::Translate(TranslateAction::Train { now: 0.0 }));
            let [Effect::Post(Request::TrainMt { job, corpus, dev, .. })] = effects.as_slice() else {
                panic!("{effects:?}")
            };
            (*job, corpus.parse().unwrap().len(), *dev)
        };
        let mut s = three_sets();
        let (job, pairs, dev) = train_mt(&mut s);
        assert_eq!((pairs, dev), (26, 6));
        let ready = Response::MtReady { job, model: job, summary: "MS".into(), json: Some("{}".into()) };
        answer(&mut s, ready, 1.0);
        let held = s.mt.held.as_ref().unwrap();
        assert_eq!(held.origin, "trained in this page on 20 pairs, tuned on the 6 dev pairs after them");
        for (k, seen) in [(19, true), (25, true), (26, false)] {
            let effects = s.apply(Action::Translate(TranslateAction::TranslatePair(PairIndex::new(k))));
            let Some(Effect::Post(Request::Translate { job, .. })) = effects.last() else { panic!("{effects:?}") };
            answer(&mut s, Response::Translated { job: *job, result: Box::new(view("x", -1.0)), source: None }, 2.0);
            assert_eq!(s.mt.result.as_ref().map(|r| r.trained_on_these), Some(seen), "pair {k}");
        }
        // The sample alone: its last 31 of 157 pairs are dev; unticked, none.
        let mut s = State::with_sample();
        assert_eq!(train_mt(&mut s).1, 157);
        assert_eq!(s.jobs.running.as_ref().and_then(|j| j.split), Some(PairSplit { train: 126, dev: 31, test: 0 }));
        s.apply(Action::Job(JobAction::Cancel(None)));
        s.apply(Action::Translate(TranslateAction::SetTune(false)));
        let (_, pairs, dev) = train_mt(&mut s);
        assert_eq!((pairs, dev), (157, 0));
    }
}
