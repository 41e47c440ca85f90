//! Writes a CSV of generated pairs shaped like a real experiment
//! (`stats::synthetic`): `cargo run --release -p skillscope-stats --example
//! realistic_pairs -- [skills configs tasks seed] > pairs.csv`. The default
//! is the benchmark's 100,000 pairs (50 × 4 × 450 tasks, every ninth twice).

use skillscope_stats::synthetic::{csv, pairs, Design};

fn main() {
    let args: Vec<u64> =
        std::env::args().skip(1).map(|a| a.parse().expect("numbers: skills configs tasks seed")).collect();
    let b = Design::BENCH;
    let arg = |i: usize, default: u64| args.get(i).copied().unwrap_or(default);
    let d = Design {
        skills: arg(0, b.skills as u64) as usize,
        configs: arg(1, b.configs as u64) as usize,
        tasks: arg(2, b.tasks as u64) as usize,
        seed: arg(3, b.seed),
    };
    print!("{}", csv(&pairs(d)));
}
