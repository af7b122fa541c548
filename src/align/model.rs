//! The sub-tree alignment model (paper §5): training a kernel SVM on
//! candidate sub-tree pairs of a gold-aligned treebank, and aligning new tree
//! pairs with it (classification, sigmoid posterior, greedy search).
//!
//! The model file is versioned JSON ([`AlignmentModel`]): it holds everything
//! needed to align — the kernel specification, the support vectors (their
//! sub-trees in bracketed form, plain features and coefficients), ρ, the
//! posterior, the pruning thresholds, and the lexical model: the tables when
//! they were given (Moses `lex` files), or, for an in-engine lexicon, the
//! sentences and settings it was trained on. An in-engine lexicon's tables
//! are a deterministic function of those, and aligning re-trains it on them
//! plus the input's sentences anyway (as GIZA++ would be run), so storing its
//! dense tables (tens of MB for 3,000 sentence pairs) would buy nothing.
//!
//! Training cost: one lexical model, features for every candidate (cheap),
//! then SMO over the kept examples with the composite kernel; the number of
//! negatives is capped at `max_negative_ratio` × positives (seeded sample).

use std::cell::RefCell;

use crate::parallel::{stream_in_order, Threads};
use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::calibrate::{best_threshold, TakenLink};
use super::candidates::{candidate_count, candidate_pairs, CandidateNodes, Thresholds};
use super::composite::{polynomial_feature_map, CompositeKernel, ContextKey, Instance, KernelSpec};
use super::context::{ContextFeatures, PairFeatureTable, N_CONTEXT, N_UNKNOWN};
use super::features::{LexicalMatrices, PlainFeatures, N_PLAIN};
use super::greedy::{greedy_align, Scored, Search};
use super::history::{FirstPassOutput, N_HISTORY};
use super::lexical::{LexicalModel, LexicalSetup};
use super::primal::{self, Solver};
use crate::corpus::{Corpus, TreePair};
use crate::eval::prf::Counts;
use crate::io::json::{from_json, JsonError};
use crate::io::links::{Link, LinkKind};
use crate::kernel::index::{StructureIndex, SubTreeKey};
use crate::kernel::{BtkKind, Space, TooManyNodePairs, DEFAULT_MAX_NODE_PAIRS};
use crate::lexicon::{Lexicon, WordAlignment};
use crate::limits::{Limit, Limits};
use crate::progress::{Observer, Progress};
use crate::rng::SplitMix64;
use crate::svm::{self, Posterior, SvmParams};
use crate::tree::{NodeId, Tree};

/// The model file's format name and version.
pub const FORMAT: &str = "treelink-alignment-model";
pub const VERSION: u32 = 1;

/// The stages of training and aligning, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Lexicon,
    Features,
    Kernels,
    /// The SVM by SMO (any kernel).
    Svm,
    /// The SVM by dual coordinate descent over explicit features (`--solver linear`).
    LinearSvm,
    Posterior,
    Tuning,
    Aligning,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Lexicon => "lexical model",
            Stage::Features => "features",
            Stage::Kernels => "kernel self-values",
            Stage::Svm => "SVM (SMO)",
            Stage::LinearSvm => "SVM (dual coordinate descent)",
            Stage::Posterior => "posterior",
            Stage::Tuning => "tuning pruning on dev",
            Stage::Aligning => "aligning",
        }
    }
}

/// Why training or aligning failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AlignError {
    #[error("the training corpus has no gold links between phrase nodes to learn from")]
    NoPositives,
    #[error("no negative examples survived pruning: loosen the pruning")]
    NoNegatives,
    #[error("the word alignment has {found} lines but the corpus has {expected} pairs")]
    WordAlignmentCount { expected: usize, found: usize },
    #[error("SVM: {0}")]
    Svm(#[from] svm::SvmError),
    #[error("{0}")]
    BadModel(String),
    #[error(transparent)]
    ModelFile(#[from] ModelFileError),
    #[error("pair {}, {side} node {node}: {error} (fixed in training: leave the pair out, or use a kernel without sst/rdsst BTKs)", pair + 1)]
    Kernel { pair: usize, side: &'static str, node: NodeId, error: TooManyNodePairs },
    #[error(
        "the training treebank has {found} candidate node pairs, more than the limit of {limit} ({} raises it)",
        Limit::TrainCandidates.option()
    )]
    TrainCandidates { found: usize, limit: usize },
    #[error("the linear solver needs a kernel with an explicit feature map (lex, plain, ctx, hist, *-root); {spec} has {component}: train it by SMO")]
    NotExplicit { spec: String, component: String },
    #[error("cancelled")]
    Cancelled,
}

/// Why an alignment model file could not be read. Each names the file, line
/// and column, and a bad value's JSON path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelFileError {
    #[error(transparent)]
    Json(#[from] JsonError),
    #[error("{file}:1:1: expected a treelink alignment model (\"format\": \"{FORMAT}\", \"version\": {VERSION}), found {found}")]
    Header { file: String, found: String },
}

/// The lexical model of a model file: an in-engine lexicon's settings are
/// checked (they are run when aligning: at most 100 EM iterations per model).
fn checked_lexicon<'de, D: serde::Deserializer<'de>>(d: D) -> Result<LexicalModel, D::Error> {
    use serde::de::Error;
    let lexicon = LexicalModel::deserialize(d)?;
    if let LexicalModel::InEngine { options, .. } = &lexicon {
        options.validate().map_err(D::Error::custom)?;
        let most = options.ibm1_iterations.max(options.ibm2_iterations).max(options.hmm_iterations);
        if most > 100 {
            return Err(D::Error::custom(format!("expected at most 100 EM iterations per model, found {most}")));
        }
    }
    Ok(lexicon)
}

/// The kernel of a model file, checked so that scoring cannot fail: at
/// least one component, one weight θ per component (finite, non-negative,
/// not all 0), and a finite λ > 0.
fn checked_spec<'de, D: serde::Deserializer<'de>>(d: D) -> Result<KernelSpec, D::Error> {
    use serde::de::Error;
    let spec = KernelSpec::deserialize(d)?;
    if spec.components() == 0 {
        return Err(D::Error::custom("expected a kernel with at least one component (plain or a BTK)"));
    }
    if spec.clone().with_thetas(&spec.thetas).is_none() {
        return Err(D::Error::custom(format!(
            "expected {} non-negative weights θ (thetas), one per component of {spec}, not all 0; found {:?}",
            spec.components(),
            spec.thetas
        )));
    }
    if !(spec.lambda.is_finite() && spec.lambda > 0.0) {
        return Err(D::Error::custom(format!("expected a decay λ (lambda) greater than 0, found {}", spec.lambda)));
    }
    Ok(spec)
}

/// The largest magnitude a feature value of a model file may have: far above
/// any feature a treebank gives (sums of probabilities over a sentence's
/// words, shares, posteriors), far below where the kernels' products
/// overflow to infinity and a decision value becomes NaN.
pub const MAX_FEATURE: f64 = 1e6;

/// The largest magnitude of a support vector's coefficient `α y` and of ρ.
pub const MAX_COEFFICIENT: f64 = 1e100;

fn check_features<E: serde::de::Error>(values: &[f64]) -> Result<(), E> {
    match values.iter().find(|v| !v.is_finite() || v.abs() > MAX_FEATURE) {
        Some(v) => {
            Err(E::custom(format!("expected feature values between -{MAX_FEATURE:e} and {MAX_FEATURE:e}, found {v:e}")))
        }
        None => Ok(()),
    }
}

/// A support vector's plain features, each within [`MAX_FEATURE`].
fn checked_plain<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[f64; N_PLAIN], D::Error> {
    let plain = <[f64; N_PLAIN]>::deserialize(d)?;
    check_features(&plain)?;
    Ok(plain)
}

/// A support vector's context, its dense features within [`MAX_FEATURE`].
fn checked_context<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<ContextFeatures>, D::Error> {
    let context = Option::<ContextFeatures>::deserialize(d)?;
    if let Some(c) = &context {
        check_features(&c.dense)?;
    }
    Ok(context)
}

