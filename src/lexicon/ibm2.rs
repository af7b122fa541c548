//! fast_align's reparameterised IBM Model 2 (Dyer, Chahuneau & Smith
//! 2013): the alignment distribution `p(a_j = i | j, m, n)` that favours the
//! diagonal, and the update of its tension. IBM Model 1's uniform
//! distribution is the special case [`Prior::Uniform`]; the EM that uses
//! either is [`super::directional`].
//!
//! Notation as in [`super::directional`]: `f_1..f_m` generated from
//! `e_1..e_n` plus `e_0 = NULL`, positions 1-based in the formulas.

use std::collections::BTreeMap;

use crate::math::exp;

/// Bounds of the diagonal tension, as in fast_align.
pub const MIN_TENSION: f64 = 0.1;
pub const MAX_TENSION: f64 = 14.0;

/// `p(a_j = i | j, m, n)`.
#[derive(Debug, Clone, Copy)]
pub(super) enum Prior {
    /// IBM Model 1: `1 / (n + 1)` for every position, NULL included.
    Uniform,
    /// fast_align (Dyer, Chahuneau & Smith 2013): `p0` for NULL, otherwise
    /// `(1 − p0) · exp(λ·h(i, j, m, n)) / Z_λ(j, m, n)` with
    /// `h = −|i/n − j/m|` (1-based positions) and `Z` summing over `i = 1..n`.
    Diagonal { p0: f64, tension: f64 },
}

/// fast_align's feature `h(i, j, m, n) = −|i/n − j/m|`.
pub(super) fn diagonal_feature(i: usize, j: usize, m: usize, n: usize) -> f64 {
    -(i as f64 / n as f64 - j as f64 / m as f64).abs()
}

/// `exp(λ·h(i, j, m, n))` for `i = 1..=n` into `out[0..n]`. Positions up to
/// `⌊jn/m⌋` lie before the diagonal, the others after it; along each side the
/// value changes by the factor `exp(−λ/n)` per position, so two `exp` per
/// side suffice (as in fast_align).
pub(super) fn diagonal_weights(j: usize, m: usize, n: usize, tension: f64, out: &mut [f64]) {
    let jm = j as f64 / m as f64;
    let floor = (j * n / m).min(n);
    let ratio = exp(-tension / n as f64);
    if floor >= 1 {
        let mut u = exp(tension * (floor as f64 / n as f64 - jm));
        for i in (1..=floor).rev() {
            out[i - 1] = u;
            u *= ratio;
        }
    }
    if floor < n {
        let mut u = exp(tension * (jm - (floor + 1) as f64 / n as f64));
        for slot in &mut out[floor..n] {
            *slot = u;
            u *= ratio;
        }
    }
}

impl Prior {
    /// Fills `out[0..=n]` with `p(a_j = i)` for generated position `j` (1-based); `i = 0` is NULL.
    pub(super) fn fill(self, j: usize, m: usize, n: usize, out: &mut [f64]) {
        match self {
            Prior::Uniform => out[..=n].fill(1.0 / (n + 1) as f64),
            Prior::Diagonal { p0, tension } => {
                out[0] = p0;
                diagonal_weights(j, m, n, tension, &mut out[1..=n]);
                let z: f64 = out[1..=n].iter().sum();
                let scale = (1.0 - p0) / z;
                for v in &mut out[1..=n] {
                    *v *= scale;
                }
            }
        }
    }
}

/// Expected statistics for the tension update: `Σ q(a_j = i) h(i, j)` over
/// non-NULL `i`, and the non-NULL posterior mass of each `(m, n, j)`.
#[derive(Default)]
pub(super) struct TensionStats {
    pub(super) empirical: f64,
    pub(super) mass: BTreeMap<(usize, usize), Vec<f64>>,
}

