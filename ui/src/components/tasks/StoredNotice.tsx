import type { TaskSetImport } from "../../bindings/TaskSetImport";
import { plural } from "../../lib/format";
import { storedText } from "../../lib/taskSets";
import { ImportErrors } from "./ImportErrors";

/** What storing tasks did: the set they are in (new, or stored before), and the source's tasks that did not import. */
export function StoredNotice({ result, testId }: { result: TaskSetImport; testId: string }) {
  const { task_set: set, errors } = result;
  return (
    <div
      className={errors.length > 0 ? "notice notice-warning" : "notice notice-success"}
      data-testid={testId}
      data-reused={String(result.reused)}
    >
      <strong>{storedText(result)}</strong>{" "}
      <span className="muted">
        ({set.runnable_count} runnable of {plural(set.task_count, "task")})
      </span>
      <ImportErrors errors={errors} lineTestId="task-import-error-line" />
    </div>
  );
}
