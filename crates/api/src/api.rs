//! [`Api`]: one method per command of [`crate::with_commands!`], over the open workspace. The
//! app's handlers and the front end's client are generated from the same list, so an adapter
//! only forwards arguments.

use crate::errors::{AppError, Result};
use crate::events::{Event, Sink};
use crate::ipc::*;
use crate::jobs;
use crate::live_logs::LiveLogs;
use crate::results_warmup::ResultsWarmup;
use skillscope_experiments::{self as experiments, task_sets};
use skillscope_library::{self as library, scans};
use skillscope_probes as probes;
use skillscope_review::{basis, decisions, report};
use skillscope_runs::error::RunsError;
use skillscope_runs::queue::worker::{self, WorkerOptions};
use skillscope_runs::queue::{agent_run, sandbox_run, store};
use skillscope_runs::{agents, credentials, harnesses, trajectories};
use skillscope_store::Workspace;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How many jobs `recent_jobs` lists.
const RECENT_JOBS: u32 = 50;

pub struct Api {
    /// The workspace, or why it could not be opened (every command then fails with that error,
    /// and the UI shows it instead of crashing).
    ws: Result<Workspace>,
    sink: Sink,
    logs: LiveLogs,
    /// Cancel flags of the jobs this process runs.
    running: Arc<Mutex<HashMap<i64, Arc<AtomicBool>>>>,
}

impl Api {
    pub fn new(ws: Result<Workspace>, sink: Sink) -> Self {
        Self { ws, sink, logs: LiveLogs::default(), running: Arc::default() }
    }

    pub fn workspace(&self) -> Result<&Workspace> {
        self.ws.as_ref().map_err(Clone::clone)
    }

    /// Hosts the trial queue's worker for the life of the process, forwarding its events to
    /// the sink and keeping live output, and keeps the statistics of experiments whose trials
    /// finish computed ahead. If another process (a CLI `queue work`) holds the queue, or the
    /// worker stops, it tries again after 10 s.
    pub async fn host_queue(&self) {
        let Ok(ws) = self.workspace().cloned() else { return };
        let warmup = Arc::new(ResultsWarmup::default());
        let worker = async {
            loop {
                let (sink, logs, warmup) = (self.sink.clone(), self.logs.clone(), warmup.clone());
                let forward = Arc::new(move |ev: QueueEvent| {
                    match &ev {
                        QueueEvent::Log { trial_id, text, .. } => logs.append(*trial_id, text),
                        QueueEvent::Trial { trial } if trial.state.is_final() => warmup.trial_finished(trial.run_id),
                        _ => {}
                    }
                    sink.emit(Event::Queue(ev));
                });
                match worker::run(ws.clone(), WorkerOptions::default(), forward).await {
                    Ok(()) => return,
                    Err(e @ RunsError::Conflict(_)) => tracing::info!("{e}; retrying in 10 s"),
                    Err(e) => tracing::error!("queue worker stopped: {e}; restarting in 10 s"),
                }
                tokio::time::sleep(Duration::from_secs(10)).await;
            }
        };
        // The worker returns only when it has nothing more to do; the warm-up stops with it.
        tokio::select! {
            () = worker => {}
            () = warmup.run(ws.clone()) => {}
        }
    }

    pub fn workspace_info(&self) -> Result<WorkspaceInfo> {
        Ok(self.workspace()?.info()?)
    }
    pub fn list_skills(&self) -> Result<Vec<SkillSummary>> {
        Ok(library::list_skills(self.workspace()?)?)
    }
    pub fn get_skill(&self, id: i64) -> Result<SkillDetail> {
        Ok(library::get_skill(self.workspace()?, id)?)
    }
    pub fn get_version(&self, version_id: i64) -> Result<VersionDetail> {
        Ok(library::get_version(self.workspace()?, version_id)?)
    }
    pub fn read_file(&self, version_id: i64, path: String) -> Result<FileContent> {
        Ok(library::read_file(self.workspace()?, version_id, &path)?)
    }
    pub fn diff_versions(&self, from_version_id: i64, to_version_id: i64) -> Result<VersionDiff> {
        Ok(library::diff_versions(self.workspace()?, from_version_id, to_version_id)?)
    }

