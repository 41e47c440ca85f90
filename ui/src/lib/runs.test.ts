import { afterEach, describe, expect, it, vi } from "vitest";
import type { Phases } from "../bindings/Phases";
import type { QueueEvent } from "../bindings/QueueEvent";
import type { QueueStatus } from "../bindings/QueueStatus";
import type { RunView } from "../bindings/RunView";
import type { StateCounts } from "../bindings/StateCounts";
import type { TrialView } from "../bindings/TrialView";
import { parseWorkspaceChanges } from "./fileChanges";
import { appendLog, LOG_LIMIT, mergeSeed, seedLog, startLog } from "./liveLog";
import { formatDuration, phaseText, phaseTiming } from "./phases";
import { applyQueueEvent, INITIAL_RUNS_STATE, needsRefresh, runsReducer, type RunsState } from "./runsState";
import { SANDBOX_DEFAULTS, sandboxRequest } from "./sandboxForm";
import { throttle } from "./throttle";
import {
  countFinished,
  countsText,
  countTotal,
  isFinal,
  moveCount,
  progressSegments,
  stateColour,
  stateLabel,
} from "./trialStates";

const counts = (patch: Partial<StateCounts> = {}): StateCounts => ({
  queued: 0,
  running: 0,
  passed: 0,
  failed: 0,
  agent_error: 0,
  infra_error: 0,
  verifier_tampered: 0,
  cancelled: 0,
  ...patch,
});

const NO_PHASES: Phases = {
  env_started_at: null,
  env_finished_at: null,
  agent_started_at: null,
  agent_finished_at: null,
  verifier_started_at: null,
  verifier_finished_at: null,
};

describe("trial states", () => {
  it("has a label and a colour for every state", () => {
    expect(stateLabel("agent_error")).toBe("Agent error");
    expect(stateLabel("infra_error")).toBe("Infrastructure error");
    expect(
      (["passed", "failed", "agent_error", "infra_error", "cancelled", "running", "queued"] as const).map(stateColour),
    ).toEqual(["green", "red", "orange", "purple", "grey", "blue", "empty"]);
  });

  it("knows which states are final", () => {
    expect(isFinal("queued")).toBe(false);
    expect(isFinal("running")).toBe(false);
    expect(isFinal("cancelled")).toBe(true);
    expect(isFinal("infra_error")).toBe(true);
  });

  it("counts finished and total trials and describes the counts", () => {
    const c = counts({ queued: 3, running: 1, passed: 4, failed: 1, cancelled: 1 });
    expect(countTotal(c)).toBe(10);
    expect(countFinished(c)).toBe(6);
    expect(countsText(c)).toBe("4 passed, 1 failed, 1 cancelled, 1 running, 3 queued");
    expect(countsText(counts())).toBe("no trials");
  });

  it("stacks non-empty states in order, leaving queued trials as the empty part", () => {
    const segments = progressSegments(counts({ queued: 2, running: 1, passed: 1, infra_error: 0 }));
    expect(segments).toEqual([
      { state: "passed", count: 1, percent: 25 },
      { state: "running", count: 1, percent: 25 },
    ]);
    expect(progressSegments(counts())).toEqual([]);
  });

  it("moves one trial between states without going below zero", () => {
    expect(moveCount(counts({ running: 1 }), "running", "passed")).toEqual(counts({ passed: 1 }));
    expect(moveCount(counts(), "queued", "running")).toEqual(counts({ running: 1 }));
    const same = counts({ running: 1 });
    expect(moveCount(same, "running", "running")).toBe(same);
  });
});

