//! Percentile bootstrap 95% CI of the mean delta.
//!
//! * [`RESAMPLES`] = 10,000 resamples of the deltas with replacement.
//! * Zeros (most deltas of a real experiment) are not drawn one by one: of
//!   `n` draws, the number that hit a non-zero delta is Binomial(n, n_nz / n),
//!   drawn by inverting its CDF (tabulated once per group from log-gamma),
//!   and only those are drawn, uniformly among the non-zero deltas. This is
//!   the same resampling distribution as `n` uniform draws, at `n_nz / n` of
//!   the cost.
//! * Random numbers: SplitMix64 (Steele, Lea & Flood 2014) seeded with
//!   [`SEED`] XOR an FNV-1a hash of the group key, so every group gets its
//!   own fixed stream and results are identical across runs, platforms and
//!   thread schedules. Each 64-bit draw yields two indices (upper and lower
//!   32 bits, Lemire's multiply-shift, bias ≤ n / 2³²).
//! * CI bounds are the 2.5% and 97.5% quantiles of the 10,000 resampled
//!   means with linear interpolation between order statistics (NumPy's
//!   default `percentile` rule: position `q · (B − 1)`).
//! * n = 0: `(0, 0)`; all deltas equal: the CI collapses to that value.

/// Number of bootstrap resamples.
pub const RESAMPLES: usize = 10_000;
/// Base seed of the bootstrap streams.
pub const SEED: u64 = 0x5EED_5C0F_E57A_7500;

/// SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// Its state's step per draw.
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    /// The stream of `seed` after its first `position` draws (a stream read in pieces, each
    /// from where it starts).
    pub fn at(seed: u64, position: u64) -> SplitMix64 {
        SplitMix64(seed.wrapping_add(position.wrapping_mul(Self::GAMMA)))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(Self::GAMMA);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// FNV-1a hash of a key (for per-group seeds).
pub fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0xff)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Percentile bootstrap 95% CI `(low, high)` of the mean of `d`.
pub fn bootstrap_ci(d: &[f64], seed: u64) -> (f64, f64) {
    let n = d.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    if d.iter().all(|x| *x == d[0]) {
        return (d[0], d[0]);
    }
    let mut rng = SplitMix64(SEED ^ seed);
    let nz: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
    let hits = binomial_cdf(n, nz.len() as f64 / n as f64);
    let nn = nz.len() as u64;
    let idx = |r: u64| ((r * nn) >> 32) as usize;
    let unif = |r: u64| (r >> 11) as f64 / (1u64 << 53) as f64;
    let mut means = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let u = unif(rng.next_u64());
        let m = hits.partition_point(|c| *c <= u).min(n);
        let d = &nz;
        // Four accumulators break the floating-point add dependency chain.
        let (mut s0, mut s1, mut s2, mut s3) = (0.0, 0.0, 0.0, 0.0);
        let mut k = 0;
        while k + 4 <= m {
            let r = rng.next_u64();
            let q = rng.next_u64();
            s0 += d[idx(r >> 32)];
            s1 += d[idx(r & 0xffff_ffff)];
            s2 += d[idx(q >> 32)];
            s3 += d[idx(q & 0xffff_ffff)];
            k += 4;
        }
        while k < m {
            s0 += d[idx(rng.next_u64() >> 32)];
            k += 1;
        }
        means.push(((s0 + s1) + (s2 + s3)) / n as f64);
    }
    (quantile(&mut means, 0.025), quantile(&mut means, 0.975))
}

/// `P(X ≤ k)` for `k` in `0..n` of `X ~ Binomial(n, q)` (the last, 1, is
/// left out: a draw past every entry is `n`).
fn binomial_cdf(n: usize, q: f64) -> Vec<f64> {
    use crate::special::ln_gamma;
    if q >= 1.0 {
        return vec![0.0; n];
    }
    let nf = n as f64;
    let (lq, lr) = (q.ln(), (1.0 - q).ln());
    let mut acc = 0.0;
    (0..n)
        .map(|k| {
            let kf = k as f64;
            acc += (ln_gamma(nf + 1.0) - ln_gamma(kf + 1.0) - ln_gamma(nf - kf + 1.0) + kf * lq + (nf - kf) * lr).exp();
            acc
        })
        .collect()
}

/// Linear-interpolation quantile (NumPy default rule) by selection, O(B).
fn quantile(v: &mut [f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let frac = pos - lo as f64;
    let (_, &mut a, rest) = v.select_nth_unstable_by(lo, f64::total_cmp);
    if frac == 0.0 || rest.is_empty() {
        return a;
    }
    let b = rest.iter().copied().fold(f64::INFINITY, f64::min);
    a + (b - a) * frac
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_covers_mean() {
        let d: Vec<f64> = (0..37).map(|i| ((i * 7919) % 23) as f64 - 9.0).collect();
        let a = bootstrap_ci(&d, fnv1a(&["s", "c"]));
        let b = bootstrap_ci(&d, fnv1a(&["s", "c"]));
        assert_eq!(a, b);
        let mean = d.iter().sum::<f64>() / d.len() as f64;
        assert!(a.0 < mean && mean < a.1, "{a:?} {mean}");
        assert_eq!(bootstrap_ci(&[4.0, 4.0], 1), (4.0, 4.0));
        assert_eq!(bootstrap_ci(&[], 1), (0.0, 0.0));
    }

    #[test]
    fn selection_quantile_matches_sorted() {
        let mut rng = SplitMix64(7);
        let v: Vec<f64> = (0..10_000).map(|_| (rng.next_u64() % 1000) as f64 / 7.0).collect();
        let mut s = v.clone();
        s.sort_by(f64::total_cmp);
        for q in [0.025f64, 0.5, 0.975] {
            let pos = q * 9999.0;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            let want = s[lo] + (s[hi] - s[lo]) * (pos - lo as f64);
            assert_eq!(quantile(&mut v.clone(), q), want);
        }
    }

    #[test]
    fn splitmix_reference() {
        // Reference stream of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut from_start = SplitMix64(9);
        let third = (0..3).map(|_| from_start.next_u64()).last();
        assert_eq!(Some(SplitMix64::at(9, 2).next_u64()), third);
    }
}