    /// Stores the job and runs it on a thread of its own; events go to the sink.
    pub fn start_job(&self, request: JobRequest) -> Result<i64> {
        let ws = self.workspace()?.clone();
        let ev = jobs::create(&ws, &request)?;
        let id = ev.job_id;
        let cancel = Arc::new(AtomicBool::new(false));
        self.running.lock().expect("jobs lock").insert(id, cancel.clone());
        let (sink, running) = (self.sink.clone(), self.running.clone());
        std::thread::spawn(move || {
            jobs::run(&ws, ev, &request, &cancel, &|e: &JobEvent| sink.emit(Event::Job(e.clone())));
            running.lock().expect("jobs lock").remove(&id);
        });
        Ok(id)
    }
    pub fn recent_jobs(&self) -> Result<Vec<JobEvent>> {
        jobs::recent(self.workspace()?, RECENT_JOBS)
    }
    pub fn cancel_job(&self, job_id: i64) -> Result<bool> {
        let running = self.running.lock().expect("jobs lock");
        Ok(running.get(&job_id).map(|c| c.store(true, Ordering::Relaxed)).is_some())
    }

    pub fn get_scan(&self, version_id: i64) -> Result<ScanReport> {
        Ok(scans::report(self.workspace()?, version_id)?)
    }
    pub fn review_scan(&self, version_id: i64, provider: String, model: String) -> Result<ScanReport> {
        crate::scan_review::review_version(self.workspace()?, version_id, &provider, &model)
    }
    pub fn start_probes(&self, request: ProbeRequest) -> Result<i64> {
        Ok(probes::run::start(self.workspace()?, &request)?)
    }
    pub fn probe_runs(&self, version_id: i64) -> Result<Vec<ProbeRunView>> {
        Ok(probes::run::runs_of(self.workspace()?, version_id)?)
    }
    pub fn export_scans(&self, version_ids: Vec<i64>, format: ExportFormat) -> Result<String> {
        Ok(scans::export_versions(self.workspace()?, &version_ids, format)?)
    }

    pub fn queue_status(&self) -> Result<QueueStatus> {
        Ok(store::status(self.workspace()?)?)
    }
    pub fn engine_status(&self) -> Result<EngineStatus> {
        crate::engine::status()
    }
    pub fn base_images(&self) -> Result<Vec<BaseImage>> {
        crate::engine::base_images()
    }
    pub fn list_runs(&self) -> Result<Vec<RunView>> {
        Ok(store::runs(self.workspace()?)?)
    }
    pub fn list_trials(&self, run_id: i64) -> Result<Vec<TrialView>> {
        Ok(store::trials(self.workspace()?, run_id)?)
    }
    pub fn trial_results(&self, trial_id: i64) -> Result<Vec<AttemptResult>> {
        Ok(store::results(self.workspace()?, trial_id)?)
    }
    pub fn trial_log(&self, trial_id: i64) -> Result<String> {
        Ok(self.logs.get(trial_id))
    }
    pub fn set_queue_paused(&self, paused: bool) -> Result<QueueStatus> {
        let ws = self.workspace()?;
        store::set_paused(ws, paused)?;
        Ok(store::status(ws)?)
    }
    pub fn cancel_trial(&self, trial_id: i64) -> Result<bool> {
        Ok(store::cancel_trial(self.workspace()?, trial_id)?)
    }
    pub fn cancel_run(&self, run_id: i64) -> Result<u32> {
        Ok(store::cancel_run(self.workspace()?, run_id)?)
    }
    pub fn start_sandbox_run(&self, request: SandboxRunRequest) -> Result<i64> {
        Ok(sandbox_run::create(self.workspace()?, &request)?)
    }
    pub fn start_agent_run(&self, request: AgentRunRequest) -> Result<i64> {
        Ok(agent_run::create(self.workspace()?, &request)?)
    }

