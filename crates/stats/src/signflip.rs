//! Two-sided paired sign-flip (randomisation) test with certified bounds.
//!
//! For deltas `d_1..d_n`, `T = |Σ d_i|` and
//! `p = #{s ∈ {−1,+1}^n : |Σ s_i d_i| ≥ T} / 2^n`. Zeros are dropped (their
//! sign changes nothing); with none left, `p = 1`.
//!
//! # Distribution over integer sums
//! Each `|d_i|` is put on a grid `1/L` as an integer `g_i`; `K`, the sum of
//! the `g_i` that get a `+`, is built by a dense dynamic programme truncated
//! at the threshold of interest (`f'[k] = ½ f[k] + ½ f[k − g_i]`, so the array
//! holds probabilities and nothing overflows). `S_grid = 2K − G` with
//! `G = Σ g_i`, and by symmetry `P(|S_grid| ≥ t) = 2 · P(K ≤ ⌊(G − t)/2⌋)`.
//! Cost: `n · (G − t)/2` cells.
//!
//! # Exact, or a certified bracket
//! Deltas of pass ratios are rationals (`passed / total`, averaged over
//! repeats); [`crate::units`] recovers them. The grid is chosen per test
//! ([`grid_for`]): the denominators of the most frequent deltas first, as long
//! as their least common multiple fits the work budget; that grid if it makes
//! every item exact, else the largest multiple of it or of a highly
//! composite number that fits, whichever rounds the items least. When every `|d_i|·L` is an integer the sums are
//! exact and so is `p` (method `exact`). Otherwise each item is rounded to the
//! nearest grid point; `E = Σ |d_i − g_i/L|` bounds how far any signed sum
//! moves, so `P(|S_grid| ≥ L(T + E)) ≤ p ≤ P(|S_grid| ≥ L(T − E))`: the
//! reported `p` is that upper bound and `error` the width of the bracket
//! (method `grid`; the true p is in `[p − error, p]`). Only items whose
//! denominator does not divide `L` add to `E`.
//!
//! # Few units
//! Up to [`ENUMERATE_UP_TO`] non-zero units, every one of the `2^n` sign
//! vectors is summed (as a sum over each half of the units, formed afresh)
//! and those with `|S| ≥ T` counted, sums within `8·n·ε·Σ|d|` of `T` counted as ties: method
//! `exact`. (Grids are for many units; on a few units whose deltas are not
//! small fractions they would need huge tables.)
//!
//! # Refinement
//! The test runs with the budgets of [`BUDGETS`] in turn (each DP table at
//! most [`MAX_TABLE`] cells long, so memory stays bounded) and stops at the
//! first whose bracket does not contain [`ALPHA`] and is at most
//! [`ERROR_TARGET`] or 5% of p wide. A bracket that still contains α after the last
//! budget is reported as such: the classification calls it `undecided`.
//!
//! # Floating point
//! `T` (grid path) is summed in `f64`; a margin of `4·n·ε·Σ|d|` grid units on
//! each threshold covers its rounding. The DP only adds non-negative numbers
//! and halves them, so each probability carries a relative error below
//! `n·ε`; `2·n·ε·p` is added to `error` (0 for `exact`, where it is below
//! 1e-12 relative for n ≤ 10⁴). Probabilities below ~1e-308 underflow to 0,
//! which only lowers p-values that are far below anything reportable.

use crate::rational::{gcd, rationalize, MAX_DENOMINATOR};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Significance level of the verdicts the refinement is aimed at.
pub const ALPHA: f64 = 0.05;
/// DP cells allowed per pass, in the order they are tried (~1 ns per cell).
pub const BUDGETS: [u64; 3] = [3_000_000, 40_000_000, 400_000_000];
/// Most non-zero units whose sign vectors are all enumerated.
pub const ENUMERATE_UP_TO: usize = 20;
/// Longest DP table (cells of `f64`; two tables are kept): 256 MiB in all.
pub const MAX_TABLE: u64 = 16 << 20;
/// Bracket width below which a decided p is not refined further (or 5% of
/// p, when that is wider).
pub const ERROR_TARGET: f64 = 0.005;
/// Largest grid scale `L` (keeps `g_i` and their sums well inside `u64`).
const MAX_SCALE: u128 = 1 << 40;

