import type { StateCounts } from "../bindings/StateCounts";
import type { TrialState } from "../bindings/TrialState";

/** The colour of a state, shared by badges and run progress bars (classes `state-<colour>`). */
export type StateColour = "green" | "red" | "orange" | "purple" | "grey" | "blue" | "empty";

type StateStyle = { label: string; colour: StateColour; description: string };

const STYLE: Record<TrialState, StateStyle> = {
  passed: { label: "Passed", colour: "green", description: "The trial passed." },
  failed: { label: "Failed", colour: "red", description: "The trial ran and failed." },
  agent_error: {
    label: "Agent error",
    colour: "orange",
    description: "The agent itself failed (a timeout or the memory limit); scored, never retried.",
  },
  infra_error: {
    label: "Infrastructure error",
    colour: "purple",
    description: "The infrastructure failed on every allowed attempt.",
  },
  verifier_tampered: {
    label: "Verifier tampered",
    colour: "purple",
    description: "The agent changed what its verifier runs on (a tool, a test hook, the reward file); not scored.",
  },
  cancelled: { label: "Cancelled", colour: "grey", description: "Cancelled before it finished." },
  running: { label: "Running", colour: "blue", description: "Running now." },
  queued: { label: "Queued", colour: "empty", description: "Waiting in the queue." },
};

/** Every state, finished ones first, in the order progress bars stack them. */
export const TRIAL_STATES: readonly TrialState[] = [
  "passed",
  "failed",
  "agent_error",
  "infra_error",
  "verifier_tampered",
  "cancelled",
  "running",
  "queued",
];

export const stateLabel = (state: TrialState): string => STYLE[state].label;
export const stateColour = (state: TrialState): StateColour => STYLE[state].colour;
export const stateDescription = (state: TrialState): string => STYLE[state].description;

/** False while the trial is queued or running. */
export function isFinal(state: TrialState): boolean {
  return state !== "queued" && state !== "running";
}

export function countTotal(counts: StateCounts): number {
  return TRIAL_STATES.reduce((sum, state) => sum + counts[state], 0);
}

export function countFinished(counts: StateCounts): number {
  return TRIAL_STATES.filter(isFinal).reduce((sum, state) => sum + counts[state], 0);
}

export type ProgressSegment = { state: TrialState; count: number; percent: number };

/** The stacked bar of a run: one segment per non-empty state except queued (the bar's empty part). */
export function progressSegments(counts: StateCounts): ProgressSegment[] {
  const total = countTotal(counts);
  if (total === 0) return [];
  return TRIAL_STATES.filter((state) => state !== "queued" && counts[state] > 0).map((state) => ({
    state,
    count: counts[state],
    percent: (counts[state] / total) * 100,
  }));
}

/** "2 passed, 1 running, 3 queued": the non-zero counts, in bar order. */
export function countsText(counts: StateCounts): string {
  const parts = TRIAL_STATES.filter((state) => counts[state] > 0).map(
    (state) => `${counts[state]} ${stateLabel(state).toLowerCase()}`,
  );
  return parts.length > 0 ? parts.join(", ") : "no trials";
}

/** The counts after one trial moved from `from` to `to`. */
export function moveCount(counts: StateCounts, from: TrialState, to: TrialState): StateCounts {
  if (from === to) return counts;
  return { ...counts, [from]: Math.max(0, counts[from] - 1), [to]: counts[to] + 1 };
}
