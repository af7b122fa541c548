//! The page's one state and the reducer that changes it. Views render it
//! and send [`Action`]s; the worker's answers arrive as actions too. Every
//! number shown is computed here or in the engine from this state.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::classroom::{Classroom, ExerciseAction};
use super::folds::{Folds, SavedFolds, Side};
use super::ids::{CorpusGen, JobId, WorkerGen};
pub use super::load::Slot;
use super::load::{self, CorpusOrigin, FileText, LoadAnswer, LoadRequest};
use super::protocol::{CorpusText, LexiconFiles, NamedText, Request, Response, TranslationView};
use crate::align::composite::KernelSpec;
use crate::align::explain::{curve_csv, results_csv};
use crate::align::explain::{pr_curve, predicted_links, CurvePoint, Explanation};
use crate::align::greedy::{first_conflict, Outcome, Search};
use crate::align::model::{DecisionThreshold, TrainOptions};
use crate::app::alignment::{pair_span, PairSplit, PairsTraining, HELD_OUT_PERCENT, PAGE_STEM_CHARS};
use crate::app::files::{FileKind, SNIFF_BYTES};
use crate::corpus::{Corpus, Found, TreePair};
use crate::eval::bleu::{sentence_bleu, Bleu, BleuStats};
use crate::eval::prf::Counts;
use crate::exercise::Mark;
use crate::io::links::write_links;
use crate::io::links::{swap_links_text, Link, LinkKind};
use crate::io::svg::{drawing_svg, DrawnLink, LinkStyle, DERIVATION_CSS};
use crate::io::text::counted;
use crate::io::tiger::{export_pair, PairIds, TreebankName};
use crate::kernel::DEFAULT_LAMBDA;
use crate::layout::{Drawing, Style};
use crate::lexicon::WordModel;
use crate::mt::model::SystemKind;
use crate::mt::phrase::ExtractMethod;
use crate::svm::{SvmParams, DEFAULT_C};
use crate::tree::{NodeId, Tree};

const SAMPLE_NAME: &str = "Built-in sample (SQUOIA German–Spanish, dev)";

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

/// Whether a `.json` file is a translation model, by its `format` header
/// (both model files write it first): a typed sniff, not a substring search.
pub fn is_mt_model(head: &str) -> bool {
    FileKind::sniff(FileKind::AlignmentModel, head) == FileKind::TranslationModel
}

/// A file the user gave, kept so a later file can complete it.
#[derive(Debug, Clone, PartialEq)]
pub struct Upload {
    pub name: String,
    pub text: Shared<str>,
}

impl Upload {
    fn named(&self) -> NamedText {
        NamedText { name: self.name.clone(), text: self.text.to_string() }
    }
}

/// What a slot shows: the files last given and either a summary or an
/// error, and the files in use (the last ones that read): a file that does
/// not read never replaces them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SlotStatus {
    /// The files last given (being checked, or checked).
    pub files: Vec<Upload>,
    pub message: Option<Result<String, String>>,
    /// The file worker is checking its files.
    pub checking: bool,
    /// The files in use: the last ones that read without error.
    pub kept: Vec<Upload>,
    /// What the files in use were found to hold.
    pub kept_summary: Option<String>,
    /// A file that read but deserves a warning (a lexical table covering few words).
    pub warning: Option<String>,
    /// Counts the files given, so that an answer about files given before
    /// the last ones (several checks in flight) is not taken for theirs.
    pub given: u32,
    /// Trees that read but made no pairs (their other side is missing or
    /// was refused): kept for their pair, not in use.
    pub waiting: bool,
}

impl SlotStatus {
    /// The file in use (the last that read without error).
    fn ok_file(&self) -> Option<&Upload> {
        self.kept.last()
    }

    /// After an error: what is still in use, shown next to the error.
    pub fn still_in_use(&self) -> Option<String> {
        match (&self.message, &self.kept_summary) {
            (Some(Err(_)), Some(summary)) if self.waiting => Some(format!("kept for its pair, not in use: {summary}")),
            (Some(Err(_)), Some(summary)) => Some(format!("still in use: {summary}")),
            _ => None,
        }
    }

    /// The checked files read: they are the ones in use now.
    fn keep(&mut self, summary: &str) {
        self.kept = self.files.clone();
        self.kept_summary = Some(summary.to_string());
    }
}

/// Which sub-tree pair the selected one is compared with in the kernel view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// The gold link of the selected source (else target) node, else itself.
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
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Inspect, Mode::Teach, Mode::Steps];

    /// Its name in the page's address (`#pair=12&mode=teach`).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Inspect => "inspect",
            Mode::Teach => "teach",
            Mode::Steps => "steps",
        }
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

/// The fields of the training form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Field {
    Kernel,
    Lambda,
    C,
    Thetas,
    MaxExamples,
    Seed,
}

impl Field {
    pub const ALL: [Field; 6] =
        [Field::Kernel, Field::Lambda, Field::C, Field::Thetas, Field::MaxExamples, Field::Seed];

    pub fn id(self) -> &'static str {
        match self {
            Field::Kernel => "train-kernel",
            Field::Lambda => "train-lambda",
            Field::C => "train-c",
            Field::Thetas => "train-thetas",
            Field::MaxExamples => "train-max-examples",
            Field::Seed => "train-seed",
        }
    }
}

/// The training form's texts, as typed, and the error of each bad field;
/// the in-engine lexicon's word model (`--word-model`) and stem back-off
/// (`--stem-backoff 4`); whether the last 20% of the training pairs are
/// dev to calibrate the threshold on D (`--dev`); and whether the last
/// 20% of the pairs are held out as a test (`--held-out`, then `align` on
/// them): [`PairsTraining`], split by `app::alignment::PairSplit`.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainForm {
    pub values: BTreeMap<Field, String>,
    pub errors: BTreeMap<Field, String>,
    pub word_model: WordModel,
    pub calibrate: bool,
    pub test: bool,
    pub stem_backoff: bool,
}

impl Default for TrainForm {
    /// The paper's settings: the best kernel, λ = 0.4, C = 2.4, equal θ.
    fn default() -> Self {
        let d = TrainOptions::default();
        let values = [
            (Field::Kernel, KernelSpec::paper_best().to_string()),
            (Field::Lambda, DEFAULT_LAMBDA.to_string()),
            (Field::C, DEFAULT_C.to_string()),
            (Field::Thetas, String::new()),
            (Field::MaxExamples, d.max_examples.to_string()),
            (Field::Seed, d.seed.to_string()),
        ];
        TrainForm {
            values: values.into_iter().collect(),
            errors: BTreeMap::new(),
            word_model: WordModel::default(),
            calibrate: false,
            test: false,
            stem_backoff: false,
        }
    }
}

impl TrainForm {
    /// The choices beyond the options, as the worker takes them.
    pub fn pairs_training(&self) -> PairsTraining {
        PairsTraining {
            word_model: self.word_model,
            stem_backoff: self.stem_backoff.then_some(PAGE_STEM_CHARS),
            calibrate: self.calibrate,
            test: self.test,
        }
    }

    pub fn value(&self, f: Field) -> &str {
        self.values.get(&f).map_or("", String::as_str)
    }

    /// The kernel spec as typed (with its default equal θ), if it parses.
    pub fn spec(&self) -> Option<KernelSpec> {
        self.value(Field::Kernel).trim().parse().ok()
    }

    /// The options the form describes, or the error of each bad field.
    pub fn options(&self) -> Result<TrainOptions, BTreeMap<Field, String>> {
        let mut errors = BTreeMap::new();
        let number = |f: Field, errors: &mut BTreeMap<Field, String>, what: &str| {
            let text = self.value(f).trim();
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => Some(v),
                _ => {
                    errors.insert(f, format!("expected {what} greater than 0, found '{text}'"));
                    None
                }
            }
        };
        let lambda = number(Field::Lambda, &mut errors, "a decay λ");
        let c = number(Field::C, &mut errors, "a cost C");
        let max_examples = match self.value(Field::MaxExamples).trim().parse::<usize>() {
            Ok(n) if n >= 2 => Some(n),
            _ => {
                let found = self.value(Field::MaxExamples).trim().to_string();
                errors.insert(Field::MaxExamples, format!("expected a whole number of at least 2, found '{found}'"));
                None
            }
        };
        let seed = match self.value(Field::Seed).trim().parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                let found = self.value(Field::Seed).trim().to_string();
                errors.insert(Field::Seed, format!("expected a whole number, found '{found}'"));
                None
            }
        };
        let spec = match self.value(Field::Kernel).trim().parse::<KernelSpec>() {
            Ok(spec) => Some(spec),
            Err(e) => {
                errors.insert(Field::Kernel, e.to_string());
                None
            }
        };
        let spec = spec.and_then(|spec| {
            let text = self.value(Field::Thetas).trim();
            if text.is_empty() {
                return Some(spec);
            }
            let parsed: Result<Vec<f64>, _> = text.split(',').map(|t| t.trim().parse::<f64>()).collect();
            let names = spec.component_names().join(", ");
            let n = spec.components();
            match parsed.ok().and_then(|t| spec.with_thetas(&t)) {
                Some(spec) => Some(spec),
                None => {
                    errors.insert(
                        Field::Thetas,
                        format!("expected {n} comma-separated weights ≥ 0, not all 0, one per component ({names}); found '{text}'"),
                    );
                    None
                }
            }
        });
        match (spec, lambda, c, max_examples, seed) {
            (Some(mut spec), Some(lambda), Some(c), Some(max_examples), Some(seed)) if errors.is_empty() => {
                spec.lambda = lambda;
                Ok(TrainOptions {
                    spec,
                    c,
                    max_examples,
                    seed,
                    // Progress more often than the CLI's default (it changes nothing else).
                    svm: SvmParams { progress_every: 100, ..SvmParams::default() },
                    // `--threshold auto`: with the held-out dev, the one that maximises its F.
                    threshold: if self.calibrate {
                        DecisionThreshold::Calibrated
                    } else {
                        DecisionThreshold::Fixed(0.0)
                    },
                    ..TrainOptions::default()
                })
            }
            _ => Err(errors),
        }
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
/// its trees): the first `seen` pairs (training pairs and dev) of the
/// corpus of generation `gen`. Scores of those pairs carry
/// [`ON_TRAINING_DATA`]; the held-out pairs after them do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrainedOn {
    pub gen: CorpusGen,
    pub seen: usize,
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
    /// During SMO: the largest KKT violation and ε.
    pub kkt: Option<(f64, f64)>,
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
    /// The model was trained in the page on the pairs before this one (0: none of these).
    pub seen: usize,
    /// The pairs before this one were not aligned (the training pairs of a
    /// held-out test); every vector below still has one entry per pair
    /// loaded (empty for those), and the scores count the pairs from here.
    pub first: usize,
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
        self.first < self.seen
    }

    /// What the page says of a pair these results did not align (a training
    /// pair of a held-out test), before what follows for the view.
    pub fn not_aligned_note(&self) -> String {
        format!(
            "This pair trained the model of the held-out test: only the held-out pairs {} were aligned",
            pair_span(self.pairs())
        )
    }

    /// The results of pairs `first..` of `corpus` (their searches and the baseline's links).
    fn new(
        corpus: &Corpus,
        corpus_gen: CorpusGen,
        model: String,
        lexicon: String,
        first: usize,
        searches: Vec<Search>,
        baseline: Vec<Vec<(NodeId, NodeId)>>,
    ) -> Results {
        let searches: Vec<Search> = std::iter::repeat_with(Search::default).take(first).chain(searches).collect();
        let predicted = searches.iter().map(predicted_links).collect();
        let baseline = std::iter::repeat_n(Vec::new(), first)
            .chain(baseline.into_iter().map(|l| l.into_iter().map(|(s, t)| Link::good(s, t)).collect()))
            .collect();
        let mut r = Results {
            corpus_gen,
            model,
            seen: 0,
            first,
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
        let total = |counts: &[Counts]| counts.iter().skip(self.first).fold(Counts::default(), |a, &b| a + b);
        self.model_total = total(&self.model_counts);
        self.baseline_total = total(&self.baseline_counts);
        let first = self.first.min(corpus.len()).min(self.searches.len());
        self.curve = pr_curve(&corpus.pairs[first..], &self.searches[first..]);
    }

    /// Whether pair `k` was aligned (not a training pair of a held-out test).
    pub fn aligned(&self, k: usize) -> bool {
        k >= self.first && k < self.searches.len()
    }

    /// The pairs aligned, as a range of pair indices.
    pub fn pairs(&self) -> std::ops::Range<usize> {
        self.first..self.searches.len()
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
/// and the page's file registry (`ui::files`, wasm32) gives the file back.
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

/// One change to the hand links of a pair: its links before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkEdit {
    pub pair: usize,
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
    pub links: BTreeMap<usize, Vec<(NodeId, NodeId)>>,
    pub pending: Option<NodeId>,
    pub message: Option<Result<String, String>>,
    pub reveal_gold: bool,
    /// The step of the model's search shown in [`Mode::Steps`].
    pub step: usize,
    /// The link last refused, drawn on the diagram with the criterion it
    /// breaks, until the student's next click.
    pub refused: Option<(NodeId, NodeId, String)>,
}

/// Finding a pair: the query as typed and the pairs it finds ([`Corpus::find`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FindPair {
    pub query: String,
    pub found: Vec<(usize, Found)>,
    /// What the last *add to the exercise* did, until the next search.
    pub added: Option<String>,
}

impl FindPair {
    /// Pairs listed at most.
    pub const LIMIT: usize = 50;
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
    /// The restored alignment model was trained on the first this many pairs.
    pub model_seen: Option<usize>,
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
    /// A pair the address asked for beyond the pairs loaded (opened when pairs that have it arrive).
    pub wanted_pair: Option<usize>,
    pub pair: usize,
    pub sel_source: Option<NodeId>,
    pub sel_target: Option<NodeId>,
    pub compare: Compare,
    pub lambda: f64,
    pub lambda_text: String,
    pub lambda_error: Option<String>,
    /// Status of each [`Slot`], indexed as in [`Slot::ALL`].
    pub slots: [SlotStatus; 12],
    /// A message about a file that fits no slot.
    pub stray: Option<String>,
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
    pub mode: Mode,
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
    /// The built-in sample is being read by the file worker (this request).
    pub sample_loading: Option<JobId>,
}

