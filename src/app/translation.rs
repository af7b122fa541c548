//! The translation workflows (the meta-structure paper; §7 of the kernels
//! paper): train a system — word alignment, the sub-tree links DirC / EWoS
//! extraction needs, the phrase-based or meta-structure system, MERT — and
//! translate one tree (with its derivation) or a whole corpus. What
//! `treelink mt-train` and `translate` do, and what the page's Translate
//! view asks the worker.

use std::borrow::Borrow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::alignment::{self, AlignmentError};
use crate::align::composite::KernelSpec;
use crate::align::greedy::search_links;
use crate::align::lexical::{alignment_lexicon_options, prepare, LexiconSource};
use crate::align::model::{self as align_model, AlignError, AlignmentModel, Scorer, TrainOptions};
use crate::corpus::{Corpus, TreePair, WordFit};
use crate::lexicon::{WordAlignment, WordModel};
use crate::limits::{LimitError, Limits};
use crate::mt::decoder::NBestEntry;
use crate::mt::lm::NgramLm;
use crate::mt::model::{MtOutput, MtSystem, SystemKind, TrainingInfo, TranslationModel};
use crate::mt::ms::{MsReading, MsStep, RmEstimate};
use crate::mt::phrase::unknown::{SourceNote, UnknownStats, WordRule};
use crate::mt::phrase::{gold_subtree_links, ExtractMethod, PhraseStep};
use crate::mt::train::{train_system, word_alignments_with, MtTrainError, MtTrainSettings};
use crate::parallel::{stream_in_order, Threads};
use crate::progress::{report, Cancelled, Observer, Progress};
use crate::tree::{NodeId, ParseError, Tree};

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
    #[error("{0} extraction needs sub-tree links: the loaded pairs have no gold links")]
    PairsWithoutGold(ExtractMethod),
    #[error("a trained sub-tree aligner needs a dev set")]
    TrainedNeedsDev,
    #[error("choosing the configuration on dev needs a dev set (--dev)")]
    ChooseWithoutDev,
    #[error("no configuration to choose from")]
    NothingToChoose,
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
            let source = LexiconSource::Train {
                extra: Vec::new(),
                options: alignment_lexicon_options(),
                held_out: false,
                links: Vec::new(),
            };
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
    Ok(train(t, false, observer)?.0)
}

/// [`train_model`], and the phrase pairs its extraction gives (word, DirC
/// or EWoS, from the same word and sub-tree links) as a Moses phrase table
/// (`mt-train --export-phrase-table F`; [`crate::mt::phrase::moses`]).
pub fn train_model_and_phrase_table(
    t: TranslationTraining<'_>,
    observer: &mut dyn Observer,
) -> Result<(TranslationModel, String), TranslationError> {
    let (model, table) = train(t, true, observer)?;
    Ok((model, table.unwrap_or_default()))
}

fn train(
    t: TranslationTraining<'_>,
    export: bool,
    observer: &mut dyn Observer,
) -> Result<(TranslationModel, Option<String>), TranslationError> {
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
    let moses = export.then(|| {
        use crate::mt::phrase::system::{aligned_pairs, subtree_span_pairs};
        use crate::mt::phrase::{moses_entries, write_moses_phrase_table, ExtractOptions};
        let options = ExtractOptions { method: t.extract, max_phrase_len: settings.max_phrase_len };
        let spans: Vec<_> = (0..t.train.len())
            .map(|k| subtree_span_pairs(t.train, links, t.extract, k, options.max_phrase_len))
            .collect();
        write_moses_phrase_table(&moses_entries(&aligned_pairs(t.train, &word_links, &spans), &options))
    });
    let (system, dev_bleu) =
        train_system(t.system, t.extract, t.train, &word_links, links, t.dev, &settings, observer)?;
    let model = TranslationModel {
        training: TrainingInfo {
            train: t.train_name,
            dev: t.dev_name,
            extract: Some(t.extract),
            subtree_align: subtree.map(|s| s.origin),
            pairs: t.train.len(),
            dev_bleu,
            seconds: 0.0,
            made_by: crate::made_by(),
            // The engine aligned the words exactly when it has their lexicon.
            word_model: settings.lexicon.is_some().then_some(settings.word_model),
            tuner: dev_bleu.is_some().then_some(settings.tuner),
            preset: None,
            chosen_on_dev: None,
        },
        system,
    };
    Ok((model, moses))
}

/// One configuration the dev set chooses among (issue 27.1): the MS
/// system's structure reading, the word model of the alignment the tables
/// are extracted from, and the extraction method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DevChoice {
    pub reading: MsReading,
    pub word_model: WordModel,
    pub extract: ExtractMethod,
}

