//! Synthetic pairs shared by the chart tests and the `render` example
//! (which includes this file with `#[path]`).

use skillscope_stats::Pair;

/// The pair of task `t{t}` of `skill` (config `all`) whose pass ratios move
/// linearly with `f = t / of`: without = `wo.0 + wo.1 × f`, with =
/// `wi.0 + wi.1 × f`.
pub(crate) fn ramp(skill: &str, t: usize, of: usize, wo: (f64, f64), wi: (f64, f64)) -> Pair {
    let f = t as f64 / of as f64;
    Pair::new(skill, "all", &format!("t{t}"), wo.0 + wo.1 * f, wi.0 + wi.1 * f)
}
