import type { QueueEvent } from "../bindings/QueueEvent";
import type { QueueStatus } from "../bindings/QueueStatus";
import type { RunView } from "../bindings/RunView";
import type { TrialView } from "../bindings/TrialView";
import { appendLog, seedLog, startLog, type LiveLog } from "./liveLog";
import { moveCount } from "./trialStates";

/** What the Runs page shows, kept current by queue events. */
export type RunsState = {
  status: QueueStatus | null;
  runs: RunView[] | null;
  /** The trials of the selected run, once loaded. */
  trials: { runId: number; list: TrialView[] } | null;
  /** The live output of the selected running trial. */
  log: LiveLog | null;
};

export type RunsAction =
  | { type: "event"; event: QueueEvent }
  | { type: "loaded"; status: QueueStatus; runs: RunView[] }
  | { type: "status"; status: QueueStatus }
  | { type: "trials"; runId: number; list: TrialView[] }
  | { type: "watch-log"; trialId: number }
  | { type: "log-seed"; trialId: number; text: string };

export const INITIAL_RUNS_STATE: RunsState = { status: null, runs: null, trials: null, log: null };

/** The loaded copy of a trial, if its run's trials are loaded. */
function knownTrial(state: RunsState, trial: TrialView): TrialView | undefined {
  return state.trials?.runId === trial.run_id ? state.trials.list.find((t) => t.id === trial.id) : undefined;
}

/**
 * True when a trial event cannot be applied in place: its run is not listed yet, or the
 * trial's previous state (needed to move its run's counts) is not known.
 */
export function needsRefresh(state: RunsState, event: QueueEvent): boolean {
  if (event.type !== "trial") return false;
  const listed = state.runs?.some((r) => r.id === event.trial.run_id) ?? false;
  return !listed || knownTrial(state, event.trial) === undefined;
}

function applyTrial(state: RunsState, trial: TrialView): RunsState {
  const previous = knownTrial(state, trial);
  if (previous && Date.parse(trial.updated_at) < Date.parse(previous.updated_at)) return state;
  let { trials, runs, status } = state;
  if (trials?.runId === trial.run_id) {
    const list = previous
      ? trials.list.map((t) => (t.id === trial.id ? trial : t))
      : [...trials.list, trial].sort((a, b) => a.id - b.id);
    trials = { ...trials, list };
  }
  if (previous && previous.state !== trial.state) {
    const move = (counts: RunView["counts"]) => moveCount(counts, previous.state, trial.state);
    runs = runs?.map((r) => (r.id === trial.run_id ? { ...r, counts: move(r.counts) } : r)) ?? null;
    status = status && { ...status, counts: move(status.counts) };
  }
  return { ...state, trials, runs, status };
}

export function applyQueueEvent(state: RunsState, event: QueueEvent): RunsState {
  switch (event.type) {
    case "status":
      return { ...state, status: event.status };
    case "log":
      return state.log?.trialId === event.trial_id ? { ...state, log: appendLog(state.log, event.text) } : state;
    case "trial":
      return applyTrial(state, event.trial);
  }
}

export function runsReducer(state: RunsState, action: RunsAction): RunsState {
  switch (action.type) {
    case "event":
      return applyQueueEvent(state, action.event);
    case "loaded":
      return { ...state, status: action.status, runs: action.runs };
    case "status":
      return { ...state, status: action.status };
    case "trials":
      return { ...state, trials: { runId: action.runId, list: action.list } };
    case "watch-log":
      return { ...state, log: startLog(action.trialId) };
    case "log-seed":
      return state.log?.trialId === action.trialId ? { ...state, log: seedLog(state.log, action.text) } : state;
  }
}
