// Generated from the Rust command list (crates/api/src/commands.rs) by `cargo test`; do not edit.
import { call } from "../api/invoke";
import type { AgentConfig } from "./AgentConfig";
import type { AgentRunRequest } from "./AgentRunRequest";
import type { AttemptResult } from "./AttemptResult";
import type { BaseImage } from "./BaseImage";
import type { Calibration } from "./Calibration";
import type { Chart } from "./Chart";
import type { CsvTable } from "./CsvTable";
import type { Decision } from "./Decision";
import type { DraftEdit } from "./DraftEdit";
import type { DraftReview } from "./DraftReview";
import type { DraftVerdict } from "./DraftVerdict";
import type { EngineStatus } from "./EngineStatus";
import type { EvidenceLink } from "./EvidenceLink";
import type { ExperimentDesign } from "./ExperimentDesign";
import type { ExperimentEstimate } from "./ExperimentEstimate";
import type { ExperimentMeasures } from "./ExperimentMeasures";
import type { ExperimentResults } from "./ExperimentResults";
import type { ExperimentView } from "./ExperimentView";
import type { ExportFormat } from "./ExportFormat";
import type { FileContent } from "./FileContent";
import type { HarnessStatus } from "./HarnessStatus";
import type { ImportedTrajectory } from "./ImportedTrajectory";
import type { JobEvent } from "./JobEvent";
import type { JobRequest } from "./JobRequest";
import type { NewDecision } from "./NewDecision";
import type { PairAlignment } from "./PairAlignment";
import type { PairView } from "./PairView";
import type { PriceImport } from "./PriceImport";
import type { ProbeRequest } from "./ProbeRequest";
import type { ProbeRunView } from "./ProbeRunView";
import type { ProviderConfig } from "./ProviderConfig";
import type { ProviderView } from "./ProviderView";
import type { QueueStatus } from "./QueueStatus";
import type { ReportFormat } from "./ReportFormat";
import type { RunView } from "./RunView";
import type { SandboxRunRequest } from "./SandboxRunRequest";
import type { ScanReport } from "./ScanReport";
import type { Settings } from "./Settings";
import type { SkillDetail } from "./SkillDetail";
import type { SkillSummary } from "./SkillSummary";
import type { StepWindow } from "./StepWindow";
import type { TaskAppInput } from "./TaskAppInput";
import type { TaskImportKind } from "./TaskImportKind";
import type { TaskSetDetail } from "./TaskSetDetail";
import type { TaskSetImport } from "./TaskSetImport";
import type { TaskSetSummary } from "./TaskSetSummary";
import type { TrajectoryPage } from "./TrajectoryPage";
import type { TrajectoryQuery } from "./TrajectoryQuery";
import type { TrajectorySummary } from "./TrajectorySummary";
import type { TrialView } from "./TrialView";
import type { VersionDetail } from "./VersionDetail";
import type { VersionDiff } from "./VersionDiff";
import type { WindowRequest } from "./WindowRequest";
import type { WorkspaceInfo } from "./WorkspaceInfo";

/** Where the workspace is and what it holds. */
export const workspaceInfo = () => call<WorkspaceInfo>("workspace_info");

/** Every skill in the library with its latest version. */
export const listSkills = () => call<Array<SkillSummary>>("list_skills");

export const getSkill = (id: number) => call<SkillDetail>("get_skill", { id });

export const getVersion = (versionId: number) => call<VersionDetail>("get_version", { versionId });

export const readFile = (versionId: number, path: string) => call<FileContent>("read_file", { versionId, path });

export const diffVersions = (fromVersionId: number, toVersionId: number) => call<VersionDiff>("diff_versions", { fromVersionId, toVersionId });

/** Starts a job (import, library scan, harness install, image preparation, bundle); resolves with its id. Progress and the outcome arrive as job events. */
export const startJob = (request: JobRequest) => call<number>("start_job", { request });

/** The newest jobs (any kind), newest first. */
export const recentJobs = () => call<Array<JobEvent>>("recent_jobs");

/** Asks a running job to stop at its next safe point; resolves with whether it was still running. */
export const cancelJob = (jobId: number) => call<boolean>("cancel_job", { jobId });

/** The static review of a version (the back end scans it first if it has no current result). */
export const getScan = (versionId: number) => call<ScanReport>("get_scan", { versionId });

/** Scans a version afresh and has `model` of provider `provider` review it against the taxonomy (the semantic pass); a review that failed is stored as "not reviewed". */
export const reviewScan = (versionId: number, provider: string, model: string) => call<ScanReport>("review_scan", { versionId, provider, model });

/** Queues the security probes of a version (each probe task with the skill and without, canaries planted, egress recorded); resolves with the probe run's id. The queue's worker runs them; outcomes appear in `probe_runs` as trials end. */
export const startProbes = (request: ProbeRequest) => call<number>("start_probes", { request });

