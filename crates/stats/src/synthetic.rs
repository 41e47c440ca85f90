//! Generated pairs shaped like a real experiment, for benchmarks and tests.
//!
//! Per task: a number of tests `m` (70% in 5..=16, 10% in 1..=4, 20% in
//! 17..=50) and a baseline pass probability; per skill an effect on that
//! probability (a quarter help, a quarter hurt, half do nothing; configs vary
//! it by ±0.02). A run's pass ratio is `k / m` with `k ~ Binomial(m, prob)`;
//! 60% of with-runs repeat the without-run's outcome (real experiments have
//! ~70% identical pairs). Every ninth task runs twice (repeats), so a group row's unit
//! deltas have denominators `m` and `2m`. Deterministic for a seed.

use crate::bootstrap::SplitMix64;
use crate::pair::Pair;

/// Shape of a generated experiment.
#[derive(Debug, Clone, Copy)]
pub struct Design {
    pub skills: usize,
    pub configs: usize,
    /// Distinct tasks per skill × config (every ninth runs twice).
    pub tasks: usize,
    pub seed: u64,
}

impl Design {
    /// 50 skills × 4 configs × 450 tasks = 100,000 pairs.
    pub const BENCH: Design = Design { skills: 50, configs: 4, tasks: 450, seed: 42 };
}

struct Rng(SplitMix64);

impl Rng {
    fn unif(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        ((self.unif() * n as f64) as usize).min(n - 1)
    }
    fn binomial(&mut self, m: u32, p: f64) -> u32 {
        (0..m).filter(|_| self.unif() < p).count() as u32
    }
}

/// The pairs of `d`.
pub fn pairs(d: Design) -> Vec<Pair> {
    let mut rng = Rng(SplitMix64(d.seed));
    let tests: Vec<u32> = (0..d.tasks)
        .map(|_| match rng.unif() {
            u if u < 0.7 => 5 + rng.below(12) as u32,
            u if u < 0.8 => 1 + rng.below(4) as u32,
            _ => 17 + rng.below(34) as u32,
        })
        .collect();
    let base: Vec<f64> = (0..d.tasks).map(|_| rng.unif()).collect();
    let mut out = Vec::new();
    for s in 0..d.skills {
        let effect = match s % 4 {
            0 => 0.03 + 0.1 * rng.unif(),
            1 => -0.03 - 0.1 * rng.unif(),
            _ => 0.0,
        };
        for c in 0..d.configs {
            let e = effect + 0.04 * (rng.unif() - 0.5);
            for t in 0..d.tasks {
                let m = tests[t];
                for r in 0..if t % 9 == 0 { 2 } else { 1 } {
                    let wo = rng.binomial(m, base[t]);
                    let wi = if rng.unif() < 0.6 { wo } else { rng.binomial(m, (base[t] + e).clamp(0.0, 1.0)) };
                    let mut p =
                        Pair::new(&format!("skill-{s:03}"), &format!("cfg-{c}"), &format!("task-{t:03}"), 0.0, 0.0);
                    p.without = wo as f64 / m as f64;
                    p.with = wi as f64 / m as f64;
                    p.repeat = Some(r);
                    p.time_without = Some(10.0 + 100.0 * rng.unif());
                    p.time_with = Some(10.0 + 100.0 * rng.unif());
                    p.tokens_without = Some((1000.0 + 1e5 * rng.unif()).round());
                    p.tokens_with = Some((1000.0 + 1e5 * rng.unif()).round());
                    out.push(p);
                }
            }
        }
    }
    out
}

/// `pairs` as CSV (the input of `skillscope stats --pairs`).
pub fn csv(pairs: &[Pair]) -> String {
    let mut s =
        String::from("skill,config,task,repeat,without,with,time_without,time_with,tokens_without,tokens_with\n");
    let opt = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    for p in pairs {
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            p.skill,
            p.config,
            p.task,
            p.repeat.map(|r| r.to_string()).unwrap_or_default(),
            p.without,
            p.with,
            opt(p.time_without),
            opt(p.time_with),
            opt(p.tokens_without),
            opt(p.tokens_with)
        ));
    }
    s
}
