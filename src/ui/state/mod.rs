//! The page's one state and the reducer that changes it. Views render it
//! and send [`Action`]s; the worker's answers arrive as actions too. Every
//! number shown is computed here or in the engine from this state.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::classroom::{Classroom, ExerciseAction};
use super::folds::{Folds, SavedFolds};
use super::ids::{CorpusGen, JobId, WorkerGen};
mod alignment;
mod corpus;
mod find;
mod jobs;
mod lambda;
mod selection;
mod slots;
mod teaching;
#[cfg(test)]
mod testing;
mod training;
mod translation;
pub use super::folds::FoldAction;
use super::load::{self, LoadRequest};
use super::protocol::{Request, Response};
use crate::align::explain::{curve_csv, results_csv};
use crate::align::greedy::Outcome;
use crate::corpus::{Corpus, TreePair};
use crate::exercise::Mark;
use crate::io::links::write_links;
use crate::io::links::{Link, LinkKind};
use crate::io::svg::{drawing_svg, DrawnLink, LinkStyle, DERIVATION_CSS};
use crate::io::tiger::{export_pair, PairIds, TreebankName};
use crate::layout::{Drawing, Style};
use crate::lexicon::WordModel;
use crate::mt::model::SystemKind;
use crate::mt::phrase::ExtractMethod;
use crate::tree::{NodeId, Tree};
pub use alignment::{
    Alignment, Explained, LoadedAlignmentModel, ModelOrigin, Results, SortKey, TrainedOn, ON_TRAINING_DATA,
    TRAINING_DATA_ADVICE,
};
use corpus::SAMPLE_NAME;
pub use find::{FindAction, FindPair};
pub use jobs::{Job, JobAction, JobKind, Jobs};
pub use lambda::Lambda;
pub use selection::{Compare, Mode, SelectAction, Selection};
pub use slots::{is_mt_model, LoadAction, Slot, SlotStatus, Slots, Upload};
pub use teaching::{LinkEdit, LinkHistory, Teach, TeachAction};
pub use training::{Field, FormAction, TrainAction, TrainForm};
pub use translation::{
    CorpusTranslation, MtHeld, MtSource, MtState, MtUpload, TranslateAction, Translated, TranslationInput,
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

impl<T: ?Sized> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Where the page's address points: a pair (0-based) and a mode, each if given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Location {
    pub pair: Option<usize>,
    pub mode: Option<Mode>,
}

impl Location {
    /// Reads an address's fragment, `#pair=12&mode=teach` (pair numbers
    /// from 1, as the page shows them); what it does not know is ignored.
    pub fn parse(hash: &str) -> Location {
        let mut location = Location::default();
        for field in hash.trim_start_matches('#').split('&') {
            match field.split_once('=') {
                Some(("pair", n)) => location.pair = n.parse::<usize>().ok().and_then(|n| n.checked_sub(1)),
                Some(("mode", m)) => location.mode = Mode::ALL.into_iter().find(|mode| mode.name() == m),
                _ => {}
            }
        }
        location
    }
}

/// A file the page holds unread (a translation model, possibly large),
/// named by an opaque id: the state stays plain data, testable natively,
/// and the page's file registry (`ui::file_handles`, wasm32) gives the file back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileHandle(pub(crate) u32);

/// What survives a reload ([`State::session`], kept by the page in
/// IndexedDB): the files in use as they were given (replayed through the
/// normal load path, so nothing is read differently), a model trained in
/// the page, the hand links, the pair, the mode and the settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub version: u32,
    /// The files in use, as given (before any swap), in the order to load them.
    pub files: Vec<SavedFile>,
    /// Read the pairs the other way once loaded.
    pub sides_swapped: bool,
    /// An alignment model trained in the page: (summary, file text).
    pub alignment_model: Option<(String, String)>,
    /// The translation model held: its file name and, unless the page holds
    /// it as a file (kept apart, as a file), its text.
    pub translation_model: Option<(String, Option<String>)>,
    pub pair: usize,
    pub mode: Mode,
    pub links: Vec<(usize, Vec<(NodeId, NodeId)>)>,
    pub reveal_gold: bool,
    pub form: Vec<(Field, String)>,
    pub lambda: String,
    pub mt_system: SystemKind,
    pub mt_extract: ExtractMethod,
    /// The folded sub-trees, on the pairs as shown (after any swap).
    #[serde(default)]
    pub folds: Vec<SavedFolds>,
    /// The training form's choices beyond its fields.
    #[serde(default)]
    pub word_model: WordModel,
    #[serde(default)]
    pub stem_backoff: bool,
    #[serde(default)]
    pub calibrate: bool,
    #[serde(default)]
    pub test: bool,
    /// The alignment model trained in the page saw the first this many of
    /// the pairs the files make (as shown), if it was trained on them.
    #[serde(default)]
    pub alignment_model_seen: Option<usize>,
    /// The student's name for the open exercise's answers.
    #[serde(default)]
    pub student: String,
}

/// A file in use, as the user gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedFile {
    pub slot: Slot,
    pub name: String,
    pub text: String,
}

impl Session {
    /// The layout of [`Session`]; a session of another version is not restored.
    pub const VERSION: u32 = 1;
}

/// What a restored session still applies once its files are loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct Restoring {
    /// The restored alignment model was trained on the pairs before this one.
    pub model_first_unseen: Option<usize>,
    pub sides_swapped: bool,
    pub pair: usize,
    pub mode: Mode,
    pub links: BTreeMap<usize, Vec<(NodeId, NodeId)>>,
    pub folds: Vec<SavedFolds>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub corpus: Rc<Corpus>,
    pub corpus_name: String,
    /// Changes whenever the trees change (not when only gold links do).
    pub corpus_gen: CorpusGen,
    /// Tiger ids of the pairs, when they came from TigerXML.
    pub tiger_ids: Option<Rc<Vec<PairIds>>>,
    /// The loaded pairs are read target → source (swapped by the user).
    pub sides_swapped: bool,
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
    /// The sub-trees the diagram draws folded.
    pub folds: Folds,
    pub mt: MtState,
    /// Exercises: the instructor's form, the open exercise, the class table.
    pub classroom: Classroom,
    pub find: FindPair,
    /// A session being restored, until its files are loaded.
    pub restoring: Option<Restoring>,
    /// The last request id given (the page's one counter of requests).
    pub last_job: JobId,
    /// Why the last export could not be made (shown in the Export panel).
    pub export_error: Option<String>,
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
    /// back as [`Action::Load(LoadAction::FileRead)`] (or [`Action::Load(LoadAction::FileFailed)`]); with
    /// `sniff_mt`, a `.json` file whose head says it is a translation model
    /// goes to the job worker unread instead ([`Action::Load(LoadAction::MtFilePicked)`]).
    ReadFile { file: FileHandle, name: String, slot: Option<Slot>, sniff_mt: bool },
    /// Fetch the exercise file the page's address names (`?exercise=FILE.json`,
    /// on the same site), then hand it back as a file read for [`Slot::Exercise`].
    FetchExercise(String),
    /// Forget the session kept for the next visit.
    ForgetSession,
    /// A new entry in the browser's history with this address fragment
    /// (the pair or mode changed), so back/forward and shared links work.
    SetLocation(String),
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
    /// stylesheet ([`crate::io::svg::DIAGRAM_CSS`]) and `css`.
    Element {
        id: &'static str,
        css: &'static str,
    },
}

