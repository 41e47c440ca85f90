import { useState } from "react";
import { runToOutcome } from "../../api/jobs";
import { harnessStatus } from "../../bindings/commands";
import type { Harness } from "../../bindings/Harness";
import type { HarnessStatus } from "../../bindings/HarnessStatus";
import { HARNESS_LABELS } from "../../lib/agentForm";
import { useAction } from "../../lib/useAction";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { Badge } from "../shared/Badge";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Table, type Column } from "../shared/Table";

/** Who can do an agent configuration's work on this machine, and a button to install what is missing. */
export function HarnessesSection() {
  const [state, reload] = useAsync(harnessStatus, []);
  const [install, runInstall] = useAction<HarnessStatus>();
  // What npm has done so far, while an install runs.
  const [progress, setProgress] = useState<string | null>(null);
  const start = (harness: Harness) =>
    runInstall(async () => {
      try {
        const status = await runToOutcome({ kind: "harness_install", harness }, (e) => setProgress(e.message));
        reload();
        return status;
      } finally {
        setProgress(null);
      }
    });
  const columns: Column<HarnessStatus>[] = [
    { header: "Harness", className: "col-nowrap", render: (h) => <strong>{HARNESS_LABELS[h.harness]}</strong> },
    { header: "Version", className: "col-nowrap", render: (h) => <code>{h.version}</code> },
    {
      header: "Status",
      className: "col-nowrap",
      render: (h) =>
        h.installed ? (
          <Badge tone="success">Ready</Badge>
        ) : (
          <button
            type="button"
            data-testid="harness-install"
            disabled={install.status === "running"}
            onClick={() => void start(h.harness)}
          >
            {install.status === "running" ? "Installing…" : "Install"}
          </button>
        ),
    },
    { header: "", className: "col-description", render: (h) => <span className="muted">{h.detail}</span> },
  ];
  return (
    <section className="panel" data-testid="harnesses">
      <h2>Harnesses</h2>
      <AsyncView state={state} what="the harnesses" onRetry={reload}>
        {(list) => (
          <Table
            columns={columns}
            rows={list}
            rowKey={(h) => h.harness}
            rowAttributes={(h) => ({
              "data-testid": "harness-row",
              "data-harness": h.harness,
              "data-installed": String(h.installed),
            })}
          />
        )}
      </AsyncView>
      {progress !== null && (
        <p className="muted" role="status" data-testid="harness-install-progress">
          {progress}
        </p>
      )}
      {install.status === "failed" && <ErrorPanel error={install.error} testId="harness-install-error" />}
    </section>
  );
}
