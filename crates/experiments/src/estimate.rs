//! What a design will cost before it runs: its pairs and trials exactly, and its wall time and
//! model cost estimated from the past trials of the same agent configurations in this workspace.

use crate::design::ExperimentDesign;
use crate::error::Result;
use serde::{Deserialize, Serialize};
use skillscope_store::Workspace;
use std::collections::BTreeMap;
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExperimentEstimate {
    pub pairs: u32,
    /// Two per pair: without and with the skill.
    pub trials: u32,
    /// Trials the queue runs at once (the settings' concurrency).
    pub concurrency: u32,
    /// Past finished trials of these configurations the time estimate rests on.
    pub basis_trials: u32,
    /// Wall time: the trials' summed mean duration ÷ concurrency, and the same with the mean ± one
    /// standard deviation per trial as a range. Null when a configuration has no past trial.
    pub wall_secs: Option<f64>,
    pub wall_secs_range: Option<(f64, f64)>,
    /// Model cost: each configuration's mean cost per trial (from its recorded token use and the
    /// price table) × its trials. Null when a configuration has no past trial with a cost.
    pub cost_usd: Option<f64>,
    /// How the numbers were made, and what they leave out.
    pub method: String,
    /// Configurations with no history, by id.
    pub unknown_configs: Vec<i64>,
}

/// Mean and standard deviation of `xs` (sample sd; 0 for one value).
fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, var.sqrt())
}

/// Per configuration: the durations (seconds) of its finished trials' last attempts and the costs
/// their agents reported.
fn history(ws: &Workspace, config: i64) -> Result<(Vec<f64>, Vec<f64>)> {
    let conn = ws.conn()?;
    let mut st = conn.prepare(
        "SELECT r.duration_ms, j.cost_usd FROM trials t
         JOIN trial_results r ON r.trial_id = t.id AND r.attempt = t.attempt
         LEFT JOIN trajectories j ON j.trial_id = t.id AND j.attempt = t.attempt
         WHERE json_extract(t.spec_json, '$.agent.agent_config_id') = ?1 AND t.state IN ('passed', 'failed')",
    )?;
    let rows = st
        .query_map([config], |r| Ok((r.get::<_, i64>(0)? as f64 / 1000.0, r.get::<_, Option<f64>>(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok((rows.iter().map(|r| r.0).collect(), rows.iter().filter_map(|r| r.1).collect()))
}

pub fn estimate(ws: &Workspace, d: &ExperimentDesign) -> Result<ExperimentEstimate> {
    let d = crate::design::with_tasks(ws, d)?;
    let mut per_config: BTreeMap<i64, u32> = BTreeMap::new();
    for (slot, _) in d.slots() {
        *per_config.entry(slot.agent_config_id).or_default() += 2;
    }
    let pairs = per_config.values().sum::<u32>() / 2;
    let concurrency = ws.config().queue.concurrency();
    let (mut basis, mut wall, mut low, mut high, mut cost) = (0u32, Some(0.0), 0.0, 0.0, Some(0.0));
    let mut unknown = Vec::new();
    for (&config, &trials) in &per_config {
        let (secs, costs) = history(ws, config)?;
        if secs.is_empty() {
            unknown.push(config);
            wall = None;
        } else {
            basis += secs.len() as u32;
            let (m, sd) = mean_sd(&secs);
            wall = wall.map(|w| w + m * trials as f64);
            low += (m - sd).max(0.0) * trials as f64;
            high += (m + sd) * trials as f64;
        }
        cost = match (cost, costs.is_empty()) {
            (Some(c), false) => Some(c + mean_sd(&costs).0 * trials as f64),
            _ => None,
        };
    }
    let per_slot = |x: f64| x / concurrency as f64;
    Ok(ExperimentEstimate {
        pairs,
        trials: pairs * 2,
        concurrency,
        basis_trials: basis,
        wall_secs: wall.map(per_slot),
        wall_secs_range: wall.map(|_| (per_slot(low), per_slot(high))),
        cost_usd: cost,
        method: "Mean duration and cost of this workspace's finished trials of the same agent configurations, \
                 times the trials, with the queue's concurrency; it leaves out image builds, infrastructure \
                 re-runs and tasks that take longer than past ones."
            .into(),
        unknown_configs: unknown,
    })
}
