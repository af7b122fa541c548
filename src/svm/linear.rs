//! Linear C-SVC by dual coordinate descent (Hsieh, Chang, Lin, Keerthi &
//! Sundararajan 2008, "A dual coordinate descent method for large-scale
//! linear SVM", ICML; Algorithm 1 with the random order of §3.1 and the
//! shrinking of §3.2, as LIBLINEAR's `-s 3` and `-s 1`).
//!
//! When the kernel's feature map is explicit, `K(i, j) = x_i·x_j` with
//! `x_i` of modest dimension, the dual
//!
//! `min_α f(α) = ½ αᵀQ̄α − eᵀα`, `0 ≤ α_i ≤ U_i`, `Q̄ = Q + D`, `Q_ij = y_i y_j x_i·x_j`,
//!
//! can be solved one coordinate at a time while keeping `w = Σ_i y_i α_i x_i`:
//! the partial derivative is `G_i = y_i w·x_i − 1 + D_ii α_i`, so a step
//! costs one dot product and one update of `w`, O(nonzeros of x_i), and an
//! epoch over n examples O(nnz) — no kernel rows, no cache. For the hinge
//! (L1) loss `D = 0` and `U_i = C_i`; for the squared hinge (L2) loss
//! `D_ii = 1/(2C_i)` and `U_i = ∞`.
//!
//! There is no equality constraint `yᵀα = 0`: the bias is an ordinary
//! feature (the caller appends a constant `B` to every `x_i`, so `b = B·w_B`
//! is regularised, as LIBLINEAR's `-B`). With the hinge loss the problem is
//! [`super::train`]'s dual without that constraint, so the (maximisation
//! form of the) objective reached is at least the SMO's.
//!
//! Each epoch visits the active examples in a seeded random order
//! ([`crate::rng::SplitMix64`]), so the result is a function of the input
//! and the seed. Shrinking sets aside an example at a bound whose gradient
//! points out of the box by more than the last epoch's largest projected
//! gradient; the run stops when the spread of projected gradients
//! `max PG − min PG` over all examples falls below `eps` (LIBLINEAR's
//! default 0.1; tighter here, see [`LinearParams`]).
//!
//! # Example
//! The four points on a line of [`super`]'s example with a bias feature
//! `B = 1`: the hinge-loss solution separates them as the SMO's does.
//! ```
//! use treelink::svm::linear::{train_linear, DenseRows, LinearParams};
//! let rows = DenseRows::new(vec![vec![0.0, 1.0], vec![1.0, 1.0], vec![2.0, 1.0], vec![3.0, 1.0]]);
//! let y = [-1.0, -1.0, 1.0, 1.0];
//! let params = LinearParams { eps: 1e-6, ..LinearParams::with_c(100.0) };
//! let model = train_linear(&rows, &y, &params).unwrap();
//! let d = |x: f64| model.w[0] * x + model.w[1];
//! assert!(d(1.0) < 0.0 && d(2.0) > 0.0 && (d(1.5)).abs() < 0.2);
//! ```

use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use super::{check_labels, SmoProgress, SvmError};
use crate::math::dot;
use crate::rng::SplitMix64;

