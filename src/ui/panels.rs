//! What each panel of the page draws: the part of the [`State`] it
//! receives as props ([`State::panels`]), cut by the root on each render.
//! Large values are shared ([`Shared`]: compared by pointer), so comparing
//! a panel's slice with the last one, which decides whether the panel
//! renders again, costs a few comparisons; a progress report or a clock
//! tick leaves every slice equal (tested below). Plain Rust, built and
//! tested natively.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::classroom::ExerciseForm;
use super::state::{
    Compare, CorpusTranslation, Explained, ExportNote, Field, HeldSets, Lambda, Mode, MtChoices, Results, Shared, Slot,
    SlotStatus, State, TigerKept, TrainForm, Translated,
};
use crate::app::alignment::{both_tables, PairSplit};
use crate::app::translation::TrainingPlan;
use crate::corpus::{Corpus, PairIndex, TreePair};
use crate::exercise::{ClassTable, Exercise, PairCheck};
use crate::tiger::ImportOptions;
use crate::tree::NodeId;

/// The Data panel: every input's status, the corpus loaded, a stray file,
/// and what became of the files last dropped on it.
#[derive(Debug, Clone, PartialEq)]
pub struct LoaderView {
    pub slots: [SlotStatus; 16],
    /// The corpus loaded, in a line ([`State::corpus_summary`]).
    pub summary: String,
    pub stray: Option<String>,
    pub dropped: Vec<DroppedView>,
    /// An exercise is open: its pairs are not swapped (leave it first).
    pub exercise_open: bool,
    /// TigerXML sets are imported as the shared data's bracketed files.
    pub tiger_bracketed: bool,
    /// The TigerXML import of the pairs loaded: its changes, for the disclosure.
    pub tiger_import: Option<Shared<TigerKept>>,
    /// The dev and test sets given as files, where they are among the pairs shown.
    pub held: HeldSets,
}

/// A file dropped on the Data panel, as the panel reports it where it was
/// dropped: which input it went to, what that input says of it, and what
/// it made, with the place to see it.
#[derive(Debug, Clone, PartialEq)]
pub struct DroppedView {
    pub name: String,
    /// The input's title, once the file is read.
    pub input: Option<&'static str>,
    /// What the input says; `None` while it is read or checked.
    pub status: Option<Result<String, String>>,
    /// What it made: the page's anchor and what is there.
    pub built: Option<(&'static str, &'static str)>,
}

impl State {
    /// What became of each file of the last drop ([`Slots::dropped`](super::state::Slots)).
    pub fn dropped_view(&self) -> Vec<DroppedView> {
        (self.slots.dropped.iter())
            .map(|d| {
                let Some(slot) = d.slot else {
                    return DroppedView {
                        name: d.name.clone(),
                        input: None,
                        status: d.refused.clone().map(Err),
                        built: None,
                    };
                };
                let status = self.slots.slot(slot);
                let message = if status.checking { None } else { status.message.clone() };
                let ok = matches!(message, Some(Ok(_)));
                let built = match slot {
                    Slot::Source | Slot::Target | Slot::Gold | Slot::Tiger | Slot::Dublin if ok && !status.waiting => {
                        Some(("#workbench", "the pairs shown"))
                    }
                    Slot::Exercise if ok && self.classroom.open.is_some() => {
                        Some(("#workbench", "the exercise's first pair"))
                    }
                    Slot::Answers if ok && self.classroom.class.is_some() => Some(("#class-table", "the class table")),
                    Slot::Model if ok => Some(("#train-panel", "the alignment model, in Train and align")),
                    Slot::LexS2t | Slot::LexT2s | Slot::Vcb | Slot::WordLinks if ok => {
                        Some(("#train-panel", "the lexicon Train and align uses"))
                    }
                    Slot::TranslationModel | Slot::Lm if ok => Some(("#translate-panel", "the Translate view")),
                    _ => None,
                };
                DroppedView { name: d.name.clone(), input: Some(slot.title()), status: message, built }
            })
            .collect()
    }
}

impl LoaderView {
    pub fn slot(&self, slot: Slot) -> &SlotStatus {
        &self.slots[slot as usize]
    }
}

/// The training form, its buttons and the alignment model in hand.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainView {
    pub form: TrainForm,
    /// The dev and test sets given as files: the dev and the test, whatever the form says.
    pub held: HeldSets,
    /// Each bad field's error ([`TrainForm::plan`]'s), found once per change.
    pub errors: BTreeMap<Field, String>,
    /// A job runs (the buttons that start one are off).
    pub busy: bool,
    pub pairs: usize,
    pub gold_links: usize,
    /// The Moses tables in use (p(t|s), p(s|t)), both or none.
    pub tables: Option<(String, String)>,
    pub word_links: Option<String>,
    /// How the last alignment job ended.
    pub note: Option<Result<String, String>>,
    /// The note gives scores of pairs the model was trained on.
    pub note_on_training_data: bool,
    pub worker_stopped: bool,
    /// The alignment model in hand: where it came from, and what it is.
    pub model: Option<(String, String)>,
}

