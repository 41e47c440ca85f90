import { useEffect, useRef, useState } from "react";
import { importTrajectory, listTrajectories, trajectorySummary } from "../bindings/commands";
import type { ImportedTrajectory } from "../bindings/ImportedTrajectory";
import type { TrajectorySummary } from "../bindings/TrajectorySummary";
import { AsyncView } from "../components/shared/AsyncView";
import { ErrorPanel } from "../components/shared/ErrorPanel";
import { PathField } from "../components/shared/PathField";
import { useFileDrop } from "../lib/useFileDrop";
import { Pager } from "../components/shared/Pager";
import { Table, type Column } from "../components/shared/Table";
import { TRAJECTORY_COLUMNS } from "../components/trajectories/trajectoryColumns";
import { TrajectorySteps } from "../components/trajectories/TrajectorySteps";
import { trajectoryHref } from "../lib/route";
import { useAction } from "../lib/useAction";
import { useAsync } from "../lib/useAsync";
import { useDebounced } from "../lib/useDebounced";

const columns: Column<TrajectorySummary>[] = [
  { header: "Trajectory", render: (t) => <strong>{t.label}</strong> },
  {
    header: "From",
    className: "col-nowrap",
    render: (t) => (t.trial_id === null ? "imported file" : `trial ${t.trial_id}, attempt ${t.attempt ?? 1}`),
  },
  ...TRAJECTORY_COLUMNS,
];

/** Trajectories listed at a time. */
const PAGE_SIZE = 50;

/** Every agent trajectory in the workspace (trials' and imported ATIF files), a page at a time; one open below. */
export function TrajectoriesPage({ id, stepId }: { id: number | null; stepId: number | null }) {
  const [search, setSearch] = useState("");
  const applied = useDebounced(search.trim(), 200);
  // A new search starts at its first page.
  const [paging, setPaging] = useState({ search: "", offset: 0 });
  const offset = paging.search === applied ? paging.offset : 0;
  const [state, reload] = useAsync(
    () => listTrajectories({ offset, limit: PAGE_SIZE, search: applied }),
    [offset, applied],
  );
  const open = (trajectoryId: number) => (window.location.hash = trajectoryHref(trajectoryId));
  const panel = useRef<HTMLElement>(null);
  // The open trajectory comes into view when it changes. (Braces: newer Chromium returns a promise from
  // scrollIntoView, which React would take for a clean-up function.)
  useEffect(() => {
    panel.current?.scrollIntoView?.({ block: "start" });
  }, [id]);
  return (
    <>
      <header className="page-header">
        <h1>Trajectories</h1>
        <span className="muted">
          What agents did, step by step: from trials, and ATIF files from Harbor, SkillEvaluator or other tools.
        </span>
      </header>
      <ImportForm
        onImported={(imported) => {
          reload();
          open(imported.id);
        }}
      />
      <section className="panel">
        <div className="toolbar">
          <input
            type="search"
            className="search"
            data-testid="trajectory-search"
            placeholder="Find by trial or file name…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          {state.status === "ready" && (
            <Pager
              offset={state.data.offset}
              shown={state.data.items.length}
              total={state.data.total}
              pageSize={PAGE_SIZE}
              onOffset={(next) => setPaging({ search: applied, offset: next })}
            />
          )}
        </div>
        <div className="trajectory-list">
          <AsyncView state={state} what="the trajectories" onRetry={reload}>
            {(page) => (
              <Table
                testId="trajectory-list"
                columns={columns}
                rows={page.items}
                rowKey={(t) => t.id}
                onRowClick={(t) => open(t.id)}
                empty={
                  applied === ""
                    ? "No trajectories yet: run an agent from the Runs page, or import an ATIF file above."
                    : "No trajectory has this in its name."
                }
                rowAttributes={(t) => ({
                  "data-testid": "trajectory-list-row",
                  "data-trajectory-id": String(t.id),
                  className: t.id === id ? "clickable selected" : "clickable",
                })}
              />
            )}
          </AsyncView>
        </div>
      </section>
      {id !== null && (
        <section className="panel" data-testid="trajectory-panel" ref={panel}>
          <OpenTrajectoryHeader id={id} />
          <TrajectorySteps
            key={id}
            trajectoryId={id}
            focusStepId={stepId}
            linkTo={(step) => trajectoryHref(id, step)}
          />
        </section>
      )}
    </>
  );
}

function OpenTrajectoryHeader({ id }: { id: number }) {
  const [state] = useAsync(() => trajectorySummary(id), [id]);
  const summary = state.status === "ready" ? state.data : null;
  return (
    <div className="panel-header">
      <h2>{summary?.label ?? `Trajectory ${id}`}</h2>
      {summary?.trial_id != null && <span className="muted">from trial {summary.trial_id}</span>}
    </div>
  );
}

/** Imports an ATIF file by its path; a file that breaks ATIF rules is kept, and the broken rules are listed. */
function ImportForm({ onImported }: { onImported: (imported: ImportedTrajectory) => void }) {
  const [path, setPath] = useState("");
  useFileDrop(setPath, ["json"]);
  const [state, run] = useAction<ImportedTrajectory>();
  const submit = () =>
    run(async () => {
      const imported = await importTrajectory(path.trim());
      onImported(imported);
      return imported;
    });
  return (
    <section className="panel">
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <PathField
          label="Import an ATIF file (path)"
          testId="trajectory-import-path"
          value={path}
          onChange={setPath}
          placeholder="/path/to/trajectory.json"
          pick="file"
          filters={[{ name: "ATIF trajectories", extensions: ["json"] }]}
          pickTestId="trajectory-pick"
        />
        <button
          type="submit"
          data-testid="trajectory-import"
          disabled={path.trim() === "" || state.status === "running"}
        >
          {state.status === "running" ? "Importing…" : "Import"}
        </button>
      </form>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="trajectory-import-error" />}
      {state.status === "done" && state.data.violations.length > 0 && (
        <div className="notice" data-testid="trajectory-violations">
          <strong>Imported, but the file breaks {state.data.violations.length} ATIF rule(s):</strong>
          <ul className="problems">
            {state.data.violations.map((v, i) => (
              <li key={i}>
                {v.step === null ? "document" : `step ${v.step}`}: {v.rule}: {v.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
