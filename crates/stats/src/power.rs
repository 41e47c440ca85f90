//! Minimum detectable effect (MDE) of a paired design.
//!
//! Paired t approximation (non-centrality ≈ shift of the t distribution):
//! `MDE = (t_{1 − α/2, ν} + t_{power, ν}) · sd / √n`, `ν = n − 1`, with
//! α = 0.05 two-sided and power = 0.80, `sd` the observed standard deviation
//! of the deltas (points) and `n` the number of paired units. It is the true
//! mean delta (points) that the design would detect with 80% probability.
//! This slightly understates the MDE for very small n (the exact noncentral-t
//! answer is a bit larger) and applies to the t-test; the sign-flip test has
//! similar power for near-normal deltas. `None` when `n < 2` or `sd = 0`
//! (no spread observed, no basis for a power statement).

/// Significance level for the MDE.
pub const ALPHA: f64 = 0.05;
/// Target power for the MDE.
pub const POWER: f64 = 0.80;

/// MDE in points for `n` units with delta standard deviation `sd` (points).
pub fn mde(n: usize, sd: f64) -> Option<f64> {
    if n < 2 || sd.is_nan() || sd <= 0.0 {
        return None;
    }
    let df = n as f64 - 1.0;
    let ta = crate::special::t_quantile(1.0 - ALPHA / 2.0, df);
    let tb = crate::special::t_quantile(POWER, df);
    Some((ta + tb) * sd / (n as f64).sqrt())
}

#[cfg(test)]
mod tests {
    #[test]
    fn mde_values() {
        // n = 10, sd = 10: (2.2621571628 + 0.8834038597) * 10 / √10.
        let m = super::mde(10, 10.0).unwrap();
        assert!((m - (2.262_157_162_798_205 + 0.883_403_859_685_534_6) * 10.0 / 10f64.sqrt()).abs() < 1e-8);
        assert_eq!(super::mde(1, 3.0), None);
        assert_eq!(super::mde(5, 0.0), None);
    }
}
