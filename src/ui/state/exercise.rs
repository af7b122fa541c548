//! An exercise's place in the page: opening one shows its pairs in
//! teaching mode and keeps what was shown before it ([`Before`]: the
//! pairs, their hand links, the pair and mode, the folds); *Leave the
//! exercise* brings that back, so what is shown is what a reload shows
//! (the session keeps it too, as what was [`Shown`]). The exercise's own state
//! (form, check, answers, class table) is [`Classroom`](crate::ui::classroom::Classroom)'s.

use super::{DownloadBody, Effect, HeldSets, LoadAction, Loaded, Mode, Selection, Shown, Slot, State, Teach};
use crate::corpus::Corpus;
use crate::exercise::Exercise;
use crate::ui::classroom::ExerciseAction;
use crate::ui::folds::Folds;

/// What was shown before the open exercise, brought back when it is left.
#[derive(Debug, Clone, PartialEq)]
pub struct Before {
    /// The pairs, with the dev and test sets given as files among them.
    pub loaded: Loaded,
    pub selection: Selection,
    pub teach: Teach,
    pub folds: Folds,
}

impl Before {
    /// What *Leave the exercise* goes back to, in words.
    pub fn label(&self) -> String {
        if self.loaded.name.starts_with(super::corpus::SAMPLE_NAME) {
            "the built-in sample".into()
        } else {
            self.loaded.name.clone()
        }
    }

    /// What a session keeps of it: its pairs come back through the files
    /// in use (the trees' inputs still hold them), the rest from here.
    pub(super) fn saved(&self) -> Shown {
        Shown::of(&self.loaded, &self.selection, &self.teach, &self.folds)
    }

    /// What a restored session kept of it, on the pairs its files made.
    pub(super) fn restore(&mut self, saved: Shown) {
        if saved.sides_swapped && !self.loaded.sides_swapped {
            self.loaded.swap();
        }
        self.teach = Teach { links: saved.links, reveal_gold: saved.reveal_gold, ..Teach::default() };
        self.folds = Folds::restored(self.loaded.gen, &saved.folds, &self.loaded.corpus);
        self.selection =
            Selection { pair: saved.pair.within(self.loaded.corpus.len()), mode: saved.mode, ..Selection::default() };
    }
}

impl State {
    /// An [`ExerciseAction`]: leaving is the root's (what was shown comes
    /// back); the rest is the classroom's, a file it makes offered as a download.
    pub(super) fn exercise(&mut self, action: ExerciseAction) -> Vec<Effect> {
        if action == ExerciseAction::Close {
            return self.leave_exercise();
        }
        let made = self.classroom.apply(action, &self.loaded.corpus, &self.teach.links);
        made.map(|d| Effect::Download {
            name: d.name,
            body: DownloadBody::Text { text: d.json.into(), mime: "application/json" },
        })
        .into_iter()
        .collect()
    }

    /// The file worker opened exercise `exercise` of `file`, whose pairs
    /// (the key hidden unless shown) are `corpus`: they are shown, aligned
    /// by hand; what was shown before is kept for *Leave the exercise*
    /// (the first time: another exercise opened over one keeps it).
    pub(super) fn open_exercise(&mut self, file: String, exercise: Exercise, corpus: Corpus) -> Vec<Effect> {
        let before = match self.before_exercise.take() {
            Some(before) => Some(before),
            None if !self.loaded.corpus.is_empty() && self.classroom.open.is_none() => Some(Box::new(Before {
                loaded: self.loaded.clone(),
                selection: self.selection.clone(),
                teach: self.teach.clone(),
                folds: self.folds.clone(),
            })),
            None => None,
        };
        let links = self.teach.links.clone();
        self.loaded.sides_swapped = false;
        let name = format!("Exercise '{}' ({file})", exercise.title);
        self.replace_corpus(corpus, name);
        // The exercise's pairs are all there is to align; the sets come back with the pairs before it.
        self.loaded.held = HeldSets::default();
        self.before_exercise = before;
        let show_gold = exercise.show_gold;
        let back = self.classroom.opened(file, exercise, &links);
        // Aligning by hand, with the key shown only if the instructor chose so.
        self.teach = Teach { reveal_gold: show_gold, links: back, ..Teach::default() };
        self.selection.mode = Mode::Teach;
        self.clear_selection();
        // Answers files given before their exercise was open are checked now.
        let answers = self.slots.slot(Slot::Answers);
        if !answers.files.is_empty() && !answers.checking && matches!(answers.message, Some(Err(_))) {
            self.slots.slot_mut(Slot::Answers).checking = true;
            return vec![self.check(Slot::Answers)];
        }
        Vec::new()
    }