/// The files of the Export panel (and the Translate view's drawing), each
/// made from the state by the engine's writers when asked ([`Action::Export`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFile {
    /// The predicted links, in the gold format.
    PredictedLinks,
    /// The hand links, in the gold format.
    StudentLinks,
    /// The predicted links as Stockholm TreeAligner XML, and the two TigerXML files it refers to.
    Sta,
    SourceTiger,
    TargetTiger,
    /// The diagram of the pair shown (folded as drawn), as SVG or PNG.
    DiagramSvg,
    DiagramPng,
    /// Per-pair P/R/F and the P/R curve, as CSV.
    ResultsCsv,
    CurveCsv,
    /// The Translate view's derivation drawing, as SVG.
    DerivationSvg,
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
    /// The find box.
    Find(FindAction),
    /// A job worker's answer (the file worker's arrive as [`LoadAction::Loaded`]).
    Worker { response: Response, now: f64 },
    /// The running job's buttons: cancel it, or start a fresh worker.
    Job(JobAction),
    /// The clock, while a job runs (its elapsed time moves between reports).
    Tick(f64),
    /// The session kept from the last visit, with the translation model file kept apart.
    Restore { session: Box<Session>, mt_file: Option<FileHandle> },
    /// Start fresh: the built-in sample and the default settings (the page forgets the kept session).
    StartFresh,
    /// The page's address changed (on load, back/forward, a shared link): its fragment.
    OpenLocation(String),
    /// The per-pair table's order: by this column (again: the other way).
    SortBy(SortKey),
    /// The Translate view.
    Translate(TranslateAction),
    /// The exercise panel.
    Exercise(ExerciseAction),
    /// The page's address query on start (`?exercise=FILE.json` opens that exercise).
    OpenQuery(String),
    /// Offer one of the export files.
    Export(ExportFile),
}

/// The size a standalone SVG declares (`width="…" height="…"` of its root).
fn svg_size(svg: &str) -> (f64, f64) {
    let attr = |name: &str| {
        let key = format!(" {name}=\"");
        let start = svg.find(&key)? + key.len();
        svg[start..].split('"').next()?.parse::<f64>().ok()
    };
    (attr("width").unwrap_or(800.0), attr("height").unwrap_or(600.0))
}

/// The exercise file a page address's query names (`?exercise=FILE.json`),
/// percent-decoded (as `decodeURIComponent`; kept as written if that fails).
pub fn exercise_address(query: &str) -> Option<String> {
    let value = query.trim_start_matches('?').split('&').find_map(|kv| kv.strip_prefix("exercise="))?;
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[k], bytes.get(k + 1).copied().and_then(hex), bytes.get(k + 2).copied().and_then(hex)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                k += 3;
            }
            (b'%', ..) => return Some(value.to_string()),
            (b, ..) => {
                out.push(b);
                k += 1;
            }
        }
    }
    Some(String::from_utf8(out).unwrap_or_else(|_| value.to_string()))
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

impl State {
    /// Whether `other` differs from this state at most in the running job's
    /// progress (its stage, counts and clock): what a progress report or a
    /// clock tick changes, and only the progress bar shows. Every field is
    /// named, so a new one cannot be forgotten here.
    pub fn same_but_progress(&self, other: &State) -> bool {
        let State {
            corpus,
            corpus_name,
            corpus_gen,
            tiger_ids,
            sides_swapped,
            selection,
            lambda,
            slots,
            form,
            jobs,
            alignment,
            teach,
            folds,
            mt,
            classroom,
            find,
            restoring,
            last_job,
            export_error,
        } = self;
        let which = |j: &Option<Job>| j.as_ref().map(|j| (j.id, j.kind, j.corpus_gen, j.started.to_bits()));
        which(&jobs.running) == which(&other.jobs.running)
            && jobs.worker_gen == other.jobs.worker_gen
            && jobs.worker_stopped == other.jobs.worker_stopped
            && Rc::ptr_eq(corpus, &other.corpus)
            && *corpus_name == other.corpus_name
            && *corpus_gen == other.corpus_gen
            && *tiger_ids == other.tiger_ids
            && *sides_swapped == other.sides_swapped
            && *selection == other.selection
            && *lambda == other.lambda
            && *slots == other.slots
            && *form == other.form
            && *alignment == other.alignment
            && *teach == other.teach
            && *folds == other.folds
            && *mt == other.mt
            && *classroom == other.classroom
            && *find == other.find
            && *restoring == other.restoring
            && *last_job == other.last_job
            && *export_error == other.export_error
    }

    /// The state the page starts in: no pairs yet, and the built-in sample
    /// to be read by the file worker ([`Action::Load(LoadAction::LoadSample)`], which the page
    /// sends first): the page parses nothing on its own thread.
    pub fn new() -> Self {
        State {
            corpus: Rc::default(),
            corpus_name: SAMPLE_NAME.into(),
            corpus_gen: CorpusGen::default(),
            tiger_ids: None,
            sides_swapped: false,
            selection: Selection::default(),
            lambda: Lambda::default(),
            slots: Slots::default(),
            form: TrainForm::default(),
            jobs: Jobs::default(),
            alignment: Alignment::default(),
            teach: Teach::default(),
            folds: Folds::default(),
            mt: MtState::default(),
            classroom: Classroom::default(),
            find: FindPair::default(),
            restoring: None,
            last_job: JobId(0),
            export_error: None,
        }
    }

    /// The state once the built-in sample is read (what the page holds once
    /// the file worker answered [`Action::Load(LoadAction::LoadSample)`]; the sample read here).
    pub fn with_sample() -> Self {
        State { corpus: Rc::new(load::sample()), ..State::new() }
    }

    /// The page's address fragment for the pair and mode shown.
    pub fn location(&self) -> String {
        format!("#pair={}&mode={}", self.selection.pair + 1, self.selection.mode.name())
    }