/// A support vector's history features: [`N_HISTORY`] of them, each within [`MAX_FEATURE`].
fn checked_history<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<f64>>, D::Error> {
    use serde::de::Error;
    let history = Option::<Vec<f64>>::deserialize(d)?;
    if let Some(h) = &history {
        if h.len() != N_HISTORY {
            return Err(D::Error::custom(format!("expected {N_HISTORY} history features, found {}", h.len())));
        }
        check_features(h)?;
    }
    Ok(history)
}

/// A coefficient `α y` or ρ within [`MAX_COEFFICIENT`].
fn checked_coefficient<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    use serde::de::Error;
    let c = f64::deserialize(d)?;
    if !c.is_finite() || c.abs() > MAX_COEFFICIENT {
        return Err(D::Error::custom(format!(
            "expected a coefficient between -{MAX_COEFFICIENT:e} and {MAX_COEFFICIENT:e}, found {c:e}"
        )));
    }
    Ok(c)
}

/// Training settings; the defaults follow the paper (C = 2.4, λ = 0.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainOptions {
    pub spec: KernelSpec,
    pub c: f64,
    /// Cost factor `C+ / C−` (SVMlight's `-j`); `None`: the ratio of negatives
    /// to positives among the training examples, capped at 4.
    pub cost_factor: Option<f64>,
    pub candidates: CandidateNodes,
    /// Pruning keeps all but this fraction of the (dev, else training)
    /// positives on each pruning feature (without dev data, or when
    /// `tune_prune_quantiles` is empty).
    pub prune_quantile: f64,
    /// With dev data, each of these quantiles is tried and the one whose
    /// model has the best F on dev is kept (paper §6.3: thresholds tuned on
    /// the development set with respect to F).
    pub tune_prune_quantiles: Vec<f64>,
    /// At most this many negatives per positive are kept (seeded sample).
    pub max_negative_ratio: f64,
    /// At most this many training examples: beyond it, positives and
    /// negatives are sampled in proportion (seeded). SMO's cost grows with
    /// the square of the examples, and so does the kernel cache.
    pub max_examples: usize,
    pub seed: u64,
    /// Fit Platt's sigmoid on dev decision values instead of the paper's
    /// `1/(1+e^-D)`.
    pub platt: bool,
    /// The threshold on `D` the model keeps: fixed (the paper: 0), or, with
    /// dev data, the one that maximises dev F ([`super::calibrate`]).
    #[serde(default)]
    pub threshold: DecisionThreshold,
    /// With dev data, after the pruning quantile: each C of this grid, then
    /// each cost factor of the next, is tried and kept if dev F improves.
    #[serde(default)]
    pub tune_c: Vec<f64>,
    #[serde(default)]
    pub tune_cost_factor: Vec<f64>,
    pub svm: SvmParams,
    /// At most this many candidate node pairs over the training treebank
    /// (their features are kept: about 100 bytes each); see [`crate::limits`].
    #[serde(default = "default_max_train_candidates")]
    pub max_train_candidates: usize,
    /// SMO, or dual coordinate descent for specs with an explicit feature map ([`super::primal`]).
    #[serde(default)]
    pub solver: Solver,
    /// With dev data, after the cost factor: each negative share of this
    /// grid (negatives per positive) is tried and kept if dev F improves.
    #[serde(default)]
    pub tune_negative_ratio: Vec<f64>,
    /// Threads for the features of every candidate and the dev pairs'
    /// alignment (`--threads`); the model is the same with any number. Not
    /// part of the settings sent to the page's worker, which has one.
    #[serde(skip)]
    pub threads: Threads,
}

fn default_max_train_candidates() -> usize {
    Limits::default().max_train_candidates
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            spec: KernelSpec::paper_best(),
            c: svm::DEFAULT_C,
            cost_factor: None,
            candidates: CandidateNodes::Phrase,
            prune_quantile: 0.005,
            tune_prune_quantiles: vec![0.0, 0.005, 0.02],
            max_negative_ratio: 6.0,
            max_examples: 6000,
            seed: 1,
            platt: false,
            threshold: DecisionThreshold::default(),
            tune_c: Vec::new(),
            tune_cost_factor: Vec::new(),
            svm: SvmParams::default(),
            max_train_candidates: default_max_train_candidates(),
            solver: Solver::Smo,
            tune_negative_ratio: Vec::new(),
            threads: Threads::ONE,
        }
    }
}

/// How the threshold on the decision value is set.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecisionThreshold {
    /// This value (the paper: `D > 0`).
    Fixed(f64),
    /// The value that maximises F on dev; 0 without dev data.
    Calibrated,
}

impl Default for DecisionThreshold {
    fn default() -> Self {
        DecisionThreshold::Fixed(0.0)
    }
}

/// A support vector: its sub-tree pair as standalone trees (the kernels of a
/// sub-tree in place equal those of the sub-tree as a tree of its own), its
/// plain features and its coefficient `α y`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SupportVector {
    #[serde(deserialize_with = "crate::io::json::bracketed_tree")]
    pub source: String,
    #[serde(deserialize_with = "crate::io::json::bracketed_tree")]
    pub target: String,
    #[serde(deserialize_with = "checked_plain")]
    pub plain: [f64; N_PLAIN],
    /// Its context (models with `ctx`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "checked_context")]
    pub context: Option<ContextFeatures>,
    /// Its first-pass history (models with `hist`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "checked_history")]
    pub history: Option<Vec<f64>>,
    #[serde(deserialize_with = "checked_coefficient")]
    pub coef: f64,
}

/// Counts describing the training run.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TrainingSummary {
    pub pairs: usize,
    pub candidates: usize,
    pub positives: usize,
    pub negatives_after_pruning: usize,
    pub examples: usize,
    /// Positives among the examples (after sampling).
    pub positives_sampled: usize,
    pub positives_lost_to_pruning: usize,
    /// The pruning quantile used, and the dev F (percent) that chose it, if tuned.
    pub prune_quantile: f64,
    pub dev_f: Option<f64>,
    /// The dev counts behind `dev_f` (at the model's threshold).
    #[serde(default)]
    pub dev: Option<Counts>,
    /// C and the cost factor `C+/C−` the SVM was trained with.
    #[serde(default)]
    pub c: f64,
    #[serde(default)]
    pub cost_factor: f64,
    pub svm_iterations: u64,
    pub kernel_evals: u64,
}

/// Everything needed to align. See the module doc.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlignmentModel {
    pub format: String,
    pub version: u32,
    #[serde(deserialize_with = "checked_spec")]
    pub spec: KernelSpec,
    pub candidates: CandidateNodes,
    pub thresholds: Thresholds,
    pub support_vectors: Vec<SupportVector>,
    #[serde(deserialize_with = "checked_coefficient")]
    pub rho: f64,
    pub posterior: Posterior,
    /// The greedy search links candidates with `D` above this (the paper: 0;
    /// calibrated on dev: [`super::calibrate`]).
    #[serde(default)]
    pub threshold: f64,
    #[serde(deserialize_with = "checked_lexicon")]
    pub lexicon: LexicalModel,
    pub summary: TrainingSummary,
    /// With `hist`: the first pass whose decisions the history features read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_pass: Option<Box<AlignmentModel>>,
}

/// A kept candidate's decision value `D = Σ parts − ρ`; `parts` follow the
/// kernel's components ([`KernelSpec::component_names`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub candidate: Candidate,
    pub parts: Vec<f64>,
    pub value: f64,
    /// The dense context features (`ctx`, [`super::context::feature_names`]).
    pub context: Option<Vec<f64>>,
    /// The history features (`hist`, [`super::history::FEATURE_NAMES`]).
    pub history: Option<Vec<f64>>,
}

/// A candidate pair of one tree pair with its features.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub source: NodeId,
    pub target: NodeId,
    pub features: PlainFeatures,
    pub kept: bool,
}