/** A version's probe runs, newest first, each probe with its outcome and evidence. */
export const probeRuns = (versionId: number) => call<Array<ProbeRunView>>("probe_runs", { versionId });

/** Writes the versions' reports to the workspace's exports folder; resolves with the file's path. */
export const exportScans = (versionIds: Array<number>, format: ExportFormat) => call<string>("export_scans", { versionIds, format });

export const queueStatus = () => call<QueueStatus>("queue_status");

/** Which container engine answers (found as the docker CLI finds it, then the rootless Docker and Podman sockets), or why none does and the exact fix. */
export const engineStatus = () => call<EngineStatus>("engine_status");

/** The base images tasks and harnesses need and which of them the engine holds (the `image_preparation` job builds them). */
export const baseImages = () => call<Array<BaseImage>>("base_images");

/** Every run, newest first, with its trials counted by state. */
export const listRuns = () => call<Array<RunView>>("list_runs");

export const listTrials = (runId: number) => call<Array<TrialView>>("list_trials", { runId });

/** One result per attempt of a trial (infrastructure retries make several). */
export const trialResults = (trialId: number) => call<Array<AttemptResult>>("trial_results", { trialId });

/** The output so far of a running trial. */
export const trialLog = (trialId: number) => call<string>("trial_log", { trialId });

export const setQueuePaused = (paused: boolean) => call<QueueStatus>("set_queue_paused", { paused });

/** Resolves with whether the trial was still queued or running (and is now cancelled). */
export const cancelTrial = (trialId: number) => call<boolean>("cancel_trial", { trialId });

/** Cancels the run's unfinished trials; resolves with how many. */
export const cancelRun = (runId: number) => call<number>("cancel_run", { runId });

/** Queues a sandbox run; resolves with its run id. */
export const startSandboxRun = (request: SandboxRunRequest) => call<number>("start_sandbox_run", { request });

/** Queues an agent run (one trial per repeat); resolves with its run id. */
export const startAgentRun = (request: AgentRunRequest) => call<number>("start_agent_run", { request });

/** The editable settings: queue concurrency, attempts and trial deadline, scan thresholds, model prices. */
export const settings = () => call<Settings>("settings");

/** Checks and writes the settings (`config.toml`, `prices.toml`); they apply without a restart. Rejects ("invalid_input") naming the field out of range; nothing is written then. */
export const saveSettings = (settings: Settings) => call<Settings>("save_settings", { settings });

/** Merges a LiteLLM-style price JSON (dollars per token) into the workspace's prices. */
export const importPrices = (path: string) => call<PriceImport>("import_prices", { path });

/** Every model provider, with whether the OS keyring holds a key for it. */
export const listProviders = () => call<Array<ProviderView>>("list_providers");

/** Creates or replaces the provider with this id. */
export const saveProvider = (config: ProviderConfig) => call<void>("save_provider", { config });

/** Removes a provider and its key; refused ("conflict") while an agent configuration uses it. */
export const deleteProvider = (id: string) => call<void>("delete_provider", { id });

/** Stores a provider's key in the OS keyring; it is never sent back. */
export const setCredential = (provider: string, secret: string) => call<void>("set_credential", { provider, secret });

/** Resolves with whether there was a key to delete. */
export const deleteCredential = (provider: string) => call<boolean>("delete_credential", { provider });

/** A cheap real call to `model` with the stored key; rejects with the specific reason it failed. */
export const testCredential = (provider: string, model: string) => call<void>("test_credential", { provider, model });

export const listAgents = () => call<Array<AgentConfig>>("list_agents");

/** Creates (id 0) or updates an agent configuration; resolves with its id. */
export const saveAgent = (config: AgentConfig) => call<number>("save_agent", { config });

export const deleteAgent = (id: number) => call<void>("delete_agent", { id });

/** Every harness (built-in agent, Claude Code, Codex, OpenCode, Gemini CLI) and whether it can run here. */
export const harnessStatus = () => call<Array<HarnessStatus>>("harness_status");

/** One page of the workspace's trajectories (trials' and imported ones), newest first, searched by label. */
export const listTrajectories = (query: TrajectoryQuery) => call<TrajectoryPage>("list_trajectories", { query });

export const trajectorySummary = (id: number) => call<TrajectorySummary>("trajectory_summary", { id });

/** One trajectory per attempt of the trial that ran the agent. */
export const trialTrajectories = (trialId: number) => call<Array<TrajectorySummary>>("trial_trajectories", { trialId });

/** One window of a trajectory's steps, optionally filtered: a viewer never asks for a whole trajectory. */
export const trajectoryWindow = (id: number, request: WindowRequest) => call<StepWindow>("trajectory_window", { id, request });

/** The position of the first step with this id (what a step link names), or null. */
export const stepPosition = (id: number, stepId: number) => call<number | null>("step_position", { id, stepId });

/** How the trajectories of a pair's two arms line up (either may be missing). */
export const alignPair = (withoutId: number | null, withId: number | null) => call<PairAlignment>("align_pair", { withoutId, withId });

