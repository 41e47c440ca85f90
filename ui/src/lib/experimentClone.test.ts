import { describe, expect, it } from "vitest";
import type { ExperimentDesign } from "../bindings/ExperimentDesign";
import type { ExperimentTask } from "../bindings/ExperimentTask";
import type { TaskSetSummary } from "../bindings/TaskSetSummary";
import { cloneFields } from "./experimentClone";
import { DEFAULT_TASK_SETTINGS, EXPERIMENT_DEFAULTS, parseExperiment } from "./experimentForm";

const task = (id: string, patch: Partial<ExperimentTask> = {}): ExperimentTask => ({
  id,
  instruction: `Do ${id}`,
  image: "img:1",
  workspace: "/w",
  verifier: ["sh", "-c", "test -f out || exit 1"],
  scoring: null,
  dockerfile_context: null,
  verifier_in_place: false,
  accepted_skill_paths: [],
  settings: DEFAULT_TASK_SETTINGS,
  ...patch,
});

const design: ExperimentDesign = {
  name: "e1",
  skill_version_ids: [3],
  decoy_version_ids: [5],
  tasks: [task("a"), task("b")],
  task_set_id: null,
  agent_config_ids: [7, 8],
  conditions: ["isolated", "group"],
  repeats: 4,
  only: [],
  judge: null,
};

describe("clone into the form", () => {
  it("writes simple exit-code tasks back as lines, and the form reads back the same design", () => {
    const { fields, notes } = cloneFields({ design, taskSet: null }, [7, 8]);
    expect(notes).toEqual([]);
    expect(fields).toEqual({
      ...EXPERIMENT_DEFAULTS,
      name: "Copy of e1",
      skill_version_ids: [3],
      decoy_version_ids: [5],
      agent_config_ids: [7, 8],
      conditions: ["isolated", "group"],
      repeats: "4",
      tasks: "a | Do a | test -f out || exit 1\nb | Do b | test -f out || exit 1",
      image: "img:1",
      workspace: "/w",
    });
    expect(parseExperiment(fields)).toEqual({ ok: true, value: { ...design, name: "Copy of e1" } });
  });

  it("names the stored task set instead of writing tasks", () => {
    const set = { id: 6, name: "hello", version: 2, runnable_count: 1 } as TaskSetSummary;
    const { fields, notes } = cloneFields({ design: { ...design, tasks: [], task_set_id: 6 }, taskSet: set }, [7, 8]);
    expect(fields).toMatchObject({ task_set: set, tasks: "" });
    expect(notes).toEqual([]);
    expect(cloneFields({ design: { ...design, tasks: [], task_set_id: 6 }, taskSet: null }, [7, 8]).notes).toEqual([
      "Task set #6 is no longer stored: choose the tasks again.",
    ]);
  });

  it("leaves the tasks empty and says why when the form cannot hold them", () => {
    const cases: [ExperimentTask[], string][] = [
      [[task("a", { verifier: ["pytest"] })], 'task "a" has a verifier that is not one sh -c command line'],
      [[task("a", { scoring: { kind: "pytest" } as ExperimentTask["scoring"] })], "pass ratio"],
      [[task("a", { settings: { ...DEFAULT_TASK_SETTINGS, memory_mb: 512 } })], "its own environment settings"],
      [[task("a", { instruction: "a | b" })], "a bar"],
      [[task("a"), task("b", { image: "other:1" })], "different images or workspaces"],
    ];
    for (const [tasks, why] of cases) {
      const { fields, notes } = cloneFields({ design: { ...design, tasks }, taskSet: null }, [7, 8]);
      expect(fields).toMatchObject({ tasks: "", task_set: null, image: EXPERIMENT_DEFAULTS.image });
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain("The tasks of e1 cannot be written in this form: ");
      expect(notes[0]).toContain(why);
    }
  });

  it("drops configurations that are gone and says a re-run's subset is not kept", () => {
    const slot = { skill_version_id: 3, task: "a", agent_config_id: 7, condition: "isolated" as const, repeat: 1 };
    const { fields, notes } = cloneFields({ design: { ...design, only: [slot] }, taskSet: null }, [7]);
    expect(fields.agent_config_ids).toEqual([7]);
    expect(notes).toEqual([
      "Configuration #8 no longer exists and was left out.",
      "e1 ran only 1 pair of its design (a re-run); the form queues every pair.",
    ]);
  });
});
