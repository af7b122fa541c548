//! The page's one state: a composition of parts, each a type that owns
//! its fields and reduces its own actions, and the rules that coordinate
//! parts. Views render the state and send [`Action`]s; the workers'
//! answers arrive as actions too ([`Action::Worker`],
//! [`LoadAction::Loaded`]). Every number shown is computed here or in the
//! engine from this state.
//!
//! The parts, one module each (with its tests): the pairs loaded
//! ([`Loaded`], `corpus` and `held`); the file inputs ([`Slots`]); the
//! workbench's [`Selection`], the kernel view's [`Lambda`] and the
//! [`Folds`]; the training form ([`TrainForm`]); the [`Jobs`]; the
//! alignment model and its results ([`Alignment`]); the hand links and
//! their undo ([`Teach`]); the find box ([`FindPair`]); translation
//! ([`MtState`]); exercises ([`Classroom`]); and reading and keeping the
//! session ([`Keeping`]). Two fields belong to no part: what was shown
//! before the open exercise (a copy of several parts) and the last
//! export's note.
//!
//! [`State::apply`] only routes: an action goes to its part's reducer, or,
//! when it changes several parts, to the cross-part rule that carries it
//! out — an `impl State` function next to the part it is mostly about:
//! loading files and the corpus they make (`corpus`: `load`, `loaded`,
//! `replace_corpus`, `swap_sides`), the dev and test sets (`held`),
//! starting a job and its end (`training`, `jobs`), clicks that select or
//! link (`selection`, `teaching`), translation's jobs (`translation`),
//! opening and leaving an exercise (`exercise`), restoring a session
//! (`session`), the exports (`export`) and what the diagram draws
//! (`drawn`). Then the rules that follow any action (`State::follow`).
//! The kept session is each part's own serialisation of its kept fields
//! ([`Session`]).

use std::rc::Rc;

use super::classroom::{Classroom, ExerciseAction, HandLinks};
use super::folds::Folds;
use super::ids::{JobId, WorkerGen};
use super::load::{self, LoadRequest};
use super::protocol::{Request, Response, Searched};
use crate::corpus::PairIndex;
use crate::tree::NodeId;

mod alignment;
mod annotation;
mod corpus;
mod drawn;
mod exercise;
mod export;
mod find;
mod held;
mod jobs;
mod lambda;
mod selection;
mod session;
mod slots;
mod teaching;
#[cfg(test)]
mod testing;
mod training;
mod translation;

pub use super::folds::FoldAction;
pub use alignment::{
    Alignment, Explained, LoadedAlignmentModel, ModelOrigin, Results, SortKey, TrainedOn, ON_TRAINING_DATA,
    PREVIEW_LABEL, PREVIEW_NEXT, TRAINING_DATA_ADVICE,
};
pub use annotation::{Accepted, AnnotateAction, Annotation};
pub use corpus::{Loaded, TigerKept};
pub use exercise::Before;
pub use export::{ExportFile, ExportNote};
pub use find::{FindAction, FindPair};
pub use held::{HeldSet, HeldSets};
pub use jobs::{Job, JobAction, JobKind, JobProgress, Jobs, Progress, ProgressAction};
pub use lambda::Lambda;
pub use selection::{Compare, Mode, SelectAction, Selection};
pub use session::{
    exercise_address, FilesKey, KeepProblem, Keeping, Location, SavedFile, Session, SessionAction, SessionFiles, Shown,
};
pub use slots::{is_mt_model, Dropped, LoadAction, Slot, SlotStatus, Slots, Upload};
pub use teaching::{LinkEdit, LinkHistory, Teach, TeachAction};
pub use training::{Field, FormAction, Setting, TrainAction, TrainForm};
pub use translation::{
    CorpusTranslation, MtChoices, MtHeld, MtSource, MtState, MtUpload, TranslateAction, Translated, TranslationInput,
};

/// A shared value that props compare by identity, so a view over a large
/// value (the per-pair table) is not rebuilt while the value stays the same.
///
/// Also for file texts: `Rc<str>`'s `==` compares the bytes even for one
/// pointer (std's pointer shortcut needs a sized `T`), and the state is
/// compared for every component's props on every render: with a 90 MB
/// model file that froze the page for a second per action.
#[derive(Debug)]
pub struct Shared<T: ?Sized>(pub Rc<T>);

impl<T: ?Sized> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T: ?Sized> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl From<String> for Shared<str> {
    fn from(s: String) -> Self {
        Shared(s.into())
    }
}

