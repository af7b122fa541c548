//! The scorer: a model's support vectors indexed once, then per tree pair
//! its candidates' features and decision values `D = Σ parts − ρ`, each
//! kernel component's share apart (for explaining a link), and the greedy
//! search over those above the model's threshold.

use std::cell::RefCell;

use super::decision::DecisionIndex;
use super::file::{AlignmentModel, FORMAT, VERSION};
use super::AlignError;
use crate::align::candidates::{candidate_pairs, CandidateNodes, Thresholds};
use crate::align::composite::{CompositeKernel, ContextKey, Instance};
use crate::align::context::{ContextFeatures, PairFeatureTable};
use crate::align::features::{LexicalMatrices, LinkWeight, PlainFeatures};
use crate::align::greedy::{Scored, Search};
use crate::align::history::FirstPassOutput;
use crate::align::link_search::LinkSearch;
use crate::corpus::TreePair;
use crate::kernel::index::StructureIndex;
use crate::lexicon::{Lexicon, WordAlignment};
use crate::tree::{NodeId, Tree};

/// A kept candidate's decision value `D = Σ parts − ρ`; `parts` follow the
/// kernel's components ([`crate::align::composite::KernelSpec::component_names`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub candidate: Candidate,
    pub parts: Vec<f64>,
    pub value: f64,
    /// The dense context features (`ctx`, [`crate::align::context::feature_names`]).
    pub context: Option<Vec<f64>>,
    /// The history features (`hist`, [`crate::align::history::FEATURE_NAMES`]).
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

/// The lexical matrices of a tree pair from a lexicon and word links, each
/// link weighed by `weight` in φ5–φ7.
pub fn pair_matrices(lexicon: &Lexicon, pair: &TreePair, links: &WordAlignment, weight: LinkWeight) -> LexicalMatrices {
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
    .with_link_weight(weight)
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

/// The kernel's view of a context: dense features and interned label pairs.
pub(super) fn context_key(index: &mut StructureIndex, c: &ContextFeatures) -> ContextKey {
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
                source: index.subtree_key(&s, &is, NodeId::ROOT),
                target: index.subtree_key(&t, &it, NodeId::ROOT),
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
        let decision = DecisionIndex::new(model, &index, svs, sv_selfs);
        index.checkpoint();
        Ok(Scorer { model, first, lexicon, decision, index: RefCell::new(index) })
    }

    /// Decision values `D` of the kept candidates of a pair, with each kernel
    /// component's share (for explaining a link).
    pub fn decisions(&self, pair: &TreePair, links: &WordAlignment) -> Vec<Decision> {
        let m = pair_matrices(self.lexicon, pair, links, self.model.link_weight);
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
                        let f = ContextFeatures::compute(
                            &pair.source,
                            c.source,
                            &pair.target,
                            c.target,
                            t,
                            spec.context_parts(),
                        );
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
                let parts = self.decision.parts(self.model, &kernel, &index, &x, &sx);
                let value = parts.iter().sum::<f64>() - self.model.rho;
                Decision { candidate: c, parts, value, context, history }
            })
            .collect()
    }

    /// What a second pass reads from this model's alignment of `pair`
    /// (its `search` and `decisions`): see [`crate::align::history`].
    pub fn first_pass_output(&self, pair: &TreePair, search: &Search, decisions: &[Decision]) -> FirstPassOutput {
        let posteriors: Vec<((NodeId, NodeId), f64)> =
            decisions.iter().map(|d| ((d.candidate.source, d.candidate.target), self.posterior(d.value))).collect();
        FirstPassOutput::new(&pair.source, &pair.target, &posteriors, &search.links)
    }

    /// Aligns one pair: candidates classified aligned (`D` above the model's
    /// threshold, 0 in the paper), scored by the posterior, then the greedy search.
    pub fn align_pair(&self, pair: &TreePair, links: &WordAlignment) -> (Search, Vec<Decision>) {
        self.search(pair, links, self.model.threshold)
    }

    /// The model's search over the candidates with `D > threshold`.
    pub fn search(&self, pair: &TreePair, links: &WordAlignment, threshold: f64) -> (Search, Vec<Decision>) {
        let decisions = self.decisions(pair, links);
        let search = self.search_decided(pair, &decisions, threshold, self.model.search);
        (search, decisions)
    }

    /// `search` over the candidates of `decisions` with `D > threshold`,
    /// scored by their posterior (§5, phase 2).
    pub fn search_decided(
        &self,
        pair: &TreePair,
        decisions: &[Decision],
        threshold: f64,
        search: LinkSearch,
    ) -> Search {
        search.run(&pair.source, &pair.target, &self.scored(decisions, threshold))
    }

    /// The candidates of `decisions` with `D > threshold`, scored by their
    /// posterior: what a search runs over (§5, phase 2).
    pub fn scored(&self, decisions: &[Decision], threshold: f64) -> Vec<Scored> {
        decisions
            .iter()
            .filter(|d| d.value > threshold)
            .map(|d| Scored::new(d.candidate.source, d.candidate.target, self.posterior(d.value)))
            .collect()
    }

    /// The posterior alignment probability of a decision value.
    pub fn posterior(&self, value: f64) -> f64 {
        self.model.posterior.prob(value)
    }

    /// How unsure the model is of a pair, given its `decisions`
    /// ([`uncertainty`] of their posteriors and the threshold's).
    pub fn uncertainty(&self, decisions: &[Decision]) -> f64 {
        let posteriors: Vec<f64> = decisions.iter().map(|d| self.posterior(d.value)).collect();
        uncertainty(&posteriors, self.posterior(self.model.threshold))
    }
}

/// How near the threshold's posterior a candidate's posterior is "unsure".
pub const UNSURE_WITHIN: f64 = 0.25;

/// How unsure a model is of a pair (which pair an annotator does next): the
/// share of its candidates (kept by pruning) whose posterior is within
/// [`UNSURE_WITHIN`] of the threshold's, given the posteriors of the
/// candidates and of the threshold.
pub fn uncertainty(posteriors: &[f64], at_threshold: f64) -> f64 {
    if posteriors.is_empty() {
        return 0.0;
    }
    let unsure = posteriors.iter().filter(|p| (*p - at_threshold).abs() < UNSURE_WITHIN).count();
    unsure as f64 / posteriors.len() as f64
}