/// The lexical matrices of a tree pair from a lexicon and word links.
pub fn pair_matrices(lexicon: &Lexicon, pair: &TreePair, links: &WordAlignment) -> LexicalMatrices {
    let probs = lexicon.pair_probs(pair.source.words(), pair.target.words());
    LexicalMatrices::from_fn(
        probs.n_src(),
        probs.n_trg(),
        |i, j| probs.p_t_given_s(i, j),
        |i, j| probs.p_s_given_t(i, j),
        links,
    )
    .with_null(|i| probs.p_s_given_null(i), |j| probs.p_t_given_null(j))
    .with_unknown(
        pair.source.words().iter().map(|w| lexicon.s2t.y_id(w).is_none() && lexicon.t2s.x_id(w).is_none()).collect(),
        pair.target.words().iter().map(|w| lexicon.s2t.x_id(w).is_none() && lexicon.t2s.y_id(w).is_none()).collect(),
    )
}

/// Every candidate of a tree pair, with features and the pruning verdict.
pub fn candidates_of(
    pair: &TreePair,
    m: &LexicalMatrices,
    nodes: CandidateNodes,
    thresholds: &Thresholds,
) -> Vec<Candidate> {
    candidate_pairs(&pair.source, &pair.target, nodes)
        .into_iter()
        .map(|(s, t)| {
            let features = PlainFeatures::compute(&pair.source, s, &pair.target, t, m);
            Candidate { source: s, target: t, kept: thresholds.keeps(&features), features }
        })
        .collect()
}

fn gold_set(pair: &TreePair) -> HashSet<(NodeId, NodeId)> {
    pair.gold
        .iter()
        .filter(|l| pair.source.is_phrase(l.source) && pair.target.is_phrase(l.target))
        .map(|l| (l.source, l.target))
        .collect()
}

/// What every model trained on the same pairs shares.
struct Prepared {
    /// The training candidates' features, unpruned.
    all: Featurized,
    /// The positives the pruning bounds come from (dev's, else train's).
    tuning_positives: Vec<PlainFeatures>,
    /// `hist`: the first pass's cross-validated outputs on the training pairs.
    history: Option<Vec<FirstPassOutput>>,
}

/// Features of the candidates of a corpus.
struct Featurized {
    /// Per pair: its candidates.
    candidates: Vec<Vec<Candidate>>,
}

fn featurize<'a>(
    corpus: &Corpus,
    lexicon: impl Fn(usize) -> &'a Lexicon + Sync,
    word_links: &[WordAlignment],
    (nodes, thresholds): (CandidateNodes, &Thresholds),
    threads: Threads,
    progress: &mut dyn Observer,
) -> Result<Featurized, AlignError> {
    let total = corpus.len() as u64;
    let mut candidates = Vec::with_capacity(corpus.len());
    let pairs = corpus.pairs.iter().zip(word_links).map(Ok::<_, AlignError>);
    // Each pair's candidates from its own matrices: any thread, the same features.
    let of_pair = |_: &mut (), k: usize, (pair, links): &(&TreePair, &WordAlignment)| {
        candidates_of(pair, &pair_matrices(lexicon(k), pair, links), nodes, thresholds)
    };
    stream_in_order(
        pairs,
        threads,
        || (),
        of_pair,
        |k, c| {
            candidates.push(c);
            if k % 32 == 0 && progress.progress(Progress::new(Stage::Features.name(), k as u64, total)).is_break() {
                return Err(AlignError::Cancelled);
            }
            Ok(())
        },
    )?;
    Ok(Featurized { candidates })
}

/// Whether the candidates of a training treebank are within
/// `options.max_train_candidates` (training keeps every candidate's
/// features); cheap, so callers can check before building a lexicon.
pub fn check_train_candidates(train_corpus: &Corpus, options: &TrainOptions) -> Result<(), AlignError> {
    let found = train_corpus
        .pairs
        .iter()
        .map(|p| candidate_count(&p.source, &p.target, options.candidates))
        .fold(0usize, usize::saturating_add);
    if found > options.max_train_candidates {
        return Err(AlignError::TrainCandidates { found, limit: options.max_train_candidates });
    }
    Ok(())
}

/// Trains a model on `train` (gold links needed). `dev`, if given (with its
/// word links), tunes the pruning thresholds — their positives set the bounds
/// and, over `tune_prune_quantiles`, dev F picks the quantile — and fits
/// Platt's sigmoid when asked.
///
/// `lexical` holds the lexicon, how to rebuild it, and the word links of
/// `train` then (if given) `dev`, as [`super::lexical::prepare`] makes them.
pub fn train(
    train_corpus: &Corpus,
    dev: Option<&Corpus>,
    lexical: &LexicalSetup,
    options: &TrainOptions,
    progress: &mut dyn Observer,
) -> Result<AlignmentModel, AlignError> {
    let lexicon = &lexical.lexicon;
    let train_links: &[WordAlignment] = lexical.links.first().map_or(&[], Vec::as_slice);
    let dev_links: &[WordAlignment] = lexical.links.get(1).map_or(&[], Vec::as_slice);
    if train_links.len() != train_corpus.len() {
        return Err(AlignError::WordAlignmentCount { expected: train_corpus.len(), found: train_links.len() });
    }
    let dev = dev.filter(|d| dev_links.len() == d.len() && !d.is_empty());
    // Every candidate's features are kept (below): refuse before, not midway.
    check_train_candidates(train_corpus, options)?;
    if let (Solver::Linear, Some(component)) = (options.solver, options.spec.non_explicit_component()) {
        return Err(AlignError::NotExplicit { spec: options.spec.to_string(), component });
    }
    // hist: the first pass (this spec without hist), tuned as any model,
    // and its cross-validated outputs on the training pairs.
    let (first_pass, history) = if options.spec.history {
        let first_options = TrainOptions { spec: options.spec.without_history(), ..options.clone() };
        let first = train(train_corpus, dev, lexical, &first_options, progress)?;
        let history = cross_validated_first_pass(train_corpus, lexical, &first, &first_options, progress)?;
        (Some(Box::new(first)), Some(history))
    } else {
        (None, None)
    };
    let quantiles = match dev {
        Some(_) if !options.tune_prune_quantiles.is_empty() => options.tune_prune_quantiles.clone(),
        _ => vec![options.prune_quantile],
    };
    // Features of every candidate, unpruned, and the positives the pruning
    // bounds come from (dev's, else train's): the same for every quantile.
    let unpruned = (options.candidates, &Thresholds::default());
    let all = featurize(train_corpus, |p| lexical.train_lexicon(p), train_links, unpruned, options.threads, progress)?;
    let tuning_positives = match dev {
        Some(d) => {
            let f = featurize(d, |_| lexicon, dev_links, unpruned, options.threads, progress)?;
            positive_features(d, &f)
        }
        None => positive_features(train_corpus, &all),
    };
    let prepared = Prepared { all, tuning_positives, history };
    // Coordinate search on dev: the pruning quantile, then C, then the cost factor.
    let mut best: Option<(AlignmentModel, TrainOptions)> = None;
    let try_options = |opts: TrainOptions,
                       best: &mut Option<(AlignmentModel, TrainOptions)>,
                       progress: &mut dyn Observer|
     -> Result<(), AlignError> {
        let mut model = train_at_quantile(train_corpus, dev, &prepared, lexical, &opts, progress)?;
        model.first_pass = first_pass.clone();
        if let Some(d) = dev {
            let calibrate = opts.threshold == DecisionThreshold::Calibrated;
            let counts = evaluate_on_dev(&mut model, lexicon, d, dev_links, (calibrate, opts.threads), progress)?;
            model.summary.dev_f = Some(counts.f());
            model.summary.dev = Some(counts);
        }
        if best.as_ref().is_none_or(|(b, _)| model.summary.dev_f > b.summary.dev_f) {
            *best = Some((model, opts));
        }
        Ok(())
    };
    for q in quantiles {
        try_options(TrainOptions { prune_quantile: q, ..options.clone() }, &mut best, progress)?;
    }
    if dev.is_some() {
        for &c in &options.tune_c {
            let at = best.as_ref().map_or_else(|| options.clone(), |(_, o)| o.clone());
            if c != at.c {
                try_options(TrainOptions { c, ..at }, &mut best, progress)?;
            }
        }
        for &j in &options.tune_cost_factor {
            let at = best.as_ref().map_or_else(|| options.clone(), |(_, o)| o.clone());
            if Some(j) != at.cost_factor {
                try_options(TrainOptions { cost_factor: Some(j), ..at }, &mut best, progress)?;
            }
        }
        for &r in &options.tune_negative_ratio {
            let at = best.as_ref().map_or_else(|| options.clone(), |(_, o)| o.clone());
            if r != at.max_negative_ratio {
                try_options(TrainOptions { max_negative_ratio: r, ..at }, &mut best, progress)?;
            }
        }
    }
    best.map(|(m, _)| m).ok_or(AlignError::NoPositives)
}

