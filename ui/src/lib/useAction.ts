import { useCallback, useState } from "react";
import { toAppError } from "../api/errors";
import type { AppError } from "../bindings/AppError";

export type ActionState<T> =
  { status: "idle" } | { status: "running" } | { status: "done"; data: T } | { status: "failed"; error: AppError };

/** State of a user-triggered command (a button press): idle, running, done with its result, or failed. */
export function useAction<T>(): [ActionState<T>, (action: () => Promise<T>) => Promise<void>] {
  const [state, setState] = useState<ActionState<T>>({ status: "idle" });
  const run = useCallback(async (action: () => Promise<T>) => {
    setState({ status: "running" });
    try {
      setState({ status: "done", data: await action() });
    } catch (raw) {
      setState({ status: "failed", error: toAppError(raw) });
    }
  }, []);
  return [state, run];
}
