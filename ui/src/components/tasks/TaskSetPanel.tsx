import { useEffect, useRef } from "react";
import { taskSet } from "../../bindings/commands";
import type { TaskSetDetail } from "../../bindings/TaskSetDetail";
import { formatDateTime } from "../../lib/format";
import { sectionHref } from "../../lib/route";
import { SOURCE_KINDS, taskSetName } from "../../lib/taskSets";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { ImportErrors } from "./ImportErrors";
import { TasksTable } from "./TasksTable";

/** One stored task set: what it is, what did not import, and its tasks. */
export function TaskSetPanel({ id }: { id: number }) {
  const [state, reload] = useAsync(() => taskSet(id), [id]);
  const panel = useRef<HTMLElement>(null);
  // The open set comes into view when it changes.
  useEffect(() => {
    panel.current?.scrollIntoView?.({ block: "start" });
  }, [id]);
  return (
    <section className="panel" data-testid="task-set-detail" data-task-set-id={id} ref={panel}>
      <AsyncView state={state} what="the task set" onRetry={reload}>
        {(detail) => <TaskSetView detail={detail} onReviewed={reload} />}
      </AsyncView>
    </section>
  );
}

function TaskSetView({
  detail: { summary, tasks, specs },
  onReviewed,
}: {
  detail: TaskSetDetail;
  onReviewed: () => void;
}) {
  const drafts = summary.source_kind === "generated" ? { taskSetId: summary.id, onReviewed } : null;
  return (
    <>
      <header className="panel-header">
        <h2>{taskSetName(summary)}</h2>
        <span>
          <a href={sectionHref("results")} data-testid="task-set-use">
            Use in an experiment
          </a>{" "}
          <span className="muted">(choose it under “Tasks from” in the Results page’s New experiment form)</span>
        </span>
      </header>
      <dl className="props props-inline">
        <div className="prop">
          <dt>SHA-256</dt>
          <dd>
            <code data-testid="task-set-sha">{summary.sha256}</code>
          </dd>
        </div>
        <div className="prop">
          <dt>Source</dt>
          <dd>
            {SOURCE_KINDS[summary.source_kind]}
            {summary.source_path && ` · ${summary.source_path}`}
          </dd>
        </div>
        <div className="prop">
          <dt>Created</dt>
          <dd>{formatDateTime(summary.created_at)}</dd>
        </div>
      </dl>
      {summary.errors.length > 0 && (
        <div className="notice notice-warning" data-testid="task-set-errors">
          <ImportErrors errors={summary.errors} lineTestId="task-set-error-line" />
        </div>
      )}
      <TasksTable tasks={tasks} specs={specs} drafts={drafts} />
    </>
  );
}
