import type { AgentConfig } from "../bindings/AgentConfig";
import type { AgentLimits } from "../bindings/AgentLimits";
import type { Harness } from "../bindings/Harness";
import { emptyToNull, formReader, type Parsed } from "./forms";

/** Mirrors `AgentLimits::default` in crates/agent/src/run.rs. */
export const DEFAULT_LIMITS: AgentLimits = {
  max_turns: 30,
  token_budget: 400_000,
  wall_timeout_secs: 1200,
  command_timeout_secs: 120,
  output_limit_bytes: 16 * 1024,
  temperature: 0,
  max_output_tokens: 4096,
};

type LimitField = "max_turns" | "token_budget" | "wall_timeout_secs" | "command_timeout_secs";

/** What each harness is called in the form (every harness has a name: the record is exhaustive). */
export const HARNESS_LABELS: Record<Harness, string> = {
  builtin: "Built-in agent (any provider)",
  "claude-code": "Claude Code CLI (Anthropic providers)",
  codex: "Codex CLI (OpenAI Responses providers)",
  opencode: "OpenCode CLI (OpenAI Chat Completions providers)",
  gemini: "Gemini CLI (Gemini providers)",
};

/** Which of the form's limits a harness honours, said under them: a CLI harness leaves some out. */
export function harnessLimitsNote(harness: Harness): string | null {
  const builtinOnly = "the token budget, command timeout and temperature apply to the built-in agent only.";
  switch (harness) {
    case "builtin":
      return null;
    case "claude-code":
      return `Claude Code keeps the turn limit (its --max-turns) and the sandbox the wall timeout; ${builtinOnly}`;
    case "gemini":
      return `Gemini CLI keeps the turn limit (its model.maxSessionTurns setting) and the sandbox the wall timeout; ${builtinOnly}`;
    case "codex":
    case "opencode":
      return `Skillscope's model proxy holds ${HARNESS_LABELS[harness].split(" (")[0]} to the turn limit, and the sandbox to the wall timeout; ${builtinOnly}`;
  }
}

/** The agent form's fields, as typed; a blank temperature leaves it to the provider. */
export type AgentFields = Record<"name" | "provider_id" | "model" | "temperature" | LimitField, string> & {
  harness: Harness;
};

/** The form's whole-number limits: field, label, minimum. */
export const LIMIT_FIELDS: readonly [LimitField, string, number][] = [
  ["max_turns", "Max turns", 1],
  ["token_budget", "Token budget", 1],
  ["wall_timeout_secs", "Wall timeout (seconds)", 1],
  ["command_timeout_secs", "Command timeout (seconds)", 1],
];

/** The fields of an existing configuration, or of a new one (no provider chosen yet). */
export function agentFields(config: AgentConfig | null): AgentFields {
  const limits = config?.limits ?? DEFAULT_LIMITS;
  return {
    name: config?.name ?? "",
    harness: config?.harness ?? "builtin",
    provider_id: config?.provider_id ?? "",
    model: config?.model ?? "",
    max_turns: String(limits.max_turns),
    token_budget: String(limits.token_budget),
    wall_timeout_secs: String(limits.wall_timeout_secs),
    command_timeout_secs: String(limits.command_timeout_secs),
    temperature: limits.temperature === null ? "" : String(limits.temperature),
  };
}

function parseTemperature(text: string): number | null | undefined {
  const trimmed = emptyToNull(text);
  if (trimmed === null) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 && value <= 2 ? value : undefined;
}

/**
 * The configuration the fields describe, or what is wrong with them. Settings the form does not
 * show (id, output limit, max output tokens) come from `base`, the one being edited.
 */
/** The provider chosen, or the first one while none is (the providers may load after the form). */
export function chosenProvider(fields: AgentFields, providerIds: string[]): string {
  return fields.provider_id !== "" ? fields.provider_id : (providerIds[0] ?? "");
}

export function parseAgent(fields: AgentFields, base: AgentConfig | null): Parsed<AgentConfig> {
  const r = formReader();
  const name = fields.name.trim();
  const model = fields.model.trim();
  const temperature = parseTemperature(fields.temperature);
  r.check(name !== "", "Give the configuration a name.");
  r.check(fields.provider_id !== "", "Choose a provider.");
  r.check(model !== "", "Name the model, e.g. the one the provider lists.");
  r.check(
    temperature !== undefined,
    "The temperature must be a number from 0 to 2, or blank for the provider's default.",
  );
  const [turns, budget, wall, command] = LIMIT_FIELDS.map(([key, label, min]) => r.whole(fields[key], label, min));
  return r.done({
    id: base?.id ?? 0,
    name,
    harness: fields.harness,
    provider_id: fields.provider_id,
    model,
    limits: {
      ...(base?.limits ?? DEFAULT_LIMITS),
      max_turns: turns,
      token_budget: budget,
      wall_timeout_secs: wall,
      command_timeout_secs: command,
      temperature: temperature ?? null,
    },
  });
}
