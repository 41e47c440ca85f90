import { useCallback } from "react";
import { alignPair, experimentPair, listExperiments, trialResults, trialTrajectories } from "../bindings/commands";
import type { AppError } from "../bindings/AppError";
import type { AttemptResult } from "../bindings/AttemptResult";
import type { ExperimentView } from "../bindings/ExperimentView";
import type { PairAlignment } from "../bindings/PairAlignment";
import type { PairView } from "../bindings/PairView";
import { PairArmResult } from "../components/experiments/PairArmResult";
import { PairChecks } from "../components/experiments/PairChecks";
import { PreferenceView } from "../components/experiments/PreferenceView";
import { PairSteps } from "../components/experiments/PairSteps";
import { AsyncView } from "../components/shared/AsyncView";
import { pairDelta } from "../lib/experiments";
import { resultsHref } from "../lib/route";
import { formatDelta } from "../lib/statsFormat";
import { lastAttemptTrajectory } from "../lib/trajectory";
import { useAsync } from "../lib/useAsync";

/** A trial's last attempt: its verifier result and its agent's trajectory (null when it recorded none). */
type ArmRun = { result: AttemptResult | null; trajectoryId: number | null };
type Loaded = { experiment: ExperimentView; pair: PairView; without: ArmRun; with: ArmRun; alignment: PairAlignment };

async function loadArm(trialId: number): Promise<ArmRun> {
  const [results, trajectories] = await Promise.all([trialResults(trialId), trialTrajectories(trialId)]);
  return { result: results.at(-1) ?? null, trajectoryId: lastAttemptTrajectory(trajectories)?.id ?? null };
}

async function loadPair(experimentId: number, pairId: number): Promise<Loaded> {
  const [experiments, pair] = await Promise.all([listExperiments(), experimentPair(experimentId, pairId)]);
  const experiment = experiments.find((e) => e.id === experimentId);
  if (!experiment) {
    throw { code: "not_found", message: `experiment ${experimentId} has no pair ${pairId}` } satisfies AppError;
  }
  const [without, withArm] = await Promise.all([loadArm(pair.without.trial_id), loadArm(pair.with.trial_id)]);
  const alignment = await alignPair(without.trajectoryId, withArm.trajectoryId);
  return { experiment, pair, without, with: withArm, alignment };
}

/** The without and with runs of one pair side by side: verifier results, then the steps aligned. */
export function PairPage({ experimentId, pairId }: { experimentId: number; pairId: number }) {
  const [state, reload] = useAsync(() => loadPair(experimentId, pairId), [experimentId, pairId]);
  const close = useCallback(() => (window.location.hash = resultsHref(experimentId)), [experimentId]);
  return (
    <div className="pair-page" data-testid="pair-view" data-pair-id={pairId}>
      <a className="back" href={resultsHref(experimentId)}>
        ← Results
      </a>
      <AsyncView state={state} what="the pair" onRetry={reload}>
        {({ experiment, pair, without, with: withArm, alignment }) => (
          <>
            <header className="page-header">
              <h1>
                {pair.skill} on {pair.task}
              </h1>
              <span className="muted">
                {experiment.name} · {pair.config} · {pair.condition} · repeat {pair.repeat} · delta{" "}
                {formatDelta(pairDelta(pair))}
              </span>
            </header>
            {pair.excluded.length > 0 && (
              <p className="pair-excluded-note" data-testid="pair-excluded">
                Not scored: {pair.excluded.join("; ")}
              </p>
            )}
            <div className="pair-arms">
              <PairArmResult
                name="without"
                label="Without the skill"
                arm={pair.without}
                result={without.result}
                runId={experiment.run_id}
              />
              <PairArmResult
                name="with"
                label="With the skill"
                arm={pair.with}
                result={withArm.result}
                runId={experiment.run_id}
              />
            </div>
            {pair.preference && <PreferenceView preference={pair.preference} />}
            <PairChecks pair={pair} />
            <PairSteps
              without={without.trajectoryId}
              with={withArm.trajectoryId}
              alignment={alignment}
              onClose={close}
            />
          </>
        )}
      </AsyncView>
    </div>
  );
}