/// Number of folds of the first pass's cross-validation (`hist`).
pub const HISTORY_FOLDS: usize = 5;

/// The first pass's output on every training pair, each fold aligned by a
/// first pass trained on the other folds with the settings `first` chose
/// on dev (so no training pair is aligned by a model that saw its gold).
fn cross_validated_first_pass(
    train_corpus: &Corpus,
    lexical: &LexicalSetup,
    first: &AlignmentModel,
    options: &TrainOptions,
    progress: &mut dyn Observer,
) -> Result<Vec<FirstPassOutput>, AlignError> {
    let n = train_corpus.len();
    let train_links: &[WordAlignment] = lexical.links.first().map_or(&[], Vec::as_slice);
    let fold_of = |i: usize| i * HISTORY_FOLDS / n.max(1);
    let chosen = TrainOptions {
        prune_quantile: first.summary.prune_quantile,
        tune_prune_quantiles: Vec::new(),
        c: first.summary.c,
        cost_factor: Some(first.summary.cost_factor),
        tune_c: Vec::new(),
        tune_cost_factor: Vec::new(),
        threshold: DecisionThreshold::Fixed(first.threshold),
        platt: false,
        ..options.clone()
    };
    let mut out: Vec<Option<FirstPassOutput>> = vec![None; n];
    for fold in 0..HISTORY_FOLDS {
        let (rest, held): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| fold_of(i) != fold);
        if rest.is_empty() || held.is_empty() {
            continue;
        }
        let pick = |ids: &[usize]| Corpus { pairs: ids.iter().map(|&i| train_corpus.pairs[i].clone()).collect() };
        let model = train(&pick(&rest), None, &lexical.train_subset(&rest), &chosen, progress)?;
        // Held-out lexicons: each held pair is seen through its own fold's.
        let mut scorers: Vec<(*const Lexicon, Scorer)> = Vec::new();
        for &i in &held {
            let lexicon = lexical.train_lexicon(i);
            let at = match scorers.iter().position(|(l, _)| std::ptr::eq(*l, lexicon)) {
                Some(at) => at,
                None => {
                    scorers.push((lexicon, Scorer::new(&model, lexicon)?));
                    scorers.len() - 1
                }
            };
            let scorer = &scorers[at].1;
            let pair = &train_corpus.pairs[i];
            let (search, decisions) = scorer.align_pair(pair, train_links.get(i).unwrap_or(&WordAlignment::default()));
            out[i] = Some(scorer.first_pass_output(pair, &search, &decisions));
        }
    }
    Ok(out
        .into_iter()
        .zip(&train_corpus.pairs)
        .map(|(o, p)| o.unwrap_or_else(|| FirstPassOutput::new(&p.source, &p.target, &[], &[])))
        .collect())
}

/// The dev counts of `model`; with `calibrate`, first sets its threshold to
/// the one that maximises dev F ([`super::calibrate`]).
fn evaluate_on_dev(
    model: &mut AlignmentModel,
    lexicon: &Lexicon,
    dev: &Corpus,
    dev_links: &[WordAlignment],
    (calibrate, threads): (bool, Threads),
    progress: &mut dyn Observer,
) -> Result<Counts, AlignError> {
    let scorer = Scorer::new(model, lexicon)?;
    let threshold = if calibrate { f64::NEG_INFINITY } else { model.threshold };
    let (mut counts, mut gold, mut taken) = (Counts::default(), Counts::default(), Vec::new());
    let pairs = dev.pairs.iter().zip(dev_links).map(Ok::<_, AlignError>);
    // Each dev pair searched on any thread (a scorer each), counted in order.
    let search = |scorer: &mut Scorer<'_>, _: usize, (pair, links): &(&TreePair, &WordAlignment)| {
        scorer.search(pair, links, threshold)
    };
    stream_in_order(
        pairs,
        threads,
        || scorer.clone(),
        search,
        |k, (search, decisions)| {
            let pair = &dev.pairs[k];
            counts = counts + Counts::of_pair(pair, &search_links(&search));
            if calibrate {
                gold = gold + Counts::of_pair(pair, &[]);
                taken.extend(taken_links(k, pair, &search, &decisions));
            }
            if progress.progress(Progress::new(Stage::Tuning.name(), k as u64 + 1, dev.len() as u64)).is_break() {
                return Err(AlignError::Cancelled);
            }
            Ok(())
        },
    )?;
    if !calibrate {
        return Ok(counts);
    }
    let cut = best_threshold(gold, &taken);
    model.threshold = cut.threshold;
    Ok(cut.counts)
}

/// The links a search took, in order, with their decision values and gold status.
fn taken_links(pair_index: usize, pair: &TreePair, search: &Search, decisions: &[Decision]) -> Vec<TakenLink> {
    let value: HashMap<(NodeId, NodeId), f64> =
        decisions.iter().map(|d| ((d.candidate.source, d.candidate.target), d.value)).collect();
    let kind: HashMap<(NodeId, NodeId), LinkKind> = pair.gold.iter().map(|l| ((l.source, l.target), l.kind)).collect();
    search
        .links
        .iter()
        .map(|&(s, t)| TakenLink {
            pair: pair_index,
            value: value.get(&(s, t)).copied().unwrap_or(f64::NEG_INFINITY),
            correct: kind.contains_key(&(s, t)),
            good: kind.get(&(s, t)) == Some(&LinkKind::Good),
            counted: pair.source.is_phrase(s) && pair.target.is_phrase(t),
        })
        .collect()
}

/// The plain features of the gold-linked candidates of `corpus`.
fn positive_features(corpus: &Corpus, f: &Featurized) -> Vec<PlainFeatures> {
    corpus
        .pairs
        .iter()
        .zip(&f.candidates)
        .flat_map(|(pair, cands)| {
            let gold = gold_set(pair);
            cands.iter().filter(move |c| gold.contains(&(c.source, c.target))).map(|c| c.features).collect::<Vec<_>>()
        })
        .collect()
}

