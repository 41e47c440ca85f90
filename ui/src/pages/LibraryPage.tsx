import { useState } from "react";
import { listSkills } from "../bindings/commands";
import type { SkillSummary } from "../bindings/SkillSummary";
import type { SourceKind } from "../bindings/SourceKind";
import type { ValidationStatus } from "../bindings/ValidationStatus";
import { ImportDialog } from "../components/library/ImportDialog";
import { useFileDrop } from "../lib/useFileDrop";
import { QualityScore, SecurityScore } from "../components/scan/ScanScores";
import { AsyncView } from "../components/shared/AsyncView";
import { Badge, StatusBadge } from "../components/shared/Badge";
import { EmptyState } from "../components/shared/EmptyState";
import { Table, type Column } from "../components/shared/Table";
import { formatDateTime, formatSource, shownOf } from "../lib/format";
import { skillHref } from "../lib/route";
import { filterSkills, isFiltering, NO_FILTER, type SkillFilter } from "../lib/skillFilter";
import { useAsync } from "../lib/useAsync";

const columns: Column<SkillSummary>[] = [
  { header: "Name", className: "col-nowrap", render: (s) => <strong>{s.name}</strong> },
  {
    header: "Description",
    className: "col-description",
    render: (s) => <span title={s.description}>{s.description}</span>,
  },
  {
    header: "Versions",
    className: "col-num",
    render: (s) => <span title={`Latest: version ${s.version}`}>{s.version_count}</span>,
  },
  {
    header: "Source",
    className: "col-source",
    render: (s) => (
      <span title={formatSource(s.source)}>
        <Badge>{s.source.kind}</Badge> {s.source.location}
        {s.source.subpath && <span className="muted"> / {s.source.subpath}</span>}
      </span>
    ),
  },
  { header: "License", className: "col-nowrap", render: (s) => s.license ?? <span className="muted">none</span> },
  {
    header: "Status",
    className: "col-nowrap",
    render: (s) => <StatusBadge status={s.status} findingCount={s.finding_count} />,
  },
  { header: "Quality", className: "col-nowrap", render: (s) => <QualityScore scan={s.scan} /> },
  { header: "Security", className: "col-nowrap", render: (s) => <SecurityScore scan={s.scan} /> },
  { header: "Imported at", className: "col-nowrap", render: (s) => formatDateTime(s.imported_at) },
];

const STATUS_OPTIONS: [ValidationStatus | "all", string][] = [
  ["all", "Any status"],
  ["valid", "Valid"],
  ["warnings", "Warnings"],
  ["errors", "Errors"],
];

const KIND_OPTIONS: [SourceKind | "all", string][] = [
  ["all", "Any source"],
  ["folder", "Folder"],
  ["archive", "Archive"],
  ["git", "Git"],
  ["sample", "Sample"],
];

type Props = { filter: SkillFilter; onFilterChange: (filter: SkillFilter) => void };

export function LibraryPage({ filter, onFilterChange }: Props) {
  const [state, reload] = useAsync(listSkills, []);
  // The import dialog is open with this source ("" when opened by its button).
  const [importing, setImporting] = useState<string | null>(null);
  const dragging = useFileDrop((path) => setImporting(path));
  const set = (patch: Partial<SkillFilter>) => onFilterChange({ ...filter, ...patch });

  return (
    <>
      <header className="page-header">
        <h1>Library</h1>
        <button type="button" className="button-primary" data-testid="import-open" onClick={() => setImporting("")}>
          Import…
        </button>
      </header>
      <div className="toolbar">
        <input
          type="search"
          className="search"
          data-testid="library-search"
          placeholder="Search name, description or source"
          value={filter.query}
          onChange={(e) => set({ query: e.target.value })}
        />
        <select
          aria-label="Validation status"
          value={filter.status}
          onChange={(e) => set({ status: e.target.value as SkillFilter["status"] })}
        >
          {STATUS_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <select
          aria-label="Source kind"
          value={filter.kind}
          onChange={(e) => set({ kind: e.target.value as SkillFilter["kind"] })}
        >
          {KIND_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid="filter-risky"
            checked={filter.riskyOnly}
            onChange={(e) => set({ riskyOnly: e.target.checked })}
          />
          Risky only
        </label>
        {isFiltering(filter) && (
          <button type="button" className="button-ghost" onClick={() => onFilterChange(NO_FILTER)}>
            Clear filters
          </button>
        )}
      </div>
      <AsyncView state={state} what="the library" onRetry={reload}>
        {(skills) => (
          <SkillTable
            skills={skills}
            filter={filter}
            onClear={() => onFilterChange(NO_FILTER)}
            onImport={() => setImporting("")}
          />
        )}
      </AsyncView>
      {dragging && <p className="notice notice-info">Drop a skill folder or a .zip/.skill archive to import it.</p>}
      {importing !== null && (
        <ImportDialog initialSource={importing} onClose={() => setImporting(null)} onImported={reload} />
      )}
    </>
  );
}

type TableProps = { skills: SkillSummary[]; filter: SkillFilter; onClear: () => void; onImport: () => void };

function SkillTable({ skills, filter, onClear, onImport }: TableProps) {
  const shown = filterSkills(skills, filter);
  const empty =
    skills.length === 0 ? (
      <EmptyState title="Your library is empty.">
        <p>Import a skill folder, a .zip/.skill archive or a git repository to get started.</p>
        <button type="button" className="button-primary" onClick={onImport}>
          Import…
        </button>
      </EmptyState>
    ) : (
      <EmptyState title="No skills match the search and filters.">
        <button type="button" className="button-ghost" onClick={onClear}>
          Clear filters
        </button>
      </EmptyState>
    );
  return (
    <>
      <p className="muted count">{shownOf(shown.length, skills.length, "skill")}</p>
      <Table
        testId="library-table"
        columns={columns}
        rows={shown}
        rowKey={(s) => s.id}
        onRowClick={(s) => (window.location.hash = skillHref(s.id))}
        rowAttributes={(s) => ({ "data-testid": "skill-row", "data-skill-name": s.name })}
        empty={empty}
      />
    </>
  );
}
