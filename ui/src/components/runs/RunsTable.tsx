import type { Provenance } from "../../bindings/Provenance";
import type { RunView } from "../../bindings/RunView";
import { formatDateTime } from "../../lib/format";
import { countFinished, countTotal } from "../../lib/trialStates";
import { OriginBadge } from "../experiments/ExperimentOrigin";
import { EmptyState } from "../shared/EmptyState";
import { Table, type Column } from "../shared/Table";
import { RunProgress } from "./RunProgress";

type Props = {
  runs: RunView[];
  /** Runs of imported experiments (the demo's among them). */
  origins: Map<number, Provenance>;
  selectedId: number | null;
  onSelect: (runId: number) => void;
  onCancel: (runId: number) => void;
};

/** Every run, newest first, with its progress; click one to see its trials. */
export function RunsTable({ runs, origins, selectedId, onSelect, onCancel }: Props) {
  const columns: Column<RunView>[] = [
    {
      header: "Run",
      className: "col-run-name",
      render: (r) => (
        <>
          <strong title={r.name}>{r.name}</strong> <OriginBadge provenance={origins.get(r.id)} />
        </>
      ),
    },
    { header: "Created", className: "col-nowrap", render: (r) => formatDateTime(r.created_at) },
    { header: "Progress", className: "col-progress", render: (r) => <RunProgress counts={r.counts} /> },
    {
      header: "",
      className: "col-nowrap",
      render: (r) =>
        countFinished(r.counts) < countTotal(r.counts) && (
          <button
            type="button"
            className="button-small"
            data-testid="cancel-run"
            onClick={(e) => {
              e.stopPropagation();
              onCancel(r.id);
            }}
          >
            Cancel run
          </button>
        ),
    },
  ];
  return (
    <Table
      testId="runs-table"
      columns={columns}
      rows={runs}
      rowKey={(r) => r.id}
      onRowClick={(r) => onSelect(r.id)}
      rowAttributes={(r) => ({
        "data-testid": "run-row",
        "data-run-id": String(r.id),
        "data-demo": String(origins.get(r.id)?.kind === "demo"),
        className: r.id === selectedId ? "clickable selected" : "clickable",
        "aria-current": r.id === selectedId ? "true" : undefined,
      })}
      empty={<EmptyState title="No runs yet.">Queue a sandbox or agent run above.</EmptyState>}
    />
  );
}
