//! The messages between the page and its Web Worker, as JSON strings
//! (`postMessage` of a string: no structured-clone surprises, and the engine
//! types are serde already). The page sends [`Request`]s; the worker answers
//! with [`Response`]s, tagged with the job id the page gave, so answers of a
//! job the page has given up on are recognised and dropped.

use std::ops::Range;

use serde::{Deserialize, Serialize};

pub use crate::app::translation::TranslationView;

pub use super::ids::JobId;
use super::load::{LoadAnswer, LoadRequest, WirePair, WireTree};
use crate::align::explain::Explanation;
use crate::align::greedy::Search;
use crate::align::lexical::InputSentences;
use crate::align::link_search::LinkSearch;
use crate::align::model::TrainOptions;
pub use crate::app::alignment::PairsTraining;
use crate::app::translation::Pinned;
use crate::corpus::{Corpus, Named, PairIndex, TreePair, WordFit};
use crate::io::links::write_links;
use crate::limits::Limits;
use crate::mt::model::SystemKind;

/// Pairs in one [`Response::AlignedPart`] (about 300 kB of JSON for SQUOIA).
pub const ALIGNED_PART_PAIRS: usize = 200;
use crate::tree::{NodeId, Tree};

/// A file as the user gave it: its name (for errors) and its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedText {
    pub name: String,
    pub text: String,
}

impl NamedText {
    pub fn named(&self) -> Named<'_> {
        Named { name: &self.name, text: &self.text }
    }
}

/// A corpus in its file formats (bracketed trees and links), which read
/// back to the same corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusText {
    pub source: String,
    pub target: String,
    pub gold: String,
}

impl CorpusText {
    pub fn of(corpus: &Corpus) -> Self {
        CorpusText::of_pairs(&corpus.pairs)
    }

    /// `pairs` as a corpus's files (the first pairs of one, unclaimed).
    pub fn of_pairs(pairs: &[TreePair]) -> Self {
        let trees = |side: fn(&TreePair) -> &Tree| pairs.iter().map(|p| side(p).to_bracketed() + "\n").collect();
        CorpusText {
            source: trees(|p| &p.source),
            target: trees(|p| &p.target),
            gold: write_links(&pairs.iter().map(|p| p.gold.clone()).collect::<Vec<_>>()),
        }
    }

    /// The corpus, with every tree within the default [`Limits`] (the
    /// worker aligns and trains on it).
    pub fn parse(&self) -> Result<Corpus, String> {
        Corpus::from_texts_within(
            Named { name: "corpus.src", text: &self.source },
            Named { name: "corpus.trg", text: &self.target },
            Some(Named { name: "corpus.gold", text: &self.gold }),
            &Limits::default(),
        )
        .map_err(|e| e.to_string())
    }
}

/// The lexical inputs the user uploaded: Moses tables (both or neither are
/// used; or GIZA++ t-tables of ids with their two vocabularies) and word
/// alignments of the corpus's pairs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LexiconFiles {
    /// `p(t|s)` (the CLI's `--lex-s2t`).
    pub s2t: Option<NamedText>,
    /// `p(s|t)` (the CLI's `--lex-t2s`).
    pub t2s: Option<NamedText>,
    /// `i-j` word links, one line per pair (the CLI's `--word-align`).
    pub word_links: Option<NamedText>,
    /// The two GIZA++ `.vcb` vocabularies (the CLI's `--vcb`), as given:
    /// `app::alignment::tables_lexicon` tells them apart by the pairs' words.
    #[serde(default)]
    pub vcb: Option<[NamedText; 2]>,
}

impl LexiconFiles {
    /// The two tables as a lexicon, if both were given, read with the
    /// vocabularies if given ([`crate::app::alignment::tables_lexicon`]).
    pub fn tables_lexicon(&self, corpus: &Corpus) -> Result<Option<crate::lexicon::Lexicon>, crate::lexicon::LexError> {
        let Some((s2t, t2s)) = crate::app::alignment::both_tables(self.s2t.as_ref(), self.t2s.as_ref()) else {
            return Ok(None);
        };
        let vcb = self.vcb.as_ref().map(|[a, b]| [a.named(), b.named()]);
        crate::app::alignment::tables_lexicon(s2t.named(), t2s.named(), vcb, corpus).map(Some)
    }
}

