import type { Phases } from "../bindings/Phases";

export type PhaseName = "environment" | "agent" | "verifier";

export type PhaseTiming = { status: "not_started" } | { status: "open" } | { status: "done"; ms: number };

const KEYS: Record<PhaseName, [keyof Phases, keyof Phases]> = {
  environment: ["env_started_at", "env_finished_at"],
  agent: ["agent_started_at", "agent_finished_at"],
  verifier: ["verifier_started_at", "verifier_finished_at"],
};

/** The phases of a trial, in order, with their column headings. */
export const PHASE_LABELS: [PhaseName, string][] = [
  ["environment", "Environment"],
  ["agent", "Agent"],
  ["verifier", "Verifier"],
];

/** A phase of a trial: not started, open (started, not finished), or done with its duration. */
export function phaseTiming(phases: Phases, phase: PhaseName): PhaseTiming {
  const [startKey, endKey] = KEYS[phase];
  const start = phases[startKey];
  const end = phases[endKey];
  if (!start) return { status: "not_started" };
  if (!end) return { status: "open" };
  return { status: "done", ms: Math.max(0, Date.parse(end) - Date.parse(start)) };
}

/** "850 ms", "12.3 s", "2 min 5 s", "1 h 3 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A phase cell: "—" before it starts, "running…" while open in a running trial, else its duration. */
export function phaseText(timing: PhaseTiming, trialRunning: boolean): string {
  switch (timing.status) {
    case "not_started":
      return "—";
    case "open":
      return trialRunning ? "running…" : "did not finish";
    case "done":
      return formatDuration(timing.ms);
  }
}
