//! Wilcoxon signed-rank test (two-sided).
//!
//! * Deltas are those of [`crate::units::Deltas`], so ties and zeros are
//!   exact (deltas equal in decimal are bit-equal there).
//! * Zero deltas are **dropped** before ranking (Wilcoxon's original method,
//!   SciPy `zero_method="wilcox"`).
//! * Ties in `|d|` get midranks. Ranks are doubled so that every midrank is
//!   an integer; the statistic is `W+ = Σ_{d_i > 0} r_i`.
//! * The null distribution is the **exact permutation distribution** given
//!   the observed (mid)ranks: each rank is `+` or `−` with probability ½,
//!   built by the same truncated DP over integer sums as the sign-flip test.
//!   `p = min(1, 2 · P(W+ ≤ min(W, R − W)))` with `R = Σ r_i` (the null is
//!   symmetric about `R/2`). Without ties this equals SciPy's
//!   `wilcoxon(..., zero_method="wilcox", method="exact")`. With ties SciPy
//!   1.17's `method="exact"` uses the tie-free null with a rounded statistic
//!   (conservative) and `method="auto"` switches to the normal approximation
//!   for n > 13; we keep the exact conditional (permutation) distribution
//!   with midranks instead, which equals SciPy's
//!   `method=PermutationMethod()` whenever that enumerates all 2^n signs
//!   (checked for n ≤ 13 in the reference tests).
//! * Above [`EXACT_MAX_N`] non-zero deltas the normal approximation with tie
//!   correction and no continuity correction is used and reported as
//!   `"normal"`.
//! * No non-zero deltas: `p = 1` (SciPy returns NaN).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Largest number of non-zero deltas for which the exact distribution is
/// used (its DP grows like n³: ~1.5 ms at 300, ~10 ms at 550).
pub const EXACT_MAX_N: usize = 300;

/// How a Wilcoxon p-value was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "StatsWilcoxonMethod")]
pub enum WilcoxonMethod {
    Exact,
    Normal,
}

/// Two-sided Wilcoxon signed-rank p-value on deltas.
pub fn wilcoxon(deltas: &[f64]) -> (f64, WilcoxonMethod) {
    let mut v: Vec<f64> = deltas.iter().copied().filter(|d| *d != 0.0).collect();
    let n = v.len();
    if n == 0 {
        return (1.0, WilcoxonMethod::Exact);
    }
    v.sort_unstable_by(|a, b| a.abs().total_cmp(&b.abs()));
    // Doubled midranks: positions i..j (0-based) tied → rank sum (i+1 + j+1).
    let mut ranks = vec![0usize; n];
    let mut tie_term = 0.0f64; // Σ (t³ − t)
    let mut i = 0;
    while i < n {
        let mut j = i;
        // Deltas come from `units::Deltas`: equal in decimal means bit-equal.
        while j + 1 < n && v[j + 1].abs() == v[i].abs() {
            j += 1;
        }
        for r in ranks.iter_mut().take(j + 1).skip(i) {
            *r = i + j + 2;
        }
        let t = (j - i + 1) as f64;
        tie_term += t * t * t - t;
        i = j + 1;
    }
    let w2: usize = v.iter().zip(&ranks).filter(|(d, _)| **d > 0.0).map(|(_, r)| *r).sum();
    let total: usize = ranks.iter().sum();
    if n > EXACT_MAX_N {
        let nf = n as f64;
        let w = w2 as f64 / 2.0;
        let mean = nf * (nf + 1.0) / 4.0;
        let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term / 48.0;
        if var <= 0.0 {
            return (1.0, WilcoxonMethod::Normal);
        }
        let z = (w - mean) / var.sqrt();
        return (crate::special::normal_two_sided(z), WilcoxonMethod::Normal);
    }
    let g = ranks.iter().fold(0usize, |g, &r| gcd(g, r));
    let mut ys: Vec<u64> = ranks.iter().map(|r| (r / g) as u64).collect();
    ys.sort_unstable();
    let c = w2.min(total - w2) / g;
    let p = 2.0 * crate::signflip::cdf_subset_sum(&ys, c);
    (p.min(1.0), WilcoxonMethod::Exact)
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_exact() {
        // n = 5 all positive: p = 2/32.
        let (p, m) = wilcoxon(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(m, WilcoxonMethod::Exact);
        assert!((p - 2.0 / 32.0).abs() < 1e-15);
        assert_eq!(wilcoxon(&[0.0, 0.0]).0, 1.0);
        assert_eq!(wilcoxon(&[3.0]).0, 1.0);
    }
}
