import { cancelRun, rerunExperiment, taskSets } from "../../bindings/commands";
import type { ExperimentView } from "../../bindings/ExperimentView";
import type { PairView } from "../../bindings/PairView";
import type { CloneSource } from "../../lib/experimentClone";
import { pairProgress, rerunText, unscoredEnded } from "../../lib/experiments";
import { plural } from "../../lib/format";
import { stopNotifying } from "../../lib/notify";
import { useAction } from "../../lib/useAction";
import { ConfirmButton } from "../shared/ConfirmButton";
import { ErrorPanel } from "../shared/ErrorPanel";
import { JudgeButton } from "./JudgeButton";

type Props = {
  experiment: ExperimentView;
  pairs: PairView[];
  onClone: (source: CloneSource) => void;
  /** A re-run was queued as the experiment with this id. */
  onQueued: (experimentId: number) => void;
  /** The judge graded or compared: the results changed. */
  onJudged: () => void;
};

/** What can be done with the selected experiment: start a new one from it, re-run its unscored pairs, judge it, cancel it. */
export function ExperimentActions({ experiment, pairs, onClone, onQueued, onJudged }: Props) {
  const unscored = unscoredEnded(pairs);
  return (
    <div>
      <div className="experiment-actions" data-testid="experiment-actions">
        <CloneButton experiment={experiment} onClone={onClone} />
        <RerunButton experimentId={experiment.id} unscored={unscored} onQueued={onQueued} />
        <JudgeButton experiment={experiment} pairs={pairs} onJudged={onJudged} />
        <CancelButton experiment={experiment} pending={pairProgress(pairs).pending} />
      </div>
      <p className="muted" data-testid="experiment-rerun-hint">
        {rerunText(unscored)}
      </p>
    </div>
  );
}

/** Fills the New experiment form with this experiment's design, its stored task set looked up by id. */
function CloneButton({ experiment, onClone }: Pick<Props, "experiment" | "onClone">) {
  const [state, run] = useAction<void>();
  const clone = () =>
    run(async () => {
      const id = experiment.design.task_set_id;
      const taskSet = id === null ? null : ((await taskSets()).find((s) => s.id === id) ?? null);
      onClone({ design: experiment.design, taskSet });
    });
  return (
    <>
      <button
        type="button"
        className="button-small"
        data-testid="experiment-clone"
        disabled={state.status === "running"}
        onClick={clone}
      >
        Clone into the form
      </button>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="experiment-clone-error" />}
    </>
  );
}

type RerunProps = { experimentId: number; unscored: number; onQueued: (experimentId: number) => void };

/** Queues the ended pairs without a score as a new experiment; the back end's refusal shows here. */
function RerunButton({ experimentId, unscored, onQueued }: RerunProps) {
  const [state, run] = useAction<void>();
  return (
    <>
      <button
        type="button"
        className="button-small"
        data-testid="experiment-rerun"
        data-unscored={unscored}
        title={rerunText(unscored)}
        disabled={unscored === 0 || state.status === "running"}
        onClick={() => run(async () => onQueued(await rerunExperiment(experimentId)))}
      >
        Re-run {plural(unscored, "unscored pair")}
      </button>
      {state.status === "failed" &&
        // A refusal ("invalid_input": nothing to re-run) is said as the back end says it; other failures get advice.
        (state.error.code === "invalid_input" ? (
          <p className="notice notice-error" role="alert" data-testid="experiment-rerun-error">
            Not re-run: {state.error.message.replace(/\.$/, "")}.
          </p>
        ) : (
          <ErrorPanel error={state.error} testId="experiment-rerun-error" />
        ))}
    </>
  );
}

/** Cancels the experiment's unfinished trials (after a confirmation), shown while it has any. */
function CancelButton({ experiment, pending }: { experiment: ExperimentView; pending: number }) {
  const [state, run] = useAction<number>();
  const cancel = () =>
    run(async () => {
      // Cancelled on purpose: no "finished" notification for it.
      stopNotifying(experiment.id);
      return cancelRun(experiment.run_id);
    });
  return (
    <>
      {pending > 0 && (
        <ConfirmButton
          label="Cancel unfinished trials"
          testId="experiment-cancel"
          disabled={state.status === "running"}
          onConfirm={cancel}
        />
      )}
      {state.status === "done" && (
        <span className="muted" data-testid="experiment-cancel-result">
          Cancelled {plural(state.data, "trial")}
        </span>
      )}
      {state.status === "failed" && <ErrorPanel error={state.error} testId="experiment-cancel-error" />}
    </>
  );
}
