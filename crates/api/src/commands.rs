//! Every command the app exposes, declared once: name, named arguments, result type and what
//! it does. [`with_commands!`] hands the list to a macro: the app expands it into Tauri handlers
//! and their `generate_handler!` list, and [`typescript_client`] into the front end's typed
//! client (`ui/src/bindings/commands.ts`). Each command is implemented by the method of the same
//! name on [`crate::Api`]; argument and result types are named in [`crate::ipc`].

/// Calls `$callback! { ... }` with the command list. Entries read
/// `/// doc` `fn name(arg: Type, ...) -> Result;` (every command can fail with an `AppError`, so
/// results are written without `Result`). Every command is a blocking call: the app runs each
/// on tokio's blocking pool.
#[macro_export]
macro_rules! with_commands {
    ($callback:path) => {
        $callback! {
            /// Where the workspace is and what it holds.
            fn workspace_info() -> WorkspaceInfo;
            /// Every skill in the library with its latest version.
            fn list_skills() -> Vec<SkillSummary>;
            fn get_skill(id: i64) -> SkillDetail;
            fn get_version(version_id: i64) -> VersionDetail;
            fn read_file(version_id: i64, path: String) -> FileContent;
            fn diff_versions(from_version_id: i64, to_version_id: i64) -> VersionDiff;
            /// Starts a job (import, library scan, harness install, image preparation, bundle);
            /// resolves with its id. Progress and the outcome arrive as job events.
            fn start_job(request: JobRequest) -> i64;
            /// The newest jobs (any kind), newest first.
            fn recent_jobs() -> Vec<JobEvent>;
            /// Asks a running job to stop at its next safe point; resolves with whether it was still running.
            fn cancel_job(job_id: i64) -> bool;
            /// The static review of a version (the back end scans it first if it has no current result).
            fn get_scan(version_id: i64) -> ScanReport;
            /// Scans a version afresh and has `model` of provider `provider` review it against the
            /// taxonomy (the semantic pass); a review that failed is stored as "not reviewed".
            fn review_scan(version_id: i64, provider: String, model: String) -> ScanReport;
            /// Queues the security probes of a version (each probe task with the skill and
            /// without, canaries planted, egress recorded); resolves with the probe run's id. The
            /// queue's worker runs them; outcomes appear in `probe_runs` as trials end.
            fn start_probes(request: ProbeRequest) -> i64;
            /// A version's probe runs, newest first, each probe with its outcome and evidence.
            fn probe_runs(version_id: i64) -> Vec<ProbeRunView>;
            /// Writes the versions' reports to the workspace's exports folder; resolves with the file's path.
            fn export_scans(version_ids: Vec<i64>, format: ExportFormat) -> String;
            fn queue_status() -> QueueStatus;
            /// Which container engine answers (found as the docker CLI finds it, then the rootless
            /// Docker and Podman sockets), or why none does and the exact fix.
            fn engine_status() -> EngineStatus;
            /// The base images tasks and harnesses need and which of them the engine holds
            /// (the `image_preparation` job builds them).
            fn base_images() -> Vec<BaseImage>;
            /// Every run, newest first, with its trials counted by state.
            fn list_runs() -> Vec<RunView>;
            fn list_trials(run_id: i64) -> Vec<TrialView>;
            /// One result per attempt of a trial (infrastructure retries make several).
            fn trial_results(trial_id: i64) -> Vec<AttemptResult>;
            /// The output so far of a running trial.
            fn trial_log(trial_id: i64) -> String;
            fn set_queue_paused(paused: bool) -> QueueStatus;
            /// Resolves with whether the trial was still queued or running (and is now cancelled).
            fn cancel_trial(trial_id: i64) -> bool;
            /// Cancels the run's unfinished trials; resolves with how many.
            fn cancel_run(run_id: i64) -> u32;
            /// Queues a sandbox run; resolves with its run id.
            fn start_sandbox_run(request: SandboxRunRequest) -> i64;
            /// Queues an agent run (one trial per repeat); resolves with its run id.
            fn start_agent_run(request: AgentRunRequest) -> i64;
            /// The editable settings: queue concurrency, attempts and trial deadline, scan thresholds, model prices.
            fn settings() -> Settings;
            /// Checks and writes the settings (`config.toml`, `prices.toml`); they apply without a restart. Rejects ("invalid_input") naming the field out of range; nothing is written then.
            fn save_settings(settings: Settings) -> Settings;
            /// Merges a LiteLLM-style price JSON (dollars per token) into the workspace's prices.
            fn import_prices(path: String) -> PriceImport;
            /// Every model provider, with whether the OS keyring holds a key for it.
            fn list_providers() -> Vec<ProviderView>;
            /// Creates or replaces the provider with this id.
            fn save_provider(config: ProviderConfig) -> ();
            /// Removes a provider and its key; refused ("conflict") while an agent configuration uses it.
            fn delete_provider(id: String) -> ();
            /// Stores a provider's key in the OS keyring; it is never sent back.
            fn set_credential(provider: String, secret: String) -> ();
            /// Resolves with whether there was a key to delete.
            fn delete_credential(provider: String) -> bool;
            /// A cheap real call to `model` with the stored key; rejects with the specific reason it failed.
            fn test_credential(provider: String, model: String) -> ();
            fn list_agents() -> Vec<AgentConfig>;
            /// Creates (id 0) or updates an agent configuration; resolves with its id.
            fn save_agent(config: AgentConfig) -> i64;
            fn delete_agent(id: i64) -> ();
            /// Every harness (built-in agent, Claude Code, Codex, OpenCode, Gemini CLI) and whether it can run here.
            fn harness_status() -> Vec<HarnessStatus>;
            /// One page of the workspace's trajectories (trials' and imported ones), newest first, searched by label.
            fn list_trajectories(query: TrajectoryQuery) -> TrajectoryPage;
            fn trajectory_summary(id: i64) -> TrajectorySummary;
            /// One trajectory per attempt of the trial that ran the agent.
            fn trial_trajectories(trial_id: i64) -> Vec<TrajectorySummary>;
            /// One window of a trajectory's steps, optionally filtered: a viewer never asks for a whole trajectory.
            fn trajectory_window(id: i64, request: WindowRequest) -> StepWindow;
            /// The position of the first step with this id (what a step link names), or null.
            fn step_position(id: i64, step_id: u64) -> Option<u32>;
            /// How the trajectories of a pair's two arms line up (either may be missing).
            fn align_pair(without_id: Option<i64>, with_id: Option<i64>) -> PairAlignment;
            /// Imports an ATIF file from a path; resolves with its id and the rule violations found in it (kept anyway).
            fn import_trajectory(path: String) -> ImportedTrajectory;
            /// Reads a Harbor task folder (or a folder of them), a skill's evals.json or
            /// SWE-Skills-Bench requirement documents into a stored task set; the same content
            /// imported again resolves with the set stored before.
            fn import_task_set(path: String, kind: TaskImportKind) -> TaskSetImport;
            /// A library skill version's own evals (its `evals/` folder: evals.json or Harbor task
            /// folders) as a stored task set; rejects ("not_found") when the version ships none.
            fn import_skill_evals(version_id: i64) -> TaskSetImport;
            /// Stores a task written in the app as a one-task set; rejects ("invalid_input") naming the field at fault.
            fn write_task(input: TaskAppInput) -> TaskSetImport;
            /// Every stored task set, newest first, with the experiments that used it.
            fn task_sets() -> Vec<TaskSetSummary>;
            /// One task set with its tasks whole.
            fn task_set(id: i64) -> TaskSetDetail;
            /// Queues every trial of the design as one run (its tasks taken from `task_set_id`
            /// when it lists none); resolves with the experiment id.
            fn create_experiment(design: ExperimentDesign) -> i64;
            /// The design's pairs and trials, and its wall time and model cost estimated from past trials of the same configurations (null where there are none).
            fn estimate_experiment(design: ExperimentDesign) -> ExperimentEstimate;
            /// Queues the experiment's ended but unscored pairs (unfair arms, infrastructure failures, cancelled arms) as a new experiment; resolves with its id. Scored pairs are never re-run.
            fn rerun_experiment(id: i64) -> i64;
            /// Every experiment, newest first, with its design.
            fn list_experiments() -> Vec<ExperimentView>;
            /// Every pair of the experiment with both arms and why it is not scored, if it is not (without the arms' full snapshots and checks: `experiment_pair` has them).
            fn experiment_pairs(id: i64) -> Vec<PairView>;
            /// One pair of the experiment, whole: the arms' snapshots of what ran and their verifier checks.
            fn experiment_pair(experiment_id: i64, pair_id: i64) -> PairView;
            /// The statistics over the experiment's scored pairs.
            fn experiment_results(id: i64) -> ExperimentResults;
            /// The experiment's charts, rendered (and escaped) by the back end.
            fn experiment_charts(id: i64) -> Vec<Chart>;
            /// Records a reviewer's verdict on a drafted task of a generated set.
            fn review_draft(task_set_id: i64, task_id: String, verdict: DraftVerdict, reviewer: String) -> DraftReview;
            /// Changes a draft of a generated set no experiment ran: its leakage is measured again and a verdict on the old text is withdrawn.
            fn edit_draft(task_set_id: i64, task_id: String, edit: DraftEdit) -> TaskSetDetail;
            /// The experiment's latest judge calibration, if any.
            fn judge_calibration(id: i64) -> Option<Calibration>;
            /// ACES's deterministic runtime metrics of each scored pair's arms, their Skill Lift with
            /// the paired statistics, and pass@k per arm.
            fn experiment_measures(id: i64) -> ExperimentMeasures;
            /// Writes the experiment's pairs or trials as CSV to the workspace's exports folder; resolves with the file's path.
            fn export_experiment_csv(experiment_id: i64, table: CsvTable) -> String;
            /// Appends a decision on a version to its skill's trail; rejects ("invalid_input") without a rationale or reviewer.
            fn record_decision(decision: NewDecision) -> Decision;
            /// Every decision on the skill, newest first.
            fn list_decisions(skill_id: i64) -> Vec<Decision>;
            /// What a decision on the version can rest on: the experiments that ran it (its pairs only) and its scan.
            fn evidence_options(version_id: i64) -> Vec<EvidenceLink>;
            /// Writes the self-contained deployment report on one version (its number; null: the latest) to the workspace's exports folder; resolves with its path.
            fn export_report(skill_id: i64, version: Option<u32>, format: ReportFormat) -> String;
        }
    };
}

