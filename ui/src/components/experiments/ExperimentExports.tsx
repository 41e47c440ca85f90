import { exportExperimentCsv } from "../../bindings/commands";
import type { CsvTable } from "../../bindings/CsvTable";
import { runToOutcome } from "../../api/jobs";
import { useAction } from "../../lib/useAction";
import { ExportResult } from "../scan/ExportButtons";

const CSV_TABLES: [CsvTable, string][] = [
  ["pairs", "Pairs (CSV)"],
  ["trials", "Trials (CSV)"],
];

/**
 * Writes the experiment to the workspace's exports folder: its pairs or trials as CSV, or a bundle
 * (no keys, no local paths) that another workspace imports; shows where, with Open and Show in folder.
 */
export function ExperimentExports({ experimentId }: { experimentId: number }) {
  const [state, run] = useAction<string>();
  const bundle = async () =>
    (await runToOutcome({ kind: "bundle_export", experiment_id: experimentId, path: null }, () => {})).path;
  return (
    <div className="export-row" data-testid="experiment-exports">
      <span className="muted">Export:</span>
      {CSV_TABLES.map(([table, label]) => (
        <button
          key={table}
          type="button"
          className="button-small"
          data-testid={`experiment-csv-${table}`}
          disabled={state.status === "running"}
          onClick={() => run(() => exportExperimentCsv(experimentId, table))}
        >
          {label}
        </button>
      ))}
      <button
        type="button"
        className="button-small"
        data-testid="experiment-bundle-export"
        disabled={state.status === "running"}
        onClick={() => run(bundle)}
      >
        Bundle
      </button>
      <ExportResult state={state} testId="experiment-export-path" />
    </div>
  );
}