/// Examples in an explicit feature space: what the solver reads of them.
pub trait LinearRows {
    /// Number of examples.
    fn len(&self) -> usize;
    /// Dimension of the feature space (the length of `w`).
    fn dim(&self) -> usize;
    /// `x_i · w`.
    fn dot(&self, i: usize, w: &[f64]) -> f64;
    /// `w += a · x_i`.
    fn add_to(&self, i: usize, a: f64, w: &mut [f64]);
    /// `x_i · x_i`.
    fn squared_norm(&self, i: usize) -> f64;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Dense rows (tests and small problems).
#[derive(Debug, Clone, PartialEq)]
pub struct DenseRows {
    rows: Vec<Vec<f64>>,
    dim: usize,
}

impl DenseRows {
    pub fn new(rows: Vec<Vec<f64>>) -> Self {
        let dim = rows.iter().map(Vec::len).max().unwrap_or(0);
        DenseRows { rows, dim }
    }
}

impl LinearRows for DenseRows {
    fn len(&self) -> usize {
        self.rows.len()
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn dot(&self, i: usize, w: &[f64]) -> f64 {
        dot(&self.rows[i], w)
    }
    fn add_to(&self, i: usize, a: f64, w: &mut [f64]) {
        for (wk, xk) in w.iter_mut().zip(&self.rows[i]) {
            *wk += a * xk;
        }
    }
    fn squared_norm(&self, i: usize) -> f64 {
        self.rows[i].iter().map(|v| v * v).sum()
    }
}

/// The loss of a margin violation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// `max(0, 1 − y w·x)`: the SVM of [`super::train`] (LIBLINEAR `-s 3`).
    Hinge,
    /// `max(0, 1 − y w·x)²` (LIBLINEAR `-s 1`).
    SquaredHinge,
}

/// Settings of the dual coordinate descent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinearParams {
    pub c_pos: f64,
    pub c_neg: f64,
    pub loss: Loss,
    /// Stop when `max PG − min PG` over all examples is below this.
    pub eps: f64,
    /// Epochs at most; reaching it is not an error (`converged == false`).
    pub max_epochs: u64,
    /// Seed of each epoch's visiting order.
    pub seed: u64,
    pub shrinking: bool,
}

impl Default for LinearParams {
    fn default() -> Self {
        LinearParams {
            c_pos: super::DEFAULT_C,
            c_neg: super::DEFAULT_C,
            loss: Loss::Hinge,
            eps: 0.01,
            max_epochs: 1000,
            seed: 1,
            shrinking: true,
        }
    }
}

impl LinearParams {
    /// Defaults with `C+ = C− = c`.
    pub fn with_c(c: f64) -> Self {
        LinearParams { c_pos: c, c_neg: c, ..LinearParams::default() }
    }

    fn validate(&self) -> Result<(), SvmError> {
        super::check_positive(&[("c_pos", self.c_pos), ("c_neg", self.c_neg), ("eps", self.eps)])
    }
}

/// The solution: α, the weight vector `w = Σ y_i α_i x_i`, and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearModel {
    pub alpha: Vec<f64>,
    pub w: Vec<f64>,
    pub epochs: u64,
    /// Coordinate steps taken (examples visited, shrunk ones not counted).
    pub steps: u64,
    /// `max PG − min PG` over all examples at the end.
    pub max_violation: f64,
    pub converged: bool,
    /// The dual objective `½ αᵀQ̄α − eᵀα` (lower is better).
    pub objective: f64,
}

/// Trains on `rows` with labels `y` (±1).
pub fn train_linear(rows: &dyn LinearRows, y: &[f64], params: &LinearParams) -> Result<LinearModel, SvmError> {
    train_linear_from(rows, y, params, None, &mut |_| ControlFlow::Continue(()))
}

