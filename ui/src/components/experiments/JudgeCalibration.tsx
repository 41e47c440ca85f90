import { useState } from "react";
import { runToOutcome } from "../../api/jobs";
import { judgeCalibration } from "../../bindings/commands";
import type { Calibration } from "../../bindings/Calibration";
import type { ExperimentView } from "../../bindings/ExperimentView";
import { formatDateTime } from "../../lib/format";
import { formatShare, formatShareCi } from "../../lib/statsFormat";
import { useAction } from "../../lib/useAction";
import { useAsync } from "../../lib/useAsync";
import { ErrorPanel } from "../shared/ErrorPanel";

/** Gradings per arm (the stored one included) and the most arms per check that one press asks for. */
const GRADINGS = 3;
const SAMPLE = 20;

const fixed = (x: number | null, digits: number) => (x === null ? "—" : x.toFixed(digits));

type Fact = [label: string, value: string];

/** A captioned two-column table of labelled values. */
function FactTable({ caption, facts, testId }: { caption: string; facts: Fact[]; testId: string }) {
  return (
    <table className="table table-facts" data-testid={testId}>
      <caption>{caption}</caption>
      <tbody>
        {facts.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td className="col-num">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CalibrationTables({ c }: { c: Calibration }) {
  const r = c.repeatability;
  const v = c.verifier;
  return (
    <div
      data-testid="judge-calibration-latest"
      data-unanimous={r.unanimous}
      data-expectations={r.expectations}
      data-arms={v.arms}
      data-agree={v.agree}
    >
      <p className="muted" data-testid="judge-calibration-method">
        {c.judge.provider} · {c.judge.model}, {formatDateTime(c.created_at)}. {c.method}.
      </p>
      <FactTable
        caption={`Repeatability: the same arms graded ${r.gradings} times`}
        testId="judge-calibration-repeatability"
        facts={[
          ["Arms", `${r.arms}`],
          [
            "Expectations given one verdict every time",
            `${r.unanimous} of ${r.expectations} (${formatShare(r.unanimous_rate)})`,
          ],
          ["Score standard deviation per arm, mean", fixed(r.mean_score_sd, 3)],
          ["Largest score range of one arm", fixed(r.max_score_range, 3)],
          ["NO SCORE gradings (left out)", `${r.no_score}`],
        ]}
      />
      <FactTable
        caption="Agreement with the deterministic verifiers on the same arms"
        testId="judge-calibration-verifier"
        facts={[
          ["Arms scored by both", `${v.arms}`],
          [
            "Agreement (95% Wilson interval)",
            `${v.agree} of ${v.arms}: ${formatShare(v.rate)} (${formatShareCi(v.ci_low, v.ci_high)})`,
          ],
          ["Cohen's kappa", fixed(v.kappa, 2)],
          ["Passed by the judge only / by the verifier only", `${v.judge_only_pass} / ${v.verifier_only_pass}`],
          ["NO SCORE (left out)", `${v.no_score}`],
        ]}
      />
    </div>
  );
}

/**
 * How far the experiment's judge can be trusted, beside its judged results: its latest calibration
 * (repeatability and agreement with the verifiers) and a button that makes a new one. Shown only
 * when the experiment has a judge.
 */
export function JudgeCalibration({ experiment }: { experiment: ExperimentView }) {
  const [latest, reload] = useAsync(() => judgeCalibration(experiment.id), [experiment.id]);
  const [state, run] = useAction<Calibration>();
  const [progress, setProgress] = useState("");
  if (experiment.design.judge === null) return null;
  // A stored job: it survives leaving the page, and its progress is shown on the button.
  const calibrate = () =>
    run(async () => {
      setProgress("");
      const c = await runToOutcome(
        { kind: "calibrate_judge", experiment_id: experiment.id, gradings: GRADINGS, sample: SAMPLE },
        (e) => setProgress(e.total > 0 ? ` ${e.done}/${e.total}` : ""),
      );
      reload();
      return c;
    });
  return (
    <section className="panel" data-testid="judge-calibration">
      <h2>The judge's calibration</h2>
      {latest.status === "error" && <ErrorPanel error={latest.error} onRetry={reload} />}
      {latest.status === "ready" && latest.data === null && (
        <p className="muted">
          Not calibrated yet. A calibration grades up to {SAMPLE} graded arms {GRADINGS - 1} more times, and up to{" "}
          {SAMPLE} verifier-scored arms once, with this experiment's judge.
        </p>
      )}
      {latest.status === "ready" && latest.data !== null && <CalibrationTables c={latest.data} />}
      <button
        type="button"
        className="button-small"
        data-testid="judge-calibrate"
        disabled={state.status === "running"}
        onClick={calibrate}
      >
        {state.status === "running" ? `Calibrating…${progress}` : "Calibrate the judge"}
      </button>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="judge-calibration-error" />}
    </section>
  );
}
