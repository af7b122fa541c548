//! Training the alignment SVM on every candidate when the composite kernel's
//! feature map is explicit (`lex`/`plain`, `ctx`, `hist`, `*-root`; see
//! [`ExplicitFeatures`]): dual coordinate descent over the explicit vectors
//! ([`crate::svm::linear`], Hsieh et al. 2008) instead of SMO over kernel rows.
//!
//! SMO's cost grows with the square of the examples (kernel rows, a cache of
//! them), so [`super::model`] caps them at a few thousand; here an epoch costs
//! O(examples × features), and SQUOIA's ~100,000 candidates train in
//! seconds. The result is written as SMO's is: the examples with α > 0 are
//! the support vectors with coefficients `α_i y_i`, so the model file and its
//! reader do not change. The bias is a constant feature `B = 1` (LIBLINEAR's
//! `-B 1`): `D(x) = Σ α_i y_i (K(x_i, x) + B²)`, i.e. `ρ = −B² Σ α_i y_i`.
//!
//! What it gives up: the bias is regularised and there is no `yᵀα = 0`, so
//! on the same examples the model differs a little from SMO's (the dual
//! objective reached is at least SMO's; a test checks it); and tree kernels
//! over fragments (SST, RdSST, RgSST) have no finite map here, so specs with
//! them still train by SMO.

use std::collections::HashMap;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use super::composite::{CompositeKernel, ExplicitFeatures, Indicator, Instance};
use crate::svm::linear::{train_linear_from, LinearParams, LinearRows, Loss};
use crate::svm::{SmoProgress, SvmError, SvmModel, SvmParams, SvmStats};

/// Which solver trains the alignment SVM.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Solver {
    /// SMO over the composite kernel (any spec; the paper's).
    #[default]
    Smo,
    /// Dual coordinate descent over the explicit feature map (specs whose
    /// BTKs are all `root`).
    Linear,
}

impl Solver {
    pub const ALL: [Solver; 2] = [Solver::Smo, Solver::Linear];

    pub fn name(self) -> &'static str {
        match self {
            Solver::Smo => "smo",
            Solver::Linear => "linear",
        }
    }

    /// Training examples at most when none are asked for (`--max-examples`,
    /// the page's field): SMO's cost grows with the square of the examples,
    /// so it trains on a seeded sample of 6000; the linear solver's only
    /// linearly, so it takes them all (`usize::MAX`).
    pub fn default_max_examples(self) -> usize {
        match self {
            Solver::Smo => 6000,
            Solver::Linear => usize::MAX,
        }
    }
}

display_by_name!(Solver);

impl std::str::FromStr for Solver {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        crate::one_of(s, &Solver::ALL.map(|v| (v.name(), v)))
    }
}

/// The bias feature's value `B`.
const BIAS: f64 = 1.0;

/// Stopping tolerance on the spread of projected gradients: LIBLINEAR's
/// default. On SQUOIA train (663,686 examples) it stops after about 300
/// epochs; 0.01 ran into the 1,000-epoch limit for the same dev F (83.95
/// against 83.92).
pub const DEFAULT_EPS: f64 = 0.1;

/// The training examples as rows of the explicit feature space: polynomial
/// blocks first (each `1 + 2n + n(n−1)/2` wide), then one column per
/// indicator seen, then the bias.
struct ExplicitRows {
    rows: Vec<ExplicitFeatures>,
    /// Per example, its indicators' columns.
    columns: Vec<Vec<(usize, f64)>>,
    /// Where each polynomial block starts, and its input length.
    blocks: Vec<(usize, usize)>,
    dim: usize,
}

/// Width of the degree-2 polynomial map of `n` inputs.
fn poly_width(n: usize) -> usize {
    1 + 2 * n + n * n.saturating_sub(1) / 2
}

/// Calls `f(k, φ_k(x))` for each entry of the degree-2 map, in
/// [`super::composite::polynomial_feature_map`]'s order, with no allocation.
fn for_each_poly(x: &[f64], mut f: impl FnMut(usize, f64)) {
    let n = x.len();
    f(0, 1.0);
    for (i, v) in x.iter().enumerate() {
        f(1 + i, std::f64::consts::SQRT_2 * v);
        f(1 + n + i, v * v);
    }
    let mut k = 1 + 2 * n;
    for i in 0..n {
        for j in i + 1..n {
            f(k, std::f64::consts::SQRT_2 * x[i] * x[j]);
            k += 1;
        }
    }
}

