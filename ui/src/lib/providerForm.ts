import type { ApiKind } from "../bindings/ApiKind";
import type { ProviderConfig } from "../bindings/ProviderConfig";
import { formReader, type Parsed } from "./forms";

/** The provider form's fields, as typed. */
export type ProviderFields = Omit<Record<keyof ProviderConfig, string>, "api"> & { api: ApiKind };

export const API_KINDS: readonly [ApiKind, string][] = [
  ["openai_chat", "OpenAI Chat Completions"],
  ["openai_responses", "OpenAI Responses"],
  ["anthropic", "Anthropic Messages"],
  ["gemini", "Gemini"],
];

export function apiLabel(api: ApiKind): string {
  return API_KINDS.find(([kind]) => kind === api)?.[1] ?? api;
}

export type ProviderPreset = { label: string; id: string; api: ApiKind; base_url: string };

/** Well-known endpoints; choosing one only fills the form. Local servers listen on their default ports. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { label: "OpenAI", id: "openai", api: "openai_chat", base_url: "https://api.openai.com/v1" },
  { label: "Anthropic", id: "anthropic", api: "anthropic", base_url: "https://api.anthropic.com" },
  { label: "Google Gemini", id: "gemini", api: "gemini", base_url: "https://generativelanguage.googleapis.com" },
  { label: "OpenRouter", id: "openrouter", api: "openai_chat", base_url: "https://openrouter.ai/api/v1" },
  { label: "vLLM (local)", id: "vllm", api: "openai_chat", base_url: "http://127.0.0.1:8000/v1" },
  { label: "Ollama (local)", id: "ollama", api: "openai_chat", base_url: "http://127.0.0.1:11434/v1" },
  { label: "LM Studio (local)", id: "lm-studio", api: "openai_chat", base_url: "http://127.0.0.1:1234/v1" },
];

/** A new provider's fields; the limits are those of `ProviderConfig::new` in the models crate. */
export const PROVIDER_DEFAULTS: ProviderFields = {
  id: "",
  api: "openai_chat",
  base_url: "",
  max_concurrency: "4",
  timeout_secs: "120",
  max_retries: "3",
};

export function providerFields(config: ProviderConfig): ProviderFields {
  return {
    ...config,
    max_concurrency: String(config.max_concurrency),
    timeout_secs: String(config.timeout_secs),
    max_retries: String(config.max_retries),
  };
}

/** Fills in a preset's protocol and URL; its id only when the id is still blank and may change. */
export function applyPreset(fields: ProviderFields, preset: ProviderPreset, idFixed: boolean): ProviderFields {
  const id = idFixed || fields.id.trim() !== "" ? fields.id : preset.id;
  return { ...fields, id, api: preset.api, base_url: preset.base_url };
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/** The configuration the fields describe, or what is wrong with them. */
export function parseProvider(fields: ProviderFields): Parsed<ProviderConfig> {
  const r = formReader();
  const id = fields.id.trim();
  const base_url = fields.base_url.trim();
  r.check(
    ID_PATTERN.test(id),
    "The id must start with a letter or digit and hold only letters, digits, '.', '_' or '-'.",
  );
  r.check(isHttpUrl(base_url), "The base URL must be an http:// or https:// URL.");
  return r.done({
    id,
    api: fields.api,
    base_url,
    max_concurrency: r.whole(fields.max_concurrency, "Concurrency", 1),
    timeout_secs: r.whole(fields.timeout_secs, "The timeout", 1),
    max_retries: r.whole(fields.max_retries, "Retries", 0),
  });
}