/// One model at `options.prune_quantile`, from the training candidates'
/// features, the positives the pruning bounds come from and (`hist`) the
/// first pass's outputs on the training pairs.
fn train_at_quantile(
    train_corpus: &Corpus,
    dev: Option<&Corpus>,
    prepared: &Prepared,
    lexical: &LexicalSetup,
    options: &TrainOptions,
    progress: &mut dyn Observer,
) -> Result<AlignmentModel, AlignError> {
    let Prepared { all, tuning_positives, history } = prepared;
    let history = history.as_deref();
    let lexicon = &lexical.lexicon;
    let dev_links: &[WordAlignment] = lexical.links.get(1).map_or(&[], Vec::as_slice);
    // Negative instances are pruned at the quantile (paper §6.3), and
    // aligning prunes the same way: a classifier that never saw the pruned
    // region must not be asked about it (trying otherwise cost 3 F on nl-en).
    let thresholds = Thresholds::from_positive_quantile(tuning_positives, options.prune_quantile);

    // 3. Examples: all positives, negatives that survive pruning (sampled).
    let mut positives = Vec::new();
    let mut negatives = Vec::new();
    let mut summary = TrainingSummary { pairs: train_corpus.len(), ..Default::default() };
    for (p, (pair, cands)) in train_corpus.pairs.iter().zip(&all.candidates).enumerate() {
        let gold = gold_set(pair);
        summary.candidates += cands.len();
        for (k, c) in cands.iter().enumerate() {
            if gold.contains(&(c.source, c.target)) {
                positives.push((p, k));
                if !thresholds.keeps(&c.features) {
                    summary.positives_lost_to_pruning += 1;
                }
            } else if thresholds.keeps(&c.features) {
                negatives.push((p, k));
            }
        }
    }
    summary.positives = positives.len();
    summary.prune_quantile = options.prune_quantile;
    summary.negatives_after_pruning = negatives.len();
    if positives.is_empty() {
        return Err(AlignError::NoPositives);
    }
    if negatives.is_empty() {
        return Err(AlignError::NoNegatives);
    }
    let mut rng = SplitMix64::new(options.seed);
    let cap = (options.max_negative_ratio * positives.len() as f64).ceil() as usize;
    rng.sample(&mut negatives, cap);
    let total = positives.len() + negatives.len();
    if total > options.max_examples {
        let keep_pos = (options.max_examples as f64 * positives.len() as f64 / total as f64).round().max(1.0) as usize;
        rng.sample(&mut positives, keep_pos);
        rng.sample(&mut negatives, options.max_examples.saturating_sub(keep_pos).max(1));
    }
    let examples: Vec<((usize, usize), f64)> =
        positives.iter().map(|&e| (e, 1.0)).chain(negatives.iter().map(|&e| (e, -1.0))).collect();
    summary.examples = examples.len();
    summary.positives_sampled = positives.len();

    // 4. Kernel instances over one structure index.
    let spec = &options.spec;
    let mut index = StructureIndex::new(spec.lambda);
    let indexed: Vec<_> =
        train_corpus.pairs.iter().map(|p| (index.index_tree(&p.source), index.index_tree(&p.target))).collect();
    // ctx and hist of the examples, one feature table per tree pair.
    let train_links: &[WordAlignment] = lexical.links.first().map_or(&[], Vec::as_slice);
    let mut contexts: Vec<Option<ContextFeatures>> = vec![None; examples.len()];
    let mut histories: Vec<Option<Vec<f64>>> = vec![None; examples.len()];
    if spec.context || spec.history {
        let mut by_pair: Vec<usize> = (0..examples.len()).collect();
        by_pair.sort_by_key(|&e| examples[e].0);
        let mut table: Option<(usize, PairFeatureTable)> = None;
        for e in by_pair {
            let ((p, k), _) = examples[e];
            let (pair, c) = (&train_corpus.pairs[p], &all.candidates[p][k]);
            if spec.context {
                if table.as_ref().is_none_or(|(q, _)| *q != p) {
                    let links = train_links.get(p).cloned().unwrap_or_default();
                    let m = pair_matrices(lexical.train_lexicon(p), pair, &links);
                    table = Some((p, PairFeatureTable::new(&pair.source, &pair.target, &m)));
                }
                if let Some((_, t)) = &table {
                    contexts[e] =
                        Some(ContextFeatures::compute(&pair.source, c.source, &pair.target, c.target, t, spec.unknown));
                }
            }
            if let Some(h) = history.and_then(|h| h.get(p)) {
                histories[e] = Some(h.features(&pair.source, c.source, &pair.target, c.target).to_vec());
            }
        }
    }
    let instances: Vec<Instance> = examples
        .iter()
        .enumerate()
        .map(|(e, &((p, k), _))| {
            let (pair, c) = (&train_corpus.pairs[p], &all.candidates[p][k]);
            Instance {
                source: index.subtree_key(&pair.source, &indexed[p].0, c.source),
                target: index.subtree_key(&pair.target, &indexed[p].1, c.target),
                plain: c.features.to_vec(),
                context: contexts[e].as_ref().map(|x| context_key(&mut index, x)),
                history: histories[e].clone(),
            }
        })
        .collect();
    // SST sums are bounded: every key checked once bounds every evaluation
    // between them (SubTreeKey::self_node_pairs).
    if spec.btks.iter().any(|&(_, space)| matches!(space, Space::Sst | Space::RdSst)) {
        for (x, &((p, k), _)) in instances.iter().zip(&examples) {
            let c = &all.candidates[p][k];
            for (key, side, node) in [(&x.source, "source", c.source), (&x.target, "target", c.target)] {
                key.check(DEFAULT_MAX_NODE_PAIRS).map_err(|error| AlignError::Kernel { pair: p, side, node, error })?;
            }
        }
    }
    let refs: Vec<&Instance> = instances.iter().collect();
    if progress.progress(Progress::new(Stage::Kernels.name(), 0, 1)).is_break() {
        return Err(AlignError::Cancelled);
    }
    let kernel = CompositeKernel::new(spec, &index, &refs);

    // 5. The SVM: SMO, or dual coordinate descent when the features are explicit.
    let y: Vec<f64> = examples.iter().map(|&(_, label)| label).collect();
    let n_pos = positives.len() as f64;
    let n_neg = negatives.len() as f64;
    let j = options.cost_factor.unwrap_or((n_neg / n_pos).clamp(1.0, 4.0));
    let params = SvmParams { c_pos: options.c * j, c_neg: options.c, ..options.svm.clone() };
    let eval = |i: usize, k: usize| kernel.eval(&refs, i, k);
    let (stage, eps) = match options.solver {
        Solver::Smo => (Stage::Svm, params.eps),
        Solver::Linear => (Stage::LinearSvm, primal::DEFAULT_EPS),
    };
    let mut report = |p: svm::SmoProgress| {
        progress.progress(Progress {
            stage: stage.name(),
            done: p.iteration,
            total: 0,
            gap: Some((p.max_violation, eps)),
        })
    };
    let model = match options.solver {
        Solver::Smo => svm::train_with_progress(&eval, &y, &params, &mut report),
        Solver::Linear => primal::train(&kernel, &refs, &y, &params, options.seed, &mut report).ok_or_else(|| {
            let component = spec.non_explicit_component().unwrap_or_default();
            AlignError::NotExplicit { spec: spec.to_string(), component }
        })?,
    }
    .map_err(|e| match e {
        svm::SvmError::Cancelled => AlignError::Cancelled,
        e => AlignError::Svm(e),
    })?;
    summary.svm_iterations = model.stats.iterations;
    summary.kernel_evals = model.stats.kernel_evals;
    (summary.c, summary.cost_factor) = (options.c, j);

    let support_vectors: Vec<SupportVector> = model
        .sv_indices
        .iter()
        .zip(&model.sv_coef)
        .map(|(&i, &coef)| {
            let ((p, k), _) = examples[i];
            let (pair, c) = (&train_corpus.pairs[p], &all.candidates[p][k]);
            SupportVector {
                source: pair.source.subtree_bracketed(c.source),
                target: pair.target.subtree_bracketed(c.target),
                plain: c.features.to_vec(),
                context: contexts[i].clone(),
                history: histories[i].clone(),
                coef,
            }
        })
        .collect();
    let mut aligned = AlignmentModel {
        format: FORMAT.into(),
        version: VERSION,
        spec: spec.clone(),
        candidates: options.candidates,
        thresholds,
        support_vectors,
        rho: model.rho,
        posterior: Posterior::Sigmoid,
        threshold: match options.threshold {
            DecisionThreshold::Fixed(t) => t,
            DecisionThreshold::Calibrated => 0.0,
        },
        lexicon: lexical.model.clone(),
        summary,
        first_pass: None,
    };

    // 6. Platt's sigmoid on dev decision values, if asked.
    if options.platt {
        if let Some(d) = dev.filter(|d| dev_links.len() == d.len()) {
            if progress.progress(Progress::new(Stage::Posterior.name(), 0, 1)).is_break() {
                return Err(AlignError::Cancelled);
            }
            let scorer = Scorer::new(&aligned, lexicon)?;
            let (mut dv, mut dy) = (Vec::new(), Vec::new());
            for (pair, links) in d.pairs.iter().zip(dev_links) {
                let gold = gold_set(pair);
                for d in scorer.decisions(pair, links) {
                    dv.push(d.value);
                    dy.push(if gold.contains(&(d.candidate.source, d.candidate.target)) { 1.0 } else { -1.0 });
                }
            }
            aligned.posterior = svm::fit_platt(&dv, &dy)?;
        }
    }
    Ok(aligned)
}

