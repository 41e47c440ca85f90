import { taskSets } from "../bindings/commands";
import type { TaskSetImport } from "../bindings/TaskSetImport";
import { AsyncView } from "../components/shared/AsyncView";
import { TaskImportForm } from "../components/tasks/TaskImportForm";
import { TaskSetPanel } from "../components/tasks/TaskSetPanel";
import { TaskSetsTable } from "../components/tasks/TaskSetsTable";
import { TaskWriteForm } from "../components/tasks/TaskWriteForm";
import { taskSetHref } from "../lib/route";
import { useAsync } from "../lib/useAsync";

/** The stored task sets that experiments run: imported or written here, listed, and one open below. */
export function TasksPage({ id }: { id: number | null }) {
  const [state, reload] = useAsync(taskSets, []);
  const stored = (result: TaskSetImport) => {
    reload();
    window.location.hash = taskSetHref(result.task_set.id);
  };
  return (
    <div className="tasks-page">
      <header className="page-header">
        <h1>Tasks</h1>
        <span className="muted">
          Tasks for experiments, stored as sets versioned by the SHA-256 of their content: importing the same tasks
          again changes nothing.
        </span>
      </header>
      <section className="panel">
        <TaskImportForm onStored={stored} />
        <TaskWriteForm onStored={stored} />
      </section>
      <section className="panel">
        <h2>Task sets</h2>
        <AsyncView state={state} what="the task sets" onRetry={reload}>
          {(sets) => <TaskSetsTable sets={sets} selectedId={id} />}
        </AsyncView>
      </section>
      {id !== null && <TaskSetPanel key={id} id={id} />}
    </div>
  );
}
