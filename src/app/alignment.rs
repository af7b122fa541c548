//! The sub-tree alignment workflows (paper §4–6): train a model, align a
//! corpus with it, run the Tinsley et al. (2007) baseline, explain a node
//! pair — what `treelink train`, `align` and `baseline` do, and what the
//! page's Train / Align buttons and its explanation panel ask the worker.

use crate::align::baseline::BaselineOptions;
use crate::align::composite::KernelSpec;
use crate::align::explain::{self, Explanation};
use crate::align::features::LinkWeight;
use crate::align::greedy::Search;
use crate::align::lexical::{
    alignment_lexicon_options, lexical_model, prepare, InputSentences, LexicalModel, LexicalSetup, LexiconSource,
};
use crate::align::link_search::LinkSearch;
use crate::align::model::{self, AlignError, AlignmentModel, DecisionThreshold, Scorer, TrainOptions};
use crate::align::primal::Solver;
use crate::corpus::{Corpus, Named, PairIndex, TreePair};
use crate::io::links::Link;
use crate::lexicon::{bitext_of, write_moses_lex, LexError, Lexicon, SentencePair, WordAlignment, WordModel};
use crate::parallel::Threads;
use crate::progress::{Cancelled, Observer, Progress};
use crate::tree::NodeId;
use serde::{Deserialize, Serialize};

use super::stream;

/// Why an alignment workflow stopped.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AlignmentError {
    #[error("training failed: {0}")]
    Train(AlignError),
    #[error(transparent)]
    Model(AlignError),
    #[error("no kernel to train")]
    NoKernel,
    #[error("{0} pairs are too few to hold out {HELD_OUT_PERCENT}% (as dev or as the test) and train on the rest")]
    TooFewToHoldOut(usize),
    #[error("--theta needs {components} non-negative weights, not all 0, for {spec}; found {found:?}")]
    Thetas { spec: String, components: usize, found: Vec<f64> },
    #[error("cancelled")]
    Cancelled,
}

impl From<Cancelled> for AlignmentError {
    fn from(_: Cancelled) -> Self {
        AlignmentError::Cancelled
    }
}

impl AlignmentError {
    /// A training's error (a cancel stays a cancel).
    pub fn training(e: AlignError) -> Self {
        match e {
            AlignError::Cancelled => AlignmentError::Cancelled,
            e => AlignmentError::Train(e),
        }
    }

    /// A model's error when it scores (a cancel stays a cancel).
    pub fn model(e: AlignError) -> Self {
        match e {
            AlignError::Cancelled => AlignmentError::Cancelled,
            e => AlignmentError::Model(e),
        }
    }
}

/// The Moses tables to use, p(t|s) and p(s|t) (the CLI's `--lex-s2t` and
/// `--lex-t2s`, the page's two tables): both, or none (one alone is not
/// used: the lexicon then comes from the engine).
pub fn both_tables<T>(s2t: Option<T>, t2s: Option<T>) -> Option<(T, T)> {
    s2t.zip(t2s)
}

/// The two tables given (the page's inputs) read as a lexicon: Moses
/// tables of words, or GIZA++ t-tables of word ids with the corpus's two
/// `.vcb` vocabularies, given in either order and told apart by `corpus`'s
/// words ([`crate::app::files::giza_vocabularies`]); each table read by
/// [`crate::app::files::read_lex_table`], as the CLI reads `--lex-s2t` and
/// `--lex-t2s` with `--vcb` (a table of ids without vocabularies is refused
/// in words).
pub fn tables_lexicon(
    s2t: Named<'_>,
    t2s: Named<'_>,
    vcb: Option<[Named<'_>; 2]>,
    corpus: &Corpus,
) -> Result<Lexicon, LexError> {
    use crate::app::files::{giza_vocabularies, read_lex_table, TableSide};
    let vocabs = match vcb {
        Some(files) => Some(giza_vocabularies(files, corpus.side_words(true), corpus.side_words(false))?),
        None => None,
    };
    let vocabs = vocabs.as_ref().map(|v| v.pair());
    Ok(Lexicon::new(read_lex_table(s2t, vocabs, TableSide::S2t)?, read_lex_table(t2s, vocabs, TableSide::T2s)?))
}

/// The word links of `corpus`'s pairs (the CLI's `--word-align`, the page's
/// word alignment input): one line per pair, each link inside its sentences
/// (or a GIZA++ A3.final file: [`crate::app::files::read_word_links`]).
pub fn word_links(file: Named<'_>, corpus: &Corpus) -> Result<Vec<WordAlignment>, LexError> {
    Ok(crate::app::files::read_word_links(&[file], corpus)?.links)
}

/// Where the lexicon comes from, as both the CLI and the page decide it:
/// given Moses tables, else the engine's lexicon trained on the training
/// sentences plus `extra` with `word_model` (fast_align's IBM2, or the HMM
/// after it), for held-out input (`align --held-out` costs such a model
/// nothing; a model whose lexicon saw its pairs loses 5.7 F on SQUOIA
/// there, docs/alignment-results.md). Word links given (`--word-align`:
/// another aligner's, e.g. GIZA++'s) are the training pairs' either way, in
/// place of those the lexicon would give them.
pub fn lexicon_source(
    tables: Option<Lexicon>,
    word_links: Option<Vec<WordAlignment>>,
    extra: Vec<SentencePair>,
    word_model: WordModel,
) -> LexiconSource {
    match tables {
        Some(lexicon) => LexiconSource::Given { lexicon, links: vec![word_links] },
        None => LexiconSource::Train {
            extra,
            options: alignment_lexicon_options().with_word_model(word_model),
            held_out: true,
            links: vec![word_links],
        },
    }
}

/// `options` with kernel `spec` instead: the decay λ of `options`' kernel,
/// and the weights θ of its components given (`--theta`, normalised to sum
/// 1), else `spec`'s own.
pub fn for_kernel(
    options: &TrainOptions,
    spec: &KernelSpec,
    thetas: Option<&[f64]>,
) -> Result<TrainOptions, AlignmentError> {
    let mut spec = KernelSpec { lambda: options.spec.lambda, ..spec.clone() };
    if let Some(t) = thetas {
        let components = spec.components();
        spec = spec.clone().with_thetas(t).ok_or_else(|| AlignmentError::Thetas {
            spec: spec.to_string(),
            components,
            found: t.to_vec(),
        })?;
    }
    Ok(TrainOptions { spec, ..options.clone() })
}

/// The kernels `treelink train` tries on dev when no kernel is given.
pub const DEFAULT_SHORTLIST: [&str; 4] =
    ["plain", "plain+ibtk-rgsst", "plain+dbtk-root+ibtk-rgsst", "plain+dbtk-root+ibtk-rdsst"];

/// The kernels to train: the one given; else, with a dev set to choose
/// on, [`DEFAULT_SHORTLIST`]; else the paper's best.
pub fn kernels_to_try(kernel: Option<KernelSpec>, with_dev: bool) -> Vec<KernelSpec> {
    match (kernel, with_dev) {
        (Some(k), _) => vec![k],
        (None, false) => vec![KernelSpec::paper_best()],
        (None, true) => DEFAULT_SHORTLIST.iter().filter_map(|s| s.parse().ok()).collect(),
    }
}

/// What `treelink train` (and the page's Train) chooses among when no
/// kernel is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// The engine's best: with dev, the paper's kernels ([`DEFAULT_SHORTLIST`])
    /// and the configuration beyond the paper ([`BEYOND_PAPER_KERNEL`] by
    /// the linear solver on every training candidate, with C and the cost
    /// factor chosen on dev), each with the link search chosen on dev; the
    /// in-engine lexicon with stem back-off ([`DEFAULT_STEM_BACKOFF`]), the
    /// best configuration trained again with each word model's lexicon
    /// ([`TrainOptions::tune_word_model`]) and the better kept, its
    /// threshold by cross-validation ([`DEFAULT_THRESHOLD_FOLDS`]).
    #[default]
    Best,
    /// The paper's configuration (§6, Tables 3/4): its kernels by SMO on at
    /// most 6,000 examples, C 2.4, the greedy search, a link where D > 0;
    /// only the pruning quantile (and, with dev, the kernel) chosen on dev.
    Paper,
}

impl Preset {
    /// Whether the preset's own selection runs ([`Preset::Best`] with dev
    /// and no kernel given): what its stem back-off and threshold folds
    /// were measured with.
    fn selects(self, with_dev: bool, kernel_given: bool) -> bool {
        self == Preset::Best && with_dev && !kernel_given
    }

