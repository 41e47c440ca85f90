import type { ExperimentView } from "../../bindings/ExperimentView";
import { designText } from "../../lib/experiments";
import { formatDateTime } from "../../lib/format";
import { resultsHref } from "../../lib/route";
import { EmptyState } from "../shared/EmptyState";
import { ProgressBar } from "../shared/ProgressBar";
import { Table, type Column } from "../shared/Table";
import { OriginBadge } from "./ExperimentOrigin";

const columns: Column<ExperimentView>[] = [
  {
    header: "Experiment",
    className: "col-run-name",
    render: (experiment) => (
      <>
        <strong title={experiment.name}>{experiment.name}</strong> <OriginBadge provenance={experiment.provenance} />
      </>
    ),
  },
  { header: "Created", className: "col-nowrap", render: (e) => formatDateTime(e.created_at) },
  { header: "Design", className: "col-nowrap", render: (e) => designText(e.design) },
  {
    header: "Finished pairs",
    className: "col-progress",
    render: (e) => (
      <div
        className="run-progress scored-progress"
        title="Pairs whose two trials have both ended, of all pairs in the design"
      >
        <ProgressBar done={e.pairs_finished} total={e.pairs} label="Finished pairs" />
        <span className="run-count" data-testid="experiment-progress">
          {e.pairs_finished}/{e.pairs}
        </span>
      </div>
    ),
  },
];

/** Every experiment, newest first; click one to see its results. */
export function ExperimentsTable({
  experiments,
  selectedId,
}: {
  experiments: ExperimentView[];
  selectedId: number | null;
}) {
  return (
    <Table
      testId="experiments-table"
      columns={columns}
      rows={experiments}
      rowKey={(experiment) => experiment.id}
      onRowClick={(experiment) => (window.location.hash = resultsHref(experiment.id))}
      rowAttributes={(experiment) => ({
        "data-testid": "experiment-row",
        "data-experiment-id": String(experiment.id),
        "data-demo": String(experiment.provenance?.kind === "demo"),
        className: experiment.id === selectedId ? "clickable selected" : "clickable",
        "aria-current": experiment.id === selectedId ? "true" : undefined,
      })}
      empty={
        <EmptyState title="No experiments yet.">
          Create one with the form below; its trials run in the queue on the Runs page.
        </EmptyState>
      }
    />
  );
}