impl From<&str> for Shared<str> {
    fn from(s: &str) -> Self {
        Shared(s.into())
    }
}

impl<T: ?Sized> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A file the page holds unread (a translation model, possibly large),
/// named by an opaque id: the state stays plain data, testable natively,
/// and the page's file registry (`ui::file_handles`, wasm32) gives the file back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileHandle(pub(crate) u32);

#[derive(Debug, Clone, PartialEq, Default)]
pub struct State {
    /// The pairs loaded and where they came from.
    pub loaded: Loaded,
    /// The pair shown, the mode and the selected node pair.
    pub selection: Selection,
    /// The kernel view's λ.
    pub lambda: Lambda,
    /// The file inputs: what each holds and said.
    pub slots: Slots,
    pub form: TrainForm,
    /// The running job and the job worker.
    pub jobs: Jobs,
    /// The alignment model in hand and what it made.
    pub alignment: Alignment,
    pub teach: Teach,
    /// The annotation of the pairs: edits, pairs accepted, the order.
    pub annotation: Annotation,
    /// The sub-trees the diagram draws folded.
    pub folds: Folds,
    pub mt: MtState,
    /// Exercises: the instructor's form, the open exercise, the class table.
    pub classroom: Classroom,
    /// What was shown before the open exercise (*Leave the exercise* brings it back).
    pub before_exercise: Option<Box<Before>>,
    pub find: FindPair,
    /// What the last export made, or why it could not be made (shown by its button).
    pub export_note: Option<ExportNote>,
    /// How keeping the session for the next visit goes.
    pub keeping: Keeping,
}

/// What the reducer asks the page to do, carried out in one place
/// (`ui::effects::carry_out`): the state stays plain data and the
/// reducer's tests see what it asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Ask the file worker to check files and build the corpus they make
    /// (its answer carries the request's id).
    Load(JobId, LoadRequest),
    /// Post a request to the job worker.
    Post(Request),
    /// Post a request with a file the job worker reads itself (a large
    /// translation model never passes through the page's thread).
    PostFile(Request, FileHandle),
    /// Stop the job worker at once and start a fresh one (cancelling: a
    /// worker busy in a synchronous loop cannot read a "stop" message).
    RestartJobWorker,
    /// Offer a file for download.
    Download { name: String, body: DownloadBody },
    /// Read a file the user gave (picked or dropped) as text, then hand it
    /// back as [`LoadAction::FileRead`] (or [`LoadAction::FileFailed`]); with
    /// `sniff_mt`, a `.json` file whose head says it is a translation model
    /// goes to the job worker unread instead ([`LoadAction::MtFilePicked`]).
    ReadFile { file: FileHandle, name: String, slot: Option<Slot>, sniff_mt: bool },
    /// Fetch the exercise file the page's address names (`?exercise=FILE.json`,
    /// on the same site), then hand it back as a file read for [`Slot::Exercise`].
    FetchExercise(String),
    /// Forget the session kept for the next visit.
    ForgetSession,
    /// A new entry in the browser's history with this address fragment
    /// (the pair or mode changed), so back/forward and shared links work.
    SetLocation(String),
    /// Load the page again (to read what another tab kept).
    Reload,
}

/// What a download holds.
#[derive(Debug, Clone, PartialEq)]
pub enum DownloadBody {
    Text {
        text: Shared<str>,
        mime: &'static str,
    },
    /// A file the user gave, handed back as it is.
    File(FileHandle),
    /// A standalone SVG document offered as PNG: drawn at `scale` on a
    /// canvas (the page's job: it needs the DOM).
    Png {
        svg: Shared<str>,
        width: f64,
        height: f64,
        scale: f64,
    },
    /// The view's SVG drawing with this element id (the derivation), as the
    /// browser serialises it (labels stay escaped text), with the diagram's
    /// stylesheet ([`crate::svg::DIAGRAM_CSS`]) and `css`.
    Element {
        id: &'static str,
        css: &'static str,
    },
}

