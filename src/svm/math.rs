//! Bit-reproducible `exp`, `ln` and the logistic function.
//!
//! `f64::exp` and `f64::ln` call the platform's libm, which differs between
//! targets in the last bit (glibc natively, a Rust port of musl on wasm32).
//! Posterior probabilities order the greedy search, so a last-bit difference
//! could change an alignment between the command line and the page. These
//! are ports of fdlibm's `e_exp.c` and `e_log.c` (Sun Microsystems, 1993;
//! error below 1 ulp) written with IEEE-754 `+ - * /` only, which round the
//! same way on every target: same input, same bits, everywhere.

/// ln 2 split so that `k * LN2_HI` is exact for |k| < 2^20.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const INV_LN2: f64 = f64::from_bits(0x3ff7_1547_652b_82fe);
/// Largest x with a finite exp(x), and the x below which exp(x) rounds to 0.
const EXP_OVERFLOW: f64 = 7.097_827_128_933_84e2;
const EXP_UNDERFLOW: f64 = -7.451_332_191_019_411e2;
/// Remez coefficients of fdlibm's rational approximation of exp on [0, ln2/2].
const P1: f64 = f64::from_bits(0x3fc5_5555_5555_553e);
const P2: f64 = f64::from_bits(0xbf66_c16c_16be_bd93);
const P3: f64 = f64::from_bits(0x3f11_566a_af25_de2c);
const P4: f64 = f64::from_bits(0xbebb_bd41_c5d2_6bf1);
const P5: f64 = f64::from_bits(0x3e66_3769_72be_a4d0);
/// Coefficients of fdlibm's log approximation in s = f / (2 + f).
const LG1: f64 = f64::from_bits(0x3fe5_5555_5555_5593);
const LG2: f64 = f64::from_bits(0x3fd9_9999_9997_fa04);
const LG3: f64 = f64::from_bits(0x3fd2_4924_9422_9359);
const LG4: f64 = f64::from_bits(0x3fcc_71c5_1d8e_78af);
const LG5: f64 = f64::from_bits(0x3fc7_4664_96cb_03de);
const LG6: f64 = f64::from_bits(0x3fc3_9a09_d078_c69f);
const LG7: f64 = f64::from_bits(0x3fc2_f112_df3e_5244);

/// 2^k for k in the normal range [-1022, 1023].
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// e^x, bit-identical on every target (fdlibm `e_exp.c`).
///
/// ```
/// use treelink::svm::math::exp;
/// assert_eq!(exp(0.0), 1.0);
/// assert!((exp(1.0) - std::f64::consts::E).abs() < 1e-15);
/// ```
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > EXP_OVERFLOW {
        return f64::INFINITY;
    }
    if x < EXP_UNDERFLOW {
        return 0.0;
    }
    let ax = x.abs();
    // Argument reduction: x = k ln2 + r with |r| <= ln2 / 2.
    let (hi, lo, k) = if ax > 0.5 * std::f64::consts::LN_2 {
        let k = if ax < 1.5 * std::f64::consts::LN_2 {
            if x > 0.0 {
                1
            } else {
                -1
            }
        } else {
            // Truncation towards zero after adding ±1/2 rounds to nearest.
            (INV_LN2 * x + if x > 0.0 { 0.5 } else { -0.5 }) as i32
        };
        let t = f64::from(k);
        (x - t * LN2_HI, t * LN2_LO, k)
    } else if ax < f64::from_bits(0x3e30_0000_0000_0000) {
        return 1.0 + x; // |x| < 2^-28
    } else {
        (x, 0.0, 0)
    };
    let r = hi - lo;
    let t = r * r;
    let c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if k == 0 {
        return 1.0 - ((r * c) / (c - 2.0) - r);
    }
    let y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    // Scale by 2^k in two exact steps so neither factor leaves the normal range.
    let k1 = k / 2;
    y * pow2(k1) * pow2(k - k1)
}

/// Natural logarithm, bit-identical on every target (fdlibm `e_log.c`).
/// `ln(0) = -inf`, `ln(x < 0) = NaN`.
///
/// ```
/// use treelink::svm::math::ln;
/// assert_eq!(ln(1.0), 0.0);
/// assert!((ln(10.0) - std::f64::consts::LN_10).abs() < 1e-15);
/// ```
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x == f64::INFINITY {
        return x;
    }
    let mut x = x;
    let mut k: i32 = 0;
    if x < f64::MIN_POSITIVE {
        k -= 54; // subnormal: scale up by 2^54
        x *= f64::from_bits(0x4350_0000_0000_0000);
    }
    let bits = x.to_bits();
    let mut hx = (bits >> 32) as i32;
    let lx = bits & 0xffff_ffff;
    k += (hx >> 20) - 1023;
    hx &= 0x000f_ffff;
    // Normalise x into [sqrt(2)/2, sqrt(2)).
    let i = (hx + 0x95f64) & 0x0010_0000;
    let x = f64::from_bits(((((hx | (i ^ 0x3ff0_0000)) as u32) as u64) << 32) | lx);
    k += i >> 20;
    let f = x - 1.0;
    let dk = f64::from(k);
    if (0x000f_ffff & (2 + hx)) < 3 {
        // |f| < 2^-20
        if f == 0.0 {
            return dk * LN2_HI + dk * LN2_LO;
        }
        let r = f * f * (0.5 - 0.333_333_333_333_333_3 * f);
        return if k == 0 { f - r } else { dk * LN2_HI - ((r - dk * LN2_LO) - f) };
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let r = t2 + t1;
    let i = (hx - 0x6147a) | (0x6b851 - hx);
    if i > 0 {
        let hfsq = 0.5 * f * f;
        if k == 0 {
            f - (hfsq - s * (hfsq + r))
        } else {
            dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f)
        }
    } else if k == 0 {
        f - s * (f - r)
    } else {
        dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f)
    }
}

/// ln(1 + u) accurate for small u (Goldberg's correction of `ln(1 + u)`).
pub fn ln_1p(u: f64) -> f64 {
    let v = 1.0 + u;
    if v == 1.0 {
        u
    } else if v.is_infinite() {
        ln(v)
    } else {
        ln(v) * u / (v - 1.0)
    }
}

/// The logistic function 1 / (1 + e^(-z)), computed without overflow.
///
/// ```
/// use treelink::svm::math::logistic;
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
