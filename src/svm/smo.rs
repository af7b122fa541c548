//! Sequential minimal optimisation for C-SVC, after LIBSVM's `Solver`
//! (Fan, Chen & Lin 2005; Chang & Lin 2011, §4-5).
//!
//! It minimises the dual `f(α) = ½ αᵀQα − eᵀα` subject to `yᵀα = 0` and
//! `0 ≤ α_i ≤ C_i`, where `Q_ij = y_i y_j K(i, j)` and `C_i` is `C+` or `C−`
//! by the class of example i. Each iteration:
//! 1. selects a working pair (i, j) by WSS3: i maximises the violation
//!    `−y_i ∇f_i` over `I_up`, j maximises the second-order decrease
//!    `(−y_i∇f_i + y_j∇f_j)² / (K_ii + K_jj − 2K_ij)` over `I_low`;
//! 2. solves the two-variable sub-problem analytically and clips to the box;
//! 3. updates the gradient `G = ∇f = Qα − e` with rows i and j of Q, and
//!    `Ḡ_k = Σ_{α_l = C_l} C_l Q_lk` when i or j enters or leaves the upper
//!    bound (Ḡ lets the gradient of shrunk examples be rebuilt cheaply).
//!
//! It stops when the maximal violation `m(α) − M(α)` is below `eps`.
//! Shrinking sets aside examples at a bound that are unlikely to move; before
//! stopping the gradient of those is reconstructed and the optimality checked
//! over all examples. Ties in every selection go to the smallest example index.

use std::ops::ControlFlow;

use super::cache::QCache;
use super::{SmoProgress, SvmError, SvmParams};

/// LIBSVM's TAU: the curvature used when `K_ii + K_jj − 2K_ij ≤ 0`.
const TAU: f64 = 1e-12;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Lower,
    Upper,
    Free,
}

pub(crate) struct Solution {
    pub alpha: Vec<f64>,
    pub rho: f64,
    pub objective: f64,
    pub iterations: u64,
    pub max_violation: f64,
    pub converged: bool,
}

pub(crate) struct Solver<'c, 'k> {
    n: usize,
    /// y_i as ±1.
    y: Vec<f64>,
    /// C_i: C+ or C− by class.
    c: Vec<f64>,
    alpha: Vec<f64>,
    bound: Vec<Bound>,
    /// ∇f(α) = Qα − e, exact over the active set.
    g: Vec<f64>,
    /// Ḡ_k = Σ over upper-bounded l of C_l Q_lk.
    g_bar: Vec<f64>,
    /// Active (unshrunk) examples in increasing order, and its epoch.
    active: Vec<usize>,
    epoch: u64,
    unshrunk: bool,
    cache: &'c mut QCache<'k>,
    eps: f64,
    /// m(α) − M(α) over the active set at the last selection.
    violation: f64,
}

impl<'c, 'k> Solver<'c, 'k> {
    pub(crate) fn new(y: &[f64], params: &SvmParams, cache: &'c mut QCache<'k>) -> Self {
        let n = y.len();
        let c = y.iter().map(|&yi| if yi > 0.0 { params.c_pos } else { params.c_neg }).collect();
        Solver {
            n,
            y: y.to_vec(),
            c,
            alpha: vec![0.0; n],
            bound: vec![Bound::Lower; n],
            g: vec![-1.0; n],
            g_bar: vec![0.0; n],
            active: (0..n).collect(),
            epoch: 1,
            unshrunk: false,
            cache,
            eps: params.eps,
            violation: f64::INFINITY,
        }
    }

    fn status(&self, i: usize) -> Bound {
        if self.alpha[i] >= self.c[i] {
            Bound::Upper
        } else if self.alpha[i] <= 0.0 {
            Bound::Lower
        } else {
            Bound::Free
        }
    }

    fn in_up(&self, t: usize) -> bool {
        if self.y[t] > 0.0 {
            self.bound[t] != Bound::Upper
        } else {
            self.bound[t] != Bound::Lower
        }
    }

    fn in_low(&self, t: usize) -> bool {
        if self.y[t] > 0.0 {
            self.bound[t] != Bound::Lower
        } else {
            self.bound[t] != Bound::Upper
        }
    }

