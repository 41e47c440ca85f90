//! The one task model every importer produces.
//!
//! A task is run twice (without and with the skill under test) with
//! everything here identical in both arms. File contents travel as bytes;
//! in JSON and TypeScript they are base64 strings.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

/// Container directory where [`TaskVerifier::HarborTests`] files are placed.
pub const HARBOR_TESTS_DIR: &str = "/tests";
/// Default working directory of tasks that do not name one.
pub const DEFAULT_WORKDIR: &str = "/workspace";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "TaskSpec")]
pub struct TaskSpec {
    /// Stable identifier derived from the source (e.g. `harbor/hello-skills`,
    /// `pdf#3`, `fix@batch1`, `app:sum-report`).
    pub id: String,
    pub name: String,
    pub source: TaskSource,
    /// What the agent is asked to do (markdown).
    pub instruction: String,
    pub environment: TaskEnvironment,
    pub verifier: TaskVerifier,
    pub agent_timeout_secs: u64,
    pub verifier_timeout_secs: u64,
    /// Run the verifier in the agent's own container (its whole state, checked for tampering
    /// first) instead of a fresh container that receives only the workdir. Only a task that
    /// declares it (Harbor's `environment_mode = "shared"`) sets it.
    #[serde(default)]
    pub verifier_in_place: bool,
    /// Run the set-up, the agent and the verifier as root (a Harbor task whose `[agent]` or
    /// `[verifier]` `user` is root); otherwise they run as an unprivileged user.
    #[serde(default)]
    pub run_as_root: bool,
    /// A shell script, run in the workdir, that solves the task: the verifier must pass after it
    /// (a generated task's sanity check). Left out of the JSON when absent, so the content hashes
    /// of tasks without one do not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reference_solution: Option<String>,
    /// Things the importer noticed that a reviewer should know before
    /// spending runs on the task (missing test files, bundled skills, settings
    /// that are not applied, ...). Empty when nothing stood out.
    #[serde(default)]
    pub warnings: Vec<String>,
}

impl TaskSpec {
    /// True when the verifier can score a run without a judge.
    pub fn is_deterministic(&self) -> bool {
        self.verifier.runs_in_container()
    }

    /// True when the task runs without a judge: a verifier scores it, or it is a routing case.
    pub fn runs_without_judge(&self) -> bool {
        self.is_deterministic() || matches!(self.verifier, TaskVerifier::Routing { .. })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "TaskSource")]
pub struct TaskSource {
    pub kind: TaskSourceKind,
    /// Host path the task was read from (folder or file); empty for app tasks.
    pub path: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "TaskSourceKind")]
pub enum TaskSourceKind {
    Harbor,
    EvalsJson,
    SweSkillsBench,
    App,
    /// Drafted by a model from a skill (`skillscope generate`); used only once approved.
    Generated,
}

/// A file with its path relative to a directory the model names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "TaskFile")]
pub struct TaskFile {
    /// Relative path with `/` separators, never absolute, never `..`.
    pub path: String,
    /// Contents; base64 in JSON.
    #[serde(with = "crate::files::base64_bytes")]
    #[ts(type = "string")]
    pub contents: Vec<u8>,
}

impl TaskFile {
    pub fn new(path: impl Into<String>, contents: impl Into<Vec<u8>>) -> Self {
        Self { path: path.into(), contents: contents.into() }
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export, rename = "TaskEnvironment")]
pub struct TaskEnvironment {
    /// Image to run. When both this and `dockerfile_context` are set, the
    /// image is a prebuilt form of the context (Harbor's `docker_image`).
    pub image: Option<String>,
    /// Host folder holding a `Dockerfile` to build the task's image from.
    pub dockerfile_context: Option<String>,
    /// Working directory in the container; the agent starts here, the
    /// verifier command runs here, `workspace_files` are written here.
    pub workdir: Option<String>,
    /// Files written into `workdir` before the agent starts.
    pub workspace_files: Vec<TaskFile>,
    /// The repository `workdir` holds (informational: it is checked out by the first `setup`
    /// commands, or built into the image of a generated task's environment).
    pub repository: Option<TaskRepository>,
    /// Shell commands (`sh -c`) run in order in `workdir` before the agent.
    pub setup: Vec<String>,
    /// Environment variables for the agent's container.
    pub env: BTreeMap<String, String>,
    pub memory_mb: Option<u32>,
    pub cpus: Option<f64>,
    /// Skill folders that come with the task (e.g. Harbor's
    /// `environment/skills/<name>`), relative to the source folder. The
    /// paired run removes every skill folder before the agent starts, so
    /// these are candidates for the skill under test, not part of the task.
    pub bundled_skills: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "TaskRepository")]