/// The Translate view.
#[derive(Debug, Clone, PartialEq)]
pub struct TranslateView {
    /// The translation model held: where it came from, and what it is.
    pub held: Option<(String, String)>,
    /// The training form.
    pub choices: MtChoices,
    /// The dev pairs Train holds out and tunes on, said in words; `Err`:
    /// too few pairs to hold some out.
    pub dev: Result<Option<String>, ()>,
    /// How many configurations Train trains (with dev pairs: those tried on dev).
    pub configurations: usize,
    pub note: Option<Result<String, String>>,
    /// A translation is asked for and not answered yet.
    pub translating: bool,
    pub result: Option<Shared<Translated>>,
    /// Every loaded pair translated (of the pairs loaded now).
    pub all: Option<Shared<CorpusTranslation>>,
    pub input: String,
    pub input_error: Option<String>,
    pub busy: bool,
    /// A translation model is being trained (the worker would answer with it).
    pub training_mt: bool,
    pub corpus: Shared<Corpus>,
    pub pair: PairIndex,
    /// The ARPA language model in use.
    pub lm: Option<String>,
    pub worker_stopped: bool,
}

/// The Export panel: which files can be made.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportView {
    /// Results of the pairs loaded (predicted links, CSVs, STA).
    pub aligned: bool,
    /// Pairs are loaded (the corpus exports).
    pub pairs: bool,
    /// The pairs came from TigerXML (their `.ids` export).
    pub has_ids: bool,
    /// Hand links on some pair.
    pub has_student: bool,
    /// What the last export made, or why it could not be made.
    pub note: Option<ExportNote>,
}

/// The selected node pair of the pair shown, in the corpus loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct SelectionView {
    pub corpus: Shared<Corpus>,
    pub pair: PairIndex,
    pub source: Option<NodeId>,
    pub target: Option<NodeId>,
}

impl SelectionView {
    pub fn tree_pair(&self) -> Option<&TreePair> {
        self.corpus.pair(self.pair)
    }
}

/// "Why this link?".
#[derive(Debug, Clone, PartialEq)]
pub struct ExplainView {
    pub selection: SelectionView,
    pub results: Option<Shared<Results>>,
    pub explained: Option<Explained>,
}

/// The kernel table.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelView {
    pub selection: SelectionView,
    /// The node pair compared with ([`State::comparison`]).
    pub comparison: Option<(NodeId, NodeId)>,
    pub compare: Compare,
    pub lambda: Lambda,
}

/// Aligning by hand, or stepping through the search.
#[derive(Debug, Clone, PartialEq)]
pub struct TeachView {
    pub mode: Mode,
    pub corpus: Shared<Corpus>,
    pub pair: PairIndex,
    /// The hand links of the pair shown.
    pub links: Vec<(NodeId, NodeId)>,
    pub pending: Option<NodeId>,
    pub message: Option<Result<String, String>>,
    pub can_undo: bool,
    pub can_redo: bool,
    pub reveal_gold: bool,
    /// An exercise whose key is hidden is open: no gold to show or score against.
    pub key_hidden: bool,
    /// An exercise is open: the student's links are not scored against a model.
    pub exercise_open: bool,
    pub step: usize,
    pub results: Option<Shared<Results>>,
    /// An alignment model is in hand.
    pub model_in_hand: bool,
    /// … and no job runs: *Align with the model* can be pressed.
    pub can_align: bool,
    pub annotation: AnnotationView,
}

/// The annotation panel: the pair shown and the progress.
#[derive(Debug, Clone, PartialEq)]
pub struct AnnotationView {
    /// The pair shown is accepted.
    pub done: bool,
    /// Edits made on it, and the links proposed now.
    pub edits: usize,
    pub links: usize,
    /// The model in hand aligned the pair shown (its links are proposed).
    pub proposed: bool,
    pub progress: String,
    pub order: crate::app::annotation::Order,
    pub message: Option<Result<String, String>>,
    pub pending: Option<NodeId>,
    /// How the model learns from the pairs accepted, in a sentence.
    pub learning: String,
}

