import type { SandboxRunRequest } from "../bindings/SandboxRunRequest";

/** The sandbox form's fields, as typed. */
export type SandboxForm = Record<keyof SandboxRunRequest, string>;

/** Built locally by `skillscope image bootstrap`. */
export const DEFAULT_IMAGE = "skillscope/busybox:1";

export const SANDBOX_DEFAULTS: SandboxForm = {
  name: "",
  image: DEFAULT_IMAGE,
  command: "echo hello from the sandbox",
  count: "1",
  memory_mb: "256",
  timeout_secs: "60",
};

/** The request for a filled-in form (the back end validates the values). */
export function sandboxRequest(form: SandboxForm): SandboxRunRequest {
  return {
    name: form.name.trim(),
    image: form.image.trim(),
    command: form.command,
    count: Number(form.count),
    memory_mb: Number(form.memory_mb),
    timeout_secs: Number(form.timeout_secs),
  };
}
