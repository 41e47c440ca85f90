import { useCallback, useEffect, useMemo, useReducer, useState, type Dispatch } from "react";
import {
  cancelRun,
  cancelTrial,
  listExperiments,
  listRuns,
  listTrials,
  queueStatus,
  trialLog,
} from "../bindings/commands";
import { toAppError } from "../api/errors";
import { useQueueEvents } from "../api/queue";
import type { AppError } from "../bindings/AppError";
import type { QueueEvent } from "../bindings/QueueEvent";
import type { TrialView } from "../bindings/TrialView";
import { OriginNote } from "../components/experiments/ExperimentOrigin";
import { EnginePanel } from "../components/engine/EnginePanel";
import { AgentRunForm } from "../components/runs/AgentRunForm";
import { QueueHeader } from "../components/runs/QueueHeader";
import { RunsTable } from "../components/runs/RunsTable";
import { SandboxForm } from "../components/runs/SandboxForm";
import { TrialDetail } from "../components/runs/TrialDetail";
import { TrialsTable } from "../components/runs/TrialsTable";
import { EmptyState } from "../components/shared/EmptyState";
import { ErrorPanel } from "../components/shared/ErrorPanel";
import { Loading } from "../components/shared/Loading";
import { runOrigins } from "../lib/experiments";
import { runsHref } from "../lib/route";
import { INITIAL_RUNS_STATE, needsRefresh, runsReducer, type RunsAction } from "../lib/runsState";
import { throttle } from "../lib/throttle";
import { useAction } from "../lib/useAction";
import { useAsync } from "../lib/useAsync";
import { useKeyedState } from "../lib/useKeyedState";

/** At most one refetch of the runs list per this many ms while events arrive for runs not loaded. */
const REFRESH_MS = 1000;

type Props = { runId: number | null; trialId: number | null; stepId?: number | null };

/**
 * The run queue: its state, new sandbox and agent runs, every run's progress, and one run's trials
 * live. The selected run and trial are in the address ("#/runs/2/7"), so other pages link to them;
 * "#/runs/2/7/step/5" also opens the trial's latest trajectory on its step 5.
 */
