//! Benchmark: `analyze` on 100,000 generated pairs shaped like a real
//! experiment (`stats::synthetic`: 50 skills × 4 configs × 450 tasks with
//! 1–50 tests each, every ninth task repeated), plus the cost of one group.
//! Run with `cargo bench -p skillscope-stats`; prints wall-clock times.

use skillscope_stats::report::summarize;
use skillscope_stats::signflip::SignFlipMethod;
use skillscope_stats::synthetic::{pairs, Design};
use skillscope_stats::{analyze, Class, Pair};
use std::time::Instant;

fn main() {
    let pairs = pairs(Design::BENCH);
    for round in 1..=3 {
        let t0 = Instant::now();
        let r = analyze(&pairs);
        let el = t0.elapsed().as_secs_f64();
        let rows: Vec<_> = r.skills.iter().chain(&r.groups).collect();
        let grid = rows.iter().filter(|s| s.p_signflip_method == SignFlipMethod::Grid).count();
        let undecided = rows.iter().filter(|s| s.class == Class::Undecided).count();
        let max_err = rows.iter().map(|s| s.p_signflip_error).fold(0.0, f64::max);
        println!(
            "round {round}: analyze {} pairs, {} groups + {} skills: {el:.3} s \
             (grid rows {grid}, max p error {max_err:.1e}, undecided {undecided})",
            pairs.len(),
            r.groups.len(),
            r.skills.len(),
        );
    }
    // One skill × config group (the unit a results cache recomputes).
    let group: Vec<&Pair> = pairs.iter().filter(|p| p.skill == "skill-000" && p.config == "cfg-0").collect();
    let t0 = Instant::now();
    let runs = 20;
    for _ in 0..runs {
        std::hint::black_box(summarize("skill-000", "cfg-0", &group));
    }
    println!("one group ({} pairs): {:.1} ms", group.len(), 1e3 * t0.elapsed().as_secs_f64() / runs as f64);
}