/// What the reducer asks the page to do, carried out by the one hook in
/// the view that talks to the workers (`ui::view`): the state stays plain
/// data and the reducer's tests see what it asked for.
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
    /// back as [`Action::FileRead`] (or [`Action::FileFailed`]); with
    /// `sniff_mt`, a `.json` file whose head says it is a translation model
    /// goes to the job worker unread instead ([`Action::MtFilePicked`]).
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

pub enum Action {
    /// A file's text; `slot` when it was picked for one, else routed by name.
    FileRead {
        name: String,
        text: String,
        slot: Option<Slot>,
    },
    /// A file that could not be read as text: the error (naming the file) goes
    /// next to the input it was meant for (picked for `slot`, or by its name).
    FileFailed {
        name: String,
        error: String,
        slot: Option<Slot>,
    },
    /// The file worker's answer, with the corpus it built (received in parts).
    Loaded {
        answer: LoadAnswer,
        corpus: Option<(Corpus, Option<Vec<PairIds>>)>,
    },
    /// The file worker failed (or its answer did not decode): what it was checking stays unread.
    LoadFailed(String),
    LoadSample,
    /// Read the loaded pairs the other way (target as source), with every
    /// per-side file: trees, links, lexical tables, word links.
    SwapSides,
    SelectPair(usize),
    /// Previous (-1) or next (+1) pair.
    StepPair(isize),
    ClickSource(NodeId),
    ClickTarget(NodeId),
    /// Clicking a drawn link: select its two nodes (or, teaching, remove it).
    ClickLink(NodeId, NodeId),
    ClearSelection,
    /// Fold a phrase node of the diagram to its label and yield, or unfold it.
    ToggleFold(Side, NodeId),
    /// Unfold every node of the current pair.
    UnfoldAll,
    SetCompare(Compare),
    SetLambda(String),
    SetField(Field, String),
    /// The in-engine lexicon's word model for training.
    SetWordModel(WordModel),
    /// Hold out the last 20% of the training pairs as dev (calibrated threshold), or not.
    SetCalibrate(bool),
    /// Hold out the last 20% of the pairs as a test (train on the rest, score them), or not.
    SetHoldOutTest(bool),
    /// The in-engine lexicon's stem back-off (`--stem-backoff 4`), on or off.
    SetStemBackoff(bool),
    /// Train on the loaded pairs, then align them (the training form's options).
    Train {
        now: f64,
    },
    /// Align the loaded pairs with the model in hand.
    Align {
        now: f64,
    },
    DownloadModel,
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
    SetMode(Mode),
    TeachClear,
    /// Find pairs by a number, a label or a word.
    Find(String),
    /// Add the pairs found (all, or the found pair with this index) to the
    /// exercise form's pairs ([`Classroom::add_pairs`]).
    AddFoundToExercise(Option<usize>),
    /// The session kept from the last visit, with the translation model file kept apart.
    Restore {
        session: Box<Session>,
        mt_file: Option<FileHandle>,
    },
    /// Start fresh: the built-in sample and the default settings (the page forgets the kept session).
    StartFresh,
    /// The page's address changed (on load, back/forward, a shared link): its fragment.
    OpenLocation(String),
    /// Undo the last change to the hand links (Ctrl+Z), or redo the last undone (Ctrl+Shift+Z).
    Undo,
    Redo,
    RevealGold(bool),
    SetStep(usize),
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
    /// A translation model file, handed to the worker unread.
    MtFilePicked {
        name: String,
        file: FileHandle,
    },
    /// The exercise panel.
    Exercise(ExerciseAction),
    /// Files picked for `slot` (or dropped: routed by name), held unread by
    /// the page: each is read as text ([`Effect::ReadFile`]), or a
    /// translation model goes to the job worker unread.
    FilesGiven {
        files: Vec<(String, FileHandle)>,
        slot: Option<Slot>,
    },
    /// The page's address query on start (`?exercise=FILE.json` opens that exercise).
    OpenQuery(String),
    /// Offer one of the export files.
    Export(ExportFile),
}

