import { useState } from "react";
import { getSkill, getVersion } from "../bindings/commands";
import type { SkillDetail } from "../bindings/SkillDetail";
import type { VersionDetail } from "../bindings/VersionDetail";
import { FilesSection } from "../components/library/FilesSection";
import { FindingsList } from "../components/library/FindingsList";
import { FrontmatterTable } from "../components/library/FrontmatterTable";
import { Provenance } from "../components/library/Provenance";
import { ReadmeSection } from "../components/library/ReadmeSection";
import { VersionsSection } from "../components/library/VersionsSection";
import { DecisionPanel } from "../components/review/DecisionPanel";
import { ProbesPanel } from "../components/probes/ProbesPanel";
import { GenerateTasks } from "../components/tasks/GenerateTasks";
import { SkillEvals } from "../components/tasks/SkillEvals";
import { ScanCards } from "../components/scan/ScanCards";
import { AsyncView } from "../components/shared/AsyncView";
import { Badge, StatusBadge } from "../components/shared/Badge";
import { Tabs, type TabItem } from "../components/shared/Tabs";
import { sectionHref, skillHref, type SkillTab } from "../lib/route";
import { useAsync } from "../lib/useAsync";

export function SkillPage({ id, tab }: { id: number; tab: SkillTab }) {
  const [state, reload] = useAsync(() => getSkill(id), [id]);
  return (
    <>
      <a className="back" href={sectionHref("library")}>
        ← Library
      </a>
      <AsyncView state={state} what="the skill" onRetry={reload}>
        {(detail) => <SkillView key={id} detail={detail} tab={tab} />}
      </AsyncView>
    </>
  );
}

function SkillView({ detail, tab }: { detail: SkillDetail; tab: SkillTab }) {
  const { summary, versions } = detail;
  const [viewedId, setViewedId] = useState(summary.version_id);
  const [openedFile, setOpenedFile] = useState<string | null>(null);
  const [state, reload] = useAsync(() => getVersion(viewedId), [viewedId]);
  const viewed = versions.find((v) => v.id === viewedId);
  const loaded = state.status === "ready" ? state.data : null;

  const tabs: TabItem[] = [
    { id: "readme", label: "SKILL.md" },
    { id: "files", label: "Files", count: loaded?.files.length },
    { id: "frontmatter", label: "Frontmatter" },
    { id: "findings", label: "Findings", count: loaded?.findings.length },
    { id: "review", label: "Review" },
    { id: "versions", label: "Versions", count: versions.length },
    { id: "decision", label: "Decision" },
  ].map((t) => ({ ...t, href: skillHref(summary.id, t.id as SkillTab) }));

  return (
    <div className="skill-page" data-testid="skill-page" data-skill-name={summary.name}>
      <header className="skill-header">
        <div className="skill-title">
          <h1>{summary.name}</h1>
          <Badge tone="accent">v{summary.version}</Badge>
          <StatusBadge status={summary.status} findingCount={summary.finding_count} />
        </div>
        <p className="skill-description">{summary.description}</p>
        <Provenance
          source={viewed?.source ?? summary.source}
          importedAt={viewed?.imported_at ?? summary.imported_at}
          sha256={viewed?.sha256 ?? summary.sha256}
        />
      </header>
      {viewedId !== summary.version_id && (
        <div className="notice notice-info">
          You are viewing version {viewed?.version}; the latest is version {summary.version}.{" "}
          <button type="button" className="link" onClick={() => setViewedId(summary.version_id)}>
            View the latest version
          </button>
        </div>
      )}
      <Tabs items={tabs} active={tab} />
      <div className="tab-panel">
        {tab === "versions" ? (
          <VersionsSection versions={versions} viewedVersionId={viewedId} onView={setViewedId} />
        ) : tab === "decision" ? (
          <DecisionPanel detail={detail} versionId={viewedId} />
        ) : (
          <AsyncView state={state} what={`version ${viewed?.version ?? ""}`} onRetry={reload}>
            {(version) => (
              <VersionTab
                tab={tab}
                version={version}
                openedFile={openedFile}
                onOpenFile={(path) => {
                  setOpenedFile(path);
                  window.location.hash = skillHref(summary.id, "files");
                }}
              />
            )}
          </AsyncView>
        )}
      </div>
    </div>
  );
}

type VersionTabProps = {
  tab: Exclude<SkillTab, "versions" | "decision">;
  version: VersionDetail;
  /** The file a link in SKILL.md asked for, shown first in the Files tab. */
  openedFile: string | null;
  onOpenFile: (path: string) => void;
};

function VersionTab({ tab, version, openedFile, onOpenFile }: VersionTabProps) {
  switch (tab) {
    case "readme":
      return (
        <ReadmeSection html={version.body_html} files={version.files.map((f) => f.path)} onOpenFile={onOpenFile} />
      );
    case "files":
      return (
        <FilesSection
          key={`${version.id}:${openedFile ?? ""}`}
          versionId={version.id}
          files={version.files}
          initialPath={openedFile}
        />
      );
    case "frontmatter":
      return <FrontmatterTable frontmatter={version.frontmatter} />;
    case "findings":
      return <FindingsList findings={version.findings} />;
    case "review":
      return (
        <>
          <ScanCards key={version.id} versionId={version.id} />
          <ProbesPanel key={`probes-${version.id}`} versionId={version.id} />
          <SkillEvals key={`evals-${version.id}`} version={version} />
          <GenerateTasks key={`generate-${version.id}`} version={version} />
        </>
      );
  }
}
