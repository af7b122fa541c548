//! Bit-reproducible `exp`, `ln`, `ln_1p` and the logistic function, for
//! everything whose result must be identical natively and in wasm32, and
//! the one dot product the kernels, the SVMs and the decoders share.
//!
//! `f64::exp` and `f64::ln` call the platform's libm, which differs between
//! targets in the last bit (glibc natively, a Rust port of musl on wasm32).
//! Posterior probabilities order the greedy search and language-model scores
//! order the decoder's beams, so a last-bit difference could change a result
//! between the command line and the page. These call the `libm` crate (a
//! pure-Rust port of musl's libm, error below 1 ulp), which is the same code
//! on every target: same input, same bits, everywhere.

/// e^x, bit-identical on every target.
///
/// ```
/// use treelink::math::exp;
/// assert_eq!(exp(0.0), 1.0);
/// assert!((exp(1.0) - std::f64::consts::E).abs() < 1e-15);
/// ```
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// Natural logarithm, bit-identical on every target.
///
/// ```
/// use treelink::math::ln;
/// assert_eq!(ln(1.0), 0.0);
/// assert_eq!(ln(0.0), f64::NEG_INFINITY);
/// ```
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// `ln(1 + u)`, accurate near 0, bit-identical on every target.
pub fn ln_1p(u: f64) -> f64 {
    libm::log1p(u)
}

/// `x · y`: Σ x_i y_i over the common prefix, added left to right from
/// +0.0. One summation order for every caller, so a decision value, a
/// hypothesis score or a MERT line is the same sum wherever it is taken.
///
/// ```
/// use treelink::math::dot;
/// assert_eq!(dot(&[1.0, 2.0, 3.0], &[4.0, 5.0]), 14.0);
/// assert_eq!(dot(&[], &[1.0]), 0.0);
/// ```
pub fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).fold(0.0, |s, (a, b)| s + a * b)
}

/// The logistic function `1 / (1 + e^-z)`, without overflow for large |z|.
///
/// ```
/// use treelink::math::logistic;
/// assert_eq!(logistic(0.0), 0.5);
/// assert!((logistic(2.0) + logistic(-2.0) - 1.0).abs() < 1e-15);
/// ```
pub fn logistic(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + exp(-z))
    } else {
        let e = exp(z);
        e / (1.0 + e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place.
    fn ulps(a: f64, b: f64) -> u64 {
        (a.to_bits() as i64).abs_diff(b.to_bits() as i64)
    }

    fn sample_points() -> Vec<f64> {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut v = vec![0.0, -0.0, 1e-300, 1e-20, 0.5, 1.0, 2.0, 0.3465, 0.3466, 1.0397, 1.0398, 700.0, 709.7];
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            v.push((u - 0.5) * 1400.0);
            v.push((u - 0.5) * 4.0);
        }
        v
    }

    #[test]
    fn exp_is_within_one_ulp_of_the_platform_libm() {
        for x in sample_points() {
            let (ours, theirs) = (exp(x), x.exp());
            assert!(ulps(ours, theirs) <= 1, "exp({x}) = {ours} vs {theirs}");
        }
        assert_eq!(exp(f64::INFINITY), f64::INFINITY);
        assert_eq!(exp(f64::NEG_INFINITY), 0.0);
        assert_eq!(exp(710.0), f64::INFINITY);
        assert_eq!(exp(-746.0), 0.0);
        assert!(exp(f64::NAN).is_nan());
        assert!(exp(-740.0) > 0.0 && ulps(exp(-740.0), (-740.0f64).exp()) <= 1);
    }

    #[test]
    fn ln_is_within_one_ulp_of_the_platform_libm() {
        for x in sample_points() {
            let x = x.abs();
            for y in [x, 1.0 / x, 1.0 + x * 1e-9, x * 1e-310] {
                let (ours, theirs) = (ln(y), y.ln());
                assert!(ours == theirs || ulps(ours, theirs) <= 1, "ln({y}) = {ours} vs {theirs}");
            }
        }
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert!(ln(-1.0).is_nan());
        assert_eq!(ln(f64::INFINITY), f64::INFINITY);
    }

    #[test]
    fn ln_1p_is_accurate_near_zero() {
        for u in [1e-20, -1e-17, 1e-10, 3e-5, 0.5, 10.0, 1e300] {
            let (ours, theirs) = (ln_1p(u), u.ln_1p());
            assert!(((ours - theirs) / theirs).abs() < 4e-16, "ln_1p({u}) = {ours} vs {theirs}");
        }
    }

    #[test]
    fn logistic_saturates_without_nan() {
        assert_eq!(logistic(1000.0), 1.0);
        assert_eq!(logistic(-1000.0), 0.0);
        assert!((logistic(1.0) - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-16);
    }
}
