import type { Activation } from "../../bindings/Activation";
import type { ActivationTrial } from "../../bindings/ActivationTrial";
import type { Share } from "../../bindings/Share";
import { pairHref } from "../../lib/route";
import { formatShare, formatShareCi } from "../../lib/statsFormat";
import { Table, type Column } from "../shared/Table";

const share = (s: Share) => `${s.k}/${s.n} = ${formatShare(s.rate)} (${formatShareCi(s.ci_low, s.ci_high)})`;

const columns: Column<Activation>[] = [
  { header: "Skill", className: "col-nowrap", render: (a) => a.skill },
  { header: "Configuration", className: "col-nowrap", render: (a) => a.config },
  {
    header: "TP / FN / FP / TN",
    className: "col-num",
    render: (a) => `${a.true_positives} / ${a.false_negatives} / ${a.false_positives} / ${a.true_negatives}`,
  },
  { header: "Accuracy (95% CI)", className: "col-num", render: (a) => share(a.accuracy) },
  { header: "Precision (95% CI)", className: "col-num", render: (a) => share(a.precision) },
  { header: "Recall (95% CI)", className: "col-num", render: (a) => share(a.recall) },
  { header: "False activations (95% CI)", className: "col-num", render: (a) => share(a.false_activation_rate) },
];

const outcome = (t: ActivationTrial) =>
  `${t.should_trigger ? "should use" : "should not use"}, ${t.activated ? "used" : "left alone"}`;

/** Activation accuracy on routing cases per skill and configuration, with the with-arm trials behind each count. */
export function ActivationTable({
  rows,
  method,
  experimentId,
}: {
  rows: Activation[];
  method: string;
  experimentId: number;
}) {
  return (
    <>
      <h3>Activation accuracy (routing cases)</h3>
      <p className="muted" data-testid="activation-method">
        {method}.
      </p>
      <Table
        columns={columns}
        rows={rows}
        rowKey={(a) => `${a.skill}:${a.config}`}
        rowAttributes={(a) => ({
          "data-skill": a.skill,
          "data-tp": `${a.true_positives}`,
          "data-fp": `${a.false_positives}`,
        })}
        testId="activation-table"
      />
      {rows.map((a) => (
        <details key={`${a.skill}:${a.config}`} data-testid="activation-trials">
          <summary>
            The {a.trials.length} trials behind {a.skill} · {a.config}
          </summary>
          <ul>
            {a.trials.map((t) => (
              <li key={t.trial_id} data-activated={t.activated} data-should={t.should_trigger}>
                <a href={pairHref(experimentId, t.pair_id)}>{t.task}</a>: {outcome(t)}
                {t.should_trigger !== t.activated && <strong> (wrong)</strong>}
              </li>
            ))}
            {a.left_out.map((why) => (
              <li key={why} className="muted">
                Left out: {why}
              </li>
            ))}
          </ul>
        </details>
      ))}
    </>
  );
}
