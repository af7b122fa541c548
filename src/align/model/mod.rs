//! The sub-tree alignment model (paper §5): training a kernel SVM on
//! candidate sub-tree pairs of a gold-aligned treebank, and aligning new tree
//! pairs with it (classification, sigmoid posterior, greedy search).
//!
//! One concept per module:
//! - `file` — the model file: versioned JSON ([`AlignmentModel`])
//!   holding everything needed to align — the kernel specification, the
//!   support vectors (their sub-trees in bracketed form, plain features and
//!   coefficients), ρ, the posterior, the pruning thresholds, and the lexical
//!   model: the tables when they were given (Moses `lex` files), or, for an
//!   in-engine lexicon, the sentences and settings it was trained on. An
//!   in-engine lexicon's tables are a deterministic function of those, and
//!   aligning re-trains it on them plus the input's sentences anyway (as
//!   GIZA++ would be run), so storing its dense tables (tens of MB for 3,000
//!   sentence pairs) would buy nothing. Reading it checks everything the
//!   scorer relies on, at its place in the file.
//! - `training` — [`train`]: features of every candidate, then per pruning
//!   quantile (and C, cost factor, negative share, tuned on dev) one SVM.
//!   Cost: one lexical model, features for every candidate (cheap), then SMO
//!   over the kept examples with the composite kernel; the number of
//!   negatives is capped at `max_negative_ratio` × positives (seeded sample).
//! - `scorer` — [`Scorer`]: the decision value `D` of a pair's candidates,
//!   each kernel component's share apart, and the search over them
//!   ([`crate::align::greedy::search_decided`]).
//! - `decision` — the decision function prepared once per model, per
//!   component: the plain part folded into one weight vector, Root by label
//!   tables, RgSST/RdSST by root buckets, so a candidate visits only the
//!   support vectors that can contribute.

mod decision;
mod file;
mod scorer;
mod settings;
mod training;

pub use file::{
    AlignmentModel, ModelFileError, SupportVector, TrainingSummary, FORMAT, MAX_COEFFICIENT, MAX_FEATURE, VERSION,
};
pub use scorer::{candidates_of, pair_matrices, uncertainty, Candidate, Decision, Scorer};
pub use settings::{
    read_max_examples, read_negative_ratio, read_positive, show_max_examples, train_setting, TrainSetting,
    TRAIN_SETTINGS,
};
pub use training::{
    check_train_candidates, cross_validated_threshold, retraining_options, train, train_keeping, CrossValidatedCut,
    DecisionThreshold, TrainOptions, WarmStart, CROSS_VALIDATION_WINDOW, HISTORY_FOLDS,
};

use crate::corpus::PairIndex;
use crate::kernel::TooManyNodePairs;
use crate::limits::Limit;
use crate::svm;
use crate::tree::NodeId;

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
    #[error("pair {pair}, {side} node {node}: {error} (fixed in training: leave the pair out, or use a kernel without sst/rdsst BTKs)")]
    Kernel { pair: PairIndex, side: &'static str, node: NodeId, error: TooManyNodePairs },
    #[error(
        "the training treebank has {found} candidate node pairs, more than the limit of {limit} ({} raises it)",
        Limit::TrainCandidates.option()
    )]
    TrainCandidates { found: usize, limit: usize },
    #[error("the linear solver needs a kernel with an explicit feature map (lex, plain, ctx, hist, *-root); {spec} has {component}: train it by SMO")]
    NotExplicit { spec: String, component: String },
    #[error(
        "a threshold by cross-validation needs between 2 and {pairs} folds (one a training pair at most), not {folds}"
    )]
    ThresholdFolds { folds: usize, pairs: usize },
    #[error("cancelled")]
    Cancelled,
}