pub struct TaskRepository {
    pub url: String,
    /// Pinned commit; `None` when the source pins none (the checkout then
    /// follows the default branch, and the task says so in its warnings).
    pub commit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export, rename = "TaskVerifier")]
pub enum TaskVerifier {
    /// pytest over `test_files`, placed under `tests_dir` after the agent
    /// ran; scored by pass ratio from a JUnit XML report.
    Pytest {
        test_files: Vec<TaskFile>,
        /// Extra pytest arguments (before the test paths).
        args: Vec<String>,
        /// Absolute container directory the test files go to.
        tests_dir: String,
    },
    /// Harbor's `tests/` folder, placed at `/tests`; `tests/test.sh` writes
    /// `/logs/verifier/reward.txt` or `/logs/verifier/reward.json`.
    HarborTests { tests_dir_files: Vec<TaskFile> },
    /// `sh -c command` prints `{"score": x}` as its last JSON line.
    JsonScoreCommand { command: String },
    /// `sh -c command`: exit 0 scores 1.0, any other exit 0.0.
    ExitCode { command: String },
    /// No deterministic verifier: a judge grades the run against these.
    NeedsJudge { expectations: Vec<String>, expected_output: Option<String> },
    /// A routing case (a trigger eval): no outcome is checked; whether the agent used the skill
    /// under test, against whether it should have, counts toward activation accuracy.
    Routing { should_trigger: bool },
    /// The source has no usable verifier; the task cannot be scored.
    Missing { reason: String },
}

impl TaskVerifier {
    /// What scores the task, in a reviewer's words.
    pub fn label(&self) -> String {
        match self {
            Self::Pytest { test_files, .. } => {
                format!("pytest, {} test file(s), pass ratio from JUnit", test_files.len())
            }
            Self::HarborTests { .. } => "Harbor tests/test.sh, reward file".into(),
            Self::JsonScoreCommand { command } => format!("JSON score from `{command}`"),
            Self::ExitCode { command } => format!("exit code of `{command}`"),
            Self::NeedsJudge { expectations, .. } => format!("{} expectation(s) for a judge", expectations.len()),
            Self::Routing { should_trigger: true } => "activation: the skill should be used".into(),
            Self::Routing { should_trigger: false } => "activation: the skill should not be used".into(),
            Self::Missing { reason } => format!("none: {reason}"),
        }
    }

    /// True for verifiers that run a command in the container.
    pub fn runs_in_container(&self) -> bool {
        !matches!(self, Self::NeedsJudge { .. } | Self::Routing { .. } | Self::Missing { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_with_base64_files() {
        let t = TaskSpec {
            id: "app:x".into(),
            name: "x".into(),
            source: TaskSource { kind: TaskSourceKind::App, path: String::new() },
            instruction: "do".into(),
            environment: TaskEnvironment {
                workspace_files: vec![TaskFile::new("bin.dat", vec![0u8, 255, 10])],
                ..TaskEnvironment::default()
            },
            verifier: TaskVerifier::Pytest {
                test_files: vec![TaskFile::new("test_a.py", "def test_a(): pass\n")],
                args: vec![],
                tests_dir: "/tests".into(),
            },
            agent_timeout_secs: 10,
            verifier_timeout_secs: 5,
            verifier_in_place: false,
            run_as_root: false,
            reference_solution: None,
            warnings: vec![],
        };
        let v = serde_json::to_value(&t).unwrap();
        assert_eq!(v["environment"]["workspace_files"][0]["contents"], "AP8K");
        // Absent, it is left out, so tasks stored before it existed keep their content hash.
        assert!(v.get("reference_solution").is_none());
        assert_eq!(v["verifier"]["kind"], "pytest");
        assert_eq!(v["source"]["kind"], "app");
        let back: TaskSpec = serde_json::from_value(v).unwrap();
        assert_eq!(back, t);
        let bad = r#"{"path": "a", "contents": "not base64!"}"#;
        assert!(serde_json::from_str::<TaskFile>(bad).is_err());
    }
}
