import type { ExperimentDesign } from "../bindings/ExperimentDesign";
import type { ExperimentTask } from "../bindings/ExperimentTask";
import type { TaskSetSummary } from "../bindings/TaskSetSummary";
import type { TaskSettings } from "../bindings/TaskSettings";
import { EXPERIMENT_DEFAULTS, type ExperimentFields } from "./experimentForm";
import { plural } from "./format";

/** An experiment to clone: its design and the stored task set it names (null if none, or gone). */
export type CloneSource = { design: ExperimentDesign; taskSet: TaskSetSummary | null };

/** The form filled with an experiment's design, and what of it the form could not take. */
export type Clone = { fields: ExperimentFields; notes: string[] };

/** True when every environment setting keeps the queue's default, as a task written in the form does. */
function isDefault(s: TaskSettings): boolean {
  return (
    s.workdir === null &&
    s.setup.length === 0 &&
    Object.keys(s.env).length === 0 &&
    s.memory_mb === null &&
    s.cpus === null &&
    s.agent_timeout_secs === null &&
    s.verifier_timeout_secs === null &&
    !s.run_as_root
  );
}

/** A part of a line may hold no bar (it would split there) and no line break; the command may hold bars. */
const linePart = (text: string, bars: boolean) =>
  text.trim() === text && text !== "" && !text.includes("\n") && (bars || !text.includes("|"));

/** The task as a form line ("id | instruction | verifier command"), or why it cannot be one. */
function taskLine(t: ExperimentTask): { line: string } | { problem: string } {
  const [sh, flag, command = "", ...more] = t.verifier;
  if (t.scoring !== null) return { problem: "has a verifier that scores a pass ratio" };
  if (sh !== "sh" || flag !== "-c" || more.length > 0 || !linePart(command, true))
    return { problem: "has a verifier that is not one sh -c command line" };
  if (t.dockerfile_context !== null) return { problem: "builds its image from a Dockerfile" };
  if (t.verifier_in_place) return { problem: "verifies in the agent's container" };
  if (t.accepted_skill_paths.length > 0) return { problem: "accepts skill folders its image carries" };
  if (!isDefault(t.settings)) return { problem: "has its own environment settings" };
  if (!linePart(t.id, false) || !linePart(t.instruction, false))
    return { problem: "has an id or instruction with a bar, a line break or outer spaces" };
  return { line: `${t.id} | ${t.instruction} | ${command}` };
}

/** The written tasks' fields, or why the form cannot hold these tasks. */
function writtenTasks(tasks: ExperimentTask[]): Pick<ExperimentFields, "tasks" | "image" | "workspace"> | string {
  const lines: string[] = [];
  for (const t of tasks) {
    const read = taskLine(t);
    if ("problem" in read) return `task "${t.id}" ${read.problem}`;
    lines.push(read.line);
  }
  // The form has one image and one workspace for all its tasks.
  const [first] = tasks;
  if (tasks.some((t) => t.image !== first.image || t.workspace !== first.workspace))
    return "its tasks run in different images or workspaces";
  return { tasks: lines.join("\n"), image: first.image, workspace: first.workspace ?? "" };
}

/** The form filled with the design as a new experiment named "Copy of …"; `agentIds`: the configurations that still exist. */
export function cloneFields({ design, taskSet }: CloneSource, agentIds: number[]): Clone {
  const notes: string[] = [];
  const gone = design.agent_config_ids.filter((id) => !agentIds.includes(id));
  if (gone.length > 0) {
    const ids = gone.map((id) => `#${id}`).join(", ");
    notes.push(
      gone.length === 1
        ? `Configuration ${ids} no longer exists and was left out.`
        : `Configurations ${ids} no longer exist and were left out.`,
    );
  }
  if (design.only.length > 0)
    notes.push(
      `${design.name} ran only ${plural(design.only.length, "pair")} of its design (a re-run); the form queues every pair.`,
    );
  const fields: ExperimentFields = {
    ...EXPERIMENT_DEFAULTS,
    name: `Copy of ${design.name}`,
    skill_version_ids: design.skill_version_ids,
    decoy_version_ids: design.decoy_version_ids,
    agent_config_ids: design.agent_config_ids.filter((id) => agentIds.includes(id)),
    conditions: design.conditions,
    repeats: String(design.repeats),
    judge: design.judge,
  };
  if (design.task_set_id !== null) {
    if (taskSet === null) notes.push(`Task set #${design.task_set_id} is no longer stored: choose the tasks again.`);
    return { fields: { ...fields, task_set: taskSet }, notes };
  }
  const written = design.tasks.length > 0 ? writtenTasks(design.tasks) : "it lists no tasks";
  if (typeof written === "string") {
    notes.push(`The tasks of ${design.name} cannot be written in this form: ${written}. Choose or write the tasks.`);
    return { fields, notes };
  }
  return { fields: { ...fields, ...written }, notes };
}
