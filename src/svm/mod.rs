//! Kernel SVM: an SMO solver for C-SVC over any kernel, a model, and the
//! posterior probability of the positive class.
//!
//! The paper (Sun, Zhang & Tan, §5) classifies each candidate sub-tree pair
//! as *aligned* or *unaligned* with an SVM over the composite kernel
//! `θ₀ K̂_p + Σ θ_i K̂_BTK^i`, then turns the decision value D into the
//! alignment probability `P(a+|S,T) = 1/(1 + e^(−D))`; §6.3 sets C = 2.4.
//! This module is the generic part: the kernel arrives as a function of two
//! example indices ([`KernelFn`]), so the same solver trains on tree kernels,
//! on the polynomial kernel of plain features ([`PolyKernel`]), or on a test's
//! Gram matrix.
//!
//! Notation: n examples `0..n` with labels `y_i ∈ {+1, −1}`; dual variables
//! α; `Q_ij = y_i y_j K(i, j)`. The solver minimises the dual
//! `f(α) = ½ αᵀQα − eᵀα` subject to `yᵀα = 0`, `0 ≤ α_i ≤ C_i`, where
//! `C_i` is `C+` for positives and `C−` for negatives (negatives outnumber
//! positives, so positives may be given a larger cost). The decision value
//! of a new example x is `D(x) = Σ_i α_i y_i K(i, x) − ρ` (bias `b = −ρ`).
//!
//! # Costs
//! Kernel values are the expensive part. [`train`] evaluates the diagonal
//! once (n calls) and caches rows of Q, least recently used out first, in a
//! budget of [`SvmParams::cache_mb`] megabytes (a row is `8n` bytes); with the
//! whole Q cached, training needs at most `n(n+1)/2` kernel calls. SMO itself
//! costs O(active examples) per iteration; shrinking (on by default) removes
//! bounded examples from the active set. Everything is sequential and
//! deterministic: ties go to the smallest index, and the result does not
//! depend on the cache size. Long runs report progress through a callback,
//! which can also cancel.
//!
//! # Example
//! Four points on a line, two per class; the closest pair (x = 1 and x = 2)
//! are the support vectors, so the hard-margin separator is
//! `D(x) = 2x − 3`: `w = 2 = α·(2 − 1)` gives α = 2 for both.
//! ```
//! use treelink::svm::{train, SvmParams};
//! let x = [0.0, 1.0, 2.0, 3.0];
//! let y = [-1.0, -1.0, 1.0, 1.0];
//! let kernel = |i: usize, j: usize| x[i] * x[j];
//! let params = SvmParams { eps: 1e-9, ..SvmParams::with_c(100.0) };
//! let model = train(&kernel, &y, &params).unwrap();
//! assert_eq!(model.sv_indices, vec![1, 2]);
//! assert!((model.sv_coef[0] + 2.0).abs() < 1e-6 && (model.sv_coef[1] - 2.0).abs() < 1e-6);
//! assert!((model.bias() + 3.0).abs() < 1e-6);
//! let d = model.decision(|sv| x[sv] * 2.5); // a new point at x = 2.5
//! assert!((d - 2.0).abs() < 1e-6);
//! ```
//!
//! When the kernel's feature map is explicit and small, [`linear`] solves
//! the same dual without the bias constraint by dual coordinate descent, in
//! time linear in the examples (no kernel rows).
//!
//! References: Fan, Chen & Lin (2005), "Working set selection using second
//! order information for training SVM", JMLR 6; Chang & Lin (2011), "LIBSVM:
//! a library for support vector machines", ACM TIST 2; Platt (2000),
//! "Probabilistic outputs for SVMs"; Lin, Lin & Weng (2007), "A note on
//! Platt's probabilistic outputs for SVMs", Machine Learning 68.

mod cache;
pub mod linear;
mod platt;
mod poly;
mod smo;

use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::progress::Progress;

pub use platt::{fit_platt, Posterior};
pub use poly::{normalise, PolyKernel};

/// The paper's C (§6.3).
pub const DEFAULT_C: f64 = 2.4;

/// A kernel over examples `0..n`. Symmetric; the solver calls it with
/// `i <= j` only. Values must be finite (training stops with
/// [`SvmError::NonFiniteKernel`] otherwise) and should form a positive
/// semi-definite matrix.
pub trait KernelFn {
    fn eval(&self, i: usize, j: usize) -> f64;

