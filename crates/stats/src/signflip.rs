//! Exact two-sided paired sign-flip (randomisation) test.
//!
//! For deltas `d_1..d_n`, `T = |Σ d_i|` and
//! `p = #{s ∈ {−1,+1}^n : |Σ s_i d_i| ≥ T} / 2^n`.
//!
//! # Algorithm (no enumeration of `2^n` sign vectors)
//!
//! Flipping the sign of a zero delta changes nothing, so zeros are dropped
//! (the distribution of `Σ s_i d_i` is the same). With `y_i = |d_i|` on an
//! integer grid and `K = Σ_{i ∈ P} y_i` for a uniformly random subset `P`
//! (the deltas that get a `+` sign), `S = Σ s_i y_i = 2K − Y` with
//! `Y = Σ y_i`. By symmetry `p = 2 · P(K ≤ ⌊(Y − T)/2⌋)` for `T > 0`
//! (and `p = 1` for `T = 0`). The distribution of `K` is built by a dense
//! dynamic programme over achievable sums `0..=c`, truncated at
//! `c = ⌊(Y − T)/2⌋`; each step is `f'[k] = ½ f[k] + ½ f[k − y_i]`, i.e. the
//! array holds *probabilities* (each sign has weight ½), never counts, so
//! nothing overflows for any `n` (values below ~1e-308 underflow to 0, which
//! only affects p-values far below anything reportable). Cost `O(n · c)`.
//!
//! # The integer grid
//!
//! 1. **Rational path (exact).** Pass ratios are `passed / total`. Each ratio
//!    is recovered as a fraction with denominator ≤ [`MAX_DENOMINATOR`]
//!    (continued fractions, accepted only if it matches the `f64` to 1e-12).
//!    Each pair delta `with − without` is then an exact rational; all are
//!    put over their least common denominator and divided by the gcd of the
//!    numerators. The integer sums are exact, ties are exact, and the p-value
//!    is exact up to `f64` rounding of the probabilities (≈1e-15 relative).
//! 2. **Grid path.** If a ratio is not such a fraction (or the exact integer
//!    range is beyond the work budget), each `|d_i|` (in points) is rounded to
//!    a grid of [`BASE_GRID`] = 1e-6 points (coarsened by powers of two only
//!    if the work budget [`WORK_BUDGET`] would be exceeded). Every sum is
//!    then off by at most `E = Σ |rounding error_i|` (≤ `n · grid / 2`), so
//!    the DP gives rigorous bounds: `p_lower = P(|S_grid| ≥ T + E) ≤ p ≤
//!    P(|S_grid| ≥ T − E) = p_upper`. The reported `p` is the conservative
//!    `p_upper`; when `p_lower == p_upper` the result is exact and the method
//!    is reported as [`SignFlipMethod::Exact`], otherwise as
//!    [`SignFlipMethod::Grid`] with `p_lower` alongside. On the 1e-6 grid
//!    only sign vectors whose sum lies within `E` (≤ 1e-4 points for
//!    `n = 200`) of `T` can be misclassified, i.e. float-noise ties are
//!    counted as ties — the intended tolerance.
//! 3. **Normal fallback (large n).** The rigorous grid bound grows like
//!    `n · grid`, so for large groups of non-fraction deltas the bracket can
//!    become wide. When the Berry–Esseen bound of the normal approximation
//!    is smaller than the bracket, the normal approximation of the same
//!    randomisation distribution is reported instead (method `normal`):
//!    `Σ s_i d_i` has mean 0 and variance `Σ d_i²`, `p ≈ 2(1 − Φ(T/√Σd²))`
//!    and `|p − p_true| ≤ 2 · 0.56 · Σ|d|³ / (Σd²)^{3/2}` (Berry–Esseen
//!    for independent non-identical summands, Shevtsova's constant 0.56).
//!
//! [`SignFlip::error`] reports the bound in every case: 0 when exact; for
//! `grid` the true p is in `[p − error, p]`; for `normal` it is in
//! `[p − error, p + error]`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Largest denominator accepted when recovering a pass ratio as a fraction.
pub const MAX_DENOMINATOR: u64 = 10_000;
/// Base grid of the fallback path, in points.
pub const BASE_GRID: f64 = 1e-6;
/// Maximum DP cells (`n_nonzero × (c + 1)`) of the exact rational path
/// (≈ 0.3 s); beyond it the grid path is used.
pub const EXACT_BUDGET: u128 = 1_000_000_000;
/// Maximum DP cells of the grid path before the grid is coarsened.
pub const WORK_BUDGET: u128 = 200_000_000;