describe("phases", () => {
  const phases: Phases = {
    ...NO_PHASES,
    env_started_at: "2025-05-01T10:00:00Z",
    env_finished_at: "2025-05-01T10:00:01.500Z",
    agent_started_at: "2025-05-01T10:00:01.500Z",
  };

  it("times finished phases and marks open and unstarted ones", () => {
    expect(phaseTiming(phases, "environment")).toEqual({ status: "done", ms: 1500 });
    expect(phaseTiming(phases, "agent")).toEqual({ status: "open" });
    expect(phaseTiming(phases, "verifier")).toEqual({ status: "not_started" });
  });

  it("shows running… only while the trial runs", () => {
    expect(phaseText(phaseTiming(phases, "agent"), true)).toBe("running…");
    expect(phaseText(phaseTiming(phases, "agent"), false)).toBe("did not finish");
    expect(phaseText(phaseTiming(phases, "verifier"), true)).toBe("—");
    expect(phaseText(phaseTiming(phases, "environment"), false)).toBe("1.5 s");
  });

  it("formats durations", () => {
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(12_340)).toBe("12.3 s");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
    expect(formatDuration(3_780_000)).toBe("1 h 3 min");
  });
});

describe("parseWorkspaceChanges", () => {
  it("keeps well-formed changes and drops the rest", () => {
    expect(
      parseWorkspaceChanges([
        { path: "a.txt", kind: "created", diff: "@@ -0,0 +1 @@\n+a" },
        { path: "b.bin", kind: "modified", diff: null },
        { path: "c", kind: "renamed", diff: null },
        { kind: "deleted" },
        "junk",
      ]),
    ).toEqual([
      { path: "a.txt", kind: "created", diff: "@@ -0,0 +1 @@\n+a" },
      { path: "b.bin", kind: "modified", diff: null },
    ]);
    expect(parseWorkspaceChanges(null)).toEqual([]);
    expect(parseWorkspaceChanges({})).toEqual([]);
  });
});

describe("sandboxRequest", () => {
  it("turns the default form into a request", () => {
    expect(sandboxRequest(SANDBOX_DEFAULTS)).toEqual({
      name: "",
      image: "skillscope/busybox:1",
      command: "echo hello from the sandbox",
      count: 1,
      memory_mb: 256,
      timeout_secs: 60,
    });
    expect(sandboxRequest({ ...SANDBOX_DEFAULTS, name: "  smoke ", count: "5" })).toMatchObject({
      name: "smoke",
      count: 5,
    });
  });
});