/// What the views ask and the workers answer: each kind of action is a
/// sub-state's, and [`State::apply`] hands it there.
// `Response::Explained` is large only with 64-bit pointers (as in
// `protocol`); in the page (wasm32), where actions live, the lint does not fire.
#[cfg_attr(not(target_arch = "wasm32"), allow(clippy::large_enum_variant))]
pub enum Action {
    /// The files: given, read, checked.
    Load(LoadAction),
    /// The training form and the alignment jobs it starts.
    Train(TrainAction),
    /// The workbench: the pair, the mode, the selected node pair.
    Select(SelectAction),
    /// The diagram's folded sub-trees.
    Fold(FoldAction),
    /// The kernel view's λ, as typed.
    SetLambda(String),
    /// Teaching: the hand links, their undo, the search's steps.
    Teach(TeachAction),
    /// Annotating: accept a pair, start it over, the order.
    Annotate(AnnotateAction),
    /// The find box.
    Find(FindAction),
    /// A job worker's answer (the file worker's arrive as [`LoadAction::Loaded`]).
    Worker { response: Response, now: f64 },
    /// The running job's buttons: cancel it, or start a fresh worker.
    Job(JobAction),
    /// The per-pair table's order: by this column (again: the other way).
    SortBy(SortKey),
    /// The Translate view.
    Translate(TranslateAction),
    /// The exercise panel.
    Exercise(ExerciseAction),
    /// The session kept for the next visit, and the page's address.
    Session(SessionAction),
    /// Offer one of the export files.
    Export(ExportFile),
}

impl State {
    /// The state the page starts in: no pairs yet, and the built-in sample
    /// to be read by the file worker ([`LoadAction::LoadSample`], which the page
    /// sends first): the page parses nothing on its own thread.
    pub fn new() -> Self {
        State::default()
    }

    /// The state once the built-in sample is read (what the page holds once
    /// the file worker answered [`LoadAction::LoadSample`]; the sample read here).
    pub fn with_sample() -> Self {
        let mut s = State::new();
        s.keeping.read = true;
        s.loaded.corpus = Rc::new(load::sample());
        s
    }

    /// The node pair to explain, with what its explanation depends on (the
    /// results and the worker holding their alignment), in Inspect mode.
    fn explain_key(&self) -> Option<(PairIndex, NodeId, NodeId, usize, WorkerGen)> {
        let results = self.results()?;
        // A first model's links are not explained: no worker keeps it.
        let shown = !results.preview && results.aligned(self.selection.pair);
        (self.selection.mode == Mode::Inspect && shown).then_some(())?;
        Some((
            self.selection.pair,
            self.selection.source?,
            self.selection.target?,
            Rc::as_ptr(&results.0) as usize,
            self.jobs.worker_gen,
        ))
    }

    /// A job worker's answer, to the sub-state it is for.
    fn answer(&mut self, response: Response, now: f64) {
        match response {
            // The file worker's answers arrive as `LoadAction::Loaded`, an
            // alignment's parts put together by `effects::job_worker_answers`;
            // the pool's pieces are its own (`ui::pool`).
            Response::Ready
            | Response::CorpusPart { .. }
            | Response::Loaded { .. }
            | Response::AlignedPart { .. }
            | Response::PieceDone { .. } => {}
            // The progress bars' ([`Progress`], held apart by the page's store).
            Response::Progress { .. } => {}
            Response::Preview { job, summary, searches, first } => {
                if let Some(j) = self.jobs.get(job) {
                    let (corpus, gen) = (&self.loaded.corpus, self.loaded.gen);
                    self.alignment.previewed(j, corpus, gen, summary, searches, first);
                }
            }
            Response::Trained { job, model, summary, kept } => {
                if let Some(j) = self.jobs.get(job) {
                    self.alignment.trained(j, model, summary, kept, self.loaded.corpus.len());
                }
            }
            Response::Aligned { job, searches, baseline, lexicon, first, uncertainty, link_search } => {
                if let Some(j) = self.jobs.end(job, None) {
                    self.alignment.aligned(
                        j,
                        &self.loaded.corpus,
                        self.loaded.gen,
                        Searched { searches, uncertainty, link_search },
                        baseline,
                        lexicon,
                        first,
                        now,
                    );
                }
            }
            Response::Explained { pair, source, target, result } => {
                self.alignment.explanation(pair, source, target, result)
            }
            answer @ (Response::MtReady { .. }
            | Response::TranslatedAll { .. }
            | Response::Translated { .. }
            | Response::MtMissing { .. }) => self.translation_answer(answer, now),
            // A dead worker of the pool can say so once per message it held:
            // the first report ends the job and tells; the rest add nothing.
            Response::Stopped { .. } if self.jobs.worker_stopped => {}
            Response::Stopped { message } => {
                self.jobs.worker_stopped = true;
                self.worker_failed(message);
            }
            Response::Failed { job: None, message } => self.worker_failed(message),
            Response::Failed { job: Some(job), message } => self.request_failed(job, message),
        }
    }
}

