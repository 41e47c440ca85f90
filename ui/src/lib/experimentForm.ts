import type { AgentConfig } from "../bindings/AgentConfig";
import type { Condition } from "../bindings/Condition";
import type { ExperimentDesign } from "../bindings/ExperimentDesign";
import type { ExperimentTask } from "../bindings/ExperimentTask";
import type { Judge } from "../bindings/Judge";
import type { TaskSetSummary } from "../bindings/TaskSetSummary";
import { GLIBC_IMAGE, needsGlibcImage } from "./agentRunForm";
import { emptyToNull, formReader, type Parsed } from "./forms";
import { DEFAULT_IMAGE } from "./sandboxForm";
import { taskSetName } from "./taskSets";
import type { TaskSettings } from "../bindings/TaskSettings";

/** The experiment form's fields, as typed (the lists as chosen). */
export type ExperimentFields = {
  name: string;
  skill_version_ids: number[];
  decoy_version_ids: number[];
  agent_config_ids: number[];
  conditions: Condition[];
  repeats: string;
  /** The stored set the tasks come from; null for the tasks written below. */
  task_set: TaskSetSummary | null;
  /** One task a line: "id | instruction | verifier command". */
  tasks: string;
  image: string;
  workspace: string;
  /** Who grades the tasks that need a judge (a provider and model); null leaves those tasks out. */
  judge: Judge | null;
};

export const CONDITIONS: readonly [Condition, string][] = [
  ["isolated", "Isolated (without: no skill; with: only the skill)"],
  ["group", "Group (the decoys in both arms; with adds the skill)"],
];

export const EXPERIMENT_DEFAULTS: ExperimentFields = {
  name: "",
  skill_version_ids: [],
  decoy_version_ids: [],
  agent_config_ids: [],
  conditions: ["isolated"],
  repeats: "3",
  task_set: null,
  tasks: "",
  image: DEFAULT_IMAGE,
  workspace: "",
  judge: null,
};

/** A task written in the form keeps the queue's defaults for every environment setting. */
export const DEFAULT_TASK_SETTINGS: TaskSettings = {
  workdir: null,
  setup: [],
  env: {},
  memory_mb: null,
  cpus: null,
  agent_timeout_secs: null,
  verifier_timeout_secs: null,
  run_as_root: false,
};

/** The tasks of the lines (blank ones skipped), or the problems of the bad ones. */
export function parseTasks(text: string, image: string, workspace: string | null): Parsed<ExperimentTask[]> {
  const tasks: ExperimentTask[] = [];
  const problems: string[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    // Only the first two bars separate: the command may hold more ("a || b").
    const [head, middle = "", ...rest] = line.split("|");
    const [id, instruction, command] = [head, middle, rest.join("|")].map((part) => part.trim());
    if (!id || !instruction || !command) {
      problems.push(`Task line ${i + 1} needs an id, an instruction and a verifier command, separated by "|".`);
    } else if (tasks.some((t) => t.id === id)) {
      problems.push(`Task line ${i + 1} repeats the id "${id}".`);
    } else {
      tasks.push({
        id,
        instruction,
        image,
        workspace,
        verifier: ["sh", "-c", command],
        scoring: null,
        dockerfile_context: null,
        verifier_in_place: false,
        accepted_skill_paths: [],
        settings: DEFAULT_TASK_SETTINGS,
      });
    }
  });
  if (tasks.length === 0 && problems.length === 0)
    problems.push("Write at least one task: id | instruction | verifier command.");
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: tasks };
}

/** The design the fields describe, or what is wrong with them. */
export function parseExperiment(fields: ExperimentFields): Parsed<ExperimentDesign> {
  const r = formReader();
  const name = fields.name.trim();
  const image = fields.image.trim();
  const set = fields.task_set;
  // The back end reads a stored set's tasks (and their environments): the design names the set and lists none.
  const tasks: Parsed<ExperimentTask[]> =
    set === null ? parseTasks(fields.tasks, image, emptyToNull(fields.workspace)) : { ok: true, value: [] };
  const decoys = fields.conditions.includes("group") ? fields.decoy_version_ids : [];
  r.check(name !== "", "Give the experiment a name.");
  r.check(fields.skill_version_ids.length > 0, "Choose at least one skill to evaluate.");
  r.check(fields.agent_config_ids.length > 0, "Choose at least one agent configuration.");
  r.check(fields.conditions.length > 0, "Choose at least one condition.");
  r.check(
    !fields.conditions.includes("group") || decoys.length > 0,
    "The group condition needs at least one decoy skill.",
  );
  r.check(!decoys.some((id) => fields.skill_version_ids.includes(id)), "A skill cannot be both evaluated and a decoy.");
  if (set === null) r.check(image !== "", "Name the image the tasks run in.");
  else if (fields.judge === null) {
    r.check(
      set.runnable_count > 0,
      `Task set ${taskSetName(set)} has no task with a deterministic verifier; choose a judge to grade its expectations.`,
    );
  }
  if (!tasks.ok) tasks.problems.forEach((p) => r.check(false, p));
  const repeats = r.whole(fields.repeats, "Repeats", 1);
  return r.done({
    name,
    skill_version_ids: fields.skill_version_ids,
    decoy_version_ids: decoys,
    tasks: tasks.ok ? tasks.value : [],
    task_set_id: set?.id ?? null,
    agent_config_ids: fields.agent_config_ids,
    conditions: fields.conditions,
    repeats,
    only: [],
    judge: fields.judge,
  });
}

/** The design to estimate: its name changes nothing there, so a blank one does not hold the estimate back. */
export function estimateDesign(fields: ExperimentFields): Parsed<ExperimentDesign> {
  return parseExperiment({ ...fields, name: fields.name.trim() || "estimate" });
}

/** True when the written tasks run a chosen CLI-harness configuration (Claude Code, Codex), which cannot work in busybox. */
export function needsGlibc(fields: ExperimentFields, agents: AgentConfig[]): boolean {
  return (
    fields.task_set === null && agents.some((a) => needsGlibcImage(a.harness) && fields.agent_config_ids.includes(a.id))
  );
}

/** The fields with the glibc image in place of the busybox default when a CLI harness needs it; any other image stays. */
export function followHarness(fields: ExperimentFields, agents: AgentConfig[]): ExperimentFields {
  return needsGlibc(fields, agents) && fields.image === DEFAULT_IMAGE ? { ...fields, image: GLIBC_IMAGE } : fields;
}

/** The skill options with a row for each chosen version they lack: a cloned experiment's older version. */
export function withChosen(options: [number, string][], chosen: number[]): [number, string][] {
  const missing = chosen.filter((id) => !options.some(([option]) => option === id));
  return [...options, ...missing.map((id): [number, string] => [id, `Older version (id ${id})`])];
}
