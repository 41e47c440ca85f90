import { getScan } from "../../bindings/commands";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { QualityCard } from "./QualityCard";
import { SecurityCard } from "./SecurityCard";

/** Loads a version's scan report (the back end scans it first if needed) and shows both cards. */
export function ScanCards({ versionId }: { versionId: number }) {
  const [state, reload] = useAsync(() => getScan(versionId), [versionId]);
  return (
    <AsyncView state={state} what="the review" onRetry={reload}>
      {(report) => (
        <div className="scan-cards">
          <QualityCard report={report.quality} versionId={versionId} />
          <SecurityCard report={report.security} versionId={versionId} onReviewed={reload} />
        </div>
      )}
    </AsyncView>
  );
}
