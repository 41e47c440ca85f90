//! Minimum detectable effect (MDE) of the sign-flip test (α = 0.05
//! two-sided, 80% power).
//!
//! The sign-flip test conditions on the magnitudes `|d_i|`, so its power is
//! computed under the matching alternative: the magnitudes are the observed
//! ones (units with a zero delta stay zero) and each non-zero unit's delta is
//! positive with probability `π`, independently (`π = ½` is the null). The
//! test rejects iff `|S| ≥ t_crit`, the smallest statistic whose sign-flip p
//! is below α; `power(π) = P_π(|S| ≥ t_crit)`. The MDE is the mean delta
//! `(2π* − 1) · Σ|d_i| / n` (points, over all `n` units) at the `π*` where the
//! power reaches 80% (bisection on π to 1e-4).
//!
//! * Up to [`EXACT_MAX_N`] non-zero deltas the power is exact: the null and
//!   the alternative are dynamic programmes over the integer sums, on the
//!   deltas' own lattice when it fits [`DP_BUDGET`] cells, else on the grid
//!   the sign-flip test would pick for that budget (each `|d_i|` moves by at
//!   most half a grid step).
//! * Above it both distributions are normal (Lyapunov CLT): null variance
//!   `V = Σ d_i²`, `t_crit = z_{0.975} √V`; under π mean `(2π − 1) Σ|d_i|` and
//!   variance `4π(1 − π) V`. No Monte Carlo, so no simulation error.
//!
//! `None` when the test cannot reach α at all (`min_p ≥ α`, see
//! [`crate::signflip::min_p`]): no effect of this design is detectable.

use crate::signflip::{grid_for, min_p, weighted_subset_sum_pmf, Item, ALPHA};

/// Target power for the MDE.
pub const POWER: f64 = 0.80;
/// Largest number of non-zero deltas with the exact power.
pub const EXACT_MAX_N: usize = 60;
/// DP cells per distribution of the exact power.
pub const DP_BUDGET: u64 = 200_000;
const Z_975: f64 = 1.959_963_984_540_054;

/// MDE in points for `n` units whose non-zero deltas are `items`, with
/// `points` points per unit of the items' magnitudes.
pub(crate) fn mde(n: usize, items: &[Item], points: f64) -> Option<f64> {
    if items.is_empty() || min_p(items.len()) >= ALPHA {
        return None;
    }
    let total: f64 = items.iter().map(|i| i.x).sum();
    let power: Box<dyn Fn(f64) -> f64> =
        if items.len() <= EXACT_MAX_N { exact_power(items)? } else { normal_power(items, total) };
    let (mut lo, mut hi) = (0.5, 1.0);
    while hi - lo > 1e-4 {
        let mid = 0.5 * (lo + hi);
        if power(mid) >= POWER {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some((2.0 * hi - 1.0) * total * points / n as f64)
}

/// Exact power on the grid: `None` if rounding left no attainable rejection.
fn exact_power(items: &[Item]) -> Option<Box<dyn Fn(f64) -> f64>> {
    let total: f64 = items.iter().map(|i| i.x).sum();
    let l = grid_for(items, 2.0 * total, DP_BUDGET);
    let mut gs: Vec<u64> = items.iter().map(|i| i.on_grid(l).0).collect();
    gs.sort_unstable();
    let grand: u64 = gs.iter().sum();
    let g = grand as usize;
    let null = weighted_subset_sum_pmf(&gs, g, 0.5);
    // Largest k with P0(K ≤ k) < α/2: reject iff K ≤ k or K ≥ G − k.
    let mut cum = 0.0;
    let mut k_crit = None;
    for (k, f) in null.iter().enumerate().take(g / 2 + 1) {
        cum += f;
        if 2.0 * cum >= ALPHA || 2 * k == g {
            break;
        }
        k_crit = Some(k);
    }
    let k = k_crit?;
    Some(Box::new(move |pi: f64| {
        let f = weighted_subset_sum_pmf(&gs, g, pi);
        f[..=k].iter().sum::<f64>() + f[g - k..].iter().sum::<f64>()
    }))
}

fn normal_power(items: &[Item], total: f64) -> Box<dyn Fn(f64) -> f64> {
    let v: f64 = items.iter().map(|i| i.x * i.x).sum();
    let t = Z_975 * v.sqrt();
    let phi = |z: f64| {
        let upper = 0.5 * crate::special::normal_two_sided(z);
        if z >= 0.0 {
            1.0 - upper
        } else {
            upper
        }
    };
    Box::new(move |pi: f64| {
        let mean = (2.0 * pi - 1.0) * total;
        let sd = 2.0 * (pi * (1.0 - pi) * v).sqrt();
        if sd == 0.0 {
            return if mean.abs() >= t { 1.0 } else { 0.0 };
        }
        phi((mean - t) / sd) + phi((-t - mean) / sd)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(d: &[f64]) -> Vec<Item> {
        d.iter().filter(|x| **x != 0.0).map(|&x| Item { negative: x < 0.0, x: x.abs(), frac: None }).collect()
    }

    #[test]
    fn unreachable_designs_have_no_mde() {
        assert_eq!(mde(5, &items(&[10.0, 20.0, 30.0, 40.0, 50.0]), 1.0), None);
        assert_eq!(mde(9, &items(&[0.0, 0.0, 0.0, 0.0, 10.0, 20.0, 30.0, 40.0, 50.0]), 1.0), None);
        assert_eq!(mde(3, &[], 1.0), None);
    }

    #[test]
    fn equal_magnitudes_match_the_binomial() {
        // n = 10 deltas of ±10 points: S = 10·(2B − 10), B ~ Bin(10, π).
        // Null: P(|S| ≥ 100) = 2/1024 < α, P(|S| ≥ 80) = 22/1024 < α,
        // P(|S| ≥ 60) = 112/1024 ≥ α: reject iff B ≤ 1 or B ≥ 9.
        let m = mde(10, &items(&[10.0; 10]), 1.0).unwrap();
        let pi = (m / 10.0 + 1.0) / 2.0;
        let power = |p: f64| p.powi(10) + 10.0 * p.powi(9) * (1.0 - p);
        assert!((power(pi) - 0.8).abs() < 1e-3, "power {} at π {pi}", power(pi));
    }

    #[test]
    fn normal_branch_is_close_to_exact_at_the_switch() {
        let d: Vec<f64> = (0..EXACT_MAX_N).map(|i| 5.0 + (i % 7) as f64 * 5.0).collect();
        let exact = mde(EXACT_MAX_N, &items(&d), 1.0).unwrap();
        let total: f64 = d.iter().sum();
        let normal = normal_power(&items(&d), total);
        let (mut lo, mut hi) = (0.5, 1.0);
        while hi - lo > 1e-6 {
            let mid = 0.5 * (lo + hi);
            if normal(mid) >= POWER {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let approx = (2.0 * hi - 1.0) * total / EXACT_MAX_N as f64;
        assert!((exact - approx).abs() < 0.1 * exact, "{exact} vs {approx}");
    }
}