    pub fn list_providers(&self) -> Result<Vec<ProviderView>> {
        Ok(agents::providers(self.workspace()?)?)
    }
    pub fn save_provider(&self, config: ProviderConfig) -> Result<()> {
        Ok(agents::save_provider(self.workspace()?, &config)?)
    }
    pub fn delete_provider(&self, id: String) -> Result<()> {
        Ok(agents::delete_provider(self.workspace()?, &id)?)
    }
    pub fn set_credential(&self, provider: String, secret: String) -> Result<()> {
        Ok(credentials::set(&provider, &secret)?)
    }
    pub fn delete_credential(&self, provider: String) -> Result<bool> {
        Ok(credentials::delete(&provider)?)
    }
    pub fn test_credential(&self, provider: String, model: String) -> Result<()> {
        let ws = self.workspace()?;
        let runtime = crate::runtime::current_thread("the credential test")?;
        Ok(runtime.block_on(agents::test_credential(ws, &provider, &model))?)
    }
    pub fn list_agents(&self) -> Result<Vec<AgentConfig>> {
        Ok(agents::agents(self.workspace()?)?)
    }
    pub fn save_agent(&self, config: AgentConfig) -> Result<i64> {
        Ok(agents::save_agent(self.workspace()?, &config)?)
    }
    pub fn delete_agent(&self, id: i64) -> Result<()> {
        Ok(agents::delete_agent(self.workspace()?, id)?)
    }
    pub fn harness_status(&self) -> Result<Vec<HarnessStatus>> {
        Ok(harnesses::status(self.workspace()?))
    }

    pub fn list_trajectories(&self, query: TrajectoryQuery) -> Result<TrajectoryPage> {
        Ok(trajectories::page(self.workspace()?, &query)?)
    }
    pub fn trajectory_summary(&self, id: i64) -> Result<TrajectorySummary> {
        Ok(trajectories::summary_of(self.workspace()?, id)?)
    }
    pub fn trial_trajectories(&self, trial_id: i64) -> Result<Vec<TrajectorySummary>> {
        Ok(trajectories::for_trial(self.workspace()?, trial_id)?)
    }
    pub fn trajectory_window(&self, id: i64, request: WindowRequest) -> Result<StepWindow> {
        Ok(trajectories::window(self.workspace()?, id, &request)?)
    }
    pub fn step_position(&self, id: i64, step_id: u64) -> Result<Option<u32>> {
        Ok(trajectories::step_position(self.workspace()?, id, step_id)?)
    }
    pub fn align_pair(&self, without_id: Option<i64>, with_id: Option<i64>) -> Result<PairAlignment> {
        Ok(trajectories::align(self.workspace()?, without_id, with_id)?)
    }
    pub fn import_trajectory(&self, path: String) -> Result<ImportedTrajectory> {
        let (id, violations) = trajectories::import_file(self.workspace()?, std::path::Path::new(&path))?;
        Ok(ImportedTrajectory { id, violations })
    }