impl fmt::Display for DevChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reading = match self.reading.rm_estimate {
            RmEstimate::Paper => "paper",
            RmEstimate::Backoff => "backoff",
            RmEstimate::Discount => "discount",
        };
        write!(f, "reading {reading}, word model {}, {} extraction", self.word_model.name(), self.extract)
    }
}

impl DevChoice {
    /// The meta-structure paper's own configuration (`mt-train --preset
    /// paper`): its reading (§3.2 relative frequencies, MS tokens), the
    /// IBM-model word alignment, phrases and RMs extracted from it.
    pub const PAPER: DevChoice =
        DevChoice { reading: MsReading::PAPER, word_model: WordModel::FastAlign, extract: ExtractMethod::Word };

    /// What `mt-train --dev` tries, in order, the paper's first: for the
    /// MS system the readings paper and discount (docs/translation-results.md:
    /// the two that move dev), each with both word models; for the
    /// phrase-based system the word models. Each also with every method of
    /// `extra_extract` (DirC / EWoS when sub-tree links are at hand). A
    /// reading or a word model the user gave (`pinned`) is the only one.
    pub fn candidates(
        system: SystemKind,
        extra_extract: &[ExtractMethod],
        pinned_reading: Option<MsReading>,
        pinned_word_model: Option<WordModel>,
    ) -> Vec<DevChoice> {
        let readings: Vec<MsReading> = match (system, pinned_reading) {
            (_, Some(r)) => vec![r],
            (SystemKind::Ms, None) => {
                vec![MsReading::PAPER, MsReading { rm_estimate: RmEstimate::Discount, ..MsReading::PAPER }]
            }
            (SystemKind::Phrase, None) => vec![MsReading::PAPER],
        };
        let word_models: Vec<WordModel> = pinned_word_model.map_or_else(|| WordModel::ALL.to_vec(), |m| vec![m]);
        let extracts: Vec<ExtractMethod> = std::iter::once(ExtractMethod::Word)
            .chain(extra_extract.iter().copied().filter(|&m| m != ExtractMethod::Word))
            .collect();
        let mut out = Vec::new();
        for &extract in &extracts {
            for &word_model in &word_models {
                for &reading in &readings {
                    out.push(DevChoice { reading, word_model, extract });
                }
            }
        }
        out
    }
}

/// One configuration tried on dev: its tuned dev BLEU and its time.
#[derive(Debug, Clone, PartialEq)]
pub struct DevTried {
    pub choice: DevChoice,
    pub dev_bleu: f64,
    pub seconds: f64,
}

/// What [`choose_on_dev`] found: the model with the best dev BLEU, every
/// configuration tried, and those the budget left untried.
#[derive(Debug, Clone)]
pub struct DevChosen {
    pub model: TranslationModel,
    pub kept: usize,
    pub tried: Vec<DevTried>,
    pub untried: Vec<DevChoice>,
}

/// Trains and tunes `t` under each of `choices` in order and keeps the one
/// with the highest tuned dev BLEU (issue 27.1; test is never read). A
/// configuration is started only while `clock` is under `budget_secs`
/// (the first always is), so the budget is exceeded by at most one
/// configuration's time. `t.word_links` is ignored: each word model aligns
/// train and dev itself (once per model). Needs a dev set.
pub fn choose_on_dev(
    t: TranslationTraining<'_>,
    choices: &[DevChoice],
    budget_secs: f64,
    clock: &dyn super::Clock,
    observer: &mut dyn Observer,
) -> Result<DevChosen, TranslationError> {
    let dev = t.dev.ok_or(TranslationError::ChooseWithoutDev)?;
    let started = clock.seconds();
    let mut alignments: Vec<(WordModel, Vec<WordAlignment>, crate::lexicon::Lexicon)> = Vec::new();
    let mut best: Option<(f64, TranslationModel, usize)> = None;
    let mut tried = Vec::new();
    let mut untried = Vec::new();
    for (k, &choice) in choices.iter().enumerate() {
        if k > 0 && clock.seconds() - started >= budget_secs {
            untried.extend_from_slice(&choices[k..]);
            break;
        }
        let at = clock.seconds();
        let aligned = match alignments.iter().position(|(m, ..)| *m == choice.word_model) {
            Some(i) => i,
            None => {
                let (mut links, lexicon) = word_alignments_with(&[t.train, dev], choice.word_model, observer)?;
                alignments.push((choice.word_model, links.swap_remove(0), lexicon));
                alignments.len() - 1
            }
        };
        let (_, links, lexicon) = &alignments[aligned];
        let settings = MtTrainSettings {
            reading: choice.reading,
            word_model: choice.word_model,
            lexicon: Some(lexicon.clone()),
            ..t.settings.clone()
        };
        observer.note(&format!("trying {choice}"));
        let model = train_model(
            TranslationTraining {
                system: t.system,
                extract: choice.extract,
                train: t.train,
                train_name: t.train_name.clone(),
                dev: Some(dev),
                dev_name: t.dev_name.clone(),
                word_links: Some(links.clone()),
                subtree: t.subtree.clone(),
                settings,
            },
            observer,
        )?;
        let dev_bleu = model.training.dev_bleu.unwrap_or(0.0);
        let seconds = clock.seconds() - at;
        observer.note(&format!("tried {choice}: dev BLEU {dev_bleu:.2}, {seconds:.1} s"));
        tried.push(DevTried { choice, dev_bleu, seconds });
        if best.as_ref().is_none_or(|(b, ..)| dev_bleu > *b) {
            best = Some((dev_bleu, model, k));
        }
    }
    let (_, mut model, kept) = best.ok_or(TranslationError::NothingToChoose)?;
    model.training.chosen_on_dev = Some(choices[kept].to_string());
    Ok(DevChosen { model, kept, tried, untried })
}

