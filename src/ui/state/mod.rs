//! The page's one state and the reducer that changes it. Views render it
//! and send [`Action`]s; the worker's answers arrive as actions too. Every
//! number shown is computed here or in the engine from this state.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::classroom::{Classroom, ExerciseAction};
use super::folds::{Folds, SavedFolds};
use super::ids::{CorpusGen, JobId, WorkerGen};
mod corpus;
mod find;
mod lambda;
mod selection;
mod slots;
mod teaching;
#[cfg(test)]
mod testing;
mod training;
pub use super::folds::FoldAction;
use super::load::{self, LoadRequest};
use super::protocol::{CorpusText, NamedText, Request, Response, TranslationView};
use crate::align::explain::{curve_csv, results_csv};
use crate::align::explain::{pr_curve, predicted_links, CurvePoint, Explanation};
use crate::align::greedy::{Outcome, Search};
use crate::app::alignment::{pair_span, PairSplit, HELD_OUT_PERCENT};
use crate::corpus::{Corpus, TreePair};
use crate::eval::bleu::{sentence_bleu, Bleu, BleuStats};
use crate::eval::prf::Counts;
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
use corpus::SAMPLE_NAME;
pub use find::{FindAction, FindPair};
pub use lambda::Lambda;
pub use selection::{Compare, Mode, SelectAction, Selection};
pub use slots::{is_mt_model, LoadAction, Slot, SlotStatus, Slots, Upload};
pub use teaching::{LinkEdit, LinkHistory, Teach, TeachAction};
pub use training::{Field, FormAction, TrainAction, TrainForm};

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

/// A model the page holds: its file text and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedAlignmentModel {
    pub json: Shared<str>,
    /// Where it came from.
    pub origin: ModelOrigin,
    pub summary: String,
    /// Trained in the page: on which pairs.
    pub trained_on: Option<TrainedOn>,
}

/// The pairs a model trained in the page has seen (as [`MtHeld`] records
/// its trees): the pairs (training pairs and dev) before `first_unseen` of
/// the corpus of generation `gen`. Scores of those pairs carry
/// [`ON_TRAINING_DATA`]; the held-out pairs after them do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrainedOn {
    pub gen: CorpusGen,
    pub first_unseen: usize,
}

/// Where an alignment model the page holds came from (only one trained
/// here is kept in the session: an uploaded one is kept as its file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelOrigin {
    TrainedHere,
    /// An uploaded file, by its name.
    Uploaded(String),
}

impl std::fmt::Display for ModelOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelOrigin::TrainedHere => f.write_str("trained in this page"),
            ModelOrigin::Uploaded(name) => write!(f, "uploaded {name}"),
        }
    }
}

/// The kind of a worker job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    Train,
    Align,
    /// Training a translation model.
    TrainMt,
    /// Translating every loaded pair.
    TranslateAll,
}

/// A running worker job and its latest progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub id: JobId,
    pub kind: JobKind,
    /// A training job's split of the pairs (training pairs, dev, held-out test).
    pub split: Option<PairSplit>,
    pub corpus_gen: CorpusGen,
    pub stage: String,
    pub done: u64,
    pub total: u64,
    pub started: f64,
    pub stage_started: f64,
    pub now: f64,
    /// During SMO: its distance from convergence (the largest KKT
    /// violation) and the ε it must fall below ([`crate::progress::Progress::gap`]).
    pub gap: Option<(f64, f64)>,
}

impl Job {
    /// Seconds left in the current stage, from its rate so far; `None`
    /// while nothing is done or when the stage's length is unknown (SMO).
    pub fn eta_seconds(&self) -> Option<f64> {
        if self.total == 0 || self.done == 0 || self.done > self.total {
            return None;
        }
        let elapsed = (self.now - self.stage_started) / 1000.0;
        Some(elapsed / self.done as f64 * (self.total - self.done) as f64)
    }

    pub fn elapsed_seconds(&self) -> f64 {
        (self.now - self.started) / 1000.0
    }
}

/// An alignment of the current corpus by the model, with the baseline's,
/// scored against the corpus's gold links.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    pub corpus_gen: CorpusGen,
    pub model: String,
    /// The pairs before it trained the model, in the page (0: none of these).
    pub first_unseen: usize,
    /// The pairs before it trained the model of a held-out test and were
    /// not aligned; every vector below still has one entry per pair loaded
    /// (empty for those), and the scores count the pairs from here.
    pub first_aligned: usize,
    /// For a held-out test: which pairs were held out and what trained the model, in words.
    pub held_out: Option<String>,
    pub lexicon: String,
    pub searches: Vec<Search>,
    pub predicted: Vec<Vec<Link>>,
    pub baseline: Vec<Vec<Link>>,
    pub model_counts: Vec<Counts>,
    pub baseline_counts: Vec<Counts>,
    pub model_total: Counts,
    pub baseline_total: Counts,
    pub curve: Vec<CurvePoint>,
}

impl Results {
    /// The model was trained in the page on some of the pairs scored.
    pub fn trained_on_these(&self) -> bool {
        self.first_aligned < self.first_unseen
    }

    /// What the page says of a pair these results did not align (a training
    /// pair of a held-out test), before what follows for the view.
    pub fn not_aligned_note(&self) -> String {
        format!(
            "This pair trained the model of the held-out test: only the held-out pairs {} were aligned",
            pair_span(self.pairs())
        )
    }

    /// The results of pairs `first_aligned..` of `corpus` (their searches and the baseline's links).
    fn new(
        corpus: &Corpus,
        corpus_gen: CorpusGen,
        model: String,
        lexicon: String,
        first_aligned: usize,
        searches: Vec<Search>,
        baseline: Vec<Vec<(NodeId, NodeId)>>,
    ) -> Results {
        let searches: Vec<Search> =
            std::iter::repeat_with(Search::default).take(first_aligned).chain(searches).collect();
        let predicted = searches.iter().map(predicted_links).collect();
        let baseline = std::iter::repeat_n(Vec::new(), first_aligned)
            .chain(baseline.into_iter().map(|l| l.into_iter().map(|(s, t)| Link::good(s, t)).collect()))
            .collect();
        let mut r = Results {
            corpus_gen,
            model,
            first_unseen: 0,
            first_aligned,
            held_out: None,
            lexicon,
            searches,
            predicted,
            baseline,
            model_counts: Vec::new(),
            baseline_counts: Vec::new(),
            model_total: Counts::default(),
            baseline_total: Counts::default(),
            curve: Vec::new(),
        };
        r.score(corpus);
        r
    }

    /// (Re)computes every count against the corpus's gold links (the
    /// totals and the curve over the pairs aligned).
    fn score(&mut self, corpus: &Corpus) {
        let per_pair = |links: &[Vec<Link>]| -> Vec<Counts> {
            corpus.pairs.iter().enumerate().map(|(k, p)| Counts::of_pair(p, links.get(k).map_or(&[], |l| l))).collect()
        };
        self.model_counts = per_pair(&self.predicted);
        self.baseline_counts = per_pair(&self.baseline);
        let total = |counts: &[Counts]| counts.iter().skip(self.first_aligned).fold(Counts::default(), |a, &b| a + b);
        self.model_total = total(&self.model_counts);
        self.baseline_total = total(&self.baseline_counts);
        let first = self.first_aligned.min(corpus.len()).min(self.searches.len());
        self.curve = pr_curve(&corpus.pairs[first..], &self.searches[first..]);
    }

