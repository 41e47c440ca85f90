// Background jobs: start one, follow its "job-progress" events, await its end.
import { listen } from "@tauri-apps/api/event";
import type { AppError } from "../bindings/AppError";
import type { JobEvent } from "../bindings/JobEvent";
import type { JobOutcome } from "../bindings/JobOutcome";
import type { JobRequest } from "../bindings/JobRequest";
import { JOB_PROGRESS, startJob } from "../bindings/commands";
import { hasBackend } from "./invoke";
import { toAppError } from "./errors";

type Unsubscribe = () => void;
export type Subscribe = (handler: (event: JobEvent) => void) => Promise<Unsubscribe>;

const subscribeToJobProgress: Subscribe = async (handler) => {
  if (!hasBackend()) return () => {};
  try {
    return await listen<JobEvent>(JOB_PROGRESS, (e) => handler(e.payload));
  } catch (raw) {
    throw toAppError(raw);
  }
};

export function isFinished(event: JobEvent): boolean {
  return event.state === "succeeded" || event.state === "failed" || event.state === "cancelled";
}

/**
 * Forwards the events of one job. Events that arrive before the job id is
 * known (the back end may emit before `start_job` resolves) are buffered
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

/** Starts a job and resolves with its final event (succeeded, failed or cancelled). */
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

/** Thrown by {@link runToOutcome} when the job was cancelled; an AppError with code "conflict". */
export class JobCancelled implements AppError {
  readonly code = "conflict" as const;
  constructor(readonly message: string) {}
}

/** What a job of the request's kind produces. */
export type OutcomeOf<R extends JobRequest> = Extract<JobOutcome, { kind: R["kind"] }>;

/**
 * Starts `request` as a job, follows it, and resolves with its outcome; rejects
 * with the job's AppError if it failed, or a {@link JobCancelled} if it was cancelled.
 */
export async function runToOutcome<R extends JobRequest>(
  request: R,
  onProgress: (event: JobEvent) => void,
  subscribe: Subscribe = subscribeToJobProgress,
  start: (request: R) => Promise<number> = startJob,
): Promise<OutcomeOf<R>> {
  const last = await runJob(() => start(request), onProgress, subscribe);
  if (last.state === "failed") {
    throw last.error ?? ({ code: "internal", message: "the job failed without reporting why" } satisfies AppError);
  }
  if (last.state === "cancelled") throw new JobCancelled(last.message);
  if (last.outcome?.kind !== request.kind) {
    throw { code: "internal", message: "the job finished without reporting a result" } satisfies AppError;
  }
  return last.outcome as OutcomeOf<R>;
}
