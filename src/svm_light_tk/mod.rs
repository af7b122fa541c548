//! SVM-Light-TK 1.5 (Moschitti's tree-kernel extension of SVM-Light,
//! `svm_learn -t 5` and `svm_classify`) on its own files: its example
//! format, its kernel options and its model file, so that it and treelink
//! can stand in for each other.
//!
//! What is supported, with SVM-Light-TK's meaning (module [`kernel`] has the
//! formulas): `-t 5`; `-F 0` (ST) and `-F 1` (SST); `-W S|A`, `-V S|A`;
//! `-C T` (trees) and `-C +` (vectors + `-T` · trees); `-S 0` (linear) and
//! `-S 1` (polynomial, `-d`, `-s`, `-r`) on vectors; `-L`; `-N 0..3`; `-c`
//! (0 or absent: SVM-Light's `1/avg(‖x‖)²`); `-j`. Anything else (PT
//! kernels, `-C *`, transduction, regression, ranking, user kernels) is
//! refused with an error, never approximated.
//!
//! The difference that remains is the solver: SVM-Light decomposes with
//! working sets of 10, treelink runs SMO with WSS3 (LIBSVM's), both to a
//! KKT tolerance of 10⁻³, so models agree up to that tolerance, not bit for
//! bit. And SVM-Light-TK rounds kernel values to f32.
//!
//! Speed (docs/speed.md): the tree kernels run on [`crate::kernel::index`]
//! (interned shapes, Δ memoised per shape pair), and classification folds
//! the support vectors into one weight per (production, shape)
//! ([`kernel::ForestKernel::decision_function`]), so classifying an example
//! costs a pass over its nodes, not a kernel per support vector.

pub mod example;
pub mod kernel;
pub mod model;

pub use example::{parse_example, Example, ExampleError, TkTree};
pub use kernel::{Combination, DocError, ForestKernel, KernelParams, Pairing, TreeKernel, VectorKernel};
pub use model::{ModelError, TkModel};

use crate::kernel::DEFAULT_MAX_NODE_PAIRS;
use crate::progress::Observer;
use crate::svm::{self, SmoProgress, SvmError, SvmParams, SvmStats};
use crate::tree::NodeId;

/// `svm_learn`'s settings that treelink supports.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnParams {
    pub kernel: KernelParams,
    /// `-c`: C; `None` (or SVM-Light's `-c 0`) is `1 / avg(sqrt(K(x, x)))²`.
    pub c: Option<f64>,
    /// `-j`: the cost factor, `C+ = j · C`.
    pub cost_factor: f64,
    /// The kernel row cache, in MiB (`-m`).
    pub cache_mb: f64,
    /// The most matched node pairs a tree kernel may visit.
    pub max_node_pairs: u64,
}

impl Default for LearnParams {
    fn default() -> Self {
        LearnParams {
            kernel: KernelParams::default(),
            c: None,
            cost_factor: 1.0,
            cache_mb: SvmParams::default().cache_mb,
            max_node_pairs: DEFAULT_MAX_NODE_PAIRS,
        }
    }
}

/// Why learning or classifying failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TkError {
    #[error("example {line}: {error}")]
    Doc { line: usize, error: DocError },
    #[error("example {line}: its label is 0, which SVM-Light reads as unlabelled (transduction), not supported here")]
    Unlabelled { line: usize },
    #[error("there are no examples to learn from")]
    NoExamples,
    #[error("support vector {index}: {error}")]
    SupportVector { index: usize, error: DocError },
    #[error("SVM: {0}")]
    Svm(#[from] SvmError),
}

/// What learning found, for the summary `learn` prints.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnSummary {
    pub c: f64,
    pub positives: usize,
    pub negatives: usize,
    pub stats: SvmStats,
}

/// The stage [`learn`] reports SMO's iterations under.
pub const LEARN_STAGE: &str = "SMO";

