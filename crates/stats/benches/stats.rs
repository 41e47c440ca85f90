//! Benchmark: analyze 100,000 pairs (500 skills × 4 configs × 50 tasks).
//! Run with `cargo bench -p skillscope-stats`; prints wall-clock times.

use skillscope_stats::{analyze, Pair};
use std::time::Instant;

fn data(seed: u64, zero_share: f64) -> Vec<Pair> {
    let mut rng = skillscope_stats::bootstrap::SplitMix64(seed);
    let mut unif = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let dens = [3u32, 4, 5, 6, 8, 10, 12, 20];
    let mut out = Vec::with_capacity(100_000);
    for s in 0..500 {
        for c in 0..4 {
            for t in 0..50 {
                let m = dens[(unif() * dens.len() as f64) as usize] as f64;
                let wo = (unif() * (m + 1.0)).floor().min(m) / m;
                let wi = if unif() < zero_share { wo } else { (unif() * (m + 1.0)).floor().min(m) / m };
                let mut p = Pair::new(&format!("skill-{s:03}"), &format!("cfg-{c}"), &format!("task-{t:02}"), wo, wi);
                p.time_without = Some(10.0 + 100.0 * unif());
                p.time_with = Some(10.0 + 100.0 * unif());
                p.tokens_without = Some(1000.0 + 1e5 * unif());
                p.tokens_with = Some(1000.0 + 1e5 * unif());
                out.push(p);
            }
        }
    }
    out
}

fn main() {
    for (label, zero_share) in [("realistic (70% identical outcomes)", 0.7), ("worst case (no forced ties)", 0.0)] {
        let pairs = data(42, zero_share);
        let t0 = Instant::now();
        let r = analyze(&pairs);
        let el = t0.elapsed();
        let grid = r
            .skills
            .iter()
            .chain(&r.groups)
            .filter(|s| s.p_signflip_method != skillscope_stats::signflip::SignFlipMethod::Exact)
            .count();
        println!(
            "analyze {} pairs, {} groups, {} skills [{label}]: {:.3} s (non-exact sign-flip rows: {grid})",
            pairs.len(),
            r.groups.len(),
            r.skills.len(),
            el.as_secs_f64()
        );
    }
}
