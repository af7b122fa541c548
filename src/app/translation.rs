//! The translation workflows (the meta-structure paper; §7 of the kernels
//! paper): train a system — word alignment, the sub-tree links DirC / EWoS
//! extraction needs, the phrase-based or meta-structure system, MERT — and
//! translate one tree (with its derivation) or a whole corpus. What
//! `treelink mt-train` and `translate` do, and what the page's Translate
//! view asks the worker.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::alignment::{self, AlignmentError};
use crate::align::composite::KernelSpec;
use crate::align::greedy::search_links;
use crate::align::lexical::{alignment_lexicon_options, prepare, LexiconSource};
use crate::align::model::{self as align_model, AlignError, AlignmentModel, Scorer, TrainOptions};
use crate::corpus::Corpus;
use crate::lexicon::WordAlignment;
use crate::mt::decoder::NBestEntry;
use crate::mt::model::{MtSystem, SystemKind, TrainingInfo, TranslationModel};
use crate::mt::ms::{MsStep, MS_FEATURE_NAMES};
use crate::mt::phrase::unknown::SourceNote;
use crate::mt::phrase::{gold_subtree_links, ExtractMethod, PhraseStep, PHRASE_FEATURE_NAMES};
use crate::mt::train::{train_system, word_alignments_with, MtTrainError, MtTrainSettings};
use crate::progress::{report, Cancelled, Observer, Progress};
use crate::tree::{NodeId, Tree};

/// Where the sub-tree links of DirC / EWoS extraction come from, as the
/// CLI's `--subtree-align` names it: `gold`, `trained` or a model file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubtreeAlignArg {
    /// The training pairs' gold links.
    Gold,
    /// The sub-tree aligner trained on the training pairs (with the dev set).
    Trained,
    /// The links of a model file from `treelink train`.
    ModelFile(String),
}

impl FromStr for SubtreeAlignArg {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "gold" => SubtreeAlignArg::Gold,
            "trained" => SubtreeAlignArg::Trained,
            file => SubtreeAlignArg::ModelFile(file.to_string()),
        })
    }
}

impl fmt::Display for SubtreeAlignArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubtreeAlignArg::Gold => f.write_str("gold"),
            SubtreeAlignArg::Trained => f.write_str("trained"),
            SubtreeAlignArg::ModelFile(file) => f.write_str(file),
        }
    }
}

/// The sub-tree links to extract with, ready to use.
#[derive(Debug, Clone, PartialEq)]
pub enum SubtreeAlign {
    /// The gold links (fuzzy ones too if `include_fuzzy`).
    Gold { include_fuzzy: bool },
    /// A sub-tree aligner trained on the training pairs with the dev set
    /// (refused beyond `max_train_candidates`, see [`crate::limits`]).
    Trained { kernel: KernelSpec, seed: u64, max_train_candidates: usize },
    /// An alignment model (`name` is its file, for the model's record).
    Model { name: String, model: Box<AlignmentModel> },
}

impl fmt::Display for SubtreeAlign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubtreeAlign::Gold { .. } => f.write_str("gold"),
            SubtreeAlign::Trained { .. } => f.write_str("trained"),
            SubtreeAlign::Model { name, .. } => f.write_str(name),
        }
    }
}

