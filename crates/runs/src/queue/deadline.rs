//! The deadline of one attempt over all its phases (image build or pull, workspace upload, set-up,
//! agent, verifier, download), so that nothing that hangs holds a queue slot for ever. Each phase
//! has its own limit; the deadline is their sum with an allowance for preparing the environment,
//! or the workspace's `queue.trial_deadline_secs`.

use super::model::TrialSpec;
use crate::agents;
use skillscope_store::workspace::Workspace;
use std::time::Duration;

/// Building or pulling the image, uploading the workspace, starting containers, listing skills.
const ENVIRONMENT_ALLOWANCE: Duration = Duration::from_secs(30 * 60);
/// Recording the attempt's files and removing its containers.
const WRAP_UP_ALLOWANCE: Duration = Duration::from_secs(5 * 60);

/// How long an attempt of `spec` may take in all.
pub fn for_trial(ws: &Workspace, spec: &TrialSpec) -> Duration {
    if let Some(secs) = ws.config().queue.trial_deadline_secs {
        return Duration::from_secs(secs);
    }
    let secs = Duration::from_secs;
    let setup = secs(spec.command_timeout_secs) * spec.setup.len() as u32;
    let work = match &spec.agent {
        // An agent's wall time leaves out what it waits on its provider, up to a cap.
        Some(task) => {
            let wall = agents::agent(ws, task.agent_config_id).map_or(1200, |a| a.limits.wall_timeout_secs);
            secs(spec.agent_timeout_secs.map_or(wall, |cap| cap.min(wall)))
                + skillscope_agent::cli_harness::PROVIDER_WAIT_CAP
        }
        None => secs(spec.command_timeout_secs),
    };
    ENVIRONMENT_ALLOWANCE + setup + work + secs(spec.verifier_timeout_secs) + WRAP_UP_ALLOWANCE
}