    /// Whether pair `k` was aligned (not a training pair of a held-out test).
    pub fn aligned(&self, k: usize) -> bool {
        k >= self.first_aligned && k < self.searches.len()
    }

    /// The pairs aligned, as a range of pair indices.
    pub fn pairs(&self) -> std::ops::Range<usize> {
        self.first_aligned..self.searches.len()
    }

    /// The posterior the search gave `(s, t)` of pair `k`, if it was searched.
    pub fn posterior(&self, k: usize, s: NodeId, t: NodeId) -> Option<f64> {
        self.searches
            .get(k)?
            .steps
            .iter()
            .find(|st| (st.candidate.source, st.candidate.target) == (s, t))
            .map(|st| st.candidate.score)
    }
}

/// Where a translation model file's text is: in the page (trained here, or
/// read as text), or in a file the worker reads itself (an upload: a large
/// model never passes through the page's thread).
#[derive(Debug, Clone, PartialEq)]
pub enum MtSource {
    Text(Shared<str>),
    File(FileHandle),
}

/// A file the page holds unread (a translation model, possibly large),
/// named by an opaque id: the state stays plain data, testable natively,
/// and the page's file registry (`ui::file_handles`, wasm32) gives the file back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileHandle(pub(crate) u32);

/// An uploaded translation model file on its way to the worker.
#[derive(Debug, Clone, PartialEq)]
pub struct MtUpload {
    pub name: String,
    pub source: MtSource,
}

/// The translation model the worker holds (or held, before a restart).
#[derive(Debug, Clone, PartialEq)]
pub struct MtHeld {
    /// Its id in the worker.
    pub id: JobId,
    /// Its file name and where its text is: to download, and to send again to a restarted worker.
    pub name: String,
    pub source: MtSource,
    /// Where it came from ("trained in this page", "uploaded NAME").
    pub origin: String,
    pub summary: String,
    /// The worker generation that holds it; `None` once a worker failed
    /// (it is sent again with the next request).
    pub worker_gen: Option<WorkerGen>,
    /// Trained in the page on the trees of this generation.
    pub trained_gen: Option<CorpusGen>,
}

/// What a translation was asked for: its source tree and, from the corpus, its reference.
#[derive(Debug, Clone, PartialEq)]
pub struct TranslationInput {
    /// "pair 3" or "the pasted tree".
    pub label: String,
    pub source: Tree,
    pub reference: Option<Vec<String>>,
}

/// What every score on training data says, wherever it is shown (P/R/F of
/// an alignment, corpus and sentence BLEU of a translation).
pub const ON_TRAINING_DATA: &str =
    "Scored on pairs the model was trained on: optimistic, it says little about unseen pairs.";
/// What to do about it, after [`ON_TRAINING_DATA`] (in the pair's one-line
/// summary, its title).
pub const TRAINING_DATA_ADVICE: &str =
    "To measure, hold out part of the pairs when training, or load a model trained on other data.";

/// A translation the worker made, with its input and sentence BLEU.
#[derive(Debug, Clone, PartialEq)]
pub struct Translated {
    pub input: TranslationInput,
    pub view: TranslationView,
    pub bleu: Option<Bleu>,
    /// Where the model came from.
    pub model: String,
    /// The input is a pair the model was trained on (its BLEU is optimistic).
    pub trained_on_these: bool,
}

/// Every loaded pair translated, scored against its target sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct CorpusTranslation {
    /// The trees it belongs to.
    pub corpus_gen: CorpusGen,
    /// Where the model came from.
    pub model: String,
    pub hyps: Vec<Vec<String>>,
    /// Corpus BLEU (sacreBLEU's defaults) and each pair's sentence BLEU.
    pub bleu: Bleu,
    pub sentence_bleu: Vec<f64>,
    pub seconds: f64,
    /// The model was trained in the page on these very pairs (BLEU is optimistic).
    pub trained_on_these: bool,
}

/// The Translate view's state.
#[derive(Debug, Clone, PartialEq)]
pub struct MtState {
    pub held: Option<MtHeld>,
    /// The training form.
    pub system: SystemKind,
    pub extract: ExtractMethod,
    /// The id of the LoadMt request of an uploaded file, while the worker reads it.
    pub loading: Option<JobId>,
    /// The last uploaded translation model file.
    pub upload: Option<MtUpload>,
    /// How the last training or translation ended.
    pub note: Option<Result<String, String>>,
    /// The id of the Translate request in flight, and what it translates
    /// (`None`: the pasted tree, which the worker reads).
    pub translating: Option<(JobId, Option<TranslationInput>)>,
    pub result: Option<Rc<Translated>>,
    pub corpus: Option<Rc<CorpusTranslation>>,
    /// The pasted source tree as typed, and why it does not read.
    pub input: String,
    pub input_error: Option<String>,
    pub nbest: usize,
}

impl Default for MtState {
    fn default() -> Self {
        MtState {
            held: None,
            system: SystemKind::Ms,
            extract: ExtractMethod::Word,
            loading: None,
            upload: None,
            note: None,
            translating: None,
            result: None,
            corpus: None,
            input: String::new(),
            input_error: None,
            nbest: 10,
        }
    }
}

/// The explanation of the selected node pair, once the worker answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    pub pair: usize,
    pub source: NodeId,
    pub target: NodeId,
    pub result: Option<Result<Explanation, String>>,
}

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

/// Columns of the per-pair table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Pair,
    Words,
    Gold,
    Predicted,
    Correct,
    P,
    R,
    F,
    BaselineF,
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
    pub model: Option<LoadedAlignmentModel>,
    pub results: Option<Shared<Results>>,
    pub job: Option<Job>,
    /// How the last job ended.
    pub job_note: Option<Result<String, String>>,
    /// The job note gives scores of pairs the model was trained on (it carries [`ON_TRAINING_DATA`]).
    pub job_note_on_training_data: bool,
    pub explained: Option<Explained>,
    /// Counts worker restarts (a restarted worker has forgotten the alignment's details).
    pub worker_gen: WorkerGen,
    /// The job worker died and none runs yet: the page offers to start one.
    pub worker_stopped: bool,
    pub teach: Teach,
    /// The sub-trees the diagram draws folded.
    pub folds: Folds,
    pub sort: (SortKey, bool),
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
    Worker {
        response: Response,
        now: f64,
    },
    /// Cancel the running job: the job worker is restarted.
    Cancel,
    /// Start a fresh job worker after the last one died.
    RestartWorker,
    /// The clock, while a job runs (its elapsed time moves between reports).
    Tick(f64),
    /// The session kept from the last visit, with the translation model file kept apart.
    Restore {
        session: Box<Session>,
        mt_file: Option<FileHandle>,
    },
    /// Start fresh: the built-in sample and the default settings (the page forgets the kept session).
    StartFresh,
    /// The page's address changed (on load, back/forward, a shared link): its fragment.
    OpenLocation(String),
    SortBy(SortKey),
    SetMtSystem(SystemKind),
    SetMtExtract(ExtractMethod),
    SetMtInput(String),
    /// Train a translation model on the loaded pairs.
    TrainMt {
        now: f64,
    },
    /// Translate pair `k` of the corpus.
    TranslatePair(usize),
    /// Translate the pasted tree.
    TranslatePasted,
    /// Translate every loaded pair.
    TranslateAll {
        now: f64,
    },
    DownloadMt,
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

