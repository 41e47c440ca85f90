//! Writes every chart for a small synthetic experiment into a folder:
//! `cargo run -p skillscope-charts --example render -- /tmp/charts`.

use skillscope_charts::{efficiency, pass_rates, prg_by_stratum, skill_deltas, task_deltas, ArmCost, TaskDelta};
use skillscope_stats::{analyze, Pair};

#[path = "../tests/it/common/pairs.rs"]
mod pairs;
use pairs::ramp;

fn main() -> std::io::Result<()> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "charts".into());
    std::fs::create_dir_all(&dir)?;
    let mut pairs = Vec::new();
    for t in 0..10 {
        let f = t as f64 / 10.0;
        pairs.push(ramp("pdf-forms", t, 10, (0.1, 0.05), (0.6, 0.3)));
        pairs.push(ramp("legacy-<script>&-helper", t, 10, (0.9, -0.02), (0.3, 0.2)));
        pairs.push(Pair::new("docx", "all", &format!("t{t}"), 0.5 + 0.3 * f, 0.55 + 0.2 * (1.0 - f)));
        let mut p = Pair::new("webapp-testing-with-a-long-name", "all", &format!("t{t}"), 0.85 * f, 0.9 * f + 0.05);
        p.time_without = Some(60.0 + 10.0 * t as f64);
        p.time_with = Some(50.0 + 14.0 * t as f64);
        pairs.push(p);
    }
    let report = analyze(&pairs);
    let deltas: Vec<TaskDelta> = (0..12)
        .map(|t| TaskDelta {
            task: format!("requirement-{t:02}"),
            delta: (t as f64 - 4.0) * 11.0,
            excluded: t % 5 == 3,
        })
        .collect();
    let costs: Vec<ArmCost> = (0..8)
        .map(|t| ArmCost {
            task: format!("task-{t}"),
            time_without: Some(100.0 + 7.0 * t as f64),
            time_with: (t != 5).then_some(80.0 + 12.0 * t as f64),
            tokens_without: Some(20_000.0 + 1000.0 * t as f64),
            tokens_with: (t % 3 != 0).then_some(15_000.0 + 3000.0 * t as f64),
        })
        .collect();
    let charts = [
        ("skill_deltas", skill_deltas(&report.skills)),
        ("task_deltas", task_deltas("pdf-forms · claude", &deltas)),
        ("pass_rates", pass_rates(&report.skills)),
        ("efficiency", efficiency("pdf-forms", &costs)),
        ("prg_by_stratum", prg_by_stratum(&report.skills)),
        ("empty", skill_deltas(&[])),
    ];
    for (name, svg) in charts {
        std::fs::write(format!("{dir}/{name}.svg"), svg)?;
    }
    Ok(())
}