/// What a user fixed of the configuration (`mt-train --extract M
/// --ms-reading R --word-model W`; the page's selects): what is left
/// `None` is chosen on dev, or takes its default without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Pinned {
    pub extract: Option<ExtractMethod>,
    pub reading: Option<MsReading>,
    pub word_model: Option<WordModel>,
}

impl Pinned {
    /// Everything fixed.
    pub fn all(choice: DevChoice) -> Pinned {
        Pinned { extract: Some(choice.extract), reading: Some(choice.reading), word_model: Some(choice.word_model) }
    }
}

/// The configurations `mt-train` trains (issue 27.1): with a dev set and
/// nothing that fixes the configuration, each of [`DevChoice::candidates`]
/// (DirC / EWoS only where the training pairs have sub-tree links), tuned,
/// and the best on dev kept; else the one configuration, what was pinned
/// and the defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainingPlan {
    pub choices: Vec<DevChoice>,
    pub choose: bool,
}

impl TrainingPlan {
    /// `may_choose`: a dev set, and nothing fixing the configuration (a
    /// preset, given word links, a phrase table to export); `force`:
    /// choose even among one (`--choose`).
    pub fn new(system: SystemKind, pinned: Pinned, may_choose: bool, force: bool, subtree_links: bool) -> TrainingPlan {
        let extra: Vec<ExtractMethod> = match pinned.extract {
            Some(m) => vec![m],
            None if may_choose && subtree_links => vec![ExtractMethod::DirC, ExtractMethod::EWoS],
            None => Vec::new(),
        };
        let choices = DevChoice::candidates(system, &extra, pinned.reading, pinned.word_model);
        let choose = may_choose && (force || choices.len() > 1);
        if choose {
            return TrainingPlan { choices, choose };
        }
        let one = DevChoice {
            reading: pinned.reading.unwrap_or(MsReading::PAPER),
            word_model: pinned.word_model.unwrap_or_default(),
            extract: pinned.extract.unwrap_or(ExtractMethod::Word),
        };
        TrainingPlan { choices: vec![one], choose }
    }

    /// What the page's Translate trains on `train`, the pairs before `dev`
    /// dev pairs: DirC / EWoS tried where the training pairs have gold links.
    pub fn for_pairs(system: SystemKind, pinned: Pinned, train: &[TreePair], dev: usize) -> TrainingPlan {
        let links = train.iter().any(|p| !p.gold.is_empty());
        TrainingPlan::new(system, pinned, dev > 0, false, links)
    }

    /// Whether a configuration extracts with sub-tree links.
    pub fn needs_subtree(&self) -> bool {
        self.choices.iter().any(|c| c.extract != ExtractMethod::Word)
    }
}

