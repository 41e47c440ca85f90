import { describe, expect, it } from "vitest";
import type { AgentConfig } from "../bindings/AgentConfig";
import type { TaskSetSummary } from "../bindings/TaskSetSummary";
import { agentFields, chosenProvider, DEFAULT_LIMITS, harnessLimitsNote, parseAgent } from "./agentForm";
import { AGENT_RUN_DEFAULTS, chooseConfig, GLIBC_IMAGE, parseAgentRun } from "./agentRunForm";
import {
  DEFAULT_TASK_SETTINGS,
  estimateDesign,
  EXPERIMENT_DEFAULTS,
  followHarness,
  parseExperiment,
  withChosen,
} from "./experimentForm";
import { emptyToNull, formReader, parseWhole, type Parsed } from "./forms";
import { applyPreset, parseProvider, PROVIDER_DEFAULTS, PROVIDER_PRESETS, providerFields } from "./providerForm";

const preset = (label: string) => PROVIDER_PRESETS.find((p) => p.label === label)!;

/** The problems a failed parse reports (and the test fails if the parse succeeded). */
function problems<T>(result: Parsed<T>): string[] {
  if (result.ok) throw new Error(`expected problems, parsed ${JSON.stringify(result.value)}`);
  return result.problems;
}

describe("form fields", () => {
  it("reads blanks and whole numbers", () => {
    expect(emptyToNull("  ")).toBeNull();
    expect(emptyToNull(" /tmp/x ")).toBe("/tmp/x");
    expect(parseWhole(" 12 ", 1)).toBe(12);
    expect(parseWhole("0", 1)).toBeNull();
    expect(parseWhole("1.5", 1)).toBeNull();
    expect(parseWhole("-3", 0)).toBeNull();
    expect(parseWhole("101", 1, 100)).toBeNull();
  });

  it("collects every problem and drops the value when there is one", () => {
    const r = formReader();
    r.check(false, "first");
    const n = r.whole("x", "Count", 1, 5);
    expect(n).toBe(1);
    expect(r.done(n)).toEqual({ ok: false, problems: ["first", "Count must be a whole number from 1 to 5."] });
    expect(formReader().done(3)).toEqual({ ok: true, value: 3 });
  });
});