/// The gold link a selected node pair `(s, t)` is best compared with: one
/// at `s`, else at `t`, else at the nearest ancestor of `s` (then of `t`),
/// else the first: a wrong link is compared with a gold one, not with itself.
/// `None` only when the pair has no gold link.
fn nearest_gold(pair: &TreePair, s: NodeId, t: NodeId) -> Option<&Link> {
    let gold = &pair.gold;
    let at_source = |n: NodeId| gold.iter().find(|l| l.source == n);
    let at_target = |n: NodeId| gold.iter().find(|l| l.target == n);
    let up = |tree: &Tree, n: NodeId| -> Vec<NodeId> {
        if n < tree.len() {
            tree.ancestors(n).collect()
        } else {
            Vec::new()
        }
    };
    at_source(s)
        .or_else(|| at_target(t))
        .or_else(|| up(&pair.source, s).into_iter().find_map(at_source))
        .or_else(|| up(&pair.target, t).into_iter().find_map(at_target))
        .or_else(|| gold.first())
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
            wanted_pair,
            pair,
            sel_source,
            sel_target,
            compare,
            lambda,
            lambda_text,
            lambda_error,
            slots,
            stray,
            form,
            model,
            results,
            job,
            job_note,
            job_note_on_training_data,
            explained,
            worker_gen,
            worker_stopped,
            mode,
            teach,
            folds,
            sort,
            mt,
            classroom,
            find,
            restoring,
            last_job,
            export_error,
            sample_loading,
        } = self;
        let which = |j: &Option<Job>| j.as_ref().map(|j| (j.id, j.kind, j.corpus_gen, j.started.to_bits()));
        which(job) == which(&other.job)
            && Rc::ptr_eq(corpus, &other.corpus)
            && *corpus_name == other.corpus_name
            && *corpus_gen == other.corpus_gen
            && *tiger_ids == other.tiger_ids
            && *sides_swapped == other.sides_swapped
            && *wanted_pair == other.wanted_pair
            && *pair == other.pair
            && *sel_source == other.sel_source
            && *sel_target == other.sel_target
            && *compare == other.compare
            && lambda.to_bits() == other.lambda.to_bits()
            && *lambda_text == other.lambda_text
            && *lambda_error == other.lambda_error
            && *slots == other.slots
            && *stray == other.stray
            && *form == other.form
            && *model == other.model
            && *results == other.results
            && *job_note == other.job_note
            && *job_note_on_training_data == other.job_note_on_training_data
            && *explained == other.explained
            && *worker_gen == other.worker_gen
            && *worker_stopped == other.worker_stopped
            && *mode == other.mode
            && *teach == other.teach
            && *folds == other.folds
            && *sort == other.sort
            && *mt == other.mt
            && *classroom == other.classroom
            && *find == other.find
            && *restoring == other.restoring
            && *last_job == other.last_job
            && *export_error == other.export_error
            && *sample_loading == other.sample_loading
    }

    /// The state the page starts in: no pairs yet, and the built-in sample
    /// to be read by the file worker ([`Action::LoadSample`], which the page
    /// sends first): the page parses nothing on its own thread.
    pub fn new() -> Self {
        State {
            corpus: Rc::default(),
            corpus_name: SAMPLE_NAME.into(),
            corpus_gen: CorpusGen::default(),
            tiger_ids: None,
            sides_swapped: false,
            wanted_pair: None,
            pair: 0,
            sel_source: None,
            sel_target: None,
            compare: Compare::Auto,
            lambda: DEFAULT_LAMBDA,
            lambda_text: DEFAULT_LAMBDA.to_string(),
            lambda_error: None,
            slots: Default::default(),
            stray: None,
            form: TrainForm::default(),
            model: None,
            results: None,
            job: None,
            job_note: None,
            job_note_on_training_data: false,
            explained: None,
            worker_gen: WorkerGen::default(),
            worker_stopped: false,
            mode: Mode::Inspect,
            teach: Teach::default(),
            folds: Folds::default(),
            sort: (SortKey::Pair, true),
            mt: MtState::default(),
            classroom: Classroom::default(),
            find: FindPair::default(),
            restoring: None,
            last_job: JobId(0),
            export_error: None,
            sample_loading: None,
        }
    }

    /// The state once the built-in sample is read (what the page holds once
    /// the file worker answered [`Action::LoadSample`]; the sample read here).
    pub fn with_sample() -> Self {
        State { corpus: Rc::new(load::sample()), ..State::new() }
    }

    /// Files (or the sample) are being read: a restored session waits for them.
    fn reading(&self) -> bool {
        self.sample_loading.is_some() || Slot::ALL.iter().any(|&s| self.slot(s).checking)
    }

    /// The page's address fragment for the pair and mode shown.
    pub fn location(&self) -> String {
        format!("#pair={}&mode={}", self.pair + 1, self.mode.name())
    }

    pub fn current_pair(&self) -> Option<Rc<TreePair>> {
        self.corpus.pairs.get(self.pair).cloned().map(Rc::new)
    }

    /// The corpus loaded, in a line; while the built-in sample is read, that
    /// (not the counts of the pairs it will replace).
    pub fn corpus_summary(&self) -> String {
        if self.sample_loading.is_some() {
            return format!("{SAMPLE_NAME}: reading it…");
        }
        let c = &self.corpus;
        let nodes: usize = c.pairs.iter().map(|p| p.source.len() + p.target.len()).sum();
        let swapped = if self.sides_swapped { " (sides swapped)" } else { "" };
        format!("{}: {} pairs, {} nodes, {} gold links{swapped}", self.corpus_name, c.len(), nodes, c.gold_links())
    }

    pub fn slot(&self, slot: Slot) -> &SlotStatus {
        &self.slots[slot as usize]
    }

    fn slot_mut(&mut self, slot: Slot) -> &mut SlotStatus {
        &mut self.slots[slot as usize]
    }

    /// The results, if they belong to the trees now loaded.
    pub fn results(&self) -> Option<&Results> {
        self.results.as_deref().filter(|r| r.corpus_gen == self.corpus_gen)
    }

    /// [`State::results`], shared.
    pub fn shared_results(&self) -> Option<Shared<Results>> {
        self.results.clone().filter(|r| r.corpus_gen == self.corpus_gen)
    }

    /// The name of the slot's file, if it read without error.
    pub fn ok_name(&self, slot: Slot) -> Option<&str> {
        self.slot(slot).ok_file().map(|u| u.name.as_str())
    }

    /// The uploaded lexical files that read without error (copies: for a request).
    pub fn lexicon_files(&self) -> LexiconFiles {
        let ok = |s: Slot| self.slot(s).ok_file().map(Upload::named);
        LexiconFiles { s2t: ok(Slot::LexS2t), t2s: ok(Slot::LexT2s), word_links: ok(Slot::WordLinks) }
    }

    /// The uploaded ARPA language model, if it read without error (a copy: for a request).
    pub fn lm_file(&self) -> Option<NamedText> {
        self.slot(Slot::Lm).ok_file().map(Upload::named)
    }

    /// The sub-tree pair the selection is compared with, as (source, target).
    pub fn comparison(&self) -> Option<(NodeId, NodeId)> {
        let (s, t) = (self.sel_source?, self.sel_target?);
        let pair = self.corpus.pairs.get(self.pair)?;
        Some(match self.compare {
            Compare::Itself => (s, t),
            Compare::Gold(l) => (l.source, l.target),
            Compare::Auto => nearest_gold(pair, s, t).map_or((s, t), |l| (l.source, l.target)),
        })
    }

    /// The student's links of the current pair.
    pub fn student_links(&self) -> &[(NodeId, NodeId)] {
        self.teach.links.get(&self.pair).map_or(&[], Vec::as_slice)
    }

    /// The links the diagram draws for the current pair, bottom to top.
    pub fn drawn_links(&self) -> Vec<DrawnLink> {
        let Some(pair) = self.corpus.pairs.get(self.pair) else { return Vec::new() };
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
        let checked = self.classroom.checks.as_ref().and_then(|c| c.get(self.pair));
        match self.mode {
            Mode::Inspect => {
                let Some(r) = self.results().filter(|r| r.aligned(self.pair)) else { return gold_links().collect() };
                let predicted = r.predicted.get(self.pair).map_or(&[][..], |l| l);
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
                        r.posterior(self.pair, g.source, g.target)
                            .map_or(String::new(), |p| format!("; posterior {p:.3}, blocked in the search"))
                    ),
                });
                let mut found: Vec<DrawnLink> = predicted
                    .iter()
                    .map(|p| {
                        let correct = is_gold(p.source, p.target);
                        let posterior = r.posterior(self.pair, p.source, p.target).unwrap_or(f64::NAN);
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
                let Some(search) =
                    self.results().filter(|r| r.aligned(self.pair)).and_then(|r| r.searches.get(self.pair))
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

    /// Keeps a file's text in its slot and asks the file worker to check
    /// it (and to build the corpus, when the slot's files make one).
    fn file_read(&mut self, name: String, text: String, slot: Option<Slot>) -> Option<Effect> {
        // Both model files are .json: the header says which one this is.
        let slot = match slot.or_else(|| Slot::of_file(&name)) {
            Some(Slot::Model) => {
                let head = text.get(..SNIFF_BYTES).unwrap_or(&text);
                Some(Slot::of_kind(FileKind::sniff(FileKind::AlignmentModel, head)))
            }
            other => other,
        };
        let Some(slot) = slot else {
            self.stray = Some(format!(
                "{name}: expected a .src, .trg, .gold, TigerXML/STA .xml, Moses lex.e2f/lex.f2e, aligned.* word alignment, \
                 ARPA language model, or model or exercise .json file; nothing was loaded from it"
            ));
            return None;
        };
        self.stray = None;
        let text_is_empty = text.is_empty();
        let upload = Upload { name: name.clone(), text: text.into() };
        let status = self.slot_mut(slot);
        status.given = status.given.wrapping_add(1);
        match slot {
            // Tiger input takes three files; same-named files replace each
            // other, and a file after a complete set of three starts a new set.
            Slot::Tiger => {
                if status.files.len() >= 3 {
                    status.files.clear();
                }
                status.files.retain(|u| u.name != name);
                status.files.push(upload);
            }
            // A class's answers files gather; a file of the same name replaces its earlier copy.
            Slot::Answers => {
                status.files.retain(|u| u.name != name);
                status.files.push(upload);
            }
            _ => status.files = vec![upload],
        }
        if slot == Slot::TranslationModel {
            if text_is_empty {
                status.message = Some(Err(format!("{name}:1:1: the file is empty; nothing was loaded from it")));
                return None;
            }
            // Read by the job worker, which keeps the model.
            status.message = Some(Ok(format!("{name}: reading it in the worker…")));
            let upload =
                status.files.last().cloned().map(|u| MtUpload { name: u.name, source: MtSource::Text(u.text) });
            return upload.map(|u| self.upload_mt(u));
        }
        status.message = None;
        status.checking = true;
        // Files of the trees' group that were refused (gold links given
        // before their trees, say) are checked again with this one: the
        // refusal may have been for want of it.
        for other in Slot::TREES_GROUP {
            let s = self.slot_mut(other);
            if other != slot && matches!(s.message, Some(Err(_))) && s.files != s.kept {
                s.checking = true;
            }
        }
        let id = self.job_id();
        Some(Effect::Load(id, self.load_request(slot)))
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
            kkt: None,
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
        (self.mode == Mode::Inspect && results.aligned(self.pair)).then_some(())?;
        Some((self.pair, self.sel_source?, self.sel_target?, Rc::as_ptr(&results.0) as usize, self.worker_gen))
    }

    /// What the file worker needs to check slot `changed`: its files and
    /// those checked with them.
    fn load_request(&self, changed: Slot) -> LoadRequest {
        let slots: &[Slot] = match changed {
            Slot::Source | Slot::Target | Slot::Gold => &Slot::TREES_GROUP,
            Slot::Tiger => &[Slot::Tiger, Slot::WordLinks],
            // Answers are checked against the open exercise's file.
            Slot::Answers => &[Slot::Exercise, Slot::Answers],
            _ => std::slice::from_ref(&changed),
        };
        // The new files of the changed slot (and of those still being
        // checked: files dropped together), with the files in use of the others.
        // Refused files of the group checked again with it (see `file_read`).
        let retrying = |s: Slot| {
            let status = self.slot(s);
            s != changed && status.checking && matches!(status.message, Some(Err(_)))
        };
        let texts = |files: &[Upload]| -> Vec<FileText> {
            files.iter().map(|u| FileText { name: u.name.clone(), text: u.text.to_string() }).collect()
        };
        let retry = slots.iter().filter(|&&s| retrying(s)).map(|&s| (s, texts(&self.slot(s).files))).collect();
        let files = slots
            .iter()
            .map(|&s| {
                let status = self.slot(s);
                (s, if s == changed || (status.checking && !retrying(s)) { &status.files } else { &status.kept })
            })
            .filter(|(_, files)| !files.is_empty())
            .map(|(s, files)| (s, texts(files)))
            .collect();
        // Gold links without uploaded trees go with the trees loaded now.
        let uploaded_trees = [Slot::Source, Slot::Target].iter().all(|&s| self.slot(s).ok_file().is_some());
        let current = (changed == Slot::Gold && !uploaded_trees).then(|| {
            let text = CorpusText::of(&self.corpus);
            (text.source, text.target)
        });
        // A lexical table's coverage is counted over the words it is conditioned on.
        let side = |words: fn(&TreePair) -> &[String]| -> Vec<String> {
            self.corpus.pairs.iter().flat_map(|p| words(p).iter().cloned()).collect()
        };
        let words = match changed {
            Slot::LexS2t => side(|p| p.source.words()),
            Slot::LexT2s => side(|p| p.target.words()),
            _ => Vec::new(),
        };
        // Which slots' last given files go (the others' files in use).
        let given = (slots.iter())
            .filter(|&&s| s == changed || self.slot(s).checking)
            .map(|&s| (s, self.slot(s).given))
            .collect();
        LoadRequest {
            changed,
            files,
            current,
            lengths: self.corpus.sentence_lengths(),
            words,
            retry,
            given,
            sample: false,
        }
    }

    /// The file worker's answer: each checked slot's status, the model
    /// file's description, and the corpus the files make (its pairs
    /// received in parts, with their Tiger ids).
    fn loaded(&mut self, answer: LoadAnswer, corpus: Option<(Corpus, Option<Vec<PairIds>>)>) {
        self.load_answer(answer, corpus);
        if !self.reading() {
            self.finish_restore();
        }
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
                let kept = &given.slot(slot).kept;
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
            pair: self.pair,
            mode: self.mode,
            links: self.teach.links.iter().map(|(k, l)| (*k, l.clone())).collect(),
            reveal_gold: self.teach.reveal_gold,
            form: self.form.values.iter().map(|(f, v)| (*f, v.clone())).collect(),
            lambda: self.lambda_text.clone(),
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
                .map(|t| t.seen),
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
        self.reduce(Action::SetLambda(session.lambda));
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
                effects.extend(self.reduce(Action::MtFilePicked { name, file }));
            }
            (Some((name, Some(text))), None) => {
                effects.push(self.upload_mt(MtUpload { name, source: MtSource::Text(text.into()) }));
            }
            _ => {}
        }
        self.restoring = Some(Restoring {
            model_seen: session.alignment_model_seen,
            sides_swapped: session.sides_swapped,
            pair: session.pair,
            mode: session.mode,
            links: session.links.into_iter().collect(),
            folds: session.folds,
        });
        for f in session.files {
            effects.extend(self.file_read(f.name, f.text, Some(f.slot)));
        }
        if !self.reading() {
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
        if let (Some(m), Some(seen)) = (&mut self.model, r.model_seen) {
            if m.origin == ModelOrigin::TrainedHere {
                m.trained_on = Some(TrainedOn { gen: self.corpus_gen, seen });
            }
        }
        self.teach.links = r.links;
        self.folds = Folds::restored(self.corpus_gen, &r.folds, &self.corpus);
        self.mode = r.mode;
        self.clear_selection();
        if r.pair < self.corpus.len() {
            self.select_pair(r.pair);
        } else {
            self.wanted_pair = Some(r.pair);
        }
    }

    /// Source or target trees that read but made no pairs are kept for
    /// their pair, and say so: the pairs shown are still the ones before.
    /// Pairs made from the trees (`from_trees`; not gold links for the trees
    /// shown) put both kept tree files in use.
    /// `answered`: the slots the answer was taken for, and whether about files just given.
    fn mark_waiting_trees(&mut self, answered: &[(Slot, bool)], from_trees: bool) {
        for (slot, other) in [(Slot::Source, Slot::Target), (Slot::Target, Slot::Source)] {
            let Some(&(_, given)) = answered.iter().find(|(s, _)| *s == slot) else { continue };
            if from_trees {
                self.slot_mut(slot).waiting = false;
                continue;
            }
            let kept_now = given && matches!(self.slot(slot).message, Some(Ok(_)));
            if !(kept_now || self.slot(slot).waiting) {
                continue;
            }
            let side = if other == Slot::Source { "source" } else { "target" };
            let why = if matches!(self.slot(other).message, Some(Err(_))) {
                format!("its {side} trees were refused")
            } else if matches!(self.slot(Slot::Gold).message, Some(Err(_))) && !self.slot(other).kept.is_empty() {
                "the gold links given with it were refused".to_string()
            } else if self.slot(other).kept.is_empty() {
                format!("no {side} trees yet")
            } else {
                continue;
            };
            let s = self.slot_mut(slot);
            s.waiting = true;
            if let (Some(Ok(_)), Some(summary)) = (&s.message, &s.kept_summary) {
                s.message = Some(Ok(format!("{summary}; not in use: {why} (the pairs shown stay)")));
            }
        }
    }

    /// The file worker's answer, applied.
    fn load_answer(&mut self, answer: LoadAnswer, corpus: Option<(Corpus, Option<Vec<PairIds>>)>) {
        let tiger_imported = matches!(answer.corpus, Some((CorpusOrigin::Tiger, _)));
        let new_corpus = answer.corpus.is_some();
        // The slots answered, and whether about files just given.
        let mut answered: Vec<(Slot, bool)> = Vec::new();
        for (slot, status) in answer.statuses {
            let s = self.slot_mut(slot);
            let about_given = answer.given.iter().find(|(g, _)| *g == slot).map(|&(_, n)| n);
            if about_given.is_some_and(|n| n != s.given) {
                continue; // files given since are being checked
            }
            answered.push((slot, about_given.is_some()));
            if about_given.is_some() {
                s.checking = false;
                // The warning goes with the files in use.
                if status.is_ok() {
                    s.warning = answer.warnings.iter().find(|(w, _)| *w == slot).map(|(_, w)| w.clone());
                }
                // Its new files were checked: in use if they read (a Tiger
                // set once it imported, not while it waits for its third file).
                if let (Ok(summary), true) = (&status, slot != Slot::Tiger || tiger_imported) {
                    s.keep(summary);
                }
                s.message = Some(status);
                continue;
            }
            // Checked again with the files in use: the last upload's error stays shown.
            match status {
                Ok(summary) => {
                    if !matches!(s.message, Some(Err(_))) {
                        s.message = Some(Ok(summary.clone()));
                    }
                    s.kept_summary = Some(summary);
                }
                Err(e) => {
                    // Word links that do not fit the new pairs are no longer in use.
                    if slot == Slot::WordLinks && new_corpus {
                        s.kept.clear();
                        s.kept_summary = None;
                    }
                    s.message = Some(Err(e));
                }
            }
        }
        let from_trees = matches!(answer.corpus, Some((CorpusOrigin::Trees { .. }, _)));
        self.mark_waiting_trees(&answered, from_trees);
        self.pair_tables();
        if let (Some(summary), Some(u)) = (answer.model, self.slot(Slot::Model).ok_file().cloned()) {
            self.model = Some(LoadedAlignmentModel {
                json: u.text.clone(),
                origin: ModelOrigin::Uploaded(u.name.clone()),
                summary,
                trained_on: None,
            });
        }
        if let Some(class) = answer.class {
            self.classroom.class = Some(Rc::new(class));
        }
        let (Some((origin, _)), Some((corpus, ids))) = (answer.corpus, corpus) else { return };
        match origin {
            CorpusOrigin::Exercise(file) => {
                let Some((_, exercise)) = answer.exercise else { return };
                self.sides_swapped = false;
                self.replace_corpus(corpus, format!("Exercise '{}' ({file})", exercise.title));
                // Aligning by hand, with the key shown only if the instructor chose so.
                self.teach = Teach { reveal_gold: exercise.show_gold, ..Teach::default() };
                self.mode = Mode::Teach;
                self.clear_selection();
                self.classroom.opened(file, exercise);
            }
            // Pairs read from files: their names say the direction again.
            CorpusOrigin::Trees { source, target } => {
                self.sides_swapped = false;
                self.replace_corpus(corpus, format!("Uploaded {source} / {target}"))
            }
            CorpusOrigin::Tiger => {
                self.sides_swapped = false;
                self.replace_corpus(corpus, "Uploaded TigerXML pair".into());
                self.tiger_ids = ids.map(Rc::new);
            }
            CorpusOrigin::Sample => {
                self.sample_loading = None;
                self.sides_swapped = false;
                self.replace_corpus(corpus, SAMPLE_NAME.into());
            }
            CorpusOrigin::GoldFor(gold) => {
                let base = self.corpus_name.split(" + gold links from ").next().unwrap_or_default().to_string();
                self.replace_gold(corpus, format!("{base} + gold links from {gold}"));
            }
        }
    }

    /// Notes on a lone table that the other one is needed too.
    fn pair_tables(&mut self) {
        for (slot, other) in [(Slot::LexS2t, "p(s|t)"), (Slot::LexT2s, "p(t|s)")] {
            let partner = if slot == Slot::LexS2t { Slot::LexT2s } else { Slot::LexS2t };
            let has_partner = self.slot(partner).ok_file().is_some();
            if let Some(Ok(m)) = &mut self.slot_mut(slot).message {
                let waiting = format!(" (waiting for the {other} table)");
                if has_partner {
                    if let Some(stripped) = m.strip_suffix(&waiting) {
                        *m = stripped.to_string();
                    }
                } else if !m.ends_with(&waiting) {
                    m.push_str(&waiting);
                }
            }
        }
    }

    fn replace_corpus(&mut self, corpus: Corpus, name: String) {
        let same_trees = corpus.len() == self.corpus.len()
            && corpus.pairs.iter().zip(&self.corpus.pairs).all(|(a, b)| a.source == b.source && a.target == b.target);
        if same_trees {
            self.replace_gold(corpus, name);
            return;
        }
        self.corpus = Rc::new(corpus);
        self.corpus_name = name;
        self.corpus_gen = self.corpus_gen.next();
        // Other pairs: an open exercise's links and checks no longer apply.
        self.classroom.open = None;
        self.classroom.checks = None;
        self.tiger_ids = None;
        self.sides_swapped = false;
        self.pair = 0;
        self.teach = Teach::default();
        self.clear_selection();
        self.find.found = self.corpus.find(&self.find.query, FindPair::LIMIT);
        self.find.added = None;
        if let Some(p) = self.wanted_pair.filter(|&p| p < self.corpus.len()) {
            self.pair = p;
            self.wanted_pair = None;
        }
    }

    /// The same trees with other gold links: results are scored again.
    fn replace_gold(&mut self, corpus: Corpus, name: String) {
        self.corpus = Rc::new(corpus);
        self.corpus_name = name;
        let gen = self.corpus_gen;
        if let Some(r) = self.results.as_mut().filter(|r| r.corpus_gen == gen) {
            // A new Rc, so views that compare results by pointer see the change.
            let mut rescored = (**r).clone();
            rescored.score(&self.corpus);
            *r = Shared(Rc::new(rescored));
        }
        self.explained = None;
    }

    /// Undoes (or redoes) the last edit of the hand links, on its pair (shown, in teaching mode).
    fn undo_redo(&mut self, undo: bool) {
        let history = &mut self.teach.history;
        let (from, to) =
            if undo { (&mut history.undo, &mut history.redo) } else { (&mut history.redo, &mut history.undo) };
        let Some(edit) = from.pop() else {
            self.teach.message = Some(Err(format!("Nothing to {}.", if undo { "undo" } else { "redo" })));
            return;
        };
        let links = if undo { &edit.before } else { &edit.after };
        if links.is_empty() {
            self.teach.links.remove(&edit.pair);
        } else {
            self.teach.links.insert(edit.pair, links.clone());
        }
        let (pair, n) = (edit.pair, links.len());
        to.push(edit);
        self.select_pair(pair);
        if self.mode != Mode::Teach {
            self.mode = Mode::Teach;
            self.clear_selection();
        }
        self.teach.pending = None;
        let verb = if undo { "Undone" } else { "Redone" };
        self.teach.message = Some(Ok(format!("{verb}: pair {} has {n} links of yours.", pair + 1)));
    }

    /// [`Action::SwapSides`]: the pairs ([`Corpus::swapped`]) and every
    /// file kept per side change sides, so later loads and requests agree
    /// with them: trees and lexical tables trade slots, gold and word links
    /// are reversed ([`swap_links_text`]); hand links are reversed; results
    /// of the other direction no longer apply.
    fn swap_sides(&mut self) {
        self.corpus = Rc::new(self.corpus.swapped());
        self.corpus_gen = self.corpus_gen.next();
        self.sides_swapped = !self.sides_swapped;
        self.tiger_ids = self.tiger_ids.as_ref().map(|ids| {
            let swap = |p: &PairIds| PairIds { source: p.target.clone(), target: p.source.clone() };
            Rc::new(ids.iter().map(swap).collect())
        });
        self.slots.swap(Slot::Source as usize, Slot::Target as usize);
        self.slots.swap(Slot::LexS2t as usize, Slot::LexT2s as usize);
        for slot in [Slot::Gold, Slot::WordLinks] {
            let status = self.slot_mut(slot);
            for u in status.files.iter_mut().chain(status.kept.iter_mut()) {
                u.text = swap_links_text(&u.text).into();
            }
        }
        let history = &mut self.teach.history;
        let edits = history.undo.iter_mut().chain(history.redo.iter_mut());
        let lists = self.teach.links.values_mut().chain(edits.flat_map(|e| [&mut e.before, &mut e.after]));
        for links in lists {
            for l in links.iter_mut() {
                *l = (l.1, l.0);
            }
        }
        self.clear_selection();
        self.teach.message = None;
    }

    fn clear_selection(&mut self) {
        self.sel_source = None;
        self.sel_target = None;
        self.compare = Compare::Auto;
        self.explained = None;
        self.teach.pending = None;
    }

    fn select_pair(&mut self, p: usize) {
        let p = p.min(self.corpus.len().saturating_sub(1));
        if p != self.pair {
            self.pair = p;
            self.clear_selection();
            self.teach.message = None;
            self.teach.step = 0;
        }
    }

    /// Teaching: the student clicked target node `t` after a source node.
    fn teach_target(&mut self, t: NodeId) {
        let Some(pair) = self.corpus.pairs.get(self.pair).cloned() else { return };
        let Some(s) = self.teach.pending.take() else {
            self.teach.message = Some(Err("Click a source node first, then a target node.".into()));
            return;
        };
        let name = |tree: &Tree, n: NodeId| format!("{} ({n})", tree.label(n));
        let links = self.teach.links.entry(self.pair).or_default();
        let this = format!("{} ↔ {}", name(&pair.source, s), name(&pair.target, t));
        self.classroom.links_changed();
        if let Some(k) = links.iter().position(|&l| l == (s, t)) {
            links.remove(k);
            self.teach.message = Some(Ok(format!("Removed your link {this}.")));
        } else if let Some((by, criterion)) = first_conflict(&pair.source, &pair.target, (s, t), links) {
            self.teach.refused =
                Some((s, t, format!("refused {this}: it breaks criterion {criterion} (your link {}-{})", by.0, by.1)));
            self.teach.message = Some(Err(format!(
                "Refused {this}: it breaks criterion {criterion}, because of your link {} ↔ {}.",
                name(&pair.source, by.0),
                name(&pair.target, by.1)
            )));
        } else {
            links.push((s, t));
            self.teach.message = Some(Ok(format!("Linked {this}.")));
        }
    }

    /// [`Action::Export`]: the file, made by the engine's writers, as a
    /// download; an export that cannot be made says why in `export_error`.
    fn export(&mut self, file: ExportFile) -> Option<Effect> {
        let text = |name: &str, text: String, mime: &'static str| Effect::Download {
            name: name.to_string(),
            body: DownloadBody::Text { text: text.into(), mime },
        };
        let pair_number = self.pair + 1;
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
                let csv =
                    results_csv(&pairs[range.clone()], range.start, &model[range.clone()], &baseline[range], r.seen);
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
        let pair = self.corpus.pairs.get(self.pair)?;
        let (fold_source, fold_target) = self.folds.of(self.corpus_gen, self.pair);
        let drawing = Drawing::new(&pair.source, &pair.target, fold_source, fold_target, &Style::default());
        let title = format!("{} — pair {}", self.corpus_name, self.pair + 1);
        Some(drawing_svg(&drawing, &self.drawn_links(), &title))
    }

    fn worker(&mut self, response: Response, now: f64) {
        let job_is = |job: &Option<Job>, id: JobId| job.as_ref().is_some_and(|j| j.id == id);
        match response {
            // The file worker's answers arrive as `Action::Loaded`.
            // Put together by the page's hook (`view::job_worker_answers`).
            Response::AlignedPart { .. } => {}
            Response::Ready | Response::CorpusPart { .. } | Response::Loaded { .. } | Response::PieceDone { .. } => {}
            Response::Progress { job, stage, done, total, kkt } => {
                if let Some(j) = self.job.as_mut().filter(|j| j.id == job) {
                    if j.stage != stage {
                        j.stage = stage;
                        j.stage_started = now;
                    }
                    (j.done, j.total, j.now, j.kkt) = (done, total, now, kkt);
                }
            }
            Response::Trained { job, model, summary } => {
                if let Some(j) = self.job.as_ref().filter(|j| j.id == job) {
                    let seen = j.split.map_or(self.corpus.len(), |split| split.seen().end);
                    self.model = Some(LoadedAlignmentModel {
                        json: model.into(),
                        origin: ModelOrigin::TrainedHere,
                        summary,
                        trained_on: Some(TrainedOn { gen: j.corpus_gen, seen }),
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
                let seen = self.model.as_ref().and_then(|m| m.trained_on).filter(|t| t.gen == self.corpus_gen);
                r.seen = seen.map_or(0, |t| t.seen);
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
                    let status = self.slot_mut(Slot::TranslationModel);
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
                    self.slot_mut(Slot::TranslationModel).message = Some(Err(message.clone()));
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
                    self.slot_mut(Slot::TranslationModel).message = Some(Err(message));
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
            (&action, self.mode),
            (Action::ClickTarget(_) | Action::ClickLink(..), Mode::Teach) | (Action::TeachClear, _)
        );
        let before = edits_links.then(|| (self.pair, self.student_links().to_vec()));
        let from_address = matches!(action, Action::OpenLocation(_));
        let location = (self.pair, self.mode);
        let mut effects = self.reduce(action);
        if !from_address && (self.pair, self.mode) != location {
            effects.push(Effect::SetLocation(self.location()));
        }
        if let Some((pair, before)) = before {
            let after = self.teach.links.get(&pair).cloned().unwrap_or_default();
            if after != before {
                self.teach.history.record(LinkEdit { pair, before, after });
            }
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
            Action::ClickSource(_)
                | Action::ClickTarget(_)
                | Action::ClickLink(..)
                | Action::SetMode(_)
                | Action::SelectPair(_)
                | Action::StepPair(_)
                | Action::TeachClear
        ) {
            s.teach.refused = None;
        }
        match action {
            Action::FileRead { name, text, slot } => effects.extend(s.file_read(name, text, slot)),
            Action::Loaded { answer, corpus } => s.loaded(answer, corpus),
            Action::LoadFailed(message) => {
                s.sample_loading = None;
                for slot in Slot::ALL {
                    let status = s.slot_mut(slot);
                    if std::mem::take(&mut status.checking) {
                        status.message = Some(Err(format!("not read: {message}")));
                    }
                }
                s.finish_restore();
            }
            Action::FileFailed { name, error, slot } => match slot.or_else(|| Slot::of_file(&name)) {
                // What was loaded from that input stays; only its status says what went wrong.
                Some(slot) => {
                    s.stray = None;
                    s.slot_mut(slot).message = Some(Err(error));
                }
                None => s.stray = Some(error),
            },
            Action::SelectPair(p) => s.select_pair(p),
            Action::StepPair(delta) => {
                let p = (s.pair as isize + delta).max(0) as usize;
                s.select_pair(p);
            }
            Action::ClickSource(n) => match s.mode {
                Mode::Teach => {
                    s.teach.pending = if s.teach.pending == Some(n) { None } else { Some(n) };
                    s.teach.message = None;
                }
                _ => {
                    s.sel_source = if s.sel_source == Some(n) { None } else { Some(n) };
                    s.compare = Compare::Auto;
                }
            },
            Action::ClickTarget(n) => match s.mode {
                Mode::Teach => s.teach_target(n),
                _ => {
                    s.sel_target = if s.sel_target == Some(n) { None } else { Some(n) };
                    s.compare = Compare::Auto;
                }
            },
            Action::ClickLink(a, b) => match s.mode {
                Mode::Teach => {
                    if let Some(links) = s.teach.links.get_mut(&s.pair) {
                        if let Some(k) = links.iter().position(|&l| l == (a, b)) {
                            links.remove(k);
                            s.teach.message = Some(Ok(format!("Removed your link {a}-{b}.")));
                        }
                    }
                }
                _ => {
                    s.sel_source = Some(a);
                    s.sel_target = Some(b);
                    s.compare = Compare::Auto;
                }
            },
            Action::ClearSelection => s.clear_selection(),
            Action::ToggleFold(side, n) => {
                if let Some(pair) = s.corpus.pairs.get(s.pair) {
                    let tree = if side == Side::Source { &pair.source } else { &pair.target };
                    s.folds.toggle(s.corpus_gen, s.pair, side, tree, n);
                }
            }
            Action::UnfoldAll => s.folds.unfold_all(s.pair),
            Action::SetCompare(c) => s.compare = c,
            Action::SetLambda(text) => {
                match text.trim().parse::<f64>() {
                    Ok(l) if l.is_finite() && l > 0.0 => {
                        s.lambda = l;
                        s.lambda_error = None;
                    }
                    _ => s.lambda_error = Some(format!("λ must be a number greater than 0, found '{text}'")),
                }
                s.lambda_text = text;
            }
            Action::SetField(field, value) => {
                s.form.values.insert(field, value);
                s.form.errors = s.form.options().err().unwrap_or_default();
            }
            Action::SetWordModel(model) => s.form.word_model = model,
            Action::SetCalibrate(on) => s.form.calibrate = on,
            Action::SetHoldOutTest(on) => s.form.test = on,
            Action::SetStemBackoff(on) => s.form.stem_backoff = on,
            Action::Train { now } => {
                let has_gold = s.corpus.gold_links() > 0;
                let how = s.form.pairs_training();
                let split = PairSplit::of(s.corpus.len(), how.calibrate, how.test);
                if let (None, Ok(options), true, Some(split)) = (&s.job, s.form.options(), has_gold, split) {
                    let id = s.job_id();
                    s.start_job(id, JobKind::Train, now);
                    if let Some(j) = &mut s.job {
                        j.split = Some(split);
                    }
                    let corpus = CorpusText::of(&s.corpus);
                    effects.push(Effect::Post(Request::Train {
                        job: id,
                        corpus,
                        options,
                        lexicon: s.lexicon_files(),
                        how,
                    }));
                }
            }
            Action::Align { now } => {
                if let (None, Some(model)) = (&s.job, s.model.as_ref().map(|m| m.json.to_string())) {
                    let id = s.job_id();
                    s.start_job(id, JobKind::Align, now);
                    let corpus = CorpusText::of(&s.corpus);
                    effects.push(Effect::Post(Request::Align { job: id, corpus, model, lexicon: s.lexicon_files() }));
                }
            }
            Action::DownloadModel => {
                if let Some(m) = &s.model {
                    let body = DownloadBody::Text { text: m.json.clone(), mime: "application/json" };
                    effects.push(Effect::Download { name: "treelink-model.json".into(), body });
                }
            }
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
                        lm: s.lm_file(),
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
                    s.slot_mut(Slot::TranslationModel).message =
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
            Action::SetMode(mode) => {
                if mode != s.mode {
                    s.mode = mode;
                    s.clear_selection();
                    s.teach.message = None;
                }
            }
            Action::TeachClear => {
                s.classroom.links_changed();
                s.teach.links.remove(&s.pair);
                s.teach.pending = None;
                s.teach.message = Some(Ok("Cleared your links of this pair.".into()));
            }
            Action::Restore { session, mt_file } => effects.extend(s.restore(*session, mt_file)),
            Action::StartFresh => {
                let worker_gen = s.worker_gen.next();
                let last_job = s.last_job;
                *s = State::new();
                (s.worker_gen, s.last_job) = (worker_gen, last_job);
                effects.extend([Effect::ForgetSession, Effect::RestartJobWorker, Effect::SetLocation(s.location())]);
                effects.extend(s.reduce(Action::LoadSample));
            }
            Action::Find(query) => {
                s.find.found = s.corpus.find(&query, FindPair::LIMIT);
                s.find.query = query;
                s.find.added = None;
            }
            Action::AddFoundToExercise(which) => {
                let numbers: Vec<usize> =
                    s.find.found.iter().map(|(k, _)| k + 1).filter(|&n| which.is_none_or(|k| k + 1 == n)).collect();
                s.find.added = Some(match s.classroom.add_pairs(numbers.iter().copied()) {
                    Ok(added) => {
                        let skipped = numbers.len() - added;
                        let also = if skipped > 0 { format!(" ({skipped} listed already)") } else { String::new() };
                        format!(
                            "{added} {} added to the exercise's pairs{also}: {}",
                            counted(added, "pairs"),
                            s.classroom.form.pairs
                        )
                    }
                    Err(e) => format!("Nothing added: the exercise's pairs do not read ({e})."),
                });
            }
            Action::OpenLocation(hash) => {
                let location = Location::parse(&hash);
                // The address wins over the session being restored.
                if let Some(r) = &mut s.restoring {
                    r.pair = location.pair.unwrap_or(r.pair);
                    r.mode = location.mode.unwrap_or(r.mode);
                }
                if let Some(mode) = location.mode.filter(|&m| m != s.mode) {
                    s.mode = mode;
                    s.clear_selection();
                    s.teach.message = None;
                }
                match location.pair {
                    Some(p) if p >= s.corpus.len() => s.wanted_pair = Some(p),
                    Some(p) => {
                        s.wanted_pair = None;
                        s.select_pair(p);
                    }
                    None => {}
                }
            }
            Action::Undo => s.undo_redo(true),
            Action::Redo => s.undo_redo(false),
            Action::RevealGold(on) => s.teach.reveal_gold = on,
            Action::SetStep(k) => s.teach.step = k,
            Action::SortBy(key) => {
                s.sort = if s.sort.0 == key { (key, !s.sort.1) } else { (key, true) };
            }
            Action::LoadSample => {
                let id = s.job_id();
                s.sample_loading = Some(id);
                effects.push(Effect::Load(id, LoadRequest::sample()));
            }
            Action::SwapSides => s.swap_sides(),
            Action::SetMtSystem(system) => s.mt.system = system,
            Action::SetMtExtract(extract) => s.mt.extract = extract,
            Action::SetMtInput(text) => {
                s.mt.input = text;
                s.mt.input_error = None;
            }
            Action::FilesGiven { files, slot } => {
                for (name, file) in files {
                    let routed = slot.or_else(|| Slot::of_file(&name));
                    if routed == Some(Slot::TranslationModel) {
                        effects.extend(s.reduce(Action::MtFilePicked { name, file }));
                    } else {
                        let sniff_mt = routed == Some(Slot::Model);
                        effects.push(Effect::ReadFile { file, name, slot, sniff_mt });
                    }
                }
            }
            Action::OpenQuery(query) => effects.extend(exercise_address(&query).map(Effect::FetchExercise)),
            Action::Export(file) => effects.extend(s.export(file)),
            Action::MtFilePicked { name, file } => {
                s.stray = None;
                let status = s.slot_mut(Slot::TranslationModel);
                status.files.clear();
                status.message = Some(Ok(format!("{name}: reading it in the worker…")));
                effects.push(s.upload_mt(MtUpload { name, source: MtSource::File(file) }));
            }
        }
        effects
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::load;

    /// Applies `action` and carries out its effects as the page's hook and
    /// the file worker do (the corpus decoded from its parts).
    fn run(s: &mut State, action: Action) -> Vec<Effect> {
        let effects = s.apply(action);
        for effect in &effects {
            if let Effect::Load(_, request) = effect {
                answer_load(s, request);
            }
        }
        effects
    }

    /// The file worker's answer to `request`, as the page's hook hands it to the reducer.
    fn answer_load(s: &mut State, request: &load::LoadRequest) {
        let checked = load::check(request);
        let parts = checked.parts();
        let decoded: Result<Vec<_>, _> = parts.into_iter().flatten().map(load::WirePair::decode).collect();
        let corpus = checked.answer.corpus.as_ref().map(|_| {
            let (pairs, ids): (Vec<TreePair>, Vec<Option<PairIds>>) = decoded.unwrap().into_iter().unzip();
            (Corpus { pairs }, ids.into_iter().collect::<Option<Vec<_>>>())
        });
        s.apply(Action::Loaded { answer: checked.answer, corpus });
    }

    fn read(s: &mut State, name: &str, text: &str, slot: Option<Slot>) -> Vec<Effect> {
        run(s, Action::FileRead { name: name.into(), text: text.into(), slot })
    }

    fn progress(job: u32, stage: &str, done: u64, total: u64) -> Action {
        Action::Worker {
            response: Response::Progress { job: JobId(job), stage: stage.into(), done, total, kkt: None },
            now: 5.0,
        }
    }

    /// The worker's answer aligning pairs `first..n` with empty searches.
    fn empty_alignment(job: JobId, n: usize, lexicon: &str, first: usize) -> Response {
        let aligned = n.saturating_sub(first);
        Response::Aligned {
            job,
            searches: vec![Search::default(); aligned],
            baseline: vec![Vec::new(); aligned],
            lexicon: lexicon.into(),
            first,
        }
    }

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
            s.slot(Slot::Exercise).message.as_ref().map(|m| m.is_ok()),
            Some(true),
            "{:?}",
            s.slot(Slot::Exercise)
        );
        assert_eq!(s.mode, Mode::Teach);
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
        s.apply(Action::ClickSource(key.source));
        s.apply(Action::ClickTarget(key.target));
        assert_eq!(s.student_links(), vec![(key.source, key.target)]);
        s.apply(Action::Exercise(ExerciseAction::Check));
        let styles = |s: &State| s.drawn_links().iter().map(|l| l.style).collect::<Vec<_>>();
        let gold = exercise.pairs[0].pair.gold.len();
        let marked = styles(&s);
        assert_eq!(marked.iter().filter(|&&st| st == LinkStyle::Correct).count(), 1);
        assert_eq!(marked.iter().filter(|&&st| st == LinkStyle::Missed).count(), gold - 1);
        // A new link makes the check stale.
        s.apply(Action::ClickSource(0));
        s.apply(Action::ClickTarget(wrong));
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
        assert_eq!(s.slot(Slot::Answers).message, Some(Ok(format!("2 answers files checked against {name}"))));
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
        let status = s.slot(Slot::Answers).message.clone().unwrap().unwrap_err();
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
        assert_eq!((r.mode, &r.teach.links), (Mode::Teach, &s.teach.links));
        assert_eq!(r.classroom.class.as_ref().map(|c| c.students.len()), Some(2));
        // The sample again: the exercise closes.
        run(&mut s, Action::LoadSample);
        assert!(s.classroom.open.is_none());
        assert!(s.session().files.is_empty(), "a closed exercise is not kept");
    }

    #[test]
    fn pairs_are_selected_within_the_corpus() {
        let mut s = State::with_sample();
        let n = s.corpus.len();
        assert!(n > 2, "the sample has {n} pairs");
        s.apply(Action::StepPair(-1));
        assert_eq!(s.pair, 0);
        s.apply(Action::ClickSource(1));
        assert_eq!(s.sel_source, Some(1));
        s.apply(Action::SelectPair(n + 7));
        assert_eq!(s.pair, n - 1);
        assert_eq!(s.sel_source, None, "a new pair clears the selection");
        s.apply(Action::StepPair(1));
        assert_eq!(s.pair, n - 1);
    }

    #[test]
    fn a_refused_link_is_drawn_with_its_criterion_until_the_next_click() {
        let mut s = State::with_sample();
        s.apply(Action::SetMode(Mode::Teach));
        // Pair 1: source NP0 (NP1 (CARD2 NN3) NE4); link the roots, then NP (1) to the target root.
        s.apply(Action::ClickSource(0));
        s.apply(Action::ClickTarget(0));
        assert_eq!(s.student_links(), [(0, 0)]);
        s.apply(Action::ClickSource(1));
        s.apply(Action::ClickTarget(0));
        assert_eq!(s.student_links(), [(0, 0)], "refused: the target root is linked already");
        let drawn = s.drawn_links();
        let refused: Vec<&DrawnLink> = drawn.iter().filter(|l| l.style == LinkStyle::Refused).collect();
        assert_eq!(refused.len(), 1);
        assert_eq!((refused[0].source, refused[0].target), (1, 0));
        assert!(
            refused[0].title.contains("criterion (i)") && refused[0].title.contains("your link 0-0"),
            "{}",
            refused[0].title
        );
        // The next click clears it; the student's link stays drawn.
        s.apply(Action::ClickSource(4));
        assert!(s.drawn_links().iter().all(|l| l.style != LinkStyle::Refused));
        assert_eq!(s.drawn_links().iter().filter(|l| l.style == LinkStyle::Student).count(), 1);
    }

    #[test]
    fn folding_is_per_pair_and_side_and_unfolds() {
        let mut s = State::with_sample();
        let gen = s.corpus_gen;
        s.apply(Action::ToggleFold(Side::Source, 1));
        s.apply(Action::ToggleFold(Side::Target, 0));
        assert_eq!(s.folds.of(gen, 0).0.iter().copied().collect::<Vec<_>>(), [1]);
        assert_eq!(s.folds.of(gen, 0).1.iter().copied().collect::<Vec<_>>(), [0]);
        // A POS node or a node outside the tree does not fold.
        let before = s.folds.clone();
        s.apply(Action::ToggleFold(Side::Source, 2));
        s.apply(Action::ToggleFold(Side::Source, 9999));
        assert_eq!(s.folds, before);
        // Another pair has its own folds; coming back finds these.
        s.apply(Action::StepPair(1));
        assert!(s.folds.of(gen, 1).0.is_empty());
        s.apply(Action::StepPair(-1));
        s.apply(Action::ToggleFold(Side::Source, 1));
        assert!(s.folds.of(gen, 0).0.is_empty(), "toggled again: unfolded");
        assert_eq!(s.folds.of(gen, 0).1.len(), 1);
        s.apply(Action::UnfoldAll);
        assert!(s.folds.of(gen, 0).1.is_empty());
        // Folds belong to one corpus: another generation has none.
        s.apply(Action::ToggleFold(Side::Source, 0));
        assert!(s.folds.of(gen.next(), 0).0.is_empty());
    }

    #[test]
    fn a_wrong_link_is_compared_with_the_nearest_gold_link_not_itself() {
        let mut s = State::with_sample();
        // Pair 1's one gold link is 0-0. CARD (2) ↔ a target POS: no gold link at either node.
        s.apply(Action::ClickSource(2));
        s.apply(Action::ClickTarget(3));
        assert_eq!(s.comparison(), Some((0, 0)), "the gold link of the nearest linked ancestor");
        s.apply(Action::SetCompare(Compare::Itself));
        assert_eq!(s.comparison(), Some((2, 3)));
        // A pair without gold links compares with itself (nothing else to compare with).
        let mut p = s.corpus.pairs[0].clone();
        p.gold.clear();
        assert!(nearest_gold(&p, 2, 3).is_none());
    }

    #[test]
    fn lambda_is_checked_and_kept_when_wrong() {
        let mut s = State::with_sample();
        s.apply(Action::SetLambda("0.25".into()));
        assert_eq!((s.lambda, s.lambda_error.is_none()), (0.25, true));
        s.apply(Action::SetLambda("-1".into()));
        assert_eq!(s.lambda, 0.25);
        assert_eq!(s.lambda_text, "-1");
        assert!(s.lambda_error.as_deref().is_some_and(|e| e.contains("'-1'")), "{:?}", s.lambda_error);
    }

    #[test]
    fn dropped_files_are_checked_by_the_file_worker_and_routed_by_kind() {
        let mut s = State::with_sample();
        // The reducer only keeps the text and asks for a check: nothing is parsed on the page.
        let effects = s.apply(Action::FileRead { name: "x.src".into(), text: "(S (A a))\n".into(), slot: None });
        let [Effect::Load(_, request)] = effects.as_slice() else { panic!("{effects:?}") };
        assert_eq!(request.changed, Slot::Source);
        assert_eq!(
            request.files,
            vec![(Slot::Source, vec![FileText { name: "x.src".into(), text: "(S (A a))\n".into() }])]
        );
        assert!(s.slot(Slot::Source).checking && s.slot(Slot::Source).message.is_none());
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a))\n", None);
        // Alone, the source is kept for its target, not in use.
        assert_eq!(
            s.slot(Slot::Source).message,
            Some(Ok("x.src: 1 tree, 2 nodes; not in use: no target trees yet (the pairs shown stay)".into()))
        );
        assert!(!s.slot(Slot::Source).checking);
        read(&mut s, "x.trg", "(S (B b)\n", None);
        let message = s.slot(Slot::Target).message.clone();
        assert!(matches!(&message, Some(Err(e)) if e.starts_with("x.trg:2:1: expected ')'")), "{message:?}");
        assert!(s.corpus.len() > 1, "a broken file keeps the corpus");
        let gen = s.corpus_gen;
        read(&mut s, "x.trg", "(S (B b))\n", None);
        assert_eq!(s.corpus.len(), 1);
        assert_eq!(s.corpus_gen, gen.next());
        assert_eq!(s.corpus_name, "Uploaded x.src / x.trg");
        // A link outside the trees: the error is shown by the file it is in (its typed origin).
        read(&mut s, "x.gold", "0-99\n", None);
        let message = s.slot(Slot::Gold).message.clone();
        assert!(matches!(&message, Some(Err(e)) if e.starts_with("x.gold:1:1: link 0-99")), "{message:?}");
        assert!(matches!(s.slot(Slot::Source).message, Some(Ok(_))));
        read(&mut s, "x.gold", "0-0\n", None);
        assert_eq!((s.corpus.gold_links(), s.corpus_gen), (1, gen.next()), "the same trees with gold links");
        assert!(read(&mut s, "notes.txt", "", None).is_empty());
        assert!(s.stray.as_deref().is_some_and(|m| m.starts_with("notes.txt: expected")));
        // A .json file is told by its format header, not its name, and goes to the job worker unread.
        let mt = "{\"format\":\"treelink-mt\",\"version\":1}";
        let effects = read(&mut s, "m.json", mt, None);
        assert!(
            matches!(&effects[..], [Effect::Post(Request::LoadMt { model, .. })] if model.name == "m.json"),
            "{effects:?}"
        );
        assert!(s.mt.upload.as_ref().is_some_and(|u| u.name == "m.json"));
        assert_eq!(s.slot(Slot::Model).files.len(), 0);
        assert_eq!(Slot::of_file("lex.e2f"), Some(Slot::LexS2t));
        assert_eq!(Slot::of_file("model.tlmt"), Some(Slot::TranslationModel));
        assert_eq!(Slot::of_file("aligned.grow-diag-final-and"), Some(Slot::WordLinks));
        // A lone lexical table waits for its partner.
        read(&mut s, "lex.e2f", "a b 0.5\n", None);
        assert_eq!(s.slot(Slot::LexS2t).message, Some(Ok("lex.e2f: 1 entries; covers 0 of 1 source word types (0%) and 0 of 1 tokens (0%) (waiting for the p(s|t) table)".into())));
        // The file worker failing leaves what it was checking unread, and the corpus as it was.
        s.apply(Action::FileRead { name: "y.src".into(), text: "(S (A a))\n".into(), slot: None });
        s.apply(Action::LoadFailed("the file worker stopped".into()));
        assert_eq!(s.slot(Slot::Source).message, Some(Err("not read: the file worker stopped".into())));
        assert_eq!(s.corpus_name, "Uploaded x.src / x.trg");
    }

    /// An alignment model file trained on the sample (the plain kernel, few examples: quick).
    fn small_alignment_model() -> String {
        use crate::app::alignment::{lexicon_source, train_model};
        let options = TrainOptions { spec: "plain".parse().unwrap(), max_examples: 40, ..TrainOptions::default() };
        let source = lexicon_source(None, None, Vec::new(), Default::default());
        let model = train_model(&load::sample(), None, source, &[options], &mut crate::progress::Quiet).unwrap();
        model.to_json()
    }

    /// What is in use from `slot`, as the requests and the views read it.
    fn in_use(s: &State, slot: Slot) -> String {
        let corpus = format!("{} {:?}", s.corpus_name, s.corpus.pairs.iter().map(|p| p.gold.len()).collect::<Vec<_>>());
        match slot {
            Slot::Source | Slot::Target | Slot::Gold | Slot::Tiger => corpus,
            Slot::LexS2t | Slot::LexT2s | Slot::WordLinks => format!("{:?}", s.lexicon_files()),
            Slot::Lm => format!("{:?}", s.lm_file()),
            Slot::Model => format!("{:?}", s.model),
            Slot::TranslationModel => format!("{:?}", s.mt.held.as_ref().map(|h| (&h.name, &h.summary))),
            Slot::Exercise | Slot::Answers => format!(
                "{:?} {:?}",
                s.classroom.open.as_ref().map(|o| &o.file),
                s.classroom.class.as_ref().map(|c| c.students.len())
            ),
        }
    }

    /// Item 7 of issue 14: for every input, a good file, then a bad one
    /// for the same input: what was loaded stays in use and the error is
    /// shown next to that input, with what is still in use.
    #[test]
    fn a_file_that_does_not_read_never_replaces_the_one_in_use_in_any_slot() {
        let lm = crate::mt::lm::write_arpa(&crate::mt::lm::NgramLm::train_text("a b c\nb c a\n", 2).unwrap());
        let model = small_alignment_model();
        let good_and_bad: [(Slot, &str, &str, &str); 8] = [
            (Slot::Source, "y.src", "(S (A a) (B b))\n", "(S (A a)\n"),
            (Slot::Target, "y.trg", "(T (C c))\n", "(T (C c)\n"),
            (Slot::Gold, "y.gold", "0-0 1-1\n", "0-99\n"),
            (Slot::LexS2t, "lex.e2f", "c a 0.5\n", "c a 0.5 0.2\n"),
            (Slot::LexT2s, "lex.f2e", "a c 0.5\n", "a c two\n"),
            (Slot::WordLinks, "aligned.gdfa", "0-0\n", "0-0 7-7\n"),
            (Slot::Lm, "lm.arpa", &lm, "\\data\\\nngram 1=x\n"),
            (Slot::Model, "m.json", &model, "{\"format\": \"treelink-alignment-model\""),
        ];
        let mut s = State::with_sample();
        for &(slot, name, good, bad) in &good_and_bad {
            read(&mut s, name, good, Some(slot));
            assert!(matches!(s.slot(slot).message, Some(Ok(_))), "{slot:?}: {:?}", s.slot(slot).message);
            let before = in_use(&s, slot);
            let corpus = s.corpus.clone();
            read(&mut s, &format!("bad-{name}"), bad, Some(slot));
            let status = s.slot(slot);
            assert!(
                matches!(&status.message, Some(Err(e)) if e.starts_with(&format!("bad-{name}:"))),
                "{slot:?}: the error is shown next to its input, naming its file: {:?}",
                status.message
            );
            assert_eq!(in_use(&s, slot), before, "{slot:?}: the good file stays in use");
            assert!(Rc::ptr_eq(&corpus, &s.corpus), "{slot:?}: the pairs loaded stay");
            let still = status.still_in_use().unwrap_or_default();
            // A source alone makes no pairs: it is kept for its target, not in use.
            let kept = if slot == Slot::Source { "kept for its pair, not in use" } else { "still in use" };
            assert!(still.starts_with(&format!("{kept}: {name}")), "{slot:?}: {still}");
            // An empty file is refused alike.
            read(&mut s, name, "", Some(slot));
            assert_eq!(in_use(&s, slot), before, "{slot:?}: an empty file");
        }
        // The refused source was not used with the next good file: the pairs come from the good ones.
        assert_eq!(s.corpus_name, "Uploaded y.src / y.trg");
        read(&mut s, "z.gold", "0-0\n", Some(Slot::Gold));
        assert_eq!((s.corpus.len(), s.corpus.gold_links()), (1, 1), "{}", s.corpus_summary());
        assert!(s.lexicon_files().s2t.is_some_and(|f| f.name == "lex.e2f"));
        // The translation model is read by the job worker: one that fails to read leaves the held one.
        let effects = read(&mut s, "mt.json", "{\"format\":\"treelink-mt\",\"version\":1}", None);
        let [Effect::Post(Request::LoadMt { job, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let ready = Response::MtReady { job: *job, model: *job, summary: "MS".into(), json: None };
        s.apply(Action::Worker { response: ready, now: 1.0 });
        let before = in_use(&s, Slot::TranslationModel);
        let effects = s.apply(Action::MtFilePicked { name: "bad.tlmt".into(), file: FileHandle(3) });
        let [Effect::PostFile(Request::LoadMtFile { job, .. }, _)] = effects.as_slice() else { panic!("{effects:?}") };
        let failed = Response::Failed { job: Some(*job), message: "bad.tlmt: not a translation model".into() };
        s.apply(Action::Worker { response: failed, now: 2.0 });
        assert_eq!(in_use(&s, Slot::TranslationModel), before);
        let status = s.slot(Slot::TranslationModel);
        assert!(matches!(&status.message, Some(Err(e)) if e.starts_with("bad.tlmt:")), "{:?}", status.message);
        assert_eq!(status.still_in_use().as_deref(), Some("still in use: mt.json: MS"));
        // The classroom's inputs: an exercise (its pairs become the corpus)
        // and students' answers to it.
        use crate::exercise::{Answers, Exercise};
        let exercise = Exercise::new(&load::sample(), &[1, 3], "Two pairs", "", false).unwrap();
        let answers = Answers::new(&exercise, "Ana", &[]).to_json();
        let exercise = exercise.to_json();
        let classroom: [(Slot, &str, &str, &str); 2] = [
            (Slot::Exercise, "ex.json", &exercise, "{\"format\": \"treelink-exercise\", \"version\": 1, \"pairs\": 3}"),
            (Slot::Answers, "ana.answers.json", &answers, "{\"format\": \"treelink-answers\""),
        ];
        for &(slot, name, good, bad) in &classroom {
            read(&mut s, name, good, Some(slot));
            assert!(matches!(s.slot(slot).message, Some(Ok(_))), "{slot:?}: {:?}", s.slot(slot).message);
            let (before, corpus) = (in_use(&s, slot), s.corpus.clone());
            read(&mut s, &format!("bad-{name}"), bad, Some(slot));
            let status = s.slot(slot);
            assert!(
                // Answers gather: the class table counts the files that read.
                matches!(&status.message, Some(Err(e)) if e.starts_with(&format!("bad-{name}:"))
                    || e.starts_with(&format!("1 of 2 files not counted: bad-{name}:1:"))),
                "{slot:?}: {:?}",
                status.message
            );
            assert_eq!(in_use(&s, slot), before, "{slot:?}: the good file stays in use");
            assert!(Rc::ptr_eq(&corpus, &s.corpus), "{slot:?}: the pairs loaded stay");
        }
        assert_eq!((s.corpus.len(), s.classroom.class.as_ref().map(|c| c.students.len())), (2, Some(1)));
    }

    /// Files of the trees' group may come in any order: gold links given
    /// before their target trees are refused against the pairs loaded then,
    /// and taken once the trees come. A refused file that is refused again
    /// does not hold back the others: they go with the file in use.
    #[test]
    fn gold_links_before_their_trees_are_taken_when_the_trees_come() {
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a) (B b))\n(S (A a))\n", Some(Slot::Source));
        read(&mut s, "x.gold", "0-0 1-1\n0-0\n", Some(Slot::Gold));
        assert!(matches!(s.slot(Slot::Gold).message, Some(Err(_))), "{:?}", s.slot(Slot::Gold).message);
        read(&mut s, "x.trg", "(T (C c) (D d))\n(T (C c))\n", Some(Slot::Target));
        assert_eq!(s.corpus_name, "Uploaded x.src / x.trg");
        assert_eq!((s.corpus.len(), s.corpus.gold_links()), (2, 3), "{}", s.corpus_summary());
        assert!(matches!(s.slot(Slot::Gold).message, Some(Ok(_))), "{:?}", s.slot(Slot::Gold).message);
        assert_eq!(s.ok_name(Slot::Gold), Some("x.gold"));
        // Gold links that do not fit these trees stay refused; new trees
        // of the same shape still load, with the gold links in use.
        read(&mut s, "bad.gold", "0-99\n0-0\n", Some(Slot::Gold));
        assert!(matches!(&s.slot(Slot::Gold).message, Some(Err(e)) if e.starts_with("bad.gold:1:")));
        read(&mut s, "y.src", "(S (A x) (B y))\n(S (A z))\n", Some(Slot::Source));
        assert_eq!(s.corpus_name, "Uploaded y.src / x.trg");
        assert_eq!(s.corpus.gold_links(), 3);
        assert_eq!(s.corpus.pairs[0].source.words(), ["x", "y"]);
        assert!(matches!(&s.slot(Slot::Gold).message, Some(Err(e)) if e.starts_with("bad.gold:1:")));
        assert_eq!(s.ok_name(Slot::Gold), Some("x.gold"));
    }

    /// Trees that read alone but make no pairs (the other side missing or
    /// refused) are kept for their pair and say they are not in use; the
    /// pairs they then make put them in use, and an error after that says
    /// which files are still in use.
    #[test]
    fn trees_that_make_no_pairs_say_they_are_not_in_use() {
        let mut s = State::with_sample();
        let corpus = s.corpus.clone();
        let message = |s: &State, slot: Slot| match &s.slot(slot).message {
            Some(Ok(m) | Err(m)) => m.clone(),
            None => String::new(),
        };
        read(&mut s, "x.trg", "(T (C c))\n(T (C c))\n", Some(Slot::Target));
        assert_eq!(
            message(&s, Slot::Target),
            "x.trg: 2 trees, 4 nodes; not in use: no source trees yet (the pairs shown stay)"
        );

        // A source over the page's limit: refused, and the target waits for one that reads.
        let wide = format!("(S (A a))\n(S {})\n", "(A a) ".repeat(1001));
        read(&mut s, "wide.src", &wide, Some(Slot::Source));
        assert!(
            message(&s, Slot::Source).starts_with("wide.src:2:1: this tree has 1001 words"),
            "{}",
            message(&s, Slot::Source)
        );
        assert_eq!(
            message(&s, Slot::Target),
            "x.trg: 2 trees, 4 nodes; not in use: its source trees were refused (the pairs shown stay)"
        );
        assert!(Rc::ptr_eq(&corpus, &s.corpus), "the pairs shown stay");
        // A bad target now: the one kept is named as kept, not as in use.
        read(&mut s, "bad.trg", "(T (C c)\n", Some(Slot::Target));
        assert_eq!(
            s.slot(Slot::Target).still_in_use().as_deref(),
            Some("kept for its pair, not in use: x.trg: 2 trees, 4 nodes")
        );
        // A source that reads: the pairs are made with the target kept, both in use.
        read(&mut s, "x.src", "(S (A a))\n(S (B b))\n", Some(Slot::Source));
        assert_eq!(s.corpus_name, "Uploaded x.src / x.trg");
        assert_eq!(message(&s, Slot::Source), "x.src: 2 trees, 4 nodes");
        assert!(!s.slot(Slot::Source).waiting && !s.slot(Slot::Target).waiting);
        read(&mut s, "bad.src", "(S (A a)\n", Some(Slot::Source));
        assert_eq!(s.slot(Slot::Source).still_in_use().as_deref(), Some("still in use: x.src: 2 trees, 4 nodes"));
        // The target's last upload was refused; what it keeps is in use now.
        assert_eq!(s.slot(Slot::Target).still_in_use().as_deref(), Some("still in use: x.trg: 2 trees, 4 nodes"));
        // Gold links for the pairs shown make new pairs, but not from a waiting target.
        let mut s = State::with_sample();
        read(&mut s, "x.trg", "(T (C c))\n", Some(Slot::Target));
        let gold = write_links(&s.corpus.pairs.iter().map(|p| p.gold.clone()).collect::<Vec<_>>());
        read(&mut s, "again.gold", &gold, Some(Slot::Gold));
        assert_eq!(s.corpus_name, "Built-in sample (SQUOIA German–Spanish, dev) + gold links from again.gold");
        assert!(s.slot(Slot::Target).waiting, "{:?}", s.slot(Slot::Target).message);
    }

    /// Files picked one after another are checked while earlier checks are
    /// still in flight; an answer about files given before the last ones
    /// is not taken for theirs, after refused files of the same group.
    #[test]
    fn files_picked_while_others_are_checked_make_one_corpus_with_their_gold_links() {
        let mut s = State::with_sample();
        read(&mut s, "empty.trg", "", Some(Slot::Target));
        read(&mut s, "million.gold", "0-0\n0-0\n", Some(Slot::Gold));
        assert!(matches!(s.slot(Slot::Gold).message, Some(Err(_))));
        let files = [
            (Slot::Source, "big.src", "(S (A a) (B b))\n(S (A a))\n"),
            (Slot::Target, "big.trg", "(T (C c) (D d))\n(T (C c))\n"),
            (Slot::Gold, "big.gold", "0-0 1-1\n0-0\n"),
        ];
        // The target is read before the source's answer comes, the gold
        // links after it and before the target's.
        let answer = |s: &mut State, effects: Vec<Effect>| {
            let [Effect::Load(_, request)] = &effects[..] else { panic!("{effects:?}") };
            answer_load(s, request);
        };
        let pick = |s: &mut State, (slot, name, text): (Slot, &str, &str)| {
            s.apply(Action::FileRead { name: name.into(), text: text.into(), slot: Some(slot) })
        };
        let source = pick(&mut s, files[0]);
        let target = pick(&mut s, files[1]);
        answer(&mut s, source);
        // What the source's check said of the target given before is not
        // shown for the one being checked.
        let target_status = s.slot(Slot::Target);
        assert!(target_status.checking && target_status.message.is_none(), "{target_status:?}");
        let gold = pick(&mut s, files[2]);
        answer(&mut s, target);
        answer(&mut s, gold);
        assert_eq!(s.corpus_name, "Uploaded big.src / big.trg");
        assert_eq!((s.corpus.len(), s.corpus.gold_links()), (2, 3), "{}", s.corpus_summary());
        for (slot, name, _) in files {
            let status = s.slot(slot);
            assert!(!status.checking);
            assert!(matches!(&status.message, Some(Ok(m)) if m.starts_with(name)), "{slot:?}: {:?}", status.message);
            assert_eq!(s.ok_name(slot), Some(name));
        }
    }

    #[test]
    fn a_lexical_table_reports_its_coverage_of_the_loaded_words_and_warns_when_low() {
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a) (B b) (A a))\n", None);
        read(&mut s, "x.trg", "(T (C c) (D d))\n", None);
        // p(t|s) is conditioned on source words: "a" (2 of 3 tokens) of {a, b}.
        read(&mut s, "lex.e2f", "c a 0.5\n", None);
        let status = s.slot(Slot::LexS2t);
        let message = status.message.clone();
        assert!(
            matches!(&message, Some(Ok(m)) if m.starts_with("lex.e2f: 1 entries; covers 1 of 2 source word types (50%) and 2 of 3 tokens (67%)")),
            "{message:?}"
        );
        assert!(status.warning.is_none(), "50% is not below 50%");
        // p(s|t) on target words: neither "c" nor "d".
        read(&mut s, "lex.f2e", "x y 0.5\n", None);
        let status = s.slot(Slot::LexT2s);
        assert!(
            matches!(&status.message, Some(Ok(m)) if m.contains("covers 0 of 2 target word types (0%)")),
            "{:?}",
            status.message
        );
        assert!(
            status.warning.as_deref().is_some_and(|w| w.starts_with("lex.f2e covers less than 50%")),
            "{:?}",
            status.warning
        );
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
    fn swapping_sides_swaps_every_per_side_file_and_twice_is_the_identity() {
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a) (B b))\n", None);
        read(&mut s, "x.trg", "(T (C c))\n", None);
        read(&mut s, "x.gold", "0-0 2-1?\n", None);
        read(&mut s, "lex.e2f", "c a 0.5\n", None);
        read(&mut s, "aligned.gdfa", "1-0\n", None);
        s.apply(Action::SetMode(Mode::Teach));
        s.apply(Action::ClickSource(0));
        s.apply(Action::ClickTarget(0));
        let before = s.clone();
        s.apply(Action::SwapSides);
        assert_eq!(s.corpus.pairs[0].source.to_bracketed(), "(T (C c))");
        assert_eq!(s.corpus.pairs[0].gold[1].source, 1);
        assert_eq!(s.ok_name(Slot::Source), Some("x.trg"));
        assert_eq!(s.lexicon_files().t2s.map(|f| f.name), Some("lex.e2f".to_string()));
        assert_eq!(s.lexicon_files().word_links.map(|f| f.text), Some("0-1\n".to_string()));
        assert_eq!(s.slot(Slot::Gold).kept[0].text.to_string(), "0-0 1-2?\n");
        assert_eq!(s.student_links(), [(0, 0)]);
        assert_ne!(s.corpus_gen, before.corpus_gen, "results of the other direction no longer apply");
        assert!(s.corpus_summary().ends_with("(sides swapped)"), "{}", s.corpus_summary());
        s.apply(Action::SwapSides);
        assert_eq!(
            (&s.corpus, &s.corpus_name, &s.teach.links),
            (&before.corpus, &before.corpus_name, &before.teach.links)
        );
        // (Texts compare by pointer in the state: compare what they hold.)
        assert_eq!(format!("{:?}", s.slots), format!("{:?}", before.slots));
        assert_eq!((&s.tiger_ids, s.sides_swapped), (&before.tiger_ids, false));
        // Files given after a swap are checked with the swapped ones: gold links for the swapped trees.
        s.apply(Action::SwapSides);
        read(&mut s, "y.gold", "0-1\n", None);
        assert!(matches!(s.slot(Slot::Gold).message, Some(Ok(_))), "{:?}", s.slot(Slot::Gold).message);
        assert_eq!(s.corpus.pairs[0].source.to_bracketed(), "(T (C c))");
        assert_eq!(
            s.corpus_summary(),
            "Uploaded x.trg / x.src: 1 pairs, 5 nodes, 1 gold links",
            "the files' names say the direction now"
        );
    }

    #[test]
    fn hand_links_are_undone_and_redone_on_their_pair() {
        let mut s = State::with_sample();
        s.apply(Action::SetMode(Mode::Teach));
        let link = |s: &mut State, a: NodeId, b: NodeId| {
            s.apply(Action::ClickSource(a));
            s.apply(Action::ClickTarget(b));
        };
        link(&mut s, 0, 0);
        link(&mut s, 1, 1);
        s.apply(Action::SelectPair(3));
        link(&mut s, 0, 0);
        s.apply(Action::ClickLink(0, 0)); // removed again
        assert_eq!((s.teach.history.undo.len(), s.student_links()), (4, &[][..]));
        s.apply(Action::SelectPair(5));
        s.apply(Action::Undo); // the removal, on pair 4
        assert_eq!((s.pair, s.student_links()), (3, &[(0, 0)][..]));
        s.apply(Action::Undo);
        s.apply(Action::Undo); // pair 1's second link
        assert_eq!((s.pair, s.student_links()), (0, &[(0, 0)][..]));
        assert!(!s.teach.links.contains_key(&3));
        s.apply(Action::Redo);
        assert_eq!(s.student_links(), [(0, 0), (1, 1)]);
        // A new edit forgets what was undone.
        s.apply(Action::TeachClear);
        assert!(s.teach.history.redo.is_empty());
        s.apply(Action::Redo);
        assert!(matches!(&s.teach.message, Some(Err(m)) if m == "Nothing to redo."));
        s.apply(Action::Undo);
        assert_eq!(s.student_links(), [(0, 0), (1, 1)]);
        // Undo to the start, then redo all: the same links.
        let all = s.teach.links.clone();
        let n = s.teach.history.undo.len();
        for _ in 0..n {
            s.apply(Action::Undo);
        }
        assert!(s.teach.links.is_empty());
        for _ in 0..n {
            s.apply(Action::Redo);
        }
        assert_eq!(s.teach.links, all);
        // Refused links and clicks outside teaching are not edits.
        let n = s.teach.history.undo.len();
        s.apply(Action::SetMode(Mode::Inspect));
        s.apply(Action::ClickLink(0, 0));
        assert_eq!(s.teach.history.undo.len(), n);
    }

    #[test]
    fn the_address_names_the_pair_and_mode_and_opens_them() {
        let mut s = State::with_sample();
        assert_eq!(s.apply(Action::SelectPair(11)), vec![Effect::SetLocation("#pair=12&mode=inspect".into())]);
        assert_eq!(s.apply(Action::SetMode(Mode::Teach)), vec![Effect::SetLocation("#pair=12&mode=teach".into())]);
        assert!(s.apply(Action::SelectPair(11)).is_empty(), "no change, no new history entry");
        // Opening an address (back/forward, a shared link) adds no entry of its own.
        assert!(s.apply(Action::OpenLocation("#pair=3&mode=steps".into())).is_empty());
        assert_eq!((s.pair, s.mode), (2, Mode::Steps));
        s.apply(Action::OpenLocation("#mode=inspect&junk=1&pair=x".into()));
        assert_eq!((s.pair, s.mode), (2, Mode::Inspect));
        s.apply(Action::OpenLocation("#pair=0".into()));
        assert_eq!(s.pair, 2, "pairs count from 1");
        assert_eq!(Location::parse("pair=5&mode=teach"), Location { pair: Some(4), mode: Some(Mode::Teach) });
        // A pair beyond those loaded opens when pairs that have it arrive.
        let n = s.corpus.len();
        s.apply(Action::OpenLocation(format!("#pair={}", n + 2)));
        assert_eq!((s.pair, s.wanted_pair), (2, Some(n + 1)));
        let many: String = (0..n + 5).map(|k| format!("(S (A a{k}))\n")).collect();
        read(&mut s, "m.src", &many, None);
        read(&mut s, "m.trg", &many, None);
        assert_eq!((s.pair, s.wanted_pair), (n + 1, None));
    }

    #[test]
    fn a_pair_is_found_and_opened() {
        let mut s = State::with_sample();
        s.apply(Action::Find("Lateinamerika".into()));
        let found = s.find.found.clone();
        assert_eq!(found.first(), Some(&(0, Found::Word { source: true, word: "Lateinamerika-Institut".into() })));
        s.apply(Action::Find("7".into()));
        assert_eq!(s.find.found, [(6, Found::Number)]);
        s.apply(Action::SelectPair(6));
        assert_eq!(s.pair, 6);
        // New pairs: the same query searches them.
        read(&mut s, "x.src", "(S (A a))\n", None);
        read(&mut s, "x.trg", "(S (B b))\n", None);
        assert!(s.find.found.is_empty());
    }

    /// An instructor searches and adds what was found to the exercise: all
    /// the pairs found, or one; the exported exercise holds those pairs.
    #[test]
    fn found_pairs_go_into_the_exercise() {
        use crate::exercise::Exercise;
        let mut s = State::with_sample();
        s.apply(Action::Exercise(ExerciseAction::SetPairs("2".into())));
        s.apply(Action::Find("Lateinamerika".into()));
        let numbers: Vec<usize> = s.find.found.iter().map(|(k, _)| k + 1).collect();
        assert!(!numbers.is_empty());
        assert!(s.apply(Action::AddFoundToExercise(None)).is_empty());
        let listed = |s: &State| crate::ui::classroom::parse_pair_numbers(&s.classroom.form.pairs).unwrap();
        let expected: Vec<usize> = std::iter::once(2).chain(numbers.iter().copied().filter(|&n| n != 2)).collect();
        assert_eq!(listed(&s), expected);
        assert!(s.find.added.as_deref().unwrap().starts_with(&format!("{} pair", numbers.len())), "{:?}", s.find.added);
        // Again: nothing new.
        s.apply(Action::AddFoundToExercise(None));
        assert_eq!(listed(&s), expected);
        assert!(s.find.added.as_deref().unwrap().starts_with("0 pairs added"), "{:?}", s.find.added);
        // One pair found by its number, added alone.
        s.apply(Action::Find("7".into()));
        assert!(s.find.added.is_none());
        s.apply(Action::AddFoundToExercise(Some(6)));
        assert_eq!(listed(&s).last(), Some(&7));
        assert_eq!(
            s.find.added.as_deref(),
            Some(format!("1 pair added to the exercise's pairs: {}", s.classroom.form.pairs).as_str())
        );
        // Exported: the engine's exercise of exactly those pairs.
        let exported = s.apply(Action::Exercise(ExerciseAction::Export));
        let [Effect::Download { body: DownloadBody::Text { text, .. }, .. }] = &exported[..] else {
            panic!("{exported:?}")
        };
        let f = &s.classroom.form;
        let made = Exercise::new(&s.corpus, &listed(&s), &f.title, &f.instructions, f.show_gold).unwrap();
        assert_eq!(text.to_string(), made.to_json());
    }

    #[test]
    fn a_session_survives_a_reload_through_the_normal_load_path() {
        let mut s = State::with_sample();
        read(&mut s, "x.src", "(S (A a) (B b))\n(S (A c))\n", None);
        read(&mut s, "x.trg", "(T (C c))\n(T (D d) (E e))\n", None);
        read(&mut s, "x.gold", "0-0\n0-0\n", None);
        read(&mut s, "lex.e2f", "c a 0.5\n", None);
        read(&mut s, "lex.e2f", "broken", None); // refused: the good one is kept
        let id = started(&s.apply(Action::Train { now: 0.0 }));
        let trained = Response::Trained { job: id, model: "{\"m\":1}".into(), summary: "a model".into() };
        s.apply(Action::Worker { response: trained, now: 1.0 });
        s.apply(Action::Cancel);
        s.apply(Action::SetField(Field::Seed, "9".into()));
        s.apply(Action::SetLambda("0.3".into()));
        s.apply(Action::SwapSides);
        s.apply(Action::SetMode(Mode::Teach));
        s.apply(Action::SelectPair(1));
        s.apply(Action::ClickSource(0));
        s.apply(Action::ClickTarget(0));
        s.apply(Action::ToggleFold(Side::Target, 0));
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
        assert_eq!((r.pair, r.mode, &r.teach.links), (1, Mode::Teach, &s.teach.links));
        assert_eq!(r.student_links(), [(0, 0)]);
        assert_eq!(r.folds.saved(r.corpus_gen), s.folds.saved(s.corpus_gen), "the folds, on the swapped pairs");
        assert_eq!((&r.form, &r.lambda_text, r.lambda), (&s.form, &s.lambda_text, 0.3));
        // The model was trained before the swap: the pairs as shown are not the ones it saw.
        assert_eq!(s.model.as_ref().and_then(|m| m.trained_on).map(|t| t.gen == s.corpus_gen), Some(false));
        let unmarked = s.model.clone().map(|m| LoadedAlignmentModel { trained_on: None, ..m });
        assert_eq!(format!("{:?}", r.model), format!("{unmarked:?}"));
        assert_eq!(format!("{:?}", r.lexicon_files()), format!("{:?}", s.lexicon_files()));
        // The address wins over the session's pair and mode.
        let mut r = State::with_sample();
        let effects = r.apply(Action::Restore { session: Box::new(s.session()), mt_file: None });
        r.apply(Action::OpenLocation("#pair=1&mode=inspect".into()));
        for e in effects {
            if let Effect::Load(_, request) = e {
                let checked = load::check(&request);
                let corpus = checked.corpus;
                r.apply(Action::Loaded { answer: checked.answer, corpus });
            }
        }
        assert_eq!((r.pair, r.mode), (0, Mode::Inspect));
        // Start fresh: the sample and the defaults, and the kept session forgotten.
        let effects = r.apply(Action::StartFresh);
        assert!(effects.contains(&Effect::ForgetSession), "{effects:?}");
        assert_eq!((r.corpus_name.as_str(), r.teach.links.len(), r.model.is_none()), (SAMPLE_NAME, 0, true));
    }

    #[test]
    fn gold_links_alone_go_with_the_sample_trees() {
        let mut s = State::with_sample();
        let n = s.corpus.len();
        let gold = "0-0\n".repeat(n);
        let effects = read(&mut s, "only.gold", &gold, None);
        let [Effect::Load(_, request)] = effects.as_slice() else { panic!("{effects:?}") };
        assert!(request.current.is_some(), "the trees loaded now are sent along");
        assert_eq!((s.corpus.len(), s.corpus.gold_links(), s.corpus_gen), (n, n, CorpusGen(0)));
        assert!(s.corpus_name.ends_with(" + gold links from only.gold"), "{}", s.corpus_name);
    }

    #[test]
    fn tiger_files_wait_for_three_then_import_through_the_application_layer() {
        let mut s = State::with_sample();
        // Too few files: nothing changes yet.
        read(&mut s, "a.xml", "<corpus/>", None);
        assert_eq!(s.slot(Slot::Tiger).files.len(), 1);
        assert!(s.tiger_ids.is_none());
        read(&mut s, "b.xml", "<corpus/>", None);
        read(&mut s, "c.xml", "<corpus/>", None);
        let message = s.slot(Slot::Tiger).message.clone();
        assert_eq!(
            message,
            Some(Err("expected one Stockholm TreeAligner file (<treealign>) among the XML files, found 0".into()))
        );
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads ../shared/data from disk
    fn a_tiger_pair_dropped_with_its_alignment_first_replaces_the_corpus() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/lingua-align-nl-en-125/raw/");
        let mut s = State::with_sample();
        for name in ["nl-en_125.xml", "ep-00-12-15.125.nl.tiger", "ep-00-12-15.125.en.tiger"] {
            let text = std::fs::read_to_string(format!("{dir}{name}")).unwrap_or_else(|e| panic!("{name}: {e}"));
            read(&mut s, name, &text, Some(Slot::Tiger));
        }
        assert!(matches!(s.slot(Slot::Tiger).message, Some(Ok(_))), "{:?}", s.slot(Slot::Tiger).message);
        assert_eq!(s.corpus.len(), 125);
        assert_eq!(s.corpus_name, "Uploaded TigerXML pair");
        assert_eq!(s.tiger_ids.as_ref().map(|ids| ids.len()), Some(125));
        // A set that does not import leaves the imported pair in use.
        let (corpus, ids) = (s.corpus.clone(), s.tiger_ids.clone());
        for name in ["a.xml", "b.xml", "c.xml"] {
            read(&mut s, name, "<corpus>", Some(Slot::Tiger));
        }
        assert!(Rc::ptr_eq(&corpus, &s.corpus) && ids == s.tiger_ids);
        let status = s.slot(Slot::Tiger);
        assert!(matches!(status.message, Some(Err(_))), "{:?}", status.message);
        assert!(status.still_in_use().is_some_and(|m| m.starts_with("still in use: ")), "{:?}", status.still_in_use());
    }

    /// The job a `Train` or `Align` action started, from the request it posted.
    fn started(effects: &[Effect]) -> JobId {
        match effects {
            [Effect::Post(Request::Train { job, .. } | Request::Align { job, .. })] => *job,
            _ => panic!("expected one job request, found {effects:?}"),
        }
    }

    /// Issue 12: a worker that dies during a job ends the job with the
    /// news; the page offers a fresh worker (or the next job starts one)
    /// and keeps the data and results.
    #[test]
    fn a_worker_that_died_is_offered_again_and_the_data_stays() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Train { now: 1.0 });
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
        assert!(matches!(s.apply(Action::Train { now: 4.0 }).as_slice(), [Effect::Post(Request::Train { .. })]));
        assert!(!s.worker_stopped);
    }

    #[test]
    fn training_posts_one_request_and_cancelling_restarts_the_worker() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::Train { now: 1.0 });
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
        assert!(s.apply(Action::Train { now: 2.0 }).is_empty(), "one job at a time");
        assert!(s.apply(Action::Align { now: 2.0 }).is_empty());
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
        assert!(s.apply(Action::Align { now: 3.0 }).is_empty());
        assert!(s.apply(Action::DownloadModel).is_empty());
    }

    /// Posts a training request, returns what it asks and the job's split, and cancels it.
    fn train_request(s: &mut State) -> (PairsTraining, DecisionThreshold, Option<(usize, usize, usize)>) {
        let effects = s.apply(Action::Train { now: 1.0 });
        let [Effect::Post(Request::Train { how, options, .. })] = effects.as_slice() else { panic!("{effects:?}") };
        let asked = (*how, options.threshold, s.job.as_ref().and_then(|j| j.split).map(|p| (p.train, p.dev, p.test)));
        s.apply(Action::Cancel);
        asked
    }

    #[test]
    fn the_word_model_and_the_checkboxes_reach_the_training_request() {
        let mut s = State::with_sample();
        assert_eq!(s.corpus.len(), 157);
        let fixed = DecisionThreshold::Fixed(0.0);
        let how =
            |word_model, stem_backoff, calibrate, test| PairsTraining { word_model, stem_backoff, calibrate, test };
        assert_eq!(train_request(&mut s), (how(WordModel::FastAlign, None, false, false), fixed, Some((157, 0, 0))));
        s.apply(Action::SetWordModel(WordModel::Hmm));
        s.apply(Action::SetCalibrate(true));
        assert_eq!(
            train_request(&mut s),
            (how(WordModel::Hmm, None, true, false), DecisionThreshold::Calibrated, Some((126, 31, 0))),
            "as `train --dev` (--threshold auto) on the last 20%"
        );
        s.apply(Action::SetHoldOutTest(true));
        assert_eq!(
            train_request(&mut s),
            (how(WordModel::Hmm, None, true, true), DecisionThreshold::Calibrated, Some((101, 25, 31)))
        );
        s.apply(Action::SetStemBackoff(true));
        s.apply(Action::SetCalibrate(false));
        assert_eq!(
            train_request(&mut s),
            (how(WordModel::Hmm, Some(PAGE_STEM_CHARS), false, true), fixed, Some((126, 0, 31)))
        );
        s.apply(Action::SetStemBackoff(false));
        s.apply(Action::SetHoldOutTest(false));
        assert_eq!(train_request(&mut s), (how(WordModel::Hmm, None, false, false), fixed, Some((157, 0, 0))));
        // Too few pairs to hold out a test and dev: nothing is posted.
        read(&mut s, "x.src", "(S (A a))\n(S (A c))\n", None);
        read(&mut s, "x.trg", "(T (C c))\n(T (D d))\n", None);
        read(&mut s, "x.gold", "0-0\n0-0\n", None);
        assert_eq!(s.corpus.len(), 2);
        s.apply(Action::SetCalibrate(true));
        s.apply(Action::SetHoldOutTest(true));
        assert!(s.apply(Action::Train { now: 2.0 }).is_empty());
        assert!(s.job.is_none());
        s.apply(Action::SetCalibrate(false));
        assert_eq!(train_request(&mut s).2, Some((1, 0, 1)));
    }

    /// Issue 14, item 7: a held-out test aligns and scores the last 20%
    /// alone, without the training-data warning; the pairs before it are
    /// marked as the model's training pairs (not aligned, not explained),
    /// and their scores carry the warning once the model aligns them.
    #[test]
    fn a_held_out_test_scores_the_held_out_pairs_and_marks_the_training_pairs() {
        let mut s = State::with_sample();
        s.apply(Action::SetHoldOutTest(true));
        let id = started(&s.apply(Action::Train { now: 0.0 }));
        let trained = Response::Trained { job: id, model: "{\"m\":1}".into(), summary: "a model".into() };
        s.apply(Action::Worker { response: trained, now: 1.0 });
        let trained_on = s.model.as_ref().and_then(|m| m.trained_on);
        assert_eq!(trained_on, Some(TrainedOn { gen: s.corpus_gen, seen: 126 }));
        // Kept for the next visit, with the choices.
        let mut r = State::with_sample();
        r.apply(Action::Restore { session: Box::new(s.session()), mt_file: None });
        assert_eq!(r.model.as_ref().and_then(|m| m.trained_on), Some(TrainedOn { gen: r.corpus_gen, seen: 126 }));
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

        let id = started(&s.apply(Action::Train { now: 3000.0 }));
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
        assert_eq!((r.first, r.seen, r.trained_on_these(), r.pairs()), (126, 126, false, 126..157));
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
        s.apply(Action::SelectPair(3));
        s.apply(Action::ClickSource(1));
        assert!(s.apply(Action::ClickTarget(2)).is_empty());
        s.apply(Action::SelectPair(130));
        s.apply(Action::ClickSource(1));
        assert_eq!(
            s.apply(Action::ClickTarget(2)),
            vec![Effect::Post(Request::Explain { pair: 130, source: 1, target: 2 })]
        );

        // The same model aligning all the pairs: their scores include the
        // training pairs', and carry the warning.
        // Align with the model held, every pair answered.
        let align_all = |s: &mut State, now: f64| {
            let id = started(&s.apply(Action::Align { now }));
            let aligned = empty_alignment(id, n, "all", 0);
            s.apply(Action::Worker { response: aligned, now: now + 1.0 });
        };
        align_all(&mut s, 6.0);
        let r = s.results().unwrap();
        assert_eq!((r.first, r.seen, r.trained_on_these(), r.held_out.is_none()), (0, 126, true, true));
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
        assert_eq!(s.results().map(|r| (r.seen, r.trained_on_these())), Some((0, false)));
        assert!(!s.job_note_on_training_data);
    }

    #[test]
    fn a_trained_model_downloads_aligns_and_explains_the_selected_pair() {
        let mut s = State::with_sample();
        let id = started(&s.apply(Action::Train { now: 0.0 }));
        let model = "{\"format\":\"treelink-alignment-model\"}".to_string();
        let trained = Response::Trained { job: id, model: model.clone(), summary: "a model".into() };
        s.apply(Action::Worker { response: trained, now: 1.0 });
        assert_eq!(s.model.as_ref().map(|m| m.origin.to_string()).as_deref(), Some("trained in this page"));
        assert_eq!(
            s.session().alignment_model,
            Some(("a model".to_string(), model.clone())),
            "kept for the next visit"
        );
        let download = s.apply(Action::DownloadModel);
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
        assert!(s.apply(Action::ClickSource(1)).is_empty());
        let explain = s.apply(Action::ClickTarget(2));
        assert_eq!(explain, vec![Effect::Post(Request::Explain { pair: 0, source: 1, target: 2 })]);
        assert!(s
            .explained
            .as_ref()
            .is_some_and(|e| (e.pair, e.source, e.target, e.result.is_none()) == (0, 1, 2, true)));
        assert!(s.apply(Action::SetLambda("0.3".into())).is_empty());
        // Aligning again posts the model the page holds.
        let effects = s.apply(Action::Align { now: 3.0 });
        assert!(matches!(&effects[..], [Effect::Post(Request::Align { model: m, .. })] if *m == model), "{effects:?}");
    }

    #[test]
    fn an_uploaded_translation_model_goes_to_the_worker_as_a_file_and_is_sent_again_after_a_restart() {
        let mut s = State::with_sample();
        let effects = s.apply(Action::MtFilePicked { name: "big.tlmt".into(), file: FileHandle(7) });
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
        let id = started(&s.apply(Action::Train { now: 0.0 }));
        let before = s.clone();
        s.apply(progress(id.0, "training the SVM", 3, 0));
        s.apply(Action::Tick(900.0));
        assert_ne!(s, before);
        assert!(s.same_but_progress(&before), "the panels do not re-render for progress");
        s.apply(Action::SetField(Field::Seed, "7".into()));
        assert!(!s.same_but_progress(&before));
        let before = s.clone();
        s.apply(Action::Cancel);
        assert!(!s.same_but_progress(&before), "a job's end shows everywhere");
    }

    #[test]
    fn a_failed_job_ends_with_its_message() {
        let mut s = State::with_sample();
        let id = started(&s.apply(Action::Train { now: 0.0 }));
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
        s.apply(Action::Train { now: 0.0 });
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
        let id = started(&s.apply(Action::Train { now: 0.0 }));
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
        s.apply(Action::SetMode(Mode::Teach));
        s.apply(Action::ClickSource(0));
        s.apply(Action::ClickTarget(0));
        let student = s.apply(Action::Export(ExportFile::StudentLinks));
        assert!(
            matches!(&student[..], [Effect::Download { name, body: DownloadBody::Text { text, .. } }] if name == "treelink-student.gold" && text.starts_with("0-0\n")),
            "{student:?}"
        );
    }

    #[test]
    fn files_given_are_read_by_an_effect_and_a_translation_model_goes_unread() {
        let mut s = State::with_sample();
        let files = vec![
            ("a.src".to_string(), FileHandle(1)),
            ("m.json".to_string(), FileHandle(2)),
            ("big.tlmt".to_string(), FileHandle(3)),
            ("x.txt".to_string(), FileHandle(4)),
        ];
        let effects = s.apply(Action::FilesGiven { files, slot: None });
        let read = |file: u32, name: &str, sniff_mt: bool| Effect::ReadFile {
            file: FileHandle(file),
            name: name.into(),
            slot: None,
            sniff_mt,
        };
        assert_eq!(effects.len(), 4, "{effects:?}");
        assert_eq!(effects[0], read(1, "a.src", false));
        assert_eq!(effects[1], read(2, "m.json", true), "a .json file's head says which model it is");
        assert!(
            matches!(&effects[2], Effect::PostFile(Request::LoadMtFile { name, .. }, FileHandle(3)) if name == "big.tlmt")
        );
        assert_eq!(effects[3], read(4, "x.txt", false), "routed once read (a stray, then)");
        // Picked for a slot: read for it, whatever the name.
        let effects =
            s.apply(Action::FilesGiven { files: vec![("a.txt".into(), FileHandle(5))], slot: Some(Slot::Gold) });
        assert_eq!(
            effects,
            vec![Effect::ReadFile {
                file: FileHandle(5),
                name: "a.txt".into(),
                slot: Some(Slot::Gold),
                sniff_mt: false
            }]
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
        let effects = s.apply(Action::LoadSample);
        let [Effect::Load(_, request)] = effects.as_slice() else { panic!("{effects:?}") };
        assert!(request.sample && request.files.is_empty());
        assert_eq!(s.corpus_summary(), format!("{SAMPLE_NAME}: reading it…"), "not the counts of the pairs shown");
        // Hand links on the sample, kept from the last visit, restored before the sample arrives.
        let mut kept = State::with_sample();
        kept.apply(Action::SetMode(Mode::Teach));
        kept.apply(Action::SelectPair(2));
        kept.apply(Action::ClickSource(0));
        kept.apply(Action::ClickTarget(0));
        let session = kept.session();
        assert!(session.files.is_empty());
        s.apply(Action::Restore { session: Box::new(session), mt_file: None });
        assert!(s.restoring.is_some(), "the session waits for the sample");
        answer_load(&mut s, request);
        assert_eq!((s.corpus.as_ref(), s.corpus_name.as_str()), (kept.corpus.as_ref(), SAMPLE_NAME));
        assert_eq!((s.pair, s.mode, s.student_links()), (2, Mode::Teach, &[(0, 0)][..]));
        assert!(s.restoring.is_none() && s.sample_loading.is_none());
        assert!(s.corpus_summary().ends_with(": 157 pairs, 10920 nodes, 1218 gold links"), "{}", s.corpus_summary());
    }
}
