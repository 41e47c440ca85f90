import type { Dimensions } from "../../bindings/Dimensions";
import type { QualityReport } from "../../bindings/QualityReport";
import { plural } from "../../lib/format";
import { DIMENSIONS, formatDeduction, groupQualityFindings, qualityLocation } from "../../lib/qualityFindings";
import { formatQuality, scoreBand } from "../../lib/scores";
import { Badge, BAND_TONE, ScanSeverityBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { ExportButtons } from "./ExportButtons";

/** A version's quality review: overall score and grade, gate, dimension bars, findings by dimension. */
export function QualityCard({ report, versionId }: { report: QualityReport; versionId: number }) {
  const band = scoreBand(report.overall);
  const groups = groupQualityFindings(report.findings);
  return (
    <section className="panel scan-card" data-testid="quality-card">
      <h2>Quality</h2>
      <div className="scan-headline">
        <span className={`score-big score-${band}`}>{formatQuality(report.overall)}</span>
        <Badge tone={BAND_TONE[band]}>Grade {report.grade}</Badge>
        <Badge tone={report.passed_gate ? "success" : "danger"}>
          {report.passed_gate ? "Passes" : "Fails"} the quality gate ({report.gate})
        </Badge>
        <span className="muted">Skill type: {report.skill_type}</span>
      </div>
      <DimensionBars dimensions={report.dimensions} />
      {groups.length === 0 ? (
        <EmptyState title="No quality findings: every rule passed." />
      ) : (
        groups.map((g) => (
          <section key={g.dimension} className="findings-group">
            <h3>
              {g.label} <span className="muted">({plural(g.findings.length, "finding")})</span>
            </h3>
            <ul>
              {g.findings.map((f, i) => (
                <li key={i} className="scan-finding" data-testid="quality-finding" data-rule={f.rule}>
                  <div className="scan-finding-head">
                    <ScanSeverityBadge severity={f.severity} />
                    <code className="finding-code">{f.rule}</code>
                    <span className="deduction">{formatDeduction(f.deduction)}</span>
                    <span className="finding-message">{f.message}</span>
                    <code className="finding-location">{qualityLocation(f)}</code>
                  </div>
                  {f.suggestion && <p className="suggestion">Suggestion: {f.suggestion}</p>}
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
      <ExportButtons versionId={versionId} />
    </section>
  );
}

function DimensionBars({ dimensions }: { dimensions: Dimensions }) {
  return (
    <div className="dimensions">
      {DIMENSIONS.map(({ dimension, label, weight }) => {
        const value = dimensions[dimension];
        return (
          <div key={dimension} className="dimension" data-dimension={dimension}>
            <span className="dimension-label">
              {label} <span className="muted">{weight}%</span>
            </span>
            <div
              className="bar"
              role="meter"
              aria-label={label}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={value}
            >
              <div
                className={`bar-fill bar-${scoreBand(value)}`}
                style={{ width: `${Math.min(100, Math.max(0, value))}%` }}
              />
            </div>
            <span className="dimension-value">{formatQuality(value)}</span>
          </div>
        );
      })}
    </div>
  );
}
