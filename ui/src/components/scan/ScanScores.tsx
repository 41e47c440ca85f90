import type { ScanSummary } from "../../bindings/ScanSummary";
import { formatQuality, scoreBand } from "../../lib/scores";
import { Badge, BAND_TONE } from "../shared/Badge";

function NotScanned() {
  return (
    <span className="muted" title="not scanned yet">
      —
    </span>
  );
}

/** Table cell: quality score and grade, e.g. "87.3 B"; a grey dash before the first scan. */
export function QualityScore({ scan }: { scan: ScanSummary | null }) {
  if (!scan) return <NotScanned />;
  const band = scoreBand(scan.quality);
  return (
    <span title={scan.passed_gate ? "passes the quality gate" : "below the quality gate"}>
      <span className={`score score-${band}`}>{formatQuality(scan.quality)}</span>{" "}
      <Badge tone={BAND_TONE[band]}>{scan.grade}</Badge>
    </span>
  );
}

/** Table cell: security score (0..100) with a "Risky" badge; a grey dash before the first scan. */
export function SecurityScore({ scan }: { scan: ScanSummary | null }) {
  if (!scan) return <NotScanned />;
  return (
    <span>
      <span className={`score score-${scoreBand(scan.security)}`}>{scan.security}</span>
      {scan.risky && (
        <>
          {" "}
          <Badge tone="danger">Risky</Badge>
        </>
      )}
    </span>
  );
}