impl AlignmentModel {
    /// Reads a model file (as `treelink train` writes it); `file` names it
    /// in errors. Everything [`Scorer::new`] relies on is checked here, with
    /// the place in the file: the format and version, the kernel and its
    /// weights, and each support vector's sub-trees.
    pub fn from_json(text: &str, file: &str) -> Result<AlignmentModel, ModelFileError> {
        #[derive(Deserialize)]
        #[serde(expecting = "a JSON object with \"format\" and \"version\"")]
        struct Header {
            format: Option<serde_json::Value>,
            version: Option<serde_json::Value>,
        }
        const WHAT: &str = "a treelink alignment model";
        let header: Header = from_json(text, file, WHAT)?;
        if header.format.as_ref().and_then(|f| f.as_str()) != Some(FORMAT)
            || header.version.as_ref().and_then(|v| v.as_u64()) != Some(u64::from(VERSION))
        {
            let show = |v: Option<serde_json::Value>| v.map_or("none".to_string(), |v| v.to_string());
            let mut found =
                format!("\"format\": {}, \"version\": {}", show(header.format.clone()), show(header.version));
            if header.format.as_ref().and_then(|f| f.as_str()) == Some(crate::mt::model::MT_MODEL_FORMAT) {
                found.push_str(" (a translation model: give it to `treelink translate`)");
            }
            return Err(ModelFileError::Header { file: file.to_string(), found });
        }
        let model: AlignmentModel = from_json(text, file, WHAT)?;
        // What the kernel needs of each support vector is known only once
        // the kernel is read: a second reading checks it, located.
        crate::io::json::read_seed(text, file, WHAT, KernelNeeds(&model))?;
        Ok(model)
    }

    /// The model file's text (JSON), which [`AlignmentModel::from_json`] reads back to the same model.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A one-line description: kernel, support vectors, examples, candidates, pairs.
    pub fn describe(&self) -> String {
        let s = &self.summary;
        format!(
            "kernel {}, {} support vectors from {} examples ({} positive) of {} candidates in {} pairs",
            self.spec,
            self.support_vectors.len(),
            s.examples,
            s.positives_sampled,
            s.candidates,
            s.pairs
        )
    }
}

/// The second reading of an alignment model file ([`AlignmentModel::from_json`]):
/// each support vector has what the kernel read in the first needs (with
/// `ctx` a context of the kernel's number of dense features, with `hist` a
/// history), and with `hist` there is a first pass, itself
/// a model of this format and version checked the same way. So a model
/// that reads can score, and a bad one is refused at its place.
struct KernelNeeds<'m>(&'m AlignmentModel);

impl<'de> serde::de::DeserializeSeed<'de> for KernelNeeds<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        use serde::de::Error;
        // The top model's header is read before (AlignmentModel::from_json);
        // a first pass's is checked here, at its place.
        let model = self.0;
        if model.format != FORMAT || model.version != VERSION {
            return Err(D::Error::custom(format!(
                "expected a model of format \"{FORMAT}\" version {VERSION}, found \"{}\" version {}",
                model.format, model.version
            )));
        }
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KernelNeeds<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an alignment model (a JSON object)")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        use serde::de::{Error, IgnoredAny};
        let model = self.0;
        let mut first_pass = false;
        while let Some(key) = map.next_key::<String>()? {
            match (key.as_str(), &model.first_pass) {
                ("support_vectors", _) => map.next_value_seed(SupportVectorsNeed(&model.spec))?,
                ("first_pass", Some(first)) => {
                    first_pass = true;
                    map.next_value_seed(KernelNeeds(first))?
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if model.spec.history && !first_pass {
            return Err(A::Error::custom(
                "expected \"first_pass\": the kernel has hist, whose features are a first pass's decisions",
            ));
        }
        Ok(())
    }
}

/// The support vectors of [`KernelNeeds`].
struct SupportVectorsNeed<'s>(&'s KernelSpec);

impl<'de> serde::de::DeserializeSeed<'de> for SupportVectorsNeed<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> serde::de::Visitor<'de> for SupportVectorsNeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of support vectors")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(SupportVectorNeeds(self.0))?.is_some() {}
        Ok(())
    }
}

/// One support vector of [`KernelNeeds`].
struct SupportVectorNeeds<'s>(&'s KernelSpec);

impl<'de> serde::de::DeserializeSeed<'de> for SupportVectorNeeds<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for SupportVectorNeeds<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a support vector (a JSON object)")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        use serde::de::{Error, IgnoredAny};
        let spec = self.0;
        let dense = N_CONTEXT + if spec.unknown { N_UNKNOWN } else { 0 };
        let (mut context, mut history) = (false, false);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "context" if spec.context => {
                    let c: Option<ContextFeatures> = map.next_value()?;
                    let found = c.map(|c| c.dense.len());
                    if found.is_some_and(|n| n != dense) {
                        return Err(A::Error::custom(format!(
                            "expected {dense} dense context features (the kernel has ctx{}), found {}",
                            if spec.unknown { " and unk" } else { "" },
                            found.unwrap_or(0)
                        )));
                    }
                    context = found.is_some();
                }
                // Its length and values were checked in the first reading.
                "history" if spec.history => history = map.next_value::<Option<IgnoredAny>>()?.is_some(),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if spec.context && !context {
            return Err(A::Error::custom("expected a \"context\": the kernel has ctx"));
        }
        if spec.history && !history {
            return Err(A::Error::custom("expected a \"history\": the kernel has hist"));
        }
        Ok(())
    }
}

/// The kernel's view of a context: dense features and interned label pairs.
fn context_key(index: &mut StructureIndex, c: &ContextFeatures) -> ContextKey {
    ContextKey {
        dense: c.dense.clone(),
        labels: index.label_pair(&c.labels.0, &c.labels.1),
        parent_labels: c.parent_labels.as_ref().map(|(a, b)| index.label_pair(a, b)),
    }
}

/// A model ready to score candidates: its support vectors indexed once.
/// A clone is a scorer of its own (its own index), for another thread.
#[derive(Clone)]
pub struct Scorer<'m> {
    model: &'m AlignmentModel,
    /// With `hist`: the first pass's scorer.
    first: Option<Box<Scorer<'m>>>,
    lexicon: &'m Lexicon,
    decision: DecisionIndex,
    /// Support-vector trees and the aligned pair's trees share one index
    /// (interned ids must be comparable); each pair's entries are rolled
    /// back before the next pair ([`StructureIndex::checkpoint`]), so a
    /// pair's values do not depend on the pairs aligned before it and the
    /// index does not grow with the input.
    index: RefCell<StructureIndex>,
    svs: Vec<Instance>,
    sv_selfs: Vec<Vec<(f64, f64)>>,
}