    /// `K(i, k)` for each `k` of `ks` (never `i`) into `out`, each value
    /// the bits of `eval(min(i, k), max(i, k))`. A kernel that computes a
    /// row faster than entry by entry overrides it.
    fn eval_many(&self, i: usize, ks: &[usize], out: &mut [f64]) {
        for (o, &k) in out.iter_mut().zip(ks) {
            *o = if i <= k { self.eval(i, k) } else { self.eval(k, i) };
        }
    }

    /// True when [`KernelFn::eval_many`] costs about the same for any number
    /// of entries (a whole row at once): the cache then asks it for every
    /// missing entry instead of first copying them from other cached rows.
    fn rows_at_once(&self) -> bool {
        false
    }
}

impl<F: Fn(usize, usize) -> f64> KernelFn for F {
    fn eval(&self, i: usize, j: usize) -> f64 {
        self(i, j)
    }
}

/// Why training or fitting failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SvmError {
    #[error("there are no examples to train on")]
    NoExamples,
    #[error("the label of example {index} is {value}, not +1 or -1")]
    InvalidLabel { index: usize, value: f64 },
    #[error("expected {expected} {what}, found {found}")]
    LengthMismatch { what: &'static str, expected: usize, found: usize },
    #[error("parameter {name} = {value} is invalid: it must be {must}")]
    InvalidParameter { name: &'static str, value: f64, must: &'static str },
    #[error("the kernel value K({i}, {j}) = {value} is not finite")]
    NonFiniteKernel { i: usize, j: usize, value: f64 },
    #[error("the decision value of example {index} is {value}, not a finite number")]
    NonFiniteDecision { index: usize, value: f64 },
    #[error("training was cancelled")]
    Cancelled,
}

/// Solver settings. Deserialising fills missing fields with the defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SvmParams {
    /// C+: the cost of a margin violation by a positive example.
    pub c_pos: f64,
    /// C−: the cost of a margin violation by a negative example.
    pub c_neg: f64,
    /// Stopping tolerance on the maximal KKT violation `m(α) − M(α)`.
    pub eps: f64,
    /// Set aside bounded examples unlikely to change (LIBSVM's `-h 1`).
    pub shrinking: bool,
    /// Memory budget of the kernel row cache, in MiB (at least two rows
    /// are always kept).
    pub cache_mb: f64,
    /// Iteration limit; `None` is LIBSVM's `max(10⁷, 100n)`. Reaching it is
    /// not an error: the model is returned with `stats.converged == false`.
    pub max_iter: Option<u64>,
    /// Call the progress callback every this many iterations (0: never).
    pub progress_every: u64,
}

impl Default for SvmParams {
    fn default() -> Self {
        SvmParams {
            c_pos: DEFAULT_C,
            c_neg: DEFAULT_C,
            eps: 1e-3,
            shrinking: true,
            cache_mb: 200.0,
            max_iter: None,
            progress_every: 1000,
        }
    }
}

impl SvmParams {
    /// Defaults with `C+ = C− = c`.
    pub fn with_c(c: f64) -> Self {
        SvmParams { c_pos: c, c_neg: c, ..SvmParams::default() }
    }

    /// SVMlight's cost factor `-j`: `C+ = j · C−`.
    pub fn with_cost_factor(self, j: f64) -> Self {
        SvmParams { c_pos: j * self.c_neg, ..self }
    }

    fn validate(&self) -> Result<(), SvmError> {
        check_positive(&[("c_pos", self.c_pos), ("c_neg", self.c_neg), ("eps", self.eps)])?;
        if !(self.cache_mb >= 0.0 && self.cache_mb.is_finite()) {
            return Err(SvmError::InvalidParameter { name: "cache_mb", value: self.cache_mb, must: "finite and >= 0" });
        }
        Ok(())
    }
}

/// Refuses the first of `params` (name, value) that is not positive and finite.
fn check_positive(params: &[(&'static str, f64)]) -> Result<(), SvmError> {
    match params.iter().find(|(_, v)| !(*v > 0.0 && v.is_finite())) {
        Some(&(name, value)) => Err(SvmError::InvalidParameter { name, value, must: "positive and finite" }),
        None => Ok(()),
    }
}

/// A progress report, every [`SvmParams::progress_every`] iterations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SmoProgress {
    pub iteration: u64,
    /// The maximal KKT violation over the active set; training stops below eps.
    pub max_violation: f64,
    /// Examples not shrunk.
    pub active_size: usize,
    pub kernel_evals: u64,
}

impl SmoProgress {
    /// The report as the engine's one progress contract has it: iterations
    /// done of an unknown total, and the distance from convergence (the
    /// largest KKT violation) with the tolerance `eps` it must fall below.
    pub fn progress(&self, stage: &'static str, eps: f64) -> Progress {
        Progress { stage, done: self.iteration, total: 0, gap: Some((self.max_violation, eps)) }
    }
}

/// What training cost and reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SvmStats {
    pub iterations: u64,
    /// Kernel calls, the diagonal included.
    pub kernel_evals: u64,
    /// Row requests served with no kernel call, and those that needed some.
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// Rows the cache could hold.
    pub cache_rows: usize,
    /// The dual objective `½ αᵀQα − eᵀα` at the solution (≤ 0).
    pub objective: f64,
    /// The final maximal KKT violation over all examples.
    pub max_violation: f64,
    /// False if the iteration limit stopped training.
    pub converged: bool,
    /// Support vectors, and those with α at its bound C.
    pub n_sv: usize,
    pub n_bounded_sv: usize,
}