    pub fn settings(&self) -> Result<Settings> {
        crate::settings::get(self.workspace()?)
    }
    pub fn save_settings(&self, settings: Settings) -> Result<Settings> {
        crate::settings::save(self.workspace()?, settings)
    }
    pub fn import_prices(&self, path: String) -> Result<PriceImport> {
        crate::settings::import_prices(self.workspace()?, &path)
    }
    pub fn import_skill_evals(&self, version_id: i64) -> Result<TaskSetImport> {
        Ok(task_sets::import_skill_evals(self.workspace()?, version_id)?)
    }
    pub fn import_task_set(&self, path: String, kind: TaskImportKind) -> Result<TaskSetImport> {
        Ok(task_sets::import(self.workspace()?, std::path::Path::new(&path), kind)?)
    }
    pub fn write_task(&self, input: TaskAppInput) -> Result<TaskSetImport> {
        let task = skillscope_tasks::app::to_task(&input).map_err(|e| AppError::invalid_input(e.to_string()))?;
        let name = task.name.clone();
        Ok(task_sets::store(self.workspace()?, &name, task.source.kind, "", vec![task], Vec::new())?)
    }
    pub fn task_sets(&self) -> Result<Vec<TaskSetSummary>> {
        Ok(task_sets::list(self.workspace()?)?)
    }
    pub fn task_set(&self, id: i64) -> Result<TaskSetDetail> {
        Ok(task_sets::get(self.workspace()?, id)?)
    }
    pub fn create_experiment(&self, design: ExperimentDesign) -> Result<i64> {
        Ok(experiments::create(self.workspace()?, &design)?)
    }
    pub fn estimate_experiment(&self, design: ExperimentDesign) -> Result<ExperimentEstimate> {
        Ok(experiments::estimate::estimate(self.workspace()?, &design)?)
    }
    pub fn rerun_experiment(&self, id: i64) -> Result<i64> {
        Ok(experiments::rerun::rerun_unscored(self.workspace()?, id)?)
    }
    pub fn list_experiments(&self) -> Result<Vec<ExperimentView>> {
        Ok(experiments::list(self.workspace()?)?)
    }
    pub fn experiment_pairs(&self, id: i64) -> Result<Vec<PairView>> {
        Ok(experiments::pairs(self.workspace()?, id)?.into_iter().map(PairView::listed).collect())
    }
    pub fn experiment_pair(&self, experiment_id: i64, pair_id: i64) -> Result<PairView> {
        Ok(experiments::pair(self.workspace()?, experiment_id, pair_id)?)
    }
    pub fn experiment_results(&self, id: i64) -> Result<ExperimentResults> {
        Ok(experiments::results(self.workspace()?, id)?)
    }
    pub fn experiment_charts(&self, id: i64) -> Result<Vec<Chart>> {
        Ok(experiments::charts(self.workspace()?, id)?)
    }

    pub fn record_decision(&self, decision: NewDecision) -> Result<Decision> {
        Ok(decisions::record(self.workspace()?, &decision)?)
    }
    pub fn list_decisions(&self, skill_id: i64) -> Result<Vec<Decision>> {
        Ok(decisions::list(self.workspace()?, skill_id)?)
    }
    pub fn evidence_options(&self, version_id: i64) -> Result<Vec<EvidenceLink>> {
        Ok(basis::options(self.workspace()?, version_id)?)
    }
    pub fn review_draft(
        &self,
        task_set_id: i64,
        task_id: String,
        verdict: DraftVerdict,
        reviewer: String,
    ) -> Result<DraftReview> {
        Ok(experiments::drafts::review(self.workspace()?, &task_id, Some(task_set_id), verdict, &reviewer)?)
    }
    pub fn edit_draft(&self, task_set_id: i64, task_id: String, edit: DraftEdit) -> Result<TaskSetDetail> {
        Ok(experiments::drafts::edit(self.workspace()?, task_set_id, &task_id, &edit)?)
    }
    pub fn judge_calibration(&self, id: i64) -> Result<Option<Calibration>> {
        Ok(experiments::calibration::latest(self.workspace()?, id)?)
    }
    pub fn experiment_measures(&self, id: i64) -> Result<ExperimentMeasures> {
        Ok(experiments::measures::experiment_measures(self.workspace()?, id)?)
    }
    pub fn export_experiment_csv(&self, experiment_id: i64, table: CsvTable) -> Result<String> {
        Ok(experiments::csv_export::export(self.workspace()?, experiment_id, table)?)
    }
    pub fn export_report(&self, skill_id: i64, version: Option<u32>, format: ReportFormat) -> Result<String> {
        Ok(report::export(self.workspace()?, skill_id, version, format)?)
    }
}

impl From<AppError> for Api {
    /// An API whose every command fails with why the workspace could not be opened.
    fn from(e: AppError) -> Self {
        Self::new(Err(e), Arc::new(crate::events::Discard))
    }
}