/// Why a translation workflow stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TranslationError {
    #[error("{0} extraction needs sub-tree links")]
    NoSubtreeLinks(ExtractMethod),
    #[error("the training pairs have no gold sub-tree links")]
    NoGoldLinks,
    #[error("a trained sub-tree aligner needs a dev set")]
    TrainedNeedsDev,
    #[error(transparent)]
    Alignment(#[from] AlignmentError),
    #[error(transparent)]
    Train(#[from] MtTrainError),
    #[error("cancelled")]
    Cancelled,
}

impl From<Cancelled> for TranslationError {
    fn from(_: Cancelled) -> Self {
        TranslationError::Cancelled
    }
}

/// The sub-tree links of each training pair, and where they came from
/// (for the model's record).
#[derive(Debug, Clone, PartialEq)]
pub struct SubtreeLinks {
    pub origin: String,
    pub links: Vec<Vec<(NodeId, NodeId)>>,
}

/// The gold sub-tree links of the training pairs (fuzzy ones too if
/// `include_fuzzy`); refused when there are none to extract with.
pub fn gold_links(train: &Corpus, include_fuzzy: bool) -> Result<SubtreeLinks, TranslationError> {
    let links = gold_subtree_links(train, include_fuzzy);
    if links.iter().all(Vec::is_empty) {
        return Err(TranslationError::NoGoldLinks);
    }
    Ok(SubtreeLinks { origin: "gold".into(), links })
}

/// The sub-tree links of every training pair under `align`.
pub fn subtree_links(
    align: &SubtreeAlign,
    train: &Corpus,
    dev: Option<&Corpus>,
    observer: &mut dyn Observer,
) -> Result<SubtreeLinks, TranslationError> {
    let origin = align.to_string();
    let links = match align {
        SubtreeAlign::Gold { include_fuzzy } => return gold_links(train, *include_fuzzy),
        SubtreeAlign::Model { model, .. } => {
            let aligned = alignment::align(model, train, None, observer)?;
            pairs_of(&aligned.searches)
        }
        SubtreeAlign::Trained { kernel, seed, max_train_candidates } => {
            let dev = dev.ok_or(TranslationError::TrainedNeedsDev)?;
            let options = TrainOptions {
                spec: kernel.clone(),
                seed: *seed,
                max_train_candidates: *max_train_candidates,
                ..TrainOptions::default()
            };
            // Cheap: refused before the lexicon is built, not midway.
            align_model::check_train_candidates(train, &options).map_err(AlignmentError::Train)?;
            let source =
                LexiconSource::Train { extra: Vec::new(), options: alignment_lexicon_options(), held_out: false };
            let setup = prepare(&[train, dev], source, "sub-tree aligner lexicon", observer)?;
            let m = align_model::train(train, Some(dev), &setup, &options, observer).map_err(|e| match e {
                AlignError::Cancelled => TranslationError::Cancelled,
                e => AlignmentError::Train(e).into(),
            })?;
            observer.note(&format!("sub-tree aligner {}: dev F {:.2}", m.spec, m.summary.dev_f.unwrap_or(f64::NAN)));
            let scorer = Scorer::new(&m, &setup.lexicon).map_err(AlignmentError::Model)?;
            let mut out = Vec::with_capacity(train.len());
            for (k, (pair, l)) in train.pairs.iter().zip(&setup.links[0]).enumerate() {
                let (search, _) = scorer.align_pair(pair, l);
                out.push(search_links(&search).into_iter().map(|l| (l.source, l.target)).collect());
                let stage = "sub-tree alignment of the training pairs";
                report(observer, Progress::new(stage, k as u64 + 1, train.len() as u64))?;
            }
            out
        }
    };
    Ok(SubtreeLinks { origin, links })
}

fn pairs_of(searches: &[crate::align::greedy::Search]) -> Vec<Vec<(NodeId, NodeId)>> {
    searches.iter().map(|s| search_links(s).into_iter().map(|l| (l.source, l.target)).collect()).collect()
}

/// What to train: the system, its extraction, the data and the settings.
#[derive(Debug, Clone)]
pub struct TranslationTraining<'a> {
    pub system: SystemKind,
    pub extract: ExtractMethod,
    pub train: &'a Corpus,
    /// Names the training data in the model's record.
    pub train_name: String,
    /// The dev set: MERT tunes the weights on it (and a trained sub-tree aligner its pruning).
    pub dev: Option<&'a Corpus>,
    pub dev_name: Option<String>,
    /// The training pairs' word links; `None`: trained in the engine on the
    /// training and dev sentences (no gold links are read).
    pub word_links: Option<Vec<WordAlignment>>,
    /// The sub-tree links DirC / EWoS extract with ([`subtree_links`],
    /// [`gold_links`]; unused by word extraction).
    pub subtree: Option<SubtreeLinks>,
    pub settings: MtTrainSettings,
}

