//! An agent run: one task for an agent configuration, repeated, queued like any run.

use super::model::{AgentTask, TrialSpec};
use super::store;
use crate::error::{Result, RunsError};
use serde::{Deserialize, Serialize};
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AgentRunRequest {
    pub name: String,
    pub agent_config_id: i64,
    pub instruction: String,
    pub image: String,
    /// Host folder copied into the container's working directory.
    pub workspace: Option<String>,
    /// Shell command (run with `sh -c`) whose exit code scores the trial.
    pub verifier: Option<String>,
    pub skill_version_ids: Vec<i64>,
    pub repeats: u32,
}

pub fn create(ws: &Workspace, r: &AgentRunRequest) -> Result<i64> {
    if r.instruction.trim().is_empty() || r.image.trim().is_empty() {
        return Err(RunsError::InvalidInput("an agent run needs an instruction and an image".into()));
    }
    if !(1..=100).contains(&r.repeats) {
        return Err(RunsError::InvalidInput("repeats must be 1 to 100".into()));
    }
    crate::agents::runnable(ws, r.agent_config_id)?;
    if let Some(dir) = &r.workspace {
        if !std::path::Path::new(dir).is_dir() {
            return Err(RunsError::NotFound(format!("workspace folder {dir} does not exist")));
        }
    }
    let spec = TrialSpec {
        workspace: r.workspace.clone(),
        verifier: r.verifier.as_ref().map(|v| vec!["sh".into(), "-c".into(), v.clone()]),
        agent: Some(AgentTask {
            agent_config_id: r.agent_config_id,
            instruction: r.instruction.clone(),
            skill_version_ids: r.skill_version_ids.clone(),
        }),
        ..TrialSpec::command(r.image.trim(), Vec::new())
    };
    let name = if r.name.trim().is_empty() { format!("agent: {}", r.instruction) } else { r.name.clone() };
    let trials: Vec<_> = (1..=r.repeats).map(|i| (format!("repeat {i}"), spec.clone())).collect();
    store::create_run(ws, &name, &trials)
}