/// What the rules that follow an action compare with: the state's before it.
struct Was {
    explaining: Option<(PairIndex, NodeId, NodeId, usize, WorkerGen)>,
    location: Option<(PairIndex, Mode)>,
    /// The hand links, if the action may edit them; with the pair shown,
    /// if its edit can be undone.
    links: Option<(HandLinks, Option<PairIndex>)>,
}

impl State {
    /// The reducer: the one place the state changes; returns what the page
    /// is to do about it. Each action goes to its part, or to the rule
    /// that coordinates parts; then the rules that follow any action.
    pub fn apply(&mut self, action: Action) -> Vec<Effect> {
        // An accepted pair's links are hand links, edited (and undone) as in teaching.
        let teaching =
            self.selection.mode == Mode::Teach || (self.annotating() && self.annotation.is_done(self.selection.pair));
        let undoable = matches!(
            (&action, teaching),
            (Action::Select(SelectAction::ClickTarget(_) | SelectAction::ClickLink(..)), true)
                | (Action::Teach(TeachAction::Clear), _)
        );
        let edits = undoable || matches!(action, Action::Teach(TeachAction::Undo | TeachAction::Redo));
        let was = Was {
            explaining: self.explain_key(),
            location: (!matches!(action, Action::Session(SessionAction::OpenLocation(_))))
                .then_some((self.selection.pair, self.selection.mode)),
            links: edits.then(|| (self.teach.links.clone(), undoable.then_some(self.selection.pair))),
        };
        let mut effects = self.reduce(action);
        self.follow(was, &mut effects);
        effects
    }

