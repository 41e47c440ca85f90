// Background jobs: start one, follow its "job-progress" events, await its end.
import { listen } from "@tauri-apps/api/event";
import type { AppError } from "../bindings/AppError";
import type { ImportOutcome } from "../bindings/ImportOutcome";
import type { ImportRequest } from "../bindings/ImportRequest";
import type { JobEvent } from "../bindings/JobEvent";
import { startImport, hasBackend } from "./commands";
import { toAppError } from "./errors";

export const JOB_PROGRESS_EVENT = "job-progress";

type Unsubscribe = () => void;
export type Subscribe = (handler: (event: JobEvent) => void) => Promise<Unsubscribe>;

const subscribeToJobProgress: Subscribe = async (handler) => {
  if (!hasBackend()) return () => {};
  try {
    return await listen<JobEvent>(JOB_PROGRESS_EVENT, (e) => handler(e.payload));
  } catch (raw) {
    throw toAppError(raw);
  }
};

export function isFinished(event: JobEvent): boolean {
  return event.state === "succeeded" || event.state === "failed";
}

/**
 * Forwards the events of one job. Events that arrive before the job id is
 * known (the back end may emit before `start_import` resolves) are buffered
 * and replayed once it is.
 */
export class JobEventFilter {
  private jobId: number | null = null;
  private buffered: JobEvent[] = [];

  constructor(private readonly forward: (event: JobEvent) => void) {}

  receive(event: JobEvent): void {
    if (this.jobId === null) this.buffered.push(event);
    else if (event.job_id === this.jobId) this.forward(event);
  }

  setJobId(jobId: number): void {
    this.jobId = jobId;
    const early = this.buffered;
    this.buffered = [];
    early.forEach((event) => this.receive(event));
  }
}

/** Starts a job and resolves with its final event (succeeded or failed). */
export async function runJob(
  start: () => Promise<number>,
  onProgress: (event: JobEvent) => void,
  subscribe: Subscribe = subscribeToJobProgress,
): Promise<JobEvent> {
  let finish: (event: JobEvent) => void = () => {};
  const finished = new Promise<JobEvent>((resolve) => (finish = resolve));
  const filter = new JobEventFilter((event) => {
    onProgress(event);
    if (isFinished(event)) finish(event);
  });
  const unsubscribe = await subscribe((event) => filter.receive(event));
  try {
    filter.setJobId(await start());
    return await finished;
  } finally {
    unsubscribe();
  }
}

/** Runs an import job; rejects with the job's AppError if it failed. */
export async function runImport(
  request: ImportRequest,
  onProgress: (event: JobEvent) => void,
  subscribe?: Subscribe,
): Promise<ImportOutcome> {
  const last = await runJob(() => startImport(request), onProgress, subscribe);
  if (last.state === "failed") {
    throw last.error ?? ({ code: "internal", message: "the import failed without reporting why" } satisfies AppError);
  }
  if (!last.outcome) {
    throw { code: "internal", message: "the import finished without reporting a result" } satisfies AppError;
  }
  return last.outcome;
}
