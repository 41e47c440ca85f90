//! Minimum detectable effect (MDE) of the sign-flip test (α = 0.05
//! two-sided, 80% power).
//!
//! The sign-flip test conditions on the magnitudes `|d_i|`, so its power is
//! computed under the matching alternative: the magnitudes are the observed
//! ones (units with a zero delta stay zero) and each non-zero unit's delta is
//! positive with probability `π`, independently (`π = ½` is the null). The
//! test rejects iff its p is below α; `power(π)` is the probability of that.
//! The MDE is the mean delta `(2π* − 1) · Σ|d_i| / n` (points, over all `n`
//! units) at the `π*` where the power reaches 80% (bisection on π to 1e-4).
//! How the power was had is named in the result ([`MdeMethod`]), whatever n:
//!
//! * `exact` up to [`ENUMERATE_UP_TO`] non-zero units: every sign vector is
//!   enumerated, those whose null two-sided tail is below α are rejected,
//!   and the power at π weighs each by `π^(#+) (1 − π)^(#−)`.
//! * `exact` when every `|d_i|` lies on a lattice `1/L` (the deltas' own
//!   denominators) on which the sums' distribution fits [`DP_BUDGET`] cells
//!   (`n · Σ L·|d_i|`): the null and the alternative are dynamic programmes
//!   over the integer sums, and the test rejects a sum iff the null's
//!   two-sided tail from it is below α.
//! * `simulation` otherwise: [`SIM_BATCHES`] batches of [`SIM_DRAWS`] sign
//!   vectors, each batch its own stretch of the SplitMix64 stream of
//!   [`SIM_SEED`]. Item `i` of a draw is positive iff its uniform is below π,
//!   the same uniforms at every π (common random numbers). A draw is rejected
//!   iff fewer than α of the batch's null draws (π = ½) reach its `|S|`, and
//!   the power at π is the share of draws rejected (counted exactly at every
//!   π from where each draw's `S` crosses the critical values). The MDE is the mean of
//!   the batches' MDEs, and its standard error (`se`) their standard
//!   deviation over √[`SIM_BATCHES`].
//!
//! `None` when the test cannot reach α at all (`min_p ≥ α` for the non-zero
//! units, see [`crate::signflip::min_p`]): no effect is detectable.

use crate::bootstrap::SplitMix64;
use crate::signflip::{grid_for, min_p, weighted_subset_sum_pmf, Item, ALPHA};
use crate::ttest::mean_sd;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Target power for the MDE.
pub const POWER: f64 = 0.80;
/// Most non-zero units whose power is had by enumerating every sign vector.
pub const ENUMERATE_UP_TO: usize = 16;
/// Most DP cells per distribution of the exact power.
pub const DP_BUDGET: u64 = 200_000;
/// Batches of the simulated power; their spread gives its standard error.
pub const SIM_BATCHES: u64 = 8;
/// Sign vectors per batch.
pub const SIM_DRAWS: usize = 500;
/// Seed of the simulation's stream.
pub const SIM_SEED: u64 = 0x5EED_0F00_90E2_0000;

/// How an MDE was had (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "StatsMdeMethod")]
pub enum MdeMethod {
    /// Exact power: every sign vector enumerated, or on the deltas' own lattice.
    Exact,
    /// Seeded simulation, with its standard error.
    Simulation,
}

/// A minimum detectable effect.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mde {
    /// The effect, points.
    pub points: f64,
    pub method: MdeMethod,
    /// Monte Carlo standard error of `points` (0 when exact).
    pub se: f64,
}

/// MDE for `n` units whose non-zero deltas are `items`, with `points` points
/// per unit of the items' magnitudes.
pub(crate) fn mde(n: usize, items: &[Item], points: f64) -> Option<Mde> {
    if items.is_empty() || min_p(items.len()) >= ALPHA {
        return None;
    }
    let scale = items.iter().map(|i| i.x).sum::<f64>() * points / n as f64;
    let effect = |pi: f64| (2.0 * pi - 1.0) * scale;
    let exact = |pi: f64| Some(Mde { points: effect(pi), method: MdeMethod::Exact, se: 0.0 });
    if items.len() <= ENUMERATE_UP_TO {
        return exact(crossing(enumerated_power(items)));
    }
    if let Some(power) = lattice_power(items) {
        return exact(crossing(power));
    }
    let (shift, se) = simulated(items);
    Some(Mde { points: shift * scale, method: MdeMethod::Simulation, se: se * scale })
}