/// How a sign-flip p-value was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "StatsSignFlipMethod")]
pub enum SignFlipMethod {
    /// Every sum exact on the grid: `p` is exact.
    Exact,
    /// Items rounded to the grid: `p` is the certified upper bound and the
    /// true p lies in `[p − error, p]`.
    Grid,
}

/// Result of the sign-flip test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignFlip {
    /// Two-sided p-value (its certified upper bound for `grid`).
    pub p: f64,
    /// Width of the certified bracket `[p − error, p]` (0 when exact).
    pub error: f64,
    pub method: SignFlipMethod,
}

impl SignFlip {
    const ONE: SignFlip = SignFlip { p: 1.0, error: 0.0, method: SignFlipMethod::Exact };

    /// The certified lower bound of p.
    pub fn p_low(&self) -> f64 {
        (self.p - self.error).max(0.0)
    }

    /// Whether the bracket contains `alpha` (no verdict at that level).
    pub fn straddles(&self, alpha: f64) -> bool {
        self.p_low() < alpha && self.p >= alpha
    }
}

/// Smallest two-sided p the test can reach with `n` non-zero deltas (all of
/// one sign): `2 / 2^n`, 1 without any.
pub fn min_p(n: usize) -> f64 {
    if n == 0 {
        1.0
    } else {
        (2.0 * 0.5f64.powi(n.min(2000) as i32)).min(1.0)
    }
}

/// One non-zero delta: its magnitude (any fixed unit) and, when known, the
/// same magnitude as a reduced fraction `num / den`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Item {
    pub negative: bool,
    pub x: f64,
    pub frac: Option<(u128, u128)>,
}

impl Item {
    /// `(g, |x·L − g|)` for the grid `1/L`, in grid units.
    pub(crate) fn on_grid(&self, l: u128) -> (u64, f64) {
        match self.frac {
            Some((num, den)) => {
                let q = num * l;
                let (g, r) = (q / den, q % den);
                // Nearest grid point; the error is exact: r/den or (den − r)/den.
                if 2 * r < den {
                    (g as u64, r as f64 / den as f64)
                } else {
                    (g as u64 + 1, (den - r) as f64 / den as f64)
                }
            }
            None => {
                let v = self.x * l as f64;
                let g = v.round();
                (g as u64, (v - g).abs())
            }
        }
    }
}

/// Sign-flip test on exact rational deltas `(numerator, denominator)`.
pub fn sign_flip_exact(deltas: &[(i128, u128)]) -> SignFlip {
    sign_flip_items(&exact_items(deltas))
}

/// Sign-flip test on arbitrary real deltas (every item on the grid path).
pub fn sign_flip_deltas(deltas: &[f64]) -> SignFlip {
    sign_flip_items(&float_items(deltas).0)
}

/// The non-zero deltas as items, magnitudes in the fractions' unit.
pub(crate) fn exact_items(deltas: &[(i128, u128)]) -> Vec<Item> {
    deltas
        .iter()
        .filter(|(n, _)| *n != 0)
        .map(|&(n, d)| Item {
            negative: n < 0,
            x: n.unsigned_abs() as f64 / d as f64,
            frac: Some((n.unsigned_abs(), d)),
        })
        .collect()
}

