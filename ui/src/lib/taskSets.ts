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