impl ExplicitRows {
    fn new(rows: Vec<ExplicitFeatures>) -> Self {
        let n_blocks = rows.iter().map(|r| r.poly.len()).max().unwrap_or(0);
        let mut blocks = Vec::with_capacity(n_blocks);
        let mut dim = 0;
        for b in 0..n_blocks {
            let width = rows.iter().filter_map(|r| r.poly.get(b)).map(|(_, v)| v.len()).max().unwrap_or(0);
            blocks.push((dim, width));
            dim += poly_width(width);
        }
        // Indicator columns in order of first appearance (deterministic).
        let mut column_of: HashMap<Indicator, usize> = HashMap::new();
        let columns = rows
            .iter()
            .map(|r| {
                r.indicators
                    .iter()
                    .map(|&(key, value)| {
                        let next = dim + column_of.len();
                        (*column_of.entry(key).or_insert(next), value)
                    })
                    .collect()
            })
            .collect();
        dim += column_of.len() + 1;
        ExplicitRows { rows, columns, blocks, dim }
    }
}

impl LinearRows for ExplicitRows {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn dot(&self, i: usize, w: &[f64]) -> f64 {
        let mut sum = BIAS * w[self.dim - 1];
        for ((scale, v), &(start, width)) in self.rows[i].poly.iter().zip(&self.blocks) {
            if *scale != 0.0 && v.len() == width {
                let mut block = 0.0;
                for_each_poly(v, |k, phi| block += w[start + k] * phi);
                sum += scale * block;
            }
        }
        sum + self.columns[i].iter().map(|&(c, a)| w[c] * a).sum::<f64>()
    }

    fn add_to(&self, i: usize, a: f64, w: &mut [f64]) {
        w[self.dim - 1] += a * BIAS;
        for ((scale, v), &(start, width)) in self.rows[i].poly.iter().zip(&self.blocks) {
            if *scale != 0.0 && v.len() == width {
                let s = a * scale;
                for_each_poly(v, |k, phi| w[start + k] += s * phi);
            }
        }
        for &(c, value) in &self.columns[i] {
            w[c] += a * value;
        }
    }

    fn squared_norm(&self, i: usize) -> f64 {
        let r = &self.rows[i];
        r.dot(r) + BIAS * BIAS
    }
}