/// Trains (and, with a dev set, tunes) a translation model. Its record's
/// `seconds` is left 0 for the caller, who has the clock.
pub fn train_model(
    t: TranslationTraining<'_>,
    observer: &mut dyn Observer,
) -> Result<TranslationModel, TranslationError> {
    let needs_subtree = t.extract != ExtractMethod::Word;
    // The lexicon of an in-engine word alignment also backs off unknown
    // words (`mt::phrase::unknown`); given word links come without one.
    let mut settings = t.settings;
    let word_links = match t.word_links {
        Some(links) => links,
        None => {
            let corpora: Vec<&Corpus> = std::iter::once(t.train).chain(t.dev).collect();
            let (mut links, lexicon) = word_alignments_with(&corpora, settings.word_model, observer)?;
            settings.lexicon = Some(lexicon);
            links.swap_remove(0)
        }
    };
    let subtree = match (needs_subtree, t.subtree) {
        (false, _) => None,
        (true, Some(s)) => Some(s),
        (true, None) => return Err(TranslationError::NoSubtreeLinks(t.extract)),
    };
    let links = subtree.as_ref().map(|s| s.links.as_slice());
    let (system, dev_bleu) =
        train_system(t.system, t.extract, t.train, &word_links, links, t.dev, &settings, observer)?;
    Ok(TranslationModel {
        training: TrainingInfo {
            train: t.train_name,
            dev: t.dev_name,
            extract: Some(t.extract),
            subtree_align: subtree.map(|s| s.origin),
            pairs: t.train.len(),
            dev_bleu,
            seconds: 0.0,
        },
        system,
    })
}

/// One translation with what the page shows of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TranslationView {
    pub system: SystemKind,
    pub words: Vec<String>,
    /// λ · h of the best translation.
    pub score: f64,
    /// Its features h, named by `feature_names`, weighted by `weights`.
    pub features: Vec<f64>,
    pub feature_names: Vec<String>,
    pub weights: Vec<f64>,
    /// The MS system's derivation: RM pairs in target order (empty for phrase).
    pub steps: Vec<MsStep>,
    /// The phrase system's derivation: phrase pairs in target order (empty for ms).
    pub phrases: Vec<PhraseStep>,
    /// The best distinct translations, best first.
    pub nbest: Vec<NBestEntry>,
    /// The source words the phrase table did not know and what was done with them.
    #[serde(default)]
    pub source_notes: Vec<SourceNote>,
    /// Per word of `words`, the index in `source_notes` of the treated
    /// source word it comes from (`mt::phrase::unknown::target_provenance`).
    #[serde(default)]
    pub provenance: Vec<Option<usize>>,
    /// Decoding time (filled in by the caller, who has the clock).
    pub seconds: f64,
}

/// Translates one tree as `treelink translate` does, with the `nbest`
/// best distinct translations, the features and the derivation.
pub fn translate(model: &TranslationModel, source: &Tree, nbest: usize) -> TranslationView {
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    match &model.system {
        MtSystem::Phrase(p) => {
            let mut options = p.config.decode.clone();
            options.beam.nbest = nbest.max(1);
            options.distinct_nbest = true;
            let t = p.translate_with(source.words(), &p.weights, &options);
            let provenance = t.provenance();
            TranslationView {
                system: SystemKind::Phrase,
                words: t.words,
                score: t.score,
                features: t.features,
                feature_names: names(&PHRASE_FEATURE_NAMES),
                weights: p.weights.clone(),
                steps: Vec::new(),
                phrases: t.derivation,
                nbest: t.nbest,
                source_notes: t.source_notes,
                provenance,
                seconds: 0.0,
            }
        }
        MtSystem::Ms(m) => {
            let mut options = m.config.decode.clone();
            options.beam.nbest = nbest.max(1);
            let t = m.translate_with(source, &m.weights, &options);
            let provenance = t.provenance();
            TranslationView {
                system: SystemKind::Ms,
                words: t.words,
                score: t.score,
                features: t.features,
                feature_names: names(&MS_FEATURE_NAMES),
                weights: m.weights.clone(),
                steps: t.derivation,
                phrases: Vec::new(),
                nbest: t.nbest,
                source_notes: t.source_notes,
                provenance,
                seconds: 0.0,
            }
        }
    }
}

/// The best translation of every tree, reporting each (stage "translating").
pub fn translate_all(
    model: &TranslationModel,
    sources: &[Tree],
    observer: &mut dyn Observer,
) -> Result<Vec<Vec<String>>, Cancelled> {
    let n = sources.len() as u64;
    let mut out = Vec::with_capacity(sources.len());
    for (k, tree) in sources.iter().enumerate() {
        report(observer, Progress::new("translating", k as u64, n))?;
        out.push(model.system.translate(tree).words);
    }
    Ok(out)
}
