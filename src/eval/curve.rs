//! The learning curve's statistics (`treelink mt-experiment
//! --train-fractions`): test BLEU against training pairs fitted as `BLEU =
//! a + b ln(pairs)` by ordinary least squares, each MERT run one point, and
//! one system's slope judged against another's.

/// An ordinary least-squares fit `BLEU = a + b · ln(pairs)` with the
/// standard errors of `a` and `b` (each MERT run one point).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogLinearFit {
    pub intercept: f64,
    pub slope: f64,
    pub intercept_se: f64,
    pub slope_se: f64,
    /// Points fitted.
    pub points: usize,
}

impl LogLinearFit {
    /// Fits `(pairs, bleu)` points; `None` with fewer than three points or
    /// fewer than two sizes (no residual degree of freedom, or no slope).
    pub fn fit(points: &[(f64, f64)]) -> Option<LogLinearFit> {
        let n = points.len();
        let xs: Vec<f64> = points.iter().map(|&(p, _)| crate::math::ln(p)).collect();
        let ys: Vec<f64> = points.iter().map(|&(_, b)| b).collect();
        if n < 3 {
            return None;
        }
        let (mx, my) = (xs.iter().sum::<f64>() / n as f64, ys.iter().sum::<f64>() / n as f64);
        let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
        if sxx <= 0.0 {
            return None;
        }
        let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
        let slope = sxy / sxx;
        let intercept = my - slope * mx;
        let rss: f64 = xs.iter().zip(&ys).map(|(x, y)| (y - intercept - slope * x).powi(2)).sum();
        let s2 = rss / (n - 2) as f64;
        Some(LogLinearFit {
            intercept,
            slope,
            intercept_se: (s2 * (1.0 / n as f64 + mx * mx / sxx)).sqrt(),
            slope_se: (s2 / sxx).sqrt(),
            points: n,
        })
    }

    /// Fits each size's runs, `(pairs, runs' BLEU)`, each run one point.
    pub fn fit_runs(sizes: &[(f64, Vec<f64>)]) -> Option<LogLinearFit> {
        let points: Vec<(f64, f64)> = sizes.iter().flat_map(|(p, bs)| bs.iter().map(move |b| (*p, *b))).collect();
        LogLinearFit::fit(&points)
    }

    /// The fitted BLEU at `pairs` training pairs.
    pub fn at(&self, pairs: f64) -> f64 {
        self.intercept + self.slope * crate::math::ln(pairs)
    }

    /// Where `other` (rising faster) meets this fit: the training size at
    /// which the two lines cross, `None` if they are parallel or `other`
    /// does not rise faster.
    pub fn overtaken_by(&self, other: &LogLinearFit) -> Option<f64> {
        let db = other.slope - self.slope;
        (db > 0.0).then(|| crate::math::exp((self.intercept - other.intercept) / db))
    }

    /// How `other`'s slope compares with this one's.
    pub fn against(&self, other: &LogLinearFit) -> SlopeDifference {
        SlopeDifference {
            difference: other.slope - self.slope,
            se: (other.slope_se * other.slope_se + self.slope_se * self.slope_se).sqrt(),
            crossing: self.overtaken_by(other),
        }
    }
}

/// One fit's slope against another's: the difference, its standard error
/// (the two fits independent), and where the lines cross if the other rises faster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlopeDifference {
    pub difference: f64,
    pub se: f64,
    /// Training pairs where the lines cross ([`LogLinearFit::overtaken_by`]).
    pub crossing: Option<f64>,
}

impl SlopeDifference {
    /// The difference in standard errors (0 when the error is 0).
    pub fn z(&self) -> f64 {
        if self.se > 0.0 {
            self.difference / self.se
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fit recovers a line in ln(pairs) exactly (no residual, so no
    /// error), its standard errors match the textbook formula on a noisy
    /// example worked by hand, and two lines cross where they meet.
    #[test]
    fn the_log_linear_fit_and_where_one_curve_overtakes_another() {
        let line = |a: f64, b: f64| [100.0, 200.0, 400.0, 800.0].map(|p: f64| (p, a + b * crate::math::ln(p))).to_vec();
        let f = LogLinearFit::fit(&line(2.0, 1.5)).unwrap();
        assert!((f.intercept - 2.0).abs() < 1e-9 && (f.slope - 1.5).abs() < 1e-9, "{f:?}");
        assert!(f.slope_se < 1e-9 && f.intercept_se < 1e-9);
        // x = ln p at p = 1, e, e²: x = 0, 1, 2; y = 0, 2, 1: slope 0.5,
        // intercept 0.5, residuals -0.5, 1, -0.5, RSS 1.5, s² = 1.5, Sxx = 2.
        let e = crate::math::exp(1.0);
        let g = LogLinearFit::fit(&[(1.0, 0.0), (e, 2.0), (e * e, 1.0)]).unwrap();
        assert!((g.slope - 0.5).abs() < 1e-9 && (g.intercept - 0.5).abs() < 1e-9, "{g:?}");
        assert!((g.slope_se - (1.5f64 / 2.0).sqrt()).abs() < 1e-9);
        assert!((g.intercept_se - (1.5f64 * (1.0 / 3.0 + 1.0 / 2.0)).sqrt()).abs() < 1e-9);
        // 3 + 1 ln p meets 1 + 1.5 ln p at ln p = 4.
        let (low, steep) = (LogLinearFit::fit(&line(3.0, 1.0)).unwrap(), LogLinearFit::fit(&line(1.0, 1.5)).unwrap());
        let at = low.overtaken_by(&steep).unwrap();
        assert!((crate::math::ln(at) - 4.0).abs() < 1e-9 && (low.at(at) - steep.at(at)).abs() < 1e-9);
        assert_eq!(steep.overtaken_by(&low), None);
        assert_eq!(LogLinearFit::fit(&[(100.0, 1.0), (100.0, 2.0), (100.0, 3.0)]), None);
        // Each run one point: two sizes of two runs fit as the four points.
        let runs = [(1.0, vec![0.0, 1.0]), (e, vec![2.0, 2.0])];
        let flat = [(1.0, 0.0), (1.0, 1.0), (e, 2.0), (e, 2.0)];
        assert_eq!(LogLinearFit::fit_runs(&runs), LogLinearFit::fit(&flat));
        // The steeper line against the lower: 0.5 ± √(se² + se²), crossing at ln p = 4.
        let d = low.against(&steep);
        assert!((d.difference - 0.5).abs() < 1e-9 && d.se < 1e-9, "{d:?}");
        assert_eq!(SlopeDifference { difference: 0.5, se: 0.0, crossing: None }.z(), 0.0, "no error: no z");
        assert_eq!(d.crossing, Some(at));
        let noisy = g.against(&f);
        assert!((noisy.se - g.slope_se).abs() < 1e-9 && (noisy.z() - 1.0 / g.slope_se).abs() < 1e-9, "{noisy:?}");
        assert_eq!(steep.against(&low).crossing, None);
    }
}