/// The non-zero deltas as items scaled to at most 1 (the test is scale-free),
/// and the scale (deltas per item unit). When every scaled magnitude is a
/// fraction with denominator ≤ [`MAX_DENOMINATOR`] (within 1e-12, so float
/// noise is a tie), the items carry those fractions and can be exact.
pub(crate) fn float_items(deltas: &[f64]) -> (Vec<Item>, f64) {
    let scale = deltas.iter().fold(0.0f64, |m, d| m.max(d.abs()));
    let mut items: Vec<Item> = deltas
        .iter()
        .filter(|d| **d != 0.0)
        .map(|&d| Item { negative: d < 0.0, x: d.abs() / scale, frac: None })
        .collect();
    let fracs: Option<Vec<(i128, u128)>> = items.iter().map(|i| rationalize(i.x, MAX_DENOMINATOR)).collect();
    if let Some(fracs) = fracs {
        for (it, (num, den)) in items.iter_mut().zip(fracs) {
            it.frac = Some((num.unsigned_abs(), den));
        }
    }
    (items, scale)
}

pub(crate) fn sign_flip_items(items: &[Item]) -> SignFlip {
    if items.is_empty() {
        return SignFlip::ONE;
    }
    let total: f64 = items.iter().map(|i| i.x).sum();
    let t_obs = items.iter().map(|i| if i.negative { -i.x } else { i.x }).sum::<f64>().abs();
    if items.len() <= ENUMERATE_UP_TO {
        return enumerate(items, t_obs, total);
    }
    let mut last_scale = 0;
    let mut result = SignFlip::ONE;
    for budget in BUDGETS {
        let budget = budget.min(MAX_TABLE.saturating_mul(items.len() as u64));
        let l = grid_for(items, (total - t_obs).max(0.0), budget);
        if l == last_scale {
            break;
        }
        last_scale = l;
        result = pass(items, l, t_obs, total);
        let decided = !result.straddles(ALPHA);
        if result.method == SignFlipMethod::Exact || (decided && result.error <= ERROR_TARGET.max(result.p / 20.0)) {
            break;
        }
    }
    result
}

/// `P(|S| ≥ T)` over all `2^n` sign vectors of the items (see the module docs). The signed sums
/// of each half of the items are formed afresh (a few additions each, so no rounding builds up),
/// and every pair of a first-half sum and a second-half sum is one sign vector.
fn enumerate(items: &[Item], t_obs: f64, total: f64) -> SignFlip {
    let n = items.len();
    let tie = 8.0 * n as f64 * f64::EPSILON * total;
    let sums = |half: &[Item]| -> Vec<f64> {
        (0u32..1 << half.len())
            .map(|signs| half.iter().enumerate().map(|(k, it)| if signs >> k & 1 == 1 { it.x } else { -it.x }).sum())
            .collect()
    };
    let (a, b) = items.split_at(n / 2);
    let (a, b) = (sums(a), sums(b));
    let hits: u64 = a.iter().map(|x| b.iter().filter(|y| (x + *y).abs() >= t_obs - tie).count() as u64).sum();
    SignFlip { p: hits as f64 / (1u64 << n) as f64, error: 0.0, method: SignFlipMethod::Exact }
}

/// One DP on the grid `1/l`.
fn pass(items: &[Item], l: u128, t_obs: f64, total: f64) -> SignFlip {
    let mut gs = Vec::with_capacity(items.len());
    let mut err = 0.0f64; // E·L
    let mut signed: i128 = 0;
    for it in items {
        let (g, e) = it.on_grid(l);
        err += e;
        signed += if it.negative { -(g as i128) } else { g as i128 };
        gs.push(g);
    }
    let grand: u64 = gs.iter().sum();
    if err == 0.0 {
        // Exact: the observed statistic is the integer |Σ ±g_i|.
        let t = signed.unsigned_abs() as u64;
        let (p, _) = tails(&mut gs, grand, t, t);
        return SignFlip { p, error: 0.0, method: SignFlipMethod::Exact };
    }
    let lf = l as f64;
    let margin = 4.0 * items.len() as f64 * f64::EPSILON * total * lf + 1e-9;
    let t_hi = (lf * t_obs - err - margin).ceil().max(0.0) as u64;
    let t_lo = (lf * t_obs + err + margin).ceil() as u64;
    let (p_hi, p_lo) = tails(&mut gs, grand, t_hi, t_lo);
    let float = 2.0 * items.len() as f64 * f64::EPSILON * p_hi;
    let p = (p_hi + float).min(1.0);
    SignFlip { p, error: p - p_lo, method: SignFlipMethod::Grid }
}

