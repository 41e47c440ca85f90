// The one place that calls Tauri's invoke; the generated command wrappers (bindings/commands.ts) go through it.
import { invoke } from "@tauri-apps/api/core";
import { toAppError } from "./errors";

/** True when the page runs inside the Skillscope (Tauri) window. */
export function hasBackend(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

/** Calls a back-end command; rejects with an AppError whatever went wrong. */
export async function call<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  if (!hasBackend()) {
    throw {
      code: "internal",
      message: "the Skillscope back end is not available because this page is not running inside the Skillscope app",
    };
  }
  try {
    return await invoke<T>(command, args);
  } catch (raw) {
    throw toAppError(raw);
  }
}
