//! The model file: what an [`AlignmentModel`] holds (versioned JSON, read
//! back to the same model) and how a file is read: every value the scorer
//! relies on is checked on reading, and a bad one is refused at its place
//! (file, line, column and JSON path).

use serde::{Deserialize, Serialize};

use crate::align::candidates::{CandidateNodes, Thresholds};
use crate::align::composite::KernelSpec;
use crate::align::context::ContextFeatures;
use crate::align::features::{LinkWeight, N_PLAIN};
use crate::align::history::N_HISTORY;
use crate::align::lexical::LexicalModel;
use crate::align::link_search::LinkSearch;
use crate::eval::prf::Counts;
use crate::io::json::{from_json, JsonError};
use crate::svm::Posterior;

/// The model file's format name and version.
pub const FORMAT: &str = "treelink-alignment-model";
pub const VERSION: u32 = 1;

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
    /// The folds of the cross-validation the threshold was calibrated by
    /// (out-of-fold training pairs pooled with dev); 0: on dev alone.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub threshold_folds: usize,
    pub svm_iterations: u64,
    pub kernel_evals: u64,
    /// The program that trained it: `treelink` and its version (empty in files of before it was kept).
    #[serde(default)]
    pub made_by: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A model file keeps its search only when it is not the paper's (so
/// older files and greedy models read and write the same).
fn is_greedy(search: &LinkSearch) -> bool {
    *search == LinkSearch::Greedy
}

/// Everything needed to align (see [`crate::align::model`]).
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
    /// calibrated on dev: [`crate::align::calibrate`]).
    #[serde(default)]
    pub threshold: f64,
    /// Which links the candidates above the threshold become (the paper's
    /// greedy search unless another was chosen on dev; [`crate::align::link_search`]).
    #[serde(default, skip_serializing_if = "is_greedy")]
    pub search: LinkSearch,
    #[serde(deserialize_with = "checked_lexicon")]
    pub lexicon: LexicalModel,
    /// How φ5–φ7 weigh a word link: as given with the training pairs, or
    /// by the lexicon (the paper's, left out of the file).
    #[serde(default, skip_serializing_if = "LinkWeight::is_lexicon")]
    pub link_weight: LinkWeight,
    pub summary: TrainingSummary,
    /// With `hist`: the first pass whose decisions the history features read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_pass: Option<Box<AlignmentModel>>,
}

impl AlignmentModel {
    /// Reads a model file (as `treelink train` writes it); `file` names it
    /// in errors. Everything [`super::Scorer::new`] relies on is checked here, with
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

/// The context part of a spec as it is written: `ctx`, `ctx+unk`, ….
fn context_named(spec: &KernelSpec) -> String {
    let parts = spec.context_parts();
    let names = [(parts.unknown, "unk"), (parts.orth, "orth"), (parts.chain, "chain"), (parts.node, "node")];
    std::iter::once("ctx")
        .chain(names.into_iter().filter(|(on, _)| *on).map(|(_, n)| n))
        .collect::<Vec<_>>()
        .join(" and ")
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
        let dense = spec.context_parts().dense_len();
        let (mut context, mut history) = (false, false);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "context" if spec.context => {
                    let c: Option<ContextFeatures> = map.next_value()?;
                    let found = c.map(|c| c.dense.len());
                    if found.is_some_and(|n| n != dense) {
                        return Err(A::Error::custom(format!(
                            "expected {dense} dense context features (the kernel has {}), found {}",
                            context_named(spec),
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
