// Typed wrappers around the Rust commands: the only module that calls invoke.
import { invoke } from "@tauri-apps/api/core";
import type { AgentConfig } from "../bindings/AgentConfig";
import type { AgentRunRequest } from "../bindings/AgentRunRequest";
import type { AttemptResult } from "../bindings/AttemptResult";
import type { Decision } from "../bindings/Decision";
import type { ExperimentDesign } from "../bindings/ExperimentDesign";
import type { ExperimentResults } from "../bindings/ExperimentResults";
import type { ExperimentView } from "../bindings/ExperimentView";
import type { ExportFormat } from "../bindings/ExportFormat";
import type { FileContent } from "../bindings/FileContent";
import type { Harness } from "../bindings/Harness";
import type { HarnessStatus } from "../bindings/HarnessStatus";
import type { ImportedTrajectory } from "../bindings/ImportedTrajectory";
import type { ImportRequest } from "../bindings/ImportRequest";
import type { NewDecision } from "../bindings/NewDecision";
import type { PairAlignment } from "../bindings/PairAlignment";
import type { PairView } from "../bindings/PairView";
import type { ProviderConfig } from "../bindings/ProviderConfig";
import type { ProviderView } from "../bindings/ProviderView";
import type { QueueStatus } from "../bindings/QueueStatus";
import type { ReportFormat } from "../bindings/ReportFormat";
import type { RunView } from "../bindings/RunView";
import type { SandboxRunRequest } from "../bindings/SandboxRunRequest";
import type { ScanReport } from "../bindings/ScanReport";
import type { SkillDetail } from "../bindings/SkillDetail";
import type { SkillSummary } from "../bindings/SkillSummary";
import type { StepWindow } from "../bindings/StepWindow";
import type { TrajectoryPage } from "../bindings/TrajectoryPage";
import type { TrajectoryQuery } from "../bindings/TrajectoryQuery";
import type { TrajectorySummary } from "../bindings/TrajectorySummary";
import type { TrialView } from "../bindings/TrialView";
import type { VersionDetail } from "../bindings/VersionDetail";
import type { VersionDiff } from "../bindings/VersionDiff";
import type { WindowRequest } from "../bindings/WindowRequest";
import type { WorkspaceInfo } from "../bindings/WorkspaceInfo";
import type { Chart } from "./chart";
import { toAppError } from "./errors";

/** True when the page runs inside the Skillscope (Tauri) window. */
export function hasBackend(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  if (!hasBackend()) {
    throw {
      code: "internal",
      message: "the Skillscope back end is not available because this page is not running inside the Skillscope app",
    };
  }
  try {
    return await invoke<T>(command, args);
  } catch (raw) {
    throw toAppError(raw);
  }
}

export const workspaceInfo = () => call<WorkspaceInfo>("workspace_info");

export const listSkills = () => call<SkillSummary[]>("list_skills");

export const getSkill = (id: number) => call<SkillDetail>("get_skill", { id });

export const getVersion = (versionId: number) => call<VersionDetail>("get_version", { versionId });

export const readFile = (versionId: number, path: string) => call<FileContent>("read_file", { versionId, path });

export const diffVersions = (fromVersionId: number, toVersionId: number) =>
  call<VersionDiff>("diff_versions", { fromVersionId, toVersionId });

export const startImport = (request: ImportRequest) => call<number>("start_import", { request });

/** The static review of a version (the back end scans it first if it has no current result). */
export const getScan = (versionId: number) => call<ScanReport>("get_scan", { versionId });

/** Scans every version without a current result; resolves with how many were scanned. */
export const scanPending = () => call<number>("scan_pending");

/** Writes the versions' reports to the workspace's exports folder; resolves with the file's path. */
export const exportScans = (versionIds: number[], format: ExportFormat) =>
  call<string>("export_scans", { versionIds, format });

export const queueStatus = () => call<QueueStatus>("queue_status");

/** Every run, newest first, with its trials counted by state. */
export const listRuns = () => call<RunView[]>("list_runs");

export const listTrials = (runId: number) => call<TrialView[]>("list_trials", { runId });

/** One result per attempt of a trial (infrastructure retries make several). */
export const trialResults = (trialId: number) => call<AttemptResult[]>("trial_results", { trialId });

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

/** Every model provider, with whether the OS keyring holds a key for it. */
export const listProviders = () => call<ProviderView[]>("list_providers");

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

export const listAgents = () => call<AgentConfig[]>("list_agents");

/** Creates (id 0) or updates an agent configuration; resolves with its id. */
export const saveAgent = (config: AgentConfig) => call<number>("save_agent", { config });

export const deleteAgent = (id: number) => call<void>("delete_agent", { id });

/** Every harness (built-in agent, Claude Code) and whether it can run here. */
export const harnessStatus = () => call<HarnessStatus[]>("harness_status");

/** Installs a harness (Claude Code: from npm); resolves with its new status. */
export const installHarness = (harness: Harness) => call<HarnessStatus>("install_harness", { harness });

/** One page of the workspace's trajectories (trials' and imported ones), newest first, searched by label. */
export const listTrajectories = (query: TrajectoryQuery) => call<TrajectoryPage>("list_trajectories", { query });

export const trajectorySummary = (id: number) => call<TrajectorySummary>("trajectory_summary", { id });

/** Imports an ATIF file from a path; resolves with its id and the rule violations found in it (kept anyway). */
export const importTrajectory = (path: string) => call<ImportedTrajectory>("import_trajectory", { path });

/** One trajectory per attempt of the trial that ran the agent. */
export const trialTrajectories = (trialId: number) => call<TrajectorySummary[]>("trial_trajectories", { trialId });

/** One window of a trajectory's steps, optionally filtered: a viewer never asks for a whole trajectory. */
export const trajectoryWindow = (id: number, request: WindowRequest) =>
  call<StepWindow>("trajectory_window", { id, request });

/** The position of the first step with this id (what a step link names), or null. */
export const stepPosition = (id: number, stepId: number) => call<number | null>("step_position", { id, stepId });

/** How the trajectories of a pair's two arms line up (either may be missing). */
export const alignPair = (without: number | null, withId: number | null) =>
  call<PairAlignment>("align_pair", { without, with: withId });

/** Every experiment, newest first, with its design. */
export const listExperiments = () => call<ExperimentView[]>("list_experiments");

/** Queues every trial of the design as one run; resolves with the experiment id. */
export const createExperiment = (design: ExperimentDesign) => call<number>("create_experiment", { design });

/** Every pair of the experiment with both arms and why it is not scored, if it is not. */
export const experimentPairs = (id: number) => call<PairView[]>("experiment_pairs", { id });

/** The statistics over the experiment's scored pairs. */
export const experimentResults = (id: number) => call<ExperimentResults>("experiment_results", { id });

/** The experiment's charts as [title, SVG document] pairs, rendered (and escaped) by the back end. */
export const experimentCharts = (id: number) => call<Chart[]>("experiment_charts", { id });

/** Appends a decision on a version to its skill's trail; rejects ("invalid_input") without a rationale or reviewer. */
export const recordDecision = (decision: NewDecision) => call<Decision>("record_decision", { decision });

/** Every decision on the skill, newest first. */
export const listDecisions = (skillId: number) => call<Decision[]>("list_decisions", { skillId });

/** Writes the skill's self-contained deployment report to the workspace's exports folder; resolves with its path. */
export const exportReport = (skillId: number, format: ReportFormat) =>
  call<string>("export_report", { skillId, format });