    pub fn name(self) -> &'static str {
        match self {
            Preset::Best => "best",
            Preset::Paper => "paper",
        }
    }
}

/// The kernel beyond the paper that [`Preset::Best`] tries: Lingua-Align's
/// context features with the unknown words' shares, the spans' orthographic
/// similarity (`orth`), the node's place in a same-span chain (`chain`),
/// each node's best partner score (`node`) and the root dBTK, all explicit,
/// so the linear solver trains it on every candidate. `orth+chain+node`
/// were kept by SQUOIA dev (F 83.15 → 84.60; docs/alignment-results.md,
/// "What the errors show").
pub const BEYOND_PAPER_KERNEL: &str = "plain+ctx+unk+orth+chain+node+dbtk-root";

/// C values [`Preset::Best`] tries on dev after the given one (2.4).
pub const DEFAULT_TUNE_C: [f64; 2] = [1.0, 5.0];

/// Cost factors C+/C− [`Preset::Best`] tries on dev after the default one.
pub const DEFAULT_TUNE_COST_FACTOR: [f64; 2] = [2.0, 8.0];

/// The stem back-off [`Preset::Best`] gives the in-engine lexicon
/// (`--stem-backoff 4`, chosen on SQUOIA dev among 3–6).
pub const DEFAULT_STEM_BACKOFF: usize = 4;

/// The training options of each configuration `preset` tries, from the
/// options of the paper's best kernel (`base`, the user's settings; its
/// tuning lists, when given, replace the preset's): the kernel given
/// (`kernel`) alone, else the preset's kernels.
pub fn configurations(
    base: &TrainOptions,
    kernel: Option<KernelSpec>,
    with_dev: bool,
    preset: Preset,
    thetas: Option<&[f64]>,
) -> Result<Vec<TrainOptions>, AlignmentError> {
    let given = kernel.is_some();
    let mut out = kernels_to_try(kernel, with_dev)
        .iter()
        .map(|spec| for_kernel(base, spec, thetas))
        .collect::<Result<Vec<_>, _>>()?;
    if given || preset == Preset::Paper || !with_dev {
        return Ok(out);
    }
    // C and the cost factor are tuned on the linear configuration only: an
    // SMO training on the fragment kernels costs as much as the whole linear
    // grid, and the budget is stated (≤ 10 min on SQUOIA's train).
    let or = |given: &[f64], preset: &[f64]| if given.is_empty() { preset.to_vec() } else { given.to_vec() };
    let beyond: KernelSpec = BEYOND_PAPER_KERNEL.parse().expect("a valid built-in spec");
    out.push(TrainOptions {
        solver: Solver::Linear,
        max_examples: Solver::Linear.default_max_examples(),
        max_negative_ratio: f64::INFINITY,
        tune_c: or(&base.tune_c, &DEFAULT_TUNE_C),
        tune_cost_factor: or(&base.tune_cost_factor, &DEFAULT_TUNE_COST_FACTOR),
        ..for_kernel(base, &beyond, None)?
    });
    if base.tune_search.is_empty() {
        for o in &mut out {
            o.tune_search = LinkSearch::ALL.to_vec();
        }
    }
    Ok(out)
}

/// The folds of cross-validation [`Preset::Best`] calibrates the kept
/// model's threshold on, with dev (`--threshold-folds 5`; issue 23, item
/// 4: on SQUOIA the dev→test drop fell from 3.5 to 2.5 F,
/// docs/alignment-results.md, "A threshold that travels").
pub const DEFAULT_THRESHOLD_FOLDS: usize = 5;

/// What the user gave of the settings a preset otherwise sets (`None`,
/// `false`: the preset's).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Given<'a> {
    /// The weights θ of the kernel's components.
    pub thetas: Option<&'a [f64]>,
    pub stem_backoff: Option<usize>,
    /// A threshold on D (`--threshold`).
    pub threshold: bool,
    /// `--threshold-folds K` (0: dev alone).
    pub threshold_folds: Option<usize>,
    /// The in-engine lexicon's word model (`--word-model`).
    pub word_model: bool,
}

/// The stem back-off a preset gives the in-engine lexicon when none is
/// given: [`Preset::Best`]'s selection, with dev and no kernel given, was
/// measured with [`DEFAULT_STEM_BACKOFF`].
pub fn preset_stem_backoff(preset: Preset, with_dev: bool, kernel_given: bool) -> Option<usize> {
    preset.selects(with_dev, kernel_given).then_some(DEFAULT_STEM_BACKOFF)
}

/// The folds of cross-validation a preset calibrates the kept model's
/// threshold on when none are given: [`DEFAULT_THRESHOLD_FOLDS`] for
/// [`Preset::Best`]'s selection (with dev, no kernel given), else none.
fn preset_threshold_folds(preset: Preset, with_dev: bool, kernel_given: bool) -> usize {
    if preset.selects(with_dev, kernel_given) {
        DEFAULT_THRESHOLD_FOLDS
    } else {
        0
    }
}

/// What `treelink train` and the page's Train do: the configurations to
/// try ([`configurations`]) and the in-engine lexicon's stem back-off.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainingPlan {
    pub options: Vec<TrainOptions>,
    pub stem_backoff: Option<usize>,
}

/// The most pairs the page shows a first model of: beyond, it would not
/// come in seconds, and its searches would cross to the page as one long
/// message (the chosen model's cross in parts).
pub const PREVIEW_MAX_PAIRS: usize = 1000;

/// Negatives per positive the page's first model samples
/// ([`preview_options`]): on the built-in sample's split, a third of the
/// linear solver's time of all of them, at dev F 81.54 instead of 81.99.
pub const PREVIEW_NEGATIVE_RATIO: f64 = 6.0;

/// The first model the page shows while [`Preset::Best`] chooses on dev
/// (issue 38, item 2): the plan's linear configuration with nothing to
/// choose (its C, cost factor, pruning, search, word model and threshold
/// folds as given, the threshold on the dev pairs alone) on
/// [`PREVIEW_NEGATIVE_RATIO`] negatives per positive, which trains and
/// aligns the built-in sample in a few seconds (docs/speed.md, "A first
/// model in seconds") at a dev F close to the chosen model's. `None` when
/// there is no choice to wait for, no linear configuration in it, or over
/// [`PREVIEW_MAX_PAIRS`] `pairs`. `treelink train` has none: its model is
/// `options`' best alone.
pub fn preview_options(options: &[TrainOptions], pairs: usize) -> Option<TrainOptions> {
    if options.len() < 2 || pairs > PREVIEW_MAX_PAIRS {
        return None;
    }
    let linear = options.iter().find(|o| o.solver == Solver::Linear)?;
    Some(TrainOptions {
        tune_c: Vec::new(),
        tune_cost_factor: Vec::new(),
        tune_negative_ratio: Vec::new(),
        tune_prune_quantiles: Vec::new(),
        tune_search: Vec::new(),
        tune_word_model: Vec::new(),
        threshold_folds: 0,
        max_negative_ratio: PREVIEW_NEGATIVE_RATIO,
        ..linear.clone()
    })
}

/// The plan of a training from the user's settings (`base`), the kernel
/// given, whether there is dev, the preset and what else was given
/// ([`Given`]): [`Preset::Best`] with dev and no kernel gives the lexicon
/// [`DEFAULT_STEM_BACKOFF`] (its selection was measured with it), chooses
/// the word model of the kept configuration on dev (unless one was given)
/// and calibrates the kept model's threshold by
/// [`DEFAULT_THRESHOLD_FOLDS`]-fold cross-validation; [`Preset::Paper`]
/// links where D > 0 unless a threshold was given. Shared by the CLI and the page, so the same
/// settings train the same model in both.
pub fn training_plan(
    mut base: TrainOptions,
    kernel: Option<KernelSpec>,
    with_dev: bool,
    preset: Preset,
    given: Given<'_>,
) -> Result<TrainingPlan, AlignmentError> {
    let stem_backoff = given.stem_backoff.or(preset_stem_backoff(preset, with_dev, kernel.is_some()));
    if preset == Preset::Paper && !given.threshold {
        base.threshold = DecisionThreshold::Fixed(0.0);
    }
    base.threshold_folds = given.threshold_folds.unwrap_or(preset_threshold_folds(preset, with_dev, kernel.is_some()));
    if preset.selects(with_dev, kernel.is_some()) && !given.word_model {
        base.tune_word_model = WordModel::ALL.to_vec();
    }
    let options = configurations(&base, kernel, with_dev, preset, given.thetas)?;
    Ok(TrainingPlan { options, stem_backoff })
}