/// What the page's Translate view trains on the pairs it holds: `treelink
/// mt-train --train A [--dev B] --system S [--extract M] [--ms-reading R]
/// [--word-model W] [--lm LM]`, B the last `dev` pairs of `corpus` and A
/// those before; what `pinned` leaves open is chosen on dev as `mt-train`
/// chooses it (the same [`TrainingPlan`], the same budget), DirC / EWoS
/// extracting with the pairs' gold links, good and fuzzy. Its record's
/// `seconds` are left 0 for the caller.
#[allow(clippy::too_many_arguments)]
pub fn train_on_pairs(
    corpus: &Corpus,
    dev: usize,
    system: SystemKind,
    pinned: Pinned,
    lm: Option<NgramLm>,
    clock: &dyn super::Clock,
    observer: &mut dyn Observer,
) -> Result<TranslationModel, TranslationError> {
    let split = corpus.len().saturating_sub(dev);
    let (train, dev) =
        (Corpus { pairs: corpus.pairs[..split].to_vec() }, Corpus { pairs: corpus.pairs[split..].to_vec() });
    let dev = (!dev.is_empty()).then_some(&dev);
    let plan = TrainingPlan::for_pairs(system, pinned, &train.pairs, dev.map_or(0, Corpus::len));
    let subtree = match plan.needs_subtree() {
        false => None,
        // Only an extraction pinned by hand is tried without gold links.
        true => Some(
            gold_links(&train, true)
                .map_err(|_| TranslationError::PairsWithoutGold(pinned.extract.unwrap_or(ExtractMethod::DirC)))?,
        ),
    };
    let one = plan.choices[0];
    let training = TranslationTraining {
        system,
        extract: one.extract,
        train: &train,
        train_name: "the pairs loaded in the page".into(),
        dev,
        dev_name: dev.map(|_| "the dev pairs held out in the page".into()),
        word_links: None,
        subtree,
        settings: MtTrainSettings {
            lm,
            reading: one.reading,
            word_model: one.word_model,
            ..MtTrainSettings::default()
        },
    };
    match plan.choose {
        true => Ok(choose_on_dev(training, &plan.choices, CHOICE_BUDGET_SECONDS, clock, observer)?.model),
        false => train_model(training, observer),
    }
}

/// `mt-train --budget-minutes`'s default, in seconds: the page's choice has the same.
pub const CHOICE_BUDGET_SECONDS: f64 = 3600.0;

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
    /// Per source word, the rule of the derivation that translated it
    /// (`mt::phrase::unknown::word_rules`): what the page's marks say.
    #[serde(default)]
    pub rules: Vec<Option<WordRule>>,
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
            let (provenance, rules) = (t.provenance(), t.word_rules(source.words()));
            TranslationView {
                system: SystemKind::Phrase,
                words: t.words,
                score: t.score,
                features: t.features,
                feature_names: names(SystemKind::Phrase.feature_names()),
                weights: p.weights.clone(),
                steps: Vec::new(),
                phrases: t.derivation,
                nbest: t.nbest,
                source_notes: t.source_notes,
                provenance,
                rules,
                seconds: 0.0,
            }
        }
        MtSystem::Ms(m) => {
            let mut options = m.config.decode.clone();
            options.beam.nbest = nbest.max(1);
            let t = m.translate_with(source, &m.weights, &options);
            let (provenance, rules) = (t.provenance(), t.word_rules(source.words()));
            TranslationView {
                system: SystemKind::Ms,
                words: t.words,
                score: t.score,
                features: t.features,
                feature_names: names(SystemKind::Ms.feature_names()),
                weights: m.weights.clone(),
                steps: t.derivation,
                phrases: Vec::new(),
                nbest: t.nbest,
                source_notes: t.source_notes,
                provenance,
                rules,
                seconds: 0.0,
            }
        }
    }
}

/// Why source trees to translate were refused: a tree that does not read,
/// or one over the limits (the decoder's span tables grow with the words).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    #[error(transparent)]
    Tree(#[from] ParseError),
    #[error(transparent)]
    Limit(#[from] LimitError),
}

impl SourceError {
    /// The message as the page shows it ([`LimitError::in_page`] for a limit).
    pub fn in_page(&self) -> String {
        match self {
            SourceError::Tree(e) => e.to_string(),
            SourceError::Limit(e) => e.in_page(),
        }
    }
}

/// The source trees of `text` (bracketed, `file` naming it in errors),
/// every one within `limits`: `treelink translate --input FILE`.
pub fn read_sources(text: &str, file: &str, limits: &Limits) -> Result<Vec<Tree>, SourceError> {
    // Tree k is output line k: a blank line is refused where it is.
    let (trees, starts) = Tree::parse_numbered(text, file)?;
    limits.check_trees(file, &trees, &starts)?;
    Ok(trees)
}

/// The one source tree of `text` (`name` naming it in errors), within
/// `limits`: a tree the page translates, one of its pairs' or pasted.
pub fn read_source(text: &str, name: &str, limits: &Limits) -> Result<Tree, SourceError> {
    let tree = Tree::parse_one(text, name)?;
    limits.check_trees(name, std::slice::from_ref(&tree), &[(1, 1)])?;
    Ok(tree)
}

/// One source tree translated by [`translate_each`].
// One at a time, handed on at once, so the variants' size difference costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Translated {
    /// The best translation (with the MS system's target SMS and derivation).
    Best(MtOutput),
    /// The n best distinct translations, with the best's features and derivation.
    NBest(TranslationView),
}

