//! Training (paper §5–6): candidate features of the training pairs, the
//! pruning bounds from (dev) positives, then per setting tried on dev — the
//! pruning quantile, then C, the cost factor and the negative share — one
//! SVM, keeping the model with the best dev F.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::file::{AlignmentModel, SupportVector, TrainingSummary, FORMAT, VERSION};
use super::scorer::{candidates_of, context_key, pair_matrices, Candidate, Decision, Scorer};
use super::{AlignError, Stage};
use crate::align::calibrate::{best_threshold, TakenLink};
use crate::align::candidates::{candidate_count, CandidateNodes, Thresholds};
use crate::align::composite::{CompositeKernel, Instance, KernelSpec};
use crate::align::context::{ContextFeatures, PairFeatureTable};
use crate::align::features::{LinkWeight, PlainFeatures};
use crate::align::greedy::{search_links, Search};
use crate::align::history::FirstPassOutput;
use crate::align::lexical::LexicalSetup;
use crate::align::link_search::LinkSearch;
use crate::align::primal::{self, Solver};
use crate::corpus::{Corpus, PairIndex, TreePair};
use crate::eval::prf::Counts;
use crate::io::links::LinkKind;
use crate::kernel::index::StructureIndex;
use crate::kernel::{Space, DEFAULT_MAX_NODE_PAIRS};
use crate::lexicon::{Lexicon, WordAlignment, WordModel};
use crate::limits::Limits;
use crate::parallel::{stream_in_order, Threads};
use crate::progress::{Observer, Progress};
use crate::rng::SplitMix64;
use crate::svm::{self, Posterior, SvmParams};
use crate::tree::NodeId;

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
    #[serde(with = "crate::io::json::ratio")]
    pub max_negative_ratio: f64,
    /// At most this many training examples: beyond it, every positive is
    /// kept while they are at most half of it, and negatives fill the rest
    /// (seeded). SMO's cost grows with
    /// the square of the examples, and so does the kernel cache.
    pub max_examples: usize,
    pub seed: u64,
    /// Fit Platt's sigmoid on dev decision values instead of the paper's
    /// `1/(1+e^-D)`.
    pub platt: bool,
    /// The threshold on `D` the model keeps: fixed (the paper: 0), or, with
    /// dev data, the one that maximises dev F ([`crate::align::calibrate`]).
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
    /// SMO, or dual coordinate descent for specs with an explicit feature map ([`crate::align::primal`]).
    #[serde(default)]
    pub solver: Solver,
    /// With dev data, after the cost factor: each negative share of this
    /// grid (negatives per positive) is tried and kept if dev F improves.
    #[serde(default, with = "crate::io::json::ratio::list")]
    pub tune_negative_ratio: Vec<f64>,
    /// Threads for the features of every candidate and the dev pairs'
    /// alignment (`--threads`); the model is the same with any number. Not
    /// part of the settings sent to the page's worker, which has one.
    #[serde(skip)]
    pub threads: Threads,
    /// The link search ([`crate::align::link_search`]; the paper: greedy).
    #[serde(default)]
    pub search: LinkSearch,
    /// With dev data, last: each search of this list is tried on the model
    /// kept (its threshold calibrated again when the threshold is), and the
    /// best kept.
    #[serde(default)]
    pub tune_search: Vec<LinkSearch>,
    /// Beyond the paper (issue 23, "a threshold that travels"): with dev
    /// data and a calibrated threshold, this many folds (0: off) of
    /// cross-validation over the training pairs; the kept model's threshold
    /// is then calibrated on their out-of-fold decisions pooled with dev's
    /// ([`cross_validated_threshold`]) instead of on dev alone.
    #[serde(default)]
    pub threshold_folds: usize,
    /// Beyond the paper (issue 23): with dev data and an in-engine lexicon,
    /// the kept configuration is trained again with the lexicon of each
    /// word model of this list, its settings as kept, and the lexicon with
    /// the best dev F kept (`app::alignment::keep_best`).
    #[serde(default)]
    pub tune_word_model: Vec<WordModel>,
}