/// Trains a model on `train` for each of `options` (one per kernel) and
/// keeps the best by F on `dev` (the first on a tie, or without dev). The
/// lexicon and word links come from `lexicon` for `train` and `dev` at once.
pub fn train_model(
    train: &Corpus,
    dev: Option<&Corpus>,
    lexicon: LexiconSource,
    options: &[TrainOptions],
    observer: &mut dyn Observer,
) -> Result<AlignmentModel, AlignmentError> {
    train_model_kept(train, dev, lexicon, options, observer).map(|(kept, _)| kept.model)
}

/// One configuration [`train_model_kept`] trained: its kernel and dev F.
#[derive(Debug, Clone, PartialEq)]
pub struct Tried {
    pub spec: String,
    pub dev_f: f64,
}

/// [`train_model`], with what it kept ([`Kept`]: every configuration tried
/// with its dev F, the kept configuration's options among it) and the lexical setup of `train` and
/// `dev` it was trained with (the kept one: another word model's when dev
/// chose it), for training the kept configuration again on more pairs
/// (`app::annotation`'s updates).
pub fn train_model_kept(
    train: &Corpus,
    dev: Option<&Corpus>,
    lexicon: LexiconSource,
    options: &[TrainOptions],
    observer: &mut dyn Observer,
) -> Result<(Kept, LexicalSetup), AlignmentError> {
    // Cheap: a treebank beyond the candidate limit is refused before the lexicon is built.
    for o in options {
        model::check_train_candidates(train, o).map_err(AlignmentError::Train)?;
    }
    let corpora: Vec<&Corpus> = std::iter::once(train).chain(dev).collect();
    let setup = prepare(&corpora, lexicon.clone(), "lexical model", observer)?;
    let mut kept = keep_best(train, dev, &setup, Some(&lexicon), options, observer)?;
    let setup = kept.other_setup.take().unwrap_or(setup);
    Ok((kept, setup))
}

/// What [`keep_best`] kept: the model, every configuration tried with its
/// dev F, and the lexical setup of another word model when dev chose it.
#[derive(Debug)]
pub struct Kept {
    pub model: AlignmentModel,
    pub tried: Vec<Tried>,
    /// The setup the model was trained with, when not the one given.
    pub other_setup: Option<LexicalSetup>,
    /// The kept configuration's options, with the settings dev chose
    /// ([`model::train_keeping`]).
    pub options: TrainOptions,
}

/// Trains a model for each of `options` on `train` with the lexical setup
/// of `train` and `dev` (`setup`, prepared from `source`), keeps the best by
/// dev F (the first of equals); then, when its options say so, trains it
/// again with the in-engine lexicon of each other word model
/// ([`TrainOptions::tune_word_model`], its settings as kept, the search
/// chosen again) and keeps the lexicon with the better dev F, and sets the
/// kept model's threshold by cross-validation
/// ([`model::cross_validated_threshold`]). `train --dev`'s selection,
/// which `experiment --rows default` measures.
pub fn keep_best(
    train: &Corpus,
    dev: Option<&Corpus>,
    setup: &LexicalSetup,
    source: Option<&LexiconSource>,
    options: &[TrainOptions],
    observer: &mut dyn Observer,
) -> Result<Kept, AlignmentError> {
    let train_error = AlignmentError::training;
    let mut best: Option<(f64, AlignmentModel, TrainOptions)> = None;
    let mut tried = Vec::new();
    let given_model = source.and_then(LexiconSource::word_model);
    let mut plan = DevPlan::new(dev.is_some(), options, given_model, train.len());
    for o in options {
        plan.report(observer, 0)?;
        let (model, kept) = model::train_keeping(train, dev, setup, o, None, observer).map_err(train_error)?;
        plan.done += 1;
        let f = model.summary.dev_f.unwrap_or(0.0);
        if let Some(counts) = model.summary.dev {
            observer.note(&format!("{}: dev {counts} ({})", model.spec, chosen(&model)));
            tried.push(Tried { spec: model.spec.to_string(), dev_f: f });
        }
        if best.as_ref().is_none_or(|(bf, ..)| f > *bf) {
            best = Some((f, model, kept));
        }
    }
    let (mut best_f, mut model, mut kept) = best.ok_or(AlignmentError::NoKernel)?;
    let mut other_setup = None;
    if let (Some(d), Some(source), Some(given_model)) = (dev, source, given_model) {
        // The settings dev chose stay: only the lexicon (and the search on it) is chosen again.
        let again = TrainOptions {
            tune_prune_quantiles: Vec::new(),
            tune_c: Vec::new(),
            tune_cost_factor: Vec::new(),
            tune_negative_ratio: Vec::new(),
            ..kept.clone()
        };
        for word_model in kept.tune_word_model.clone().into_iter().filter(|&m| m != given_model) {
            plan.report(observer, 0)?;
            let other = prepare(&[train, d], source.clone().with_word_model(word_model), "lexical model", observer)?;
            let (m, k) = model::train_keeping(train, dev, &other, &again, None, observer).map_err(train_error)?;
            plan.done += 1;
            let f = m.summary.dev_f.unwrap_or(0.0);
            let better = f > best_f;
            if let Some(counts) = m.summary.dev {
                // Named as the configurations are, the word model after: `train` prints each so.
                let spec = format!("{} ({word_model} lexicon)", m.spec);
                let verdict = if better { "kept" } else { "the first lexicon kept" };
                observer.note(&format!("{spec}: dev {counts} ({}; {verdict})", chosen(&m)));
                tried.push(Tried { spec, dev_f: f });
            }
            if better {
                (best_f, model, kept, other_setup) = (f, m, k, Some(other));
            }
        }
    }
    let setup = other_setup.as_ref().unwrap_or(setup);
    // Fewer training pairs than folds: a fold each (a single pair: dev alone).
    kept.threshold_folds = kept.threshold_folds.min(train.len());
    // The kept model only: dev chose it, the training pairs' other sources set its threshold.
    if let (Some(d), true) = (dev, kept.threshold_folds > 1 && kept.threshold == DecisionThreshold::Calibrated) {
        plan.report(observer, 0)?;
        let cut =
            model::cross_validated_threshold(train, d, setup, &mut model, &kept, observer).map_err(train_error)?;
        observer.note(&format!(
            "threshold on D by {}-fold cross-validation over train, pooled with dev: {:.3} (dev alone: {:.3}; \
             out-of-fold train alone: {:.3}); pooled {}; out-of-fold train at its own: {}; dev at it: {}",
            kept.threshold_folds,
            cut.threshold,
            cut.dev_only.0,
            cut.out_of_fold.0,
            cut.pooled,
            cut.out_of_fold.1,
            cut.dev
        ));
    }
    plan.report(observer, plan.total.saturating_sub(plan.done))?;
    Ok(Kept { model, tried, other_setup, options: kept })
}

/// The stage that says how far choosing on dev is: configurations, the
/// other word model, then the threshold's folds, each a step (the page's
/// "choosing the best settings on the dev pairs: 4 of 11 tried").
pub const CHOOSING_ON_DEV: &str = "settings tried on the dev pairs";

/// How far [`keep_best`]'s choice on dev is, in trainings of about one
/// configuration's cost each (a fold of the threshold's cross-validation
/// is one); reported only when there is a choice.
struct DevPlan {
    done: u64,
    total: u64,
}

impl DevPlan {
    fn new(with_dev: bool, options: &[TrainOptions], given: Option<WordModel>, pairs: usize) -> DevPlan {
        // Another word model is tried only against a given one (an in-engine lexicon).
        let retrain = match (options.first(), given) {
            (Some(o), Some(given)) => o.tune_word_model.iter().filter(|&&m| m != given).count(),
            _ => 0,
        };
        let folds = options
            .first()
            .filter(|o| o.threshold_folds > 1 && o.threshold == DecisionThreshold::Calibrated)
            .map_or(0, |o| o.threshold_folds.min(pairs));
        let total = if with_dev { (options.len() + retrain + folds) as u64 } else { 0 };
        DevPlan { done: 0, total }
    }