/// Learns a model from examples (labels above 0 positive, below 0 negative),
/// as `svm_learn -t 5` does. `progress` gets SMO's iterations (stage
/// [`LEARN_STAGE`], with the KKT violation and ε as its gap) and may cancel.
pub fn learn(
    examples: &[Example],
    params: &LearnParams,
    progress: &mut dyn Observer,
) -> Result<(TkModel, LearnSummary), TkError> {
    if examples.is_empty() {
        return Err(TkError::NoExamples);
    }
    if let Some(k) = examples.iter().position(|e| e.label == 0.0) {
        return Err(TkError::Unlabelled { line: k + 1 });
    }
    let mut kernel = ForestKernel::new(params.kernel.clone(), params.max_node_pairs);
    let mut docs = Vec::with_capacity(examples.len());
    for (k, e) in examples.iter().enumerate() {
        docs.push(kernel.doc(e).map_err(|error| TkError::Doc { line: k + 1, error })?);
    }
    let y: Vec<f64> = examples.iter().map(|e| if e.label > 0.0 { 1.0 } else { -1.0 }).collect();
    let c = match params.c {
        Some(c) if c > 0.0 => c,
        // SVM-Light: C = 1 / avg(|x|)², |x| = sqrt(K(x, x)) (the origin's kernel is 0).
        _ => {
            let avg = docs.iter().map(|d| kernel.eval(d, d).max(0.0).sqrt()).sum::<f64>() / docs.len() as f64;
            if avg > 0.0 {
                1.0 / (avg * avg)
            } else {
                1.0
            }
        }
    };
    let svm_params =
        SvmParams { cache_mb: params.cache_mb, ..SvmParams::with_c(c).with_cost_factor(params.cost_factor) };
    let rows = kernel::RowKernel::new(&kernel, &docs);
    let eps = svm_params.eps;
    let m = svm::train_with_progress(&rows, &y, &svm_params, &mut |p: SmoProgress| {
        progress.progress(p.progress(LEARN_STAGE, eps))
    })?;
    let highest_feature = examples.iter().flat_map(|e| e.vectors.iter().flatten()).map(|&(i, _)| i).max().unwrap_or(0);
    let model = TkModel {
        kernel: params.kernel.clone(),
        b: m.rho,
        // Each support vector as its model line: α·y in place of the label.
        support_vectors: m
            .sv_indices
            .iter()
            .zip(&m.sv_coef)
            .map(|(&i, &coef)| (coef, Example { label: coef, ..examples[i].clone() }))
            .collect(),
        highest_feature,
        training_examples: examples.len(),
    };
    let positives = y.iter().filter(|&&v| v > 0.0).count();
    let summary = LearnSummary { c, positives, negatives: y.len() - positives, stats: m.stats };
    Ok((model, summary))
}

/// A model ready to classify, as `svm_classify` does: `D(x) = Σ α_i y_i K(sv_i, x) − b`.
#[derive(Debug)]
pub struct Classifier {
    kernel: ForestKernel,
    decision: kernel::Decision,
}

impl Classifier {
    pub fn new(model: &TkModel, max_node_pairs: u64) -> Result<Self, TkError> {
        let mut kernel = ForestKernel::new(model.kernel.clone(), max_node_pairs);
        let mut svs = Vec::with_capacity(model.support_vectors.len());
        for (k, (coef, e)) in model.support_vectors.iter().enumerate() {
            let d = kernel.doc(e).map_err(|error| TkError::SupportVector { index: k + 1, error })?;
            svs.push((*coef, d));
        }
        let decision = kernel.decision_function(&svs, model.b);
        Ok(Classifier { kernel, decision })
    }

    /// The decision value of an example (its label is not used).
    pub fn decision(&mut self, e: &Example) -> Result<f64, DocError> {
        let d = self.kernel.doc(e)?;
        Ok(self.kernel.decide(&self.decision, &d))
    }
}

