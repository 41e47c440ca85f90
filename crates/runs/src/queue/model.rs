//! Queue types shared with the CLI and the UI.

use super::arm_snapshot::ArmSnapshot;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where skills appear inside the container.
pub const SKILLS_DIR: &str = "/skills";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum TrialState {
    Queued,
    Running,
    Passed,
    Failed,
    /// The agent's own failure (timeout, memory limit): scored, never retried.
    AgentError,
    /// The infrastructure failed on every allowed attempt.
    InfraError,
    /// The agent changed what its verifier runs on (a tool on the PATH, a test hook, the reward
    /// file): not scored, never retried; the error names the changed paths.
    VerifierTampered,
    Cancelled,
}

impl TrialState {
    pub const ALL: [TrialState; 8] = [
        TrialState::Queued,
        TrialState::Running,
        TrialState::Passed,
        TrialState::Failed,
        TrialState::AgentError,
        TrialState::InfraError,
        TrialState::VerifierTampered,
        TrialState::Cancelled,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            TrialState::Queued => "queued",
            TrialState::Running => "running",
            TrialState::Passed => "passed",
            TrialState::Failed => "failed",
            TrialState::AgentError => "agent_error",
            TrialState::InfraError => "infra_error",
            TrialState::VerifierTampered => "verifier_tampered",
            TrialState::Cancelled => "cancelled",
        }
    }
    pub fn parse(s: &str) -> Self {
        Self::ALL.into_iter().find(|t| t.as_str() == s).unwrap_or(TrialState::InfraError)
    }
    pub fn is_final(self) -> bool {
        !matches!(self, TrialState::Queued | TrialState::Running)
    }
}

/// Which image a trial runs in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[ts(export)]
pub enum ImageSource {
    /// A local image, or one pulled from a registry when reachable.
    Image { name: String },
    /// A Dockerfile context (Harbor's `environment/`), built once and reused.
    Build { context: String, tag: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TrialLimits {
    pub memory_mb: u32,
    pub cpus: f64,
    pub pids: u32,
    /// Off unless a trial needs the model egress path.
    pub network: bool,
    pub read_only_rootfs: bool,
    pub user: Option<String>,
    /// Most the agent may write in its container (the writable layer: workdir, /tmp, anywhere
    /// outside mounts), in MiB; past it the agent is stopped and the attempt is its failure.
    #[serde(default = "default_disk_mb")]
    pub disk_mb: u32,
}

fn default_disk_mb() -> u32 {
    10 * 1024
}

impl Default for TrialLimits {
    fn default() -> Self {
        Self {
            memory_mb: 1024,
            cpus: 1.0,
            pids: 256,
            network: false,
            read_only_rootfs: false,
            user: None,
            disk_mb: default_disk_mb(),
        }
    }
}

/// Everything needed to run one trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TrialSpec {
    pub image: ImageSource,
    /// The agent phase: the command whose run is being evaluated.
    pub command: Vec<String>,
    /// The verifier phase; when absent the command's exit code decides pass or fail.
    pub verifier: Option<Vec<String>>,
    /// Host folder copied to `workdir` before the agent starts; its changes are recorded.
    pub workspace: Option<String>,
    pub workdir: String,
    pub limits: TrialLimits,
    pub command_timeout_secs: u64,
    pub verifier_timeout_secs: u64,
    /// When set, the built-in agent works on the task instead of `command` running.
    #[serde(default)]
    pub agent: Option<AgentTask>,
    /// A task verifier (pytest, Harbor tests, JSON score, exit code) scoring the run with a pass
    /// ratio; replaces `verifier` when set.
    #[serde(default)]
    pub scoring: Option<skillscope_tasks::TaskVerifier>,
    /// Verify in the agent's container (checked for tampering first) rather than in a fresh one
    /// that receives only the workdir.
    #[serde(default)]
    pub verifier_in_place: bool,
    /// `sh -c` commands run in the workdir after the workspace upload, before the agent.
    #[serde(default)]
    pub setup: Vec<String>,
    /// `KEY=VALUE` variables of the trial's containers.
    #[serde(default)]
    pub env: Vec<String>,
    /// Caps the agent's wall time below its configuration's limit.
    #[serde(default)]
    pub agent_timeout_secs: Option<u64>,
    /// Run the set-up, the agent and the verifier as root rather than as [`TRIAL_OWNER`].
    #[serde(default)]
    pub run_as_root: bool,
    /// A security probe's planted files and egress capture (see `queue::probe_capture`).
    #[serde(default)]
    pub probe: Option<ProbeCapture>,
}

/// What a security probe adds to a trial: canary files planted before the agent starts, and DNS and
/// HTTP(S) from the container routed to a recording sink instead of nowhere.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ProbeCapture {
    /// (path relative to the agent's home, content), uploaded owned by the trial's user.
    pub home_files: Vec<(String, String)>,
    /// (absolute path, content), bind-mounted read-only: readable, never changed.
    pub ro_files: Vec<(String, String)>,
    pub egress: bool,
}