    /// *Leave the exercise*: what was shown before it comes back (with
    /// its hand links, pair, mode and folds; nothing kept: the built-in
    /// sample, as a reload would show); the exercise's hand links are kept
    /// for when it is opened again, and its inputs say nothing is open.
    fn leave_exercise(&mut self) -> Vec<Effect> {
        if self.classroom.open.is_none() {
            return Vec::new();
        }
        self.classroom.apply(ExerciseAction::Close, &self.loaded.corpus, &self.teach.links);
        self.slots.not_in_use(Slot::Exercise);
        self.slots.not_in_use(Slot::Answers);
        match self.before_exercise.take() {
            Some(before) => {
                let Before { loaded, selection, teach, folds } = *before;
                (self.loaded, self.selection, self.teach, self.folds) = (loaded, selection, teach, folds);
                self.alignment.explained = None;
                self.find.search_again(&self.loaded.corpus);
                Vec::new()
            }
            None => self.load(LoadAction::LoadSample),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::*;
    use crate::exercise::Exercise;
    use crate::tree::NodeId;
    use std::collections::BTreeMap;

    /// Opening an exercise over pairs with hand links, then leaving it,
    /// brings back those pairs with their links, pair and mode; the
    /// session says the same at every step, and a session restored while
    /// the exercise is open leaves it for the same pairs and links.
    #[test]
    fn leaving_an_exercise_brings_back_what_was_shown_and_a_reload_shows_the_same() {
        let mut s = State::with_sample();
        run(&mut s, Action::Load(LoadAction::LoadSample));
        hand_link(&mut s, 4);
        s.apply(Action::Load(LoadAction::SwapSides));
        let shown = (s.loaded.corpus.clone(), s.teach.links.clone(), s.selection.pair.index(), s.selection.mode);
        assert_eq!(s.student_links(), [(NodeId::ROOT, NodeId::ROOT)]);
        let session = s.session();
        let exercise = Exercise::new(&crate::ui::load::sample(), &[2, 3], "Two", "", false).unwrap();
        read(&mut s, "two.exercise.json", &exercise.to_json(), None);
        assert_eq!((s.loaded.corpus.len(), s.selection.mode, s.teach.links.len()), (2, Mode::Teach, 0));
        click(&mut s, 0, 0);
        // A reload now: the exercise with its link, over the pairs shown before it.
        let links = BTreeMap::from([(PairIndex::FIRST, vec![(NodeId::ROOT, NodeId::ROOT)])]);
        let left = BTreeMap::from([(exercise.fingerprint(), links)]);
        let mut r = restored(s.session());
        assert_eq!((r.loaded.corpus.as_ref(), &r.teach.links), (s.loaded.corpus.as_ref(), &s.teach.links));
        for state in [&mut s, &mut r] {
            state.apply(Action::Exercise(ExerciseAction::Close));
            assert!(state.classroom.open.is_none());
            let now = (&state.loaded.corpus, &state.teach.links, state.selection.pair.index(), state.selection.mode);
            assert_eq!(now, (&shown.0, &shown.1, shown.2, shown.3));
            assert!(state.loaded.sides_swapped);
            let mut kept = state.session();
            assert_eq!(kept.classroom.left, left, "the exercise's links");
            kept.classroom.left.clear();
            assert_eq!(kept, session, "what a reload shows is what was shown");
            assert_eq!(state.slots.slot(Slot::Exercise).message, None, "no exercise is open");
        }
        // Opened again, the exercise has its link back; after a reload too.
        let mut again = restored(r.session());
        for state in [&mut s, &mut again] {
            read(state, "two.exercise.json", &exercise.to_json(), None);
            assert_eq!(state.student_links(), [(NodeId::ROOT, NodeId::ROOT)]);
        }
    }

    /// Answers given before their exercise is open say why they wait, and
    /// are checked once it opens; against a student copy they are refused.
    #[test]
    fn answers_given_before_their_exercise_are_checked_when_it_opens() {
        use crate::exercise::Answers;
        let mut s = State::with_sample();
        let exercise = Exercise::new(&s.loaded.corpus, &[2, 3], "Two", "", false).unwrap();
        let ana = Answers::new(&exercise, "Ana", &[vec![(NodeId::ROOT, NodeId::ROOT)], vec![]]).to_json();
        read(&mut s, "ana.answers.json", &ana, None);
        assert_refused(&s, Slot::Answers, "");
        assert!(message(&s, Slot::Answers).contains("open their exercise"), "{}", message(&s, Slot::Answers));
        read(&mut s, "copy.json", &exercise.student_copy().to_json(), None);
        assert_refused(&s, Slot::Answers, "");
        let refused = message(&s, Slot::Answers);
        assert!(refused.contains("is a student copy without the key"), "{refused}");
        assert!(s.classroom.class.is_none());
        read(&mut s, "two.json", &exercise.to_json(), None);
        assert_eq!(s.slots.slot(Slot::Answers).message, Some(Ok("1 answers file checked against two.json".into())));
        assert_eq!(s.classroom.class.as_ref().map(|c| c.students.len()), Some(1));
    }
}