describe("provider form", () => {
  it("fills only the protocol and URL from a preset, and the id while it is blank", () => {
    const openai = applyPreset(PROVIDER_DEFAULTS, preset("OpenAI"), false);
    expect(openai).toMatchObject({ id: "openai", api: "openai_chat", base_url: "https://api.openai.com/v1" });
    const anthropic = applyPreset(openai, preset("Anthropic"), false);
    expect(anthropic).toMatchObject({ id: "openai", api: "anthropic", base_url: "https://api.anthropic.com" });
    expect(applyPreset(PROVIDER_DEFAULTS, preset("Ollama (local)"), true).id).toBe("");
    expect(anthropic.max_retries).toBe(PROVIDER_DEFAULTS.max_retries);
  });

  it("offers OpenRouter and local servers as OpenAI-compatible endpoints", () => {
    expect(preset("OpenRouter")).toMatchObject({ api: "openai_chat", base_url: "https://openrouter.ai/api/v1" });
    for (const p of PROVIDER_PRESETS.filter((p) => p.label.includes("local"))) {
      expect(p.api).toBe("openai_chat");
      expect(p.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    }
  });

  it("parses valid fields and round-trips a configuration", () => {
    const config = {
      id: "local-vllm",
      api: "openai_chat",
      base_url: "http://127.0.0.1:8000/v1",
      max_concurrency: 2,
      timeout_secs: 60,
      max_retries: 0,
    } as const;
    expect(parseProvider(providerFields(config))).toEqual({ ok: true, value: config });
    const padded = { ...providerFields(config), id: " local-vllm ", base_url: " http://127.0.0.1:8000/v1 " };
    expect(parseProvider(padded)).toEqual({ ok: true, value: config });
  });

  it("reports a bad id, URL and limits", () => {
    const result = parseProvider({
      ...PROVIDER_DEFAULTS,
      id: "my key",
      base_url: "ftp://x",
      max_concurrency: "0",
      max_retries: "-1",
    });
    expect(problems(result)).toHaveLength(4);
    expect(problems(result)[1]).toContain("http://");
    expect(parseProvider({ ...PROVIDER_DEFAULTS, id: "x", base_url: "not a url" }).ok).toBe(false);
  });
});

const agent: AgentConfig = {
  id: 7,
  name: "gpt small",
  harness: "builtin",
  provider_id: "openai",
  model: "gpt-4.1-mini",
  limits: { ...DEFAULT_LIMITS, max_turns: 10, temperature: null, output_limit_bytes: 999, max_output_tokens: null },
};

describe("agent form", () => {
  it("says which limits each harness honours", () => {
    expect(harnessLimitsNote("builtin")).toBeNull();
    expect(harnessLimitsNote("claude-code")).toContain("--max-turns");
    expect(harnessLimitsNote("codex")).toMatch(/^Skillscope's model proxy holds Codex CLI to the turn limit/);
    expect(harnessLimitsNote("opencode")).toMatch(/holds OpenCode CLI to the turn limit.*token budget/);
    expect(harnessLimitsNote("gemini")).toContain("maxSessionTurns");
  });

  it("starts a new configuration with the default limits and the first provider until one is chosen", () => {
    const fields = agentFields(null);
    expect(fields).toMatchObject({
      name: "",
      provider_id: "",
      max_turns: "30",
      token_budget: "400000",
      temperature: "0",
    });
    expect(chosenProvider(fields, ["anthropic", "openai"])).toBe("anthropic");
    expect(chosenProvider({ ...fields, provider_id: "openai" }, ["anthropic", "openai"])).toBe("openai");
    expect(chosenProvider(fields, [])).toBe("");
  });

  it("round-trips an edited configuration, keeping the settings the form does not show", () => {
    const fields = agentFields(agent);
    expect(fields.temperature).toBe("");
    expect(parseAgent(fields, agent)).toEqual({ ok: true, value: agent });
  });

  it("creates with id 0 and reads the temperature", () => {
    const result = parseAgent(
      { ...agentFields(null), provider_id: "openai", name: " a ", model: "m", temperature: "0.7" },
      null,
    );
    expect(result.ok && result.value).toMatchObject({
      id: 0,
      name: "a",
      harness: "builtin",
      limits: { temperature: 0.7, output_limit_bytes: 16384 },
    });
  });

  it("keeps the harness chosen", () => {
    const result = parseAgent(
      { ...agentFields(null), provider_id: "anthropic", name: "cc", model: "m", harness: "claude-code" },
      null,
    );
    expect(result.ok && result.value.harness).toBe("claude-code");
  });

  it("reports missing names, a bad temperature and bad limits", () => {
    const result = parseAgent({ ...agentFields(null), temperature: "3", max_turns: "0" }, null);
    expect(problems(result)).toHaveLength(5);
  });
});

describe("experiment form helpers", () => {
  const agents = [
    { ...agent, id: 1, harness: "builtin" as const },
    { ...agent, id: 2, harness: "claude-code" as const },
  ];
  const written = { ...EXPERIMENT_DEFAULTS, agent_config_ids: [1] };

  it("moves the busybox default to a glibc image once Claude Code runs the written tasks, and only then", () => {
    expect(followHarness(written, agents).image).toBe(EXPERIMENT_DEFAULTS.image);
    expect(followHarness({ ...written, agent_config_ids: [1, 2] }, agents).image).toBe(GLIBC_IMAGE);
    expect(followHarness({ ...written, agent_config_ids: [2], image: "my/image:1" }, agents).image).toBe("my/image:1");
    const set = { id: 6, name: "s", version: 1, runnable_count: 1 } as TaskSetSummary;
    expect(followHarness({ ...written, agent_config_ids: [2], task_set: set }, agents).image).toBe(
      EXPERIMENT_DEFAULTS.image,
    );
  });

  it("estimates a design whose only gap is its name", () => {
    const fields = { ...written, name: " ", skill_version_ids: [3], tasks: "a | b | true" };
    expect(estimateDesign(fields).ok).toBe(true);
    expect(parseExperiment(fields).ok).toBe(false);
  });

  it("lists a chosen skill version the options lack", () => {
    expect(withChosen([[1, "pdf v2"]], [1, 9])).toEqual([
      [1, "pdf v2"],
      [9, "Older version (id 9)"],
    ]);
  });
});

describe("agent run form", () => {
  it("builds the request, blank options as null", () => {
    const result = parseAgentRun({
      ...AGENT_RUN_DEFAULTS,
      agent_config_id: "7",
      instruction: " fix it ",
      skill_version_ids: [3, 4],
      repeats: "5",
    });
    expect(result).toEqual({
      ok: true,
      value: {
        name: "",
        agent_config_id: 7,
        instruction: "fix it",
        image: "skillscope/busybox:1",
        workspace: null,
        verifier: null,
        skill_version_ids: [3, 4],
        repeats: 5,
      },
    });
    const withOptions = parseAgentRun({
      ...AGENT_RUN_DEFAULTS,
      agent_config_id: "1",
      instruction: "x",
      workspace: " /w ",
      verifier: "test -f out",
    });
    expect(withOptions.ok && withOptions.value).toMatchObject({
      workspace: "/w",
      verifier: "test -f out",
      skill_version_ids: [],
    });
  });

  it("needs a configuration, an instruction, an image and 1 to 100 repeats", () => {
    const result = parseAgentRun({ ...AGENT_RUN_DEFAULTS, image: " ", repeats: "101" });
    expect(problems(result)).toHaveLength(4);
  });
});

describe("experiment form", () => {
  const filled = {
    ...EXPERIMENT_DEFAULTS,
    name: " e1 ",
    skill_version_ids: [3],
    decoy_version_ids: [5],
    agent_config_ids: [7],
    tasks: 'hello | Write hello | test -f out.txt\n\n  b | Sum | [ "$(cat s)" = 3 ] || exit 1 ',
    workspace: " /w ",
  };

  it("builds the design, each task a verifier run with sh -c, decoys only for the group condition", () => {
    const result = parseExperiment(filled);
    expect(result).toEqual({
      ok: true,
      value: {
        name: "e1",
        skill_version_ids: [3],
        decoy_version_ids: [],
        agent_config_ids: [7],
        conditions: ["isolated"],
        repeats: 3,
        only: [],
        judge: null,
        task_set_id: null,
        tasks: [
          {
            id: "hello",
            instruction: "Write hello",
            image: "skillscope/busybox:1",
            workspace: "/w",
            verifier: ["sh", "-c", "test -f out.txt"],
            scoring: null,
            dockerfile_context: null,
            verifier_in_place: false,
            accepted_skill_paths: [],
            settings: DEFAULT_TASK_SETTINGS,
          },
          {
            id: "b",
            instruction: "Sum",
            image: "skillscope/busybox:1",
            workspace: "/w",
            verifier: ["sh", "-c", '[ "$(cat s)" = 3 ] || exit 1'],
            scoring: null,
            dockerfile_context: null,
            verifier_in_place: false,
            accepted_skill_paths: [],
            settings: DEFAULT_TASK_SETTINGS,
          },
        ],
      },
    });
    const group = parseExperiment({ ...filled, conditions: ["isolated", "group"] });
    expect(group.ok && group.value.decoy_version_ids).toEqual([5]);
  });

  it("reports every missing part, bad task lines and a decoy that is also evaluated", () => {
    const empty = parseExperiment({ ...EXPERIMENT_DEFAULTS, conditions: ["group"], repeats: "0" });
    expect(problems(empty)).toHaveLength(6);
    const bad = parseExperiment({
      ...filled,
      conditions: ["group"],
      decoy_version_ids: [3],
      tasks: "a | x | true\na | y | true\nc | z",
    });
    expect(problems(bad)).toEqual([
      "A skill cannot be both evaluated and a decoy.",
      'Task line 2 repeats the id "a".',
      'Task line 3 needs an id, an instruction and a verifier command, separated by "|".',
    ]);
  });

  it("names a stored task set instead of the written tasks, image and workspace", () => {
    const set = { id: 6, name: "hello", version: 2, runnable_count: 1 } as TaskSetSummary;
    const result = parseExperiment({ ...filled, task_set: set, tasks: "not | read", image: "" });
    expect(result.ok && result.value).toMatchObject({ task_set_id: 6, tasks: [] });
    const none = parseExperiment({ ...filled, task_set: { ...set, runnable_count: 0 } });
    expect(problems(none)).toEqual([
      "Task set hello v2 has no task with a deterministic verifier; choose a judge to grade its expectations.",
    ]);
    // With a judge, a set whose tasks all need one is accepted, and the design names the judge.
    const judge = { provider: "p", model: "m", prompts: "v2" as const };
    const judged = parseExperiment({ ...filled, task_set: { ...set, runnable_count: 0 }, judge });
    expect(judged.ok && judged.value.judge).toEqual(judge);
  });
});

describe("agent run form", () => {
  const config = (id: number, harness: AgentConfig["harness"]) => ({ ...agent, id, harness });

  it("moves the default busybox image to a glibc one for Claude Code, and leaves a chosen image alone", () => {
    expect(chooseConfig(AGENT_RUN_DEFAULTS, config(1, "builtin"))).toMatchObject({
      agent_config_id: "1",
      image: AGENT_RUN_DEFAULTS.image,
    });
    expect(chooseConfig(AGENT_RUN_DEFAULTS, config(2, "claude-code"))).toMatchObject({
      agent_config_id: "2",
      image: GLIBC_IMAGE,
    });
    const custom = { ...AGENT_RUN_DEFAULTS, image: "my/image:1" };
    expect(chooseConfig(custom, config(2, "claude-code")).image).toBe("my/image:1");
  });
});
