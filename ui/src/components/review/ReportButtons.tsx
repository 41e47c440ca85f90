import { exportReport } from "../../bindings/commands";
import type { ReportFormat } from "../../bindings/ReportFormat";
import { useAction } from "../../lib/useAction";
import { ExportResult } from "../scan/ExportButtons";

const REPORT_FORMATS: [ReportFormat, string][] = [
  ["html", "HTML"],
  ["md", "Markdown"],
  ["json", "JSON"],
];

/** Writes the skill's deployment report (utility, efficiency, safety, evidence, decisions); shows where. */
export function ReportButtons({ skillId }: { skillId: number }) {
  const [state, run] = useAction<string>();
  return (
    <div className="export-row">
      <span className="muted">Deployment report:</span>
      {REPORT_FORMATS.map(([format, label]) => (
        <button
          key={format}
          type="button"
          className="button-small"
          data-testid={`report-${format}`}
          disabled={state.status === "running"}
          onClick={() => run(() => exportReport(skillId, format))}
        >
          {label}
        </button>
      ))}
      <ExportResult state={state} testId="report-path" />
    </div>
  );
}