    /// The links the diagram draws for the current pair, bottom to top.
    pub fn drawn_links(&self) -> Vec<DrawnLink> {
        let Some(pair) = self.corpus.pairs.get(self.selection.pair) else { return Vec::new() };
        let names = |s: NodeId, t: NodeId| {
            let label = |tree: &Tree, n: NodeId| if n < tree.len() { tree.label(n).to_string() } else { "?".into() };
            format!("{s}-{t}: {} ↔ {}", label(&pair.source, s), label(&pair.target, t))
        };
        let gold_links = || {
            pair.gold.iter().map(|l| {
                let fuzzy = l.kind == LinkKind::Fuzzy;
                DrawnLink {
                    source: l.source,
                    target: l.target,
                    style: if fuzzy { LinkStyle::Fuzzy } else { LinkStyle::Gold },
                    title: format!(
                        "{} {}",
                        if fuzzy { "fuzzy gold link" } else { "gold link" },
                        names(l.source, l.target)
                    ),
                }
            })
        };
        let checked = self.classroom.checks.as_ref().and_then(|c| c.get(self.selection.pair));
        match self.selection.mode {
            Mode::Inspect => {
                let Some(r) = self.results().filter(|r| r.aligned(self.selection.pair)) else {
                    return gold_links().collect();
                };
                let predicted = r.predicted.get(self.selection.pair).map_or(&[][..], |l| l);
                let is_gold = |s, t| pair.gold.iter().any(|g| (g.source, g.target) == (s, t));
                let is_predicted = |s, t| predicted.iter().any(|p| (p.source, p.target) == (s, t));
                let missed = pair.gold.iter().filter(|g| !is_predicted(g.source, g.target)).map(|g| DrawnLink {
                    source: g.source,
                    target: g.target,
                    style: LinkStyle::Missed,
                    title: format!(
                        "missed {}gold link {} (not predicted{})",
                        if g.kind == LinkKind::Fuzzy { "fuzzy " } else { "" },
                        names(g.source, g.target),
                        r.posterior(self.selection.pair, g.source, g.target)
                            .map_or(String::new(), |p| format!("; posterior {p:.3}, blocked in the search"))
                    ),
                });
                let mut found: Vec<DrawnLink> = predicted
                    .iter()
                    .map(|p| {
                        let correct = is_gold(p.source, p.target);
                        let posterior = r.posterior(self.selection.pair, p.source, p.target).unwrap_or(f64::NAN);
                        DrawnLink {
                            source: p.source,
                            target: p.target,
                            style: if correct { LinkStyle::Correct } else { LinkStyle::Wrong },
                            title: format!(
                                "{} predicted link {}, posterior {posterior:.3}",
                                if correct { "correct" } else { "wrong" },
                                names(p.source, p.target)
                            ),
                        }
                    })
                    .collect();
                // Wrong under correct, so correct links stay visible where they cross.
                found.sort_by_key(|l| l.style != LinkStyle::Wrong);
                missed.chain(found).collect()
            }
            Mode::Teach if checked.is_some() => {
                // After *Check*: each link marked against the exercise's key.
                let mut links: Vec<DrawnLink> = checked
                    .into_iter()
                    .flat_map(|c| &c.marks)
                    .map(|&(s, t, mark)| {
                        let (style, what) = match mark {
                            Mark::Correct => (LinkStyle::Correct, "correct: your link"),
                            Mark::Wrong => (LinkStyle::Wrong, "wrong: your link"),
                            Mark::Missed => (LinkStyle::Missed, "missed: the key's link"),
                            Mark::Unscored => (LinkStyle::Student, "not scored (a POS node): your link"),
                        };
                        DrawnLink { source: s, target: t, style, title: format!("{what} {}", names(s, t)) }
                    })
                    .collect();
                // Wrong under correct, as in the inspector.
                links.sort_by_key(|l| l.style != LinkStyle::Wrong);
                links
            }
            Mode::Teach => {
                let gold: Vec<DrawnLink> = if self.teach.reveal_gold { gold_links().collect() } else { Vec::new() };
                let student = self.student_links().iter().map(|&(s, t)| DrawnLink {
                    source: s,
                    target: t,
                    style: LinkStyle::Student,
                    title: format!("your link {} (click it to remove it)", names(s, t)),
                });
                let refused = self.teach.refused.iter().map(|(s, t, why)| DrawnLink {
                    source: *s,
                    target: *t,
                    style: LinkStyle::Refused,
                    title: why.clone(),
                });
                gold.into_iter().chain(student).chain(refused).collect()
            }
            Mode::Steps => {
                let Some(search) = self
                    .results()
                    .filter(|r| r.aligned(self.selection.pair))
                    .and_then(|r| r.searches.get(self.selection.pair))
                else {
                    return Vec::new();
                };
                let k = self.teach.step.min(search.steps.len().saturating_sub(1));
                let mut links: Vec<DrawnLink> = search.steps[..k]
                    .iter()
                    .filter(|st| matches!(st.outcome, Outcome::Taken(_)))
                    .map(|st| {
                        let (s, t) = (st.candidate.source, st.candidate.target);
                        DrawnLink {
                            source: s,
                            target: t,
                            style: LinkStyle::Taken,
                            title: format!("taken {}, posterior {:.3}", names(s, t), st.candidate.score),
                        }
                    })
                    .collect();
                if let Some(step) = search.steps.get(k) {
                    let (s, t) = (step.candidate.source, step.candidate.target);
                    if let Outcome::Blocked { by, .. } = step.outcome {
                        links.retain(|l| (l.source, l.target) != by);
                        links.push(DrawnLink {
                            source: by.0,
                            target: by.1,
                            style: LinkStyle::Blocker,
                            title: format!("the earlier link {} blocks this step's candidate", names(by.0, by.1)),
                        });
                    }
                    links.push(DrawnLink {
                        source: s,
                        target: t,
                        style: LinkStyle::Current,
                        title: format!(
                            "step {}: candidate {}, posterior {:.3}",
                            k + 1,
                            names(s, t),
                            step.candidate.score
                        ),
                    });
                }
                links
            }
        }
    }

    /// The node pair to explain, with what its explanation depends on (the
    /// results and the worker holding their alignment), in Inspect mode.
    fn explain_key(&self) -> Option<(usize, NodeId, NodeId, usize, WorkerGen)> {
        let results = self.shared_results()?;
        (self.selection.mode == Mode::Inspect && results.aligned(self.selection.pair)).then_some(())?;
        Some((
            self.selection.pair,
            self.selection.source?,
            self.selection.target?,
            Rc::as_ptr(&results.0) as usize,
            self.jobs.worker_gen,
        ))
    }