/// Trains on `instances` (labels `y`) by dual coordinate descent with the
/// hinge loss and `params`' C+ and C−, visiting examples in an order drawn
/// from `seed`; the model in SMO's form (see the module doc). `None` when
/// the spec has a component without an explicit map.
pub fn train(
    kernel: &CompositeKernel<'_>,
    instances: &[&Instance],
    y: &[f64],
    params: &SvmParams,
    seed: u64,
    alpha0: Option<&[f64]>,
    progress: &mut dyn FnMut(SmoProgress) -> ControlFlow<()>,
) -> Option<Result<SvmModel, SvmError>> {
    let rows: Option<Vec<ExplicitFeatures>> =
        instances.iter().enumerate().map(|(i, x)| kernel.explicit(x, kernel.selfs(i))).collect();
    let rows = ExplicitRows::new(rows?);
    let linear = LinearParams {
        c_pos: params.c_pos,
        c_neg: params.c_neg,
        loss: Loss::Hinge,
        eps: DEFAULT_EPS,
        seed,
        shrinking: params.shrinking,
        ..LinearParams::default()
    };
    let solution = match train_linear_from(&rows, y, &linear, alpha0, progress) {
        Ok(s) => s,
        Err(e) => return Some(Err(e)),
    };
    let (mut sv_indices, mut sv_coef, mut n_bounded_sv) = (Vec::new(), Vec::new(), 0);
    for (i, &a) in solution.alpha.iter().enumerate() {
        if a > 0.0 {
            sv_indices.push(i);
            sv_coef.push(y[i] * a);
            n_bounded_sv += usize::from(a >= if y[i] > 0.0 { params.c_pos } else { params.c_neg });
        }
    }
    let rho = -BIAS * BIAS * sv_coef.iter().sum::<f64>();
    let stats = SvmStats {
        iterations: solution.epochs,
        kernel_evals: 0,
        cache_hits: 0,
        cache_misses: 0,
        cache_rows: 0,
        objective: solution.objective,
        max_violation: solution.max_violation,
        converged: solution.converged,
        n_sv: sv_indices.len(),
        n_bounded_sv,
    };
    Some(Ok(SvmModel { sv_indices, sv_coef, rho, stats }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::align::composite::{polynomial_feature_map, ContextKey, KernelSpec};
    use crate::align::features::N_PLAIN;
    use crate::kernel::index::StructureIndex;
    use crate::rng::SplitMix64;
    use crate::svm::dual_objective;

    /// Each solver reads back from its name (`--solver`, the page's select,
    /// the kept session); SMO samples 6000 examples unless told, linear takes all.
    #[test]
    fn a_solver_by_its_name_and_its_default_examples() {
        for solver in Solver::ALL {
            assert_eq!(solver.to_string().parse::<Solver>(), Ok(solver));
        }
        assert_eq!("SMO".parse::<Solver>().unwrap_err(), "expected smo or linear, found 'SMO'");
        assert_eq!(Solver::ALL.map(Solver::default_max_examples), [6000, usize::MAX]);
    }
    use crate::tree::NodeId;
    use crate::tree::Tree;

    fn instances(index: &mut StructureIndex, n: usize, seed: u64) -> (Vec<Instance>, Vec<f64>) {
        let trees = ["(NP (DT a) (NN b))", "(VP (V c))", "(S (NP (N d)) (VP (V e)))", "(PP (P f) (NP (N g)))"];
        let mut rng = SplitMix64::new(seed);
        let parsed: Vec<Tree> = trees.iter().map(|t| Tree::parse_one(t, "t").unwrap()).collect();
        let (mut out, mut y) = (Vec::new(), Vec::new());
        for k in 0..n {
            let (s, t) = (&parsed[k % 4], &parsed[(k / 4) % 4]);
            let (is, it) = (index.index_tree(s), index.index_tree(t));
            let mut plain = [0.0; N_PLAIN];
            plain.iter_mut().for_each(|v| *v = rng.symmetric());
            let context = ContextKey {
                dense: (0..3).map(|_| rng.symmetric()).collect(),
                labels: index.label_pair(&format!("L{}", k % 3), "X"),
                parent_labels: (k % 5 != 0).then(|| index.label_pair("P", &format!("Q{}", k % 2))),
            };
            y.push(if plain[0] + 0.5 * plain[1] + 0.3 * context.dense[0] > 0.0 { 1.0 } else { -1.0 });
            out.push(Instance {
                source: index.subtree_key(s, &is, NodeId::new(0)),
                target: index.subtree_key(t, &it, NodeId::new(0)),
                plain,
                context: Some(context),
                history: None,
            });
        }
        (out, y)
    }

    #[test]
    fn the_poly_walk_is_the_feature_map() {
        let x = [0.3, -1.2, 2.0];
        let mut walked = vec![0.0; poly_width(3)];
        for_each_poly(&x, |k, v| walked[k] = v);
        assert_eq!(walked, polynomial_feature_map(&x));
    }

    #[test]
    fn the_model_is_smos_form_and_its_objective_at_least_smos() {
        let mut index = StructureIndex::new(0.4);
        let (xs, y) = instances(&mut index, 40, 7);
        let refs: Vec<&Instance> = xs.iter().collect();
        let spec: KernelSpec = "plain+ctx+dbtk-root+ibtk-root".parse().unwrap();
        let kernel = CompositeKernel::new(&spec, &index, &refs);
        let params = SvmParams { c_pos: 3.0, c_neg: 1.0, ..SvmParams::default() };
        let m = train(&kernel, &refs, &y, &params, 1, None, &mut |_| ControlFlow::Continue(())).unwrap().unwrap();
        // The decision value on each training example from the support
        // vectors through the kernel equals w·x + b of the solver: the
        // gradient conditions hold up to the tolerance.
        for i in 0..y.len() {
            let d = m.decision(|sv| kernel.eval(&refs, sv, i));
            let alpha = m.dense_alpha(y.len())[i];
            let c = if y[i] > 0.0 { 3.0 } else { 1.0 };
            let g = y[i] * d - 1.0;
            if alpha == 0.0 {
                assert!(g > -DEFAULT_EPS, "{i}: {g}");
            } else if alpha >= c {
                assert!(g < DEFAULT_EPS, "{i}: {g}");
            } else {
                assert!(g.abs() < DEFAULT_EPS, "{i}: {g}");
            }
        }
        // With the bias as a feature the dual is SMO's plus ½(yᵀα)²; on yᵀα = 0 they agree.
        let with_bias = |i: usize, j: usize| kernel.eval(&refs, i, j) + BIAS * BIAS;
        let smo = crate::svm::train(&with_bias, &y, &SvmParams { eps: 1e-8, ..params.clone() }).unwrap();
        let ours = dual_objective(&m.dense_alpha(y.len()), &y, &with_bias);
        let theirs = dual_objective(&smo.dense_alpha(y.len()), &y, &with_bias);
        assert!(ours <= theirs + 1e-2 * theirs.abs(), "{ours} vs SMO's {theirs}");
    }

    #[test]
    fn specs_with_fragment_kernels_have_no_linear_training() {
        let mut index = StructureIndex::new(0.4);
        let (xs, y) = instances(&mut index, 8, 1);
        let refs: Vec<&Instance> = xs.iter().collect();
        let spec: KernelSpec = "plain+ibtk-rgsst".parse().unwrap();
        let kernel = CompositeKernel::new(&spec, &index, &refs);
        let p = SvmParams::default();
        assert!(train(&kernel, &refs, &y, &p, 1, None, &mut |_| ControlFlow::Continue(())).is_none());
    }
}