describe("throttle", () => {
  afterEach(() => vi.useRealTimers());

  it("runs once per interval however often it is scheduled, and can be cancelled", () => {
    vi.useFakeTimers();
    const fn = vi.fn<() => void>();
    const t = throttle(fn, 1000);
    t.schedule();
    t.schedule();
    vi.advanceTimersByTime(999);
    expect(fn).not.toHaveBeenCalled();
    t.schedule();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    t.schedule();
    t.cancel();
    vi.advanceTimersByTime(2000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

const trial = (id: number, state: TrialView["state"], updated_at = "2025-05-01T10:00:00Z"): TrialView => ({
  id,
  run_id: 1,
  label: `#${id}`,
  state,
  attempt: 1,
  priority: 0,
  message: "",
  image_digest: null,
  phases: NO_PHASES,
  updated_at,
});

const run = (id: number, c = counts()): RunView => ({
  id,
  name: `run ${id}`,
  created_at: "2025-05-01T09:00:00Z",
  counts: c,
});
const status = (c = counts()): QueueStatus => ({ paused: false, engine_problem: null, concurrency: 2, counts: c });

const loaded: RunsState = {
  ...INITIAL_RUNS_STATE,
  status: status(counts({ queued: 2 })),
  runs: [run(1, counts({ queued: 2 })), run(2)],
  trials: { runId: 1, list: [trial(10, "queued"), trial(11, "queued")] },
};

const trialEvent = (t: TrialView): QueueEvent => ({ type: "trial", trial: t });
const logEvent = (trial_id: number, text: string): QueueEvent => ({
  type: "log",
  trial_id,
  attempt: 1,
  stream: "stdout",
  text,
});

describe("applyQueueEvent", () => {
  it("updates a loaded trial in place and moves its run's and the queue's counts", () => {
    const next = applyQueueEvent(loaded, trialEvent(trial(10, "running", "2025-05-01T10:00:05Z")));
    expect(next.trials?.list.map((t) => [t.id, t.state])).toEqual([
      [10, "running"],
      [11, "queued"],
    ]);
    expect(next.runs?.[0].counts).toEqual(counts({ queued: 1, running: 1 }));
    expect(next.runs?.[1]).toBe(loaded.runs?.[1]);
    expect(next.status?.counts).toEqual(counts({ queued: 1, running: 1 }));
    expect(needsRefresh(loaded, trialEvent(trial(10, "running")))).toBe(false);
  });

  it("ignores an event older than the loaded trial", () => {
    const next = applyQueueEvent(loaded, trialEvent(trial(10, "running", "2025-05-01T09:59:00Z")));
    expect(next).toBe(loaded);
  });

  it("asks for a refresh when a trial's run is not listed or its trials are not loaded", () => {
    expect(needsRefresh(loaded, trialEvent({ ...trial(20, "running"), run_id: 2 }))).toBe(true);
    expect(needsRefresh(loaded, trialEvent({ ...trial(30, "running"), run_id: 3 }))).toBe(true);
    expect(needsRefresh(loaded, { type: "status", status: status() })).toBe(false);
    const other = applyQueueEvent(loaded, trialEvent({ ...trial(20, "passed"), run_id: 2 }));
    expect(other.runs).toBe(loaded.runs);
    expect(other.trials).toBe(loaded.trials);
  });

  it("adds an unknown trial of the loaded run, in id order", () => {
    const next = applyQueueEvent(loaded, trialEvent(trial(5, "queued")));
    expect(next.trials?.list.map((t) => t.id)).toEqual([5, 10, 11]);
    expect(next.runs).toEqual(loaded.runs);
  });

  it("replaces the queue status", () => {
    const paused = { ...status(), paused: true, engine_problem: "Docker is not reachable" };
    expect(applyQueueEvent(loaded, { type: "status", status: paused }).status).toBe(paused);
  });

  it("appends output of the watched trial only", () => {
    let state = runsReducer(loaded, { type: "watch-log", trialId: 10 });
    state = runsReducer(state, { type: "log-seed", trialId: 10, text: "a\n" });
    state = applyQueueEvent(state, logEvent(10, "b\n"));
    state = applyQueueEvent(state, logEvent(11, "other\n"));
    expect(state.log?.text).toBe("a\nb\n");
    expect(runsReducer(state, { type: "log-seed", trialId: 11, text: "x" })).toBe(state);
  });
});

describe("runsReducer", () => {
  it("stores loaded data", () => {
    let state = runsReducer(INITIAL_RUNS_STATE, { type: "loaded", status: status(), runs: [run(1)] });
    state = runsReducer(state, { type: "trials", runId: 1, list: [trial(10, "queued")] });
    expect(state.runs?.map((r) => r.id)).toEqual([1]);
    expect(state.trials?.runId).toBe(1);
    const paused = { ...status(), paused: true };
    expect(runsReducer(state, { type: "status", status: paused }).status).toBe(paused);
  });
});

describe("live log", () => {
  it("holds events until the seed arrives, without repeating what the seed has", () => {
    let log = startLog(1);
    log = appendLog(log, "two\n");
    log = appendLog(log, "three\n");
    expect(log.text).toBe("");
    log = seedLog(log, "one\ntwo\n");
    expect(log).toMatchObject({ seeded: true, text: "one\ntwo\nthree\n", early: [] });
    expect(appendLog(log, "four\n").text).toBe("one\ntwo\nthree\nfour\n");
  });

  it("merges seeds that hold none or all of the early events", () => {
    expect(mergeSeed("one\n", ["two\n"])).toBe("one\ntwo\n");
    expect(mergeSeed("one\ntwo\n", ["two\n"])).toBe("one\ntwo\n");
    expect(mergeSeed("", [])).toBe("");
  });

  it("keeps only the tail of very long output", () => {
    const log = appendLog(seedLog(startLog(1), "x".repeat(LOG_LIMIT)), "end");
    expect(log.text.length).toBe(LOG_LIMIT);
    expect(log.text.endsWith("xend")).toBe(true);
  });
});