/// Who a trial's set-up, agent and verifier run as unless the task asks for root; they own the
/// workdir, the agent's home and the verifier's files. A numeric id, so any image has it.
pub const TRIAL_OWNER: skillscope_sandbox::Owner = skillscope_sandbox::Owner { uid: 1000, gid: 1000 };

/// A task for the built-in agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AgentTask {
    pub agent_config_id: i64,
    pub instruction: String,
    /// Skill versions mounted read-only under /skills; empty = the without-skill arm (no /skills at all).
    pub skill_version_ids: Vec<i64>,
}

impl TrialSpec {
    /// The specification without the arm's skills: everything that must be identical across the
    /// arms of a pair.
    pub fn without_skills(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or_default();
        if let Some(agent) = v.get_mut("agent").and_then(|a| a.as_object_mut()) {
            agent.remove("skill_version_ids");
        }
        v
    }

    /// Who owns what the trial's processes write: [`TRIAL_OWNER`], or None (root) when the task
    /// asks for root.
    pub fn owner(&self) -> Option<skillscope_sandbox::Owner> {
        (!self.run_as_root).then_some(TRIAL_OWNER)
    }

    /// The user the trial's processes run as, as its snapshot shows it.
    pub fn user_label(&self) -> String {
        self.owner().map_or("root".into(), skillscope_sandbox::Owner::user)
    }

    /// Runs in the task's working directory, as the trial's user, with a time limit of `secs`.
    pub fn in_workdir(&self, secs: u64) -> skillscope_sandbox::ExecOptions {
        skillscope_sandbox::ExecOptions {
            workdir: Some(self.workdir.clone()),
            user: self.owner().map(skillscope_sandbox::Owner::user),
            ..skillscope_sandbox::ExecOptions::seconds(secs)
        }
    }

    /// SHA-256 of [`Self::without_skills`] and of the workspace folder's tree as it is now.
    pub fn content_sha256(&self) -> crate::error::Result<String> {
        let workspace = match &self.workspace {
            Some(dir) => skillscope_library::package::folder_tree_hash(std::path::Path::new(dir))?,
            None => String::new(),
        };
        let text = format!("{}\n{workspace}", self.without_skills());
        Ok(skillscope_store::blobs::sha256_hex(text.as_bytes()))
    }

