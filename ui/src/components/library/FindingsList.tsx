import type { Finding } from "../../bindings/Finding";
import { findingLocation, groupFindings } from "../../lib/findings";
import { plural } from "../../lib/format";
import { SeverityBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";

const GROUP_TITLE = { error: "Errors", warning: "Warnings", info: "Info" } as const;

/** Validation findings grouped by severity, each with its file:line. */
export function FindingsList({ findings }: { findings: Finding[] }) {
  const groups = groupFindings(findings);
  if (groups.length === 0) {
    return <EmptyState title="No findings: this version passed every validation check." />;
  }
  return (
    <div className="findings">
      {groups.map((g) => (
        <section key={g.severity} className="findings-group">
          <h3>
            {GROUP_TITLE[g.severity]} <span className="muted">({plural(g.findings.length, "finding")})</span>
          </h3>
          <ul>
            {g.findings.map((f, i) => (
              <li key={i} className="finding">
                <SeverityBadge severity={f.severity} />
                <code className="finding-code">{f.code}</code>
                <span className="finding-message">{f.message}</span>
                {findingLocation(f) && <code className="finding-location">{findingLocation(f)}</code>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
