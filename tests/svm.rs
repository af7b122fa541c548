//! The SMO solver against an exact brute-force solution of the dual QP, a
//! hand-computed margin, shrinking and cache invariance, Platt fitting on a
//! known sigmoid, determinism and cancellation.
//!
//! `cargo test --release --test svm -- --nocapture` prints timings on a
//! 2000-example RBF problem.
#![cfg(not(target_arch = "wasm32"))] // proptest runs natively

use std::cell::Cell;
use std::ops::ControlFlow;
use std::time::Instant;

use proptest::prelude::*;
use treelink::svm::{
    dual_objective, fit_platt, train, train_with_progress, PolyKernel, Posterior, SmoProgress, SvmError, SvmModel,
    SvmParams,
};

/// Marsaglia's xorshift64, so the data do not depend on a crate's RNG.
struct XorShift(u64);

impl XorShift {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

type Point = [f64; 2];

fn linear(a: Point, b: Point) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn rbf(gamma: f64) -> impl Fn(Point, Point) -> f64 {
    move |a, b| (-gamma * ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2))).exp()
}

fn gram(points: &[Point], k: &dyn Fn(Point, Point) -> f64) -> Vec<Vec<f64>> {
    points.iter().map(|&a| points.iter().map(|&b| k(a, b)).collect()).collect()
}

fn params(c_pos: f64, c_neg: f64, eps: f64) -> SvmParams {
    SvmParams { c_pos, c_neg, eps, ..SvmParams::default() }
}

