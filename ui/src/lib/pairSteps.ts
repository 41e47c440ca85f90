// Comparing the two runs of a pair step by step.
import type { AtifStep, TrajectorySummary } from "../api/types";
import { contentText } from "./trajectory";

/** JSON with object keys sorted, so that equal arguments compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What the agent did in a step and what it saw: its tool calls (name and arguments) and the observation texts. */
export function stepSignature(step: AtifStep): string {
  const calls = (step.tool_calls ?? []).map((c) => [c.function_name, canonical(c.arguments)]);
  const seen = (step.observation?.results ?? []).map((r) => contentText(r.content));
  return JSON.stringify([calls, seen]);
}

/**
 * The first step index at which the runs differ in tool calls or observations (messages are not compared),
 * or where one run has a step and the other has ended; null when they are the same throughout.
 */
export function firstDivergence(a: AtifStep[], b: AtifStep[]): number | null {
  const common = Math.min(a.length, b.length);
  for (let i = 0; i < common; i += 1) if (stepSignature(a[i]) !== stepSignature(b[i])) return i;
  return a.length === b.length ? null : common;
}

const READERS = ["read_file", "bash"];

/** The index of the first step that reads a skill's SKILL.md (a read_file or bash call naming /skills/…SKILL.md), or null. */
export function skillReadIndex(steps: AtifStep[]): number | null {
  const index = steps.findIndex((step) =>
    (step.tool_calls ?? []).some((c) => {
      const args = JSON.stringify(c.arguments);
      return READERS.includes(c.function_name) && args.includes("/skills/") && args.includes("SKILL.md");
    }),
  );
  return index === -1 ? null : index;
}

/** The trajectory of the trial's last attempt (the one that was scored), or null when it has none. */
export function lastAttemptTrajectory(list: TrajectorySummary[]): TrajectorySummary | null {
  return list.reduce<TrajectorySummary | null>((best, t) => (best === null || (t.attempt ?? 0) >= (best.attempt ?? 0) ? t : best), null);
}