/// The exercise panel.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseView {
    pub form: ExerciseForm,
    pub form_error: Option<String>,
    /// The open exercise and its file.
    pub open: Option<(String, Shared<Exercise>)>,
    pub student: String,
    pub checks: Option<Shared<Vec<PairCheck>>>,
    pub class: Option<Shared<ClassTable>>,
    pub corpus: Shared<Corpus>,
    pub pair: PairIndex,
    /// The pair's number in the instructor's treebank.
    pub number: Option<usize>,
    pub exercise_slot: SlotStatus,
    pub answers_slot: SlotStatus,
    /// What the last export of the form made.
    pub exported: Option<String>,
    /// What *Leave the exercise* brings back (the pairs' name), if anything.
    pub back_to: Option<String>,
}

/// Every panel's slice of one state.
#[derive(Debug, Clone, PartialEq)]
pub struct Panels {
    pub loader: LoaderView,
    pub train: TrainView,
    pub translate: TranslateView,
    pub export: ExportView,
    pub explain: ExplainView,
    pub kernels: KernelView,
    pub teach: TeachView,
    pub exercise: ExerciseView,
}

fn shared<T>(rc: &Rc<T>) -> Shared<T> {
    Shared(rc.clone())
}

impl State {
    /// What each panel draws of this state.
    pub fn panels(&self) -> Panels {
        let corpus = shared(&self.loaded.corpus);
        let results = self.results().cloned();
        let mt_split = self.mt.choices.split(self.loaded.corpus.len(), &self.loaded.held);
        let selection = SelectionView {
            corpus: corpus.clone(),
            pair: self.selection.pair,
            source: self.selection.source,
            target: self.selection.target,
        };
        let c = &self.classroom;
        Panels {
            loader: LoaderView {
                slots: self.slots.statuses.clone(),
                summary: self.corpus_summary(),
                stray: self.slots.stray.clone(),
                dropped: self.dropped_view(),
                exercise_open: c.open.is_some(),
                tiger_bracketed: self.slots.tiger_options == ImportOptions::BRACKETED_DATA,
                tiger_import: self.loaded.tiger_import.clone(),
                held: self.loaded.held.clone(),
            },
            train: TrainView {
                form: self.form.clone(),
                held: self.loaded.held.clone(),
                errors: self.form.plan(&self.loaded.held).err().unwrap_or_default(),
                busy: self.jobs.running.is_some(),
                pairs: self.loaded.corpus.len(),
                gold_links: self.loaded.corpus.gold_links(),
                tables: both_tables(self.slots.ok_name(Slot::LexS2t), self.slots.ok_name(Slot::LexT2s))
                    .map(|(a, b)| (a.to_string(), b.to_string())),
                word_links: (self.slots.ok_name(Slot::WordLinks).map(str::to_string))
                    .or_else(|| self.import_word_links().map(|(name, _)| name)),
                note: self.alignment.note.clone(),
                note_on_training_data: self.alignment.note_on_training_data,
                worker_stopped: self.jobs.worker_stopped,
                model: self.alignment.model.as_ref().map(|m| (m.origin.to_string(), m.summary.clone())),
            },
            translate: TranslateView {
                held: self.mt.held.as_ref().map(|h| (h.origin.clone(), h.summary.clone())),
                choices: self.mt.choices,
                dev: mt_dev_said(mt_split, &self.loaded),
                configurations: mt_split.map_or(0, |s| {
                    let train = &self.loaded.corpus.pairs[..s.train];
                    TrainingPlan::for_pairs(self.mt.choices.system, self.mt.choices.pinned(), train, s.dev)
                        .choices
                        .len()
                }),
                note: self.mt.note.clone(),
                translating: self.mt.translating.is_some(),
                result: self.mt.result.as_ref().map(shared),
                all: self.mt.corpus.as_ref().filter(|c| c.corpus_gen == self.loaded.gen).map(shared),
                input: self.mt.input.clone(),
                input_error: self.mt.input_error.clone(),
                busy: self.jobs.running.is_some(),
                training_mt: self.jobs.running.as_ref().is_some_and(|j| j.kind == super::state::JobKind::TrainMt),
                corpus: corpus.clone(),
                pair: self.selection.pair,
                lm: self.slots.ok_name(Slot::Lm).map(str::to_string),
                worker_stopped: self.jobs.worker_stopped,
            },
            export: ExportView {
                aligned: results.is_some(),
                pairs: !self.loaded.corpus.is_empty(),
                has_ids: self.loaded.tiger_ids.is_some(),
                has_student: self.teach.links.values().any(|l| !l.is_empty()),
                note: self.export_note.clone(),
            },
            explain: ExplainView {
                selection: selection.clone(),
                results: results.clone(),
                explained: self.alignment.explained.clone(),
            },
            kernels: KernelView {
                selection,
                comparison: self.comparison(),
                compare: self.selection.compare,
                lambda: self.lambda.clone(),
            },
            teach: TeachView {
                mode: self.selection.mode,
                corpus: corpus.clone(),
                pair: self.selection.pair,
                links: self.student_links().to_vec(),
                pending: self.teach.pending,
                message: self.teach.message.clone(),
                can_undo: !self.teach.history.undo.is_empty(),
                can_redo: !self.teach.history.redo.is_empty(),
                reveal_gold: self.teach.reveal_gold,
                key_hidden: c.open.as_ref().is_some_and(|o| !o.exercise.show_gold),
                exercise_open: c.open.is_some(),
                step: self.teach.step,
                results,
                model_in_hand: self.alignment.model.is_some(),
                can_align: self.alignment.model.is_some() && self.jobs.running.is_none(),
                annotation: self.annotation_view(),
            },
            exercise: ExerciseView {
                form: c.form.clone(),
                form_error: c.form_error.clone(),
                open: c.open.as_ref().map(|o| (o.file.clone(), shared(&o.exercise))),
                student: c.student.clone(),
                checks: c.checks.as_ref().map(shared),
                class: c.class.as_ref().map(shared),
                corpus,
                pair: self.selection.pair,
                number: c.number_of(self.selection.pair),
                exercise_slot: self.slots.slot(Slot::Exercise).clone(),
                answers_slot: self.slots.slot(Slot::Answers).clone(),
                exported: c.exported.clone(),
                back_to: self.before_exercise.as_ref().map(|b| b.label()),
            },
        }
    }
}

