//! Re-running an experiment's unscored pairs as a new experiment: the same design restricted to
//! the pairs whose arms both ended without a score (unfair arms, an infrastructure failure, a
//! cancelled arm). Scored pairs are never re-run: choosing which results to keep by running again
//! would let chance pick the verdict. The original experiment stays as it was.

use crate::design::{self, ExperimentDesign, PairSlot};
use crate::error::{ExperimentError, Result};
use skillscope_store::Workspace;

/// Queues the re-run; returns the new experiment's id.
pub fn rerun_unscored(ws: &Workspace, experiment_id: i64) -> Result<i64> {
    let original = design::design(ws, experiment_id)?;
    let config_of = agent_config_ids(ws, experiment_id)?;
    let only: Vec<PairSlot> = design::pairs(ws, experiment_id)?
        .into_iter()
        .filter(|p| !p.excluded.is_empty() && p.without.state.is_final() && p.with.state.is_final())
        .filter_map(|p| {
            config_of.iter().find(|(id, _)| *id == p.id).map(|(_, config)| PairSlot {
                skill_version_id: p.skill_version_id,
                task: p.task,
                agent_config_id: *config,
                condition: p.condition,
                repeat: p.repeat,
            })
        })
        .collect();
    if only.is_empty() {
        return Err(ExperimentError::InvalidInput(format!(
            "experiment #{experiment_id} has no ended pair without a score: pairs still running are not re-run, \
             and scored pairs never are"
        )));
    }
    let name = format!("Re-run of #{experiment_id}: {} unscored pair(s) of {}", only.len(), original.name);
    design::create(ws, &ExperimentDesign { name, only, ..original })
}

fn agent_config_ids(ws: &Workspace, experiment_id: i64) -> Result<Vec<(i64, i64)>> {
    let conn = ws.conn()?;
    let mut st = conn.prepare("SELECT id, agent_config_id FROM experiment_pairs WHERE experiment_id = ?1")?;
    let rows = st.query_map([experiment_id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}
