import type { TaskSetImport } from "../bindings/TaskSetImport";
import type { TaskSetSummary } from "../bindings/TaskSetSummary";
import type { TaskSourceKind } from "../bindings/TaskSourceKind";

/** "hello-tasks v2". */
export function taskSetName(set: TaskSetSummary): string {
  return `${set.name} v${set.version}`;
}

/** "hello-tasks v2 — 3 runnable of 4", an option of the experiment form. */
export function taskSetOption(set: TaskSetSummary): string {
  return `${taskSetName(set)} — ${set.runnable_count} runnable of ${set.task_count}`;
}

export const SOURCE_KINDS: Record<TaskSourceKind, string> = {
  harbor: "Harbor",
  evals_json: "evals.json",
  swe_skills_bench: "SWE-Skills-Bench",
  app: "Written in the app",
  generated: "Generated (drafts)",
};

/** Where storing tasks put them: a new set, or the set stored before with the same content. */
export function storedText({ task_set, reused }: TaskSetImport): string {
  return `${reused ? "Already stored as" : "Stored as"} task set #${task_set.id} ${taskSetName(task_set)}`;
}

/** A task file's text: its contents travel base64-encoded; bytes that are not UTF-8 show as U+FFFD. */
export function fileText(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** A verifier sanity run's pass ratios, "0.00, 0.00", a dash for one not scored (yet). */
export function sanityScores(scores: (number | null)[]): string {
  return scores.map((s) => (s === null ? "–" : s.toFixed(2))).join(", ");
}
