import { taskSets } from "../../bindings/commands";
import type { TaskSetSummary } from "../../bindings/TaskSetSummary";
import { plural } from "../../lib/format";
import { taskSetHref } from "../../lib/route";
import { taskSetOption } from "../../lib/taskSets";
import { useAsync } from "../../lib/useAsync";
import { ErrorPanel } from "../shared/ErrorPanel";
import { SelectField } from "../shared/SelectField";

/** The option of the tasks written in the experiment form. */
const WRITTEN = "";

type Props = { value: TaskSetSummary | null; onChange: (set: TaskSetSummary | null) => void; disabled: boolean };

/** Where an experiment's tasks come from: written in the form, or a stored task set from the Tasks page. */
export function TaskSourceSelect({ value, onChange, disabled }: Props) {
  const [state, reload] = useAsync(taskSets, []);
  const sets = state.status === "ready" ? state.data : [];
  const options: [string, string][] = [
    [WRITTEN, "Written here"],
    ...sets.map((s): [string, string] => [String(s.id), taskSetOption(s)]),
  ];
  return (
    <>
      <SelectField
        label="Tasks from"
        testId="experiment-task-source"
        options={options}
        value={value === null ? WRITTEN : String(value.id)}
        onChange={(id) => onChange(sets.find((s) => String(s.id) === id) ?? null)}
        disabled={disabled}
        hint={
          value && (
            <>
              {value.runnable_count} of {plural(value.task_count, "task")} run, each in the environment the set gives
              it; the others have no deterministic verifier and are left out.{" "}
              <a href={taskSetHref(value.id)}>Open the set</a>
            </>
          )
        }
      />
      {state.status === "error" && (
        <ErrorPanel error={state.error} onRetry={reload} testId="experiment-task-sets-error" />
      )}
    </>
  );
}
