import type { ReactNode } from "react";
import type { Source } from "../../bindings/Source";
import { formatDateTime } from "../../lib/format";
import { Sha } from "../shared/Sha";

type Props = { source: Source; importedAt: string; sha256: string };

/** Where a version came from: source kind, location, subpath, git ref and commit, import time, hash. */
export function Provenance({ source, importedAt, sha256 }: Props) {
  // Each value is rendered on its own (in a keyed row below), never as a list: no keys needed.
  /* oxlint-disable react/jsx-key */
  const fields: [string, ReactNode][] = [
    ["Source", source.kind],
    ["Location", <code>{source.location}</code>],
    ["Subpath", source.subpath && <code>{source.subpath}</code>],
    ["Ref", source.git_ref && <code>{source.git_ref}</code>],
    ["Commit", source.git_commit && <Sha sha={source.git_commit} />],
    ["Imported at", formatDateTime(importedAt)],
    ["SHA-256", <Sha sha={sha256} />],
  ];
  /* oxlint-enable react/jsx-key */
  return (
    <dl className="props props-inline" data-testid="provenance">
      {fields
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <div key={label} className="prop">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