/// The grid scale `L` for a test whose truncated DP spans `span·L/2` cells
/// per item, within `budget` cells (see the module docs).
pub(crate) fn grid_for(items: &[Item], span: f64, budget: u64) -> u128 {
    let n = items.len() as f64;
    let l_max = ((budget as f64 / n - 1.0) * 2.0 / span.max(1e-12)).clamp(1.0, MAX_SCALE as f64) as u128;
    // Denominators by how many items they make exact, most first.
    let mut dens: Vec<(u128, usize)> = Vec::new();
    for it in items {
        if let Some((_, d)) = it.frac {
            match dens.iter_mut().find(|(x, _)| *x == d) {
                Some(e) => e.1 += 1,
                None => dens.push((d, 1)),
            }
        }
    }
    dens.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let all_fractions = items.iter().all(|i| i.frac.is_some());
    let mut cover: u128 = 1;
    let mut covers_all = all_fractions;
    for &(d, _) in &dens {
        let next = cover / gcd(cover, d) * d;
        if next <= l_max {
            cover = next;
        } else {
            covers_all = false;
        }
    }
    // Every item exact on `1/cover`: a finer grid would only cost time.
    if covers_all {
        return cover;
    }
    // Otherwise the multiple of `cover` or of a highly composite number that
    // fits and gives the smallest rounding error.
    let error = |l: u128| items.iter().map(|i| i.on_grid(l).1).sum::<f64>() / l as f64;
    std::iter::once(cover)
        .chain(HIGHLY_COMPOSITE.iter().copied().filter(|&h| h <= l_max))
        .map(|h| h * (l_max / h))
        .min_by(|&a, &b| error(a).total_cmp(&error(b)))
        .unwrap_or(l_max)
}

/// Bases of the grid scales tried besides the items' own denominators.
const HIGHLY_COMPOSITE: [u128; 14] =
    [1, 12, 60, 360, 720, 840, 2520, 5040, 10_080, 27_720, 55_440, 360_360, 720_720, 12_252_240];

/// `(P(|S| ≥ t_a), P(|S| ≥ t_b))` for `t_a ≤ t_b`, `S = Σ s_i g_i` with
/// uniform random signs and `grand = Σ g_i`, from one truncated DP.
fn tails(gs: &mut [u64], grand: u64, t_a: u64, t_b: u64) -> (f64, f64) {
    let cut = |t: u64| (t <= grand).then(|| (grand - t) / 2);
    let Some(c) = cut(t_a) else {
        return (0.0, 0.0);
    };
    gs.sort_unstable();
    let f = subset_sum_pmf(gs, c as usize);
    let tail = |t: u64| match cut(t) {
        _ if t == 0 => 1.0,
        None => 0.0,
        Some(c) => (2.0 * f[..=c as usize].iter().sum::<f64>()).min(1.0),
    };
    (tail(t_a), tail(t_b))
}

/// `P(K ≤ c)` where `K = Σ_{i ∈ P} y_i` and each `i` is in `P` with
/// probability ½ independently.
pub(crate) fn cdf_subset_sum(ys: &[u64], c: usize) -> f64 {
    subset_sum_pmf(ys, c).iter().sum()
}

/// `P(K = k)` for `k` in `0..=c` (truncated dense DP; `ys` sorted ascending
/// keeps the reachable prefix short).
pub(crate) fn subset_sum_pmf(ys: &[u64], c: usize) -> Vec<f64> {
    weighted_subset_sum_pmf(ys, c, 0.5)
}