    /// Reports the steps done, `more` of them just now (a cancel stops here).
    fn report(&mut self, observer: &mut dyn Observer, more: u64) -> Result<(), Cancelled> {
        self.done += more;
        let report = Progress::new(CHOOSING_ON_DEV, self.done.min(self.total), self.total);
        match self.total > 1 && observer.progress(report).is_break() {
            true => Err(Cancelled),
            false => Ok(()),
        }
    }
}

/// The share of the loaded pairs the page holds out (it has no dev or
/// test file): the last 20%, as dev (to calibrate) or as a test, as
/// `treelink train --dev` / `treelink align` would be given them.
pub const HELD_OUT_PERCENT: usize = 20;

/// How many of `n` pairs are the last [`HELD_OUT_PERCENT`]% (at least
/// one), if that leaves at least one before them.
fn held_out_pairs(n: usize) -> Option<usize> {
    let dev = (n * HELD_OUT_PERCENT / 100).max(1);
    (dev < n).then_some(dev)
}

/// How the page trains on the pairs it holds (its Train panel's choices
/// beyond the training options): the in-engine lexicon's word model
/// (`--word-model`) and stem back-off (`--stem-backoff N`), whether the
/// last [`HELD_OUT_PERCENT`]% of the training pairs are dev (*Dev pairs*:
/// `--dev`), and whether the last [`HELD_OUT_PERCENT`]% of the pairs are
/// held out as a test no model sees (`--held-out`, then `align` on them).
///
/// Dev and test pairs the user gave as their own files (`train --dev B`,
/// `align --input C`) are the last pairs, the dev set's then the test
/// set's: [`PairsTraining::dev_set`] and [`PairsTraining::test_set`] count
/// them, and they are the split's dev and test instead of a share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PairsTraining {
    pub word_model: WordModel,
    pub stem_backoff: Option<usize>,
    pub calibrate: bool,
    pub test: bool,
    /// The last pairs but the test set's are the dev set given as its own files.
    #[serde(default)]
    pub dev_set: usize,
    /// The last pairs are the test set given as its own files.
    #[serde(default)]
    pub test_set: usize,
}

impl PairsTraining {
    /// Which of `n` loaded pairs train, are dev and are the test: the sets
    /// given as files where there are some, else [`PairSplit::of`]'s
    /// shares; `None` when a part would be empty, or when a share of the
    /// last pairs would be taken from a dev set (a held-out test share with
    /// a dev set and no test set).
    pub fn split(&self, n: usize) -> Option<PairSplit> {
        if self.dev_set == 0 && self.test_set == 0 {
            return PairSplit::of(n, self.calibrate, self.test);
        }
        let test = match (self.test_set, self.test) {
            (0, true) => return None,
            (given, _) => given,
        };
        let rest = n.checked_sub(test)?;
        let dev = match (self.dev_set, self.calibrate) {
            (0, true) => held_out_pairs(rest)?,
            (given, _) => given,
        };
        (rest > dev).then(|| PairSplit { train: rest - dev, dev, test })
    }
}

/// The stem back-off the page offers (`--stem-backoff 4`): the length chosen
/// on SQUOIA dev (`docs/alignment-results.md`, "Training for held-out input").
pub const PAGE_STEM_CHARS: usize = 4;

/// Which of the loaded pairs train, which are dev (they choose the
/// threshold and pruning) and which are the held-out test, in that order:
/// pairs `0..train`, `train..train + dev`, then the last `test`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairSplit {
    pub train: usize,
    pub dev: usize,
    pub test: usize,
}

impl PairSplit {
    /// The split of `n` pairs: with `test`, the last [`HELD_OUT_PERCENT`]%
    /// held out as the test; with `calibrate`, the last
    /// [`HELD_OUT_PERCENT`]% of the rest as dev; `None` when a part would
    /// be empty.
    pub fn of(n: usize, calibrate: bool, test: bool) -> Option<PairSplit> {
        let test = if test { held_out_pairs(n)? } else { 0 };
        let rest = n - test;
        let dev = if calibrate { held_out_pairs(rest)? } else { 0 };
        (rest > dev).then_some(PairSplit { train: rest - dev, dev, test })
    }

    pub fn pairs(&self) -> usize {
        self.train + self.dev + self.test
    }

    /// The pairs a model trained on this split has seen (its training pairs and dev).
    pub fn seen(&self) -> std::ops::Range<usize> {
        0..self.train + self.dev
    }

    pub fn dev_pairs(&self) -> std::ops::Range<usize> {
        self.train..self.train + self.dev
    }

    pub fn test_pairs(&self) -> std::ops::Range<usize> {
        self.train + self.dev..self.pairs()
    }

    /// The split in words, pairs numbered from 1: "trained on pairs 1–101,
    /// pairs 102–126 as dev, pairs 127–157 held out as the test".
    pub fn describe(&self) -> String {
        let mut out = format!("trained on pairs {}", pair_span(0..self.train));
        if self.dev > 0 {
            out += &format!(", pairs {} as dev", pair_span(self.dev_pairs()));
        }
        if self.test > 0 {
            out += &format!(", pairs {} held out as the test", pair_span(self.test_pairs()));
        }
        out
    }
}

/// Pairs `range` (indices) as the page and the CLI number them, from 1: "102–126".
pub fn pair_span(range: std::ops::Range<usize>) -> String {
    format!("{}–{}", range.start + 1, range.end)
}

fn pairs_of(corpus: &Corpus, range: std::ops::Range<usize>) -> Corpus {
    Corpus { pairs: corpus.pairs.get(range).map_or_else(Vec::new, <[_]>::to_vec) }
}

/// What the page's Train button does with the pairs it holds, on the
/// split of [`PairSplit::of`]: `treelink train --train FIRST [--dev
/// MIDDLE] [--stem-backoff N] --word-model M` (word links
/// given for all pairs are the training and dev pairs', as `train` reads
/// each set's `.words`); without a split, `treelink train --train PAIRS`. What it
/// keeps holds the configuration's options too (*Annotate*'s updates
/// train it again).
pub fn train_on_pairs(
    corpus: &Corpus,
    how: &PairsTraining,
    tables: Option<Lexicon>,
    word_links: Option<Vec<WordAlignment>>,
    options: &[TrainOptions],
    observer: &mut dyn Observer,
) -> Result<Kept, AlignmentError> {
    let (train, dev, source) = pairs_training(corpus, how, tables, word_links)?;
    Ok(train_model_kept(train.as_ref().unwrap_or(corpus), dev.as_ref(), source, options, observer)?.0)
}

/// What [`train_on_pairs`] trains on: the training pairs (`None`: all of
/// `corpus`), the dev pairs, and the lexicon source.
fn pairs_training(
    corpus: &Corpus,
    how: &PairsTraining,
    tables: Option<Lexicon>,
    word_links: Option<Vec<WordAlignment>>,
) -> Result<(Option<Corpus>, Option<Corpus>, LexiconSource), AlignmentError> {
    let split = how.split(corpus.len()).ok_or(AlignmentError::TooFewToHoldOut(corpus.len()))?;
    // The training and dev pairs' own, as `train` reads `--train`'s and `--dev`'s `.words`.
    let given = |pairs: std::ops::Range<usize>| word_links.as_ref().and_then(|l| l.get(pairs)).map(<[_]>::to_vec);
    let source = lexicon_source(tables, None, Vec::new(), how.word_model)
        .with_given_links(vec![given(0..split.train), given(split.dev_pairs())])
        .with_stem_backoff(how.stem_backoff);
    if split.train == corpus.len() {
        return Ok((None, None, source));
    }
    let dev = (split.dev > 0).then(|| pairs_of(corpus, split.dev_pairs()));
    Ok((Some(pairs_of(corpus, 0..split.train)), dev, source))
}

/// The pairs the page's Train aligns once a model is trained on `split`,
/// and whether their sentences join its in-engine lexicon: the held-out
/// test alone, as `treelink align --held-out` (`test`), else every pair.
pub fn aligned_after_training(split: &PairSplit, test: bool) -> (std::ops::Range<usize>, InputSentences) {
    match test {
        true => (split.test_pairs(), InputSentences::HeldOut),
        false => (0..split.pairs(), InputSentences::Train),
    }
}

/// A first model's alignment (the page's preview): its summary in a line,
/// and the searches of the pairs from `first` on.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    pub summary: String,
    pub first: usize,
    pub searches: Vec<Search>,
}

