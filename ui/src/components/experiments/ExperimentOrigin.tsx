import type { Provenance } from "../../bindings/Provenance";
import { originLabel } from "../../lib/experiments";
import { Badge } from "../shared/Badge";

/** "Demo" or "Imported" for an experiment that was not run here; its provenance sentence on hover. */
export function OriginBadge({ provenance }: { provenance: Provenance | null | undefined }) {
  if (!provenance) return null;
  return (
    <Badge tone={provenance.kind === "demo" ? "warning" : "accent"} title={provenance.sentence} testId="origin-badge">
      {originLabel(provenance)}
    </Badge>
  );
}

/** Where the evidence of an imported experiment came from, spelled out. */
export function OriginNote({ provenance }: { provenance: Provenance | null | undefined }) {
  if (!provenance) return null;
  return (
    <p className="origin-note" data-testid="origin-note" data-kind={provenance.kind}>
      <OriginBadge provenance={provenance} /> {provenance.sentence}
    </p>
  );
}