/// [`train_linear`] from `alpha0` (each clamped into its box; `None`: all 0)
/// rather than from 0: a warm start, when a nearby problem was solved (Hsieh
/// et al. 2008 start anywhere in the box; `w` is made consistent with the
/// start), calling `progress` after every epoch (`iteration` is the epoch);
/// `ControlFlow::Break` cancels with [`SvmError::Cancelled`].
pub fn train_linear_from(
    rows: &dyn LinearRows,
    y: &[f64],
    params: &LinearParams,
    alpha0: Option<&[f64]>,
    progress: &mut dyn FnMut(SmoProgress) -> ControlFlow<()>,
) -> Result<LinearModel, SvmError> {
    params.validate()?;
    let n = y.len();
    if n == 0 {
        return Err(SvmError::NoExamples);
    }
    if rows.len() != n {
        return Err(SvmError::LengthMismatch { what: "feature rows", expected: n, found: rows.len() });
    }
    check_labels(y)?;
    let cost = |i: usize| if y[i] > 0.0 { params.c_pos } else { params.c_neg };
    // D_ii and U_i of the loss (Hsieh et al. 2008, eq. 4).
    let (diag, upper): (Vec<f64>, Vec<f64>) = (0..n)
        .map(|i| match params.loss {
            Loss::Hinge => (0.0, cost(i)),
            Loss::SquaredHinge => (0.5 / cost(i), f64::INFINITY),
        })
        .unzip();
    let qd: Vec<f64> = (0..n).map(|i| diag[i] + rows.squared_norm(i)).collect();
    if let Some(i) = qd.iter().position(|q| !q.is_finite()) {
        return Err(SvmError::NonFiniteKernel { i, j: i, value: qd[i] });
    }
    let mut alpha = vec![0.0; n];
    let mut w = vec![0.0; rows.dim()];
    if let Some(start) = alpha0.filter(|a| a.len() == n) {
        for i in 0..n {
            alpha[i] = if start[i].is_finite() { start[i].clamp(0.0, upper[i]) } else { 0.0 };
            if alpha[i] != 0.0 {
                rows.add_to(i, alpha[i] * y[i], &mut w);
            }
        }
    }
    let mut index: Vec<usize> = (0..n).collect();
    let mut active = n;
    let mut rng = SplitMix64::new(params.seed);
    // The projected-gradient bounds of the last epoch that shrinking compares with.
    let (mut pg_max_old, mut pg_min_old) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut epochs, mut steps, mut violation, mut converged) = (0u64, 0u64, f64::INFINITY, false);
    while epochs < params.max_epochs {
        let (mut pg_max, mut pg_min) = (f64::NEG_INFINITY, f64::INFINITY);
        // A seeded random permutation of the active examples (§3.1).
        for s in 0..active {
            let j = s + (rng.next_u64() % (active - s) as u64) as usize;
            index.swap(s, j);
        }
        let mut s = 0;
        while s < active {
            let i = index[s];
            steps += 1;
            let g = y[i] * rows.dot(i, &w) - 1.0 + diag[i] * alpha[i];
            // The projected gradient; at a bound whose gradient points out
            // of the box by more than last epoch's spread, shrink (§3.2).
            let pg = if alpha[i] == 0.0 {
                if params.shrinking && g > pg_max_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                }
                g.min(0.0)
            } else if alpha[i] >= upper[i] {
                if params.shrinking && g < pg_min_old {
                    active -= 1;
                    index.swap(s, active);
                    continue;
                }
                g.max(0.0)
            } else {
                g
            };
            pg_max = pg_max.max(pg);
            pg_min = pg_min.min(pg);
            if pg.abs() > 1e-12 {
                let old = alpha[i];
                alpha[i] = if qd[i] > 0.0 { (old - g / qd[i]).clamp(0.0, upper[i]) } else { upper[i] };
                if !alpha[i].is_finite() {
                    return Err(SvmError::NonFiniteDecision { index: i, value: g });
                }
                rows.add_to(i, (alpha[i] - old) * y[i], &mut w);
            }
            s += 1;
        }
        epochs += 1;
        violation = if active == 0 { 0.0 } else { pg_max - pg_min };
        let report = SmoProgress { iteration: epochs, max_violation: violation, active_size: active, kernel_evals: 0 };
        if progress(report).is_break() {
            return Err(SvmError::Cancelled);
        }
        if violation <= params.eps {
            if active == n {
                converged = true;
                break;
            }
            // Optimal on the active set: check all examples once more.
            active = n;
            (pg_max_old, pg_min_old) = (f64::INFINITY, f64::NEG_INFINITY);
            continue;
        }
        pg_max_old = if pg_max <= 0.0 { f64::INFINITY } else { pg_max };
        pg_min_old = if pg_min >= 0.0 { f64::NEG_INFINITY } else { pg_min };
    }
    let objective = 0.5 * w.iter().map(|v| v * v).sum::<f64>()
        + (0..n).map(|i| 0.5 * diag[i] * alpha[i] * alpha[i] - alpha[i]).sum::<f64>();
    Ok(LinearModel { alpha, w, epochs, steps, max_violation: violation, converged, objective })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svm::{dual_objective, train, SvmParams};

    /// Random points in `dim` dimensions, labelled by a random hyperplane
    /// through the origin with some label noise when `noisy`.
    fn problem(seed: u64, n: usize, dim: usize, noisy: bool) -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut rng = SplitMix64::new(seed);
        let normal: Vec<f64> = (0..dim).map(|_| rng.symmetric()).collect();
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for _ in 0..n {
            let x: Vec<f64> = (0..dim).map(|_| rng.symmetric()).collect();
            let side = dot(&x, &normal);
            let flip = noisy && rng.symmetric() > 0.7;
            ys.push(if (side > 0.0) != flip { 1.0 } else { -1.0 });
            xs.push(x);
        }
        (xs, ys)
    }

    fn linear_kernel(xs: &[Vec<f64>]) -> impl Fn(usize, usize) -> f64 + '_ {
        move |i, j| dot(&xs[i], &xs[j])
    }

    #[test]
    fn the_objective_reached_is_at_least_the_smos() {
        // The same dual without yᵀα = 0: a larger feasible set, so the
        // minimum reached is at most the SMO's (the maximum at least).
        for seed in 0..6 {
            let (xs, y) = problem(seed, 30, 3, seed % 2 == 0);
            let params = LinearParams { eps: 1e-9, ..LinearParams::with_c(1.5) };
            let dcd = train_linear(&DenseRows::new(xs.clone()), &y, &params).unwrap();
            assert!(dcd.converged);
            let k = linear_kernel(&xs);
            let smo = train(&k, &y, &SvmParams { eps: 1e-9, ..SvmParams::with_c(1.5) }).unwrap();
            let smo_objective = dual_objective(&smo.dense_alpha(y.len()), &y, &k);
            let dcd_objective = dual_objective(&dcd.alpha, &y, &k);
            assert!((dcd_objective - dcd.objective).abs() < 1e-9, "the reported objective is the dual's");
            assert!(dcd_objective <= smo_objective + 1e-6, "seed {seed}: {dcd_objective} > {smo_objective}");
        }
    }

    #[test]
    fn the_solution_meets_the_kkt_conditions() {
        for loss in [Loss::Hinge, Loss::SquaredHinge] {
            let (xs, y) = problem(9, 40, 4, true);
            let params = LinearParams { eps: 1e-8, loss, c_pos: 3.0, ..LinearParams::with_c(0.7) };
            let rows = DenseRows::new(xs.clone());
            let m = train_linear(&rows, &y, &params).unwrap();
            // w is Σ y_i α_i x_i.
            let mut w = vec![0.0; 4];
            for (i, (yi, a)) in y.iter().zip(&m.alpha).enumerate() {
                rows.add_to(i, yi * a, &mut w);
            }
            assert!(w.iter().zip(&m.w).all(|(a, b)| (a - b).abs() < 1e-9));
            for (i, &a) in m.alpha.iter().enumerate() {
                let c = if y[i] > 0.0 { 3.0 } else { 0.7 };
                let (d, u) = match loss {
                    Loss::Hinge => (0.0, c),
                    Loss::SquaredHinge => (0.5 / c, f64::INFINITY),
                };
                let g = y[i] * rows.dot(i, &m.w) - 1.0 + d * a;
                assert!((0.0..=u).contains(&a));
                if a == 0.0 {
                    assert!(g > -1e-6, "{loss:?} {i}: α = 0 needs G ≥ 0, G = {g}");
                } else if a >= u {
                    assert!(g < 1e-6, "{loss:?} {i}: α = C needs G ≤ 0, G = {g}");
                } else {
                    assert!(g.abs() < 1e-6, "{loss:?} {i}: a free α needs G = 0, G = {g}");
                }
            }
        }
    }

    #[test]
    fn on_a_symmetric_separable_set_the_decisions_equal_the_smos() {
        // Each point has its mirror image with the other label, so the SMO's
        // bias is 0 and both solve the same hard-margin problem.
        let (half, hy) = problem(4, 12, 2, false);
        let xs: Vec<Vec<f64>> =
            half.iter().cloned().chain(half.iter().map(|x| x.iter().map(|v| -v).collect())).collect();
        let y: Vec<f64> = hy.iter().copied().chain(hy.iter().map(|v| -v)).collect();
        let params = LinearParams { eps: 1e-10, ..LinearParams::with_c(1e4) };
        let dcd = train_linear(&DenseRows::new(xs.clone()), &y, &params).unwrap();
        let k = linear_kernel(&xs);
        let smo = train(&k, &y, &SvmParams { eps: 1e-10, ..SvmParams::with_c(1e4) }).unwrap();
        assert!(smo.rho.abs() < 1e-6);
        let mut rng = SplitMix64::new(11);
        for _ in 0..20 {
            let x = [2.0 * rng.symmetric(), 2.0 * rng.symmetric()];
            let d_dcd = dcd.w[0] * x[0] + dcd.w[1] * x[1];
            let d_smo = smo.decision(|sv| xs[sv][0] * x[0] + xs[sv][1] * x[1]);
            assert!((d_dcd - d_smo).abs() < 1e-4, "{d_dcd} vs {d_smo}");
        }
    }

    #[test]
    fn same_seed_same_model_and_the_seed_only_changes_the_path() {
        let (xs, y) = problem(2, 60, 5, true);
        let rows = DenseRows::new(xs);
        let p = LinearParams::with_c(1.0);
        let a = train_linear(&rows, &y, &p).unwrap();
        assert_eq!(a, train_linear(&rows, &y, &p).unwrap());
        let b = train_linear(&rows, &y, &LinearParams { seed: 2, ..p.clone() }).unwrap();
        assert_ne!(a.alpha, b.alpha, "another order takes another path");
        assert!((a.objective - b.objective).abs() < 1e-2 * a.objective.abs());
    }

    #[test]
    fn shrinking_changes_the_work_not_the_solution() {
        let (xs, y) = problem(5, 200, 3, true);
        let rows = DenseRows::new(xs);
        let p = LinearParams { eps: 1e-6, ..LinearParams::with_c(1.0) };
        let with = train_linear(&rows, &y, &p).unwrap();
        let without = train_linear(&rows, &y, &LinearParams { shrinking: false, ..p }).unwrap();
        let (a, b) = (with.objective, without.objective);
        assert!((a - b).abs() < 1e-4 * b.abs(), "{a} vs {b}");
        assert!(with.steps < without.steps, "{} vs {}", with.steps, without.steps);
    }

    #[test]
    fn bad_input_is_an_error() {
        let rows = DenseRows::new(vec![vec![1.0], vec![2.0]]);
        let p = LinearParams::default();
        assert_eq!(train_linear(&rows, &[], &p), Err(SvmError::NoExamples));
        assert!(matches!(train_linear(&rows, &[1.0], &p), Err(SvmError::LengthMismatch { .. })));
        assert!(matches!(train_linear(&rows, &[1.0, 0.0], &p), Err(SvmError::InvalidLabel { index: 1, .. })));
        let bad = LinearParams { eps: 0.0, ..p };
        assert!(matches!(train_linear(&rows, &[1.0, -1.0], &bad), Err(SvmError::InvalidParameter { .. })));
    }
}