    pub fn command(image: &str, command: Vec<String>) -> Self {
        Self {
            image: ImageSource::Image { name: image.into() },
            command,
            verifier: None,
            workspace: None,
            workdir: "/workspace".into(),
            limits: TrialLimits::default(),
            command_timeout_secs: 600,
            verifier_timeout_secs: 300,
            agent: None,
            scoring: None,
            verifier_in_place: false,
            setup: Vec::new(),
            env: Vec::new(),
            agent_timeout_secs: None,
            run_as_root: false,
            probe: None,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Phases {
    pub env_started_at: Option<String>,
    pub env_finished_at: Option<String>,
    pub agent_started_at: Option<String>,
    pub agent_finished_at: Option<String>,
    pub verifier_started_at: Option<String>,
    pub verifier_finished_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TrialView {
    pub id: i64,
    pub run_id: i64,
    pub label: String,
    pub state: TrialState,
    pub attempt: u32,
    pub priority: i32,
    pub message: String,
    pub image_digest: Option<String>,
    pub phases: Phases,
    pub updated_at: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct StateCounts {
    pub queued: u32,
    pub running: u32,
    pub passed: u32,
    pub failed: u32,
    pub agent_error: u32,
    pub infra_error: u32,
    pub verifier_tampered: u32,
    pub cancelled: u32,
}

impl StateCounts {
    pub fn add(&mut self, s: TrialState, n: u32) {
        *match s {
            TrialState::Queued => &mut self.queued,
            TrialState::Running => &mut self.running,
            TrialState::Passed => &mut self.passed,
            TrialState::Failed => &mut self.failed,
            TrialState::AgentError => &mut self.agent_error,
            TrialState::InfraError => &mut self.infra_error,
            TrialState::VerifierTampered => &mut self.verifier_tampered,
            TrialState::Cancelled => &mut self.cancelled,
        } += n;
    }
    pub fn total(&self) -> u32 {
        self.queued + self.running + self.finished()
    }
    pub fn finished(&self) -> u32 {
        self.passed + self.failed + self.agent_error + self.infra_error + self.verifier_tampered + self.cancelled
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RunView {
    pub id: i64,
    pub name: String,
    pub created_at: String,
    pub counts: StateCounts,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct QueueStatus {
    /// Paused by a user; running trials finish, nothing new starts.
    pub paused: bool,
    /// Why the queue is waiting on the Docker engine, when it is.
    pub engine_problem: Option<String>,
    pub concurrency: u32,
    pub counts: StateCounts,
}

/// The outcome of one attempt, written once.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AttemptResult {
    pub attempt: u32,
    pub outcome: TrialState,
    pub exit_code: Option<i64>,
    pub timed_out: bool,
    pub oom_killed: bool,
    pub stdout: String,
    pub stderr: String,
    #[ts(type = "unknown")]
    pub file_changes: serde_json::Value,
    pub error: Option<String>,
    pub duration_ms: u64,
    /// The verifier's score in [0, 1] (pass ratio); None when the attempt was not scored.
    pub score: Option<f64>,
    /// Skill directories present under /skills before the agent started (agent trials only).
    pub skills_listed: Option<Vec<String>>,
    /// The tree hash of each entry the agent could see, by container path (as the library hashes
    /// a skill version, so a with-arm skill's equals its version's).
    #[serde(default)]
    pub skills_seen_sha256: Option<std::collections::BTreeMap<String, String>>,
    /// What ran (agent trials that got as far as their image).
    #[serde(default)]
    pub snapshot: Option<ArmSnapshot>,
    /// The verifier's own run, when one scored the attempt.
    #[serde(default)]
    pub verifier: Option<VerifierRun>,
}

impl AttemptResult {
    /// An attempt that ended before it had anything to record but its outcome and why.
    pub fn ended_early(attempt: u32, outcome: TrialState, error: String) -> Self {
        AttemptResult {
            attempt,
            outcome,
            exit_code: None,
            timed_out: false,
            oom_killed: false,
            stdout: String::new(),
            stderr: String::new(),
            file_changes: serde_json::json!([]),
            error: Some(error),
            duration_ms: 0,
            score: None,
            skills_listed: None,
            skills_seen_sha256: None,
            snapshot: None,
            verifier: None,
        }
    }
}

/// What a verifier printed and reported, check by check.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct VerifierRun {
    pub exit_code: Option<i64>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    /// True when it ran in the agent's container (the task asked), false in a fresh one.
    pub in_place: bool,
    /// How the score was reached, or why none could be.
    pub detail: String,
    pub checks: Vec<skillscope_tasks::score::Check>,
    /// For a verifier in the agent's container: what the engine recorded the agent changing
    /// outside the workdir (`added|modified|deleted PATH`, at most 1,000), which the tamper check
    /// passed. Empty for a fresh container.
    #[serde(default)]
    pub engine_diff: Vec<String>,
}

/// Typed progress for the UI: one trial changed, the queue's state changed, or output arrived.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "type")]
#[ts(export)]
// Events are built once and moved to the sink; boxing the trial would only add an allocation.
#[allow(clippy::large_enum_variant)]
pub enum QueueEvent {
    Trial { trial: TrialView },
    Status { status: QueueStatus },
    Log { trial_id: i64, attempt: u32, stream: String, text: String },
}
