//! IPC commands: argument plumbing only; every decision lives in skillscope-api.
//! `async` makes Tauri run them off the UI thread. Errors reach the UI as `{code, message}`.

use crate::queue::LiveLogs;
use crate::AppState;
use skillscope_api::agents::{self, AgentConfig, ProviderView};
use skillscope_api::credentials;
use skillscope_api::decisions::{self, Decision, NewDecision};
use skillscope_api::experiments::{self, ExperimentDesign, ExperimentResults, ExperimentView, PairView};
use skillscope_api::harnesses::{self, Harness, HarnessStatus};
use skillscope_api::jobs::{self, JobEvent};
use skillscope_api::model::*;
use skillscope_api::models::ProviderConfig;
use skillscope_api::queue::agent_run::AgentRunRequest;
use skillscope_api::queue::model::{AttemptResult, QueueStatus, RunView, TrialView};
use skillscope_api::queue::sandbox_run::SandboxRunRequest;
use skillscope_api::queue::store;
use skillscope_api::report::{self, ReportFormat};
use skillscope_api::scan::ScanReport;
use skillscope_api::scans::{self, ExportFormat};
use skillscope_api::trajectories::{
    self, ImportedTrajectory, PairAlignment, StepWindow, TrajectoryPage, TrajectoryQuery, TrajectorySummary,
    WindowRequest,
};
use skillscope_api::workspace::WorkspaceInfo;
use skillscope_api::{library, AppError, Workspace};
use tauri::{AppHandle, Emitter, State};

type Res<T> = Result<T, AppError>;

/// Event carrying every `JobEvent`.
pub const JOB_EVENT: &str = "job-progress";

fn ws<'a>(state: &'a State<AppState>) -> Res<&'a Workspace> {
    state.0.as_ref().map_err(Clone::clone)
}

#[tauri::command(async)]
pub fn workspace_info(state: State<AppState>) -> Res<WorkspaceInfo> {
    ws(&state)?.info()
}

#[tauri::command(async)]
pub fn list_skills(state: State<AppState>) -> Res<Vec<SkillSummary>> {
    library::list_skills(ws(&state)?)
}

#[tauri::command(async)]
pub fn get_skill(state: State<AppState>, id: i64) -> Res<SkillDetail> {
    library::get_skill(ws(&state)?, id)
}

#[tauri::command(async)]
pub fn get_version(state: State<AppState>, version_id: i64) -> Res<VersionDetail> {
    library::get_version(ws(&state)?, version_id)
}

#[tauri::command(async)]
pub fn read_file(state: State<AppState>, version_id: i64, path: String) -> Res<FileContent> {
    library::read_file(ws(&state)?, version_id, &path)
}

#[tauri::command(async)]
pub fn diff_versions(state: State<AppState>, from_version_id: i64, to_version_id: i64) -> Res<VersionDiff> {
    library::diff_versions(ws(&state)?, from_version_id, to_version_id)
}

/// Starts an import job and returns its id; progress and the result arrive as `job-progress` events.
#[tauri::command(async)]
pub fn start_import(app: AppHandle, state: State<AppState>, request: ImportRequest) -> Res<i64> {
    let ws = ws(&state)?.clone();
    let ev = jobs::create(&ws, jobs::IMPORT, &request)?;
    let id = ev.job_id;
    std::thread::spawn(move || {
        jobs::run_import(&ws, ev, &request, &|e: &JobEvent| {
            if let Err(err) = app.emit(JOB_EVENT, e) {
                tracing::warn!("could not emit job event: {err}");
            }
        });
    });
    Ok(id)
}

/// The static review of a version (scanned now if it has no current result).
#[tauri::command(async)]
pub fn get_scan(state: State<AppState>, version_id: i64) -> Res<ScanReport> {
    scans::report(ws(&state)?, version_id)
}

/// Rescans every version without a current result; returns how many were scanned.
#[tauri::command(async)]
pub fn scan_pending(state: State<AppState>) -> Res<u32> {
    scans::scan_pending(ws(&state)?, &mut |_, _| {})
}

