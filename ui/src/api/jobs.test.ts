import { describe, expect, it } from "vitest";
import type { JobEvent } from "../bindings/JobEvent";
import { JobCancelled, JobEventFilter, runJob, runToOutcome, type Subscribe } from "./jobs";

const event = (job_id: number, state: JobEvent["state"], done = 0): JobEvent => ({
  job_id,
  kind: "import",
  state,
  done,
  total: 2,
  message: `${state} ${done}`,
  error: null,
  outcome: state === "succeeded" ? { kind: "import", skills: [] } : null,
});

describe("JobEventFilter", () => {
  it("buffers events until the job id is known, then forwards only that job's", () => {
    const seen: JobEvent[] = [];
    const filter = new JobEventFilter((e) => seen.push(e));
    filter.receive(event(7, "running", 1));
    filter.receive(event(8, "running", 1));
    expect(seen).toEqual([]);
    filter.setJobId(7);
    filter.receive(event(8, "succeeded", 2));
    filter.receive(event(7, "succeeded", 2));
    expect(seen.map((e) => [e.job_id, e.state])).toEqual([
      [7, "running"],
      [7, "succeeded"],
    ]);
  });
});

describe("runJob", () => {
  it("resolves with the final event and unsubscribes, even if events precede the job id", async () => {
    let emit: (e: JobEvent) => void = () => {};
    let unsubscribed = false;
    const subscribe: Subscribe = async (handler) => {
      emit = handler;
      return () => {
        unsubscribed = true;
      };
    };
    const progress: string[] = [];
    const start = async () => {
      emit(event(3, "running", 1)); // emitted before start_job resolves
      setTimeout(() => {
        emit(event(4, "failed")); // another job
        emit(event(3, "succeeded", 2));
      }, 0);
      return 3;
    };
    const last = await runJob(start, (e) => progress.push(e.message), subscribe);
    expect(last.state).toBe("succeeded");
    expect(progress).toEqual(["running 1", "succeeded 2"]);
    expect(unsubscribed).toBe(true);
  });

  it("rejects and unsubscribes when the job cannot start", async () => {
    let unsubscribed = false;
    const subscribe: Subscribe = async () => () => {
      unsubscribed = true;
    };
    const failure = { code: "invalid_input", message: "source is empty" };
    await expect(
      runJob(
        () => Promise.reject(failure),
        () => {},
        subscribe,
      ),
    ).rejects.toBe(failure);
    expect(unsubscribed).toBe(true);
  });
});

describe("runToOutcome", () => {
  const endingWith =
    (last: JobEvent): Subscribe =>
    async (handler) => {
      setTimeout(() => handler(last), 0);
      return () => {};
    };
  const start = async () => 5;

  it("resolves with the outcome of the request's kind", async () => {
    const done: JobEvent = {
      ...event(5, "succeeded"),
      kind: "scan_library",
      outcome: { kind: "scan_library", scanned: 4 },
    };
    const outcome = await runToOutcome({ kind: "scan_library" }, () => {}, endingWith(done), start);
    expect(outcome.scanned).toBe(4);
  });

  it("rejects with JobCancelled, carrying the job's message, when the job was cancelled", async () => {
    const cancelled: JobEvent = { ...event(5, "cancelled"), message: "Cancelled; nothing was imported" };
    const outcome = runToOutcome({ kind: "scan_library" }, () => {}, endingWith(cancelled), start);
    await expect(outcome).rejects.toBeInstanceOf(JobCancelled);
    await expect(outcome).rejects.toMatchObject({ code: "conflict", message: "Cancelled; nothing was imported" });
  });

  it("rejects with the job's error when it failed", async () => {
    const error = { code: "engine" as const, message: "Docker engine unreachable" };
    const failed: JobEvent = { ...event(5, "failed"), error };
    await expect(runToOutcome({ kind: "scan_library" }, () => {}, endingWith(failed), start)).rejects.toBe(error);
  });
});