impl Translated {
    /// The words of the best translation.
    pub fn words(&self) -> &[String] {
        match self {
            Translated::Best(t) => &t.words,
            Translated::NBest(v) => &v.words,
        }
    }

    /// The source words the phrase table did not know and what was done with them.
    pub fn source_notes(&self) -> &[SourceNote] {
        match self {
            Translated::Best(t) => &t.source_notes,
            Translated::NBest(v) => &v.source_notes,
        }
    }

    /// Per word of [`Translated::words`], the treated source word it comes from.
    pub fn provenance(&self) -> &[Option<usize>] {
        match self {
            Translated::Best(t) => &t.provenance,
            Translated::NBest(v) => &v.provenance,
        }
    }

    /// Per source word, the rule of the derivation that translated it.
    pub fn rules(&self) -> &[Option<WordRule>] {
        match self {
            Translated::Best(t) => &t.rules,
            Translated::NBest(v) => &v.rules,
        }
    }
}

/// Translates every tree in order, the best translation of each or, with
/// `nbest`, the n best ([`translate`]), and hands each to `each` as it is
/// made; reports each tree (stage "translating") once it is handed on, so
/// a stop ends it between trees. Returns the statistics of the source
/// words the phrase table did not know. (`treelink translate` streams its
/// input through [`translate_stream`], the same work.)
pub fn translate_each<E: From<Cancelled>>(
    model: &TranslationModel,
    sources: &[Tree],
    nbest: Option<usize>,
    observer: &mut dyn Observer,
    each: impl FnMut(usize, Translated) -> Result<(), E>,
) -> Result<UnknownStats, E> {
    let items = sources.iter().map(Ok::<_, E>);
    translate_stream(model, items, sources.len() as u64, nbest, Threads::ONE, observer, each)
}

/// Translates the source trees of `sources` as they come, a chunk at a
/// time on `threads` threads ([`translate_one`]), handing each to `each`
/// in input order and reporting it (stage "translating", of `total` trees,
/// 0 if unknown); a stop ends it between trees. Returns the statistics of
/// the source words the phrase table did not know, summed in input order.
pub fn translate_stream<T, E>(
    model: &TranslationModel,
    sources: impl IntoIterator<Item = Result<T, E>>,
    total: u64,
    nbest: Option<usize>,
    threads: Threads,
    observer: &mut dyn Observer,
    mut each: impl FnMut(usize, Translated) -> Result<(), E>,
) -> Result<UnknownStats, E>
where
    T: Borrow<Tree> + Sync,
    E: From<Cancelled>,
{
    let mut unknown = UnknownStats::default();
    stream_in_order(
        sources,
        threads,
        || (),
        |_, _, tree| {
            let tree: &Tree = tree.borrow();
            (tree.words().len(), translate_one(model, tree, nbest))
        },
        |k, (words, translated)| {
            unknown.add_notes(words, translated.source_notes());
            each(k, translated)?;
            Ok(report(observer, Progress::new("translating", k as u64 + 1, total))?)
        },
    )?;
    Ok(unknown)
}

/// One source tree translated as [`translate_each`] translates it: the best
/// translation, or the `nbest` best distinct ones with the best's view.
pub fn translate_one(model: &TranslationModel, tree: &Tree, nbest: Option<usize>) -> Translated {
    match nbest {
        Some(nbest) => Translated::NBest(translate(model, tree, nbest)),
        None => Translated::Best(model.system.translate(tree)),
    }
}

/// Trees judged for a model's fit at most ([`fit_warning`]): what `treelink
/// translate` reads of its input before translating it.
pub const FIT_SAMPLE: usize = 1000;

/// How the words of `sources`, the trees of an input from its tree
/// `first` (from 0) on, fit translation model `model`, counted over those
/// among the input's first [`FIT_SAMPLE`] ([`crate::app::files::translation_model_fit`]):
/// the parts of an input translated apart add up to the whole's.
pub fn fit_of_part(model: &TranslationModel, sources: &[Tree], first: usize) -> WordFit {
    let within = FIT_SAMPLE.saturating_sub(first).min(sources.len());
    crate::app::files::translation_model_fit(model, &sources[..within])
}