/// Writes the reports of the given versions to the workspace's exports folder; returns the path.
#[tauri::command(async)]
pub fn export_scans(state: State<AppState>, version_ids: Vec<i64>, format: ExportFormat) -> Res<String> {
    scans::export_versions(ws(&state)?, &version_ids, format)
}

#[tauri::command(async)]
pub fn queue_status(state: State<AppState>) -> Res<QueueStatus> {
    store::status(ws(&state)?)
}

#[tauri::command(async)]
pub fn list_runs(state: State<AppState>) -> Res<Vec<RunView>> {
    store::runs(ws(&state)?)
}

#[tauri::command(async)]
pub fn list_trials(state: State<AppState>, run_id: i64) -> Res<Vec<TrialView>> {
    store::trials(ws(&state)?, run_id)
}

#[tauri::command(async)]
pub fn trial_results(state: State<AppState>, trial_id: i64) -> Res<Vec<AttemptResult>> {
    store::results(ws(&state)?, trial_id)
}

/// Output of a running trial so far (finished trials: see `trial_results`).
#[tauri::command(async)]
pub fn trial_log(logs: State<LiveLogs>, trial_id: i64) -> String {
    logs.get(trial_id)
}

#[tauri::command(async)]
pub fn set_queue_paused(state: State<AppState>, paused: bool) -> Res<QueueStatus> {
    let ws = ws(&state)?;
    store::set_paused(ws, paused)?;
    store::status(ws)
}

#[tauri::command(async)]
pub fn cancel_trial(state: State<AppState>, trial_id: i64) -> Res<bool> {
    store::cancel_trial(ws(&state)?, trial_id)
}

#[tauri::command(async)]
pub fn cancel_run(state: State<AppState>, run_id: i64) -> Res<u32> {
    store::cancel_run(ws(&state)?, run_id)
}

/// Queues `count` trials of one shell command in an image (a sandbox run).
#[tauri::command(async)]
pub fn start_sandbox_run(state: State<AppState>, request: SandboxRunRequest) -> Res<i64> {
    skillscope_api::queue::sandbox_run::create(ws(&state)?, &request)
}

#[tauri::command(async)]
pub fn start_agent_run(state: State<AppState>, request: AgentRunRequest) -> Res<i64> {
    skillscope_api::queue::agent_run::create(ws(&state)?, &request)
}

#[tauri::command(async)]
pub fn list_providers(state: State<AppState>) -> Res<Vec<ProviderView>> {
    agents::providers(ws(&state)?)
}

#[tauri::command(async)]
pub fn save_provider(state: State<AppState>, config: ProviderConfig) -> Res<()> {
    agents::save_provider(ws(&state)?, &config)
}

#[tauri::command(async)]
pub fn delete_provider(state: State<AppState>, id: String) -> Res<()> {
    agents::delete_provider(ws(&state)?, &id)
}

/// Stores a key in the OS keyring. It is never sent back to the UI.
#[tauri::command(async)]
pub fn set_credential(provider: String, secret: String) -> Res<()> {
    credentials::set(&provider, &secret)
}

#[tauri::command(async)]
pub fn delete_credential(provider: String) -> Res<bool> {
    credentials::delete(&provider)
}

#[tauri::command]
pub async fn test_credential(state: State<'_, AppState>, provider: String, model: String) -> Res<()> {
    let ws = ws(&state)?.clone();
    agents::test_credential(&ws, &provider, &model).await
}

#[tauri::command(async)]
pub fn list_agents(state: State<AppState>) -> Res<Vec<AgentConfig>> {
    agents::agents(ws(&state)?)
}

#[tauri::command(async)]
pub fn save_agent(state: State<AppState>, config: AgentConfig) -> Res<i64> {
    agents::save_agent(ws(&state)?, &config)
}

#[tauri::command(async)]
pub fn delete_agent(state: State<AppState>, id: i64) -> Res<()> {
    agents::delete_agent(ws(&state)?, id)
}