    /// What a session keeps for the next visit (see [`Session`]).
    pub fn session(&self) -> Session {
        // The files as given: a swap is done again after they load.
        let mut given = self.clone();
        if given.sides_swapped {
            given.swap_sides();
        }
        let order = [
            Slot::Source,
            Slot::Target,
            Slot::Gold,
            Slot::Tiger,
            Slot::WordLinks,
            Slot::LexS2t,
            Slot::LexT2s,
            Slot::Model,
            Slot::Lm,
            // An open exercise after the trees: its pairs are the ones shown (and hand links are on them).
            Slot::Exercise,
            Slot::Answers,
        ];
        let exercise_open = self.classroom.open.is_some();
        let files = order
            .iter()
            .filter(|&&slot| exercise_open || !matches!(slot, Slot::Exercise | Slot::Answers))
            .flat_map(|&slot| {
                let kept = &given.slots.slot(slot).kept;
                kept.iter().map(move |u| SavedFile { slot, name: u.name.clone(), text: u.text.to_string() })
            })
            .collect();
        let trained = self.alignment.model.as_ref().filter(|m| m.origin == ModelOrigin::TrainedHere);
        Session {
            version: Session::VERSION,
            files,
            sides_swapped: self.sides_swapped,
            alignment_model: trained.map(|m| (m.summary.clone(), m.json.to_string())),
            translation_model: self.mt.held.as_ref().map(|h| {
                let text = match &h.source {
                    MtSource::Text(t) => Some(t.to_string()),
                    MtSource::File(_) => None,
                };
                (h.name.clone(), text)
            }),
            pair: self.selection.pair,
            mode: self.selection.mode,
            links: self.teach.links.iter().map(|(k, l)| (*k, l.clone())).collect(),
            reveal_gold: self.teach.reveal_gold,
            form: self.form.values.iter().map(|(f, v)| (*f, v.clone())).collect(),
            lambda: self.lambda.text.clone(),
            mt_system: self.mt.system,
            mt_extract: self.mt.extract,
            folds: self.folds.saved(self.corpus_gen),
            word_model: self.form.word_model,
            stem_backoff: self.form.stem_backoff,
            calibrate: self.form.calibrate,
            test: self.form.test,
            alignment_model_seen: trained
                .and_then(|m| m.trained_on)
                .filter(|t| t.gen == self.corpus_gen)
                .map(|t| t.first_unseen),
            student: self.classroom.student.clone(),
        }
    }

    /// [`Action::Restore`]: the settings at once, the files through the
    /// normal load path; the swap, hand links, pair and mode once they are loaded.
    fn restore(&mut self, session: Session, mt_file: Option<FileHandle>) -> Vec<Effect> {
        if session.version != Session::VERSION {
            return Vec::new();
        }
        let mut effects = Vec::new();
        for (field, value) in session.form {
            self.form.values.insert(field, value);
        }
        (self.form.word_model, self.form.stem_backoff) = (session.word_model, session.stem_backoff);
        (self.form.calibrate, self.form.test) = (session.calibrate, session.test);
        self.form.errors = self.form.options().err().unwrap_or_default();
        self.lambda.set(session.lambda);
        self.classroom.student = session.student;
        (self.mt.system, self.mt.extract) = (session.mt_system, session.mt_extract);
        self.teach.reveal_gold = session.reveal_gold;
        if let Some((summary, json)) = session.alignment_model {
            self.alignment.model = Some(LoadedAlignmentModel {
                json: json.into(),
                origin: ModelOrigin::TrainedHere,
                summary,
                trained_on: None,
            });
        }
        match (session.translation_model, mt_file) {
            (Some((name, _)), Some(file)) => {
                effects.extend(self.load(LoadAction::MtFilePicked { name, file }));
            }
            (Some((name, Some(text))), None) => {
                effects.push(self.upload_mt(MtUpload { name, source: MtSource::Text(text.into()) }));
            }
            _ => {}
        }
        self.restoring = Some(Restoring {
            model_first_unseen: session.alignment_model_seen,
            sides_swapped: session.sides_swapped,
            pair: session.pair,
            mode: session.mode,
            links: session.links.into_iter().collect(),
            folds: session.folds,
        });
        for f in session.files {
            effects.extend(self.load(LoadAction::FileRead { name: f.name, text: f.text, slot: Some(f.slot) }));
        }
        if !self.slots.reading() {
            self.finish_restore();
        }
        effects
    }

    /// The rest of a restored session, once its files are loaded.
    fn finish_restore(&mut self) {
        let Some(r) = self.restoring.take() else { return };
        if r.sides_swapped {
            self.swap_sides();
        }
        // The model saw these pairs again (a new generation of the same trees).
        if let (Some(m), Some(first_unseen)) = (&mut self.alignment.model, r.model_first_unseen) {
            if m.origin == ModelOrigin::TrainedHere {
                m.trained_on = Some(TrainedOn { gen: self.corpus_gen, first_unseen });
            }
        }
        self.teach.links = r.links;
        self.folds = Folds::restored(self.corpus_gen, &r.folds, &self.corpus);
        self.selection.mode = r.mode;
        self.clear_selection();
        if r.pair < self.corpus.len() {
            self.select_pair(r.pair);
        } else {
            self.selection.wanted_pair = Some(r.pair);
        }
    }

