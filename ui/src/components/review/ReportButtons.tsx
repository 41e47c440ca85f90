import { exportReport } from "../../bindings/commands";
import type { ReportFormat } from "../../bindings/ReportFormat";
import { useAction } from "../../lib/useAction";
import { ExportResult } from "../scan/ExportButtons";

const REPORT_FORMATS: [ReportFormat, string][] = [
  ["html", "HTML"],
  ["md", "Markdown"],
  ["json", "JSON"],
];

/**
 * Writes the deployment report on one version of the skill (utility, efficiency, safety, evidence and
 * decisions on that version only); shows where.
 */
export function ReportButtons({ skillId, version }: { skillId: number; version: number }) {
  const [state, run] = useAction<string>();
  return (
    <div className="export-row" data-testid="report-buttons" data-version={version}>
      <span className="muted">Deployment report on version {version}:</span>
      {REPORT_FORMATS.map(([format, label]) => (
        <button
          key={format}
          type="button"
          className="button-small"
          data-testid={`report-${format}`}
          disabled={state.status === "running"}
          onClick={() => run(() => exportReport(skillId, version, format))}
        >
          {label}
        </button>
      ))}
      <ExportResult state={state} testId="report-path" />
    </div>
  );
}