/// `P(K = k)` for `k` in `0..=c` when each item is in `P` with probability
/// `q` (used for power).
pub(crate) fn weighted_subset_sum_pmf(ys: &[u64], c: usize, q: f64) -> Vec<f64> {
    let mut f = vec![0.0f64; c + 1];
    let mut g = vec![0.0f64; c + 1];
    f[0] = 1.0;
    let mut reach = 0usize; // highest index that can be non-zero
    for &y in ys {
        let y = y as usize;
        let hi = reach.saturating_add(y).min(c);
        let lo_end = y.min(hi + 1);
        for (gk, fk) in g[..lo_end].iter_mut().zip(&f[..lo_end]) {
            *gk = (1.0 - q) * fk;
        }
        if y <= hi {
            let (a, b) = (&f[y..=hi], &f[..=hi - y]);
            for ((gk, fk), fs) in g[y..=hi].iter_mut().zip(a).zip(b) {
                *gk = (1.0 - q) * fk + q * fs;
            }
        }
        std::mem::swap(&mut f, &mut g);
        reach = hi;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_p_values() {
        assert_eq!(min_p(0), 1.0);
        assert_eq!(min_p(1), 1.0);
        assert_eq!(min_p(5), 2.0 / 32.0);
        assert_eq!(min_p(6), 2.0 / 64.0);
    }

    #[test]
    fn grid_covers_frequent_denominators() {
        let it = |n: u128, d: u128| Item { negative: false, x: n as f64 / d as f64, frac: Some((n, d)) };
        let items = [it(1, 3), it(2, 3), it(1, 4), it(3, 7)];
        let l = grid_for(&items, 1.0, 1_000);
        assert!(l.is_multiple_of(12), "{l}");
        assert!(l.is_multiple_of(7) || l < 84);
    }

    /// Items of generated rows (1–50 tests per task, repeats), exact p by the
    /// exact path on the deltas' own lattice.
    fn generated() -> Vec<(Vec<Item>, f64)> {
        use crate::synthetic::{pairs, Design};
        let ps = pairs(Design { skills: 12, configs: 1, tasks: 14, seed: 9 });
        ps.chunks(ps.len() / 12)
            .filter_map(|g| {
                let units: Vec<[&crate::Pair; 1]> = g.iter().map(|p| [p]).collect();
                let exact: Option<Vec<_>> = units.iter().map(|u| crate::rational::exact_delta(u)).collect();
                let items = exact_items(&exact?);
                let total: f64 = items.iter().map(|i| i.x).sum();
                let t = items.iter().map(|i| if i.negative { -i.x } else { i.x }).sum::<f64>().abs();
                let exact = grid_for(&items, total - t, u64::MAX / 2);
                let r = pass(&items, exact, t, total);
                (r.method == SignFlipMethod::Exact).then_some((items, r.p))
            })
            .collect()
    }

    #[test]
    fn coarse_brackets_contain_the_exact_p_and_refinement_decides() {
        let mut straddled = 0;
        for (items, want) in generated() {
            let total: f64 = items.iter().map(|i| i.x).sum();
            let t = items.iter().map(|i| if i.negative { -i.x } else { i.x }).sum::<f64>().abs();
            for l in [1, 5, 12, 60, 97] {
                let r = pass(&items, l, t, total);
                assert!(r.p_low() <= want + 1e-12 && want <= r.p + 1e-12, "L {l}: {r:?} vs {want}");
                straddled += usize::from(r.straddles(ALPHA) && !(0.04..0.06).contains(&want));
            }
            let r = sign_flip_items(&items);
            assert!(r.p_low() <= want + 1e-12 && want <= r.p + 1e-12, "{r:?} vs {want}");
            assert!(!r.straddles(ALPHA), "refined bracket {r:?} still contains α (exact {want})");
        }
        assert!(straddled > 0, "no coarse bracket straddled α: the refinement went untested");
    }

    #[test]
    fn smallest_p_and_zeros() {
        let mut d = vec![(1i128, 1u128); 6];
        d.extend([(0, 1); 4]);
        let r = sign_flip_exact(&d);
        assert_eq!(r.method, SignFlipMethod::Exact);
        assert!((r.p - 2.0 / 64.0).abs() < 1e-15);
        assert_eq!(sign_flip_exact(&[(0, 1)]).p, 1.0);
        assert_eq!(sign_flip_exact(&[]).p, 1.0);
    }
}