fn train_gram(k: &[Vec<f64>], y: &[f64], p: &SvmParams) -> SvmModel {
    train(&|i: usize, j: usize| k[i][j], y, p).unwrap()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// when a pivot is (numerically) zero.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let m = b.len();
    let scale = a.iter().flatten().fold(0.0f64, |s, v| s.max(v.abs())).max(1.0);
    for col in 0..m {
        let piv = (col..m).max_by(|&r, &s| a[r][col].abs().total_cmp(&a[s][col].abs()))?;
        if a[piv][col].abs() < 1e-10 * scale {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        let pivot_row = a[col].clone();
        for r in col + 1..m {
            let f = a[r][col] / pivot_row[col];
            for (x, p) in a[r][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = vec![0.0; m];
    for r in (0..m).rev() {
        let s: f64 = (r + 1..m).map(|c| a[r][c] * x[c]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

/// The exact minimum of `½αᵀQα − eᵀα` s.t. `yᵀα = 0`, `0 ≤ α ≤ C`, by
/// enumerating which variables sit at 0, at C, or are free (3ⁿ cases) and
/// solving the KKT equations of each case:
/// `Q_FF α_F + ν y_F = e − Q_FU C_U`, `y_Fᵀ α_F = −y_Uᵀ C_U`.
/// Some optimum has a free set whose KKT matrix is nonsingular (move along a
/// null direction, which keeps the objective, until a variable hits a bound),
/// so the least objective over the feasible cases is the optimum.
fn brute_force(k: &[Vec<f64>], y: &[f64], c_pos: f64, c_neg: f64) -> (f64, Vec<f64>) {
    let n = y.len();
    let c: Vec<f64> = y.iter().map(|&v| if v > 0.0 { c_pos } else { c_neg }).collect();
    let q = |i: usize, j: usize| y[i] * y[j] * k[i][j];
    let objective = |a: &[f64]| {
        let mut s = 0.0;
        for i in 0..n {
            for j in 0..n {
                s += a[i] * a[j] * q(i, j);
            }
        }
        0.5 * s - a.iter().sum::<f64>()
    };
    let mut best = (f64::INFINITY, vec![]);
    for code in 0..3usize.pow(n as u32) {
        let mut state = vec![0u8; n]; // 0: at 0, 1: at C, 2: free
        let mut rest = code;
        for s in state.iter_mut() {
            *s = (rest % 3) as u8;
            rest /= 3;
        }
        let mut alpha: Vec<f64> = (0..n).map(|i| if state[i] == 1 { c[i] } else { 0.0 }).collect();
        let free: Vec<usize> = (0..n).filter(|&i| state[i] == 2).collect();
        let upper_sum: f64 = (0..n).filter(|&i| state[i] == 1).map(|i| y[i] * c[i]).sum();
        if free.is_empty() {
            if upper_sum.abs() > 1e-12 {
                continue;
            }
        } else {
            let m = free.len();
            let mut a = vec![vec![0.0; m + 1]; m + 1];
            let mut b = vec![0.0; m + 1];
            for (r, &i) in free.iter().enumerate() {
                for (s, &j) in free.iter().enumerate() {
                    a[r][s] = q(i, j);
                }
                a[r][m] = y[i];
                a[m][r] = y[i];
                b[r] = 1.0 - (0..n).filter(|&j| state[j] == 1).map(|j| q(i, j) * c[j]).sum::<f64>();
            }
            b[m] = -upper_sum;
            let Some(x) = solve(a, b) else { continue };
            if free.iter().zip(&x).any(|(&i, &v)| v < -1e-9 || v > c[i] + 1e-9) {
                continue;
            }
            for (&i, &v) in free.iter().zip(&x) {
                alpha[i] = v.clamp(0.0, c[i]);
            }
        }
        let f = objective(&alpha);
        if f < best.0 {
            best = (f, alpha);
        }
    }
    best
}

/// ρ for a dual solution, by LIBSVM's rule (mean over free α, else the middle
/// of the feasible interval), computed independently of the solver.
fn rho_of(k: &[Vec<f64>], y: &[f64], alpha: &[f64], c_pos: f64, c_neg: f64) -> f64 {
    let n = y.len();
    let (mut ub, mut lb, mut sum, mut count) = (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0);
    for i in 0..n {
        let c = if y[i] > 0.0 { c_pos } else { c_neg };
        let yg: f64 = (0..n).map(|j| alpha[j] * y[j] * k[i][j]).sum::<f64>() - y[i];
        let tol = 1e-9;
        if alpha[i] > tol && alpha[i] < c - tol {
            sum += yg;
            count += 1;
        } else if (alpha[i] >= c - tol) == (y[i] < 0.0) {
            ub = ub.min(yg);
        } else {
            lb = lb.max(yg);
        }
    }
    if count > 0 {
        sum / count as f64
    } else {
        (ub + lb) / 2.0
    }
}

/// Trains on a tiny problem and checks the SMO optimum against brute force:
/// equal objective, a feasible α, and the same decision signs wherever the
/// decision is not within 1e-3 of 0.
fn check_against_brute_force(points: &[Point], y: &[f64], k: &dyn Fn(Point, Point) -> f64, c_pos: f64, c_neg: f64) {
    let g = gram(points, k);
    let model = train_gram(&g, y, &params(c_pos, c_neg, 1e-10));
    let (best, alpha_bf) = brute_force(&g, y, c_pos, c_neg);
    let obj = model.stats.objective;
    assert!(model.stats.converged);
    assert!((obj - best).abs() <= 1e-6 * best.abs().max(1.0), "SMO objective {obj} vs brute force {best}");

    let alpha = model.dense_alpha(y.len());
    let kernel = |i: usize, j: usize| g[i][j];
    assert!((dual_objective(&alpha, y, &kernel) - obj).abs() < 1e-9);
    let balance: f64 = alpha.iter().zip(y).map(|(a, y)| a * y).sum();
    assert!(balance.abs() < 1e-9, "yᵀα = {balance}");
    for (i, &a) in alpha.iter().enumerate() {
        let c = if y[i] > 0.0 { c_pos } else { c_neg };
        assert!((0.0..=c).contains(&a), "α_{i} = {a} outside [0, {c}]");
    }

    let rho_bf = rho_of(&g, y, &alpha_bf, c_pos, c_neg);
    // The training points and a grid around them.
    let mut probes: Vec<Point> = points.to_vec();
    for gx in -4..=4 {
        for gy in -4..=4 {
            probes.push([gx as f64 * 0.75, gy as f64 * 0.75]);
        }
    }
    for p in probes {
        let d_smo = model.decision(|sv| k(points[sv], p));
        let d_bf: f64 = (0..y.len()).map(|j| alpha_bf[j] * y[j] * k(points[j], p)).sum::<f64>() - rho_bf;
        if d_bf.abs() > 1e-3 {
            assert_eq!(d_smo > 0.0, d_bf > 0.0, "sign at {p:?}: SMO {d_smo} vs brute force {d_bf}");
        }
    }
}

const OVERLAP: [Point; 6] = [[0.0, 0.0], [1.0, 0.5], [2.0, 1.0], [0.5, 1.5], [1.5, -0.5], [2.5, 2.0]];
const OVERLAP_Y: [f64; 6] = [-1.0, 1.0, 1.0, -1.0, -1.0, 1.0];

const XOR: [Point; 8] =
    [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0], [0.2, 0.1], [0.9, 1.2], [-0.1, 0.8], [1.1, 0.1]];
const XOR_Y: [f64; 8] = [1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0];

const RING: [Point; 7] = [[0.0, 0.0], [0.3, -0.2], [1.5, 0.0], [0.0, 1.6], [-1.4, 0.2], [0.1, -1.5], [-0.2, 0.4]];
const RING_Y: [f64; 7] = [1.0, 1.0, -1.0, -1.0, -1.0, -1.0, 1.0];

#[test]
fn linear_kernel_matches_brute_force() {
    check_against_brute_force(&OVERLAP, &OVERLAP_Y, &linear, 1.0, 1.0);
    check_against_brute_force(&OVERLAP, &OVERLAP_Y, &linear, 10.0, 10.0);
    check_against_brute_force(&OVERLAP, &OVERLAP_Y, &linear, 2.0, 0.5);
    check_against_brute_force(&OVERLAP[..5], &OVERLAP_Y[..5], &linear, 0.3, 4.0);
}

#[test]
fn rbf_kernel_matches_brute_force() {
    check_against_brute_force(&XOR, &XOR_Y, &rbf(0.5), 1.0, 1.0);
    check_against_brute_force(&XOR, &XOR_Y, &rbf(2.0), 3.0, 0.7);
    check_against_brute_force(&RING, &RING_Y, &rbf(1.0), 2.4, 2.4);
}

#[test]
fn polynomial_kernels_match_brute_force() {
    let poly = |a: Point, b: Point| PolyKernel::default().eval(&a, &b);
    let normalised = |a: Point, b: Point| PolyKernel::default().normalised(&a, &b);
    check_against_brute_force(&RING, &RING_Y, &poly, 5.0, 1.0);
    check_against_brute_force(&XOR, &XOR_Y, &poly, 1.0, 1.0);
    check_against_brute_force(&RING, &RING_Y, &normalised, 2.4, 2.4);
    check_against_brute_force(&OVERLAP, &OVERLAP_Y, &normalised, 0.8, 6.0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn random_tiny_problems_match_brute_force(
        pts in prop::collection::vec(((-2.0f64..2.0), (-2.0f64..2.0), any::<bool>()), 2..=7),
        gamma in 0.1f64..3.0,
        c_pos in 0.1f64..10.0,
        c_neg in 0.1f64..10.0,
        use_rbf in any::<bool>(),
    ) {
        let points: Vec<Point> = pts.iter().map(|&(a, b, _)| [a, b]).collect();
        let y: Vec<f64> = pts.iter().map(|&(_, _, l)| if l { 1.0 } else { -1.0 }).collect();
        if use_rbf {
            check_against_brute_force(&points, &y, &rbf(gamma), c_pos, c_neg);
        } else {
            check_against_brute_force(&points, &y, &linear, c_pos, c_neg);
        }
    }
}

/// Six separable points; the closest pair across the classes is (1,1) and
/// (0,0), so the hard-margin hyperplane bisects them: w = (1,1), b = −1,
/// margin 2/|w| = √2, α = 1 on both and 0 elsewhere, dual objective
/// ½|w|² − Σα = −1.
#[test]
fn separable_toy_set_has_the_hand_computed_margin() {
    let points: [Point; 6] = [[1.0, 1.0], [2.0, 3.0], [3.0, 0.0], [0.0, 0.0], [-1.0, 0.0], [0.0, -2.0]];
    let y = [1.0, 1.0, 1.0, -1.0, -1.0, -1.0];
    let g = gram(&points, &linear);
    let model = train_gram(&g, &y, &params(1000.0, 1000.0, 1e-10));
    assert_eq!(model.sv_indices, vec![0, 3]);
    assert!((model.sv_coef[0] - 1.0).abs() < 1e-8 && (model.sv_coef[1] + 1.0).abs() < 1e-8);
    let w = model
        .sv_indices
        .iter()
        .zip(&model.sv_coef)
        .fold([0.0, 0.0], |w, (&i, &c)| [w[0] + c * points[i][0], w[1] + c * points[i][1]]);
    assert!((w[0] - 1.0).abs() < 1e-8 && (w[1] - 1.0).abs() < 1e-8, "w = {w:?}");
    assert!((model.bias() + 1.0).abs() < 1e-8, "b = {}", model.bias());
    let margin = 2.0 / (w[0] * w[0] + w[1] * w[1]).sqrt();
    assert!((margin - 2f64.sqrt()).abs() < 1e-8);
    assert!((model.stats.objective + 1.0).abs() < 1e-8);
    // The support vectors sit on the margin: D = ±1.
    for (&i, expect) in model.sv_indices.iter().zip([1.0, -1.0]) {
        assert!((model.decision(|sv| linear(points[sv], points[i])) - expect).abs() < 1e-8);
    }
}

/// Points on a line: positives at 2 and 3, negatives at −2 and −3, and a
/// positive outlier at −2.5. With C+ = 0.05 and C− = 10 the negatives keep
/// their margin (b = 2w − 1) and the primal ½w² + C+ Σξ is, for 0.4 ≤ w ≤ 0.5,
/// ½w² + 0.05 (2 − 4w + 2 + w/2), increasing, and for w < 0.4 decreasing: so
/// w = 0.4, b = −0.2. The point at 2 (inside the margin) and the outlier are at
/// α = C+; y-balance and w = Σ α y x give α = 0.045 at 3 and 0.145 at −2.
#[test]
fn per_class_costs_bound_each_class_separately() {
    let points: [Point; 5] = [[2.0, 0.0], [3.0, 0.0], [-2.0, 0.0], [-3.0, 0.0], [-2.5, 0.0]];
    let y = [1.0, 1.0, -1.0, -1.0, 1.0];
    let g = gram(&points, &linear);
    let model = train_gram(&g, &y, &params(0.05, 10.0, 1e-10));
    let alpha = model.dense_alpha(5);
    let expect = [0.05, 0.045, 0.145, 0.0, 0.05];
    for (i, (a, e)) in alpha.iter().zip(expect).enumerate() {
        assert!((a - e).abs() < 1e-8, "α_{i} = {a}, expected {e}");
    }
    assert_eq!(model.stats.n_bounded_sv, 2);
    assert!((model.bias() + 0.2).abs() < 1e-8, "b = {}", model.bias());
    let w: f64 = model.sv_indices.iter().zip(&model.sv_coef).map(|(&i, &c)| c * points[i][0]).sum();
    assert!((w - 0.4).abs() < 1e-8, "w = {w}");
    let (best, _) = brute_force(&g, &y, 0.05, 10.0);
    assert!((model.stats.objective - best).abs() < 1e-9);
}

/// 200 points in the unit square, labelled by a noisy circle.
fn random_problem(n: usize, seed: u64) -> (Vec<Point>, Vec<f64>) {
    let mut rng = XorShift(seed);
    let mut points = Vec::with_capacity(n);
    let mut y = Vec::with_capacity(n);
    for _ in 0..n {
        let p = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)];
        let r2 = p[0] * p[0] + p[1] * p[1] + rng.range(-0.15, 0.15);
        points.push(p);
        y.push(if r2 < 0.45 { 1.0 } else { -1.0 });
    }
    (points, y)
}

#[test]
fn shrinking_on_and_off_agree_and_the_cache_size_does_not_matter() {
    let (points, y) = random_problem(200, 0x5eed_1234_abcd_0001);
    let k = rbf(10.0);
    let kernel = |i: usize, j: usize| k(points[i], points[j]);
    // C large enough for a few shrinking rounds (one per 200 iterations).
    let base = SvmParams { eps: 1e-6, progress_every: 1, ..SvmParams::with_c(10.0).with_cost_factor(2.0) };
    let mut min_active = usize::MAX;
    let mut watch = |p: SmoProgress| {
        min_active = min_active.min(p.active_size);
        ControlFlow::Continue(())
    };
    let shrunk = train_with_progress(&kernel, &y, &base, &mut watch).unwrap();
    assert!(
        shrunk.stats.iterations > 200 && min_active < 200,
        "shrinking never shrank: {} iterations, min active {min_active}",
        shrunk.stats.iterations
    );
    let plain = train(&kernel, &y, &SvmParams { shrinking: false, ..base.clone() }).unwrap();
    let (a, b) = (shrunk.stats.objective, plain.stats.objective);
    assert!((a - b).abs() <= 1e-7 * a.abs(), "objectives {a} vs {b}");
    let mut rng = XorShift(77);
    for _ in 0..100 {
        let p = [rng.range(-1.2, 1.2), rng.range(-1.2, 1.2)];
        let (da, db) = (shrunk.decision(|sv| k(points[sv], p)), plain.decision(|sv| k(points[sv], p)));
        assert!((da - db).abs() < 1e-3, "decision at {p:?}: {da} vs {db}");
    }

    // A cache of ~6 rows of 200 against one holding all of Q: same numbers.
    let big = train(&kernel, &y, &SvmParams { cache_mb: 100.0, ..base.clone() }).unwrap();
    let small = train(&kernel, &y, &SvmParams { cache_mb: 0.01, ..base.clone() }).unwrap();
    assert_eq!(big.stats.cache_rows, 200);
    assert_eq!(small.stats.cache_rows, 6);
    assert!(small.stats.kernel_evals > big.stats.kernel_evals);
    assert!(big.stats.kernel_evals <= 200 * 201 / 2);
    assert_eq!((&small.sv_indices, &small.sv_coef, small.rho), (&big.sv_indices, &big.sv_coef, big.rho));
    assert_eq!(small.stats.iterations, big.stats.iterations);
    assert_eq!(small.stats.objective.to_bits(), big.stats.objective.to_bits());
    println!(
        "200 points: shrinking {} iterations, {} kernel evals; no shrinking {} iterations; small cache {} evals",
        shrunk.stats.iterations, shrunk.stats.kernel_evals, plain.stats.iterations, small.stats.kernel_evals
    );
}

#[test]
fn the_kernel_is_called_with_ordered_pairs_only() {
    let (points, y) = random_problem(60, 99);
    let k = rbf(1.0);
    let calls = Cell::new(0u64);
    let kernel = |i: usize, j: usize| {
        assert!(i <= j);
        calls.set(calls.get() + 1);
        k(points[i], points[j])
    };
    let model = train(&kernel, &y, &SvmParams::default()).unwrap();
    assert_eq!(calls.get(), model.stats.kernel_evals);
}

#[test]
fn platt_fit_recovers_a_known_sigmoid() {
    for (a_true, b_true, seed) in [(-1.7, 0.4, 1u64), (-0.6, -1.1, 2), (-3.0, 0.0, 3)] {
        let mut rng = XorShift(0xdead_beef_0000 + seed);
        let n = 50_000;
        let mut d = Vec::with_capacity(n);
        let mut y = Vec::with_capacity(n);
        for _ in 0..n {
            let di = rng.range(-4.0, 4.0);
            let p = 1.0 / (1.0 + (a_true * di + b_true).exp());
            d.push(di);
            y.push(if rng.unit() < p { 1.0 } else { -1.0 });
        }
        let Posterior::Platt { a, b } = fit_platt(&d, &y).unwrap() else { panic!("not Platt") };
        assert!((a - a_true).abs() < 0.08 && (b - b_true).abs() < 0.08, "fit ({a}, {b}) for ({a_true}, {b_true})");
    }
}

#[test]
fn platt_on_held_out_decision_values_is_increasing_in_d() {
    let (points, y) = random_problem(300, 4242);
    let k = rbf(2.0);
    let (train_pts, dev_pts) = points.split_at(200);
    let kernel = |i: usize, j: usize| k(train_pts[i], train_pts[j]);
    let model = train(&kernel, &y[..200], &SvmParams::default()).unwrap();
    let d: Vec<f64> = dev_pts.iter().map(|&p| model.decision(|sv| k(train_pts[sv], p))).collect();
    let post = fit_platt(&d, &y[200..]).unwrap();
    let Posterior::Platt { a, .. } = post else { panic!() };
    assert!(a < 0.0);
    assert!(post.prob(1.0) > post.prob(0.0) && post.prob(0.0) > post.prob(-1.0));
}

#[test]
fn training_is_deterministic_bit_for_bit() {
    let (points, y) = random_problem(150, 31337);
    let k = rbf(3.0);
    let kernel = |i: usize, j: usize| k(points[i], points[j]);
    let p = SvmParams { cache_mb: 0.05, ..SvmParams::with_c(2.4).with_cost_factor(3.0) };
    let runs: Vec<SvmModel> = (0..3).map(|_| train(&kernel, &y, &p).unwrap()).collect();
    let json: Vec<String> = runs.iter().map(|m| serde_json::to_string(m).unwrap()).collect();
    assert_eq!(json[0], json[1]);
    assert_eq!(json[0], json[2]);
    let bits = |m: &SvmModel| (m.rho.to_bits(), m.sv_coef.iter().map(|c| c.to_bits()).collect::<Vec<_>>());
    assert_eq!(bits(&runs[0]), bits(&runs[1]));
    // The JSON model file round-trips; serde_json without its
    // `float_roundtrip` feature may parse a number one ulp off.
    let back: SvmModel = serde_json::from_str(&json[0]).unwrap();
    assert_eq!(back.sv_indices, runs[0].sv_indices);
    let ulps = |a: f64, b: f64| (a.to_bits() as i64).abs_diff(b.to_bits() as i64);
    assert!(ulps(back.rho, runs[0].rho) <= 1);
    assert!(back.sv_coef.iter().zip(&runs[0].sv_coef).all(|(&a, &b)| ulps(a, b) <= 1));
}

#[test]
fn cancellation_stops_training() {
    let (points, y) = random_problem(200, 8);
    let k = rbf(2.0);
    let kernel = |i: usize, j: usize| k(points[i], points[j]);
    let p = SvmParams { eps: 1e-8, progress_every: 3, ..SvmParams::default() };
    let mut seen = Vec::new();
    let result = train_with_progress(&kernel, &y, &p, &mut |r: SmoProgress| {
        seen.push(r);
        if seen.len() == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(result, Err(SvmError::Cancelled));
    assert_eq!(seen.iter().map(|r| r.iteration).collect::<Vec<_>>(), vec![3, 6]);
    assert!(seen.iter().all(|r| r.max_violation > p.eps && r.max_violation.is_finite()));
}

#[test]
fn progress_violation_reaches_eps() {
    let (points, y) = random_problem(200, 9);
    let k = rbf(2.0);
    let kernel = |i: usize, j: usize| k(points[i], points[j]);
    let p = SvmParams { progress_every: 10, ..SvmParams::default() };
    let mut reports = 0;
    let m = train_with_progress(&kernel, &y, &p, &mut |_| {
        reports += 1;
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(reports, m.stats.iterations / 10);
    assert!(m.stats.converged && m.stats.max_violation < p.eps);
}

#[test]
fn the_iteration_limit_returns_an_unconverged_model() {
    let (points, y) = random_problem(200, 10);
    let k = rbf(2.0);
    let kernel = |i: usize, j: usize| k(points[i], points[j]);
    let m = train(&kernel, &y, &SvmParams { max_iter: Some(5), ..SvmParams::default() }).unwrap();
    assert!(!m.stats.converged);
    assert_eq!(m.stats.iterations, 5);
    assert!(m.stats.max_violation > 1e-3);
}

/// Timings on a 2000-example RBF problem (see the module doc): the paper's
/// C = 2.4, then a harder problem (narrow RBF, C = 100, eps = 1e-5) where
/// shrinking and the cache size matter.
#[test]
fn timing_on_2000_rbf_examples() {
    let (points, y) = random_problem(2000, 2024);
    let hard = SvmParams { eps: 1e-5, ..SvmParams::with_c(100.0) };
    let runs = [
        ("gamma 2, C 2.4, shrinking, 200 MB cache", 2.0, SvmParams::default()),
        ("gamma 2, C 2.4, no shrinking", 2.0, SvmParams { shrinking: false, ..SvmParams::default() }),
        ("gamma 2, C 2.4, 4 MB cache (262 rows)", 2.0, SvmParams { cache_mb: 4.0, ..SvmParams::default() }),
        ("gamma 2, C+ = 3 C- = 7.2", 2.0, SvmParams::default().with_cost_factor(3.0)),
        ("gamma 20, C 100, eps 1e-5, shrinking", 20.0, hard.clone()),
        ("gamma 20, C 100, eps 1e-5, no shrinking", 20.0, SvmParams { shrinking: false, ..hard.clone() }),
        ("gamma 20, C 100, eps 1e-5, 4 MB cache", 20.0, SvmParams { cache_mb: 4.0, ..hard.clone() }),
    ];
    let mut objectives = Vec::new();
    for (name, gamma, p) in runs {
        let k = rbf(gamma);
        let kernel = |i: usize, j: usize| k(points[i], points[j]);
        let start = Instant::now();
        let m = train(&kernel, &y, &p).unwrap();
        let s = &m.stats;
        println!(
            "2000 RBF, {name}: {:.3} s, {} iterations, {} kernel evals, {} hits / {} misses, {} SV ({} at C), objective {:.6}",
            start.elapsed().as_secs_f64(),
            s.iterations,
            s.kernel_evals,
            s.cache_hits,
            s.cache_misses,
            s.n_sv,
            s.n_bounded_sv,
            s.objective
        );
        assert!(s.converged);
        objectives.push(s.objective);
    }
    assert!((objectives[0] - objectives[1]).abs() < 1e-3 * objectives[0].abs());
    assert_eq!(objectives[0].to_bits(), objectives[2].to_bits());
    assert!((objectives[4] - objectives[5]).abs() < 1e-6 * objectives[4].abs());
    assert_eq!(objectives[4].to_bits(), objectives[6].to_bits());
}
