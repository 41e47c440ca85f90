import type { TaskSetSummary } from "../../bindings/TaskSetSummary";
import { formatDateTime } from "../../lib/format";
import { resultsHref, taskSetHref } from "../../lib/route";
import { SOURCE_KINDS } from "../../lib/taskSets";
import { Badge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { Sha } from "../shared/Sha";
import { Table, type Column } from "../shared/Table";

const columns: Column<TaskSetSummary>[] = [
  {
    header: "Task set",
    className: "col-nowrap",
    render: (s) => (
      <>
        <strong>{s.name}</strong> v{s.version}
      </>
    ),
  },
  { header: "Source", className: "col-nowrap", render: (s) => <Badge>{SOURCE_KINDS[s.source_kind]}</Badge> },
  {
    header: "Runnable / tasks",
    className: "col-num",
    render: (s) => (
      <span title="Tasks with a deterministic verifier, of all tasks in the set">
        {s.runnable_count} / {s.task_count}
      </span>
    ),
  },
  { header: "SHA-256", className: "col-nowrap", render: (s) => <Sha sha={s.sha256} /> },
  {
    header: "Source path",
    className: "col-source",
    render: (s) => <span title={s.source_path}>{s.source_path || <span className="muted">—</span>}</span>,
  },
  { header: "Used by", className: "col-nowrap", render: (s) => <ExperimentLinks ids={s.used_by} /> },
  { header: "Created", className: "col-nowrap", render: (s) => formatDateTime(s.created_at) },
];

/** Links to the experiments that ran a set's tasks; a click opens the experiment, not the set. */
function ExperimentLinks({ ids }: { ids: number[] }) {
  if (ids.length === 0) return <span className="muted">none</span>;
  return ids.map((id, i) => (
    <span key={id}>
      {i > 0 && ", "}
      <a href={resultsHref(id)} onClick={(e) => e.stopPropagation()}>
        experiment {id}
      </a>
    </span>
  ));
}

/** Every stored task set, newest first; click one to open it. */
export function TaskSetsTable({ sets, selectedId }: { sets: TaskSetSummary[]; selectedId: number | null }) {
  return (
    <Table
      testId="task-sets"
      columns={columns}
      rows={sets}
      rowKey={(s) => s.id}
      onRowClick={(s) => (window.location.hash = taskSetHref(s.id))}
      rowAttributes={(s) => ({
        "data-testid": "task-set-row",
        "data-task-set-id": String(s.id),
        "data-task-set-name": s.name,
        className: s.id === selectedId ? "clickable selected" : "clickable",
        "aria-current": s.id === selectedId ? "true" : undefined,
      })}
      empty={
        <EmptyState title="No task sets yet.">
          Import a Harbor task folder (or a folder of them), a skill's evals.json or a SWE-Skills-Bench folder above, or
          write a task. Experiments can then run the set's tasks.
        </EmptyState>
      }
    />
  );
}
