//! What a job is: its kind and request, its state, its progress and its typed outcome.

use crate::errors::AppError;
use serde::{Deserialize, Serialize};
use skillscope_experiments::calibration::Calibration;
use skillscope_experiments::drafts::{DraftRequest, GeneratedTasks};
use skillscope_experiments::judging::Judged;
use skillscope_library::model::{ImportOutcome, ImportRequest};
use skillscope_runs::harnesses::{Harness, HarnessStatus};
use ts_rs::TS;

/// Long work other than trials. The request is stored with the job, so a job's row says what
/// it was asked to do.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum JobRequest {
    /// Imports a folder, archive or git repository, then reviews what it imported.
    Import(ImportRequest),
    /// Reviews every version that has no current static review.
    ScanLibrary,
    /// Installs a harness (Claude Code, Codex, OpenCode, Gemini CLI: from npm).
    HarnessInstall { harness: Harness },
    /// Builds the local base images (busybox; with `debian`, also Debian + Python by debootstrap).
    ImagePreparation { debian: bool },
    /// Pulls an image from its registry (a reference such as `python:3.12-slim`).
    ImagePull { image: String },
    /// Writes an experiment's bundle to `path` (gzip when it ends in .gz), or, without one, to a
    /// new `.json.gz` file in the workspace's exports folder.
    BundleExport { experiment_id: i64, path: Option<String> },
    /// Imports the bundle at `path` as a new experiment.
    BundleImport { path: String },
    /// Has the experiment's judge grade every finished arm not graded yet (expectations, ACES's
    /// rubric), then compare every scored pair not compared yet; stopping keeps what is judged.
    Judge { experiment_id: i64 },
    /// Calibrates the experiment's judge: up to `sample` graded arms graded `gradings` times in
    /// all, and up to `sample` verifier-scored arms graded by the judge; kept as the experiment's
    /// latest calibration only when whole.
    CalibrateJudge { experiment_id: i64, gradings: u32, sample: u32 },
    /// Has a writer draft tasks of one kind from a skill version (set in a repository, whose
    /// environment is built first, when one is named), each checked for leakage, stored as a task
    /// set of drafts that run only once approved; their verifiers' sanity checks are queued.
    DraftTasks(DraftRequest),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum JobKind {
    Import,
    ScanLibrary,
    HarnessInstall,
    ImagePreparation,
    ImagePull,
    BundleExport,
    BundleImport,
    Judge,
    CalibrateJudge,
    DraftTasks,
}

impl JobRequest {
    pub fn kind(&self) -> JobKind {
        match self {
            JobRequest::Import(_) => JobKind::Import,
            JobRequest::ScanLibrary => JobKind::ScanLibrary,
            JobRequest::HarnessInstall { .. } => JobKind::HarnessInstall,
            JobRequest::ImagePreparation { .. } => JobKind::ImagePreparation,
            JobRequest::ImagePull { .. } => JobKind::ImagePull,
            JobRequest::BundleExport { .. } => JobKind::BundleExport,
            JobRequest::BundleImport { .. } => JobKind::BundleImport,
            JobRequest::Judge { .. } => JobKind::Judge,
            JobRequest::CalibrateJudge { .. } => JobKind::CalibrateJudge,
            JobRequest::DraftTasks { .. } => JobKind::DraftTasks,
        }
    }
}

impl JobKind {
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Import => "import",
            JobKind::ScanLibrary => "scan_library",
            JobKind::HarnessInstall => "harness_install",
            JobKind::ImagePreparation => "image_preparation",
            JobKind::ImagePull => "image_pull",
            JobKind::BundleExport => "bundle_export",
            JobKind::BundleImport => "bundle_import",
            JobKind::Judge => "judge",
            JobKind::CalibrateJudge => "calibrate_judge",
            JobKind::DraftTasks => "draft_tasks",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Self> {
        [
            JobKind::Import,
            JobKind::ScanLibrary,
            JobKind::HarnessInstall,
            JobKind::ImagePreparation,
            JobKind::ImagePull,
            JobKind::BundleExport,
            JobKind::BundleImport,
            JobKind::Judge,
            JobKind::CalibrateJudge,
            JobKind::DraftTasks,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum JobState {
    Queued,
    Running,
    Succeeded,
    Failed,
    /// Stopped on request at a safe point; what it had finished is kept (see the message).
    Cancelled,
}

impl JobState {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Succeeded => "succeeded",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }

    pub(crate) fn parse(s: &str) -> Self {
        match s {
            "queued" => JobState::Queued,
            "running" => JobState::Running,
            "succeeded" => JobState::Succeeded,
            "cancelled" => JobState::Cancelled,
            _ => JobState::Failed,
        }
    }

    pub fn is_finished(self) -> bool {
        matches!(self, JobState::Succeeded | JobState::Failed | JobState::Cancelled)
    }
}

/// What a finished job produced, by kind.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum JobOutcome {
    Import(ImportOutcome),
    ScanLibrary {
        scanned: u32,
    },
    HarnessInstall(HarnessStatus),
    /// The images built, as `tag image-id`.
    ImagePreparation {
        images: Vec<String>,
    },
    /// The image pulled and its local id.
    ImagePull {
        image: String,
        id: String,
    },
    BundleExport {
        path: String,
    },
    BundleImport {
        experiment_id: i64,
    },
    Judge(Judged),
    CalibrateJudge(Box<Calibration>),
    DraftTasks(Box<GeneratedTasks>),
}

/// A job's state as stored and as sent to the front end on every change.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct JobEvent {
    pub job_id: i64,
    pub kind: JobKind,
    pub state: JobState,
    /// Steps done out of `total` (0 of 0 while the size of the work is not yet known).
    pub done: u32,
    pub total: u32,
    pub message: String,
    pub error: Option<AppError>,
    pub outcome: Option<JobOutcome>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests are stored and cross IPC as JSON tagged by `kind`: a payload field of that name
    /// would be swallowed by the tag.
    #[test]
    fn a_draft_request_survives_its_json_round_trip() {
        let request = JobRequest::DraftTasks(DraftRequest {
            version_id: 3,
            writer: skillscope_experiments::drafts::Writer { provider: "p".into(), model: "m".into() },
            draft_kind: skillscope_generate::DraftKind::Requirements,
            count: 10,
            repository: Some("/repo".into()),
            commit: None,
        });
        let json = serde_json::to_value(&request).unwrap();
        assert_eq!((json["kind"].as_str(), json["draft_kind"].as_str()), (Some("draft_tasks"), Some("requirements")));
        let JobRequest::DraftTasks(back) = serde_json::from_value(json).unwrap() else { panic!("another request") };
        assert_eq!((back.draft_kind, back.count), (skillscope_generate::DraftKind::Requirements, 10));
    }
}