    pub(crate) fn solve(
        mut self,
        params: &SvmParams,
        progress: &mut dyn FnMut(SmoProgress) -> ControlFlow<()>,
    ) -> Result<Solution, SvmError> {
        let max_iter = params.max_iter.unwrap_or_else(|| (self.n as u64).saturating_mul(100).max(10_000_000));
        let every = self.n.min(1000);
        let mut counter = every + 1;
        let mut iter: u64 = 0;
        let mut converged = false;
        while iter < max_iter {
            counter -= 1;
            if counter == 0 {
                counter = every;
                if params.shrinking {
                    self.shrink()?;
                }
            }
            let pair = match self.select_working_set()? {
                Some(p) => p,
                None => {
                    // Optimal on the active set: check all examples.
                    self.unshrink()?;
                    match self.select_working_set()? {
                        Some(p) => {
                            counter = 1;
                            p
                        }
                        None => {
                            converged = true;
                            break;
                        }
                    }
                }
            };
            iter += 1;
            if params.progress_every > 0 && iter.is_multiple_of(params.progress_every) {
                let report = SmoProgress {
                    iteration: iter,
                    max_violation: self.violation,
                    active_size: self.active.len(),
                    kernel_evals: self.cache.kernel_evals,
                };
                if progress(report).is_break() {
                    return Err(SvmError::Cancelled);
                }
            }
            self.update_pair(pair.0, pair.1)?;
        }
        if !converged {
            self.unshrink()?;
            // Report the final violation over all examples.
            let _ = self.select_working_set()?;
        }
        let rho = self.rho();
        let objective = self.alpha.iter().zip(&self.g).map(|(a, g)| a * (g - 1.0)).sum::<f64>() / 2.0;
        Ok(Solution {
            alpha: self.alpha,
            rho,
            objective,
            iterations: iter,
            max_violation: self.violation.max(0.0),
            converged,
        })
    }

    /// WSS3 (Fan, Chen & Lin 2005, WSS 2 with TAU); `None` when the active
    /// set is `eps`-optimal.
    fn select_working_set(&mut self) -> Result<Option<(usize, usize)>, SvmError> {
        // i = argmax over I_up of −y_t ∇f_t.
        let mut gmax = f64::NEG_INFINITY;
        let mut i = usize::MAX;
        for &t in &self.active {
            if self.in_up(t) {
                let v = -self.y[t] * self.g[t];
                if v > gmax {
                    gmax = v;
                    i = t;
                }
            }
        }
        // M(α) = min over I_low of −y_t ∇f_t, tracked as gmax2 = −M.
        let mut gmax2 = f64::NEG_INFINITY;
        let mut j = usize::MAX;
        let mut obj_diff_min = f64::INFINITY;
        let row_i =
            if i != usize::MAX { Some(self.cache.row_active(i, &self.active, self.epoch, usize::MAX)?) } else { None };
        let qd = &self.cache.diag;
        for &t in &self.active {
            if !self.in_low(t) {
                continue;
            }
            let v = self.y[t] * self.g[t];
            if v > gmax2 {
                gmax2 = v;
            }
            let grad_diff = gmax + v;
            if let (Some(s), true) = (row_i, grad_diff > 0.0) {
                // K_ii + K_jj − 2K_ij, with K_ij = y_i y_t Q_it.
                let quad = qd[i] + qd[t] - 2.0 * self.y[i] * self.y[t] * self.cache.get(s)[t];
                let obj_diff = -(grad_diff * grad_diff) / if quad > 0.0 { quad } else { TAU };
                if obj_diff < obj_diff_min {
                    obj_diff_min = obj_diff;
                    j = t;
                }
            }
        }
        self.violation = gmax + gmax2;
        if self.violation < self.eps || j == usize::MAX {
            return Ok(None);
        }
        Ok(Some((i, j)))
    }

    /// The analytic two-variable step (LIBSVM `Solver::Solve`), then the
    /// gradient updates.
    fn update_pair(&mut self, i: usize, j: usize) -> Result<(), SvmError> {
        let si = self.cache.row_active(i, &self.active, self.epoch, usize::MAX)?;
        let sj = self.cache.row_active(j, &self.active, self.epoch, si)?;
        let (c_i, c_j) = (self.c[i], self.c[j]);
        let (old_i, old_j) = (self.alpha[i], self.alpha[j]);
        let q_ij = self.cache.get(si)[j];
        let (qd_i, qd_j) = (self.cache.diag[i], self.cache.diag[j]);
        let (mut a_i, mut a_j) = (old_i, old_j);
        if self.y[i] != self.y[j] {
            let quad = qd_i + qd_j + 2.0 * q_ij;
            let delta = (-self.g[i] - self.g[j]) / if quad > 0.0 { quad } else { TAU };
            let diff = a_i - a_j;
            a_i += delta;
            a_j += delta;
            if diff > 0.0 {
                if a_j < 0.0 {
                    a_j = 0.0;
                    a_i = diff;
                }
            } else if a_i < 0.0 {
                a_i = 0.0;
                a_j = -diff;
            }
            if diff > c_i - c_j {
                if a_i > c_i {
                    a_i = c_i;
                    a_j = c_i - diff;
                }
            } else if a_j > c_j {
                a_j = c_j;
                a_i = c_j + diff;
            }
        } else {
            let quad = qd_i + qd_j - 2.0 * q_ij;
            let delta = (self.g[i] - self.g[j]) / if quad > 0.0 { quad } else { TAU };
            let sum = a_i + a_j;
            a_i -= delta;
            a_j += delta;
            if sum > c_i {
                if a_i > c_i {
                    a_i = c_i;
                    a_j = sum - c_i;
                }
            } else if a_j < 0.0 {
                a_j = 0.0;
                a_i = sum;
            }
            if sum > c_j {
                if a_j > c_j {
                    a_j = c_j;
                    a_i = sum - c_j;
                }
            } else if a_i < 0.0 {
                a_i = 0.0;
                a_j = sum;
            }
        }
        self.alpha[i] = a_i;
        self.alpha[j] = a_j;
        let (d_i, d_j) = (a_i - old_i, a_j - old_j);
        {
            let (row_i, row_j) = (self.cache.get(si), self.cache.get(sj));
            for &k in &self.active {
                self.g[k] += row_i[k] * d_i + row_j[k] * d_j;
            }
        }
        for (t, c_t) in [(i, c_i), (j, c_j)] {
            let was_upper = self.bound[t] == Bound::Upper;
            self.bound[t] = self.status(t);
            let is_upper = self.bound[t] == Bound::Upper;
            if was_upper != is_upper {
                let s = self.cache.row_full(t)?;
                let row = self.cache.get(s);
                let sign = if was_upper { -c_t } else { c_t };
                for (gb, q) in self.g_bar.iter_mut().zip(row) {
                    *gb += sign * q;
                }
            }
        }
        Ok(())
    }