/** Imports an ATIF file from a path; resolves with its id and the rule violations found in it (kept anyway). */
export const importTrajectory = (path: string) => call<ImportedTrajectory>("import_trajectory", { path });

/** Reads a Harbor task folder (or a folder of them), a skill's evals.json or SWE-Skills-Bench requirement documents into a stored task set; the same content imported again resolves with the set stored before. */
export const importTaskSet = (path: string, kind: TaskImportKind) => call<TaskSetImport>("import_task_set", { path, kind });

/** A library skill version's own evals (its `evals/` folder: evals.json or Harbor task folders) as a stored task set; rejects ("not_found") when the version ships none. */
export const importSkillEvals = (versionId: number) => call<TaskSetImport>("import_skill_evals", { versionId });

/** Stores a task written in the app as a one-task set; rejects ("invalid_input") naming the field at fault. */
export const writeTask = (input: TaskAppInput) => call<TaskSetImport>("write_task", { input });

/** Every stored task set, newest first, with the experiments that used it. */
export const taskSets = () => call<Array<TaskSetSummary>>("task_sets");

/** One task set with its tasks whole. */
export const taskSet = (id: number) => call<TaskSetDetail>("task_set", { id });

/** Queues every trial of the design as one run (its tasks taken from `task_set_id` when it lists none); resolves with the experiment id. */
export const createExperiment = (design: ExperimentDesign) => call<number>("create_experiment", { design });

/** The design's pairs and trials, and its wall time and model cost estimated from past trials of the same configurations (null where there are none). */
export const estimateExperiment = (design: ExperimentDesign) => call<ExperimentEstimate>("estimate_experiment", { design });

/** Queues the experiment's ended but unscored pairs (unfair arms, infrastructure failures, cancelled arms) as a new experiment; resolves with its id. Scored pairs are never re-run. */
export const rerunExperiment = (id: number) => call<number>("rerun_experiment", { id });

/** Every experiment, newest first, with its design. */
export const listExperiments = () => call<Array<ExperimentView>>("list_experiments");

/** Every pair of the experiment with both arms and why it is not scored, if it is not (without the arms' full snapshots and checks: `experiment_pair` has them). */
export const experimentPairs = (id: number) => call<Array<PairView>>("experiment_pairs", { id });

/** One pair of the experiment, whole: the arms' snapshots of what ran and their verifier checks. */
export const experimentPair = (experimentId: number, pairId: number) => call<PairView>("experiment_pair", { experimentId, pairId });

/** The statistics over the experiment's scored pairs. */
export const experimentResults = (id: number) => call<ExperimentResults>("experiment_results", { id });

/** The experiment's charts, rendered (and escaped) by the back end. */
export const experimentCharts = (id: number) => call<Array<Chart>>("experiment_charts", { id });

/** Records a reviewer's verdict on a drafted task of a generated set. */
export const reviewDraft = (taskSetId: number, taskId: string, verdict: DraftVerdict, reviewer: string) => call<DraftReview>("review_draft", { taskSetId, taskId, verdict, reviewer });

/** Changes a draft of a generated set no experiment ran: its leakage is measured again and a verdict on the old text is withdrawn. */
export const editDraft = (taskSetId: number, taskId: string, edit: DraftEdit) => call<TaskSetDetail>("edit_draft", { taskSetId, taskId, edit });

/** The experiment's latest judge calibration, if any. */
export const judgeCalibration = (id: number) => call<Calibration | null>("judge_calibration", { id });

/** ACES's deterministic runtime metrics of each scored pair's arms, their Skill Lift with the paired statistics, and pass@k per arm. */
export const experimentMeasures = (id: number) => call<ExperimentMeasures>("experiment_measures", { id });

/** Writes the experiment's pairs or trials as CSV to the workspace's exports folder; resolves with the file's path. */
export const exportExperimentCsv = (experimentId: number, table: CsvTable) => call<string>("export_experiment_csv", { experimentId, table });

/** Appends a decision on a version to its skill's trail; rejects ("invalid_input") without a rationale or reviewer. */
export const recordDecision = (decision: NewDecision) => call<Decision>("record_decision", { decision });

/** Every decision on the skill, newest first. */
export const listDecisions = (skillId: number) => call<Array<Decision>>("list_decisions", { skillId });

/** What a decision on the version can rest on: the experiments that ran it (its pairs only) and its scan. */
export const evidenceOptions = (versionId: number) => call<Array<EvidenceLink>>("evidence_options", { versionId });

/** Writes the self-contained deployment report on one version (its number; null: the latest) to the workspace's exports folder; resolves with its path. */
export const exportReport = (skillId: number, version: number | null, format: ReportFormat) => call<string>("export_report", { skillId, version, format });

/** Event names, as the back end emits them. */
export const JOB_PROGRESS = "job-progress";
export const QUEUE_EVENT = "queue-event";
