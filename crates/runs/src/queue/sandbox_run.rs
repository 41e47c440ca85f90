//! A sandbox run: N trials of one shell command in one image, queued like any run.

use super::model::{TrialLimits, TrialSpec};
use super::store;
use crate::error::{Result, RunsError};
use serde::{Deserialize, Serialize};
use skillscope_store::workspace::Workspace;
use ts_rs::TS;

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SandboxRunRequest {
    pub name: String,
    pub image: String,
    /// Run with `sh -c`.
    pub command: String,
    pub count: u32,
    pub memory_mb: u32,
    pub timeout_secs: u64,
}

pub fn create(ws: &Workspace, r: &SandboxRunRequest) -> Result<i64> {
    if r.image.trim().is_empty() || r.command.trim().is_empty() {
        return Err(RunsError::InvalidInput("an image and a command are required".into()));
    }
    if !(1..=1000).contains(&r.count) {
        return Err(RunsError::InvalidInput("the number of trials must be 1 to 1000".into()));
    }
    if r.memory_mb < 6 {
        return Err(RunsError::InvalidInput("Docker needs at least 6 MiB of memory per container".into()));
    }
    let spec = TrialSpec {
        limits: TrialLimits { memory_mb: r.memory_mb, ..TrialLimits::default() },
        command_timeout_secs: r.timeout_secs.max(1),
        ..TrialSpec::command(r.image.trim(), vec!["sh".into(), "-c".into(), r.command.clone()])
    };
    let name = if r.name.trim().is_empty() { format!("sandbox: {}", r.command) } else { r.name.clone() };
    let trials: Vec<_> = (1..=r.count).map(|i| (format!("#{i}"), spec.clone())).collect();
    store::create_run(ws, &name, &trials)
}