/// Why `sources` (named `input`) look reversed or foreign to translation
/// model `model` (named `model_name`), judged on the first [`FIT_SAMPLE`]
/// ([`fit_of_part`]); `None` when they fit.
pub fn fit_warning(model: &TranslationModel, sources: &[Tree], input: &str, model_name: &str) -> Option<String> {
    fit_of_part(model, sources, 0).direction().warning(input, model_name)
}

/// The best translation of every tree ([`translate_each`]): the page's
/// *Translate all*, and each run of `treelink mt-experiment` on its test set.
pub fn translate_all(
    model: &TranslationModel,
    sources: &[Tree],
    observer: &mut dyn Observer,
) -> Result<Vec<Vec<String>>, Cancelled> {
    let mut out = Vec::with_capacity(sources.len());
    translate_each(model, sources, None, observer, |_, t: Translated| {
        if let Translated::Best(t) = t {
            out.push(t.words);
        }
        Ok::<_, Cancelled>(())
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::{Flow, Quiet};

    #[test]
    fn sources_are_read_within_the_limits_and_the_first_over_is_named_by_its_place() {
        let text = "(S (A a) (B b))\n  (S (A a) (B b) (C c))\n";
        let limits = Limits { max_words: 2, ..Limits::default() };
        let e = read_sources(text, "in.src", &limits).unwrap_err();
        assert_eq!(
            e.to_string(),
            "in.src:2:3: this tree has 3 words, more than the limit of 2 (--max-words raises it)"
        );
        assert_eq!(e.in_page(), "in.src:2:3: this tree has 3 words, more than the page's limit of 2");
        assert_eq!(read_sources(text, "in.src", &Limits::default()).unwrap().len(), 2);
        let e = read_sources("(S (A a)\n", "in.src", &limits).unwrap_err();
        assert!(matches!(e, SourceError::Tree(_)) && e.in_page() == e.to_string(), "{e}");
        // The page's trees come one at a time.
        let e = read_source("(S (A a) (B b) (C c))", "source tree 3", &limits).unwrap_err();
        assert_eq!(e.in_page(), "source tree 3:1:1: this tree has 3 words, more than the page's limit of 2");
        let e = read_source(text, "pasted tree", &Limits::default()).unwrap_err();
        assert_eq!(e.to_string(), "pasted tree:1:1: expected one tree, found 2 trees");
        assert_eq!(read_source("(S (A a) (B b))", "pasted tree", &limits).unwrap().words(), ["a", "b"]);
    }

    /// The phrase system of the paper's configuration, untuned, trained in
    /// the page's way on the sample's pairs `range`.
    fn paper_phrase_model(range: std::ops::Range<usize>) -> TranslationModel {
        let paper = Pinned::all(DevChoice::PAPER);
        train_on_pairs(&crate::corpus::sample(range), 0, SystemKind::Phrase, paper, None, &|| 0.0, &mut Quiet).unwrap()
    }

    /// The page's *Translate all* and `treelink translate` warn alike when
    /// the sources are the model's target side or another language.
    #[test]
    fn sources_the_wrong_way_round_or_foreign_to_the_model_are_warned_of() {
        let model = paper_phrase_model(0..100);
        let held_out = crate::corpus::sample(100..140);
        let (sources, targets): (Vec<Tree>, Vec<Tree>) =
            held_out.pairs.into_iter().map(|p| (p.source, p.target)).unzip();
        assert_eq!(fit_warning(&model, &sources, "dev.src", "m.tlmt"), None);
        // The page's parts, counted apart, add up to the whole (only the first FIT_SAMPLE trees count).
        let whole = fit_of_part(&model, &targets, 0);
        assert_eq!(fit_of_part(&model, &targets[..15], 0).and(fit_of_part(&model, &targets[15..], 15)), whole);
        assert_eq!(fit_of_part(&model, &targets, FIT_SAMPLE), WordFit::default());
        assert!(whole.tokens > 0);
        let reversed = fit_warning(&model, &targets, "dev.trg", "m.tlmt").unwrap();
        assert!(reversed.starts_with("dev.trg looks reversed for m.tlmt: "), "{reversed}");
        // Finnish: neither German nor Spanish.
        let finnish =
            Tree::parse_all("(S (NP (N kissa)) (VP (V nukkuu) (NP (N matolla)) (ADV tänään)))", "fi").unwrap();
        let foreign = fit_warning(&model, &finnish, "fi.src", "m.tlmt").unwrap();
        assert!(foreign.starts_with("fi.src looks foreign to m.tlmt: only 0% of its words"), "{foreign}");
    }

    #[test]
    fn a_corpus_is_translated_tree_by_tree_and_a_stop_ends_it_between_trees() {
        let model = paper_phrase_model(0..40);
        assert_eq!((model.training.pairs, model.training.dev_bleu), (40, None));
        let sources: Vec<Tree> = crate::corpus::sample(40..46).pairs.into_iter().map(|p| p.source).collect();
        let mut best = Vec::new();
        let unknown = translate_each(&model, &sources, None, &mut Quiet, |k, t| {
            assert_eq!(k, best.len());
            best.push(t);
            Ok::<_, Cancelled>(())
        })
        .unwrap();
        let words: Vec<Vec<String>> = best.iter().map(|t| t.words().to_vec()).collect();
        assert_eq!(translate_all(&model, &sources, &mut Quiet).unwrap(), words);
        // The unknown words counted after decoding are those the table lookup treats.
        let mut looked_up = UnknownStats::default();
        sources.iter().for_each(|s| looked_up.add(&model.system.source_words(s.words())));
        assert_eq!(unknown, looked_up);
        assert!(unknown
            .to_string()
            .starts_with(&format!("{} tokens", sources.iter().map(|s| s.words().len()).sum::<usize>())));

        // The n best: at most n, distinct, best first, the first the view's words.
        translate_each(&model, &sources, Some(3), &mut Quiet, |_, t| {
            let Translated::NBest(v) = &t else { panic!("{t:?}") };
            assert!((1..=3).contains(&v.nbest.len()));
            assert_eq!(v.nbest[0].words, v.words);
            assert!(v.nbest.windows(2).all(|w| w[0].score >= w[1].score && w[0].words != w[1].words));
            Ok::<_, Cancelled>(())
        })
        .unwrap();

        // A stop asked for before the second tree: one translation handed on.
        let mut handed = 0;
        let mut stop_at_second = |p: Progress| if p.done == 1 { Flow::Break(()) } else { Flow::Continue(()) };
        let stopped = translate_each(&model, &sources, None, &mut stop_at_second, |_, _| {
            handed += 1;
            Ok::<_, Cancelled>(())
        });
        assert_eq!((stopped, handed), (Err(Cancelled), 1));
    }

    #[test]
    fn the_pages_dirc_training_needs_the_pairs_gold_links() {
        let mut pairs = crate::corpus::sample(0..5);
        pairs.pairs.iter_mut().for_each(|p| p.gold.clear());
        let dirc = Pinned { extract: Some(ExtractMethod::DirC), ..Pinned::default() };
        let e = train_on_pairs(&pairs, 0, SystemKind::Ms, dirc, None, &|| 0.0, &mut Quiet).unwrap_err();
        assert_eq!(e.to_string(), "dirc extraction needs sub-tree links: the loaded pairs have no gold links");
        // Chosen on dev without gold links: word extraction only, nothing refused.
        let plan = TrainingPlan::new(SystemKind::Phrase, Pinned::default(), true, false, false);
        assert_eq!(plan.choices.len(), 2);
        assert!(!plan.needs_subtree());
    }

    /// What `mt-train` trains, for the CLI and the page alike: every
    /// candidate with a dev set and nothing pinned (DirC / EWoS with
    /// sub-tree links), the one pinned or default configuration otherwise.
    #[test]
    fn the_training_plan_chooses_on_dev_among_what_is_not_pinned() {
        let open = Pinned::default();
        let plan = |system, pinned, dev, links| TrainingPlan::new(system, pinned, dev, false, links);
        assert_eq!(plan(SystemKind::Ms, open, true, true).choices.len(), 12);
        assert_eq!(plan(SystemKind::Phrase, open, true, true).choices.len(), 6);
        assert_eq!(plan(SystemKind::Phrase, open, true, false).choices.len(), 2);
        let hmm = Pinned { word_model: Some(WordModel::Hmm), reading: Some(MsReading::PAPER), ..open };
        let one = plan(SystemKind::Ms, Pinned { extract: Some(ExtractMethod::Word), ..hmm }, true, true);
        assert!(!one.choose);
        assert_eq!(one.choices, [DevChoice { word_model: WordModel::Hmm, ..DevChoice::PAPER }]);
        // Without dev: the defaults, nothing chosen; `--choose` chooses even among one.
        let none = plan(SystemKind::Ms, open, false, true);
        assert_eq!((none.choose, none.choices), (false, vec![DevChoice::PAPER]));
        assert!(TrainingPlan::new(SystemKind::Ms, Pinned::all(DevChoice::PAPER), true, true, true).choose);
    }

    /// The page's training with dev pairs held out: the last `dev` pairs
    /// tune and choose, the others train.
    #[test]
    fn the_pages_training_with_held_out_dev_pairs_chooses_and_tunes_on_them() {
        let pinned = Pinned { reading: Some(MsReading::PAPER), extract: Some(ExtractMethod::Word), word_model: None };
        let model =
            train_on_pairs(&crate::corpus::sample(0..50), 10, SystemKind::Phrase, pinned, None, &|| 0.0, &mut Quiet)
                .unwrap();
        let t = &model.training;
        assert_eq!((t.pairs, t.dev.as_deref()), (40, Some("the dev pairs held out in the page")));
        assert!(t.dev_bleu.is_some() && t.chosen_on_dev.is_some(), "{t:?}");
    }

    /// Issue 27.1: every configuration within the budget is trained and tuned
    /// on dev, the one with the highest dev BLEU kept; each dev BLEU is that
    /// of training the configuration alone; a spent budget stops after the
    /// paper's configuration, the others listed untried.
    #[test]
    fn the_dev_set_chooses_the_configuration_within_the_budget() {
        let (train, dev) = (crate::corpus::sample(0..90), crate::corpus::sample(90..115));
        let settings = MtTrainSettings { tune_iterations: 1, nbest: 10, ..MtTrainSettings::default() };
        let training = || TranslationTraining {
            system: SystemKind::Ms,
            extract: ExtractMethod::Word,
            train: &train,
            train_name: "train".into(),
            dev: Some(&dev),
            dev_name: Some("dev".into()),
            word_links: None,
            subtree: None,
            settings: settings.clone(),
        };
        let choices = DevChoice::candidates(SystemKind::Ms, &[], None, None);
        assert_eq!(choices.len(), 4);
        assert_eq!(choices[0], DevChoice::PAPER);
        assert_eq!(DevChoice::candidates(SystemKind::Phrase, &[ExtractMethod::EWoS], None, None).len(), 4);
        // What the user gave is the only value of its kind tried.
        let hmm = DevChoice::candidates(SystemKind::Ms, &[], None, Some(WordModel::Hmm));
        assert_eq!(hmm.len(), 2);
        assert!(hmm.iter().all(|c| c.word_model == WordModel::Hmm));
        let roots = MsReading { structure_tokens: crate::mt::ms::StructureTokens::Roots, ..MsReading::PAPER };
        let pinned = DevChoice::candidates(SystemKind::Ms, &[], Some(roots), Some(WordModel::FastAlign));
        assert_eq!(
            pinned,
            vec![DevChoice { reading: roots, word_model: WordModel::FastAlign, extract: ExtractMethod::Word }]
        );
        let chosen = choose_on_dev(training(), &choices, f64::INFINITY, &|| 0.0, &mut Quiet).unwrap();
        assert!(chosen.untried.is_empty());
        let tried: Vec<DevChoice> = chosen.tried.iter().map(|t| t.choice).collect();
        assert_eq!(tried, choices);
        let best = chosen.tried.iter().map(|t| t.dev_bleu).fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(chosen.tried[chosen.kept].dev_bleu, best);
        assert_eq!(chosen.model.training.dev_bleu, Some(best));
        let MtSystem::Ms(m) = &chosen.model.system else { panic!("an MS model") };
        assert_eq!(m.config.reading, choices[chosen.kept].reading);
        // The last configuration's dev BLEU is that of training it alone.
        let last = choices[3];
        let alone = train_model(
            TranslationTraining {
                settings: MtTrainSettings { reading: last.reading, word_model: last.word_model, ..settings.clone() },
                ..training()
            },
            &mut Quiet,
        )
        .unwrap();
        assert_eq!(alone.training.dev_bleu, Some(chosen.tried[3].dev_bleu));
        // A spent budget: the paper's configuration only.
        let clock = std::cell::Cell::new(0.0);
        let tick = || {
            clock.set(clock.get() + 10.0);
            clock.get()
        };
        let spent = choose_on_dev(training(), &choices, 5.0, &tick, &mut Quiet).unwrap();
        assert_eq!((spent.tried.len(), spent.kept, spent.untried.as_slice()), (1, 0, &choices[1..]));
        assert_eq!(spent.tried[0].dev_bleu, chosen.tried[0].dev_bleu);
        let no_dev = TranslationTraining { dev: None, ..training() };
        assert!(matches!(
            choose_on_dev(no_dev, &choices, 1.0, &|| 0.0, &mut Quiet),
            Err(TranslationError::ChooseWithoutDev)
        ));
    }
}
