// Wording for the container engine's state, shared by the Runs and Settings pages.
import type { EngineState } from "../bindings/EngineState";
import type { Tone } from "../components/shared/Badge";

export const ENGINE_STATE: Record<EngineState, { label: string; tone: Tone }> = {
  running: { label: "Running", tone: "success" },
  not_installed: { label: "Not installed", tone: "danger" },
  not_running: { label: "Not running", tone: "danger" },
  no_permission: { label: "No permission", tone: "danger" },
};

/** `sha256:0123456789ab…` → `0123456789ab`: enough to tell images apart. */
export function shortImageId(id: string): string {
  return id.replace(/^sha256:/, "").slice(0, 12);
}