/// The stand-in, in a [`Request::Load`], for the text the file worker keeps
/// as `id` ([`Request::KeepText`]): a NUL first, which no file's text has
/// (a file with control bytes is refused when read).
pub fn kept_text(id: u32) -> String {
    format!("\u{0}treelink-kept-text:{id}")
}

/// The id of a [`kept_text`] stand-in.
pub fn kept_text_id(text: &str) -> Option<u32> {
    text.strip_prefix("\u{0}treelink-kept-text:")?.parse().ok()
}

// One message per job, serialised at once: the variants' size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Train a model on `corpus` as `how` says (`treelink train --train`;
    /// with *Dev pairs*, the last 20% of the training pairs as `--dev`; with
    /// the test held out, on all but the last 20% with `--held-out`:
    /// `app::alignment::train_on_pairs`), then align `corpus` with it (as
    /// `treelink align`) and run the baseline, or, with the test held out,
    /// align the held-out pairs alone (`treelink align --held-out`):
    /// `ui::pool` cuts it into pieces, no worker takes it whole.
    Train {
        job: JobId,
        corpus: CorpusText,
        /// The configurations to try (`app::alignment::training_plan`).
        options: Vec<TrainOptions>,
        lexicon: LexiconFiles,
        #[serde(default)]
        how: PairsTraining,
    },
    /// Align `corpus` with the model file `model` (as `treelink align`) and
    /// run the baseline (as `treelink baseline`), in pieces as `Train`.
    Align { job: JobId, corpus: CorpusText, model: String, lexicon: LexiconFiles },
    /// Train `model`'s configuration again (options `kept`) on pairs
    /// `train` of `corpus` (the pairs it trained on and those annotated,
    /// their links as gold: `app::annotation::update_model`), then align
    /// the pairs from `aligned_from` on with it, as the page's Train did.
    Update {
        job: JobId,
        corpus: CorpusText,
        model: String,
        /// The kept options as the worker wrote them (`Response::Trained`): the page relays them unread.
        kept: String,
        train: Vec<usize>,
        /// The pairs aligned from here on, with their sentences as
        /// `sentences` says (the pairs the model never saw: held out).
        aligned_from: usize,
        sentences: InputSentences,
        lexicon: LexiconFiles,
    },
    /// Explain a node pair of the last alignment.
    Explain { pair: PairIndex, source: NodeId, target: NodeId },
    /// Train a translation system on `corpus`, its last `dev` pairs the dev
    /// set (`app::translation::train_on_pairs`: `treelink mt-train --train A
    /// --dev B --system S`, with what `pinned` fixes; DirC/EWoS with the
    /// pairs' gold links) and keep it as model `job`. With `lm`, an ARPA
    /// file, as `--lm`.
    TrainMt { job: JobId, corpus: CorpusText, dev: usize, system: SystemKind, pinned: Pinned, lm: Option<NamedText> },
    /// Read a model file from `treelink mt-train` and keep it as model `job`.
    LoadMt { job: JobId, model: NamedText },
    /// The same, for the file `name` posted along with the request (read in the worker).
    LoadMtFile { job: JobId, name: String },
    /// Translate one bracketed source tree with the kept model `model`
    /// (as `treelink translate`), with the `nbest` best distinct translations;
    /// `pasted`: a tree the user typed, read here (its errors name the
    /// "pasted tree") and sent back with the translation.
    Translate {
        job: JobId,
        model: JobId,
        source: String,
        nbest: usize,
        #[serde(default)]
        pasted: bool,
    },
    /// Check uploaded files and build the corpus they make (the file
    /// worker: `ui::load::check`); answered by the corpus in
    /// [`Response::CorpusPart`]s, then [`Response::Loaded`].
    Load { job: JobId, request: LoadRequest },
    /// Translate every source tree (bracketed) with the kept model `model`
    /// (as `treelink translate --input`), with progress.
    TranslateAll { job: JobId, model: JobId, sources: Vec<String> },
    /// Keep the text beside this message as text `id` (the file worker): a
    /// [`Request::Load`]'s file whose text is [`kept_text`] `id` is that text,
    /// so a large file crosses to the worker once, not with every check of
    /// its group (the texts kept are those of the last check and those sent since).
    KeepText { id: u32 },
    /// A piece of job `job` the page's pool of job workers cut it into
    /// (`ui::pool`): piece number `piece` of its plan, or `None` for what a
    /// worker is given before its pieces (the pairs, an artifact to keep,
    /// whose text comes beside the message).
    Piece { job: JobId, piece: Option<usize>, task: Task },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Response {
    /// The worker has started and takes requests.
    Ready,
    Progress {
        job: JobId,
        stage: String,
        done: u64,
        total: u64,
        /// During SMO: the gap (the largest KKT violation) and the ε it must fall below, as `progress::Progress::gap`.
        #[serde(default)]
        gap: Option<(f64, f64)>,
    },
    /// A first model's alignment of the pairs from `first` on, shown while
    /// the chosen model trains (`app::alignment::preview_options`), with the
    /// model in a line; the chosen model's [`Response::Aligned`] replaces it.
    Preview {
        job: JobId,
        summary: String,
        searches: Vec<Search>,
        first: usize,
    },
    /// A model file (JSON), a one-line description, and the kept
    /// configuration's options as JSON (an annotation update trains it
    /// again; the page holds them unread, so its wasm has no reader of them).
    Trained {
        job: JobId,
        model: String,
        summary: String,
        #[serde(default)]
        kept: Option<String>,
    },
    /// One search per pair, the baseline's links per pair, and where the
    /// lexicons came from; the pairs aligned are the pairs sent from the
    /// `first` on (0, or the first held-out pair).
    Aligned {
        job: JobId,
        searches: Vec<Search>,
        baseline: Vec<Vec<(NodeId, NodeId)>>,
        lexicon: String,
        #[serde(default)]
        first: usize,
        /// As [`Response::AlignedPart`]'s, gathered by the page.
        #[serde(default)]
        uncertainty: Vec<f64>,
        /// The model's search (the annotation loop decodes with it again).
        #[serde(default)]
        link_search: LinkSearch,
    },
    Explained {
        pair: PairIndex,
        source: NodeId,
        target: NodeId,
        result: Result<Explanation, String>,
    },
    /// The worker holds translation model `model` (trained: with its file `json`).
    MtReady {
        job: JobId,
        model: JobId,
        summary: String,
        json: Option<String>,
    },
    Translated {
        job: JobId,
        result: Box<TranslationView>,
        /// A pasted source tree, as the worker read it.
        #[serde(default)]
        source: Option<WireTree>,
    },
    /// One translation per source tree of a TranslateAll request.
    TranslatedAll {
        job: JobId,
        hyps: Vec<Vec<String>>,
        seconds: f64,
        /// Why the sources look reversed or foreign to the model ([`crate::app::translation::fit_warning`]).
        #[serde(default)]
        note: Option<String>,
    },
    /// The searches and baseline links of some pairs of align job `job`, in
    /// order ([`ALIGNED_PART_PAIRS`] a part), before its [`Response::Aligned`],
    /// which carries none: a classroom corpus's searches are megabytes, and
    /// each part is read in its own short task on the page's thread.
    AlignedPart {
        job: JobId,
        searches: Vec<Search>,
        baseline: Vec<Vec<(NodeId, NodeId)>>,
        /// How unsure the model is of each pair (`Scorer::uncertainty`).
        #[serde(default)]
        uncertainty: Vec<f64>,
    },
    /// Pairs of the corpus that load `job` built, in order.
    CorpusPart {
        job: JobId,
        pairs: Vec<WirePair>,
    },
    /// What load `job` found (after its corpus parts).
    Loaded {
        job: JobId,
        answer: LoadAnswer,
    },
    /// The worker does not hold the translation model job `job` asked for
    /// (it was restarted): the page sends the model again next time.
    MtMissing {
        job: JobId,
    },
    /// Job `job` failed; `None`: the worker itself failed (an unreadable
    /// message, a crash), so no answer to any request is coming.
    Failed {
        job: Option<JobId>,
        message: String,
    },
    /// Piece `piece` of job `job` is done (`ui::pool`): what it hands back
    /// (an artifact's text comes beside the message), or why it failed.
    PieceDone {
        job: JobId,
        piece: Option<usize>,
        result: Result<Output, String>,
    },
    /// The worker died (a panic in wasm, out of memory): the page's side of
    /// it says so ([`super::jobs`]); a fresh worker starts when the user
    /// asks or with the next request.
    Stopped {
        message: String,
    },
}

