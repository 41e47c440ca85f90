//! Why an attempt ended without a result of its own, and which side it falls on.

use super::skill_roots::ListError;
use crate::error::RunsError;
use skillscope_sandbox::SandboxError;

/// Why an attempt ended without a result of its own: `infra` failures are retried by the queue.
pub(super) struct TrialError {
    pub infra: bool,
    pub message: String,
}

impl From<SandboxError> for TrialError {
    fn from(e: SandboxError) -> Self {
        Self { infra: e.is_infrastructure(), message: e.to_string() }
    }
}

impl From<skillscope_agent::AgentError> for TrialError {
    fn from(e: skillscope_agent::AgentError) -> Self {
        // Model faults and sandbox faults were not caused by the agent.
        let infra = match &e {
            skillscope_agent::AgentError::Model(m) => m.is_infrastructure(),
            skillscope_agent::AgentError::Sandbox(s) => s.is_infrastructure(),
            // The harness could not reach its model or produced no result: retried like a model fault.
            skillscope_agent::AgentError::Harness(_) => true,
        };
        Self { infra, message: e.to_string() }
    }
}

impl From<ListError> for TrialError {
    /// A clean-arms listing that did not run to its end leaves the pair's fairness unknown: retried,
    /// never scored.
    fn from(e: ListError) -> Self {
        match e {
            ListError::Engine(e) => e.into(),
            ListError::Unverified(cause) => Self { infra: true, message: format!("fairness unverified: {cause}") },
        }
    }
}

impl From<RunsError> for TrialError {
    /// Set-up problems (missing configuration, keyring unavailable) are not the agent's doing.
    fn from(e: RunsError) -> Self {
        Self { infra: true, message: e.to_string() }
    }
}