impl TrainOptions {
    /// Whether dev chooses the word model ([`TrainOptions::tune_word_model`]):
    /// the model's lexical model is then known only once it is trained.
    pub fn tunes_word_model(&self) -> bool {
        !self.tune_word_model.is_empty()
    }
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
            max_examples: Solver::Smo.default_max_examples(),
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
            search: LinkSearch::Greedy,
            tune_search: Vec::new(),
            threshold_folds: 0,
            tune_word_model: Vec::new(),
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

/// What every model trained on the same pairs shares.
struct Prepared {
    /// The training candidates' features, unpruned.
    train_candidates: Featurized,
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
    (word_links, weight): (&[WordAlignment], LinkWeight),
    (nodes, thresholds): (CandidateNodes, &Thresholds),
    threads: Threads,
    progress: &mut dyn Observer,
) -> Result<Featurized, AlignError> {
    let total = corpus.len() as u64;
    let mut candidates = Vec::with_capacity(corpus.len());
    let pairs = corpus.pairs.iter().zip(word_links).map(Ok::<_, AlignError>);
    // Each pair's candidates from its own matrices: any thread, the same features.
    let of_pair = |_: &mut (), k: usize, (pair, links): &(&TreePair, &WordAlignment)| {
        candidates_of(pair, &pair_matrices(lexicon(k), pair, links, weight), nodes, thresholds)
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
/// `train` then (if given) `dev`, as [`crate::align::lexical::prepare`] makes them.
///
/// In three steps: what cannot train is refused before any work (word links
/// that do not fit, too many candidates, a kernel the linear solver cannot
/// take); what every model tried shares is prepared once (`prepare`: with
/// `hist` the first pass, then every candidate's features); then one model
/// per setting tried on dev, the best kept (`search_settings`).
pub fn train(
    train_corpus: &Corpus,
    dev: Option<&Corpus>,
    lexical: &LexicalSetup,
    options: &TrainOptions,
    progress: &mut dyn Observer,
) -> Result<AlignmentModel, AlignError> {
    train_keeping(train_corpus, dev, lexical, options, None, progress).map(|(model, _)| model)
}

/// The linear solver's last solution, α by candidate (its pair's trees and
/// its two nodes), to start the next training from when its pairs overlap
/// the last's (an annotation update: the same pairs and a few more). The
/// next training's α starts there (0 for a candidate not seen), and its
/// solution replaces it. The SMO solver starts from 0 whatever it holds.
#[derive(Debug, Clone, Default)]
pub struct WarmStart {
    alpha: std::collections::HashMap<(u64, NodeId, NodeId), f64>,
}

impl WarmStart {
    /// No candidate with α > 0: a start from 0.
    pub fn is_empty(&self) -> bool {
        self.alpha.is_empty()
    }

    /// A pair's key: a hash of its two trees (the same pair in another corpus, at another place).
    fn pair_key(pair: &TreePair) -> u64 {
        use std::hash::{Hash, Hasher};
        // Fixed keys: the same on every run and in wasm.
        let mut h = std::hash::DefaultHasher::new();
        (pair.source.to_bracketed(), pair.target.to_bracketed()).hash(&mut h);
        h.finish()
    }
}

/// [`train`], with the settings of the model kept (the pruning quantile, C,
/// the cost factor and the negative share chosen on dev), which
/// [`cross_validated_threshold`] trains its fold models with; the linear
/// solver started from `warm` if given and its solution kept there
/// ([`WarmStart`]).
pub fn train_keeping(
    train_corpus: &Corpus,
    dev: Option<&Corpus>,
    lexical: &LexicalSetup,
    options: &TrainOptions,
    warm: Option<&mut WarmStart>,
    progress: &mut dyn Observer,
) -> Result<(AlignmentModel, TrainOptions), AlignError> {
    let train_links: &[WordAlignment] = lexical.links.first().map_or(&[], Vec::as_slice);
    if train_links.len() != train_corpus.len() {
        return Err(AlignError::WordAlignmentCount { expected: train_corpus.len(), found: train_links.len() });
    }
    let dev = dev.filter(|d| lexical.links.get(1).is_some_and(|l| l.len() == d.len()) && !d.is_empty());
    // Every candidate's features are kept (below): refuse before, not midway.
    check_train_candidates(train_corpus, options)?;
    if let (Solver::Linear, Some(component)) = (options.solver, options.spec.non_explicit_component()) {
        return Err(AlignError::NotExplicit { spec: options.spec.to_string(), component });
    }
    let (first_pass, prepared) = prepare(train_corpus, dev, lexical, options, progress)?;
    search_settings(train_corpus, dev, &prepared, first_pass, lexical, options, warm, progress)
}

/// What every model tried shares: with `hist`, the first pass (this spec
/// without hist, tuned as any model) and its cross-validated outputs on the
/// training pairs; the training candidates' features, unpruned; and the
/// positives the pruning bounds come from (dev's, else train's).
fn prepare(
    train_corpus: &Corpus,
    dev: Option<&Corpus>,
    lexical: &LexicalSetup,
    options: &TrainOptions,
    progress: &mut dyn Observer,
) -> Result<(Option<Box<AlignmentModel>>, Prepared), AlignError> {
    let train_links: &[WordAlignment] = lexical.links.first().map_or(&[], Vec::as_slice);
    let dev_links: &[WordAlignment] = lexical.links.get(1).map_or(&[], Vec::as_slice);
    let (first_pass, history) = if options.spec.history {
        let first_options = TrainOptions { spec: options.spec.without_history(), ..options.clone() };
        let first = train(train_corpus, dev, lexical, &first_options, progress)?;
        let history = cross_validated_first_pass(train_corpus, lexical, &first, &first_options, progress)?;
        (Some(Box::new(first)), Some(history))
    } else {
        (None, None)
    };
    let unpruned = (options.candidates, &Thresholds::default());
    let train_candidates = featurize(
        train_corpus,
        |p| lexical.train_lexicon(p),
        (train_links, lexical.link_weight),
        unpruned,
        options.threads,
        progress,
    )?;
    let tuning_positives = match dev {
        Some(d) => {
            let f = featurize(
                d,
                |_| &lexical.lexicon,
                (dev_links, lexical.link_weight),
                unpruned,
                options.threads,
                progress,
            )?;
            positive_features(d, &f)
        }
        None => positive_features(train_corpus, &train_candidates),
    };
    Ok((first_pass, Prepared { train_candidates, tuning_positives, history }))
}

/// A coordinate search on dev: each pruning quantile of
/// `tune_prune_quantiles` (without dev, `prune_quantile` alone), then from
/// the best so far each C of `tune_c`, each cost factor of
/// `tune_cost_factor` and each negative share of `tune_negative_ratio`;
/// the model with the best dev F is kept (the first of equals). Last, each
/// search of `tune_search` on it. Each setting tried is noted to
/// `progress` with its dev F and whether it was kept.
#[allow(clippy::too_many_arguments)]
fn search_settings(
    train_corpus: &Corpus,
    dev: Option<&Corpus>,
    prepared: &Prepared,
    first_pass: Option<Box<AlignmentModel>>,
    lexical: &LexicalSetup,
    options: &TrainOptions,
    mut warm: Option<&mut WarmStart>,
    progress: &mut dyn Observer,
) -> Result<(AlignmentModel, TrainOptions), AlignError> {
    let dev_links: &[WordAlignment] = lexical.links.get(1).map_or(&[], Vec::as_slice);
    let quantiles = match dev {
        Some(_) if !options.tune_prune_quantiles.is_empty() => options.tune_prune_quantiles.clone(),
        _ => vec![options.prune_quantile],
    };
    let mut best: Option<(AlignmentModel, TrainOptions)> = None;
    let mut try_options = |opts: TrainOptions,
                           best: &mut Option<(AlignmentModel, TrainOptions)>,
                           progress: &mut dyn Observer|
     -> Result<(), AlignError> {
        let mut model = train_at_quantile(train_corpus, dev, prepared, lexical, &opts, warm.as_deref_mut(), progress)?;
        model.first_pass = first_pass.clone();
        if let Some(d) = dev {
            let calibrate = opts.threshold == DecisionThreshold::Calibrated;
            let counts =
                evaluate_on_dev(&mut model, &lexical.lexicon, d, dev_links, (calibrate, opts.threads), progress)?;
            model.summary.dev_f = Some(counts.f());
            model.summary.dev = Some(counts);
        }
        let kept = best.as_ref().is_none_or(|(b, _)| model.summary.dev_f > b.summary.dev_f);
        if let Some(f) = model.summary.dev_f {
            progress.note(&format!(
                "  {}: dev F {f:.2}{}",
                setting_in_words(&model, &opts),
                if kept { " (kept)" } else { "" }
            ));
        }
        if kept {
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
    let (mut model, opts) = best.ok_or(AlignError::NoPositives)?;
    if let (Some(d), false) = (dev, opts.tune_search.is_empty()) {
        let calibrate = opts.threshold == DecisionThreshold::Calibrated;
        let tried = choose_search(
            &mut model,
            &lexical.lexicon,
            d,
            dev_links,
            &opts.tune_search,
            (calibrate, opts.threads),
            progress,
        )?;
        for (search, threshold, counts) in tried {
            let kept = search == model.search && threshold == model.threshold;
            progress.note(&format!(
                "  search {search}, threshold on D {threshold:.3}: dev F {:.2}{}",
                counts.f(),
                if kept { " (kept)" } else { "" }
            ));
        }
    }
    Ok((model, opts))
}

/// What one setting of the coordinate search trained with, in words.
fn setting_in_words(model: &AlignmentModel, opts: &TrainOptions) -> String {
    let s = &model.summary;
    let negatives = match opts.max_negative_ratio {
        r if r.is_infinite() => "all negatives".to_string(),
        r => format!("≤ {r} negatives per positive"),
    };
    format!(
        "pruning quantile {}, C {}, cost factor {:.2}, {negatives}, {} solver: {} examples ({} positive), threshold on D {:.3}",
        s.prune_quantile,
        s.c,
        s.cost_factor,
        opts.solver.name(),
        s.examples,
        s.positives_sampled,
        model.threshold
    )
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
            let scorer = scorer_through(&mut scorers, &model, lexical.train_lexicon(i))?;
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

/// What [`cross_validated_threshold`] found: the threshold the model now
/// keeps, the pooled counts at it, dev's own threshold and the dev counts
/// at each (for the report, not for choosing).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossValidatedCut {
    pub threshold: f64,
    /// The out-of-fold training pairs and dev pooled, at `threshold`.
    pub pooled: Counts,
    /// The out-of-fold training pairs alone: their own best threshold and counts.
    pub out_of_fold: (f64, Counts),
    /// Dev alone: the threshold calibrated on it, and dev's counts at it.
    pub dev_only: (f64, Counts),
    /// Dev's counts at `threshold`.
    pub dev: Counts,
}

/// How far below the dev-calibrated threshold the pooled decisions reach:
/// candidates with `D` lower than that are dropped before the searches (the
/// out-of-fold decisions of a large treebank would not fit in memory whole).
/// Thresholds above the floor are counted exactly (a search over the
/// candidates above τ never looks below it); 2 is twice the SVM's margin.
pub const CROSS_VALIDATION_WINDOW: f64 = 2.0;

/// The scorer of `model` through `lexicon`, made once per lexicon (the
/// held pairs of a fold share their fold's held-out lexicon).
fn scorer_through<'s, 'm>(
    scorers: &'s mut Vec<(*const Lexicon, Scorer<'m>)>,
    model: &'m AlignmentModel,
    lexicon: &'m Lexicon,
) -> Result<&'s Scorer<'m>, AlignError> {
    let at = match scorers.iter().position(|(l, _)| std::ptr::eq(*l, lexicon)) {
        Some(at) => at,
        None => {
            scorers.push((lexicon, Scorer::new(model, lexicon)?));
            scorers.len() - 1
        }
    };
    Ok(&scorers[at].1)
}

/// Beyond the paper (issue 23, "a threshold that travels"): dev chose the
/// kept model, but a threshold calibrated on dev alone fits dev's source
/// (on SQUOIA one sub-corpus, LAI, while test is another, DW). Here the
/// training pairs are split into `kept.threshold_folds` folds (in order, as
/// [`cross_validated_first_pass`] splits them); each fold is scored by a
/// model trained on the others with the settings `kept` chose on dev (its
/// pruning bounds from dev's positives, as the kept model's), each pair
/// through the lexicon it is featurised with in training (held out of it
/// for a model of held-out input). The out-of-fold decisions, pooled with
/// dev's under the kept model, calibrate the threshold as dev alone did
/// ([`crate::align::calibrate`], for the model's search); the model keeps
/// it, and its dev counts become the counts at it. The other sources of
/// the training pairs are what should carry to a source none of them is.
pub fn cross_validated_threshold(
    train_corpus: &Corpus,
    dev: &Corpus,
    lexical: &LexicalSetup,
    model: &mut AlignmentModel,
    kept: &TrainOptions,
    progress: &mut dyn Observer,
) -> Result<CrossValidatedCut, AlignError> {
    let n = train_corpus.len();
    let folds = kept.threshold_folds;
    let train_links: &[WordAlignment] = lexical.links.first().map_or(&[], Vec::as_slice);
    let dev_links: &[WordAlignment] = lexical.links.get(1).map_or(&[], Vec::as_slice);
    if folds < 2 || folds > n {
        return Err(AlignError::ThresholdFolds { folds, pairs: n });
    }
    if dev_links.len() != dev.len() || dev.is_empty() {
        return Err(AlignError::WordAlignmentCount { expected: dev.len(), found: dev_links.len() });
    }
    let floor = model.threshold - CROSS_VALIDATION_WINDOW;
    let keep = |decisions: Vec<Decision>| -> Vec<Decision> {
        decisions
            .into_iter()
            .filter(|d| d.value > floor)
            .map(|d| Decision { parts: Vec::new(), context: None, history: None, ..d })
            .collect()
    };
    let chosen = retraining_options(kept, model);
    let fold_of = |i: usize| i * folds / n;
    let mut out_of_fold: Vec<Vec<Decision>> = vec![Vec::new(); n];
    for fold in 0..folds {
        let (rest, held): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| fold_of(i) != fold);
        if rest.is_empty() || held.is_empty() {
            continue;
        }
        progress.note(&format!(
            "threshold by cross-validation: fold {}/{folds}, training on {} pairs, scoring {}",
            fold + 1,
            rest.len(),
            held.len()
        ));
        let pick = Corpus { pairs: rest.iter().map(|&i| train_corpus.pairs[i].clone()).collect() };
        let mut subset = lexical.train_subset(&rest);
        subset.links.push(dev_links.to_vec());
        let fold_model = train(&pick, Some(dev), &subset, &chosen, progress)?;
        // Held-out lexicons: each held pair is seen through its own fold's.
        let mut scorers: Vec<(*const Lexicon, Scorer)> = Vec::new();
        for &i in &held {
            let scorer = scorer_through(&mut scorers, &fold_model, lexical.train_lexicon(i))?;
            let links = train_links.get(i).cloned().unwrap_or_default();
            out_of_fold[i] = keep(scorer.decisions(&train_corpus.pairs[i], &links));
        }
    }
    let dev_decided: Vec<Vec<Decision>> =
        dev_decisions(model, &lexical.lexicon, dev, dev_links, kept.threads, progress)?.into_iter().map(keep).collect();
    let scorer = Scorer::new(model, &lexical.lexicon)?;
    let search = model.search;
    let dev_only = calibrated(&scorer, dev, &dev_decided, search);
    let out_of_fold_cut = calibrated(&scorer, train_corpus, &out_of_fold, search);
    let pooled_corpus = Corpus { pairs: train_corpus.pairs.iter().chain(&dev.pairs).cloned().collect() };
    let pooled_decisions: Vec<Vec<Decision>> = out_of_fold.into_iter().chain(dev_decided.iter().cloned()).collect();
    let (threshold, pooled) = calibrated(&scorer, &pooled_corpus, &pooled_decisions, search);
    let dev_counts_at = dev_counts(&scorer, dev, &dev_decided, threshold, search);
    drop(scorer);
    model.threshold = threshold;
    model.summary.threshold_folds = folds;
    model.summary.dev_f = Some(dev_counts_at.f());
    model.summary.dev = Some(dev_counts_at);
    Ok(CrossValidatedCut { threshold, pooled, out_of_fold: out_of_fold_cut, dev_only, dev: dev_counts_at })
}

/// The decision values of every dev pair's candidates under `model`.
fn dev_decisions(
    model: &AlignmentModel,
    lexicon: &Lexicon,
    dev: &Corpus,
    dev_links: &[WordAlignment],
    threads: Threads,
    progress: &mut dyn Observer,
) -> Result<Vec<Vec<Decision>>, AlignError> {
    let scorer = Scorer::new(model, lexicon)?;
    let mut out = Vec::with_capacity(dev.len());
    let pairs = dev.pairs.iter().zip(dev_links).map(Ok::<_, AlignError>);
    // Each dev pair's decisions on any thread (a scorer each), kept in order.
    let decide =
        |scorer: &mut Scorer<'_>, _: usize, (pair, links): &(&TreePair, &WordAlignment)| scorer.decisions(pair, links);
    stream_in_order(
        pairs,
        threads,
        || scorer.clone(),
        decide,
        |k, decisions| {
            out.push(decisions);
            if progress.progress(Progress::new(Stage::Tuning.name(), k as u64 + 1, dev.len() as u64)).is_break() {
                return Err(AlignError::Cancelled);
            }
            Ok(())
        },
    )?;
    Ok(out)
}

/// The dev counts of `search` at `threshold`, from the dev pairs' decisions.
fn dev_counts(
    scorer: &Scorer,
    dev: &Corpus,
    decisions: &[Vec<Decision>],
    threshold: f64,
    search: LinkSearch,
) -> Counts {
    dev.pairs
        .iter()
        .zip(decisions)
        .map(|(pair, d)| Counts::of_pair(pair, &search_links(&scorer.search_decided(pair, d, threshold, search))))
        .sum()
}

/// Offsets from the greedy search's calibrated threshold tried for the
/// other searches, whose links at a lower threshold are not a prefix of the
/// links at a higher one (so they cannot be counted as
/// [`crate::align::calibrate`] counts the greedy search's).
const SEARCH_THRESHOLD_OFFSETS: [f64; 13] = [-0.6, -0.4, -0.3, -0.2, -0.15, -0.1, -0.05, 0.0, 0.05, 0.1, 0.2, 0.3, 0.4];

/// The threshold on `D` that maximises dev F for `search`, and the dev
/// counts at it: for the greedy search by counting over one search per dev
/// pair ([`crate::align::calibrate`]); for the others, the best of the
/// greedy threshold moved by [`SEARCH_THRESHOLD_OFFSETS`] (ties to the higher).
fn calibrated(scorer: &Scorer, dev: &Corpus, decisions: &[Vec<Decision>], search: LinkSearch) -> (f64, Counts) {
    let (mut gold, mut taken) = (Counts::default(), Vec::new());
    for (k, (pair, d)) in dev.pairs.iter().zip(decisions).enumerate() {
        let greedy = scorer.search_decided(pair, d, f64::NEG_INFINITY, LinkSearch::Greedy);
        gold = gold + Counts::of_pair(pair, &[]);
        taken.extend(taken_links(k, pair, &greedy, d));
    }
    let cut = best_threshold(gold, &taken);
    if search == LinkSearch::Greedy {
        return (cut.threshold, cut.counts);
    }
    let mut best: Option<(f64, Counts)> = None;
    for offset in SEARCH_THRESHOLD_OFFSETS.iter().rev() {
        let threshold = cut.threshold + offset;
        let counts = dev_counts(scorer, dev, decisions, threshold, search);
        if best.is_none_or(|(_, b)| counts.f() > b.f()) {
            best = Some((threshold, counts));
        }
    }
    best.unwrap_or((cut.threshold, cut.counts))
}

/// The dev counts of `model` (its threshold and search); with `calibrate`,
/// first sets its threshold to the one that maximises dev F
/// ([`crate::align::calibrate`]).
fn evaluate_on_dev(
    model: &mut AlignmentModel,
    lexicon: &Lexicon,
    dev: &Corpus,
    dev_links: &[WordAlignment],
    (calibrate, threads): (bool, Threads),
    progress: &mut dyn Observer,
) -> Result<Counts, AlignError> {
    let decisions = dev_decisions(model, lexicon, dev, dev_links, threads, progress)?;
    let scorer = Scorer::new(model, lexicon)?;
    if !calibrate {
        return Ok(dev_counts(&scorer, dev, &decisions, model.threshold, model.search));
    }
    let (threshold, counts) = calibrated(&scorer, dev, &decisions, model.search);
    model.threshold = threshold;
    Ok(counts)
}

/// Each search of `searches` on dev (its threshold calibrated when
/// `calibrate`, else the model's), the best kept in `model` (the first of
/// equals); returns the dev counts of each, in order.
fn choose_search(
    model: &mut AlignmentModel,
    lexicon: &Lexicon,
    dev: &Corpus,
    dev_links: &[WordAlignment],
    searches: &[LinkSearch],
    (calibrate, threads): (bool, Threads),
    progress: &mut dyn Observer,
) -> Result<Vec<(LinkSearch, f64, Counts)>, AlignError> {
    let decisions = dev_decisions(model, lexicon, dev, dev_links, threads, progress)?;
    let scorer = Scorer::new(model, lexicon)?;
    let tried: Vec<(LinkSearch, f64, Counts)> = searches
        .iter()
        .map(|&search| {
            let (threshold, counts) = match calibrate {
                true => calibrated(&scorer, dev, &decisions, search),
                false => (model.threshold, dev_counts(&scorer, dev, &decisions, model.threshold, search)),
            };
            (search, threshold, counts)
        })
        .collect();
    drop(scorer);
    let best = tried.iter().fold(None::<&(LinkSearch, f64, Counts)>, |b, t| match b {
        Some(b) if t.2.f() <= b.2.f() => Some(b),
        _ => Some(t),
    });
    if let Some(&(search, threshold, counts)) = best {
        if model.summary.dev.is_none_or(|d| counts.f() > d.f()) {
            (model.search, model.threshold) = (search, threshold);
            model.summary.dev_f = Some(counts.f());
            model.summary.dev = Some(counts);
        }
    }
    Ok(tried)
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
            pair: PairIndex::new(pair_index),
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
            let gold: HashSet<(NodeId, NodeId)> = pair.phrase_links(&pair.gold);
            cands.iter().filter(move |c| gold.contains(&(c.source, c.target))).map(|c| c.features).collect::<Vec<_>>()
        })
        .collect()
}

/// One model at `options.prune_quantile`, from the training candidates'
/// features, the positives the pruning bounds come from and (`hist`) the
/// first pass's outputs on the training pairs, in six steps:
/// 1. the pruning bounds: all but `prune_quantile` of the positives on each
///    pruning feature ([`Thresholds::from_positive_quantile`]);
/// 2. the examples ([`sample_examples`]): every positive, the negatives that
///    survive pruning, sampled to the caps;
/// 3. their context and history features (`ctx`, `hist`; [`example_extras`]);
/// 4. their kernel instances over one structure index ([`kernel_instances`]);
/// 5. the SVM over them ([`solve`]), whose support vectors and ρ make the model;
/// 6. with `platt`, Platt's sigmoid fitted on dev decision values ([`fit_platt`]).
fn train_at_quantile(
    train_corpus: &Corpus,
    dev: Option<&Corpus>,
    prepared: &Prepared,
    lexical: &LexicalSetup,
    options: &TrainOptions,
    warm: Option<&mut WarmStart>,
    progress: &mut dyn Observer,
) -> Result<AlignmentModel, AlignError> {
    let Prepared { train_candidates, tuning_positives, history } = prepared;
    // Negative instances are pruned at the quantile (paper §6.3), and
    // aligning prunes the same way: a classifier that never saw the pruned
    // region must not be asked about it (trying otherwise cost 3 F on nl-en).
    let thresholds = Thresholds::from_positive_quantile(tuning_positives, options.prune_quantile);
    let mut summary = TrainingSummary { pairs: train_corpus.len(), made_by: crate::made_by(), ..Default::default() };
    let examples = sample_examples(train_corpus, train_candidates, &thresholds, options, &mut summary)?;
    let spec = &options.spec;
    let extras = example_extras(train_corpus, train_candidates, lexical, history.as_deref(), spec, &examples.chosen);
    let (index, instances) = kernel_instances(train_corpus, train_candidates, spec, &examples.chosen, &extras)?;
    let refs: Vec<&Instance> = instances.iter().collect();
    if progress.progress(Progress::new(Stage::Kernels.name(), 0, 1)).is_break() {
        return Err(AlignError::Cancelled);
    }
    let kernel = CompositeKernel::new(spec, &index, &refs);
    // Each example's key for a warm start: its pair's and its two nodes.
    let pair_keys: Vec<u64> = match &warm {
        Some(_) => train_corpus.pairs.iter().map(WarmStart::pair_key).collect(),
        None => Vec::new(),
    };
    let key = |i: usize| {
        let ((p, k), _) = examples.chosen[i];
        let c = &train_candidates.candidates[p][k];
        (pair_keys[p], c.source, c.target)
    };
    let alpha0: Option<Vec<f64>> = warm
        .as_deref()
        .filter(|w| !w.is_empty())
        .map(|w| (0..examples.chosen.len()).map(|i| w.alpha.get(&key(i)).copied().unwrap_or(0.0)).collect());
    let (model, cost_factor) = solve(&kernel, &refs, &examples, options, alpha0.as_deref(), progress)?;
    if let Some(w) = warm {
        let y = |i: usize| examples.chosen[i].1;
        w.alpha = model.sv_indices.iter().zip(&model.sv_coef).map(|(&i, &coef)| (key(i), coef * y(i))).collect();
    }
    summary.svm_iterations = model.stats.iterations;
    summary.kernel_evals = model.stats.kernel_evals;
    (summary.c, summary.cost_factor) = (options.c, cost_factor);

    let support_vectors: Vec<SupportVector> = model
        .sv_indices
        .iter()
        .zip(&model.sv_coef)
        .map(|(&i, &coef)| {
            let ((p, k), _) = examples.chosen[i];
            let (pair, c) = (&train_corpus.pairs[p], &train_candidates.candidates[p][k]);
            SupportVector {
                source: pair.source.subtree_bracketed(c.source),
                target: pair.target.subtree_bracketed(c.target),
                plain: c.features.to_vec(),
                context: extras.contexts[i].clone(),
                history: extras.histories[i].clone(),
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
        search: options.search,
        lexicon: lexical.model.clone(),
        link_weight: lexical.link_weight,
        summary,
        first_pass: None,
    };
    let dev_links: &[WordAlignment] = lexical.links.get(1).map_or(&[], Vec::as_slice);
    if options.platt {
        if let Some(d) = dev.filter(|d| dev_links.len() == d.len()) {
            aligned.posterior = fit_platt(&aligned, &lexical.lexicon, d, dev_links, progress)?;
        }
    }
    Ok(aligned)
}

/// The training examples: candidates as `(pair, candidate)` indices with
/// their labels (+1 gold-linked, −1 not), positives first.
struct Examples {
    chosen: Vec<((usize, usize), f64)>,
    positives: usize,
    negatives: usize,
}

/// Every positive candidate, and the negatives that survive pruning by
/// `thresholds`, sampled (seeded) to at most `max_negative_ratio` negatives
/// per positive, then to at most `max_examples` in all: every positive
/// while they are at most half of it, the negatives filling the rest (more
/// positives: half of it, or their share if larger); the counts go into
/// `summary`.
fn sample_examples(
    train_corpus: &Corpus,
    train_candidates: &Featurized,
    thresholds: &Thresholds,
    options: &TrainOptions,
    summary: &mut TrainingSummary,
) -> Result<Examples, AlignError> {
    let mut positives = Vec::new();
    let mut negatives = Vec::new();
    for (p, (pair, cands)) in train_corpus.pairs.iter().zip(&train_candidates.candidates).enumerate() {
        let gold: HashSet<(NodeId, NodeId)> = pair.phrase_links(&pair.gold);
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
        // Every positive is kept while they fill at most half the cap (so the
        // negatives are at least as many); beyond, at least half the cap, or
        // their share of the examples if larger.
        let share = (options.max_examples as f64 * positives.len() as f64 / total as f64).round() as usize;
        let keep_pos = share.max(positives.len().min(options.max_examples / 2)).max(1);
        rng.sample(&mut positives, keep_pos);
        rng.sample(&mut negatives, options.max_examples.saturating_sub(keep_pos).max(1));
    }
    let chosen: Vec<((usize, usize), f64)> =
        positives.iter().map(|&e| (e, 1.0)).chain(negatives.iter().map(|&e| (e, -1.0))).collect();
    summary.examples = chosen.len();
    summary.positives_sampled = positives.len();
    Ok(Examples { chosen, positives: positives.len(), negatives: negatives.len() })
}

/// The features of the examples beyond the plain ones, one per example.
struct ExampleExtras {
    /// `ctx`: the context features.
    contexts: Vec<Option<ContextFeatures>>,
    /// `hist`: the first pass's history features.
    histories: Vec<Option<Vec<f64>>>,
}

/// The context (`ctx`) and history (`hist`) features of the examples, pair
/// by pair: one context feature table per tree pair, from the lexicon that
/// pair is featurised with.
fn example_extras(
    train_corpus: &Corpus,
    train_candidates: &Featurized,
    lexical: &LexicalSetup,
    history: Option<&[FirstPassOutput]>,
    spec: &KernelSpec,
    examples: &[((usize, usize), f64)],
) -> ExampleExtras {
    let train_links: &[WordAlignment] = lexical.links.first().map_or(&[], Vec::as_slice);
    let mut contexts: Vec<Option<ContextFeatures>> = vec![None; examples.len()];
    let mut histories: Vec<Option<Vec<f64>>> = vec![None; examples.len()];
    if spec.context || spec.history {
        let mut by_pair: Vec<usize> = (0..examples.len()).collect();
        by_pair.sort_by_key(|&e| examples[e].0);
        let mut table: Option<(usize, PairFeatureTable)> = None;
        for e in by_pair {
            let ((p, k), _) = examples[e];
            let (pair, c) = (&train_corpus.pairs[p], &train_candidates.candidates[p][k]);
            if spec.context {
                if table.as_ref().is_none_or(|(q, _)| *q != p) {
                    let links = train_links.get(p).cloned().unwrap_or_default();
                    let m = pair_matrices(lexical.train_lexicon(p), pair, &links, lexical.link_weight);
                    table = Some((p, PairFeatureTable::new(&pair.source, &pair.target, &m)));
                }
                if let Some((_, t)) = &table {
                    contexts[e] = Some(ContextFeatures::compute(
                        &pair.source,
                        c.source,
                        &pair.target,
                        c.target,
                        t,
                        spec.context_parts(),
                    ));
                }
            }
            if let Some(h) = history.and_then(|h| h.get(p)) {
                histories[e] = Some(h.features(&pair.source, c.source, &pair.target, c.target).to_vec());
            }
        }
    }
    ExampleExtras { contexts, histories }
}

/// The examples as kernel instances over one structure index (every
/// training tree indexed, then each example's sub-tree keys and context);
/// with SST or RdSST BTKs, each key checked once against the limit on
/// matched node pairs, which then bounds every evaluation between them
/// ([`crate::kernel::index::SubTreeKey::self_node_pairs`]).
fn kernel_instances(
    train_corpus: &Corpus,
    train_candidates: &Featurized,
    spec: &KernelSpec,
    examples: &[((usize, usize), f64)],
    extras: &ExampleExtras,
) -> Result<(StructureIndex, Vec<Instance>), AlignError> {
    let mut index = StructureIndex::new(spec.lambda);
    let indexed: Vec<_> =
        train_corpus.pairs.iter().map(|p| (index.index_tree(&p.source), index.index_tree(&p.target))).collect();
    let instances: Vec<Instance> = examples
        .iter()
        .enumerate()
        .map(|(e, &((p, k), _))| {
            let (pair, c) = (&train_corpus.pairs[p], &train_candidates.candidates[p][k]);
            Instance {
                source: index.subtree_key(&pair.source, &indexed[p].0, c.source),
                target: index.subtree_key(&pair.target, &indexed[p].1, c.target),
                plain: c.features.to_vec(),
                context: extras.contexts[e].as_ref().map(|x| context_key(&mut index, x)),
                history: extras.histories[e].clone(),
            }
        })
        .collect();
    if spec.btks.iter().any(|&(_, space)| matches!(space, Space::Sst | Space::RdSst)) {
        for (x, &((p, k), _)) in instances.iter().zip(examples) {
            let c = &train_candidates.candidates[p][k];
            for (key, side, node) in [(&x.source, "source", c.source), (&x.target, "target", c.target)] {
                key.check(DEFAULT_MAX_NODE_PAIRS).map_err(|error| AlignError::Kernel {
                    pair: PairIndex::new(p),
                    side,
                    node,
                    error,
                })?;
            }
        }
    }
    Ok((index, instances))
}

/// The SVM over the examples' instances: SMO, or dual coordinate descent
/// when the kernel's features are explicit (`--solver linear`), with
/// `C+ = C · j` and `C− = C`, `j` the cost factor (given, or the ratio of
/// negatives to positives clamped to 1..4); returns the SVM and `j`.
fn solve(
    kernel: &CompositeKernel<'_>,
    refs: &[&Instance],
    examples: &Examples,
    options: &TrainOptions,
    alpha0: Option<&[f64]>,
    progress: &mut dyn Observer,
) -> Result<(svm::SvmModel, f64), AlignError> {
    let spec = &options.spec;
    let y: Vec<f64> = examples.chosen.iter().map(|&(_, label)| label).collect();
    let n_pos = examples.positives as f64;
    let n_neg = examples.negatives as f64;
    let j = options.cost_factor.unwrap_or((n_neg / n_pos).clamp(1.0, 4.0));
    let params = SvmParams { c_pos: options.c * j, c_neg: options.c, ..options.svm.clone() };
    let eval = |i: usize, k: usize| kernel.eval(refs, i, k);
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
        Solver::Linear => {
            primal::train(kernel, refs, &y, &params, options.seed, alpha0, &mut report).ok_or_else(|| {
                let component = spec.non_explicit_component().unwrap_or_default();
                AlignError::NotExplicit { spec: spec.to_string(), component }
            })?
        }
    }
    .map_err(|e| match e {
        svm::SvmError::Cancelled => AlignError::Cancelled,
        e => AlignError::Svm(e),
    })?;
    Ok((model, j))
}

/// Platt's sigmoid fitted on the decision values of the dev candidates
/// (with their gold labels) under `model`.
fn fit_platt(
    model: &AlignmentModel,
    lexicon: &Lexicon,
    dev: &Corpus,
    dev_links: &[WordAlignment],
    progress: &mut dyn Observer,
) -> Result<Posterior, AlignError> {
    if progress.progress(Progress::new(Stage::Posterior.name(), 0, 1)).is_break() {
        return Err(AlignError::Cancelled);
    }
    let scorer = Scorer::new(model, lexicon)?;
    let (mut dv, mut dy) = (Vec::new(), Vec::new());
    for (pair, links) in dev.pairs.iter().zip(dev_links) {
        let gold: HashSet<(NodeId, NodeId)> = pair.phrase_links(&pair.gold);
        for d in scorer.decisions(pair, links) {
            dv.push(d.value);
            dy.push(if gold.contains(&(d.candidate.source, d.candidate.target)) { 1.0 } else { -1.0 });
        }
    }
    Ok(svm::fit_platt(&dv, &dy)?)
}

/// The options that train `model`'s configuration again on other pairs
/// (the folds of the threshold's cross-validation, an annotation update):
/// those of `kept` with what dev chose fixed (pruning, C, cost factor,
/// threshold, search) and nothing searched or calibrated again.
pub fn retraining_options(kept: &TrainOptions, model: &AlignmentModel) -> TrainOptions {
    TrainOptions {
        prune_quantile: model.summary.prune_quantile,
        tune_prune_quantiles: Vec::new(),
        c: model.summary.c,
        cost_factor: Some(model.summary.cost_factor),
        tune_c: Vec::new(),
        tune_cost_factor: Vec::new(),
        tune_negative_ratio: Vec::new(),
        threshold: DecisionThreshold::Fixed(model.threshold),
        platt: false,
        search: model.search,
        tune_search: Vec::new(),
        tune_word_model: Vec::new(),
        threshold_folds: 0,
        ..kept.clone()
    }
}