// The pieces of a pooled job (`ui::pool` cuts a job into them; each job
// worker's `pool::Executor` runs them): they cross as messages, so they
// live with the messages.

/// What a job's pieces share, made by one worker and kept by each that needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Artifact {
    /// The alignment model (its JSON file).
    Model,
    /// The lexicon aligning with the model uses, with the input's word links ([`InputLexicon`], JSON).
    InputLexicon,
    /// The baseline's lexicon ([`Lexicon`], JSON).
    BaselineLexicon,
}

/// Whose lexical model the input lexicon is made for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LexicalOf {
    /// The model the `Train` task trains on the pairs as `how` says, known before it is
    /// trained (`app::alignment::lexical_model_on_pairs`).
    Training(PairsTraining),
    /// The model the job's `Train` task trained, once it is (its word model chosen on dev).
    Trained,
    /// The kept model.
    Model,
}

/// A piece of a job for one worker.
// One per message: the variants' size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Task {
    /// Keep the job's pairs and the uploaded lexical files (each worker's
    /// first task of a job).
    Corpus { corpus: CorpusText, lexicon: LexiconFiles },
    /// Keep what another worker made (its text comes beside the message).
    Keep(Artifact),
    /// Train on the pairs as the page's Train button does
    /// (`train_on_pairs`); the model is kept and handed back.
    Train { options: Vec<TrainOptions>, how: PairsTraining },
    /// [`Request::Update`]'s training; the model is kept and handed back.
    Update { model: String, kept: String, train: Vec<usize>, sentences: InputSentences },
    /// Train the first model and align the pairs with it
    /// (`app::alignment::preview_on_pairs`); nothing is kept.
    Preview { options: TrainOptions, how: PairsTraining },
    /// The lexicon for aligning pairs `aligned` with the model of `of`
    /// (`input_lexicon`), kept and handed back.
    InputLexicon { of: LexicalOf, sentences: InputSentences, aligned: Range<usize> },
    /// The baseline's lexicon: the uploaded tables, else trained on the
    /// pairs (`alignment::baseline_lexicon`); kept and handed back.
    BaselineLexicon,
    /// Align pairs `pairs` (of those `InputLexicon` was made for, from
    /// `aligned_from` on) with the kept model and input lexicon.
    Search { pairs: Range<usize>, aligned_from: usize },
    /// The baseline's links of pairs `pairs` with a kept lexicon (the
    /// baseline's, or, for a held-out test, the input lexicon's).
    Baseline { pairs: Range<usize>, with: Artifact },
    /// Translate these source trees with the kept translation model `model`.
    Translate { model: JobId, sources: Vec<String>, first: usize },
}

/// A search piece's pairs: their searches, how unsure the model is of
/// each, and the model's search.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Searched {
    pub searches: Vec<Search>,
    pub uncertainty: Vec<f64>,
    pub link_search: LinkSearch,
}

/// What a task hands back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Output {
    Done,
    /// `Train`: the model file, its summary in a line, and where the
    /// comparison's lexicons come from (the note the page shows).
    Trained {
        model: String,
        summary: String,
        note: String,
        #[serde(default)]
        kept: Option<String>,
    },
    /// A lexicon task: the artifact made (its text comes beside the
    /// message); for the kept model's, the note of the comparison.
    Made {
        artifact: Artifact,
        note: Option<String>,
    },
    Searches(Searched),
    /// `Preview`: the first model in a line, and its searches of the pairs from `first` on.
    Preview {
        summary: String,
        searches: Vec<Search>,
        first: usize,
    },
    Baseline(Vec<Vec<(NodeId, NodeId)>>),
    /// A `Translate` task's translations, and how its sources' words fit
    /// the model ([`crate::app::translation::fit_of_part`]).
    Translations(Vec<Vec<String>>, WordFit),
    /// The worker does not hold translation model `model`.
    NoMtModel,
}