/// One page of the workspace's trajectories, newest first, optionally searched by label.
#[tauri::command(async)]
pub fn harness_status(state: State<AppState>) -> Res<Vec<HarnessStatus>> {
    Ok(harnesses::status(ws(&state)?))
}

/// Installs a harness (Claude Code: npm, a minute at most); resolves with its new status.
#[tauri::command(async)]
pub fn install_harness(state: State<AppState>, harness: Harness) -> Res<HarnessStatus> {
    harnesses::install(ws(&state)?, harness)
}

#[tauri::command(async)]
pub fn list_trajectories(state: State<AppState>, query: TrajectoryQuery) -> Res<TrajectoryPage> {
    trajectories::page(ws(&state)?, &query)
}

#[tauri::command(async)]
pub fn trajectory_summary(state: State<AppState>, id: i64) -> Res<TrajectorySummary> {
    trajectories::summary_of(ws(&state)?, id)
}

#[tauri::command(async)]
pub fn trial_trajectories(state: State<AppState>, trial_id: i64) -> Res<Vec<TrajectorySummary>> {
    trajectories::for_trial(ws(&state)?, trial_id)
}

/// One window of a trajectory's steps: viewers never ask for a whole trajectory.
#[tauri::command(async)]
pub fn trajectory_window(state: State<AppState>, id: i64, request: WindowRequest) -> Res<StepWindow> {
    trajectories::window(ws(&state)?, id, &request)
}

#[tauri::command(async)]
pub fn step_position(state: State<AppState>, id: i64, step_id: u64) -> Res<Option<u32>> {
    trajectories::step_position(ws(&state)?, id, step_id)
}

#[tauri::command(async)]
pub fn align_pair(state: State<AppState>, without: Option<i64>, with: Option<i64>) -> Res<PairAlignment> {
    trajectories::align(ws(&state)?, without, with)
}

/// Imports an ATIF file; returns the new id and any rule violations found in it.
#[tauri::command(async)]
pub fn import_trajectory(state: State<AppState>, path: String) -> Res<ImportedTrajectory> {
    let (id, violations) = trajectories::import_file(ws(&state)?, std::path::Path::new(&path))?;
    Ok(ImportedTrajectory { id, violations })
}

#[tauri::command(async)]
pub fn create_experiment(state: State<AppState>, design: ExperimentDesign) -> Res<i64> {
    experiments::create(ws(&state)?, &design)
}

#[tauri::command(async)]
pub fn list_experiments(state: State<AppState>) -> Res<Vec<ExperimentView>> {
    experiments::list(ws(&state)?)
}

#[tauri::command(async)]
pub fn experiment_pairs(state: State<AppState>, id: i64) -> Res<Vec<PairView>> {
    experiments::pairs(ws(&state)?, id)
}

#[tauri::command(async)]
pub fn experiment_results(state: State<AppState>, id: i64) -> Res<ExperimentResults> {
    experiments::results(ws(&state)?, id)
}

#[tauri::command(async)]
pub fn record_decision(state: State<AppState>, decision: NewDecision) -> Res<Decision> {
    decisions::record(ws(&state)?, &decision)
}

#[tauri::command(async)]
pub fn list_decisions(state: State<AppState>, skill_id: i64) -> Res<Vec<Decision>> {
    decisions::list(ws(&state)?, skill_id)
}

/// Writes the report to the workspace's exports folder; returns the path.
#[tauri::command(async)]
pub fn export_report(state: State<AppState>, skill_id: i64, format: ReportFormat) -> Res<String> {
    let ws = ws(&state)?;
    report::export(ws, skill_id, format)
}

/// Charts of an experiment as SVG documents, titled.
#[tauri::command(async)]
pub fn experiment_charts(state: State<AppState>, id: i64) -> Res<Vec<(String, String)>> {
    experiments::charts(ws(&state)?, id)
}

#[tauri::command(async)]
pub fn recent_jobs(state: State<AppState>) -> Res<Vec<JobEvent>> {
    jobs::recent(ws(&state)?, 50)
}
