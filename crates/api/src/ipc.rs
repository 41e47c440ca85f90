//! Every type a command takes or returns, under one name each: what the command list and the
//! generated TypeScript client refer to.

pub use crate::jobs::{JobEvent, JobKind, JobOutcome, JobRequest, JobState};
pub use crate::settings::{PriceImport, Settings};
pub use skillscope_experiments::calibration::Calibration;
pub use skillscope_experiments::csv_export::CsvTable;
pub use skillscope_experiments::drafts::{DraftEdit, GeneratedTasks};
pub use skillscope_experiments::estimate::ExperimentEstimate;
pub use skillscope_experiments::judging::Judged;
pub use skillscope_experiments::measures::ExperimentMeasures;
pub use skillscope_experiments::reviews::{DraftReview, DraftVerdict};
pub use skillscope_experiments::task_sets::{TaskImportKind, TaskSetDetail, TaskSetImport, TaskSetSummary};
pub use skillscope_experiments::{Chart, ExperimentDesign, ExperimentResults, ExperimentView, PairView};
pub use skillscope_judge::Judge;
pub use skillscope_library::model::{FileContent, SkillDetail, SkillSummary, VersionDetail, VersionDiff};
pub use skillscope_library::scans::ExportFormat;
pub use skillscope_models::ProviderConfig;
pub use skillscope_probes::run::{ProbeRequest, ProbeRunView};
pub use skillscope_review::decisions::{Decision, EvidenceLink, NewDecision};
pub use skillscope_review::report::ReportFormat;
pub use skillscope_runs::agents::{AgentConfig, ProviderView};
pub use skillscope_runs::harnesses::{Harness, HarnessStatus};
pub use skillscope_runs::queue::agent_run::AgentRunRequest;
pub use skillscope_runs::queue::model::{AttemptResult, QueueEvent, QueueStatus, RunView, TrialView};
pub use skillscope_runs::queue::sandbox_run::SandboxRunRequest;
pub use skillscope_runs::trajectories::{
    ImportedTrajectory, PairAlignment, StepWindow, TrajectoryPage, TrajectoryQuery, TrajectorySummary, WindowRequest,
};
pub use skillscope_sandbox::bootstrap::BaseImage;
pub use skillscope_sandbox::EngineStatus;
pub use skillscope_scan::ScanReport;
pub use skillscope_store::workspace::WorkspaceInfo;
pub use skillscope_tasks::app::AppTaskInput as TaskAppInput;
