//! A proportion's confidence interval: the Wilson score interval, which stays inside [0, 1] and
//! keeps close to its nominal coverage for small n and proportions near 0 or 1, where the normal
//! (Wald) interval does not.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `k` of `n` as a share, with its 95% Wilson score interval; the share and interval are None
/// when `n` is 0.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Share {
    pub k: u32,
    pub n: u32,
    pub rate: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
}

impl Share {
    pub fn of(k: u32, n: u32) -> Share {
        let ci = wilson_95(k, n);
        Share {
            k,
            n,
            rate: (n > 0).then(|| f64::from(k) / f64::from(n)),
            ci_low: ci.map(|c| c.0),
            ci_high: ci.map(|c| c.1),
        }
    }
}

/// "2/3 = 67% [21%, 94%]", or "0/0 (none to count)".
impl std::fmt::Display for Share {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.rate, self.ci_low, self.ci_high) {
            (Some(r), Some(lo), Some(hi)) => {
                write!(f, "{}/{} = {:.0}% [{:.0}%, {:.0}%]", self.k, self.n, r * 100.0, lo * 100.0, hi * 100.0)
            }
            _ => write!(f, "{}/{} (none to count)", self.k, self.n),
        }
    }
}

/// The two-sided 95% normal quantile.
const Z_95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval of `k` successes in `n` trials; `None` when `n` is 0.
pub fn wilson_95(k: u32, n: u32) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let (n, p, z2) = (f64::from(n), f64::from(k) / f64::from(n), Z_95 * Z_95);
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z_95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_published_wilson_intervals() {
        // Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 → 0.2553–0.3662;
        // 15/148 → 0.0624–0.1605; 0/20 → 0–0.1611; 1/29 → 0.0061–0.1718.
        for (k, n, lo, hi) in
            [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)]
        {
            let (l, h) = wilson_95(k, n).unwrap();
            assert!((l - lo).abs() < 5e-5 && (h - hi).abs() < 5e-5, "{k}/{n}: {l} {h}");
        }
        assert_eq!(wilson_95(0, 0), None);
        assert_eq!(wilson_95(5, 5).unwrap().1, 1.0);
    }
}
