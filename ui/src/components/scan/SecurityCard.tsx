import type { SecurityFinding } from "../../bindings/SecurityFinding";
import type { SecurityReport } from "../../bindings/SecurityReport";
import { plural } from "../../lib/format";
import { scoreBand } from "../../lib/scores";
import {
  formatConfidence,
  groupSecurityFindings,
  securityLocation,
  securityVerdict,
  type SecurityVerdict,
} from "../../lib/securityFindings";
import { Badge, ScanSeverityBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { ExportButtons } from "./ExportButtons";
import { ModelReview } from "./ModelReview";

/** A version's security review: score, verdict, the model review, findings by category with evidence. */
type Props = { report: SecurityReport; versionId: number; onReviewed: () => void };

export function SecurityCard({ report, versionId, onReviewed }: Props) {
  const verdict = securityVerdict(report);
  const groups = groupSecurityFindings(report.findings);
  return (
    <section className="panel scan-card" data-testid="security-card" data-verdict={verdict}>
      <h2>Security</h2>
      <div className="scan-headline">
        <span className={`score-big score-${scoreBand(report.score)}`}>
          {report.score}
          <span className="score-max">/100</span>
        </span>
        <VerdictBadge verdict={verdict} />
      </div>
      <ModelReview versionId={versionId} pass={report.semantic_pass} onReviewed={onReviewed} />
      {groups.length === 0 ? (
        <EmptyState title="No security findings." />
      ) : (
        groups.map((g) => (
          <section key={g.category} className="findings-group">
            <h3>
              {g.label} <span className="muted">({plural(g.findings.length, "finding")})</span>
            </h3>
            <ul>
              {g.findings.map((f, i) => (
                <SecurityFindingItem key={i} finding={f} />
              ))}
            </ul>
          </section>
        ))
      )}
      <ExportButtons versionId={versionId} />
    </section>
  );
}

function VerdictBadge({ verdict }: { verdict: SecurityVerdict }) {
  switch (verdict) {
    case "risky":
      return (
        <Badge tone="danger" testId="risky-badge">
          Risky
        </Badge>
      );
    case "no-risk":
      return <Badge tone="success">No risk found</Badge>;
    case "not-risky":
      return <Badge>Not risky</Badge>;
  }
}

function SecurityFindingItem({ finding: f }: { finding: SecurityFinding }) {
  return (
    <li className="scan-finding" data-testid="security-finding" data-pattern={f.pattern} data-severity={f.severity}>
      <div className="scan-finding-head">
        <ScanSeverityBadge severity={f.severity} />
        <code className="finding-code">{f.pattern}</code>
        <span className="muted">{formatConfidence(f.confidence)} confidence</span>
        <span className="finding-message">{f.message}</span>
        <code className="finding-location">{securityLocation(f)}</code>
      </div>
      <pre className="evidence">
        <code>
          <span className="evidence-line" title="the offending line">
            <span className="evidence-num">{f.line}</span>
            {f.evidence}
          </span>
        </code>
      </pre>
      {f.decoded !== null && (
        <div className="decoded" data-testid="decoded-hidden">
          <strong>Hidden text (decoded):</strong>
          <pre>{f.decoded}</pre>
        </div>
      )}
    </li>
  );
}
