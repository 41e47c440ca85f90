import type { ExperimentView, PairView } from "../api/types";
import { designPairs, designText, pairProgress } from "../lib/experiments";
import { formatDateTime } from "../lib/format";
import { resultsHref } from "../lib/route";
import { EmptyState } from "./EmptyState";
import { OriginBadge } from "./ExperimentOrigin";
import { ProgressBar } from "./ProgressBar";
import { Table, type Column } from "./Table";

/** An experiment with its pairs as they stand. */
export type ExperimentEntry = { experiment: ExperimentView; pairs: PairView[] };

const columns: Column<ExperimentEntry>[] = [
  {
    header: "Experiment",
    className: "col-run-name",
    render: ({ experiment }) => (
      <>
        <strong title={experiment.name}>{experiment.name}</strong> <OriginBadge provenance={experiment.provenance} />
      </>
    ),
  },
  { header: "Created", className: "col-nowrap", render: ({ experiment }) => formatDateTime(experiment.created_at) },
  { header: "Design", className: "col-nowrap", render: ({ experiment }) => designText(experiment.design) },
  {
    header: "Scored pairs",
    className: "col-progress",
    render: ({ experiment, pairs }) => {
      const total = designPairs(experiment.design);
      const { scored } = pairProgress(pairs);
      return (
        <div className="run-progress scored-progress" title="Pairs with both arms finished cleanly and fair, of all pairs in the design">
          <ProgressBar done={scored} total={total} label="Scored pairs" />
          <span className="run-count" data-testid="experiment-progress">
            {scored}/{total}
          </span>
        </div>
      );
    },
  },
];

/** Every experiment, newest first; click one to see its results. */
export function ExperimentsTable({ entries, selectedId }: { entries: ExperimentEntry[]; selectedId: number | null }) {
  return (
    <Table
      testId="experiments-table"
      columns={columns}
      rows={entries}
      rowKey={({ experiment }) => experiment.id}
      onRowClick={({ experiment }) => (window.location.hash = resultsHref(experiment.id))}
      rowAttributes={({ experiment }) => ({
        "data-testid": "experiment-row",
        "data-experiment-id": String(experiment.id),
        "data-demo": String(experiment.provenance?.kind === "demo"),
        className: experiment.id === selectedId ? "clickable selected" : "clickable",
        "aria-current": experiment.id === selectedId ? "true" : undefined,
      })}
      empty={<EmptyState title="No experiments yet.">Create one with the form below; its trials run in the queue on the Runs page.</EmptyState>}
    />
  );
}
