// Typed wrappers around the Rust commands: the only module that calls invoke.
import { invoke } from "@tauri-apps/api/core";
import { toAppError } from "./errors";
import type {
  AttemptResult,
  ExportFormat,
  FileContent,
  ImportRequest,
  QueueStatus,
  RunView,
  SandboxRunRequest,
  ScanReport,
  SkillDetail,
  SkillSummary,
  TrialView,
  VersionDetail,
  VersionDiff,
  WorkspaceInfo,
} from "./types";

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

export const readFile = (versionId: number, path: string) =>
  call<FileContent>("read_file", { versionId, path });

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