/// fast_align's tension update (its `-o`), done exactly: the `λ` maximising
/// the expected complete-data log-likelihood of the alignment prior,
/// `Σ_j Σ_{i≥1} q_ji (λ h_ji − ln Z_λ(j))`, i.e. the root of
/// `g(λ) = Σ q_ji h_ji − Σ_j Q_j E_λ[h | j]` (`Q_j` the non-NULL posterior
/// mass of word `j`). `g` decreases in `λ` (its derivative is
/// `−Σ_j Q_j Var_λ[h | j]`), so a safeguarded Newton search finds it in
/// `[MIN_TENSION, MAX_TENSION]`.
pub(super) fn optimize_tension(stats: &TensionStats, current: f64) -> f64 {
    if stats.mass.is_empty() {
        return current;
    }
    let mut u = Vec::new();
    let mut g = |tension: f64| -> (f64, f64) {
        let (mut expected, mut variance) = (0.0, 0.0);
        for (&(m, n), mass) in &stats.mass {
            u.resize(n, 0.0);
            for j in 1..=m {
                let w = mass[j - 1];
                if w == 0.0 {
                    continue;
                }
                diagonal_weights(j, m, n, tension, &mut u);
                let (mut z, mut s1, mut s2) = (0.0, 0.0, 0.0);
                for (i, &ui) in (1..=n).zip(&u) {
                    let h = diagonal_feature(i, j, m, n);
                    z += ui;
                    s1 += ui * h;
                    s2 += ui * h * h;
                }
                let mean = s1 / z;
                expected += w * mean;
                variance += w * (s2 / z - mean * mean).max(0.0);
            }
        }
        (stats.empirical - expected, -variance)
    };
    let (mut lo, mut hi) = (MIN_TENSION, MAX_TENSION);
    if g(lo).0 <= 0.0 {
        return lo;
    }
    if g(hi).0 >= 0.0 {
        return hi;
    }
    let mut x = current.clamp(lo, hi);
    for _ in 0..60 {
        let (v, d) = g(x);
        if v > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = if d < 0.0 { x - v / d } else { f64::NAN };
        let next = if newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
        let done = (next - x).abs() <= 1e-10 * x.max(1.0) || hi - lo <= 1e-12;
        x = next;
        if done {
            break;
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::ln;

    #[test]
    fn diagonal_weights_are_exp_of_the_feature() {
        for (m, n) in [(1, 1), (3, 7), (7, 3), (10, 10), (23, 19), (1, 30)] {
            for j in 1..=m {
                for tension in [0.1, 4.0, 14.0] {
                    let mut out = vec![0.0; n];
                    diagonal_weights(j, m, n, tension, &mut out);
                    for i in 1..=n {
                        let direct = exp(tension * diagonal_feature(i, j, m, n));
                        assert!((out[i - 1] - direct).abs() <= 1e-12 * direct, "{m} {n} {j} {i} {tension}");
                    }
                }
            }
        }
    }

    #[test]
    fn priors_are_distributions() {
        let mut out = vec![0.0; 8];
        for prior in [Prior::Uniform, Prior::Diagonal { p0: 0.08, tension: 4.0 }] {
            for j in 1..=5 {
                prior.fill(j, 5, 7, &mut out);
                assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
        // fast_align's prior peaks on the diagonal: j = 5 of 5 is nearest i = 7 of 7.
        Prior::Diagonal { p0: 0.08, tension: 4.0 }.fill(5, 5, 7, &mut out);
        assert_eq!(out[0], 0.08);
        assert!(out[7] > out[6] && out[6] > out[5]);
    }

    /// `Q(λ) = λ·Σ q h − Σ_j Q_j ln Z_λ(j)`, the part of the expected
    /// complete-data log-likelihood that depends on the tension.
    fn q(stats: &TensionStats, tension: f64) -> f64 {
        let mut value = tension * stats.empirical;
        for (&(m, n), mass) in &stats.mass {
            for j in 1..=m {
                let z: f64 = (1..=n).map(|i| exp(tension * diagonal_feature(i, j, m, n))).sum();
                value -= mass[j - 1] * ln(z);
            }
        }
        value
    }

    #[test]
    fn tension_update_finds_the_maximum() {
        // Statistics as if the posteriors were the prior of λ = 5.5.
        let mut stats = TensionStats::default();
        for (m, n) in [(4, 6), (9, 7), (12, 12)] {
            let mass: Vec<f64> = (1..=m).map(|j| 0.5 + 0.05 * j as f64).collect();
            for j in 1..=m {
                let u: Vec<f64> = (1..=n).map(|i| exp(5.5 * diagonal_feature(i, j, m, n))).collect();
                let z: f64 = u.iter().sum();
                stats.empirical +=
                    mass[j - 1] * (1..=n).map(|i| u[i - 1] / z * diagonal_feature(i, j, m, n)).sum::<f64>();
            }
            stats.mass.insert((m, n), mass);
        }
        let found = optimize_tension(&stats, 4.0);
        assert!((found - 5.5).abs() < 1e-9, "{found}");
        for grid in (1..=140).map(|k| k as f64 * 0.1) {
            assert!(q(&stats, found) >= q(&stats, grid) - 1e-12, "{grid}");
        }
        // All mass on the diagonal: the bound; far off it: the other bound.
        stats.empirical = 0.0;
        assert_eq!(optimize_tension(&stats, 4.0), MAX_TENSION);
        stats.empirical = -1e3;
        assert_eq!(optimize_tension(&stats, 4.0), MIN_TENSION);
        assert_eq!(optimize_tension(&TensionStats::default(), 4.0), 4.0);
    }
}
