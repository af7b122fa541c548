//! The polynomial kernel over plain feature vectors and kernel normalisation,
//! the two pieces of the paper's composite kernel (§5) that are not trees:
//! `K_p(x, z) = (γ⟨x, z⟩ + c₀)^d` with d = 2, and `K̂(x, z) = K(x, z) /
//! sqrt(K(x, x) K(z, z))`.

use serde::{Deserialize, Serialize};

use crate::math::dot;

/// `K_p(x, z) = (gamma ⟨x, z⟩ + coef0)^degree`. The default is the paper's
/// degree 2 with SVMlight's `s = 1`, `c = 1`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PolyKernel {
    pub gamma: f64,
    pub coef0: f64,
    pub degree: u32,
}

impl Default for PolyKernel {
    fn default() -> Self {
        PolyKernel { gamma: 1.0, coef0: 1.0, degree: 2 }
    }
}

impl PolyKernel {
    /// The kernel from a precomputed inner product ⟨x, z⟩.
    pub fn of_dot(&self, dot: f64) -> f64 {
        powu(self.gamma * dot + self.coef0, self.degree)
    }

    /// `K_p(x, z)`; a vector shorter than the other counts as padded with 0.
    ///
    /// ```
    /// use treelink::svm::PolyKernel;
    /// let k = PolyKernel::default(); // (⟨x, z⟩ + 1)²
    /// assert_eq!(k.eval(&[1.0, 2.0], &[3.0, 0.5]), 25.0);
    /// ```
    pub fn eval(&self, x: &[f64], z: &[f64]) -> f64 {
        self.of_dot(dot(x, z))
    }

    /// `K̂_p(x, z)`, in [−1, 1] by Cauchy-Schwarz; 0 when either vector has
    /// a zero self-kernel.
    ///
    /// ```
    /// use treelink::svm::PolyKernel;
    /// let k = PolyKernel::default();
    /// // (4+1)² / sqrt((5+1)² (5+1)²) = 25/36
    /// assert!((k.normalised(&[1.0, 2.0], &[2.0, 1.0]) - 25.0 / 36.0).abs() < 1e-15);
    /// assert_eq!(k.normalised(&[3.0], &[3.0]), 1.0);
    /// ```
    pub fn normalised(&self, x: &[f64], z: &[f64]) -> f64 {
        normalise(self.eval(x, z), self.eval(x, x), self.eval(z, z))
    }
}

/// `K(x, z) / sqrt(K(x, x) K(z, z))`, or 0 when the product of the
/// self-kernels is not positive and finite.
///
/// ```
/// use treelink::svm::normalise;
/// assert_eq!(normalise(2.0, 4.0, 1.0), 1.0);
/// assert_eq!(normalise(2.0, 0.0, 1.0), 0.0);
/// ```
pub fn normalise(kxz: f64, kxx: f64, kzz: f64) -> f64 {
    let d = kxx * kzz;
    if d > 0.0 && d.is_finite() {
        kxz / d.sqrt()
    } else {
        0.0
    }
}

/// x^d by binary exponentiation: only multiplications, so the same bits on
/// every target (`powi` leaves the method to the backend).
fn powu(x: f64, mut d: u32) -> f64 {
    let mut acc = 1.0;
    let mut base = x;
    while d > 0 {
        if d & 1 == 1 {
            acc *= base;
        }
        d >>= 1;
        if d > 0 {
            base *= base;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_are_exact_on_small_integers() {
        for d in 0..12 {
            assert_eq!(powu(3.0, d), 3f64.powi(d as i32));
        }
        assert_eq!(powu(0.0, 0), 1.0);
    }

    #[test]
    fn degree_two_equals_the_explicit_feature_map() {
        // (⟨x,z⟩ + 1)² = ⟨φ(x), φ(z)⟩ with φ(x) = (1, √2x₁, √2x₂, x₁², x₂², √2x₁x₂).
        let phi = |x: [f64; 2]| {
            let r = 2f64.sqrt();
            [1.0, r * x[0], r * x[1], x[0] * x[0], x[1] * x[1], r * x[0] * x[1]]
        };
        let (x, z) = ([0.5, -1.5], [2.0, 0.25]);
        let k = PolyKernel::default().eval(&x, &z);
        assert!((k - dot(&phi(x), &phi(z))).abs() < 1e-12);
    }

    #[test]
    fn normalised_kernel_is_one_on_the_diagonal_and_zero_for_zero_vectors() {
        let k = PolyKernel { gamma: 0.5, coef0: 0.0, degree: 2 };
        assert!((k.normalised(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]) - 1.0).abs() < 1e-15);
        assert_eq!(k.normalised(&[0.0, 0.0], &[1.0, 2.0]), 0.0);
        assert_eq!(k.normalised(&[], &[]), 0.0);
    }
}