/// A trained model: the support vectors (as training indices), their
/// coefficients `α_i y_i`, and ρ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SvmModel {
    /// Training indices of the examples with α_i > 0, increasing.
    pub sv_indices: Vec<usize>,
    /// `α_i y_i` for each support vector, in the same order.
    pub sv_coef: Vec<f64>,
    /// The decision function is `Σ sv_coef · K − rho`.
    pub rho: f64,
    pub stats: SvmStats,
}

impl SvmModel {
    /// The bias b = −ρ.
    pub fn bias(&self) -> f64 {
        -self.rho
    }

    /// The decision value `D = Σ_i α_i y_i K(sv_i, x) − ρ` of an example x,
    /// given `k_to_sv(i) = K(i, x)` for the training index `i` of each
    /// support vector (called once per support vector, in increasing order).
    pub fn decision(&self, mut k_to_sv: impl FnMut(usize) -> f64) -> f64 {
        let sum: f64 = self.sv_indices.iter().zip(&self.sv_coef).map(|(&i, &c)| c * k_to_sv(i)).sum();
        sum - self.rho
    }

    /// α for all n training examples (0 off the support vectors).
    pub fn dense_alpha(&self, n: usize) -> Vec<f64> {
        let mut alpha = vec![0.0; n];
        for (&i, &c) in self.sv_indices.iter().zip(&self.sv_coef) {
            if let Some(a) = alpha.get_mut(i) {
                *a = c.abs();
            }
        }
        alpha
    }
}

pub(crate) fn check_labels(y: &[f64]) -> Result<(), SvmError> {
    match y.iter().position(|&v| v != 1.0 && v != -1.0) {
        Some(index) => Err(SvmError::InvalidLabel { index, value: y[index] }),
        None => Ok(()),
    }
}

/// Trains a C-SVC on examples `0..y.len()` with labels `y` (±1).
pub fn train(kernel: &dyn KernelFn, y: &[f64], params: &SvmParams) -> Result<SvmModel, SvmError> {
    train_with_progress(kernel, y, params, &mut |_| ControlFlow::Continue(()))
}

/// [`train`], calling `progress` every `params.progress_every` iterations;
/// `ControlFlow::Break` cancels with [`SvmError::Cancelled`].
pub fn train_with_progress(
    kernel: &dyn KernelFn,
    y: &[f64],
    params: &SvmParams,
    progress: &mut dyn FnMut(SmoProgress) -> ControlFlow<()>,
) -> Result<SvmModel, SvmError> {
    params.validate()?;
    if y.is_empty() {
        return Err(SvmError::NoExamples);
    }
    check_labels(y)?;
    let n = y.len();
    let row_bytes = 8.0 * n as f64;
    // f64 → usize saturates, so a huge budget is just "every row".
    let max_rows = (params.cache_mb * 1024.0 * 1024.0 / row_bytes).floor() as usize;
    let mut cache = cache::QCache::new(kernel, y.iter().map(|&v| v > 0.0).collect(), max_rows)?;
    let solution = smo::Solver::new(y, params, &mut cache).solve(params, progress)?;

    let mut sv_indices = Vec::new();
    let mut sv_coef = Vec::new();
    let mut n_bounded_sv = 0;
    for (i, &a) in solution.alpha.iter().enumerate() {
        if a > 0.0 {
            sv_indices.push(i);
            sv_coef.push(y[i] * a);
            let c = if y[i] > 0.0 { params.c_pos } else { params.c_neg };
            if a >= c {
                n_bounded_sv += 1;
            }
        }
    }
    let stats = SvmStats {
        iterations: solution.iterations,
        kernel_evals: cache.kernel_evals,
        cache_hits: cache.hits,
        cache_misses: cache.misses,
        cache_rows: cache.max_rows,
        objective: solution.objective,
        max_violation: solution.max_violation,
        converged: solution.converged,
        n_sv: sv_indices.len(),
        n_bounded_sv,
    };
    Ok(SvmModel { sv_indices, sv_coef, rho: solution.rho, stats })
}

