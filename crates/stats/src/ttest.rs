//! Paired t-test (two-sided) on the deltas: `t = mean / (sd / √n)`,
//! `ν = n − 1`, `p = P(|T_ν| ≥ |t|)` via the regularized incomplete beta.
//!
//! Degenerate cases (chosen so that the JSON never contains NaN):
//! * `n < 2`: `p = 1` (no variance estimate, no evidence; SciPy: NaN);
//! * all deltas equal (sd = 0) and mean = 0: `p = 1` (SciPy: NaN);
//! * all deltas equal (sd = 0) and mean ≠ 0: `p = 0` (`|t| = ∞`; SciPy 1.17
//!   `ttest_1samp` returns the same, `t = inf`, `p = 0`).
//!
//! "sd = 0" means the sample variance is ≤ 1e-24 × (1 + mean²), which treats
//! float noise in equal deltas as equal.

/// Mean and sample standard deviation (n − 1 denominator; 0 for n < 2).
pub fn mean_sd(d: &[f64]) -> (f64, f64) {
    let n = d.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let mean = d.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, 0.0);
    }
    let ss: f64 = d.iter().map(|x| (x - mean) * (x - mean)).sum();
    (mean, (ss / (n as f64 - 1.0)).sqrt())
}

/// Two-sided paired t-test p-value on the deltas.
pub fn paired_t(d: &[f64]) -> f64 {
    let n = d.len();
    if n < 2 {
        return 1.0;
    }
    let (mean, sd) = mean_sd(d);
    if sd * sd <= 1e-24 * (1.0 + mean * mean) {
        return if mean.abs() <= 1e-12 { 1.0 } else { 0.0 };
    }
    let t = mean / (sd / (n as f64).sqrt());
    crate::special::t_two_sided(t, n as f64 - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate() {
        assert_eq!(paired_t(&[5.0]), 1.0);
        assert_eq!(paired_t(&[0.0, 0.0, 0.0]), 1.0);
        assert_eq!(paired_t(&[2.0, 2.0, 2.0]), 0.0);
        // t = 1 with 1 df → p = 0.5.
        let p = paired_t(&[0.0, 2.0f64.sqrt() * 1.0]);
        assert!((p - 0.5).abs() < 1e-12, "{p}");
    }
}