/// Accuracy, precision and recall of decision values against ±1 labels, as
/// `svm_classify` prints them (`D > 0` is positive).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Confusion {
    pub true_pos: usize,
    pub false_pos: usize,
    pub false_neg: usize,
    pub true_neg: usize,
}

impl Confusion {
    pub fn add(&mut self, label: f64, decision: f64) {
        match (decision > 0.0, label > 0.0) {
            (true, true) => self.true_pos += 1,
            (true, false) => self.false_pos += 1,
            (false, true) => self.false_neg += 1,
            (false, false) => self.true_neg += 1,
        }
    }

    pub fn total(&self) -> usize {
        self.true_pos + self.false_pos + self.false_neg + self.true_neg
    }

    /// Percent correct.
    pub fn accuracy(&self) -> f64 {
        100.0 * (self.true_pos + self.true_neg) as f64 / self.total().max(1) as f64
    }

    pub fn precision(&self) -> f64 {
        100.0 * self.true_pos as f64 / (self.true_pos + self.false_pos).max(1) as f64
    }

    pub fn recall(&self) -> f64 {
        100.0 * self.true_pos as f64 / (self.true_pos + self.false_neg).max(1) as f64
    }
}

/// One sub-tree-pair example: the label (+1 a gold link, −1 not) and the
/// source and target sub-trees in bracketed form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubTreePairExample {
    pub positive: bool,
    pub source: String,
    pub target: String,
}

impl std::fmt::Display for SubTreePairExample {
    /// SVM-Light-TK's line: `+1 |BT| (source) |BT| (target) |ET|`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let label = if self.positive { "+1" } else { "-1" };
        write!(f, "{label} |BT| {} |BT| {} |ET|", self.source, self.target)
    }
}

/// Sub-tree-pair examples of a gold-aligned treebank, the task of the
/// kernels paper (§5) in SVM-Light-TK's format: every gold link between
/// phrase nodes is a positive; `negatives_per_positive` times as many
/// phrase-node pairs of the same tree pair without a gold link are drawn
/// (seeded) as negatives; then, if there are more than `max_examples`, a
/// seeded sample of them is kept. Examples come in corpus order, each pair's
/// in (source, target) node order.
pub fn subtree_pair_examples(
    corpus: &crate::corpus::Corpus,
    negatives_per_positive: usize,
    max_examples: usize,
    seed: u64,
) -> Vec<SubTreePairExample> {
    let mut rng = crate::rng::SplitMix64::new(seed);
    let mut chosen: Vec<(usize, NodeId, NodeId, bool)> = Vec::new();
    for (p, pair) in corpus.pairs.iter().enumerate() {
        let (src, trg) = (&pair.source, &pair.target);
        let gold: Vec<(NodeId, NodeId)> = pair.phrase_links(&pair.gold);
        let mut negatives: Vec<(usize, NodeId, NodeId, bool)> = src
            .node_ids()
            .filter(|&s| src.is_phrase(s))
            .flat_map(|s| trg.node_ids().filter(|&t| trg.is_phrase(t)).map(move |t| (p, s, t, false)))
            .filter(|&(_, s, t, _)| !gold.contains(&(s, t)))
            .collect();
        rng.sample(&mut negatives, negatives_per_positive * gold.len());
        let mut examples: Vec<(usize, NodeId, NodeId, bool)> = gold.iter().map(|&(s, t)| (p, s, t, true)).collect();
        examples.extend(negatives);
        examples.sort_unstable();
        examples.dedup_by_key(|e| (e.0, e.1, e.2));
        chosen.extend(examples);
    }
    rng.sample(&mut chosen, max_examples);
    chosen
        .into_iter()
        .map(|(p, s, t, positive)| {
            let pair = &corpus.pairs[p];
            SubTreePairExample {
                positive,
                source: pair.source.subtree_bracketed(s),
                target: pair.target.subtree_bracketed(t),
            }
        })
        .collect()
}