    /// [`Action::Export`]: the file, made by the engine's writers, as a
    /// download; an export that cannot be made says why in `export_error`.
    fn export(&mut self, file: ExportFile) -> Option<Effect> {
        let text = |name: &str, text: String, mime: &'static str| Effect::Download {
            name: name.to_string(),
            body: DownloadBody::Text { text: text.into(), mime },
        };
        let pair_number = self.selection.pair + 1;
        let effect = match file {
            ExportFile::PredictedLinks => {
                // The pairs aligned (all, or the held-out test's): what `treelink align` prints for them.
                let r = self.results()?;
                text("treelink-predicted.gold", write_links(&r.predicted[r.pairs()]), "text/plain")
            }
            ExportFile::StudentLinks => {
                let links: Vec<Vec<Link>> = (0..self.corpus.len())
                    .map(|k| {
                        self.teach
                            .links
                            .get(&k)
                            .map_or(Vec::new(), |l| l.iter().map(|&(s, t)| Link::good(s, t)).collect())
                    })
                    .collect();
                text("treelink-student.gold", write_links(&links), "text/plain")
            }
            ExportFile::Sta | ExportFile::SourceTiger | ExportFile::TargetTiger => {
                // The pairs aligned (not the training pairs of a held-out test), with the model's links.
                let r = self.results()?;
                let aligned = r.pairs();
                let pairs = self.corpus.pairs.get(aligned.clone())?.iter().zip(&r.predicted[aligned.clone()]);
                let c =
                    Corpus { pairs: pairs.map(|(p, links)| TreePair { gold: links.clone(), ..p.clone() }).collect() };
                let ids = self.tiger_ids.as_deref().and_then(|ids| ids.get(aligned));
                let source = TreebankName::new("source", "src", "treelink-source.xml");
                let target = TreebankName::new("target", "trg", "treelink-target.xml");
                match export_pair(&c, ids, &source, &target) {
                    Ok(x) => {
                        self.export_error = None;
                        let (name, xml) = match file {
                            ExportFile::Sta => ("treelink-alignment.xml", x.sta),
                            ExportFile::SourceTiger => ("treelink-source.xml", x.source_tiger),
                            _ => ("treelink-target.xml", x.target_tiger),
                        };
                        text(name, xml, "application/xml")
                    }
                    Err(e) => {
                        self.export_error = Some(format!("cannot export: {e}"));
                        return None;
                    }
                }
            }
            ExportFile::DiagramSvg => {
                text(&format!("treelink-pair-{pair_number}.svg"), self.diagram_svg()?, "image/svg+xml")
            }
            ExportFile::DiagramPng => {
                let svg = self.diagram_svg()?;
                let (width, height) = svg_size(&svg);
                let body = DownloadBody::Png { svg: svg.into(), width, height, scale: 2.0 };
                Effect::Download { name: format!("treelink-pair-{pair_number}.png"), body }
            }
            ExportFile::ResultsCsv => {
                let r = self.results()?;
                let (pairs, model, baseline) = (&self.corpus.pairs, &r.predicted, &r.baseline);
                let range = r.pairs();
                let csv = results_csv(
                    &pairs[range.clone()],
                    range.start,
                    &model[range.clone()],
                    &baseline[range],
                    r.first_unseen,
                );
                text("treelink-results.csv", csv, "text/csv")
            }
            ExportFile::CurveCsv => text("treelink-pr-curve.csv", curve_csv(&self.results()?.curve), "text/csv"),
            ExportFile::DerivationSvg => {
                self.mt.result.as_ref()?;
                let body = DownloadBody::Element { id: "mt-diagram", css: DERIVATION_CSS };
                Effect::Download { name: "treelink-derivation.svg".into(), body }
            }
        };
        Some(effect)
    }

    /// The pair shown as a standalone SVG document, folded as the page draws it.
    pub fn diagram_svg(&self) -> Option<String> {
        let pair = self.corpus.pairs.get(self.selection.pair)?;
        let (fold_source, fold_target) = self.folds.of(self.corpus_gen, self.selection.pair);
        let drawing = Drawing::new(&pair.source, &pair.target, fold_source, fold_target, &Style::default());
        let title = format!("{} — pair {}", self.corpus_name, self.selection.pair + 1);
        Some(drawing_svg(&drawing, &self.drawn_links(), &title))
    }

    /// A job worker's answer, to the sub-state it is for.
    fn answer(&mut self, response: Response, now: f64) {
        match response {
            // The file worker's answers arrive as `LoadAction::Loaded`, an
            // alignment's parts put together by `effects::job_worker_answers`.
            Response::Ready | Response::CorpusPart { .. } | Response::Loaded { .. } | Response::AlignedPart { .. } => {}
            Response::Progress { job, stage, done, total, kkt } => {
                self.jobs.progress(job, stage, done, total, kkt, now)
            }
            Response::Trained { job, model, summary } => {
                if let Some(j) = self.jobs.get(job) {
                    self.alignment.trained(j, model, summary, self.corpus.len());
                }
            }
            Response::Aligned { job, searches, baseline, lexicon, first } => {
                if let Some(j) = self.jobs.end(job, None) {
                    self.alignment.aligned(j, &self.corpus, self.corpus_gen, searches, baseline, lexicon, first, now);
                }
            }
            Response::Explained { pair, source, target, result } => {
                self.alignment.explanation(pair, source, target, result)
            }
            answer @ (Response::MtReady { .. }
            | Response::TranslatedAll { .. }
            | Response::Translated { .. }
            | Response::MtMissing { .. }) => self.translation_answer(answer, now),
            Response::Stopped { message } => {
                self.jobs.worker_stopped = true;
                self.worker_failed(message);
            }
            Response::Failed { job: None, message } => self.worker_failed(message),
            Response::Failed { job: Some(job), message } => self.request_failed(job, message),
        }
    }
}

impl State {
    /// The reducer: the one place the state changes; returns what the page
    /// is to do about it.
    pub fn apply(&mut self, action: Action) -> Vec<Effect> {
        let explaining = self.explain_key();
        // Hand-link changes are recorded for undo (undo and redo themselves are not).
        let edits_links = matches!(
            (&action, self.selection.mode),
            (Action::Select(SelectAction::ClickTarget(_) | SelectAction::ClickLink(..)), Mode::Teach)
                | (Action::Teach(TeachAction::Clear), _)
        );
        let before = edits_links.then(|| (self.selection.pair, self.student_links().to_vec()));
        let from_address = matches!(action, Action::OpenLocation(_));
        let location = (self.selection.pair, self.selection.mode);
        let mut effects = self.reduce(action);
        if !from_address && (self.selection.pair, self.selection.mode) != location {
            effects.push(Effect::SetLocation(self.location()));
        }
        if let Some((pair, before)) = before {
            self.teach.record(pair, before);
        }
        // Ask the worker why, whenever a node pair is selected with results in hand.
        if let Some(key @ (pair, source, target, _, _)) = self.explain_key().filter(|k| Some(*k) != explaining) {
            let _ = key;
            self.alignment.explained = Some(Explained { pair, source, target, result: None });
            effects.push(Effect::Post(Request::Explain { pair, source, target }));
        }
        // A request to the job worker starts a fresh one if it had died.
        if effects.iter().any(|e| matches!(e, Effect::Post(_) | Effect::PostFile(..) | Effect::RestartJobWorker)) {
            self.jobs.worker_stopped = false;
        }
        effects
    }