export function RunsPage({ runId, trialId, stepId = null }: Props) {
  const [state, dispatch] = useReducer(runsReducer, INITIAL_RUNS_STATE);
  const [loadError, setLoadError] = useState<AppError | null>(null);
  const [trialsGeneration, setTrialsGeneration] = useState(0);
  // Imported experiments (the demo) are labelled; runs created later on this page never are.
  const [experiments] = useAsync(listExperiments, []);
  const origins = useMemo(() => runOrigins(experiments.status === "ready" ? experiments.data : []), [experiments]);

  const refresh = useCallback(async () => {
    try {
      const [status, runs] = await Promise.all([queueStatus(), listRuns()]);
      dispatch({ type: "loaded", status, runs });
      setLoadError(null);
    } catch (raw) {
      setLoadError(toAppError(raw));
    }
  }, []);
  const throttled = useMemo(() => throttle(refresh, REFRESH_MS), [refresh]);
  useEffect(() => {
    // Loading on mount: `refresh` sets state only once the queue has answered.
    // oxlint-disable-next-line react/set-state-in-effect
    refresh();
    return throttled.cancel;
  }, [refresh, throttled]);

  const eventError = useQueueEvents((event: QueueEvent) => {
    if (needsRefresh(state, event)) throttled.schedule();
    dispatch({ type: "event", event });
  });
  const trialsError = useTrials(runId, trialsGeneration, dispatch);
  const trials = state.trials?.runId === runId ? state.trials.list : null;
  const trial = trials?.find((t) => t.id === trialId) ?? null;
  const logError = useLiveLog(trial, dispatch);

  // Cancelling queued trials emits no event: reload what changed.
  const [cancelling, runCancel] = useAction<void>();
  const afterCancel = async (cancel: Promise<unknown>) => {
    await cancel;
    setTrialsGeneration((g) => g + 1);
    await refresh();
  };
  const selectRun = (id: number) => {
    window.location.hash = runsHref(id);
  };
  const onStarted = (id: number) => {
    selectRun(id);
    refresh();
  };

  if (!state.status || !state.runs) {
    return (
      <div data-testid="runs-page">
        <Header />
        {loadError ? <ErrorPanel error={loadError} onRetry={refresh} /> : <Loading what="the queue" />}
      </div>
    );
  }
  return (
    <div className="runs-page" data-testid="runs-page">
      <Header />
      <QueueHeader status={state.status} onStatus={(status) => dispatch({ type: "status", status })} />
      <EnginePanel />
      {eventError && <ErrorPanel error={eventError} testId="queue-events-error" />}
      {loadError && <ErrorPanel error={loadError} onRetry={refresh} />}
      <div className="run-forms">
        <SandboxForm onStarted={onStarted} />
        <AgentRunForm onStarted={onStarted} />
      </div>
      {cancelling.status === "failed" && <ErrorPanel error={cancelling.error} testId="cancel-error" />}
      <section className="panel">
        <h2>Runs</h2>
        <RunsTable
          runs={state.runs}
          origins={origins}
          selectedId={runId}
          onSelect={selectRun}
          onCancel={(id) => runCancel(() => afterCancel(cancelRun(id)))}
        />
      </section>
      {runId !== null && (
        <section className="panel" data-testid="run-trials">
          <h2>Trials of {state.runs.find((r) => r.id === runId)?.name ?? `run ${runId}`}</h2>
          <OriginNote provenance={origins.get(runId)} />
          {trialsError ? (
            <ErrorPanel error={trialsError} onRetry={() => setTrialsGeneration((g) => g + 1)} />
          ) : trials ? (
            <TrialsTable
              trials={trials}
              selectedId={trialId}
              onSelect={(id) => (window.location.hash = runsHref(runId, id))}
              onCancel={(id) => runCancel(() => afterCancel(cancelTrial(id)))}
            />
          ) : (
            <Loading what="the trials" />
          )}
        </section>
      )}
      {trial ? (
        <TrialDetail trial={trial} log={state.log} logError={logError} stepId={stepId} />
      ) : (
        trials && trials.length > 0 && <EmptyState title="Select a trial to see its output and results." />
      )}
    </div>
  );
}

function Header() {
  return (
    <header className="page-header">
      <h1>Runs</h1>
    </header>
  );
}

/** Loads the selected run's trials into the page state; returns why it failed, if it did. */
function useTrials(runId: number | null, generation: number, dispatch: Dispatch<RunsAction>): AppError | null {
  const [error, setError] = useKeyedState<AppError | null>(null, `${runId}/${generation}`);
  useEffect(() => {
    if (runId === null) return;
    let current = true;
    listTrials(runId).then(
      (list) => current && dispatch({ type: "trials", runId, list }),
      (raw: unknown) => current && setError(toAppError(raw)),
    );
    return () => {
      current = false;
    };
  }, [runId, generation, dispatch, setError]);
  return error;
}

/** Follows the output of the trial while it runs: seeds it from `trial_log`; events extend it. */
function useLiveLog(trial: TrialView | null, dispatch: Dispatch<RunsAction>): AppError | null {
  const watched = trial?.state === "running" ? trial.id : null;
  const [error, setError] = useKeyedState<AppError | null>(null, watched);
  useEffect(() => {
    if (watched === null) return;
    let current = true;
    dispatch({ type: "watch-log", trialId: watched });
    trialLog(watched).then(
      (text) => current && dispatch({ type: "log-seed", trialId: watched, text }),
      (raw: unknown) => current && setError(toAppError(raw)),
    );
    return () => {
      current = false;
    };
  }, [watched, dispatch, setError]);
  return error;
}