impl<'m> Scorer<'m> {
    /// A scorer for `model` whose features use `lexicon` (the model's tables,
    /// or its in-engine lexicon re-trained with the input).
    pub fn new(model: &'m AlignmentModel, lexicon: &'m Lexicon) -> Result<Self, AlignError> {
        if model.format != FORMAT || model.version != VERSION {
            return Err(AlignError::BadModel(format!(
                "not a treelink alignment model: format '{}' version {}, expected '{FORMAT}' version {VERSION}",
                model.format, model.version
            )));
        }
        if model.spec.thetas.len() != model.spec.components() {
            return Err(AlignError::BadModel(format!(
                "the alignment model has {} weights θ for the {} components of {}",
                model.spec.thetas.len(),
                model.spec.components(),
                model.spec
            )));
        }
        let mut index = StructureIndex::new(model.spec.lambda);
        let mut svs = Vec::with_capacity(model.support_vectors.len());
        for (k, sv) in model.support_vectors.iter().enumerate() {
            let parse = |text: &str, side: &str| {
                Tree::parse_one(text, &format!("support_vectors[{k}].{side}"))
                    .map_err(|e| AlignError::BadModel(format!("a sub-tree of the alignment model does not read: {e}")))
            };
            let (s, t) = (parse(&sv.source, "source")?, parse(&sv.target, "target")?);
            let (is, it) = (index.index_tree(&s), index.index_tree(&t));
            let context = match (&sv.context, model.spec.context) {
                (Some(c), true) => Some(context_key(&mut index, c)),
                (None, true) => return Err(AlignError::BadModel(format!("support vector {k} has no context"))),
                (_, false) => None,
            };
            let history = match (&sv.history, model.spec.history) {
                (Some(h), true) => Some(h.clone()),
                (None, true) => return Err(AlignError::BadModel(format!("support vector {k} has no history"))),
                (_, false) => None,
            };
            svs.push(Instance {
                source: index.subtree_key(&s, &is, 0),
                target: index.subtree_key(&t, &it, 0),
                plain: sv.plain,
                context,
                history,
            });
        }
        let first = match (&model.first_pass, model.spec.history) {
            (Some(f), true) => Some(Box::new(Scorer::new(f, lexicon)?)),
            (None, true) => return Err(AlignError::BadModel("a model with hist has no first pass".into())),
            (_, false) => None,
        };
        let sv_selfs: Vec<Vec<(f64, f64)>> = {
            let kernel = CompositeKernel::new(&model.spec, &index, &[]);
            svs.iter().map(|x| kernel.self_parts(x)).collect()
        };
        let decision = DecisionIndex::new(model, &index, &svs, &sv_selfs);
        index.checkpoint();
        Ok(Scorer { model, first, lexicon, decision, index: RefCell::new(index), svs, sv_selfs })
    }

    /// Decision values `D` of the kept candidates of a pair, with each kernel
    /// component's share (for explaining a link).
    pub fn decisions(&self, pair: &TreePair, links: &WordAlignment) -> Vec<Decision> {
        let m = pair_matrices(self.lexicon, pair, links);
        let cands: Vec<Candidate> = candidates_of(pair, &m, self.model.candidates, &self.model.thresholds)
            .into_iter()
            .filter(|c| c.kept)
            .collect();
        let spec = &self.model.spec;
        let table = spec.context.then(|| PairFeatureTable::new(&pair.source, &pair.target, &m));
        let first = self.first.as_ref().map(|f| {
            let (search, decisions) = f.align_pair(pair, links);
            f.first_pass_output(pair, &search, &decisions)
        });
        let (is, it, contexts) = {
            let mut index = self.index.borrow_mut();
            index.rollback();
            let contexts: Vec<Option<(ContextFeatures, ContextKey)>> = cands
                .iter()
                .map(|c| {
                    table.as_ref().map(|t| {
                        let f =
                            ContextFeatures::compute(&pair.source, c.source, &pair.target, c.target, t, spec.unknown);
                        let key = context_key(&mut index, &f);
                        (f, key)
                    })
                })
                .collect();
            (index.index_tree(&pair.source), index.index_tree(&pair.target), contexts)
        };
        let index = self.index.borrow();
        let kernel = CompositeKernel::new(spec, &index, &[]);
        cands
            .into_iter()
            .zip(contexts)
            .map(|(c, context)| {
                let history =
                    first.as_ref().map(|f| f.features(&pair.source, c.source, &pair.target, c.target).to_vec());
                let (context, key) = context.map_or((None, None), |(f, k)| (Some(f.dense), Some(k)));
                let x = Instance {
                    source: index.subtree_key(&pair.source, &is, c.source),
                    target: index.subtree_key(&pair.target, &it, c.target),
                    plain: c.features.to_vec(),
                    context: key,
                    history: history.clone(),
                };
                let sx = kernel.self_parts(&x);
                let parts = self.decision_parts(&kernel, &x, &sx);
                let value = parts.iter().sum::<f64>() - self.model.rho;
                Decision { candidate: c, parts, value, context, history }
            })
            .collect()
    }

    /// What a second pass reads from this model's alignment of `pair`
    /// (its `search` and `decisions`): see [`super::history`].
    pub fn first_pass_output(&self, pair: &TreePair, search: &Search, decisions: &[Decision]) -> FirstPassOutput {
        let posteriors: Vec<((NodeId, NodeId), f64)> =
            decisions.iter().map(|d| ((d.candidate.source, d.candidate.target), self.posterior(d.value))).collect();
        FirstPassOutput::new(&pair.source, &pair.target, &posteriors, &search.links)
    }

    /// Each component's share `θ_c Σ_i α_i y_i K̂_c(sv_i, x)` of the decision
    /// value (which is their sum minus ρ), visiting only the support vectors
    /// that can contribute (see [`DecisionIndex`]).
    pub fn decision_parts(&self, kernel: &CompositeKernel<'_>, x: &Instance, sx: &[(f64, f64)]) -> Vec<f64> {
        let spec = &self.model.spec;
        let mut parts = Vec::with_capacity(spec.components());
        let mut c = 0;
        if let (Some(set), Some(w)) = (spec.plain, &self.decision.plain) {
            let phi = polynomial_feature_map(set.select(&x.plain));
            let dot: f64 = w.iter().zip(&phi).map(|(a, b)| a * b).sum();
            parts.push(spec.thetas[c] * if sx[c].0 > 0.0 { dot / sx[c].0.sqrt() } else { 0.0 });
            c += 1;
        }
        if spec.context {
            parts.push(spec.thetas[c] * self.decision.context_sum(x.context.as_ref(), sx[c]));
            c += 1;
        }
        if spec.history {
            let sum = match (&x.history, &self.decision.history) {
                (Some(h), Some(w)) if sx[c].0 > 0.0 => dot_map(w, h) / sx[c].0.sqrt(),
                _ => 0.0,
            };
            parts.push(spec.thetas[c] * sum);
            c += 1;
        }
        for (&(kind, space), how) in spec.btks.iter().zip(&self.decision.btks) {
            let theta = spec.thetas[c];
            let (ls, lt) = (x.source.root_label(), x.target.root_label());
            let sum = match how {
                BtkDecision::Root { by_source, by_target, by_both } => match kind {
                    BtkKind::Ibtk => {
                        (by_source.get(&ls).copied().unwrap_or(0.0) + by_target.get(&lt).copied().unwrap_or(0.0)) / 2.0
                    }
                    BtkKind::Dbtk => by_both.get(&(ls, lt)).copied().unwrap_or(0.0),
                },
                BtkDecision::Bucketed { source, target } => {
                    let index = self.index.borrow();
                    let (ks, kt) = match space {
                        Space::RgSst => (
                            index.shape_production(x.source.root_shape()),
                            index.shape_production(x.target.root_shape()),
                        ),
                        _ => (ls, lt),
                    };
                    let empty = Vec::new();
                    let (a, b) = (source.get(&ks).unwrap_or(&empty), target.get(&kt).unwrap_or(&empty));
                    let visit = |i: usize| {
                        self.model.support_vectors[i].coef
                            * kernel.btk_normalized(kind, space, x, &sx[c], &self.svs[i], &self.sv_selfs[i][c])
                    };
                    match kind {
                        BtkKind::Ibtk => merge_union(a, b).map(visit).sum(),
                        BtkKind::Dbtk => a.iter().copied().filter(|i| b.binary_search(i).is_ok()).map(visit).sum(),
                    }
                }
                BtkDecision::All => (0..self.svs.len())
                    .map(|i| {
                        self.model.support_vectors[i].coef
                            * kernel.btk_normalized(kind, space, x, &sx[c], &self.svs[i], &self.sv_selfs[i][c])
                    })
                    .sum(),
            };
            parts.push(theta * sum);
            c += 1;
        }
        parts
    }

    /// Aligns one pair: candidates classified aligned (`D` above the model's
    /// threshold, 0 in the paper), scored by the posterior, then the greedy search.
    pub fn align_pair(&self, pair: &TreePair, links: &WordAlignment) -> (Search, Vec<Decision>) {
        self.search(pair, links, self.model.threshold)
    }