    fn reduce(&mut self, action: Action) -> Vec<Effect> {
        let s = self;
        let mut effects = Vec::new();
        // A refused link is drawn until the student's next click, or another pair or mode.
        if matches!(
            action,
            Action::Select(
                SelectAction::ClickSource(_)
                    | SelectAction::ClickTarget(_)
                    | SelectAction::ClickLink(..)
                    | SelectAction::SetMode(_)
                    | SelectAction::SelectPair(_)
                    | SelectAction::StepPair(_)
            ) | Action::Teach(TeachAction::Clear)
        ) {
            s.teach.refused = None;
        }
        match action {
            Action::Load(a) => effects.extend(s.load(a)),
            Action::Train(a) => effects.extend(s.train(a)),
            Action::Select(a) => s.select(a),
            Action::Fold(a) => {
                let k = s.selection.pair;
                s.folds.apply(a, s.corpus_gen, k, s.corpus.pairs.get(k));
            }
            Action::SetLambda(text) => s.lambda.set(text),
            Action::Teach(a) => s.teaching(a),
            Action::Find(a) => s.find.apply(a, &s.corpus, &mut s.classroom),
            Action::Worker { response, now } => s.answer(response, now),
            Action::Job(a) => effects.extend(s.job_action(a)),
            Action::Tick(now) => s.jobs.tick(now),
            Action::SortBy(key) => s.alignment.sort_by(key),
            Action::Translate(a) => effects.extend(s.translation(a)),
            Action::Exercise(a) => {
                if let Some(d) = s.classroom.apply(a, &s.corpus, &s.teach.links) {
                    let body = DownloadBody::Text { text: d.json.into(), mime: "application/json" };
                    effects.push(Effect::Download { name: d.name, body });
                }
            }
            Action::Restore { session, mt_file } => effects.extend(s.restore(*session, mt_file)),
            Action::StartFresh => {
                let worker_gen = s.jobs.worker_gen.next();
                let last_job = s.last_job;
                *s = State::new();
                (s.jobs.worker_gen, s.last_job) = (worker_gen, last_job);
                effects.extend([Effect::ForgetSession, Effect::RestartJobWorker, Effect::SetLocation(s.location())]);
                effects.extend(s.load(LoadAction::LoadSample));
            }
            Action::OpenLocation(hash) => {
                let location = Location::parse(&hash);
                // The address wins over the session being restored.
                if let Some(r) = &mut s.restoring {
                    r.pair = location.pair.unwrap_or(r.pair);
                    r.mode = location.mode.unwrap_or(r.mode);
                }
                if let Some(mode) = location.mode.filter(|&m| m != s.selection.mode) {
                    s.selection.mode = mode;
                    s.clear_selection();
                    s.teach.message = None;
                }
                match location.pair {
                    Some(p) if p >= s.corpus.len() => s.selection.wanted_pair = Some(p),
                    Some(p) => {
                        s.selection.wanted_pair = None;
                        s.select_pair(p);
                    }
                    None => {}
                }
            }
            Action::OpenQuery(query) => effects.extend(exercise_address(&query).map(Effect::FetchExercise)),
            Action::Export(file) => effects.extend(s.export(file)),
        }
        effects
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use crate::ui::folds::Side;
    use crate::ui::load;

    /// The classroom round trip in the page's state: the instructor exports
    /// an exercise; opened (dropped), it becomes the corpus with its key
    /// hidden, in teaching mode; *Check* marks the drawn links; the answers
    /// file it exports, dropped with another student's, makes the class table.
    #[test]
    fn an_exercise_goes_from_instructor_to_student_to_class_table() {
        use crate::exercise::{Answers, Exercise};
        let mut s = State::with_sample();
        let sample = s.corpus.clone();
        s.apply(Action::Exercise(ExerciseAction::SetPairs("3, 1".into())));
        let exported = s.apply(Action::Exercise(ExerciseAction::Export));
        let [Effect::Download { name, body: DownloadBody::Text { text, .. } }] = &exported[..] else {
            panic!("{exported:?}")
        };
        let text = text.to_string();
        // Dropped (no slot): the head says it is an exercise, not a model.
        read(&mut s, name, &text, None);
        assert_eq!(
            s.slots.slot(Slot::Exercise).message.as_ref().map(|m| m.is_ok()),
            Some(true),
            "{:?}",
            s.slots.slot(Slot::Exercise)
        );
        assert_eq!(s.selection.mode, Mode::Teach);
        assert_eq!(s.corpus.len(), 2);
        assert_eq!(s.corpus.pairs[0].source, sample.pairs[2].source);
        assert_eq!(s.corpus.gold_links(), 0, "the key is hidden");
        assert!(!s.teach.reveal_gold);
        let exercise = Exercise::from_json(&text, name).unwrap();
        assert_eq!(s.classroom.open.as_ref().map(|o| &*o.exercise), Some(&exercise));
        // The student links the key's first link and a wrong one, then checks.
        let key = exercise.pairs[0].pair.gold[0];
        let wrong = (0..s.corpus.pairs[0].target.len())
            .find(|&t| {
                s.corpus.pairs[0].target.is_phrase(t)
                    && !exercise.pairs[0].pair.gold.iter().any(|l| (l.source, l.target) == (0, t))
                    && t != key.target
            })
            .unwrap();
        s.apply(Action::Select(SelectAction::ClickSource(key.source)));
        s.apply(Action::Select(SelectAction::ClickTarget(key.target)));
        assert_eq!(s.student_links(), vec![(key.source, key.target)]);
        s.apply(Action::Exercise(ExerciseAction::Check));
        let styles = |s: &State| s.drawn_links().iter().map(|l| l.style).collect::<Vec<_>>();
        let gold = exercise.pairs[0].pair.gold.len();
        let marked = styles(&s);
        assert_eq!(marked.iter().filter(|&&st| st == LinkStyle::Correct).count(), 1);
        assert_eq!(marked.iter().filter(|&&st| st == LinkStyle::Missed).count(), gold - 1);
        // A new link makes the check stale.
        s.apply(Action::Select(SelectAction::ClickSource(0)));
        s.apply(Action::Select(SelectAction::ClickTarget(wrong)));
        assert!(s.classroom.checks.is_none());
        // (A refused attempt is drawn too, where it was tried.)
        assert!(styles(&s).iter().all(|&st| st == LinkStyle::Student || st == LinkStyle::Refused));
        s.apply(Action::Exercise(ExerciseAction::SetStudent("Ana".into())));
        let exported = s.apply(Action::Exercise(ExerciseAction::ExportAnswers));
        let [Effect::Download { name: ana_name, body: DownloadBody::Text { text: ana, .. } }] = &exported[..] else {
            panic!("{exported:?}")
        };
        let ana = ana.to_string();
        // Another student answered nothing.
        let ben = Answers::new(&exercise, "Ben", &[]).to_json();
        read(&mut s, ana_name, &ana, None);
        read(&mut s, "ben.answers.json", &ben, Some(Slot::Answers));
        assert_eq!(s.slots.slot(Slot::Answers).message, Some(Ok(format!("2 answers files checked against {name}"))));
        let class = s.classroom.class.clone().unwrap();
        assert_eq!(class.students.iter().map(|r| r.student.as_str()).collect::<Vec<_>>(), ["Ana", "Ben"]);
        assert_eq!(class.students[0].counts.correct, 1);
        assert_eq!(class.students[1].counts.predicted, 0);
        // A damaged answers file is named, and the others still count.
        read(
            &mut s,
            "bad.answers.json",
            "{\"format\": \"treelink-exercise-answers\", \"version\": 1",
            Some(Slot::Answers),
        );
        let status = s.slots.slot(Slot::Answers).message.clone().unwrap().unwrap_err();
        assert!(status.starts_with("1 of 3 files not counted: bad.answers.json:"), "{status}");
        assert_eq!(s.classroom.class.as_ref().unwrap().students.len(), 2);
        // Kept for the next visit: the open exercise, the answers files and the student's name.
        let session = s.session();
        let slots: Vec<Slot> = session.files.iter().map(|f| f.slot).collect();
        assert_eq!(slots, [Slot::Exercise, Slot::Answers, Slot::Answers]);
        let mut r = State::with_sample();
        run(&mut r, Action::Restore { session: Box::new(session), mt_file: None });
        assert_eq!(r.classroom.open.as_ref().map(|o| &*o.exercise), Some(&exercise));
        assert_eq!((r.corpus.as_ref(), r.classroom.student.as_str()), (s.corpus.as_ref(), "Ana"));
        assert_eq!((r.selection.mode, &r.teach.links), (Mode::Teach, &s.teach.links));
        assert_eq!(r.classroom.class.as_ref().map(|c| c.students.len()), Some(2));
        // The sample again: the exercise closes.
        run(&mut s, Action::Load(LoadAction::LoadSample));
        assert!(s.classroom.open.is_none());
        assert!(s.session().files.is_empty(), "a closed exercise is not kept");
    }

    #[test]
    fn the_address_names_the_pair_and_mode_and_opens_them() {
        let mut s = State::with_sample();
        assert_eq!(
            s.apply(Action::Select(SelectAction::SelectPair(11))),
            vec![Effect::SetLocation("#pair=12&mode=inspect".into())]
        );
        assert_eq!(
            s.apply(Action::Select(SelectAction::SetMode(Mode::Teach))),
            vec![Effect::SetLocation("#pair=12&mode=teach".into())]
        );
        assert!(s.apply(Action::Select(SelectAction::SelectPair(11))).is_empty(), "no change, no new history entry");
        // Opening an address (back/forward, a shared link) adds no entry of its own.
        assert!(s.apply(Action::OpenLocation("#pair=3&mode=steps".into())).is_empty());
        assert_eq!((s.selection.pair, s.selection.mode), (2, Mode::Steps));
        s.apply(Action::OpenLocation("#mode=inspect&junk=1&pair=x".into()));
        assert_eq!((s.selection.pair, s.selection.mode), (2, Mode::Inspect));
        s.apply(Action::OpenLocation("#pair=0".into()));
        assert_eq!(s.selection.pair, 2, "pairs count from 1");
        assert_eq!(Location::parse("pair=5&mode=teach"), Location { pair: Some(4), mode: Some(Mode::Teach) });
        // A pair beyond those loaded opens when pairs that have it arrive.
        let n = s.corpus.len();
        s.apply(Action::OpenLocation(format!("#pair={}", n + 2)));
        assert_eq!((s.selection.pair, s.selection.wanted_pair), (2, Some(n + 1)));
        let many: String = (0..n + 5).map(|k| format!("(S (A a{k}))\n")).collect();
        read(&mut s, "m.src", &many, None);
        read(&mut s, "m.trg", &many, None);
        assert_eq!((s.selection.pair, s.selection.wanted_pair), (n + 1, None));
    }

    #[test]
    fn a_session_survives_a_reload_through_the_normal_load_path() {
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a) (B b))\n(S (A c))\n", None);
        read(&mut s, "x.trg", "(T (C c))\n(T (D d) (E e))\n", None);
        read(&mut s, "x.gold", "0-0\n0-0\n", None);
        read(&mut s, "lex.e2f", "c a 0.5\n", None);
        read(&mut s, "lex.e2f", "broken", None); // refused: the good one is kept
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let trained = Response::Trained { job: id, model: "{\"m\":1}".into(), summary: "a model".into() };
        s.apply(Action::Worker { response: trained, now: 1.0 });
        s.apply(Action::Job(JobAction::Cancel));
        s.apply(Action::Train(TrainAction::Form(FormAction::SetField(Field::Seed, "9".into()))));
        s.apply(Action::SetLambda("0.3".into()));
        s.apply(Action::Load(LoadAction::SwapSides));
        s.apply(Action::Select(SelectAction::SetMode(Mode::Teach)));
        s.apply(Action::Select(SelectAction::SelectPair(1)));
        s.apply(Action::Select(SelectAction::ClickSource(0)));
        s.apply(Action::Select(SelectAction::ClickTarget(0)));
        s.apply(Action::Fold(FoldAction::Toggle(Side::Target, 0)));
        assert_eq!(s.folds.saved(s.corpus_gen), [(1, vec![], vec![0])]);
        let session = s.session();
        let json = serde_json::to_string(&session).unwrap();
        let session: Session = serde_json::from_str(&json).unwrap();
        assert_eq!(
            session.files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            ["x.src", "x.trg", "x.gold", "lex.e2f"]
        );
        assert_eq!(session.files[3].slot, Slot::LexS2t, "kept as given, before the swap");
        let mut r = State::with_sample();
        run(&mut r, Action::Restore { session: Box::new(session), mt_file: None });
        assert!(r.restoring.is_none());
        assert_eq!((&r.corpus, &r.corpus_name, r.sides_swapped), (&s.corpus, &s.corpus_name, true));
        assert_eq!((r.selection.pair, r.selection.mode, &r.teach.links), (1, Mode::Teach, &s.teach.links));
        assert_eq!(r.student_links(), [(0, 0)]);
        assert_eq!(r.folds.saved(r.corpus_gen), s.folds.saved(s.corpus_gen), "the folds, on the swapped pairs");
        assert_eq!((&r.form, &r.lambda.text, r.lambda.value), (&s.form, &s.lambda.text, 0.3));
        // The model was trained before the swap: the pairs as shown are not the ones it saw.
        assert_eq!(s.alignment.model.as_ref().and_then(|m| m.trained_on).map(|t| t.gen == s.corpus_gen), Some(false));
        let unmarked = s.alignment.model.clone().map(|m| LoadedAlignmentModel { trained_on: None, ..m });
        assert_eq!(format!("{:?}", r.alignment.model), format!("{unmarked:?}"));
        assert_eq!(format!("{:?}", r.slots.lexicon_files()), format!("{:?}", s.slots.lexicon_files()));
        // The address wins over the session's pair and mode.
        let mut r = State::with_sample();
        let effects = r.apply(Action::Restore { session: Box::new(s.session()), mt_file: None });
        r.apply(Action::OpenLocation("#pair=1&mode=inspect".into()));
        for e in effects {
            if let Effect::Load(_, request) = e {
                let checked = load::check(&request);
                let corpus = checked.corpus;
                r.apply(Action::Load(LoadAction::Loaded { answer: Box::new(checked.answer), corpus }));
            }
        }
        assert_eq!((r.selection.pair, r.selection.mode), (0, Mode::Inspect));
        // Start fresh: the sample and the defaults, and the kept session forgotten.
        let effects = r.apply(Action::StartFresh);
        assert!(effects.contains(&Effect::ForgetSession), "{effects:?}");
        assert_eq!((r.corpus_name.as_str(), r.teach.links.len(), r.alignment.model.is_none()), (SAMPLE_NAME, 0, true));
    }

    #[test]
    fn exports_are_made_by_the_reducer_and_offered_as_downloads() {
        let mut s = State::with_sample();
        // Nothing aligned: only the diagram can be exported.
        assert!(s.apply(Action::Export(ExportFile::PredictedLinks)).is_empty());
        assert!(s.apply(Action::Export(ExportFile::Sta)).is_empty());
        let svg = s.apply(Action::Export(ExportFile::DiagramSvg));
        let [Effect::Download { name, body: DownloadBody::Text { text, mime: "image/svg+xml" } }] = &svg[..] else {
            panic!("{svg:?}")
        };
        assert_eq!(name, "treelink-pair-1.svg");
        assert_eq!(Some(text.to_string()), s.diagram_svg());
        let png = s.apply(Action::Export(ExportFile::DiagramPng));
        let [Effect::Download { name, body: DownloadBody::Png { svg, width, height, scale } }] = &png[..] else {
            panic!("{png:?}")
        };
        assert_eq!((name.as_str(), &**svg, *scale), ("treelink-pair-1.png", &**text, 2.0));
        assert!(text.contains(&format!("width=\"{width}\" height=\"{height}\"")), "{width} {height}");
        // Aligned: the predicted links, the STA trio and the CSVs, as the engine writes them.
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let n = s.corpus.len();
        let aligned = empty_alignment(id, n, "trained", 0);
        s.apply(Action::Worker { response: aligned, now: 1.0 });
        let gold = s.apply(Action::Export(ExportFile::PredictedLinks));
        let expected = write_links(&s.results().unwrap().predicted);
        assert!(
            matches!(&gold[..], [Effect::Download { name, body: DownloadBody::Text { text, .. } }] if name == "treelink-predicted.gold" && **text == *expected)
        );
        for (file, name) in [
            (ExportFile::Sta, "treelink-alignment.xml"),
            (ExportFile::SourceTiger, "treelink-source.xml"),
            (ExportFile::TargetTiger, "treelink-target.xml"),
            (ExportFile::ResultsCsv, "treelink-results.csv"),
            (ExportFile::CurveCsv, "treelink-pr-curve.csv"),
        ] {
            let effects = s.apply(Action::Export(file));
            assert!(matches!(&effects[..], [Effect::Download { name: n, .. }] if n == name), "{file:?}: {effects:?}");
        }
        assert_eq!(s.export_error, None);
        // Hand links, and the derivation only once there is a translation.
        assert!(s.apply(Action::Export(ExportFile::DerivationSvg)).is_empty());
        s.apply(Action::Select(SelectAction::SetMode(Mode::Teach)));
        s.apply(Action::Select(SelectAction::ClickSource(0)));
        s.apply(Action::Select(SelectAction::ClickTarget(0)));
        let student = s.apply(Action::Export(ExportFile::StudentLinks));
        assert!(
            matches!(&student[..], [Effect::Download { name, body: DownloadBody::Text { text, .. } }] if name == "treelink-student.gold" && text.starts_with("0-0\n")),
            "{student:?}"
        );
    }

    #[test]
    fn the_address_query_opens_the_exercise_it_names() {
        let mut s = State::with_sample();
        assert!(s.apply(Action::OpenQuery(String::new())).is_empty());
        assert!(s.apply(Action::OpenQuery("?lang=de".into())).is_empty());
        assert_eq!(
            s.apply(Action::OpenQuery("?a=1&exercise=week%201%2Fe.json".into())),
            vec![Effect::FetchExercise("week 1/e.json".into())]
        );
        assert_eq!(exercise_address("?exercise=bad%zz.json"), Some("bad%zz.json".into()), "kept as written");
        assert_eq!(exercise_address("?exercise=%C3%A9.json"), Some("é.json".into()));
    }

    #[test]
    fn the_page_starts_with_the_file_worker_reading_the_sample_and_a_session_waits_for_it() {
        let mut s = State::new();
        assert!(s.corpus.is_empty());
        let effects = s.apply(Action::Load(LoadAction::LoadSample));
        let [Effect::Load(_, request)] = effects.as_slice() else { panic!("{effects:?}") };
        assert!(request.sample && request.files.is_empty());
        assert_eq!(s.corpus_summary(), format!("{SAMPLE_NAME}: reading it…"), "not the counts of the pairs shown");
        // Hand links on the sample, kept from the last visit, restored before the sample arrives.
        let mut kept = State::with_sample();
        kept.apply(Action::Select(SelectAction::SetMode(Mode::Teach)));
        kept.apply(Action::Select(SelectAction::SelectPair(2)));
        kept.apply(Action::Select(SelectAction::ClickSource(0)));
        kept.apply(Action::Select(SelectAction::ClickTarget(0)));
        let session = kept.session();
        assert!(session.files.is_empty());
        s.apply(Action::Restore { session: Box::new(session), mt_file: None });
        assert!(s.restoring.is_some(), "the session waits for the sample");
        answer_load(&mut s, request);
        assert_eq!((s.corpus.as_ref(), s.corpus_name.as_str()), (kept.corpus.as_ref(), SAMPLE_NAME));
        assert_eq!((s.selection.pair, s.selection.mode, s.student_links()), (2, Mode::Teach, &[(0, 0)][..]));
        assert!(s.restoring.is_none() && s.slots.sample_loading.is_none());
        assert!(s.corpus_summary().ends_with(": 157 pairs, 10920 nodes, 1218 gold links"), "{}", s.corpus_summary());
    }
}
