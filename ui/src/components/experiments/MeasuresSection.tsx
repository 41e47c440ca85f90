import { experimentMeasures } from "../../bindings/commands";
import type { ExperimentMeasures } from "../../bindings/ExperimentMeasures";
import type { PassAtK } from "../../bindings/PassAtK";
import type { PreferenceSummary } from "../../bindings/PreferenceSummary";
import type { StatsSummary } from "../../bindings/StatsSummary";
import { useAction } from "../../lib/useAction";
import {
  formatCi,
  formatDelta,
  formatGain,
  formatP,
  formatPoints,
  formatRate,
  formatShare,
  formatShareCi,
} from "../../lib/statsFormat";
import { ErrorPanel } from "../shared/ErrorPanel";
import { ActivationTable } from "./ActivationTable";
import { Table, type Column } from "../shared/Table";

type Row = { measure: string; summary: StatsSummary };

const liftColumns: Column<Row>[] = [
  { header: "Measure", className: "col-nowrap", render: (r) => r.measure },
  { header: "Skill", className: "col-nowrap", render: (r) => r.summary.skill },
  { header: "Configuration", className: "col-nowrap", render: (r) => r.summary.config },
  { header: "n", className: "col-num", render: (r) => r.summary.n },
  {
    header: "Without → with",
    className: "col-num",
    render: (r) => `${formatPoints(r.summary.mean_without)} → ${formatPoints(r.summary.mean_with)}`,
  },
  { header: "Skill Lift", className: "col-num", render: (r) => formatDelta(r.summary.delta) },
  { header: "95% CI", className: "col-num col-nowrap", render: (r) => formatCi(r.summary.ci_low, r.summary.ci_high) },
  { header: "q", className: "col-num", render: (r) => formatP(r.summary.q_bh) },
];

const passColumns: Column<PassAtK>[] = [
  { header: "Skill", className: "col-nowrap", render: (p) => p.skill },
  { header: "Configuration", className: "col-nowrap", render: (p) => p.config },
  { header: "k", className: "col-num", render: (p) => (p.k_min === p.k_max ? p.k_max : `${p.k_min}–${p.k_max}`) },
  { header: "Tasks", className: "col-num", render: (p) => p.tasks },
  {
    header: "pass@k without → with",
    className: "col-num",
    render: (p) => `${formatRate(p.without)} → ${formatRate(p.with)}`,
  },
  { header: "Lift", className: "col-num", render: (p) => formatGain(p.lift) },
];

const preferenceColumns: Column<PreferenceSummary>[] = [
  { header: "Skill", className: "col-nowrap", render: (p) => p.skill },
  { header: "Configuration", className: "col-nowrap", render: (p) => p.config },
  { header: "Compared", className: "col-num", render: (p) => p.compared },
  { header: "With / without / tie", className: "col-num", render: (p) => `${p.with} / ${p.without} / ${p.ties}` },
  { header: "With preferred", className: "col-num", render: (p) => formatShare(p.rate) },
  {
    header: "95% CI",
    className: "col-num col-nowrap",
    render: (p) => formatShareCi(p.ci_low, p.ci_high),
  },
  { header: "Position flips", className: "col-num", render: (p) => formatShare(p.flip_rate) },
  { header: "NO SCORE", className: "col-num", render: (p) => p.no_score },
];

/** Per configuration rows of every measure (the pooled "all" rows repeat them when there is one configuration). */
function rows(m: ExperimentMeasures): Row[] {
  return m.metrics.flatMap((r) => r.report.groups.map((summary) => ({ measure: r.measure, summary })));
}

/**
 * ACES's deterministic runtime metrics, measured from every scored pair's trajectories on request
 * (it reads them all): Skill Lift per measure with the paired statistics, pass@k per arm, and the
 * judge's pairwise preference when the experiment has a judge, and activation accuracy on its
 * routing cases.
 */
export function MeasuresSection({ experimentId }: { experimentId: number }) {
  const [state, run] = useAction<ExperimentMeasures>();
  return (
    <section className="panel" data-testid="measures-section">
      <h2>Runtime measures (ACES)</h2>
      {state.status !== "done" && (
        <button
          type="button"
          className="button-small"
          data-testid="measures-run"
          disabled={state.status === "running"}
          onClick={() => run(() => experimentMeasures(experimentId))}
        >
          {state.status === "running" ? "Measuring…" : "Measure the trajectories"}
        </button>
      )}
      {state.status === "failed" && <ErrorPanel error={state.error} testId="measures-error" />}
      {state.status === "done" && (
        <>
          <p className="muted" data-testid="measures-method">
            {state.data.method}. Scores in points (100 × the 0–1 score); Skill Lift = with − without, 95% paired
            bootstrap CI, Benjamini–Hochberg q of the sign-flip test. {state.data.judged_method}.
          </p>
          <Table
            columns={liftColumns}
            rows={rows(state.data)}
            rowKey={(r) => `${r.measure}:${r.summary.skill}:${r.summary.config}`}
            rowAttributes={(r) => ({ "data-measure": r.measure, "data-skill": r.summary.skill })}
            testId="measures-table"
          />
          <h3>pass@k (a task passes when some repeat scores at least 0.5)</h3>
          <Table
            columns={passColumns}
            rows={state.data.pass_at_k}
            rowKey={(p) => `${p.skill}:${p.config}`}
            testId="pass-at-k-table"
          />
          {state.data.preference.length > 0 && (
            <>
              <h3>The judge's pairwise preference</h3>
              <p className="muted" data-testid="preference-method">
                {state.data.preference_method}.
              </p>
              <Table
                columns={preferenceColumns}
                rows={state.data.preference}
                rowKey={(p) => `${p.skill}:${p.config}`}
                testId="preference-table"
              />
            </>
          )}
          {state.data.activation.length > 0 && (
            <ActivationTable
              rows={state.data.activation}
              method={state.data.activation_method}
              experimentId={experimentId}
            />
          )}
          {state.data.not_measured.length > 0 && (
            <p className="notice notice-warning" data-testid="measures-missing">
              Not measured: {state.data.not_measured.join("; ")}
            </p>
          )}
        </>
      )}
    </section>
  );
}
