import { trialResults } from "../../bindings/commands";
import type { AppError } from "../../bindings/AppError";
import type { TrialView } from "../../bindings/TrialView";
import type { LiveLog } from "../../lib/liveLog";
import { isFinal } from "../../lib/trialStates";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { TrialStateBadge } from "../shared/Badge";
import { ErrorPanel } from "../shared/ErrorPanel";
import { TrialTrajectories } from "../trajectories/TrialTrajectories";
import { AttemptText } from "./AttemptText";
import { AttemptView } from "./AttemptView";
import { LiveLogView } from "./LiveLogView";

type Props = { trial: TrialView; log: LiveLog | null; logError: AppError | null; stepId?: number | null };

/** The selected trial: its live output while running, the result of every finished attempt, and the agent's trajectories. */
export function TrialDetail({ trial, log, logError, stepId = null }: Props) {
  return (
    <section className="panel trial-detail" data-testid="trial-detail" data-trial-id={trial.id}>
      <header className="trial-detail-header">
        <h2>Trial {trial.label}</h2>
        <TrialStateBadge state={trial.state} />
        {trial.attempt > 1 && <AttemptText attempt={trial.attempt} />}
      </header>
      {trial.message && <p className="muted">{trial.message}</p>}
      {trial.state === "running" && (
        <>
          <h3>Live output</h3>
          {logError ? <ErrorPanel error={logError} /> : <LiveLogView log={log} />}
        </>
      )}
      <Attempts trial={trial} />
      {isFinal(trial.state) && <TrialTrajectories trial={trial} stepId={stepId} />}
    </section>
  );
}

function Attempts({ trial }: { trial: TrialView }) {
  // Refetched when the trial moves on: a new attempt, or its final state.
  const [state, reload] = useAsync(() => trialResults(trial.id), [trial.id, trial.state, trial.attempt]);
  return (
    <AsyncView state={state} what="the attempts" onRetry={reload}>
      {(results) =>
        results.length === 0
          ? isFinal(trial.state) && <p className="muted">No attempt results were recorded.</p>
          : results.map((r) => <AttemptView key={r.attempt} result={r} />)
      }
    </AsyncView>
  );
}
