import { useState } from "react";
import { runToOutcome } from "../../api/jobs";
import type { ExperimentView } from "../../bindings/ExperimentView";
import type { Judged } from "../../bindings/Judged";
import type { PairView } from "../../bindings/PairView";
import { judgeWork } from "../../lib/experiments";
import { plural } from "../../lib/format";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";

type Props = { experiment: ExperimentView; pairs: PairView[]; onJudged: () => void };

/**
 * Has the experiment's judge grade the finished, ungraded arms of judged tasks, give ACES's rubric
 * to the arms without it and compare the scored pairs not yet compared, as a job with its
 * progress; shown only when the experiment has a judge.
 */
export function JudgeButton({ experiment, pairs, onJudged }: Props) {
  const [state, run] = useAction<Judged>();
  const [progress, setProgress] = useState("");
  const judge = experiment.design.judge;
  if (judge === null) return null;
  const work = judgeWork(experiment.design, pairs);
  const judgeAll = () =>
    run(async () => {
      setProgress("");
      const done = await runToOutcome({ kind: "judge", experiment_id: experiment.id }, (e) =>
        setProgress(e.total > 0 ? ` ${e.done}/${e.total}` : ""),
      );
      onJudged();
      return done;
    });
  return (
    <>
      <button
        type="button"
        className="button-small"
        data-testid="experiment-judge-run"
        data-arms={work.arms}
        data-rubric={work.rubric}
        data-pairs={work.pairs}
        title={`${judge.provider} · ${judge.model} (prompts ${judge.prompts}) grades each expectation with a quote from the run, applies ACES's goal and accuracy rubric to every finished arm, and compares the two arms of each scored pair in both orders`}
        disabled={work.arms + work.rubric + work.pairs === 0 || state.status === "running"}
        onClick={judgeAll}
      >
        {state.status === "running"
          ? `Judging…${progress}`
          : `Judge: grade ${plural(work.arms, "arm")}, rubric ${plural(work.rubric, "arm")}, compare ${plural(work.pairs, "pair")}`}
      </button>
      {state.status === "done" && (
        <span className="muted" data-testid="experiment-judge-result">
          Graded {plural(state.data.graded, "arm")}, applied the rubric to {plural(state.data.rubric, "arm")} and
          compared {plural(state.data.compared, "pair")}; a NO SCORE says why beside its pair.
        </span>
      )}
      {state.status === "failed" && <ErrorPanel error={state.error} testId="experiment-judge-error" />}
    </>
  );
}
