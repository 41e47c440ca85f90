import type { AgentConfig } from "../bindings/AgentConfig";
import type { AgentRunRequest } from "../bindings/AgentRunRequest";
import type { Harness } from "../bindings/Harness";
import { emptyToNull, formReader, type Parsed } from "./forms";
import { DEFAULT_IMAGE } from "./sandboxForm";

/** The agent run form's fields, as typed (the skills as chosen). */
export type AgentRunFields = Omit<Record<keyof AgentRunRequest, string>, "skill_version_ids"> & {
  skill_version_ids: number[];
};

/** The most repeats the back end accepts for one run. */
export const MAX_REPEATS = 100;

export const AGENT_RUN_DEFAULTS: AgentRunFields = {
  name: "",
  agent_config_id: "",
  instruction: "",
  image: DEFAULT_IMAGE,
  workspace: "",
  verifier: "",
  skill_version_ids: [],
  repeats: "1",
};

/** A glibc image built by `skillscope image bootstrap` (mirrors `DEBIAN_PYTHON_TAG` in crates/sandbox): Claude Code cannot start in busybox, and Codex runs its commands with /bin/bash, which busybox lacks. */
export const GLIBC_IMAGE = "skillscope/debian-python:12";

/** Whether a harness needs `GLIBC_IMAGE` rather than busybox: every real CLI does. */
export function needsGlibcImage(harness: Harness): boolean {
  return harness !== "builtin";
}

/** The fields once a configuration is chosen: a CLI harness moves the default busybox image to a glibc one. */
export function chooseConfig(fields: AgentRunFields, config: AgentConfig): AgentRunFields {
  const image = needsGlibcImage(config.harness) && fields.image === DEFAULT_IMAGE ? GLIBC_IMAGE : fields.image;
  return { ...fields, agent_config_id: String(config.id), image };
}

/** The request the fields describe, or what is wrong with them. No skills is the without-skill arm. */
export function parseAgentRun(fields: AgentRunFields): Parsed<AgentRunRequest> {
  const r = formReader();
  const instruction = fields.instruction.trim();
  const image = fields.image.trim();
  r.check(fields.agent_config_id !== "", "Choose an agent configuration.");
  r.check(instruction !== "", "Write the instruction for the agent.");
  r.check(image !== "", "Name the image to run the agent's commands in.");
  return r.done({
    name: fields.name.trim(),
    agent_config_id: Number(fields.agent_config_id),
    instruction,
    image,
    workspace: emptyToNull(fields.workspace),
    verifier: emptyToNull(fields.verifier),
    skill_version_ids: fields.skill_version_ids,
    repeats: r.whole(fields.repeats, "Repeats", 1, MAX_REPEATS),
  });
}
