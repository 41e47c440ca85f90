import { useState } from "react";
import { diffVersions } from "../../bindings/commands";
import type { VersionInfo } from "../../bindings/VersionInfo";
import { formatDateTime, formatSource } from "../../lib/format";
import { useAsync } from "../../lib/useAsync";
import { defaultVersionPair, orderPair, type VersionPair } from "../../lib/versionPair";
import { AsyncView } from "../shared/AsyncView";
import { Badge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { Sha } from "../shared/Sha";
import { Table, type Column } from "../shared/Table";
import { DiffView } from "./DiffView";

type Props = {
  versions: VersionInfo[];
  viewedVersionId: number;
  onView: (versionId: number) => void;
};

/** All versions of a skill; pick two (from/to) to see what changed between them. */
export function VersionsSection({ versions, viewedVersionId, onView }: Props) {
  const sorted = [...versions].sort((a, b) => b.version - a.version);
  const [pair, setPair] = useState<VersionPair | null>(() => defaultVersionPair(versions));

  const pick = (end: keyof VersionPair, id: number) => pair && setPair({ ...pair, [end]: id });
  const radio = (end: keyof VersionPair, v: VersionInfo) => (
    <input
      type="radio"
      name={`diff-${end}`}
      aria-label={`Compare ${end} version ${v.version}`}
      checked={pair?.[end] === v.id}
      onChange={() => pick(end, v.id)}
    />
  );

  const columns: Column<VersionInfo>[] = [
    ...(pair
      ? [
          { header: "From", className: "col-narrow", render: (v: VersionInfo) => radio("from", v) },
          { header: "To", className: "col-narrow", render: (v: VersionInfo) => radio("to", v) },
        ]
      : []),
    {
      header: "Version",
      render: (v) => (
        <>
          v{v.version} {v.id === sorted[0]?.id && <Badge tone="accent">latest</Badge>}
        </>
      ),
    },
    { header: "Imported at", render: (v) => formatDateTime(v.imported_at) },
    {
      header: "Source",
      className: "col-source",
      render: (v) => <span title={formatSource(v.source)}>{formatSource(v.source)}</span>,
    },
    { header: "Findings", className: "col-num", render: (v) => v.finding_count },
    { header: "SHA-256", render: (v) => <Sha sha={v.sha256} /> },
    {
      header: "",
      render: (v) =>
        v.id === viewedVersionId ? (
          <span className="muted">viewing</span>
        ) : (
          <button type="button" className="button-small" onClick={() => onView(v.id)}>
            View
          </button>
        ),
    },
  ];

  return (
    <div className="versions">
      <Table columns={columns} rows={sorted} rowKey={(v) => v.id} testId="versions-table" />
      {!pair ? (
        <EmptyState title="Only one version so far.">
          Import a changed copy of this skill to create a new version, then compare them here.
        </EmptyState>
      ) : pair.from === pair.to ? (
        <EmptyState title="Pick two different versions to compare." />
      ) : (
        <VersionComparison pair={orderPair(pair, versions)} />
      )}
    </div>
  );
}

function VersionComparison({ pair }: { pair: VersionPair }) {
  const [state, reload] = useAsync(() => diffVersions(pair.from, pair.to), [pair.from, pair.to]);
  return (
    <AsyncView state={state} what="the diff" onRetry={reload}>
      {(diff) => <DiffView diff={diff} />}
    </AsyncView>
  );
}
