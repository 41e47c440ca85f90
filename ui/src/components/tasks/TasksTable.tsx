import { useState } from "react";
import type { TaskBrief } from "../../bindings/TaskBrief";
import type { TaskSpec } from "../../bindings/TaskSpec";
import { Badge } from "../shared/Badge";
import { Table, type Column } from "../shared/Table";
import type { Drafts } from "./DraftReviewForm";
import { TaskDetail, TaskTitle } from "./TaskDetail";

const columns: Column<TaskBrief>[] = [
  {
    header: "Task",
    className: "col-nowrap",
    render: (t) => <TaskTitle task={t} />,
  },
  {
    header: "Verifier",
    className: "col-description",
    render: (t) => (
      <span title={t.verifier}>
        {t.review !== null && (
          <Badge tone={t.review.verdict === "approved" ? "success" : "danger"}>{t.review.verdict}</Badge>
        )}
        {!t.runnable && <Badge tone="warning">no verifier</Badge>}
        {t.sanity?.state === "flagged" && (
          <Badge tone="danger" title={t.sanity.problems.join("; ")}>
            verifier flagged
          </Badge>
        )}
        {t.sanity?.state === "pending" && <Badge>verifier being checked</Badge>} {t.verifier}
      </span>
    ),
  },
  { header: "Environment", className: "col-nowrap", render: (t) => <code>{t.environment}</code> },
  {
    header: "Warnings",
    className: "col-num",
    render: (t) =>
      t.warnings.length > 0 ? <Badge tone="warning">{t.warnings.length}</Badge> : <span className="muted">0</span>,
  },
];

/** The tasks of a set; a click on one shows it whole below the table, another click folds it away. */
export function TasksTable({ tasks, specs, drafts }: { tasks: TaskBrief[]; specs: TaskSpec[]; drafts: Drafts }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const open = tasks.find((t) => t.id === openId);
  return (
    <>
      <Table
        testId="tasks"
        columns={columns}
        rows={tasks}
        rowKey={(t) => t.id}
        onRowClick={(t) => setOpenId(t.id === openId ? null : t.id)}
        rowAttributes={(t) => ({
          "data-testid": "task-row",
          "data-task-id": t.id,
          "data-runnable": String(t.runnable),
          "data-review": drafts === null ? "" : (t.review?.verdict ?? "draft"),
          "data-sanity": t.sanity?.state ?? "",
          className: t.id === openId ? "clickable selected" : "clickable",
          "aria-expanded": t.id === openId,
        })}
        empty="This set has no tasks."
      />
      {open && <TaskDetail brief={open} spec={specs.find((s) => s.id === open.id)} drafts={drafts} />}
    </>
  );
}