/// The page's first model ([`preview_options`]): trained on the pairs
/// as [`train_on_pairs`] trains with `options` alone, then aligning the
/// pairs the chosen model will align ([`aligned_after_training`]) as
/// [`align_input`] does, with the word links given of those pairs.
pub fn preview_on_pairs(
    corpus: &Corpus,
    how: &PairsTraining,
    tables: Option<Lexicon>,
    word_links: Option<Vec<WordAlignment>>,
    options: &TrainOptions,
    observer: &mut dyn Observer,
) -> Result<Preview, AlignmentError> {
    let split = how.split(corpus.len()).ok_or(AlignmentError::TooFewToHoldOut(corpus.len()))?;
    let (aligned, sentences) = aligned_after_training(&split, how.test);
    let given = word_links.as_ref().map(|links| links.get(aligned.clone()).map_or_else(Vec::new, <[_]>::to_vec));
    let Kept { model, tried, .. } =
        train_on_pairs(corpus, how, tables, word_links, std::slice::from_ref(options), observer)?;
    let input = pairs_of(corpus, aligned.clone());
    let alignment = align_input(&model, &input, given, sentences, observer)?;
    let summary = trained_summary(&model, &split, &tried);
    Ok(Preview { summary, first: aligned.start, searches: alignment.searches })
}

/// The lexical model of the model [`train_on_pairs`] will train on the
/// same inputs, known before it trains (so the page's job workers can
/// train the lexicon aligning with it will need meanwhile).
pub fn lexical_model_on_pairs(
    corpus: &Corpus,
    how: &PairsTraining,
    tables: Option<Lexicon>,
) -> Result<LexicalModel, AlignmentError> {
    let (train, dev, source) = pairs_training(corpus, how, tables, None)?;
    let corpora: Vec<&Corpus> = std::iter::once(train.as_ref().unwrap_or(corpus)).chain(dev.as_ref()).collect();
    Ok(lexical_model(&corpora, &source))
}