    /// Rebuilds ∇f of the shrunk examples from Ḡ and the free α, then makes
    /// every example active again (LIBSVM `reconstruct_gradient`).
    fn unshrink(&mut self) -> Result<(), SvmError> {
        if self.active.len() == self.n {
            return Ok(());
        }
        let mut is_active = vec![false; self.n];
        for &t in &self.active {
            is_active[t] = true;
        }
        let inactive: Vec<usize> = (0..self.n).filter(|&t| !is_active[t]).collect();
        for &t in &inactive {
            self.g[t] = self.g_bar[t] - 1.0;
        }
        let free: Vec<usize> = self.active.iter().copied().filter(|&t| self.bound[t] == Bound::Free).collect();
        // Visit whichever side needs fewer kernel rows filled.
        if free.len() * self.n > 2 * self.active.len() * inactive.len() {
            for &t in &inactive {
                let s = self.cache.row_at(t, &free)?;
                let row = self.cache.get(s);
                self.g[t] += free.iter().map(|&f| self.alpha[f] * row[f]).sum::<f64>();
            }
        } else {
            for &f in &free {
                let s = self.cache.row_at(f, &inactive)?;
                let row = self.cache.get(s);
                for &t in &inactive {
                    self.g[t] += self.alpha[f] * row[t];
                }
            }
        }
        self.active = (0..self.n).collect();
        self.epoch += 1;
        Ok(())
    }

    /// LIBSVM `do_shrinking`: drop bounded examples whose violation is
    /// beyond the current extremes; unshrink once, when close to optimal.
    fn shrink(&mut self) -> Result<(), SvmError> {
        let mut gmax1 = f64::NEG_INFINITY; // max over I_up of −y∇f
        let mut gmax2 = f64::NEG_INFINITY; // max over I_low of y∇f
        for &t in &self.active {
            let v = -self.y[t] * self.g[t];
            if self.in_up(t) {
                gmax1 = gmax1.max(v);
            }
            if self.in_low(t) {
                gmax2 = gmax2.max(-v);
            }
        }
        if !self.unshrunk && gmax1 + gmax2 <= self.eps * 10.0 {
            self.unshrunk = true;
            self.unshrink()?;
        }
        let keep: Vec<usize> = self.active.iter().copied().filter(|&t| !self.be_shrunk(t, gmax1, gmax2)).collect();
        self.active = keep;
        Ok(())
    }

    fn be_shrunk(&self, t: usize, gmax1: f64, gmax2: f64) -> bool {
        let g = self.g[t];
        match (self.bound[t], self.y[t] > 0.0) {
            (Bound::Upper, true) => -g > gmax1,
            (Bound::Upper, false) => -g > gmax2,
            (Bound::Lower, true) => g > gmax2,
            (Bound::Lower, false) => g > gmax1,
            (Bound::Free, _) => false,
        }
    }

    /// ρ: the mean of y∇f over free examples, else the middle of the
    /// feasible interval (LIBSVM `calculate_rho`).
    fn rho(&self) -> f64 {
        let (mut ub, mut lb) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut n_free, mut sum_free) = (0usize, 0.0);
        for t in 0..self.n {
            let yg = self.y[t] * self.g[t];
            match (self.bound[t], self.y[t] > 0.0) {
                (Bound::Upper, false) | (Bound::Lower, true) => ub = ub.min(yg),
                (Bound::Upper, true) | (Bound::Lower, false) => lb = lb.max(yg),
                (Bound::Free, _) => {
                    n_free += 1;
                    sum_free += yg;
                }
            }
        }
        if n_free > 0 {
            sum_free / n_free as f64
        } else if ub.is_finite() && lb.is_finite() {
            (ub + lb) / 2.0
        } else if ub.is_finite() {
            // One class only: every α is 0 and all examples lie on one side.
            ub
        } else {
            lb
        }
    }
}