/// One command as the TypeScript client sees it.
struct Signature {
    name: &'static str,
    docs: Vec<&'static str>,
    args: Vec<(&'static str, String)>,
    result: String,
    types: Vec<(String, std::path::PathBuf)>,
}

/// Collects the exported types a TypeScript type expression names, for its imports.
struct Imports<'a>(&'a ts_rs::Config, Vec<(String, std::path::PathBuf)>);

impl ts_rs::TypeVisitor for Imports<'_> {
    fn visit<T: ts_rs::TS + 'static + ?Sized>(&mut self) {
        if let Some(path) = T::output_path() {
            self.1.push((T::ident(self.0), path));
        }
        T::visit_generics(self);
    }
}

macro_rules! signatures {
    ($( $(#[doc = $doc:literal])* fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty; )*) => {
        fn signatures(cfg: &ts_rs::Config) -> Vec<Signature> {
            use crate::ipc::*;
            use ts_rs::{TypeVisitor, TS};
            vec![$({
                let mut imports = Imports(cfg, Vec::new());
                $(imports.visit::<$ty>();)*
                imports.visit::<$ret>();
                Signature {
                    name: stringify!($name),
                    docs: vec![$($doc),*],
                    args: vec![$((stringify!($arg), <$ty as TS>::name(cfg))),*],
                    result: <$ret as TS>::name(cfg),
                    types: imports.1,
                }
            }),*]
        }
    };
}

with_commands!(signatures);

fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The front end's typed client: one function per command, its arguments in declared order.
/// Tauri takes argument names in camelCase and hands them to the snake_case parameters.
pub fn typescript_client(cfg: &ts_rs::Config) -> String {
    let sigs = signatures(cfg);
    let mut types: Vec<(String, std::path::PathBuf)> = sigs.iter().flat_map(|s| s.types.clone()).collect();
    types.sort();
    types.dedup();
    let mut out = String::from(
        "// Generated from the Rust command list (crates/api/src/commands.rs) by `cargo test`; do not edit.\n",
    );
    out.push_str("import { call } from \"../api/invoke\";\n");
    for (ident, path) in &types {
        let file = path.with_extension("");
        out.push_str(&format!("import type {{ {ident} }} from \"./{}\";\n", file.display()));
    }
    for s in &sigs {
        out.push('\n');
        if !s.docs.is_empty() {
            let text: Vec<&str> = s.docs.iter().map(|d| d.trim()).collect();
            out.push_str(&format!("/** {} */\n", text.join(" ")));
        }
        let params: Vec<String> = s.args.iter().map(|(a, t)| format!("{}: {t}", camel(a))).collect();
        let keys: Vec<String> = s.args.iter().map(|(a, _)| camel(a)).collect();
        let result = if s.result == "null" { "void".to_string() } else { s.result.clone() };
        let args = if keys.is_empty() { String::new() } else { format!(", {{ {} }}", keys.join(", ")) };
        out.push_str(&format!(
            "export const {} = ({}) => call<{result}>(\"{}\"{args});\n",
            camel(s.name),
            params.join(", "),
            s.name
        ));
    }
    out.push_str(&format!(
        "\n/** Event names, as the back end emits them. */\nexport const JOB_PROGRESS = \"{}\";\nexport const QUEUE_EVENT = \"{}\";\n",
        crate::events::JOB_PROGRESS,
        crate::events::QUEUE_EVENT
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes the client beside ts-rs's bindings; CI regenerates both and fails on drift.
    #[test]
    fn export_bindings_commands() {
        let cfg = ts_rs::Config::from_env();
        let dir = cfg.out_dir().to_path_buf();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("commands.ts"), typescript_client(&cfg)).unwrap();
    }

    #[test]
    fn every_command_is_typed_with_camel_case_arguments() {
        let client = typescript_client(&ts_rs::Config::default().with_large_int("number"));
        assert!(client.contains(
            "export const diffVersions = (fromVersionId: number, toVersionId: number) => call<VersionDiff>(\"diff_versions\", { fromVersionId, toVersionId });"
        ), "{client}");
        assert!(client.contains("export const workspaceInfo = () => call<WorkspaceInfo>(\"workspace_info\");"));
        assert!(client.contains("export const saveProvider = (config: ProviderConfig) => call<void>"));
        assert!(client.contains("import type { SkillSummary } from \"./SkillSummary\";"));
        assert!(!client.contains("bigint"));
    }
}
