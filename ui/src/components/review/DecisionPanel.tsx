import { ProbesPanel } from "../probes/ProbesPanel";
import { evidenceOptions, listDecisions } from "../../bindings/commands";
import type { SkillDetail } from "../../bindings/SkillDetail";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { DecisionForm } from "./DecisionForm";
import { DecisionTrail } from "./DecisionTrail";
import { ReportButtons } from "./ReportButtons";

/** The skill's deployment decision: a form for a new one on the viewed version, the trail, and the report. */
export function DecisionPanel({ detail, versionId }: { detail: SkillDetail; versionId: number }) {
  const { summary, versions } = detail;
  const [evidence, reloadEvidence] = useAsync(() => evidenceOptions(versionId), [versionId]);
  const [decisions, reloadDecisions] = useAsync(() => listDecisions(summary.id), [summary.id]);
  const version = versions.find((v) => v.id === versionId);

  return (
    <div className="decision-panel" data-testid="decision-panel">
      <AsyncView state={evidence} what="the evidence on this version" onRetry={reloadEvidence}>
        {(options) =>
          version && (
            <DecisionForm
              key={version.id}
              version={version}
              latest={version.id === summary.version_id}
              evidence={options}
              onRecorded={reloadDecisions}
            />
          )
        }
      </AsyncView>
      <ProbesPanel key={`probes-${versionId}`} versionId={versionId} />
      <AsyncView state={decisions} what="the decisions" onRetry={reloadDecisions}>
        {(list) => <DecisionTrail decisions={list} />}
      </AsyncView>
      {version && <ReportButtons key={version.id} skillId={summary.id} version={version.version} />}
    </div>
  );
}
