import { useState } from "react";
import { getTrajectory, trialTrajectories } from "../api/commands";
import type { TrajectorySummary, TrialView } from "../api/types";
import { formatCost, formatTokens } from "../lib/format";
import { lastAttemptTrajectory } from "../lib/pairSteps";
import { stopReasonLabel } from "../lib/trajectory";
import { useAsync } from "../lib/useAsync";
import { AsyncView } from "./AsyncView";
import { Table, type Column } from "./Table";
import { TrajectorySteps } from "./TrajectorySteps";

const columns: Column<TrajectorySummary>[] = [
  { header: "Attempt", className: "col-nowrap", render: (t) => t.attempt ?? "—" },
  { header: "Stop reason", className: "col-nowrap", render: (t) => stopReasonLabel(t.stop_reason) },
  {
    header: "Tokens",
    className: "col-nowrap",
    render: (t) => formatTokens({ input: t.input_tokens, cached: t.cached_tokens, output: t.output_tokens }),
  },
  { header: "Cost", className: "col-num", render: (t) => formatCost(t.cost_usd) },
  { header: "Steps", className: "col-num", render: (t) => t.steps },
];

type Props = { trial: TrialView; stepId?: number | null };

/**
 * The agent's trajectories of a finished trial (one per attempt that ran it); one selected shows its steps.
 * With `stepId` (a link to a step) the latest trajectory opens, unless one was selected, on that step.
 */
export function TrialTrajectories({ trial, stepId = null }: Props) {
  const [state, reload] = useAsync(() => trialTrajectories(trial.id), [trial.id, trial.state]);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  return (
    <AsyncView state={state} what="the trajectories" onRetry={reload}>
      {(list) => {
        if (list.length === 0) return null;
        const latest = stepId === null ? null : lastAttemptTrajectory(list);
        const selected = list.length === 1 ? list[0].id : (selectedId ?? latest?.id ?? null);
        return (
          <section className="trajectories" data-testid="trial-trajectories">
            <h3>Agent trajectory</h3>
            <Table
              testId="trajectories-table"
              columns={columns}
              rows={list}
              rowKey={(t) => t.id}
              onRowClick={(t) => setSelectedId(t.id)}
              rowAttributes={(t) => ({
                "data-testid": "trajectory-row",
                "data-trajectory-id": String(t.id),
                className: t.id === selected ? "clickable selected" : "clickable",
                "aria-current": t.id === selected ? "true" : undefined,
              })}
            />
            {selected === null ? (
              <p className="muted">Select an attempt to see its steps.</p>
            ) : (
              <Trajectory key={selected} id={selected} trial={trial} stepId={stepId} />
            )}
          </section>
        );
      }}
    </AsyncView>
  );
}

function Trajectory({ id, trial, stepId }: { id: number; trial: TrialView; stepId: number | null }) {
  const [state, reload] = useAsync(() => getTrajectory(id), [id]);
  return (
    <AsyncView state={state} what="the trajectory" onRetry={reload}>
      {(trajectory) => (
        <TrajectorySteps steps={trajectory.steps} owner={{ runId: trial.run_id, trialId: trial.id }} focusStepId={stepId} />
      )}
    </AsyncView>
  );
}