/// The dual objective `f(α) = ½ Σ_ij α_i α_j y_i y_j K(i, j) − Σ_i α_i`,
/// the quantity [`train`] minimises (so lower is better; the maximisation
/// form is its negation). Costs one kernel call per pair of nonzero α
/// (`K(i, j)` with `i <= j`). NaN if `alpha` and `y` differ in length.
pub fn dual_objective(alpha: &[f64], y: &[f64], kernel: &dyn KernelFn) -> f64 {
    if alpha.len() != y.len() {
        return f64::NAN;
    }
    let nz: Vec<usize> = (0..alpha.len()).filter(|&i| alpha[i] != 0.0).collect();
    let mut quad = 0.0;
    for (a, &i) in nz.iter().enumerate() {
        let ai = alpha[i] * y[i];
        quad += ai * ai * kernel.eval(i, i);
        for &j in &nz[a + 1..] {
            quad += 2.0 * ai * alpha[j] * y[j] * kernel.eval(i, j);
        }
    }
    0.5 * quad - nz.iter().map(|&i| alpha[i]).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_input_is_an_error_not_a_panic() {
        let k = |_: usize, _: usize| 1.0;
        let p = SvmParams::default();
        assert_eq!(train(&k, &[], &p), Err(SvmError::NoExamples));
        assert_eq!(train(&k, &[1.0, 0.5], &p), Err(SvmError::InvalidLabel { index: 1, value: 0.5 }));
        for bad in [
            SvmParams { c_pos: 0.0, ..p.clone() },
            SvmParams { c_neg: f64::NAN, ..p.clone() },
            SvmParams { eps: -1.0, ..p.clone() },
            SvmParams { cache_mb: f64::INFINITY, ..p.clone() },
        ] {
            assert!(matches!(train(&k, &[1.0, -1.0], &bad), Err(SvmError::InvalidParameter { .. })));
        }
        let nan = |i: usize, j: usize| if i != j { f64::NAN } else { 1.0 };
        assert!(matches!(train(&nan, &[1.0, -1.0], &p), Err(SvmError::NonFiniteKernel { i: 0, j: 1, .. })));
    }

    #[test]
    fn error_messages_read_as_sentences() {
        let e = SvmError::InvalidParameter { name: "c_pos", value: -1.0, must: "positive and finite" };
        assert_eq!(e.to_string(), "parameter c_pos = -1 is invalid: it must be positive and finite");
        let e = SvmError::NonFiniteKernel { i: 3, j: 7, value: f64::NAN };
        assert_eq!(e.to_string(), "the kernel value K(3, 7) = NaN is not finite");
    }

    #[test]
    fn one_class_gives_a_constant_decision_of_that_sign() {
        let k = |i: usize, j: usize| (i * j) as f64;
        for label in [1.0, -1.0] {
            let m = train(&k, &[label; 3], &SvmParams::default()).unwrap();
            assert!(m.sv_indices.is_empty());
            assert_eq!(m.decision(|_| 0.0), label);
        }
    }

    #[test]
    fn a_single_example_trains() {
        let k = |_: usize, _: usize| 4.0;
        let m = train(&k, &[1.0], &SvmParams::default()).unwrap();
        assert!(m.sv_indices.is_empty() && m.stats.converged);
    }

    #[test]
    fn cost_factor_scales_the_positive_cost() {
        let p = SvmParams::with_c(2.0).with_cost_factor(3.0);
        assert_eq!((p.c_pos, p.c_neg), (6.0, 2.0));
    }

    #[test]
    fn params_deserialise_with_defaults() {
        let p: SvmParams = serde_json::from_str(r#"{"c_pos": 5.0}"#).unwrap();
        assert_eq!(p, SvmParams { c_pos: 5.0, ..SvmParams::default() });
    }

    #[test]
    fn dual_objective_by_hand() {
        // Two points x = ±1, α = (½, ½): ½ (¼·1 + ¼·1 + 2·¼·1) − 1 = −½.
        let x = [-1.0, 1.0];
        let k = |i: usize, j: usize| x[i] * x[j];
        assert_eq!(dual_objective(&[0.5, 0.5], &[-1.0, 1.0], &k), -0.5);
        assert!(dual_objective(&[0.5], &[-1.0, 1.0], &k).is_nan());
    }
}
