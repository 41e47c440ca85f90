import { openPath, revealItemInDir } from "@tauri-apps/plugin-opener";
import { exportScans } from "../../bindings/commands";
import type { ExportFormat } from "../../bindings/ExportFormat";
import { useAction, type ActionState } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";

export const EXPORT_FORMATS: [ExportFormat, string][] = [
  ["json", "JSON"],
  ["sarif", "SARIF"],
  ["md", "Markdown"],
];

/** Export buttons for one version's scan report; shows where the file was saved. */
export function ExportButtons({ versionId }: { versionId: number }) {
  const [state, run] = useAction<string>();
  return (
    <div className="export-row">
      <span className="muted">Export:</span>
      {EXPORT_FORMATS.map(([format, label]) => (
        <button
          key={format}
          type="button"
          className="button-small"
          data-testid={`export-${format}`}
          disabled={state.status === "running"}
          onClick={() => run(() => exportScans([versionId], format))}
        >
          {label}
        </button>
      ))}
      <ExportResult state={state} testId="export-path" />
    </div>
  );
}

/** "Saved to <path>" with Open and Show in folder once an export is written, or why it failed. */
export function ExportResult({ state, testId }: { state: ActionState<string>; testId: string }) {
  if (state.status === "running") return <span className="muted">Exporting…</span>;
  if (state.status === "failed") return <ErrorPanel error={state.error} />;
  if (state.status === "done") return <SavedFile path={state.data} testId={testId} />;
  return null;
}

function SavedFile({ path, testId }: { path: string; testId: string }) {
  const [opening, runOpen] = useAction<void>();
  return (
    <span className="export-path" data-testid={testId}>
      Saved to <code>{path}</code>{" "}
      <button
        type="button"
        className="button-ghost"
        data-testid="export-open"
        onClick={() => void runOpen(() => openPath(path))}
      >
        Open
      </button>{" "}
      <button
        type="button"
        className="button-ghost"
        data-testid="export-reveal"
        onClick={() => void runOpen(() => revealItemInDir(path))}
      >
        Show in folder
      </button>
      {opening.status === "failed" && <ErrorPanel error={opening.error} testId="export-open-error" />}
    </span>
  );
}
