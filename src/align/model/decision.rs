//! The decision function `Σ_i α_i y_i K(sv_i, x) − ρ` prepared once per
//! model, per kernel component, so that a candidate visits only the support
//! vectors that can contribute to each component's share.

use std::collections::HashMap;

use super::file::AlignmentModel;
use crate::align::composite::{polynomial_feature_map, CompositeKernel, ContextKey, Instance};
use crate::kernel::index::{StructureIndex, SubTreeKey};
use crate::kernel::{BtkKind, Space};
use crate::math::dot;

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

/// The decision function prepared per component, with the support vectors
/// it visits (see [`DecisionIndex::parts`]).
#[derive(Clone)]
pub(super) struct DecisionIndex {
    /// `Σ_i α_i y_i φ(sv_i)/|φ(sv_i)|` for the plain polynomial kernel.
    plain: Option<Vec<f64>>,
    /// `ctx`: the same for the dense context features, and per label pair
    /// and parent label pair `Σ α_i y_i / sqrt(label self-kernel)`.
    context: Option<ContextDecision>,
    /// `hist`: the weight vector of the history features.
    history: Option<Vec<f64>>,
    btks: Vec<BtkDecision>,
    /// The support vectors as kernel instances.
    instances: Vec<Instance>,
    /// Their self-kernel parts per component (the BTKs' normalisation).
    self_parts: Vec<Vec<(f64, f64)>>,
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
    dot(w, &polynomial_feature_map(x))
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
    /// The decision function of `model`, whose support vectors are
    /// `instances` (indexed in `index`) with self-kernel parts `self_parts`.
    pub(super) fn new(
        model: &AlignmentModel,
        index: &StructureIndex,
        instances: Vec<Instance>,
        self_parts: Vec<Vec<(f64, f64)>>,
    ) -> Self {
        let (svs, selfs) = (&instances, &self_parts);
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
        DecisionIndex { plain, context, history, btks, instances, self_parts }
    }

    /// Each component's share `θ_c Σ_i α_i y_i K̂_c(sv_i, x)` of the decision
    /// value of `x` (self parts `sx`; the decision value is their sum minus
    /// ρ), visiting only the support vectors that can contribute.
    pub(super) fn parts(
        &self,
        model: &AlignmentModel,
        kernel: &CompositeKernel<'_>,
        index: &StructureIndex,
        x: &Instance,
        sx: &[(f64, f64)],
    ) -> Vec<f64> {
        let spec = &model.spec;
        let mut parts = Vec::with_capacity(spec.components());
        let mut c = 0;
        if let (Some(set), Some(w)) = (spec.plain, &self.plain) {
            let phi = polynomial_feature_map(set.select(&x.plain));
            let wx = dot(w, &phi);
            parts.push(spec.thetas[c] * if sx[c].0 > 0.0 { wx / sx[c].0.sqrt() } else { 0.0 });
            c += 1;
        }
        if spec.context {
            parts.push(spec.thetas[c] * self.context_sum(x.context.as_ref(), sx[c]));
            c += 1;
        }
        if spec.history {
            let sum = match (&x.history, &self.history) {
                (Some(h), Some(w)) if sx[c].0 > 0.0 => dot_map(w, h) / sx[c].0.sqrt(),
                _ => 0.0,
            };
            parts.push(spec.thetas[c] * sum);
            c += 1;
        }
        for (&(kind, space), how) in spec.btks.iter().zip(&self.btks) {
            let theta = spec.thetas[c];
            let (ls, lt) = (x.source.root_label(), x.target.root_label());
            let visit = |i: usize| {
                model.support_vectors[i].coef
                    * kernel.btk_normalized(kind, space, x, &sx[c], &self.instances[i], &self.self_parts[i][c])
            };
            let sum = match how {
                BtkDecision::Root { by_source, by_target, by_both } => match kind {
                    BtkKind::Ibtk => {
                        (by_source.get(&ls).copied().unwrap_or(0.0) + by_target.get(&lt).copied().unwrap_or(0.0)) / 2.0
                    }
                    BtkKind::Dbtk => by_both.get(&(ls, lt)).copied().unwrap_or(0.0),
                },
                BtkDecision::Bucketed { source, target } => {
                    let (ks, kt) = match space {
                        Space::RgSst => (
                            index.shape_production(x.source.root_shape()),
                            index.shape_production(x.target.root_shape()),
                        ),
                        _ => (ls, lt),
                    };
                    let empty = Vec::new();
                    let (a, b) = (source.get(&ks).unwrap_or(&empty), target.get(&kt).unwrap_or(&empty));
                    match kind {
                        BtkKind::Ibtk => merge_union(a, b).map(visit).sum(),
                        BtkKind::Dbtk => a.iter().copied().filter(|i| b.binary_search(i).is_ok()).map(visit).sum(),
                    }
                }
                BtkDecision::All => (0..self.instances.len()).map(visit).sum(),
            };
            parts.push(theta * sum);
            c += 1;
        }
        parts
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
