import { useCallback, useEffect, useRef, useState, type DependencyList } from "react";
import { toAppError } from "../api/errors";
import type { AppError } from "../bindings/AppError";

export type AsyncState<T> = { status: "loading" } | { status: "error"; error: AppError } | { status: "ready"; data: T };

/**
 * Runs `load` whenever `deps` change; returns its state and a reload function.
 * A reload keeps showing the current data until the new data arrives.
 */
export function useAsync<T>(load: () => Promise<T>, deps: DependencyList): [AsyncState<T>, () => void] {
  const [state, setState] = useState<AsyncState<T>>({ status: "loading" });
  const [generation, setGeneration] = useState(0);
  const reloading = useRef(false);
  const reload = useCallback(() => {
    reloading.current = true;
    setGeneration((g) => g + 1);
  }, []);

  useEffect(() => {
    let current = true;
    if (!reloading.current) setState({ status: "loading" });
    reloading.current = false;
    load().then(
      (data) => current && setState({ status: "ready", data }),
      (raw: unknown) => current && setState({ status: "error", error: toAppError(raw) }),
    );
    return () => {
      current = false;
    };
    // The caller's `deps` say when to load again, as with useEffect; `load` is the caller's closure.
    // oxlint-disable-next-line react/exhaustive-deps
  }, [...deps, generation]);

  return [state, reload];
}