/// The simulated `2π* − 1` and its standard error.
fn simulated(items: &[Item]) -> (f64, f64) {
    let xs: Vec<f64> = items.iter().map(|i| i.x).collect();
    let batches: Vec<f64> = (0..SIM_BATCHES)
        .map(|b| {
            let batch = Batch::new(&xs, b);
            2.0 * crossing(|pi| batch.power(pi)) - 1.0
        })
        .collect();
    let (mean, sd) = mean_sd(&batches);
    (mean, sd / (SIM_BATCHES as f64).sqrt())
}

/// The smallest π in `[½, 1]` (within 1e-4) whose power reaches [`POWER`].
fn crossing(power: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.5, 1.0);
    while hi - lo > 1e-4 {
        let mid = 0.5 * (lo + hi);
        if power(mid) >= POWER {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// Exact power by enumerating every sign vector: a polynomial in π, from how many rejected
/// vectors have each number of positive items.
fn enumerated_power(items: &[Item]) -> impl Fn(f64) -> f64 {
    let xs: Vec<f64> = items.iter().map(|i| i.x).collect();
    let n = xs.len();
    let sums: Vec<f64> = (0u32..1 << n)
        .map(|signs| xs.iter().enumerate().map(|(i, x)| if signs >> i & 1 == 1 { *x } else { -x }).sum())
        .collect();
    let critical = critical(&sums, &xs);
    let mut rejected = vec![0u32; n + 1];
    for (signs, s) in sums.iter().enumerate() {
        if s.abs() > critical {
            rejected[signs.count_ones() as usize] += 1;
        }
    }
    move |pi: f64| {
        let weight = |k: usize| pi.powi(k as i32) * (1.0 - pi).powi((n - k) as i32);
        rejected.iter().enumerate().map(|(k, &r)| f64::from(r) * weight(k)).sum()
    }
}

/// Exact power on the deltas' lattice: `None` unless every item lies on one within [`DP_BUDGET`].
fn lattice_power(items: &[Item]) -> Option<impl Fn(f64) -> f64> {
    let total: f64 = items.iter().map(|i| i.x).sum();
    let l = grid_for(items, 2.0 * total, DP_BUDGET);
    let on: Vec<(u64, f64)> = items.iter().map(|i| i.on_grid(l)).collect();
    let mut gs: Vec<u64> = on.iter().map(|&(g, _)| g).collect();
    let grand: u64 = gs.iter().sum();
    // `grid_for` keeps to the budget only where it can (its scale is at least 1).
    if on.iter().any(|&(_, e)| e != 0.0) || (gs.len() as u64).saturating_mul(grand) > DP_BUDGET {
        return None;
    }
    gs.sort_unstable();
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
    Some(move |pi: f64| {
        let f = weighted_subset_sum_pmf(&gs, g, pi);
        f[..=k].iter().sum::<f64>() + f[g - k..].iter().sum::<f64>()
    })
}

/// One batch of the simulated power (see the module docs). A draw's `S` only grows with π (its
/// items turn positive one by one as π passes their uniforms), so each draw is rejected in the
/// upper tail for every π above one turning point and in the lower tail up to another: the
/// batch keeps those, sorted, and the power at any π is a count.
struct Batch {
    /// Per draw, the π above which `S > critical` (∞: never).
    up: Vec<f64>,
    /// Per draw, the π up to which `S < −critical` (−∞: never above ½).
    down: Vec<f64>,
}

impl Batch {
    fn new(xs: &[f64], batch: u64) -> Batch {
        let draws = Draws { xs, start: batch * SIM_DRAWS as u64 * Draws::per_draw(xs) };
        let null: Vec<f64> = (0..SIM_DRAWS).map(|d| draws.null_sum(d)).collect();
        let critical = critical(&null, xs);
        let (mut up, mut down) = (Vec::with_capacity(SIM_DRAWS), Vec::with_capacity(SIM_DRAWS));
        let (mut turning, mut sorted, mut starts) = (vec![(0, 0.0); xs.len()], Vec::new(), Vec::new());
        for (d, &s0) in null.iter().enumerate() {
            // The items negative at ½ (kept without a branch), in the order they turn positive.
            let mut len = 0;
            draws.each(d, |u, x| {
                turning[len] = (u, x);
                len += usize::from(u >= HALF);
            });
            sort_by_uniform(&turning[..len], &mut sorted, &mut starts);
            let (above, below) = turning_points(s0, &sorted, critical);
            up.push(above);
            down.push(below);
        }
        up.sort_unstable_by(f64::total_cmp);
        down.sort_unstable_by(f64::total_cmp);
        Batch { up, down }
    }

    /// Share of the batch's draws rejected at π.
    fn power(&self, pi: f64) -> f64 {
        let up = self.up.partition_point(|&t| t < pi);
        let down = self.down.len() - self.down.partition_point(|&t| t < pi);
        (up + down) as f64 / SIM_DRAWS as f64
    }
}

/// `items` (uniforms in `[½, 1)`) into `out` by uniform, in about linear time: the uniforms are
/// spread evenly, so a counting sort on their leading bits leaves about one per bucket and an
/// insertion sort finishes the few out of order.
fn sort_by_uniform(items: &[(u32, f64)], out: &mut Vec<(u32, f64)>, starts: &mut Vec<usize>) {
    let buckets = items.len().next_power_of_two();
    let bucket = |u: u32| ((u64::from(u - HALF) * buckets as u64) >> 31) as usize;
    starts.clear();
    starts.resize(buckets + 1, 0);
    for &(u, _) in items {
        starts[bucket(u) + 1] += 1;
    }
    for b in 1..=buckets {
        starts[b] += starts[b - 1];
    }
    out.clear();
    out.resize(items.len(), (0, 0.0));
    for &(u, x) in items {
        let b = bucket(u);
        out[starts[b]] = (u, x);
        starts[b] += 1;
    }
    for i in 1..out.len() {
        let mut j = i;
        while j > 0 && out[j - 1].0 > out[j].0 {
            out.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// A draw's turning points (see [`Batch`]) from its `S` at ½ and its negative items in the order
/// they turn positive.
fn turning_points(s0: f64, turning: &[(u32, f64)], critical: f64) -> (f64, f64) {
    let mut down = if s0 < -critical { 1.0 } else { f64::NEG_INFINITY };
    if s0 > critical {
        return (0.5, down);
    }
    let mut s = s0;
    for &(u, x) in turning {
        let before = s;
        s += 2.0 * x;
        if before < -critical && s >= -critical {
            down = to_pi(u);
        }
        if s > critical {
            return (to_pi(u), down);
        }
    }
    (f64::INFINITY, down)
}

/// A sign vector is rejected iff fewer than α of the `null` ones reach its `|S|`: iff `|S|` is
/// above the m-th largest null `|S|`, m = ⌈α·len⌉ (sums within rounding of it reach it).
fn critical(null: &[f64], xs: &[f64]) -> f64 {
    let mut reach: Vec<f64> = null.iter().map(|s| s.abs()).collect();
    let m = (ALPHA * null.len() as f64).ceil() as usize;
    let (_, mth, _) = reach.select_nth_unstable_by(m - 1, |a, b| b.total_cmp(a));
    *mth + 8.0 * xs.len() as f64 * f64::EPSILON * xs.iter().sum::<f64>()
}

/// The uniform ½ on 32 bits: item `i` is positive at π iff `u_i < π · 2^32`.
const HALF: u32 = 1 << 31;

fn to_pi(u: u32) -> f64 {
    f64::from(u) / 4_294_967_296.0
}

/// The sign vectors of a batch: draw `d` reads its own stretch of the stream of [`SIM_SEED`].
struct Draws<'a> {
    xs: &'a [f64],
    start: u64,
}

impl Draws<'_> {
    /// Random numbers per draw: each gives two 32-bit uniforms.
    fn per_draw(xs: &[f64]) -> u64 {
        xs.len().div_ceil(2) as u64
    }

    /// Each item's uniform and magnitude in draw `d`.
    fn each(&self, d: usize, mut f: impl FnMut(u32, f64)) {
        let mut rng = SplitMix64::at(SIM_SEED, self.start + d as u64 * Self::per_draw(self.xs));
        for two in self.xs.chunks(2) {
            let r = rng.next_u64();
            f(r as u32, two[0]);
            if let Some(&x) = two.get(1) {
                f((r >> 32) as u32, x);
            }
        }
    }

    /// `S` of draw `d` at π = ½. An item turns negative by its sign bit, not a branch (which
    /// random signs would mispredict half the time).
    fn null_sum(&self, d: usize) -> f64 {
        let mut s = 0.0;
        self.each(d, |u, x| s += f64::from_bits(x.to_bits() ^ (u64::from(u >= HALF) << 63)));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(d: &[f64]) -> Vec<Item> {
        d.iter().filter(|x| **x != 0.0).map(|&x| Item { negative: x < 0.0, x: x.abs(), frac: None }).collect()
    }

    /// Power by enumerating all `2^n` sign vectors: the rejected ones are those whose two-sided
    /// null tail is below α, each weighted by `π^(+) (1 − π)^(−)`. The MDE at its 80% crossing.
    fn brute_force_mde(d: &[f64]) -> f64 {
        let n = d.len();
        let tie = 1e-9 * d.iter().sum::<f64>();
        let sums: Vec<(f64, i32)> = (0u32..1 << n)
            .map(|m| {
                let s = (0..n).map(|i| if m >> i & 1 == 1 { d[i] } else { -d[i] }).sum::<f64>();
                (s, m.count_ones() as i32)
            })
            .collect();
        let mut reach: Vec<f64> = sums.iter().map(|(s, _)| s.abs()).collect();
        reach.sort_unstable_by(f64::total_cmp);
        let tail = |a: f64| (reach.len() - reach.partition_point(|r| *r < a - tie)) as f64 / reach.len() as f64;
        let rejected: Vec<i32> = sums.iter().filter(|(s, _)| tail(s.abs()) < ALPHA).map(|&(_, k)| k).collect();
        let power = |pi: f64| rejected.iter().map(|&k| pi.powi(k) * (1.0 - pi).powi(n as i32 - k)).sum::<f64>();
        (2.0 * crossing(power) - 1.0) * d.iter().sum::<f64>() / n as f64
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
        assert_eq!((m.method, m.se), (MdeMethod::Exact, 0.0));
        let pi = (m.points / 10.0 + 1.0) / 2.0;
        let power = |p: f64| p.powi(10) + 10.0 * p.powi(9) * (1.0 - p);
        assert!((power(pi) - 0.8).abs() < 1e-3, "power {} at π {pi}", power(pi));
    }

    /// Every method agrees with a plain enumeration: exactly for `mde`'s enumeration and the
    /// lattice DP, within four standard errors for the simulation.
    #[test]
    fn every_method_agrees_with_brute_force_enumeration() {
        let lattice = [1.0, 2.0, 3.0, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0, 2.0, 1.0, 4.0];
        let awkward: Vec<f64> = (1..=12).map(|k| (k as f64).sqrt() * std::f64::consts::PI).collect();
        for d in [&lattice[..], &awkward] {
            let want = brute_force_mde(d);
            let m = mde(12, &items(d), 1.0).unwrap();
            assert_eq!(m.method, MdeMethod::Exact);
            assert!((m.points - want).abs() < 1e-9, "{} vs {want}", m.points);
            let scale = d.iter().sum::<f64>() / 12.0;
            let (sim, se) = simulated(&items(d));
            assert!(se > 0.0 && se < 0.05 * sim, "{sim} ± {se}");
            assert!((sim * scale - want).abs() < 4.0 * se * scale, "{} ± {} vs {want}", sim * scale, se * scale);
        }
        let scale = lattice.iter().sum::<f64>() / 12.0;
        let on_lattice = crossing(lattice_power(&items(&lattice)).unwrap());
        assert!(((2.0 * on_lattice - 1.0) * scale - brute_force_mde(&lattice)).abs() < 1e-9);
        assert!(lattice_power(&items(&awkward)).is_none(), "no lattice for irrational deltas");
    }

    /// No switch to an approximation past 60 units: from 61 to 100, lattice deltas are exact
    /// and the rest simulated, and the two agree on the same deltas; a large n is simulated.
    #[test]
    fn every_n_is_exact_or_simulated() {
        for n in 61..=100 {
            let d: Vec<f64> = (0..n).map(|i| 1.0 + (i % 7) as f64).collect();
            let m = mde(n, &items(&d), 1.0).unwrap();
            assert_eq!(m.method, MdeMethod::Exact, "n {n}");
            if n % 13 == 9 {
                let scale = d.iter().sum::<f64>() / n as f64;
                let (sim, se) = simulated(&items(&d));
                assert!((sim * scale - m.points).abs() < 4.0 * se * scale, "n {n}: {} vs {m:?}", sim * scale);
                let awkward: Vec<f64> = d.iter().map(|x| x * std::f64::consts::E).collect();
                let a = mde(n, &items(&awkward), 1.0).unwrap();
                assert_eq!(a.method, MdeMethod::Simulation, "n {n}");
                let scaled = m.points * std::f64::consts::E;
                assert!((a.points - scaled).abs() < 4.0 * a.se, "n {n}: {a:?} vs {scaled}");
            }
        }
        let d: Vec<f64> = (0..2_000).map(|i| 1.0 + ((i * 7919) % 97) as f64 / 7.3).collect();
        let m = mde(2_000, &items(&d), 1.0).unwrap();
        assert_eq!(m.method, MdeMethod::Simulation);
        assert!(m.se > 0.0 && m.se < 0.02 * m.points, "{m:?}");
    }
}
