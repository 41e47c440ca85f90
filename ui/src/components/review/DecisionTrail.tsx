import type { Decision } from "../../bindings/Decision";
import type { EvidenceLink } from "../../bindings/EvidenceLink";
import { evidenceKey } from "../../lib/decisions";
import { formatDateTime } from "../../lib/format";
import { resultsHref, skillHref, taskSetHref } from "../../lib/route";
import { Badge, VerdictBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { Sha } from "../shared/Sha";

/** The skill's decisions, newest first; the trail is append-only. */
export function DecisionTrail({ decisions }: { decisions: Decision[] }) {
  return (
    <section className="panel" data-testid="decision-trail">
      <h2>Decision trail</h2>
      {decisions.length === 0 ? (
        <EmptyState title="No decision has been recorded on this skill." />
      ) : (
        <ol className="decision-trail">
          {decisions.map((d) => (
            <DecisionRow key={d.id} decision={d} />
          ))}
        </ol>
      )}
    </section>
  );
}

function DecisionRow({ decision: d }: { decision: Decision }) {
  return (
    <li
      className="decision-row"
      data-testid="decision-row"
      data-verdict={d.verdict}
      data-covers-latest={String(d.covers_latest)}
    >
      <header className="decision-head">
        <VerdictBadge verdict={d.verdict} />
        <span>
          version {d.version} <Sha sha={d.sha256} />
        </span>
        {!d.covers_latest && (
          <Badge
            tone="warning"
            testId="decision-stale"
            title="A newer version (with other content) exists; this decision was not made on it."
          >
            Does not cover the current version
          </Badge>
        )}
        <span className="muted">
          {d.reviewer} · <time dateTime={d.decided_at}>{formatDateTime(d.decided_at)}</time>
        </span>
      </header>
      <p className="decision-rationale">{d.rationale}</p>
      {d.evidence_sha256 !== null && (
        <p className="muted" data-testid="decision-evidence-sha">
          Evidence as it stood when decided: <Sha sha={d.evidence_sha256} />
        </p>
      )}
      {d.evidence.length > 0 && (
        <ul className="decision-evidence">
          {d.evidence.map((e) => (
            <li key={evidenceKey(e)}>
              <Evidence link={e} skillId={d.skill_id} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Evidence({ link, skillId }: { link: EvidenceLink; skillId: number }) {
  if (link.kind === "experiment") return <a href={resultsHref(link.id)}>{link.label}</a>;
  if (link.kind === "scan") return <a href={skillHref(skillId, "review")}>{link.label}</a>;
  if (link.kind === "task set") return <a href={taskSetHref(link.id)}>{link.label}</a>;
  return <span>{link.label}</span>;
}
