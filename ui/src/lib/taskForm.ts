import type { TaskAppInput } from "../bindings/TaskAppInput";
import type { TaskAppVerifierKind } from "../bindings/TaskAppVerifierKind";
import { emptyToNull, formReader, type Parsed } from "./forms";

/** The write-a-task form's fields, as typed. */
export type TaskFields = {
  name: string;
  instruction: string;
  /** One optional workspace file: its path in the working directory, and its text. */
  file_name: string;
  file_contents: string;
  verifier_kind: TaskAppVerifierKind;
  /** The command, pytest file or test.sh script, as the kind says. */
  verifier: string;
  /** Blank for the back end's default, APP_TASK_IMAGE. */
  image: string;
};

export const TASK_DEFAULTS: TaskFields = {
  name: "",
  instruction: "",
  file_name: "",
  file_contents: "",
  verifier_kind: "exit_code",
  verifier: "",
  image: "",
};

/** The image of a written task that names none (mirrors `DEFAULT_IMAGE` in crates/tasks/src/app.rs). */
export const APP_TASK_IMAGE = "python:3.12-slim";

/** The working directory of a written task (mirrors `DEFAULT_WORKDIR` in crates/tasks). */
export const APP_TASK_WORKDIR = "/workspace";

/** Each verifier kind: its option, the verifier field's label, and how it scores (as the back end runs it). */
export const VERIFIER_KINDS: Record<TaskAppVerifierKind, { option: string; label: string; hint: string }> = {
  exit_code: {
    option: "Exit code",
    label: "Shell command",
    hint: `Runs with sh -c in ${APP_TASK_WORKDIR}; exit code 0 scores 1.0, anything else 0.0.`,
  },
  json_score: {
    option: "JSON score",
    label: 'Shell command printing {"score": x}',
    hint: `Runs with sh -c in ${APP_TASK_WORKDIR}; the x of its last JSON line, from 0 to 1, is the score.`,
  },
  pytest: {
    option: "pytest file",
    label: "pytest file (test_task.py, run from /tests)",
    hint: "The share of its tests that pass is the score.",
  },
  reward_file: {
    option: "Reward file (test.sh)",
    label: "tests/test.sh writing /logs/verifier/reward.txt",
    hint: "Harbor's form: the script writes the score to the reward file.",
  },
};

/** The task the fields describe, or what is wrong with them; the back end keeps the default timeouts. */
export function parseTask(fields: TaskFields): Parsed<TaskAppInput> {
  const r = formReader();
  const name = fields.name.trim();
  const fileName = fields.file_name.trim();
  const image = emptyToNull(fields.image);
  r.check(name !== "", "Give the task a name.");
  r.check(fields.instruction.trim() !== "", "Write the instruction for the agent.");
  r.check(fileName !== "" || fields.file_contents === "", "Name the workspace file, or clear its contents.");
  r.check(fields.verifier.trim() !== "", `Write the verifier: ${VERIFIER_KINDS[fields.verifier_kind].label}.`);
  r.check(image === null || !/\s/.test(image), "The image name cannot contain spaces.");
  return r.done({
    name,
    instruction: fields.instruction,
    files: fileName === "" ? [] : [[fileName, fields.file_contents]],
    // A pytest file or test.sh script is kept as written, blank lines and all.
    verifier_command: fields.verifier,
    verifier_kind: fields.verifier_kind,
    image,
    agent_timeout_secs: null,
    verifier_timeout_secs: null,
  });
}
