import { useState } from "react";
import type { Parsed } from "./forms";
import { useAction, type ActionState } from "./useAction";

export type Submission = { problems: string[]; state: ActionState<void> };

/** Submitting a form read into a `Parsed` value: problems stop it, a good value is saved as an action. */
export function useSubmit<T>(save: (value: T) => Promise<void>): [Submission, (parsed: Parsed<T>) => void] {
  const [problems, setProblems] = useState<string[]>([]);
  const [state, run] = useAction<void>();
  const submit = (parsed: Parsed<T>) => {
    setProblems(parsed.ok ? [] : parsed.problems);
    if (parsed.ok) run(() => save(parsed.value));
  };
  return [{ problems, state }, submit];
}
