import { useState } from "react";
import { runToOutcome } from "../api/jobs";
import { exportScans, listSkills } from "../bindings/commands";
import type { ExportFormat } from "../bindings/ExportFormat";
import type { SkillSummary } from "../bindings/SkillSummary";
import { EXPORT_FORMATS, ExportResult } from "../components/scan/ExportButtons";
import { ScanCards } from "../components/scan/ScanCards";
import { QualityScore, SecurityScore } from "../components/scan/ScanScores";
import { AsyncView } from "../components/shared/AsyncView";
import { Badge } from "../components/shared/Badge";
import { EmptyState } from "../components/shared/EmptyState";
import { ErrorPanel } from "../components/shared/ErrorPanel";
import { Table, type Column } from "../components/shared/Table";
import { plural } from "../lib/format";
import { scansHref, sectionHref, skillHref } from "../lib/route";
import { countScans, scanSummaryText, sortByRisk } from "../lib/scanSummary";
import { useAction, type ActionState } from "../lib/useAction";
import { useAsync } from "../lib/useAsync";

const columns: Column<SkillSummary>[] = [
  {
    header: "Name",
    className: "col-nowrap",
    render: (s) => (
      <a className="row-link" href={scansHref(s.id)} data-testid="scan-select">
        {s.name}
      </a>
    ),
  },
  { header: "Quality", className: "col-nowrap", render: (s) => <QualityScore scan={s.scan} /> },
  { header: "Security", className: "col-nowrap", render: (s) => <SecurityScore scan={s.scan} /> },
];

/** Every skill's static review, riskiest first, with the selected skill's cards beside the list. */
export function ScansPage({ selectedId }: { selectedId: number | null }) {
  const [state, reload] = useAsync(listSkills, []);
  const [pending, runPending] = useAction<number>();
  const scanAndReload = () =>
    runPending(async () => {
      const { scanned } = await runToOutcome({ kind: "scan_library" }, () => {});
      reload();
      return scanned;
    });

  return (
    <div className="scans-page" data-testid="scans-page">
      <header className="page-header">
        <h1>Scans</h1>
        <button
          type="button"
          data-testid="scan-pending"
          disabled={pending.status === "running"}
          onClick={scanAndReload}
        >
          {pending.status === "running" ? "Scanning…" : "Scan pending"}
        </button>
      </header>
      <ScanPendingResult state={pending} />
      <AsyncView state={state} what="the scans" onRetry={reload}>
        {(skills) => <ScansView skills={skills} selectedId={selectedId} />}
      </AsyncView>
    </div>
  );
}

function ScanPendingResult({ state }: { state: ActionState<number> }) {
  switch (state.status) {
    case "idle":
      return null;
    case "running":
      return <p className="muted">Scanning every version without a current result…</p>;
    case "failed":
      return <ErrorPanel error={state.error} testId="scan-pending-error" />;
    case "done":
      return (
        <div className="notice notice-success" data-testid="scan-pending-result">
          {state.data > 0 ? `Scanned ${plural(state.data, "version")}.` : "Everything is up to date."}
        </div>
      );
  }
}

function ScansView({ skills, selectedId }: { skills: SkillSummary[]; selectedId: number | null }) {
  if (skills.length === 0) {
    return (
      <EmptyState title="No skills yet — import one from the Library.">
        <a href={sectionHref("library")}>Go to the Library</a>
      </EmptyState>
    );
  }
  const selected = skills.find((s) => s.id === selectedId);
  return (
    <>
      <p className="scan-summary" data-testid="scan-summary">
        {scanSummaryText(countScans(skills))}
      </p>
      <ExportAll versionIds={skills.map((s) => s.version_id)} />
      <div className="scans-layout">
        <Table
          testId="scans-table"
          columns={columns}
          rows={sortByRisk(skills)}
          rowKey={(s) => s.id}
          rowAttributes={(s) => ({
            "data-testid": "scan-row",
            "data-skill-name": s.name,
            className: s.id === selectedId ? "selected" : undefined,
            "aria-current": s.id === selectedId ? "true" : undefined,
          })}
        />
        <div className="scans-detail">
          {selected ? (
            <SelectedReview skill={selected} />
          ) : selectedId !== null ? (
            <EmptyState title={`There is no skill with id ${selectedId}.`}>Pick a skill from the list.</EmptyState>
          ) : (
            <EmptyState title="Select a skill to see its quality and security review." />
          )}
        </div>
      </div>
    </>
  );
}

function ExportAll({ versionIds }: { versionIds: number[] }) {
  const [format, setFormat] = useState<ExportFormat>("json");
  const [state, run] = useAction<string>();
  return (
    <div className="toolbar export-all">
      <select
        aria-label="Export format"
        data-testid="export-all-format"
        value={format}
        onChange={(e) => setFormat(e.target.value as ExportFormat)}
      >
        {EXPORT_FORMATS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <button
        type="button"
        data-testid="export-all"
        disabled={state.status === "running"}
        onClick={() => run(() => exportScans(versionIds, format))}
        title="Export the latest version of every skill listed"
      >
        Export all
      </button>
      <ExportResult state={state} testId="export-all-path" />
    </div>
  );
}

function SelectedReview({ skill }: { skill: SkillSummary }) {
  return (
    <>
      <header className="scans-detail-header" data-testid="scan-selected" data-skill-name={skill.name}>
        <h2>
          {skill.name} <Badge tone="accent">v{skill.version}</Badge>
        </h2>
        <a href={skillHref(skill.id, "review")}>Open the skill page</a>
      </header>
      <ScanCards key={skill.version_id} versionId={skill.version_id} />
    </>
  );
}
