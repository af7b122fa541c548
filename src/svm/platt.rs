//! From a decision value to an alignment probability.
//!
//! The paper (§5) turns the SVM decision value D into
//! `P(a+|S,T) = 1 / (1 + e^(−D))` ([`Posterior::Sigmoid`]). Platt scaling
//! instead fits `P = 1 / (1 + e^(A·D + B))` to held-out decision values
//! ([`Posterior::Platt`], [`fit_platt`]) so that the probabilities are
//! calibrated; the paper's sigmoid is the special case A = −1, B = 0.

use serde::{Deserialize, Serialize};

use super::SvmError;
use crate::math::{exp, ln, ln_1p, logistic};

/// How a decision value becomes a probability of the positive class.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Posterior {
    /// The paper's `1 / (1 + e^(−D))`.
    #[default]
    Sigmoid,
    /// Platt's `1 / (1 + e^(A·D + B))`.
    Platt { a: f64, b: f64 },
}

impl Posterior {
    /// The probability of the positive class for decision value `d`
    /// (NaN only if `d` is NaN).
    ///
    /// ```
    /// use treelink::svm::Posterior;
    /// assert_eq!(Posterior::Sigmoid.prob(0.0), 0.5);
    /// let p = Posterior::Platt { a: -2.0, b: 1.0 }.prob(0.5); // e^(−1+1) = 1
    /// assert_eq!(p, 0.5);
    /// ```
    pub fn prob(&self, d: f64) -> f64 {
        match *self {
            Posterior::Sigmoid => logistic(d),
            Posterior::Platt { a, b } => logistic(-(a * d + b)),
        }
    }
}

/// Iteration limit, smallest line-search step, Hessian ridge and gradient
/// tolerance of Lin, Lin & Weng (2007), Algorithm 1.
const MAX_ITER: usize = 100;
const MIN_STEP: f64 = 1e-10;
const SIGMA: f64 = 1e-12;
const TOLERANCE: f64 = 1e-5;

/// Fits Platt's sigmoid to decision values `d` of held-out examples with
/// labels `y` (±1) by Lin, Lin & Weng's (2007) Newton method with
/// backtracking line search. Targets are smoothed with prior counts:
/// `(N+ + 1) / (N+ + 2)` for a positive, `1 / (N− + 2)` for a negative.
/// A fit that stops early (line search failure, iteration limit) returns the
/// best parameters found so far, as LIBSVM does.
///
/// ```
/// use treelink::svm::{fit_platt, Posterior};
/// let d = [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0];
/// let y = [-1.0, -1.0, 1.0, -1.0, 1.0, 1.0];
/// let Posterior::Platt { a, b } = fit_platt(&d, &y).unwrap() else { unreachable!() };
/// assert!(a < 0.0 && b.abs() < 1e-9); // higher D, higher probability; symmetric data
/// ```
pub fn fit_platt(d: &[f64], y: &[f64]) -> Result<Posterior, SvmError> {
    if d.len() != y.len() {
        return Err(SvmError::LengthMismatch { what: "labels", expected: d.len(), found: y.len() });
    }
    if d.is_empty() {
        return Err(SvmError::NoExamples);
    }
    super::check_labels(y)?;
    if let Some((index, &value)) = d.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(SvmError::NonFiniteDecision { index, value });
    }
    let n_pos = y.iter().filter(|&&v| v > 0.0).count() as f64;
    let n_neg = d.len() as f64 - n_pos;
    let hi_target = (n_pos + 1.0) / (n_pos + 2.0);
    let lo_target = 1.0 / (n_neg + 2.0);
    let t: Vec<f64> = y.iter().map(|&v| if v > 0.0 { hi_target } else { lo_target }).collect();

    // Negative log-likelihood, each term computed without overflow.
    let nll = |a: f64, b: f64| -> f64 {
        d.iter()
            .zip(&t)
            .map(|(&di, &ti)| {
                let z = di * a + b;
                if z >= 0.0 {
                    ti * z + ln_1p(exp(-z))
                } else {
                    (ti - 1.0) * z + ln_1p(exp(z))
                }
            })
            .sum()
    };
    let mut a = 0.0;
    let mut b = ln((n_neg + 1.0) / (n_pos + 1.0));
    let mut fval = nll(a, b);
    for _ in 0..MAX_ITER {
        // Gradient and Hessian (plus a ridge σ) of the likelihood.
        let (mut h11, mut h22, mut h21, mut g1, mut g2) = (SIGMA, SIGMA, 0.0, 0.0, 0.0);
        for (&di, &ti) in d.iter().zip(&t) {
            let z = di * a + b;
            // p = P(y = +1) = 1 / (1 + e^z), q = 1 − p.
            let p = logistic(-z);
            let q = logistic(z);
            let d2 = p * q;
            h11 += di * di * d2;
            h22 += d2;
            h21 += di * d2;
            let d1 = ti - p;
            g1 += di * d1;
            g2 += d1;
        }
        if g1.abs() < TOLERANCE && g2.abs() < TOLERANCE {
            break;
        }
        // Newton direction −H⁻¹g.
        let det = h11 * h22 - h21 * h21;
        let da = -(h22 * g1 - h21 * g2) / det;
        let db = -(-h21 * g1 + h11 * g2) / det;
        let gd = g1 * da + g2 * db;
        let mut step = 1.0;
        while step >= MIN_STEP {
            let (na, nb) = (a + step * da, b + step * db);
            let nf = nll(na, nb);
            // Armijo condition.
            if nf < fval + 0.0001 * step * gd {
                a = na;
                b = nb;
                fval = nf;
                break;
            }
            step /= 2.0;
        }
        if step < MIN_STEP {
            break; // line search failed
        }
    }
    Ok(Posterior::Platt { a, b })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigmoid_is_platt_with_minus_one_and_zero() {
        let platt = Posterior::Platt { a: -1.0, b: 0.0 };
        for d in [-30.0, -2.5, -0.1, 0.0, 0.7, 3.0, 800.0] {
            assert_eq!(Posterior::Sigmoid.prob(d), platt.prob(d));
        }
        assert!((Posterior::Sigmoid.prob(1.0) - 0.731_058_578_630_004_9).abs() < 1e-15);
    }

    #[test]
    fn posterior_round_trips_through_json() {
        for p in [Posterior::Sigmoid, Posterior::Platt { a: -1.25, b: 0.5 }] {
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<Posterior>(&json).unwrap(), p);
        }
        assert_eq!(serde_json::to_string(&Posterior::Sigmoid).unwrap(), r#"{"kind":"sigmoid"}"#);
    }

    #[test]
    fn separable_values_still_give_finite_parameters() {
        let d = [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0];
        let y = [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
        let Posterior::Platt { a, b } = fit_platt(&d, &y).unwrap() else { panic!() };
        assert!(a.is_finite() && b.is_finite() && a < 0.0);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert!(matches!(fit_platt(&[], &[]), Err(SvmError::NoExamples)));
        assert!(matches!(fit_platt(&[1.0], &[1.0, -1.0]), Err(SvmError::LengthMismatch { .. })));
        assert!(matches!(fit_platt(&[1.0], &[0.0]), Err(SvmError::InvalidLabel { index: 0, .. })));
        assert!(matches!(fit_platt(&[f64::NAN], &[1.0]), Err(SvmError::NonFiniteDecision { index: 0, .. })));
    }
}