/// How a sign-flip p-value was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "StatsSignFlipMethod")]
pub enum SignFlipMethod {
    /// Exact (rational integer arithmetic, or grid bounds that coincide).
    Exact,
    /// Grid bounds that differ: `p` is the conservative upper bound, the
    /// true p lies in `[p − error, p]`.
    Grid,
    /// Normal approximation with Berry–Esseen bound `error` (large groups of
    /// non-fraction deltas only).
    Normal,
}

/// Result of the sign-flip test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignFlip {
    /// Two-sided p-value (conservative upper bound in grid mode).
    pub p: f64,
    /// Bound on the error of `p` (0 when exact; see the module docs).
    pub error: f64,
    pub method: SignFlipMethod,
}

/// Sign-flip test on pairs of pass ratios `(without, with)`; deltas are
/// `with − without` (the scale does not matter for the test).
pub fn sign_flip_pairs(pairs: &[(f64, f64)]) -> SignFlip {
    if let Some(r) = rational_path(pairs) {
        return r;
    }
    let deltas: Vec<f64> = pairs.iter().map(|(wo, wi)| 100.0 * (wi - wo)).collect();
    grid_path(&deltas)
}

/// Sign-flip test on arbitrary real deltas (points). Uses the grid path.
pub fn sign_flip_deltas(deltas: &[f64]) -> SignFlip {
    grid_path(deltas)
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Best rational approximation with denominator ≤ `max_den` that equals `x`
/// within 1e-12; `None` otherwise. Returns `(numerator, denominator)`.
pub fn rationalize(x: f64, max_den: u64) -> Option<(i128, u128)> {
    if !x.is_finite() {
        return None;
    }
    let neg = x < 0.0;
    let ax = x.abs();
    // Continued-fraction convergents h/k.
    let (mut h0, mut h1): (i128, i128) = (0, 1);
    let (mut k0, mut k1): (i128, i128) = (1, 0);
    let mut r = ax;
    for _ in 0..64 {
        let a = r.floor();
        if a > 1e15 {
            break;
        }
        let ai = a as i128;
        let h2 = ai * h1 + h0;
        let k2 = ai * k1 + k0;
        if k2 > max_den as i128 {
            break;
        }
        if (ax - h2 as f64 / k2 as f64).abs() <= 1e-12 {
            let n = if neg { -h2 } else { h2 };
            return Some((n, k2 as u128));
        }
        h0 = h1;
        h1 = h2;
        k0 = k1;
        k1 = k2;
        let frac = r - a;
        if frac <= 0.0 {
            break;
        }
        r = 1.0 / frac;
    }
    None
}

fn rational_path(pairs: &[(f64, f64)]) -> Option<SignFlip> {
    // Exact deltas as (signed numerator, denominator), reduced.
    let mut fr: Vec<(i128, u128)> = Vec::with_capacity(pairs.len());
    let mut lcm: u128 = 1;
    for &(wo, wi) in pairs {
        let (a, b) = rationalize(wo, MAX_DENOMINATOR)?;
        let (c, e) = rationalize(wi, MAX_DENOMINATOR)?;
        let num = c * b as i128 - a * e as i128;
        if num == 0 {
            continue;
        }
        let den = b * e;
        let g = gcd(num.unsigned_abs(), den);
        let (num, den) = (num / g as i128, den / g);
        lcm = lcm / gcd(lcm, den) * den;
        if lcm > 1_000_000_000_000_000 {
            return None;
        }
        fr.push((num, den));
    }
    let mut ys: Vec<u128> = Vec::with_capacity(fr.len());
    let mut signed: i128 = 0;
    let mut g: u128 = 0;
    for &(num, den) in &fr {
        let y = num.unsigned_abs() * (lcm / den);
        signed += num.signum() * y as i128;
        g = gcd(g, y);
        ys.push(y);
    }
    if ys.is_empty() {
        return Some(SignFlip { p: 1.0, error: 0.0, method: SignFlipMethod::Exact });
    }
    let t = signed.unsigned_abs() / g;
    for y in &mut ys {
        *y /= g;
    }
    let total: u128 = ys.iter().sum();
    let p = tail_two_sided(&ys, total, t)?;
    Some(SignFlip { p, error: 0.0, method: SignFlipMethod::Exact })
}

/// `P(|S| ≥ t)` for `S = Σ s_i y_i` with uniform random signs, or `None` if
/// the DP would exceed [`WORK_BUDGET`].
fn tail_two_sided(ys: &[u128], total: u128, t: u128) -> Option<f64> {
    tails_two_sided(ys, total, t, t, EXACT_BUDGET).map(|(p, _)| p)
}

/// `(P(|S| ≥ t_a), P(|S| ≥ t_b))` for `t_a ≤ t_b` from one DP.
fn tails_two_sided(ys: &[u128], total: u128, t_a: u128, t_b: u128, budget: u128) -> Option<(f64, f64)> {
    debug_assert!(t_a <= t_b);
    if t_a == 0 && t_b == 0 {
        return Some((1.0, 1.0));
    }
    let c_of = |t: u128| (t <= total).then(|| (total - t) / 2);
    let (ca, cb) = (c_of(t_a), c_of(t_b));
    let Some(c) = ca else {
        return Some((0.0, 0.0));
    };
    let n = ys.iter().filter(|&&y| y > 0).count() as u128;
    if n.saturating_mul(c + 1) > budget {
        return None;
    }
    let mut ys: Vec<usize> = ys.iter().filter(|&&y| y > 0).map(|&y| y as usize).collect();
    ys.sort_unstable();
    let f = subset_sum_pmf(&ys, c as usize);
    let tail = |t: u128, c: Option<u128>| match c {
        _ if t == 0 => 1.0,
        None => 0.0,
        Some(c) => (2.0 * f[..=c as usize].iter().sum::<f64>()).min(1.0),
    };
    Some((tail(t_a, ca), tail(t_b, cb)))
}

/// `P(K ≤ c)` where `K = Σ_{i ∈ P} y_i` and each `i` is in `P` with
/// probability ½ independently (truncated dense DP over `0..=c`).
pub(crate) fn cdf_subset_sum(ys: &[usize], c: usize) -> f64 {
    subset_sum_pmf(ys, c).iter().sum()
}

/// `P(K = k)` for `k` in `0..=c` (truncated dense DP).
fn subset_sum_pmf(ys: &[usize], c: usize) -> Vec<f64> {
    let mut f = vec![0.0f64; c + 1];
    let mut g = vec![0.0f64; c + 1];
    f[0] = 1.0;
    let mut reach = 0usize; // highest index that can be non-zero
    for &y in ys {
        let hi = (reach + y).min(c);
        // k < y: only the "minus" branch.
        let lo_end = y.min(hi + 1);
        for (gk, fk) in g[..lo_end].iter_mut().zip(&f[..lo_end]) {
            *gk = 0.5 * fk;
        }
        if y <= hi {
            let (a, b) = (&f[y..=hi], &f[..=hi - y]);
            for ((gk, fk), fs) in g[y..=hi].iter_mut().zip(a).zip(b) {
                *gk = 0.5 * (fk + fs);
            }
        }
        std::mem::swap(&mut f, &mut g);
        reach = hi;
    }
    f
}

fn grid_path(deltas: &[f64]) -> SignFlip {
    let xs: Vec<f64> = deltas.iter().copied().filter(|d| *d != 0.0).collect();
    if xs.is_empty() {
        return SignFlip { p: 1.0, error: 0.0, method: SignFlipMethod::Exact };
    }
    let t_obs = xs.iter().sum::<f64>().abs();
    let mut grid = BASE_GRID;
    loop {
        let ys: Vec<u128> = xs.iter().map(|x| (x.abs() / grid).round() as u128).collect();
        let err: f64 =
            xs.iter().zip(&ys).map(|(x, &y)| (x.abs() - y as f64 * grid).abs()).sum::<f64>() + 1e-9 * (1.0 + t_obs);
        let total: u128 = ys.iter().sum();
        // Thresholds on the integer grid (S_grid * grid compared with T ∓ E).
        let t_up = ((t_obs - err) / grid).ceil().max(0.0) as u128;
        let t_lo = ((t_obs + err) / grid).ceil().max(0.0) as u128;
        let c = total.saturating_sub(t_up) / 2;
        if (ys.len() as u128).saturating_mul(c + 1) > WORK_BUDGET {
            grid *= 2.0;
            continue;
        }
        let (p_up, p_lo) = tails_two_sided(&ys, total, t_up, t_lo, WORK_BUDGET).unwrap_or((1.0, 0.0));
        let width = (p_up - p_lo).max(0.0);
        if width <= 1e-15 * p_up.max(1e-300) {
            return SignFlip { p: p_up, error: 0.0, method: SignFlipMethod::Exact };
        }
        let (pn, be) = normal_approx(&xs);
        if be < width {
            return SignFlip { p: pn, error: be, method: SignFlipMethod::Normal };
        }
        return SignFlip { p: p_up, error: width, method: SignFlipMethod::Grid };
    }
}

/// Normal approximation of the sign-flip distribution and its Berry–Esseen
/// error bound on the two-sided p.
fn normal_approx(xs: &[f64]) -> (f64, f64) {
    let s: f64 = xs.iter().sum();
    let v: f64 = xs.iter().map(|x| x * x).sum();
    let r: f64 = xs.iter().map(|x| x.abs().powi(3)).sum();
    let p = crate::special::normal_two_sided(s / v.sqrt());
    (p, (2.0 * 0.56 * r / v.powf(1.5)).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(d: &[f64]) -> f64 {
        let n = d.len();
        let t = d.iter().sum::<f64>().abs();
        let mut cnt = 0u64;
        for m in 0..(1u64 << n) {
            let s: f64 = (0..n).map(|i| if m >> i & 1 == 1 { d[i] } else { -d[i] }).sum();
            if s.abs() >= t - 1e-9 {
                cnt += 1;
            }
        }
        cnt as f64 / (1u64 << n) as f64
    }

    #[test]
    fn matches_brute_force() {
        let pairs = [
            (0.0, 1.0),
            (1.0 / 3.0, 1.0),
            (0.5, 0.25),
            (0.2, 0.8),
            (1.0, 1.0),
            (0.1, 0.4),
            (2.0 / 3.0, 1.0 / 3.0),
            (0.0, 0.7),
        ];
        let d: Vec<f64> = pairs.iter().map(|(a, b)| 100.0 * (b - a)).collect();
        let r = sign_flip_pairs(&pairs);
        assert_eq!(r.method, SignFlipMethod::Exact);
        assert!((r.p - brute(&d)).abs() < 1e-12, "{} vs {}", r.p, brute(&d));
        let g = sign_flip_deltas(&d);
        assert!((g.p - brute(&d)).abs() < 1e-12);
    }

    #[test]
    fn smallest_p_and_zeros() {
        // 6 positive deltas + 4 zeros: p = 2/2^6.
        let mut pairs = vec![(0.0, 1.0); 6];
        pairs.extend(vec![(0.5, 0.5); 4]);
        let r = sign_flip_pairs(&pairs);
        assert!((r.p - 2.0 / 64.0).abs() < 1e-15);
        assert_eq!(sign_flip_pairs(&[(0.3, 0.3)]).p, 1.0);
        assert_eq!(sign_flip_pairs(&[]).p, 1.0);
    }

    #[test]
    fn rationalize_works() {
        assert_eq!(rationalize(1.0 / 3.0, 10_000), Some((1, 3)));
        assert_eq!(rationalize(0.0, 10_000), Some((0, 1)));
        assert_eq!(rationalize(1.0, 10_000), Some((1, 1)));
        assert_eq!(rationalize(std::f64::consts::PI / 4.0, 10_000), None);
    }

    #[test]
    fn irrational_deltas_use_grid_and_bound() {
        let d: Vec<f64> = (1..=12).map(|i| (i as f64).sqrt() * if i % 3 == 0 { -1.0 } else { 1.0 }).collect();
        let r = sign_flip_deltas(&d);
        assert!(r.error >= 0.0);
        assert!((r.p - brute(&d)).abs() < 1e-12);
    }
}

#[cfg(test)]
mod large_tests {
    use super::*;

    #[test]
    fn large_n_falls_back_to_bounded_grid() {
        // 3,000 irrational deltas: beyond the exact budget on the 1e-6 grid.
        let d: Vec<f64> = (1..=3000).map(|i| (i as f64).sqrt().fract() * 10.0 - 4.9).collect();
        let r = sign_flip_deltas(&d);
        assert_eq!(r.method, SignFlipMethod::Normal);
        let (pn, be) = normal_approx(&d);
        assert_eq!(r.p, pn);
        assert!(be < 0.05, "Berry–Esseen bound {be}");
        // Rational input of the same size stays exact (larger budget).
        let pairs: Vec<(f64, f64)> = (0..3000).map(|i| ((i % 5) as f64 / 4.0, ((i * 7) % 11) as f64 / 10.0)).collect();
        assert_eq!(sign_flip_pairs(&pairs).method, SignFlipMethod::Exact);
    }
}