/// The effect that sends a translation model file to the job worker, to
/// keep as model `job`: a file as a file (the worker reads it), a text as text.
fn send_model(job: JobId, name: &str, source: &MtSource) -> Effect {
    match source {
        MtSource::File(handle) => Effect::PostFile(Request::LoadMtFile { job, name: name.to_string() }, *handle),
        MtSource::Text(text) => {
            Effect::Post(Request::LoadMt { job, model: NamedText { name: name.to_string(), text: text.to_string() } })
        }
    }
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
            model,
            results,
            job,
            job_note,
            job_note_on_training_data,
            explained,
            worker_gen,
            worker_stopped,
            teach,
            folds,
            sort,
            mt,
            classroom,
            find,
            restoring,
            last_job,
            export_error,
        } = self;
        let which = |j: &Option<Job>| j.as_ref().map(|j| (j.id, j.kind, j.corpus_gen, j.started.to_bits()));
        which(job) == which(&other.job)
            && Rc::ptr_eq(corpus, &other.corpus)
            && *corpus_name == other.corpus_name
            && *corpus_gen == other.corpus_gen
            && *tiger_ids == other.tiger_ids
            && *sides_swapped == other.sides_swapped
            && *selection == other.selection
            && *lambda == other.lambda
            && *slots == other.slots
            && *form == other.form
            && *model == other.model
            && *results == other.results
            && *job_note == other.job_note
            && *job_note_on_training_data == other.job_note_on_training_data
            && *explained == other.explained
            && *worker_gen == other.worker_gen
            && *worker_stopped == other.worker_stopped
            && *teach == other.teach
            && *folds == other.folds
            && *sort == other.sort
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
            model: None,
            results: None,
            job: None,
            job_note: None,
            job_note_on_training_data: false,
            explained: None,
            worker_gen: WorkerGen::default(),
            worker_stopped: false,
            teach: Teach::default(),
            folds: Folds::default(),
            sort: (SortKey::Pair, true),
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

    /// The results, if they belong to the trees now loaded.
    pub fn results(&self) -> Option<&Results> {
        self.results.as_deref().filter(|r| r.corpus_gen == self.corpus_gen)
    }

    /// [`State::results`], shared.
    pub fn shared_results(&self) -> Option<Shared<Results>> {
        self.results.clone().filter(|r| r.corpus_gen == self.corpus_gen)
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

    /// A fresh request id.
    fn job_id(&mut self) -> JobId {
        self.last_job = self.last_job.next();
        self.last_job
    }

    /// Hands an uploaded translation model to the job worker, which reads and keeps it.
    fn upload_mt(&mut self, upload: MtUpload) -> Effect {
        let id = self.job_id();
        self.mt.loading = Some(id);
        let effect = send_model(id, &upload.name, &upload.source);
        self.mt.upload = Some(upload);
        effect
    }

    fn start_job(&mut self, id: JobId, kind: JobKind, now: f64) {
        self.job = Some(Job {
            id,
            kind,
            split: None,
            corpus_gen: self.corpus_gen,
            stage: "starting the worker".into(),
            done: 0,
            total: 0,
            started: now,
            stage_started: now,
            now,
            gap: None,
        });
        self.job_note = None;
        self.job_note_on_training_data = false;
    }

    /// The id of the held translation model, and the effect that sends it
    /// first to a worker that no longer holds it.
    fn held_model(&mut self, effects: &mut Vec<Effect>) -> Option<JobId> {
        let gen = self.worker_gen;
        let held = self.mt.held.as_mut()?;
        if held.worker_gen != Some(gen) {
            effects.push(send_model(held.id, &held.name, &held.source));
            held.worker_gen = Some(gen);
        }
        Some(held.id)
    }

    /// Asks the job worker to translate `input`, or (`None`) the pasted
    /// tree, which the worker reads (its errors come back as the input's).
    fn translate(&mut self, input: Option<TranslationInput>, effects: &mut Vec<Effect>) {
        let Some(model) = self.held_model(effects) else { return };
        let id = self.job_id();
        let (source, pasted) = match &input {
            Some(input) => (input.source.to_bracketed(), false),
            None => (self.mt.input.clone(), true),
        };
        effects.push(Effect::Post(Request::Translate { job: id, model, source, nbest: self.mt.nbest, pasted }));
        self.mt.translating = Some((id, input));
        self.mt.input_error = None;
    }

    /// The input of translating pair `k` of the corpus.
    fn pair_input(&self, k: usize) -> Option<TranslationInput> {
        let pair = self.corpus.pairs.get(k)?;
        Some(TranslationInput {
            label: format!("pair {}", k + 1),
            source: pair.source.clone(),
            reference: Some(pair.target.words().to_vec()),
        })
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
            self.worker_gen,
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
        let trained = self.model.as_ref().filter(|m| m.origin == ModelOrigin::TrainedHere);
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
            self.model = Some(LoadedAlignmentModel {
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
        if let (Some(m), Some(first_unseen)) = (&mut self.model, r.model_first_unseen) {
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

    fn worker(&mut self, response: Response, now: f64) {
        let job_is = |job: &Option<Job>, id: JobId| job.as_ref().is_some_and(|j| j.id == id);
        match response {
            // The file worker's answers arrive as `Action::Load(LoadAction::Loaded)`.
            // Put together by `effects::job_worker_answers`.
            Response::AlignedPart { .. } => {}
            Response::Ready | Response::CorpusPart { .. } | Response::Loaded { .. } => {}
            Response::Progress { job, stage, done, total, kkt } => {
                if let Some(j) = self.job.as_mut().filter(|j| j.id == job) {
                    if j.stage != stage {
                        j.stage = stage;
                        j.stage_started = now;
                    }
                    (j.done, j.total, j.now, j.gap) = (done, total, now, kkt);
                }
            }
            Response::Trained { job, model, summary } => {
                if let Some(j) = self.job.as_ref().filter(|j| j.id == job) {
                    let first_unseen = j.split.map_or(self.corpus.len(), |split| split.seen().end);
                    self.model = Some(LoadedAlignmentModel {
                        json: model.into(),
                        origin: ModelOrigin::TrainedHere,
                        summary,
                        trained_on: Some(TrainedOn { gen: j.corpus_gen, first_unseen }),
                    });
                }
            }
            Response::Aligned { job, searches, baseline, lexicon, first } => {
                let Some(j) = self.job.take_if(|j| j.id == job) else { return };
                let elapsed = (now - j.started) / 1000.0;
                if j.corpus_gen != self.corpus_gen || first.checked_add(searches.len()) != Some(self.corpus.len()) {
                    self.job_note = Some(Err("The data changed while aligning: align again.".into()));
                    self.job_note_on_training_data = false;
                    return;
                }
                let model = self.model.as_ref().map_or(String::new(), |m| format!("{} ({})", m.summary, m.origin));
                let mut r = Results::new(&self.corpus, self.corpus_gen, model, lexicon, first, searches, baseline);
                // Scores of pairs the model saw in training carry the warning, wherever they are shown.
                let trained_on = self.model.as_ref().and_then(|m| m.trained_on).filter(|t| t.gen == self.corpus_gen);
                r.first_unseen = trained_on.map_or(0, |t| t.first_unseen);
                let test = j.split.filter(|split| split.test > 0 && split.test_pairs().start == first);
                r.held_out = test.map(|split| {
                    format!(
                        "Held out: pairs {}, the last {HELD_OUT_PERCENT}% of the {} pairs loaded; the model was {} (as `treelink train --held-out`), and no model saw the held-out pairs: neither the SVM, nor the dev choices, nor the in-engine lexicon, which aligns them without training on their sentences (`treelink align` with a model of `train --held-out`).",
                        pair_span(first..self.corpus.len()),
                        self.corpus.len(),
                        split.describe()
                    )
                });
                let scores = format!(
                    "P {:.2}, R {:.2}, F {:.2}.",
                    r.model_total.precision(),
                    r.model_total.recall(),
                    r.model_total.f()
                );
                let note = match (j.kind, test) {
                    (JobKind::Train, Some(split)) => format!(
                        "Trained on pairs {} and aligned the {} held-out pairs {} in {elapsed:.1} s: {scores}",
                        pair_span(split.seen()),
                        split.test,
                        pair_span(first..self.corpus.len())
                    ),
                    (JobKind::Train, None) => {
                        format!("Trained and aligned {} pairs in {elapsed:.1} s: {scores}", self.corpus.len())
                    }
                    _ => format!("Aligned {} pairs in {elapsed:.1} s: {scores}", self.corpus.len() - first),
                };
                self.job_note = Some(Ok(note));
                self.job_note_on_training_data = r.trained_on_these();
                self.results = Some(Shared(Rc::new(r)));
                self.explained = None;
            }
            Response::Explained { pair, source, target, result } => {
                if let Some(e) =
                    self.explained.as_mut().filter(|e| (e.pair, e.source, e.target) == (pair, source, target))
                {
                    e.result = Some(result);
                }
            }
            Response::MtReady { job, model, summary, json } => {
                if let Some(j) = self.job.take_if(|j| j.id == job && j.kind == JobKind::TrainMt) {
                    let elapsed = (now - j.started) / 1000.0;
                    self.mt.note = Some(Ok(format!("Trained a translation model in {elapsed:.1} s.")));
                    self.mt.held = Some(MtHeld {
                        id: model,
                        name: "treelink-mt-model.json".into(),
                        source: MtSource::Text(json.unwrap_or_default().into()),
                        origin: format!("trained in this page on {} pairs", self.corpus.len()),
                        summary,
                        worker_gen: Some(self.worker_gen),
                        trained_gen: Some(j.corpus_gen),
                    });
                } else if self.mt.loading == Some(job) {
                    self.mt.loading = None;
                    let Some(u) = self.mt.upload.clone() else { return };
                    let status = self.slots.slot_mut(Slot::TranslationModel);
                    let message = format!("{}: {summary}", u.name);
                    status.keep(&message);
                    status.message = Some(Ok(message));
                    self.mt.held = Some(MtHeld {
                        id: model,
                        name: u.name.clone(),
                        source: u.source,
                        origin: format!("uploaded {}", u.name),
                        summary,
                        worker_gen: Some(self.worker_gen),
                        trained_gen: None,
                    });
                }
            }
            Response::TranslatedAll { job, hyps, seconds } => {
                let Some(j) = self.job.take_if(|j| j.id == job && j.kind == JobKind::TranslateAll) else { return };
                if j.corpus_gen != self.corpus_gen || hyps.len() != self.corpus.len() {
                    self.mt.note = Some(Err("The pairs changed while translating: translate them again.".into()));
                    return;
                }
                let mut stats = BleuStats::default();
                let mut sentence = Vec::with_capacity(hyps.len());
                for (h, p) in hyps.iter().zip(&self.corpus.pairs) {
                    let s = BleuStats::from_tokens(h, &[p.target.words()]);
                    sentence.push(Bleu::sentence(&s).score);
                    stats += s;
                }
                let bleu = Bleu::corpus(&stats);
                self.mt.note = Some(Ok(format!("Translated {} pairs in {seconds:.1} s.", hyps.len())));
                let model = self.mt.held.as_ref().map_or(String::new(), |h| h.origin.clone());
                let trained_on_these = self.mt.held.as_ref().is_some_and(|h| h.trained_gen == Some(self.corpus_gen));
                self.mt.corpus = Some(Rc::new(CorpusTranslation {
                    corpus_gen: self.corpus_gen,
                    trained_on_these,
                    model,
                    hyps,
                    bleu,
                    sentence_bleu: sentence,
                    seconds,
                }));
            }
            Response::Translated { job, result, source } => {
                let Some((_, input)) = self.mt.translating.take_if(|(id, _)| *id == job) else { return };
                // The pasted tree, as the worker read it.
                let input = match (input, source.map(Tree::try_from)) {
                    (Some(input), _) => input,
                    (None, Some(Ok(source))) => {
                        TranslationInput { label: "the pasted tree".into(), source, reference: None }
                    }
                    (None, Some(Err(e))) => {
                        self.mt.note = Some(Err(format!("the worker sent a broken tree: {e}")));
                        return;
                    }
                    (None, None) => {
                        self.mt.note = Some(Err("the worker sent no tree for the pasted one".into()));
                        return;
                    }
                };
                let bleu = input.reference.as_ref().map(|r| sentence_bleu(&result.words.join(" "), &r.join(" ")));
                self.mt.note = Some(Ok(format!(
                    "Translated {} ({} words) in {:.2} s.",
                    input.label,
                    input.source.words().len(),
                    result.seconds
                )));
                let model = self.mt.held.as_ref().map_or(String::new(), |h| h.origin.clone());
                // A pair of the loaded corpus (it has a reference) that the model was trained on.
                let trained_on_these = input.reference.is_some()
                    && self.mt.held.as_ref().is_some_and(|h| h.trained_gen == Some(self.corpus_gen));
                self.mt.result = Some(Rc::new(Translated { input, view: *result, bleu, model, trained_on_these }));
            }
            Response::MtMissing { job } => {
                if let Some(h) = &mut self.mt.held {
                    h.worker_gen = None;
                }
                let ours = self.mt.translating.take_if(|(id, _)| *id == job).is_some()
                    || self.job.take_if(|j| j.id == job && j.kind == JobKind::TranslateAll).is_some();
                if ours {
                    self.mt.note = Some(Err(
                        "The worker had been restarted and no longer held the translation model: translate again (the model is sent along)."
                            .into(),
                    ));
                }
            }
            Response::Stopped { message } => {
                self.worker_stopped = true;
                self.worker(Response::Failed { job: None, message }, now);
            }
            Response::Failed { job: None, message } => {
                // The worker itself failed (and may have been restarted): what it
                // was asked is not coming, and the model is sent again next time.
                if let Some(h) = &mut self.mt.held {
                    h.worker_gen = None;
                }
                if self.mt.translating.take().is_some() {
                    self.mt.note = Some(Err(message.clone()));
                }
                if self.mt.loading.take().is_some() {
                    self.slots.slot_mut(Slot::TranslationModel).message = Some(Err(message.clone()));
                }
                // Whatever job was running is not coming back either; the
                // fresh worker holds no alignment to explain.
                self.worker_gen = self.worker_gen.next();
                let again = match self.job.as_ref().map(|j| j.kind) {
                    Some(JobKind::Train) => ": train again",
                    Some(JobKind::Align) => ": align again",
                    Some(JobKind::TrainMt) => ": train the translation model again",
                    Some(JobKind::TranslateAll) => ": translate again",
                    None => "",
                };
                let message = format!("{message}{again}.");
                match self.job.take().map(|j| j.kind) {
                    Some(JobKind::TrainMt | JobKind::TranslateAll) => self.mt.note = Some(Err(message)),
                    _ => {
                        self.job_note = Some(Err(message));
                        self.job_note_on_training_data = false;
                    }
                }
            }
            Response::Failed { job: Some(job), message } => {
                if let Some((_, input)) = self.mt.translating.take_if(|(id, _)| *id == job) {
                    // A pasted tree that does not read: shown with it.
                    match input {
                        Some(_) => self.mt.note = Some(Err(message)),
                        None => self.mt.input_error = Some(message),
                    }
                } else if self.mt.loading.take_if(|id| *id == job).is_some() {
                    self.slots.slot_mut(Slot::TranslationModel).message = Some(Err(message));
                } else if job_is(&self.job, job) {
                    match self.job.take().map(|j| j.kind) {
                        Some(JobKind::TrainMt | JobKind::TranslateAll) => self.mt.note = Some(Err(message)),
                        _ => {
                            self.job_note = Some(Err(message));
                            self.job_note_on_training_data = false;
                        }
                    }
                }
            }
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
            self.explained = Some(Explained { pair, source, target, result: None });
            effects.push(Effect::Post(Request::Explain { pair, source, target }));
        }
        // A request to the job worker starts a fresh one if it had died.
        if effects.iter().any(|e| matches!(e, Effect::Post(_) | Effect::PostFile(..) | Effect::RestartJobWorker)) {
            self.worker_stopped = false;
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
            Action::TrainMt { now } => {
                let needs_gold = s.mt.extract != ExtractMethod::Word;
                if s.job.is_none() && (!needs_gold || s.corpus.gold_links() > 0) {
                    let id = s.job_id();
                    s.start_job(id, JobKind::TrainMt, now);
                    effects.push(Effect::Post(Request::TrainMt {
                        job: id,
                        corpus: CorpusText::of(&s.corpus),
                        system: s.mt.system,
                        extract: s.mt.extract,
                        lm: s.slots.lm_file(),
                    }));
                }
            }
            Action::TranslatePair(k) => {
                if let Some(input) = s.pair_input(k) {
                    s.translate(Some(input), &mut effects);
                }
            }
            Action::TranslatePasted => s.translate(None, &mut effects),
            Action::TranslateAll { now } => {
                // The pasted tree's error belongs to it, not beside the corpus's result.
                s.mt.input_error = None;
                if s.job.is_none() {
                    if let Some(model) = s.held_model(&mut effects) {
                        let id = s.job_id();
                        s.start_job(id, JobKind::TranslateAll, now);
                        let sources = s.corpus.pairs.iter().map(|p| p.source.to_bracketed()).collect();
                        effects.push(Effect::Post(Request::TranslateAll { job: id, model, sources }));
                    }
                }
            }
            Action::DownloadMt => {
                if let Some(h) = &s.mt.held {
                    let body = match &h.source {
                        MtSource::Text(text) => DownloadBody::Text { text: text.clone(), mime: "application/json" },
                        MtSource::File(handle) => DownloadBody::File(*handle),
                    };
                    effects.push(Effect::Download { name: h.name.clone(), body });
                }
            }
            Action::Worker { response, now } => s.worker(response, now),
            Action::Exercise(a) => {
                if let Some(d) = s.classroom.apply(a, &s.corpus, &s.teach.links) {
                    let body = DownloadBody::Text { text: d.json.into(), mime: "application/json" };
                    effects.push(Effect::Download { name: d.name, body });
                }
            }
            Action::Tick(now) => {
                if let Some(j) = &mut s.job {
                    j.now = now;
                }
            }
            Action::RestartWorker => {
                if std::mem::take(&mut s.worker_stopped) {
                    effects.push(Effect::RestartJobWorker);
                    s.job_note = Some(Ok("A fresh worker was started.".into()));
                    s.job_note_on_training_data = false;
                }
            }
            Action::Cancel => {
                effects.push(Effect::RestartJobWorker);
                s.worker_gen = s.worker_gen.next();
                s.mt.translating = None;
                if s.mt.loading.take().is_some() {
                    s.slots.slot_mut(Slot::TranslationModel).message =
                        Some(Err("not read: the worker was restarted; load the file again".into()));
                }
                if let Some(j) = s.job.take() {
                    let note = Some(Err(format!(
                        "Cancelled after {:.1} s (during {}); the worker was stopped and restarted.",
                        j.elapsed_seconds(),
                        j.stage
                    )));
                    // Next to the panel that started the job.
                    if matches!(j.kind, JobKind::TrainMt | JobKind::TranslateAll) {
                        s.mt.note = note;
                    } else {
                        s.job_note = note;
                        s.job_note_on_training_data = false;
                    }
                }
                if s.explained.as_ref().is_some_and(|e| e.result.is_none()) {
                    s.explained = None;
                }
            }
            Action::Restore { session, mt_file } => effects.extend(s.restore(*session, mt_file)),
            Action::StartFresh => {
                let worker_gen = s.worker_gen.next();
                let last_job = s.last_job;
                *s = State::new();
                (s.worker_gen, s.last_job) = (worker_gen, last_job);
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
            Action::SortBy(key) => {
                s.sort = if s.sort.0 == key { (key, !s.sort.1) } else { (key, true) };
            }
            Action::SetMtSystem(system) => s.mt.system = system,
            Action::SetMtExtract(extract) => s.mt.extract = extract,
            Action::SetMtInput(text) => {
                s.mt.input = text;
                s.mt.input_error = None;
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
    use crate::align::model::DecisionThreshold;
    use crate::app::alignment::PairsTraining;
    use crate::ui::folds::Side;
    use crate::ui::load;
    use crate::ui::protocol::LexiconFiles;

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
    fn bleu_of_a_pair_the_model_was_trained_on_carries_the_training_data_warning() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::TrainMt { now: 0.0 });
        let [Effect::Post(Request::TrainMt { job, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let ready = Response::MtReady { job: *job, model: *job, summary: "MS".into(), json: Some("{}".into()) };
        s.apply(Action::Worker { response: ready, now: 1.0 });
        let view = TranslationView {
            system: SystemKind::Ms,
            words: vec!["x".into()],
            score: -1.0,
            features: vec![],
            feature_names: vec![],
            weights: vec![],
            steps: vec![],
            phrases: vec![],
            nbest: vec![],
            seconds: 0.1,
            source_notes: vec![],
            provenance: vec![],
        };
        let translate = |s: &mut State, action: Action| {
            let effects = s.apply(action);
            let Some(Effect::Post(Request::Translate { job, source, pasted, .. })) = effects.last() else {
                panic!("{effects:?}")
            };
            // As the worker answers: a pasted tree comes back read.
            let source = pasted.then(|| load::WireTree::from(&Tree::parse_one(source, "pasted tree").unwrap()));
            let response = Response::Translated { job: *job, result: Box::new(view.clone()), source };
            s.apply(Action::Worker { response, now: 2.0 });
            s.mt.result.as_ref().map(|r| (r.bleu.is_some(), r.trained_on_these))
        };
        assert_eq!(translate(&mut s, Action::TranslatePair(2)), Some((true, true)));
        s.apply(Action::SetMtInput("(S (A a))".into()));
        assert_eq!(translate(&mut s, Action::TranslatePasted), Some((false, false)), "no reference, no score");
        // Other pairs loaded: the model was not trained on them.
        read(&mut s, "x.src", "(S (A a))\n", None);
        read(&mut s, "x.trg", "(S (B b))\n", None);
        assert_eq!(translate(&mut s, Action::TranslatePair(0)), Some((true, false)));
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
        s.apply(Action::Cancel);
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
        assert_eq!(s.model.as_ref().and_then(|m| m.trained_on).map(|t| t.gen == s.corpus_gen), Some(false));
        let unmarked = s.model.clone().map(|m| LoadedAlignmentModel { trained_on: None, ..m });
        assert_eq!(format!("{:?}", r.model), format!("{unmarked:?}"));
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
        assert_eq!((r.corpus_name.as_str(), r.teach.links.len(), r.model.is_none()), (SAMPLE_NAME, 0, true));
    }

    /// Issue 12: a worker that dies during a job ends the job with the
    /// news; the page offers a fresh worker (or the next job starts one)
    /// and keeps the data and results.
    #[test]
    fn a_worker_that_died_is_offered_again_and_the_data_stays() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Train(TrainAction::Train { now: 1.0 }));
        let [Effect::Post(Request::Train { job, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let (corpus, gen) = (s.corpus.clone(), s.worker_gen);
        s.apply(progress(job.0, "SVM (SMO)", 4, 10));
        let stopped = Response::Stopped { message: "The worker stopped (out of memory)".into() };
        s.apply(Action::Worker { response: stopped, now: 2.0 });
        assert!(s.job.is_none() && s.worker_stopped);
        assert_eq!(s.worker_gen, gen.next(), "the fresh worker holds no alignment");
        assert!(
            matches!(&s.job_note, Some(Err(n)) if n == "The worker stopped (out of memory): train again."),
            "{:?}",
            s.job_note
        );
        assert!(Rc::ptr_eq(&corpus, &s.corpus));
        assert_eq!(s.apply(Action::RestartWorker), vec![Effect::RestartJobWorker]);
        assert!(!s.worker_stopped && matches!(&s.job_note, Some(Ok(_))));
        assert!(s.apply(Action::RestartWorker).is_empty(), "one is running");
        // Died again: the next job starts a fresh one without the button.
        s.apply(Action::Worker { response: Response::Stopped { message: "x".into() }, now: 3.0 });
        assert!(s.worker_stopped);
        assert!(matches!(
            s.apply(Action::Train(TrainAction::Train { now: 4.0 })).as_slice(),
            [Effect::Post(Request::Train { .. })]
        ));
        assert!(!s.worker_stopped);
    }

    #[test]
    fn training_posts_one_request_and_cancelling_restarts_the_worker() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Train(TrainAction::Train { now: 1.0 }));
        let [Effect::Post(Request::Train { job, corpus, options, lexicon, how })] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(*corpus, CorpusText::of(&s.corpus));
        assert_eq!(Ok(options.clone()), s.form.options());
        assert_eq!(options.threshold, DecisionThreshold::Fixed(0.0), "the paper's D > 0 without held-out pairs");
        assert_eq!(*lexicon, LexiconFiles::default());
        let paper =
            PairsTraining { word_model: WordModel::FastAlign, stem_backoff: None, calibrate: false, test: false };
        assert_eq!(*how, paper, "trained on all the pairs, as `treelink train --train`");
        assert_eq!(s.job.as_ref().and_then(|j| j.split), PairSplit::of(s.corpus.len(), false, false));
        let id = *job;
        assert!(s.apply(Action::Train(TrainAction::Train { now: 2.0 })).is_empty(), "one job at a time");
        assert!(s.apply(Action::Train(TrainAction::Align { now: 2.0 })).is_empty());
        s.apply(progress(id.0 + 1, "aligning", 4, 10));
        assert_eq!(s.job.as_ref().map(|j| (j.done, j.total)), Some((0, 0)), "another job's progress");
        s.apply(progress(id.0, "aligning", 4, 10));
        let j = s.job.as_ref().map(|j| (j.id, j.stage.clone(), j.done, j.total));
        assert_eq!(j, Some((id, "aligning".to_string(), 4, 10)));
        let gen = s.worker_gen;
        assert_eq!(s.apply(Action::Cancel), vec![Effect::RestartJobWorker]);
        assert!(s.job.is_none());
        assert_eq!(s.worker_gen, gen.next());
        assert!(matches!(&s.job_note, Some(Err(n)) if n.starts_with("Cancelled after") && n.contains("aligning")));
        // A late answer of the cancelled job changes nothing.
        s.apply(progress(id.0, "aligning", 5, 10));
        assert!(s.job.is_none());
        // No model yet: nothing to align with, nor to download.
        assert!(s.apply(Action::Train(TrainAction::Align { now: 3.0 })).is_empty());
        assert!(s.apply(Action::Train(TrainAction::DownloadModel)).is_empty());
    }

    /// Issue 14, item 7: a held-out test aligns and scores the last 20%
    /// alone, without the training-data warning; the pairs before it are
    /// marked as the model's training pairs (not aligned, not explained),
    /// and their scores carry the warning once the model aligns them.
    #[test]
    fn a_held_out_test_scores_the_held_out_pairs_and_marks_the_training_pairs() {
        let mut s = State::with_sample();
        s.apply(Action::Train(TrainAction::Form(FormAction::SetHoldOutTest(true))));
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let trained = Response::Trained { job: id, model: "{\"m\":1}".into(), summary: "a model".into() };
        s.apply(Action::Worker { response: trained, now: 1.0 });
        let trained_on = s.model.as_ref().and_then(|m| m.trained_on);
        assert_eq!(trained_on, Some(TrainedOn { gen: s.corpus_gen, first_unseen: 126 }));
        // Kept for the next visit, with the choices.
        let mut r = State::with_sample();
        r.apply(Action::Restore { session: Box::new(s.session()), mt_file: None });
        assert_eq!(
            r.model.as_ref().and_then(|m| m.trained_on),
            Some(TrainedOn { gen: r.corpus_gen, first_unseen: 126 })
        );
        assert!(r.form.test && !r.form.calibrate && r.form.pairs_training() == s.form.pairs_training());
        let (n, first) = (s.corpus.len(), 126);
        // An answer whose pairs do not end with the corpus's (all n after the first 126) is refused.
        let short = Response::Aligned {
            job: id,
            searches: vec![Search::default(); n],
            baseline: vec![Vec::new(); n],
            lexicon: "held out".into(),
            first,
        };
        s.apply(Action::Worker { response: short, now: 2.0 });
        assert!(s.results().is_none() && matches!(&s.job_note, Some(Err(_))), "{:?}", s.job_note);

        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 3000.0 })));
        let trained = Response::Trained { job: id, model: "{\"m\":1}".into(), summary: "a model".into() };
        s.apply(Action::Worker { response: trained, now: 4000.0 });
        // The worker's searches of the held-out pairs: each takes its gold links.
        let searches: Vec<Search> = s.corpus.pairs[first..]
            .iter()
            .map(|p| Search { links: p.gold.iter().map(|l| (l.source, l.target)).collect(), steps: Vec::new() })
            .collect();
        let baseline = vec![Vec::new(); n - first];
        let aligned = Response::Aligned { job: id, searches, baseline, lexicon: "held out".into(), first };
        s.apply(Action::Worker { response: aligned, now: 5000.0 });
        let r = s.results().expect("results");
        assert_eq!((r.first_aligned, r.first_unseen, r.trained_on_these(), r.pairs()), (126, 126, false, 126..157));
        assert!(!r.aligned(0) && !r.aligned(125) && r.aligned(126) && r.aligned(156) && !r.aligned(157));
        let held_out = r.held_out.as_deref().unwrap_or_default();
        assert!(held_out.starts_with("Held out: pairs 127–157, the last 20% of the 157 pairs loaded"), "{held_out}");
        assert!(held_out.contains("trained on pairs 1–126, pairs 127–157 held out as the test"), "{held_out}");
        // The scores count the held-out pairs alone.
        let as_gold = |p: &TreePair| p.gold.iter().map(|l| Link::good(l.source, l.target)).collect::<Vec<_>>();
        let held: Counts =
            s.corpus.pairs[first..].iter().fold(Counts::default(), |c, p| c + Counts::of_pair(p, &as_gold(p)));
        assert!(held.correct > 100, "{held}");
        assert_eq!(r.model_total, held);
        assert_eq!(r.model_counts[0], Counts::of_pair(&s.corpus.pairs[0], &[]), "a training pair: no links");
        let note = s.job_note.clone().unwrap().unwrap();
        let scores = format!("P {:.2}, R {:.2}, F {:.2}.", held.precision(), held.recall(), held.f());
        assert_eq!(
            note,
            format!("Trained on pairs 1–126 and aligned the 31 held-out pairs 127–157 in 2.0 s: {scores}")
        );
        assert!(!s.job_note_on_training_data && !s.panels().train.note_on_training_data, "no training-data warning");
        // The exports hold the pairs aligned: 31 lines of links, the CSV numbered from 127.
        let r = s.results().unwrap().clone();
        let exported = |s: &mut State, file| match s.apply(Action::Export(file)).as_slice() {
            [Effect::Download { body: DownloadBody::Text { text, .. }, .. }] => text.to_string(),
            other => panic!("{other:?}"),
        };
        assert_eq!(exported(&mut s, ExportFile::PredictedLinks), write_links(&r.predicted[126..]));
        assert_eq!(
            exported(&mut s, ExportFile::SourceTiger).matches("<s ").count(),
            31,
            "the TigerXML holds the 31 pairs aligned"
        );
        let csv = exported(&mut s, ExportFile::ResultsCsv);
        assert_eq!(csv.lines().nth(1).and_then(|l| l.split(',').next()), Some("127"));
        assert_eq!(csv.lines().count(), 1 + 31 + 1);
        assert!(csv.lines().skip(1).all(|l| l.ends_with(",no")), "held out: no training pairs scored");
        // A training pair is not explained; a held-out pair is.
        s.apply(Action::Select(SelectAction::SelectPair(3)));
        s.apply(Action::Select(SelectAction::ClickSource(1)));
        assert!(s.apply(Action::Select(SelectAction::ClickTarget(2))).is_empty());
        s.apply(Action::Select(SelectAction::SelectPair(130)));
        s.apply(Action::Select(SelectAction::ClickSource(1)));
        assert_eq!(
            s.apply(Action::Select(SelectAction::ClickTarget(2))),
            vec![Effect::Post(Request::Explain { pair: 130, source: 1, target: 2 })]
        );

        // The same model aligning all the pairs: their scores include the
        // training pairs', and carry the warning.
        // Align with the model held, every pair answered.
        let align_all = |s: &mut State, now: f64| {
            let id = started(&s.apply(Action::Train(TrainAction::Align { now })));
            let aligned = empty_alignment(id, n, "all", 0);
            s.apply(Action::Worker { response: aligned, now: now + 1.0 });
        };
        align_all(&mut s, 6.0);
        let r = s.results().unwrap();
        assert_eq!((r.first_aligned, r.first_unseen, r.trained_on_these(), r.held_out.is_none()), (0, 126, true, true));
        assert!(s.job_note_on_training_data && s.panels().train.note_on_training_data);
        // The CSV marks the training pairs' rows, and the corpus row, as the page warns.
        let csv = exported(&mut s, ExportFile::ResultsCsv);
        let rows: Vec<&str> = csv.lines().collect();
        assert!(rows[0].ends_with(",model_on_training_data"));
        assert!(rows[1].starts_with("1,") && rows[1].ends_with(",yes") && rows[126].ends_with(",yes"));
        assert!(rows[127].starts_with("127,") && rows[127].ends_with(",no") && rows[157].ends_with(",no"));
        assert!(rows[158].starts_with("corpus,") && rows[158].ends_with(",yes"));
        // An uploaded model trained no pair here: no warning.
        s.model.as_mut().unwrap().trained_on = None;
        align_all(&mut s, 8.0);
        assert_eq!(s.results().map(|r| (r.first_unseen, r.trained_on_these())), Some((0, false)));
        assert!(!s.job_note_on_training_data);
    }

    #[test]
    fn a_trained_model_downloads_aligns_and_explains_the_selected_pair() {
        let mut s = State::with_sample();
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let model = "{\"format\":\"treelink-alignment-model\"}".to_string();
        let trained = Response::Trained { job: id, model: model.clone(), summary: "a model".into() };
        s.apply(Action::Worker { response: trained, now: 1.0 });
        assert_eq!(s.model.as_ref().map(|m| m.origin.to_string()).as_deref(), Some("trained in this page"));
        assert_eq!(
            s.session().alignment_model,
            Some(("a model".to_string(), model.clone())),
            "kept for the next visit"
        );
        let download = s.apply(Action::Train(TrainAction::DownloadModel));
        let [Effect::Download { name, body: DownloadBody::Text { text, mime } }] = &download[..] else {
            panic!("{download:?}")
        };
        assert_eq!((name.as_str(), &**text, *mime), ("treelink-model.json", model.as_str(), "application/json"));
        let n = s.corpus.len();
        let searches = vec![Search::default(); n];
        let aligned =
            Response::Aligned { job: id, searches, baseline: vec![Vec::new(); n], lexicon: "trained".into(), first: 0 };
        assert!(s.apply(Action::Worker { response: aligned, now: 2.0 }).is_empty());
        assert!(s.results().is_some());
        // Selecting a node pair with results in hand asks the worker why, once.
        assert!(s.apply(Action::Select(SelectAction::ClickSource(1))).is_empty());
        let explain = s.apply(Action::Select(SelectAction::ClickTarget(2)));
        assert_eq!(explain, vec![Effect::Post(Request::Explain { pair: 0, source: 1, target: 2 })]);
        assert!(s
            .explained
            .as_ref()
            .is_some_and(|e| (e.pair, e.source, e.target, e.result.is_none()) == (0, 1, 2, true)));
        assert!(s.apply(Action::SetLambda("0.3".into())).is_empty());
        // Aligning again posts the model the page holds.
        let effects = s.apply(Action::Train(TrainAction::Align { now: 3.0 }));
        assert!(matches!(&effects[..], [Effect::Post(Request::Align { model: m, .. })] if *m == model), "{effects:?}");
    }

    #[test]
    fn an_uploaded_translation_model_goes_to_the_worker_as_a_file_and_is_sent_again_after_a_restart() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Load(LoadAction::MtFilePicked { name: "big.tlmt".into(), file: FileHandle(7) }));
        let [Effect::PostFile(Request::LoadMtFile { job, name }, FileHandle(7))] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!((s.mt.loading, name.as_str()), (Some(*job), "big.tlmt"));
        let ready = Response::MtReady { job: *job, model: *job, summary: "MS".into(), json: None };
        s.apply(Action::Worker { response: ready, now: 1.0 });
        let model = *job;
        let effects = s.apply(Action::TranslatePair(0));
        let [Effect::Post(Request::Translate { model: m, nbest: 10, .. })] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(*m, model);
        // A restarted worker holds no model: it is sent again, first.
        s.apply(Action::Cancel);
        let effects = s.apply(Action::TranslatePair(1));
        assert!(
            matches!(&effects[..], [Effect::PostFile(Request::LoadMtFile { job, .. }, FileHandle(7)), Effect::Post(Request::Translate { model: m, .. })] if *job == model && *m == model),
            "{effects:?}"
        );
        assert!(
            matches!(&s.apply(Action::DownloadMt)[..], [Effect::Download { body: DownloadBody::File(FileHandle(7)), name }] if name == "big.tlmt")
        );
        // A pasted tree goes to the worker as typed, which reads it there
        // (the page parses nothing): one that does not read is shown with it.
        s.apply(Action::SetMtInput("(S (A a)".into()));
        let effects = s.apply(Action::TranslatePasted);
        let [Effect::Post(Request::Translate { job, source, pasted: true, .. })] = effects.as_slice() else {
            panic!("{effects:?}")
        };
        assert_eq!(source, "(S (A a)");
        let message = Tree::parse_one(source, "pasted tree").unwrap_err().to_string(); // the worker's answer
        s.apply(Action::Worker { response: Response::Failed { job: Some(*job), message }, now: 2.0 });
        assert!(s.mt.input_error.as_deref().is_some_and(|e| e.starts_with("pasted tree:")), "{:?}", s.mt.input_error);
        assert!(s.mt.note.as_ref().is_none_or(|n| n.is_ok()), "{:?}", s.mt.note);
        // One that reads comes back with the tree the worker read, drawn with its translation.
        s.apply(Action::SetMtInput("(S (A a))".into()));
        let effects = s.apply(Action::TranslatePasted);
        let [Effect::Post(Request::Translate { job, source, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let tree = Tree::parse_one(source, "pasted tree").unwrap();
        let view = TranslationView {
            system: SystemKind::Ms,
            words: vec!["a".into()],
            score: 0.0,
            features: vec![],
            feature_names: vec![],
            weights: vec![],
            steps: vec![],
            phrases: vec![],
            nbest: vec![],
            source_notes: vec![],
            provenance: vec![],
            seconds: 0.1,
        };
        let translated =
            Response::Translated { job: *job, result: Box::new(view), source: Some(load::WireTree::from(&tree)) };
        s.apply(Action::Worker { response: translated, now: 3.0 });
        let result = s.mt.result.as_ref().expect("a translation");
        assert_eq!((result.input.label.as_str(), &result.input.source), ("the pasted tree", &tree));
        assert_eq!(s.mt.input_error, None);
    }

    #[test]
    fn a_progress_report_or_a_tick_changes_only_the_progress() {
        let mut s = State::with_sample();
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        let before = s.clone();
        s.apply(progress(id.0, "training the SVM", 3, 0));
        s.apply(Action::Tick(900.0));
        assert_ne!(s, before);
        assert!(s.same_but_progress(&before), "the panels do not re-render for progress");
        s.apply(Action::Train(TrainAction::Form(FormAction::SetField(Field::Seed, "7".into()))));
        assert!(!s.same_but_progress(&before));
        let before = s.clone();
        s.apply(Action::Cancel);
        assert!(!s.same_but_progress(&before), "a job's end shows everywhere");
    }

    #[test]
    fn a_failed_job_ends_with_its_message() {
        let mut s = State::with_sample();
        let id = started(&s.apply(Action::Train(TrainAction::Train { now: 0.0 })));
        s.apply(Action::Worker {
            response: Response::Failed { job: Some(JobId(id.0 + 5)), message: "other".into() },
            now: 1.0,
        });
        assert!(s.job.is_some(), "another job's failure is not this one's");
        s.apply(Action::Worker {
            response: Response::Failed { job: Some(id), message: "no gold links".into() },
            now: 1.0,
        });
        assert!(s.job.is_none());
        assert!(matches!(&s.job_note, Some(Err(n)) if n.contains("no gold links")), "{:?}", s.job_note);
        // The worker itself failed: whatever runs ends with its message.
        s.apply(Action::Train(TrainAction::Train { now: 0.0 }));
        let message = "the worker failed: out of memory".to_string();
        s.apply(Action::Worker { response: Response::Failed { job: None, message }, now: 1.0 });
        assert!(s.job.is_none());
        assert!(matches!(&s.job_note, Some(Err(n)) if n.contains("out of memory")), "{:?}", s.job_note);
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
