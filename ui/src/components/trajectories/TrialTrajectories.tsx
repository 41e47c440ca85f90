import { useState } from "react";
import { trialTrajectories } from "../../bindings/commands";
import type { TrajectorySummary } from "../../bindings/TrajectorySummary";
import type { TrialView } from "../../bindings/TrialView";
import { stepHref } from "../../lib/route";
import { lastAttemptTrajectory } from "../../lib/trajectory";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { Table, type Column } from "../shared/Table";
import { TRAJECTORY_COLUMNS } from "./trajectoryColumns";
import { TrajectorySteps } from "./TrajectorySteps";

const columns: Column<TrajectorySummary>[] = [
  { header: "Attempt", className: "col-nowrap", render: (t) => t.attempt ?? "—" },
  ...TRAJECTORY_COLUMNS,
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
              <TrajectorySteps
                key={selected}
                trajectoryId={selected}
                linkTo={(stepId) => stepHref(trial.run_id, trial.id, stepId)}
                focusStepId={stepId}
              />
            )}
          </section>
        );
      }}
    </AsyncView>
  );
}