/// A trained model in a line, with what it chose on the dev pairs of
/// `split` (as `treelink train --dev` prints it).
pub fn trained_summary(model: &AlignmentModel, split: &PairSplit, tried: &[Tried]) -> String {
    let threshold = match model.summary.threshold_folds {
        0 => format!("the threshold on D {:.3} chosen on them", model.threshold),
        k => format!(
            "the threshold on D {:.3} chosen by {k}-fold cross-validation over the training pairs, pooled with them",
            model.threshold
        ),
    };
    let chosen = match model.summary.dev {
        Some(dev) => format!(
            "{}; on the dev pairs {}: {dev}, with the pruning quantile {} and {threshold}",
            model.describe(),
            pair_span(split.dev_pairs()),
            model.summary.prune_quantile,
        ),
        None => model.describe(),
    };
    match tried {
        [] | [_] => chosen,
        // As `treelink train --dev` prints each configuration with its dev F.
        several => format!(
            "{chosen}. Configurations tried, dev F: {}",
            several.iter().map(|t| format!("{} {:.2}", t.spec, t.dev_f)).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The held-out test of a model that [`train_on_pairs`] trained with
/// Where the lexicons of a held-out test came from, in a sentence
/// (`links_given`: with the uploaded word links).
pub fn held_out_note(model: &AlignmentModel, links_given: bool) -> String {
    let given_note = if links_given { " with the uploaded word alignment" } else { "" };
    let warning = links_missing(model, links_given).map_or(String::new(), |w| format!("Warning: this model {w}. "));
    let lexicon = match &model.lexicon {
        LexicalModel::Tables(_) => "the model's Moses tables".to_string(),
        LexicalModel::InEngine { bitext, options, .. } => format!(
            "the model's in-engine lexicon, trained on the sentences of its {} training pairs only{} (the held-out pairs' words it never saw stay unknown)",
            bitext.len(),
            if options.backoff.is_some() { ", with the stem back-off" } else { "" }
        ),
    };
    format!(
        "{warning}Lexicon of the model: {lexicon}{given_note}; of the baseline: the same lexicon, as `treelink experiment` scores a test split."
    )
}

/// Why `model` aligns input badly (`links_given`: the input's word links
/// are given): it was trained on given word links ([`LinkWeight::Unit`])
/// and the input has none, so it counts the engine's weaker links as sure
/// ones. `None` when nothing is wrong.
pub fn links_missing(model: &AlignmentModel, links_given: bool) -> Option<&'static str> {
    (model.link_weight == LinkWeight::Unit && !links_given).then_some(
        "was trained on given word links and the input has none: it counts the engine's word links as sure as given ones, and loses much (63.7 F against 79.4 on SQUOIA's DW set, docs/alignment-results.md); for such input, train without word links (`--no-words`)",
    )
}

/// What training chose on dev, in words.
pub fn chosen(model: &AlignmentModel) -> String {
    let s = &model.summary;
    format!(
        "pruning quantile {}, C {}, cost factor {:.2}, threshold on D {:.3}; {} examples ({} positive), {} support vectors",
        s.prune_quantile,
        s.c,
        s.cost_factor,
        model.threshold,
        s.examples,
        s.positives_sampled,
        model.support_vectors.len()
    )
}

/// A corpus aligned by a model: the lexicon and word links used, and the
/// search log of every pair.
#[derive(Debug, Clone)]
pub struct CorpusAlignment {
    pub lexicon: Lexicon,
    pub word_links: Vec<WordAlignment>,
    pub searches: Vec<Search>,
}

impl CorpusAlignment {
    /// The links of each pair, sorted (what `treelink align` prints).
    pub fn links(&self) -> Vec<Vec<Link>> {
        self.searches.iter().map(explain::predicted_links).collect()
    }
}

/// Aligns `input` with `model`: the model's lexicon for the input (its
/// tables, or its in-engine lexicon re-trained with the input's sentences),
/// `given_links` replacing the word links when given, then the greedy
/// search on every pair.
pub fn align(
    model: &AlignmentModel,
    input: &Corpus,
    given_links: Option<Vec<WordAlignment>>,
    observer: &mut dyn Observer,
) -> Result<CorpusAlignment, AlignmentError> {
    align_input(model, input, given_links, InputSentences::Train, observer)
}

/// [`align`], saying whether the input's sentences join the in-engine
/// lexicon's training ([`InputSentences::HeldOut`]: a test split, scored
/// without reaching any model). Each pair is aligned as a stream aligns it
/// ([`stream::PairAligner`]).
pub fn align_input(
    model: &AlignmentModel,
    input: &Corpus,
    given_links: Option<Vec<WordAlignment>>,
    sentences: InputSentences,
    observer: &mut dyn Observer,
) -> Result<CorpusAlignment, AlignmentError> {
    let input_lexicon = stream::aligning_lexicon(
        &model.lexicon,
        None,
        sentences,
        || Ok::<_, AlignmentError>(bitext_of(input)),
        observer,
    )?;
    let aligner = stream::PairAligner::new(model, &input_lexicon).map_err(AlignmentError::Model)?;
    let aligned = stream::align_pairs(&aligner, &input.pairs, 0, given_links.as_deref(), Threads::ONE, observer)?;
    let (word_links, searches) = aligned.into_iter().map(|a| (a.word_links, a.search)).unzip();
    Ok(CorpusAlignment { lexicon: input_lexicon.lexicon, word_links, searches })
}

/// The greedy search of every pair of `input` under `model`, with the
/// lexicon and word links it aligns with.
pub fn search_all(
    model: &AlignmentModel,
    lexicon: &Lexicon,
    input: &Corpus,
    word_links: &[WordAlignment],
    observer: &mut dyn Observer,
) -> Result<Vec<Search>, AlignmentError> {
    let scorer = Scorer::new(model, lexicon).map_err(AlignmentError::Model)?;
    Ok(explain::align_corpus(&scorer, input, word_links, observer)?)
}

/// The baseline's lexicon: given tables, else the engine's lexicon trained
/// on the input's sentences plus `extra`.
pub fn baseline_lexicon(
    input: &Corpus,
    tables: Option<Lexicon>,
    extra: Vec<SentencePair>,
    word_model: WordModel,
    observer: &mut dyn Observer,
) -> Result<Lexicon, Cancelled> {
    match tables {
        Some(tables) => Ok(tables),
        None => baseline_lexicon_of(bitext_of(input), extra, word_model, observer),
    }
}

/// The baseline's in-engine lexicon, trained on the input's `sentences`
/// plus `extra` (`treelink baseline` without tables, which reads the
/// input's sentences first and then streams its trees).
pub fn baseline_lexicon_of(
    sentences: Vec<SentencePair>,
    extra: Vec<SentencePair>,
    word_model: WordModel,
    observer: &mut dyn Observer,
) -> Result<Lexicon, Cancelled> {
    trained_lexicon(sentences, extra, word_model, "lexical model for the baseline", observer)
}

/// The in-engine lexicon (as alignment trains it: [`alignment_lexicon_options`]
/// with `word_model`) on `sentences` plus `extra`.
fn trained_lexicon(
    mut sentences: Vec<SentencePair>,
    extra: Vec<SentencePair>,
    word_model: WordModel,
    stage: &'static str,
    observer: &mut dyn Observer,
) -> Result<Lexicon, Cancelled> {
    sentences.extend(extra);
    let options = alignment_lexicon_options().with_word_model(word_model);
    Ok(crate::lexicon::train_observed(&sentences, &options, stage, observer)?.0)
}

/// `treelink lexicon`: the in-engine lexicon trained on `sentences` (with
/// `word_model`), as Moses `lex` tables to write, p(t|s) then p(s|t) —
/// what `--lex-s2t` and `--lex-t2s` read, so `train`, `align` and
/// `baseline` can take it and aligning a large corpus streams.
pub fn lexicon_tables(
    sentences: Vec<SentencePair>,
    word_model: WordModel,
    observer: &mut dyn Observer,
) -> Result<(String, String), Cancelled> {
    let lexicon = trained_lexicon(sentences, Vec::new(), word_model, "lexical model", observer)?;
    Ok((write_moses_lex(&lexicon.s2t), write_moses_lex(&lexicon.t2s)))
}

/// The Tinsley et al. (2007) baseline's links of every pair, sorted.
pub fn baseline(
    input: &Corpus,
    lexicon: &Lexicon,
    options: &BaselineOptions,
    observer: &mut dyn Observer,
) -> Result<Vec<Vec<Link>>, Cancelled> {
    let mut out = Vec::with_capacity(input.len());
    let pairs = input.pairs.iter().map(Ok::<_, Cancelled>);
    stream::baseline_stream(lexicon, options, pairs, input.len() as u64, Threads::ONE, observer, |_, links| {
        out.push(links);
        Ok(())
    })?;
    Ok(out)
}

/// Where the lexicons of an alignment of `corpus` and its baseline came from, in a
/// sentence (with uploaded tables and word links, if given), after a
/// warning if its words look reversed or foreign to the model.
pub fn compare_note(model: &AlignmentModel, corpus: &Corpus, tables_given: bool, links_given: bool) -> String {
    let pairs = corpus.len();
    let given_note = if links_given { " with the uploaded word alignment" } else { "" };
    let baseline_note = match tables_given {
        true => "the uploaded Moses tables".to_string(),
        false => format!("the engine's lexicon trained on the {pairs} pairs"),
    };
    let model_note = match &model.lexicon {
        LexicalModel::Tables(_) => "the model's Moses tables".to_string(),
        LexicalModel::InEngine { bitext, .. } => {
            format!(
                "the model's in-engine lexicon re-trained on its {} sentence pairs and the {pairs} pairs aligned",
                bitext.len()
            )
        }
    };
    // Input the model's words say is reversed or foreign is said first (as `treelink align` warns).
    let fit = crate::app::files::alignment_model_fit(model, corpus).warning("the pairs loaded", "this model");
    let missing = links_missing(model, links_given).map(|w| format!("this model {w}"));
    let warnings: String = fit.into_iter().chain(missing).map(|w| format!("Warning: {w}. ")).collect();
    format!("{warnings}Lexicon of the model: {model_note}{given_note}; of the baseline: {baseline_note}.")
}

/// Why a node pair could not be explained.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplainError {
    #[error("pair {0} is not in the last alignment")]
    NoPair(PairIndex),
    #[error("node pair {}-{} is outside the trees of pair {}", .nodes.0, .nodes.1, .pair)]
    NoNodes { pair: PairIndex, nodes: (NodeId, NodeId) },
    #[error("{0}")]
    Model(String),
}

/// Why `model` did (not) link `nodes` in pair number `pair` (`aligned`: the
/// pair, its word links and its search under `lexicon`).
pub fn explain_pair(
    model: &AlignmentModel,
    lexicon: &Lexicon,
    pair: PairIndex,
    (p, links, search): (&TreePair, &WordAlignment, &Search),
    nodes: (NodeId, NodeId),
) -> Result<Explanation, ExplainError> {
    let scorer = Scorer::new(model, lexicon).map_err(|e| ExplainError::Model(e.to_string()))?;
    explain::explain(model, &scorer, lexicon, p, links, search, nodes.0, nodes.1)
        .ok_or(ExplainError::NoNodes { pair, nodes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_preset_adds_the_linear_configuration_to_the_papers_kernels() {
        let base = TrainOptions::default();
        let best = configurations(&base, None, true, Preset::Best, None).unwrap();
        let specs: Vec<String> = best.iter().map(|o| o.spec.to_string()).collect();
        let spec = |s: &str| s.parse::<KernelSpec>().unwrap().to_string();
        let mut want: Vec<String> = DEFAULT_SHORTLIST.iter().map(|s| spec(s)).collect();
        want.push(spec(BEYOND_PAPER_KERNEL));
        assert_eq!(specs, want);
        let linear = &best[4];
        assert_eq!((linear.solver, linear.max_examples), (Solver::Linear, usize::MAX));
        assert!(linear.max_negative_ratio.is_infinite());
        assert_eq!((linear.tune_c.as_slice(), linear.tune_cost_factor.as_slice()), (&[1.0, 5.0][..], &[2.0, 8.0][..]));
        // The paper's kernels keep SMO and its settings; every configuration chooses its search.
        assert!(best[..4].iter().all(|o| o.solver == Solver::Smo && o.tune_c.is_empty() && o.max_examples == 6000));
        assert!(best.iter().all(|o| o.tune_search == LinkSearch::ALL));
        // The paper's preset, a kernel given, or no dev: the paper's kernels as they are.
        let paper = configurations(&base, None, true, Preset::Paper, None).unwrap();
        assert_eq!(paper.len(), 4);
        assert!(paper.iter().all(|o| o.tune_search.is_empty() && o.solver == Solver::Smo));
        let given = configurations(&base, Some("lex".parse().unwrap()), true, Preset::Best, None).unwrap();
        assert_eq!(given.iter().map(|o| o.spec.to_string()).collect::<Vec<_>>(), ["lex"]);
        assert_eq!(configurations(&base, None, false, Preset::Best, None).unwrap().len(), 1);
        // Tuning lists given replace the preset's.
        let mine = TrainOptions { tune_c: vec![3.0], tune_search: vec![LinkSearch::Src2Trg], ..base.clone() };
        let tuned = configurations(&mine, None, true, Preset::Best, None).unwrap();
        assert_eq!(tuned[4].tune_c, [3.0]);
        assert!(tuned.iter().all(|o| o.tune_search == [LinkSearch::Src2Trg]));
    }

    /// Issue 38, item 2: the best preset with dev plans a first model (its
    /// linear configuration with nothing to choose) apart from the
    /// configurations it tries, which stay those of `configurations`; no
    /// choice on dev, no first model. The first model aligns the pairs the
    /// chosen one will, as `train_on_pairs` and `align_input` do.
    #[test]
    fn the_best_preset_plans_a_first_model_apart_from_the_configurations_it_tries() {
        let plan = |kernel: Option<&str>, dev, preset| {
            let kernel = kernel.map(|k| k.parse::<KernelSpec>().unwrap());
            training_plan(TrainOptions::default(), kernel, dev, preset, Given::default()).unwrap()
        };
        let best = plan(None, true, Preset::Best);
        let tried = best.options.clone();
        let first = preview_options(&best.options, 1).expect("a choice on dev: a first model");
        assert_eq!(first.spec.to_string(), BEYOND_PAPER_KERNEL.parse::<KernelSpec>().unwrap().to_string());
        assert_eq!((first.solver, first.c, first.threshold_folds), (Solver::Linear, tried[4].c, 0));
        assert_eq!((first.max_negative_ratio, tried[4].max_negative_ratio), (PREVIEW_NEGATIVE_RATIO, f64::INFINITY));
        assert!(first.tune_c.is_empty() && first.tune_cost_factor.is_empty() && first.tune_prune_quantiles.is_empty());
        assert!(first.tune_search.is_empty() && first.tune_word_model.is_empty());
        // What is tried is the plan without a first model: the chosen model is unchanged.
        assert_eq!(tried.len(), 5);
        assert!(tried[4].tune_c == DEFAULT_TUNE_C && tried[4].threshold_folds == DEFAULT_THRESHOLD_FOLDS);
        assert_eq!(preview_options(&best.options, PREVIEW_MAX_PAIRS), Some(first.clone()));
        let too_many = preview_options(&best.options, PREVIEW_MAX_PAIRS + 1);
        assert_eq!(too_many, None, "too many pairs for a first model in seconds");
        let preview = |p: TrainingPlan| preview_options(&p.options, 1);
        assert_eq!(preview(plan(None, true, Preset::Paper)), None, "SMO alone: no fast configuration");
        assert_eq!(preview(plan(Some("plain"), true, Preset::Best)), None);
        assert_eq!(preview(plan(None, false, Preset::Best)), None);

        let corpus = crate::corpus::sample(..40);
        let how = PairsTraining { calibrate: true, test: true, ..PairsTraining::default() };
        let quiet = &mut crate::progress::Quiet;
        let shown = preview_on_pairs(&corpus, &how, None, None, &first, quiet).unwrap();
        let split = how.split(corpus.len()).unwrap();
        let model = train_on_pairs(&corpus, &how, None, None, std::slice::from_ref(&first), quiet).unwrap().model;
        let held_out = pairs_of(&corpus, split.test_pairs());
        let aligned = align_input(&model, &held_out, None, InputSentences::HeldOut, quiet).unwrap();
        assert_eq!((shown.first, shown.searches.len()), (32, 8));
        assert_eq!(shown.searches, aligned.searches);
        assert_eq!(shown.summary, trained_summary(&model, &split, &[]));
    }

    /// The best preset with dev and no kernel calibrates the kept model's
    /// threshold by 5-fold cross-validation; the paper's preset, a kernel
    /// given or no dev do not; `--threshold-folds` given wins.
    #[test]
    fn the_best_preset_with_dev_crosses_five_folds_for_its_threshold_and_a_given_count_wins() {
        let folds = |kernel: Option<&str>, dev, preset, given: Option<usize>| {
            let given = Given { threshold_folds: given, ..Given::default() };
            let kernel = kernel.map(|k| k.parse::<KernelSpec>().unwrap());
            let plan = training_plan(TrainOptions::default(), kernel, dev, preset, given).unwrap();
            let all: Vec<usize> = plan.options.iter().map(|o| o.threshold_folds).collect();
            assert!(all.windows(2).all(|w| w[0] == w[1]), "{all:?}");
            all[0]
        };
        assert_eq!(folds(None, true, Preset::Best, None), DEFAULT_THRESHOLD_FOLDS);
        assert_eq!(DEFAULT_THRESHOLD_FOLDS, 5);
        assert_eq!(folds(None, true, Preset::Paper, None), 0);
        assert_eq!(folds(Some("plain"), true, Preset::Best, None), 0);
        assert_eq!(folds(None, false, Preset::Best, None), 0);
        assert_eq!(folds(None, true, Preset::Best, Some(0)), 0);
        assert_eq!(folds(Some("plain"), true, Preset::Paper, Some(3)), 3);
    }

    /// The best preset with dev and no kernel chooses the word model on dev
    /// (every configuration carries both); the paper's preset, a kernel
    /// given, no dev or `--word-model` given do not.
    #[test]
    fn the_best_preset_with_dev_chooses_the_word_model_unless_one_is_given() {
        let tuned = |kernel: Option<&str>, dev, preset, word_model| {
            let given = Given { word_model, ..Given::default() };
            let kernel = kernel.map(|k| k.parse::<KernelSpec>().unwrap());
            let plan = training_plan(TrainOptions::default(), kernel, dev, preset, given).unwrap();
            let all: Vec<Vec<WordModel>> = plan.options.iter().map(|o| o.tune_word_model.clone()).collect();
            assert!(all.windows(2).all(|w| w[0] == w[1]), "{all:?}");
            all[0].clone()
        };
        assert_eq!(tuned(None, true, Preset::Best, false), [WordModel::FastAlign, WordModel::Hmm]);
        assert!(tuned(None, true, Preset::Best, true).is_empty());
        assert!(tuned(None, true, Preset::Paper, false).is_empty());
        assert!(tuned(Some("plain"), true, Preset::Best, false).is_empty());
        assert!(tuned(None, false, Preset::Best, false).is_empty());
    }

    /// Sets given as files are the dev and the test, whatever the shares
    /// say; a share fills in a part without a set, but a test share is
    /// never taken from the dev set's pairs.
    #[test]
    fn sets_given_as_files_are_the_split_and_shares_fill_in_the_rest() {
        let how = |calibrate, test, dev_set, test_set| PairsTraining {
            calibrate,
            test,
            dev_set,
            test_set,
            ..PairsTraining::default()
        };
        let split = |h: PairsTraining, n| h.split(n).map(|s| (s.train, s.dev, s.test));
        assert_eq!(split(how(true, true, 6, 4), 30), Some((20, 6, 4)));
        assert_eq!(split(how(false, false, 6, 4), 30), Some((20, 6, 4)));
        // A test set and Calibrate: dev is the last fifth of the other pairs (26 → 5).
        assert_eq!(split(how(true, false, 0, 4), 30), Some((21, 5, 4)));
        assert_eq!(split(how(false, false, 0, 4), 30), Some((26, 0, 4)));
        assert_eq!(split(how(true, false, 6, 0), 30), Some((24, 6, 0)));
        // A test share would be the dev set's last pairs.
        assert_eq!(split(how(true, true, 6, 0), 30), None);
        // No training pair left, or fewer pairs than the sets.
        assert_eq!(split(how(false, false, 6, 4), 10), None);
        assert_eq!(split(how(false, false, 6, 4), 9), None);
    }

    #[test]
    fn the_split_holds_out_the_last_fifth_and_never_empties_a_part() {
        let split = |n, calibrate, test| PairSplit::of(n, calibrate, test).map(|s| (s.train, s.dev, s.test));
        // 10 pairs: the last 2 are the test, then the last 1 of the other 8 is dev.
        assert_eq!(split(10, true, true), Some((7, 1, 2)));
        assert_eq!(split(10, true, false), Some((8, 2, 0)));
        assert_eq!(split(10, false, true), Some((8, 0, 2)));
        assert_eq!(split(10, false, false), Some((10, 0, 0)));
        // The built-in sample: 157 = 101 + 25 + 31.
        let s = PairSplit::of(157, true, true).unwrap();
        assert_eq!((s.train, s.dev, s.test, s.pairs()), (101, 25, 31, 157));
        assert_eq!((s.seen(), s.dev_pairs(), s.test_pairs()), (0..126, 101..126, 126..157));
        assert_eq!(s.describe(), "trained on pairs 1–101, pairs 102–126 as dev, pairs 127–157 held out as the test");
        assert_eq!(split(157, false, true), Some((126, 0, 31)));
        assert_eq!(split(157, true, false), Some((126, 31, 0)));
        // Fewer than 5 pairs: still one pair held out.
        assert_eq!(split(4, true, false), Some((3, 1, 0)));
        assert_eq!(split(3, true, true), Some((1, 1, 1)));
        // Too few: a part would be empty.
        assert_eq!(split(2, true, true), None);
        assert_eq!(split(1, false, true), None);
        assert_eq!(split(1, true, false), None);
        assert_eq!(split(0, false, false), None);
        assert_eq!(split(1, false, false), Some((1, 0, 0)));
    }

    /// With the word model to choose, the kept configuration is trained
    /// again with the other word model's lexicon, and the model keeps the
    /// lexicon of the better dev F (the given one on a tie); without it,
    /// the given lexicon alone.
    #[test]
    fn dev_chooses_the_word_model_of_the_kept_configuration() {
        let corpus = crate::corpus::sample(..);
        let (train, dev) = (pairs_of(&corpus, 0..50), pairs_of(&corpus, 50..60));
        let linear = TrainOptions {
            spec: "plain+dbtk-root".parse().unwrap(),
            solver: Solver::Linear,
            tune_prune_quantiles: Vec::new(),
            ..TrainOptions::default()
        };
        let source = || lexicon_source(None, None, Vec::new(), WordModel::FastAlign);
        let word_model = |m: &AlignmentModel| match &m.lexicon {
            LexicalModel::InEngine { options, .. } => options.word_model(),
            LexicalModel::Tables(_) => panic!("an in-engine lexicon"),
        };
        let quiet = &mut crate::progress::Quiet;
        let plain = [TrainOptions { spec: "plain".parse().unwrap(), ..linear.clone() }, linear.clone()];
        let Kept { model: alone, tried: tried_alone, .. } =
            train_model_kept(&train, Some(&dev), source(), &plain, quiet).unwrap().0;
        assert_eq!((word_model(&alone), tried_alone.len()), (WordModel::FastAlign, 2));
        let choosing: Vec<TrainOptions> =
            plain.iter().map(|o| TrainOptions { tune_word_model: WordModel::ALL.to_vec(), ..o.clone() }).collect();
        // How far choosing on dev is: each configuration, then the other word model, a step each.
        let mut steps = Vec::new();
        let mut observer = |p: crate::progress::Progress| {
            if p.stage == CHOOSING_ON_DEV {
                steps.push((p.done, p.total));
            }
            crate::progress::Flow::Continue(())
        };
        let Kept { model, tried, .. } =
            train_model_kept(&train, Some(&dev), source(), &choosing, &mut observer).unwrap().0;
        assert_eq!(steps, [(0, 3), (1, 3), (2, 3), (3, 3)]);
        let kept_spec = alone.spec.to_string();
        let f_of = |label: &str| tried.iter().find(|t| t.spec == label).map(|t| t.dev_f).unwrap();
        let fast = f_of(&kept_spec);
        let hmm = f_of(&format!("{kept_spec} (hmm lexicon)"));
        assert_eq!(tried.len(), 3, "{tried:?}");
        assert_eq!(fast, tried_alone.iter().find(|t| t.spec == kept_spec).unwrap().dev_f);
        let expected = if hmm > fast { WordModel::Hmm } else { WordModel::FastAlign };
        assert_eq!(word_model(&model), expected, "fast-align {fast}, hmm {hmm}");
        assert_eq!(model.summary.dev_f, Some(fast.max(hmm)));
        // These dev pairs prefer the HMM (so the other lexicon's path runs):
        // its lexicon, trained apart, is the one the kept model records.
        assert_eq!(expected, WordModel::Hmm, "fast-align {fast}, hmm {hmm}");
        let corpora = [&train, &dev];
        assert_eq!(model.lexicon, lexical_model(&corpora, &source().with_word_model(WordModel::Hmm)));
    }

    /// The page's held-out test, as the CLI would run it: trained on the
    /// pairs before the test (dev the last of them), the in-engine lexicon
    /// on the training pairs' sentences alone, and only the test aligned.
    #[test]
    fn a_held_out_test_trains_on_the_first_pairs_and_aligns_only_the_last_fifth() {
        let corpus = crate::corpus::sample(..40);
        let how = PairsTraining {
            word_model: WordModel::FastAlign,
            stem_backoff: Some(PAGE_STEM_CHARS),
            calibrate: true,
            test: true,
            ..PairsTraining::default()
        };
        let split = how.split(corpus.len()).unwrap();
        assert_eq!((split.train, split.dev, split.test), (26, 6, 8));
        let options = TrainOptions { max_examples: 300, ..TrainOptions::default() };
        let model = train_on_pairs(&corpus, &how, None, None, &[options], &mut crate::progress::Quiet).unwrap().model;
        assert!(model.summary.dev.is_some(), "calibrated on the dev pairs");
        let LexicalModel::InEngine { bitext, options, held_out } = &model.lexicon else {
            panic!("{:?}", model.lexicon)
        };
        assert_eq!(bitext.len(), split.train, "the lexicon saw the training pairs' sentences only");
        assert!(*held_out, "as `train`");
        assert_eq!(options.backoff.map(|b| b.stem_chars), Some(PAGE_STEM_CHARS));
        assert!(trained_summary(&model, &split, &[]).contains("on the dev pairs 27–32: "));
        // Several configurations tried: each with its dev F, as `train --dev` prints them.
        let tried = [Tried { spec: "plain".into(), dev_f: 61.234 }, Tried { spec: "lex".into(), dev_f: 70.0 }];
        let summary = trained_summary(&model, &split, &tried);
        assert!(summary.ends_with(" chosen on them. Configurations tried, dev F: plain 61.23, lex 70.00"), "{summary}");

        let note = held_out_note(&model, false);
        assert!(
            note.contains("trained on the sentences of its 26 training pairs only, with the stem back-off"),
            "{note}"
        );
        assert_eq!(model.link_weight, LinkWeight::Lexicon);
        assert!(!note.contains("Warning"), "{note}");

        // Word links given for the pairs: φ5–φ7 count them as 1, and input without them is warned of.
        let diagonal =
            |p: &TreePair| WordAlignment::new((0..p.source.words().len().min(p.target.words().len())).map(|i| (i, i)));
        let links = corpus.pairs.iter().map(diagonal).collect();
        let options = TrainOptions { max_examples: 300, ..TrainOptions::default() };
        let given = train_on_pairs(&corpus, &how, None, Some(links), &[options], &mut crate::progress::Quiet).unwrap();
        assert_eq!(given.model.link_weight, LinkWeight::Unit);
        assert!(!held_out_note(&given.model, true).contains("Warning"));
        let note = held_out_note(&given.model, false);
        assert!(
            note.starts_with("Warning: this model was trained on given word links and the input has none"),
            "{note}"
        );
    }

    /// Without dev pairs, the model trained on the pairs is described in a line.
    #[test]
    fn train_on_pairs_without_dev_describes_the_model_and_one_pair_is_too_few_to_hold_out() {
        let corpus = crate::corpus::sample(..40);
        let options = TrainOptions { max_examples: 300, ..TrainOptions::default() };
        let quiet = &mut crate::progress::Quiet;
        for test in [true, false] {
            let how = PairsTraining { test, ..PairsTraining::default() };
            let split = how.split(corpus.len()).unwrap();
            let Kept { model, tried, .. } =
                train_on_pairs(&corpus, &how, None, None, std::slice::from_ref(&options), quiet).unwrap();
            assert_eq!(trained_summary(&model, &split, &tried), model.describe(), "no dev: the model in a line");
        }
        // One pair cannot be both trained on and held out: refused before training.
        let one = Corpus { pairs: corpus.pairs[..1].to_vec() };
        let how = PairsTraining { test: true, ..PairsTraining::default() };
        let result = train_on_pairs(&one, &how, None, None, std::slice::from_ref(&options), quiet);
        assert_eq!(result.err(), Some(AlignmentError::TooFewToHoldOut(1)));
    }

    #[test]
    fn a_kernel_for_the_options_keeps_their_lambda_and_takes_the_weights_given() {
        let options = TrainOptions {
            spec: KernelSpec { lambda: 0.2, ..KernelSpec::paper_best() },
            c: 3.0,
            ..TrainOptions::default()
        };
        let spec: KernelSpec = "plain+ibtk-sst".parse().unwrap();
        let o = for_kernel(&options, &spec, Some(&[1.0, 3.0])).unwrap();
        assert_eq!(
            (o.spec.to_string(), o.spec.lambda, o.spec.thetas.as_slice(), o.c),
            ("plain+ibtk-sst".into(), 0.2, &[0.25, 0.75][..], 3.0)
        );
        assert_eq!(for_kernel(&options, &spec, None).unwrap().spec.thetas, [0.5, 0.5]);
        let e = for_kernel(&options, &"lex".parse().unwrap(), Some(&[1.0, 2.0])).unwrap_err();
        assert_eq!(e.to_string(), "--theta needs 1 non-negative weights, not all 0, for lex; found [1.0, 2.0]");
    }

    #[test]
    fn too_few_pairs_to_hold_out_a_test_is_an_error_before_any_training() {
        let corpus = Corpus { pairs: crate::corpus::sample(..40).pairs[..2].to_vec() };
        let how = PairsTraining { calibrate: true, test: true, ..PairsTraining::default() };
        let result = train_on_pairs(&corpus, &how, None, None, &[TrainOptions::default()], &mut crate::progress::Quiet);
        assert_eq!(result.unwrap_err(), AlignmentError::TooFewToHoldOut(2));
    }
}