    /// The greedy search over the candidates with `D > threshold`.
    pub fn search(&self, pair: &TreePair, links: &WordAlignment, threshold: f64) -> (Search, Vec<Decision>) {
        let decisions = self.decisions(pair, links);
        let scored: Vec<Scored> = decisions
            .iter()
            .filter(|d| d.value > threshold)
            .map(|d| Scored::new(d.candidate.source, d.candidate.target, self.model.posterior.prob(d.value)))
            .collect();
        (greedy_align(&pair.source, &pair.target, &scored), decisions)
    }

    /// The posterior alignment probability of a decision value.
    pub fn posterior(&self, value: f64) -> f64 {
        self.model.posterior.prob(value)
    }
}

/// The union of two increasing index lists, increasing.
fn merge_union<'a>(a: &'a [usize], b: &'a [usize]) -> impl Iterator<Item = usize> + 'a {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || {
        let next = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x == y => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (_, Some(&y)) => {
                j += 1;
                y
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, None) => return None,
        };
        Some(next)
    })
}

/// How one BTK component's part of the decision value is computed.
#[derive(Clone)]
enum BtkDecision {
    /// Root: the normalised kernel is `I_s·I_t` (dBTK) or `(I_s + I_t)/2`
    /// (iBTK), so the support vectors' coefficients are summed per root label.
    Root { by_source: HashMap<u32, f64>, by_target: HashMap<u32, f64>, by_both: HashMap<(u32, u32), f64> },
    /// RgSST (Δ of the roots) is 0 unless the root productions are equal,
    /// RdSST unless the root labels are: support vectors bucketed by that key,
    /// per side (iBTK visits the union, dBTK the intersection).
    Bucketed { source: HashMap<u32, Vec<usize>>, target: HashMap<u32, Vec<usize>> },
    /// SST: every support vector.
    All,
}

/// The decision function prepared per component (see [`Scorer::decision_parts`]).
#[derive(Clone)]
struct DecisionIndex {
    /// `Σ_i α_i y_i φ(sv_i)/|φ(sv_i)|` for the plain polynomial kernel.
    plain: Option<Vec<f64>>,
    /// `ctx`: the same for the dense context features, and per label pair
    /// and parent label pair `Σ α_i y_i / sqrt(label self-kernel)`.
    context: Option<ContextDecision>,
    /// `hist`: the weight vector of the history features.
    history: Option<Vec<f64>>,
    btks: Vec<BtkDecision>,
}

/// The `ctx` part of the decision function folded over the support vectors.
#[derive(Clone)]
struct ContextDecision {
    dense: Vec<f64>,
    by_labels: HashMap<u32, f64>,
    by_parent_labels: HashMap<u32, f64>,
}

/// `φ(x)·w` with `φ` the degree-2 polynomial feature map.
fn dot_map(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(&polynomial_feature_map(x)).map(|(a, b)| a * b).sum()
}

/// `Σ coef · φ(x)/sqrt(self)` over `(x, self, coef)`.
fn fold_feature_map<'a>(items: impl Iterator<Item = (&'a [f64], f64, f64)>) -> Vec<f64> {
    let mut w: Vec<f64> = Vec::new();
    for (x, self_value, coef) in items {
        let phi = polynomial_feature_map(x);
        w.resize(w.len().max(phi.len()), 0.0);
        if self_value > 0.0 {
            let scale = coef / self_value.sqrt();
            for (wk, pk) in w.iter_mut().zip(&phi) {
                *wk += scale * pk;
            }
        }
    }
    w
}

impl DecisionIndex {
    fn new(model: &AlignmentModel, index: &StructureIndex, svs: &[Instance], selfs: &[Vec<(f64, f64)>]) -> Self {
        let coefs = model.support_vectors.iter().map(|sv| sv.coef);
        let plain = model.spec.plain.map(|set| {
            let mut w: Vec<f64> = Vec::new();
            for ((sv, s), coef) in svs.iter().zip(selfs).zip(coefs.clone()) {
                let phi = polynomial_feature_map(set.select(&sv.plain));
                w.resize(phi.len(), 0.0);
                if s[0].0 > 0.0 {
                    let scale = coef / s[0].0.sqrt();
                    for (wk, pk) in w.iter_mut().zip(&phi) {
                        *wk += scale * pk;
                    }
                }
            }
            w
        });
        let at_context = usize::from(model.spec.plain.is_some());
        let context = model.spec.context.then(|| {
            let with = || {
                svs.iter()
                    .zip(selfs)
                    .zip(coefs.clone())
                    .filter_map(|((sv, s), coef)| Some((sv.context.as_ref()?, s[at_context], coef)))
            };
            let dense = fold_feature_map(with().map(|(c, s, coef)| (c.dense.as_slice(), s.0, coef)));
            let (mut by_labels, mut by_parent_labels) = (HashMap::new(), HashMap::new());
            for (c, s, coef) in with() {
                let share = if s.1 > 0.0 { coef / s.1.sqrt() } else { 0.0 };
                *by_labels.entry(c.labels).or_insert(0.0) += share;
                if let Some(p) = c.parent_labels {
                    *by_parent_labels.entry(p).or_insert(0.0) += share;
                }
            }
            ContextDecision { dense, by_labels, by_parent_labels }
        });
        let at_history = at_context + usize::from(model.spec.context);
        let history = model.spec.history.then(|| {
            fold_feature_map(
                svs.iter()
                    .zip(selfs)
                    .zip(coefs.clone())
                    .filter_map(|((sv, s), coef)| Some((sv.history.as_deref()?, s[at_history].0, coef))),
            )
        });
        let btks = model
            .spec
            .btks
            .iter()
            .map(|&(_, space)| match space {
                Space::Root => {
                    let (mut by_source, mut by_target, mut by_both) = (HashMap::new(), HashMap::new(), HashMap::new());
                    for (sv, coef) in svs.iter().zip(coefs.clone()) {
                        let (ls, lt) = (sv.source.root_label(), sv.target.root_label());
                        *by_source.entry(ls).or_insert(0.0) += coef;
                        *by_target.entry(lt).or_insert(0.0) += coef;
                        *by_both.entry((ls, lt)).or_insert(0.0) += coef;
                    }
                    BtkDecision::Root { by_source, by_target, by_both }
                }
                Space::RgSst | Space::RdSst => {
                    let key = |k: &SubTreeKey| match space {
                        Space::RgSst => index.shape_production(k.root_shape()),
                        _ => k.root_label(),
                    };
                    let (mut source, mut target): (HashMap<u32, Vec<usize>>, HashMap<u32, Vec<usize>>) =
                        (HashMap::new(), HashMap::new());
                    for (i, sv) in svs.iter().enumerate() {
                        source.entry(key(&sv.source)).or_default().push(i);
                        target.entry(key(&sv.target)).or_default().push(i);
                    }
                    BtkDecision::Bucketed { source, target }
                }
                Space::Sst => BtkDecision::All,
            })
            .collect();
        DecisionIndex { plain, context, history, btks }
    }

    /// `Σ_i α_i y_i K̂_ctx(sv_i, x)` for a context with self parts `sx`.
    fn context_sum(&self, x: Option<&ContextKey>, sx: (f64, f64)) -> f64 {
        let (Some(x), Some(d)) = (x, &self.context) else { return 0.0 };
        let poly = if sx.0 > 0.0 { dot_map(&d.dense, &x.dense) / sx.0.sqrt() } else { 0.0 };
        let labels = d.by_labels.get(&x.labels).copied().unwrap_or(0.0)
            + x.parent_labels.and_then(|p| d.by_parent_labels.get(&p)).copied().unwrap_or(0.0);
        let labels = if sx.1 > 0.0 { labels / 2.0 / sx.1.sqrt() } else { 0.0 };
        0.5 * (poly + labels)
    }
}

/// Links of a search as good links in search order.
pub fn search_links(search: &Search) -> Vec<Link> {
    search.links.iter().map(|&(s, t)| Link::good(s, t)).collect()
}