impl State {
    fn annotation_view(&self) -> AnnotationView {
        let (k, a) = (self.selection.pair, &self.annotation);
        AnnotationView {
            done: a.is_done(k),
            edits: a.edits.get(&k).map_or(0, |(_, n)| *n),
            links: if self.annotating() { self.proposal(k).len() } else { 0 },
            proposed: self.results().is_some_and(|r| r.aligned(k)),
            progress: a.progress(self.loaded.corpus.len()),
            order: a.order,
            message: a.message.clone(),
            pending: a.pending,
            learning: self.learning(),
        }
    }
}

/// The dev pairs of `split`, the Translate view's Train's, in words
/// (`None`: none; `Err`: too few pairs to hold some out).
fn mt_dev_said(split: Option<PairSplit>, loaded: &super::state::Loaded) -> Result<Option<String>, ()> {
    let split = split.ok_or(())?;
    Ok(match (split.dev, &loaded.held.dev) {
        (0, _) => None,
        (n, Some(set)) => Some(format!("the dev set {} ({n} pairs)", set.name)),
        (n, None) => Some(format!("the last {n} of the {} pairs", split.train + n)),
    })
}

#[cfg(test)]
mod tests {
    use super::super::protocol::{JobId, Request, Response};
    use super::super::state::{Action, Effect, Field, FormAction, JobAction, Progress, ProgressAction, TrainAction};
    use super::*;

    fn progress(job: JobId, done: u64) -> Action {
        let response = Response::Progress { job, stage: "training the SVM".into(), done, total: 10, gap: None };
        Action::Worker { response, now: 5.0 }
    }

    #[test]
    fn a_progress_report_or_a_tick_leaves_every_panel_as_it_was() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Train(TrainAction::Train { now: 0.0 }));
        let [Effect::Post(Request::Train { job, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let before = s.panels();
        // The reports reach the reducer as answers of the worker; the tick
        // goes to the progress bars' state alone, as the page's store sends it.
        s.apply(progress(*job, 3));
        Progress::default().apply(ProgressAction::Tick(900.0), s.jobs.running.as_ref());
        s.apply(progress(*job, 4));
        assert_eq!(s.panels(), before);
        // A change of the form is the training panel's alone.
        s.apply(Action::Train(TrainAction::Form(FormAction::SetField(Field::SEED, "7".into()))));
        let after = s.panels();
        assert_ne!(after.train, before.train);
        // Every panel but the training panel, as it was.
        assert_eq!(Panels { train: before.train.clone(), ..after.clone() }, before);
        // The job's end shows in the panels that start jobs.
        s.apply(Action::Job(JobAction::Cancel(None)));
        let ended = s.panels();
        assert!(!ended.train.busy && !ended.translate.busy);
        assert_eq!(ended.loader, before.loader);
    }

    #[test]
    fn a_slice_shares_the_corpus_and_results_instead_of_copying_them() {
        let s = State::with_sample();
        let panels = s.panels();
        assert!(Rc::ptr_eq(&panels.teach.corpus.0, &s.loaded.corpus));
        assert!(Rc::ptr_eq(&panels.explain.selection.corpus.0, &s.loaded.corpus));
        // Another corpus with the same pairs is another slice (compared by pointer).
        let mut other = s.clone();
        other.loaded.corpus = Rc::new((*s.loaded.corpus).clone());
        assert_ne!(other.panels().teach, panels.teach);
    }
}
