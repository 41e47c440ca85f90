//! `skillscope stats`: the statistics of paired results from any source, as CSV.

use skillscope_api::stats::{analyze, read_pairs_csv, Report};
use skillscope_api::{AppError, ErrorCode};
use std::path::Path;

fn fmt_p(p: f64) -> String {
    if p < 0.001 {
        "<0.001".into()
    } else {
        format!("{p:.3}")
    }
}

pub(crate) fn print_report(r: &Report, json: bool) -> Result<(), AppError> {
    if json {
        println!("{}", serde_json::to_string_pretty(r)?);
        return Ok(());
    }
    let o = &r.overall;
    println!(
        "{} pairs: mean pass ratio {:.1} -> {:.1} (delta {:+.2} points)",
        o.n_pairs, o.mean_without, o.mean_with, o.delta
    );
    println!(
        "n: tasks (config all averages each task over its configurations and conditions); \
         untied: tasks whose delta is not 0; min p: the smallest p the untied tasks can reach"
    );
    println!(
        "{:<28} {:<16} {:>4} {:>6} {:>8} {:>8} {:>8} {:>7} {:>16} {:>7} {:>7}  class",
        "skill", "config", "n", "untied", "without", "with", "delta", "p", "(sign-flip)", "min p", "q"
    );
    for s in r.skills.iter().chain(&r.groups) {
        let class = serde_json::to_value(s.class)?;
        // How the p was had: exact, or a certified grid bound (the true p lies in [p - error, p]).
        let method = match s.p_signflip_error {
            e if e > 0.0 => format!("grid, -{e:.1e}"),
            _ => "exact".to_string(),
        };
        println!(
            "{:<28} {:<16} {:>4} {:>6} {:>8.1} {:>8.1} {:>+8.2} {:>7} {:>16} {:>7} {:>7}  {}",
            s.skill,
            s.config,
            s.n,
            s.n_nonzero,
            s.mean_without,
            s.mean_with,
            s.delta,
            fmt_p(s.p_signflip),
            method,
            fmt_p(s.min_p),
            fmt_p(s.q_bh),
            class.as_str().unwrap_or("")
        );
    }
    Ok(())
}

pub(crate) fn run(pairs: &Path, json: bool) -> Result<bool, AppError> {
    let f = std::fs::File::open(pairs).map_err(|e| AppError::io(pairs.display(), e))?;
    let rows =
        read_pairs_csv(f).map_err(|e| AppError::new(ErrorCode::InvalidInput, format!("{}: {e}", pairs.display())))?;
    print_report(&analyze(&rows), json)?;
    Ok(true)
}