    /// Routes an action to the part it is for, or to the cross-part rule
    /// that carries it out.
    fn reduce(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Load(a) => return self.load(a),
            Action::Train(a) => return self.train(a),
            Action::Select(a) => self.select(a),
            Action::Fold(a) => {
                let k = self.selection.pair;
                self.folds.apply(a, self.loaded.gen, k, self.loaded.corpus.pair(k));
            }
            Action::SetLambda(text) => self.lambda.set(text),
            Action::Teach(a) => self.teaching(a),
            Action::Annotate(a) => return self.annotate(a),
            Action::Find(FindAction::Query(query)) => self.find.query(query, &self.loaded.corpus),
            Action::Find(FindAction::AddToExercise(which)) => self.add_found_to_exercise(which),
            Action::Worker { response, now } => self.answer(response, now),
            Action::Job(a) => return self.job_action(a),
            Action::SortBy(key) => self.alignment.sort_by(key),
            Action::Translate(a) => return self.translation(a),
            Action::Exercise(a) => return self.exercise(a),
            Action::Session(a) => return self.session_action(a),
            Action::Export(file) => return self.export(file).into_iter().collect(),
        }
        Vec::new()
    }

    /// The rules that follow any action: the address follows the pair and
    /// mode shown; an edit of the hand links can be undone and makes an
    /// exercise's check stale; a selected node pair with results in hand
    /// is explained by the worker; a request revives a dead job worker; a
    /// first model's preview goes when its job ends, however it ends.
    fn follow(&mut self, was: Was, effects: &mut Vec<Effect>) {
        if self.jobs.running.is_none() {
            self.alignment.preview = None;
        }
        if was.location.is_some_and(|l| l != (self.selection.pair, self.selection.mode)) {
            effects.push(Effect::SetLocation(self.location()));
        }
        if let Some((links, undoable)) = was.links {
            if let Some(pair) = undoable {
                self.teach.record(pair, links.get(&pair).cloned().unwrap_or_default());
            }
            if links != self.teach.links {
                self.classroom.links_changed();
            }
        }
        if let Some((pair, source, target, _, _)) = self.explain_key().filter(|k| Some(*k) != was.explaining) {
            self.alignment.explained = Some(Explained { pair, source, target, result: None });
            effects.push(Effect::Post(Request::Explain { pair, source, target }));
        }
        if effects.iter().any(|e| matches!(e, Effect::Post(_) | Effect::PostFile(..) | Effect::RestartJobWorker)) {
            self.jobs.worker_stopped = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use crate::svg::LinkStyle;

    /// The classroom round trip in the page's state: the instructor exports
    /// an exercise; opened (dropped), it becomes the corpus with its key
    /// hidden, in teaching mode; *Check* marks the drawn links; the answers
    /// file it exports, dropped with another student's, makes the class table.
    #[test]
    fn an_exercise_goes_from_instructor_to_student_to_class_table() {
        use crate::exercise::{Answers, Exercise};
        let mut s = State::with_sample();
        let sample = s.loaded.corpus.clone();
        s.apply(Action::Exercise(ExerciseAction::SetPairs("3, 1".into())));
        let (name, text) = downloaded(&s.apply(Action::Exercise(ExerciseAction::Export)));
        // Dropped (no slot): the head says it is an exercise, not a model.
        read(&mut s, &name, &text, None);
        assert_read(&s, Slot::Exercise, "");
        assert_eq!((s.selection.mode, s.loaded.corpus.len()), (Mode::Teach, 2));
        assert_eq!(s.loaded.corpus.pairs[0].source, sample.pairs[2].source);
        assert_eq!(s.loaded.corpus.gold_links(), 0, "the key is hidden");
        assert!(!s.teach.reveal_gold);
        let exercise = Exercise::from_json(&text, &name).unwrap();
        assert_eq!(s.classroom.open.as_ref().map(|o| &*o.exercise), Some(&exercise));
        // The student links the key's first link and a wrong one, then checks.
        let key = exercise.pairs[0].pair.gold[0];
        let (target, key_links) = (&s.loaded.corpus.pairs[0].target, &exercise.pairs[0].pair.gold);
        let keyed = |t| key_links.iter().any(|l| (l.source, l.target) == (NodeId::new(0), t));
        let wrong = (0..target.len()).map(NodeId::new).find(|&t| target.is_phrase(t) && !keyed(t) && t != key.target);
        let wrong = wrong.unwrap().index();
        click(&mut s, key.source.index(), key.target.index());
        assert_eq!(s.student_links(), vec![(key.source, key.target)]);
        s.apply(Action::Exercise(ExerciseAction::Check));
        let styles = |s: &State| s.drawn_links().iter().map(|l| l.style).collect::<Vec<_>>();
        let gold = exercise.pairs[0].pair.gold.len();
        let marked = styles(&s);
        assert_eq!(marked.iter().filter(|&&st| st == LinkStyle::Correct).count(), 1);
        assert_eq!(marked.iter().filter(|&&st| st == LinkStyle::Missed).count(), gold - 1);
        // A new link makes the check stale.
        click(&mut s, 0, wrong);
        assert!(s.classroom.checks.is_none());
        // (A refused attempt is drawn too, where it was tried.)
        assert!(styles(&s).iter().all(|&st| st == LinkStyle::Student || st == LinkStyle::Refused));
        s.apply(Action::Exercise(ExerciseAction::SetStudent("Ana".into())));
        let (ana_name, ana) = downloaded(&s.apply(Action::Exercise(ExerciseAction::ExportAnswers)));
        // Another student answered nothing.
        let ben = Answers::new(&exercise, "Ben", &[]).to_json();
        read(&mut s, &ana_name, &ana, None);
        read(&mut s, "ben.answers.json", &ben, Some(Slot::Answers));
        assert_eq!(s.slots.slot(Slot::Answers).message, Some(Ok(format!("2 answers files checked against {name}"))));
        let class = s.classroom.class.clone().unwrap();
        assert_eq!(class.students.iter().map(|r| r.student.as_str()).collect::<Vec<_>>(), ["Ana", "Ben"]);
        assert_eq!((class.students[0].counts.correct, class.students[1].counts.predicted), (1, 0));
        // A damaged answers file is named, and the others still count.
        let bad = "{\"format\": \"treelink-exercise-answers\", \"version\": 1";
        read(&mut s, "bad.answers.json", bad, Some(Slot::Answers));
        assert_refused(&s, Slot::Answers, "1 of 3 files not counted: bad.answers.json:");
        assert_eq!(s.classroom.class.as_ref().unwrap().students.len(), 2);
        // Kept for the next visit: the open exercise, the answers files and the student's name.
        let session = s.session();
        let slots: Vec<Slot> = session.texts.files.iter().map(|f| f.slot).collect();
        assert_eq!(slots, [Slot::Exercise, Slot::Answers, Slot::Answers]);
        let r = restored(session);
        assert_eq!(r.classroom.open.as_ref().map(|o| &*o.exercise), Some(&exercise));
        assert_eq!((r.loaded.corpus.as_ref(), r.classroom.student.as_str()), (s.loaded.corpus.as_ref(), "Ana"));
        assert_eq!((r.selection.mode, &r.teach.links), (Mode::Teach, &s.teach.links));
        assert_eq!(r.classroom.class.as_ref().map(|c| c.students.len()), Some(2));
        // The sample again: the exercise closes.
        run(&mut s, Action::Load(LoadAction::LoadSample));
        assert!(s.classroom.open.is_none());
        assert!(s.session().texts.files.is_empty(), "a closed exercise is not kept");
    }
}
