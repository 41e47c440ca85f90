import { useState } from "react";
import type { StatsReport } from "../../bindings/StatsReport";
import type { StatsSummary } from "../../bindings/StatsSummary";
import { skillRows } from "../../lib/experiments";
import { skillHref } from "../../lib/route";
import {
  formatCi,
  formatDelta,
  formatGain,
  formatP,
  formatPoints,
  formatRate,
  mdeTitle,
  signFlipBound,
  signFlipText,
  tasksText,
  tasksTitle,
} from "../../lib/statsFormat";
import { ClassBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { Table, type Column } from "../shared/Table";
import { DeltaBar } from "./DeltaBar";

/** The Decision tab of a pooled row's skill, once its library id is known. */
function DecideLink({ id }: { id: number | undefined }) {
  return id === undefined ? null : (
    <a href={skillHref(id, "decision")} data-testid="decide-link" title="Record a deployment decision on this skill">
      Decide
    </a>
  );
}

const columns = (skillIds: Map<string, number>): Column<StatsSummary>[] => [
  { header: "Skill", className: "col-nowrap", render: (s) => (s.config === "all" ? <strong>{s.skill}</strong> : null) },
  {
    header: "Configuration",
    className: "col-nowrap",
    render: (s) =>
      s.config === "all" ? <span className="muted">all (pooled)</span> : <span className="nested">{s.config}</span>,
  },
  {
    header: "Tasks (untied)",
    className: "col-nowrap col-num",
    render: (s) => <span title={tasksTitle(s)}>{tasksText(s)}</span>,
  },
  {
    header: "Without → with",
    className: "col-nowrap col-num",
    render: (s) => `${formatPoints(s.mean_without)} → ${formatPoints(s.mean_with)}`,
  },
  { header: "Delta", className: "col-nowrap", render: (s) => <DeltaBar delta={s.delta} /> },
  { header: "95% CI", className: "col-nowrap col-num", render: (s) => formatCi(s.ci_low, s.ci_high) },
  {
    header: "p (sign-flip)",
    className: "col-nowrap col-num",
    render: (s) => <span title={signFlipBound(s)}>{signFlipText(s)}</span>,
  },
  {
    header: "Reachable p",
    className: "col-nowrap col-num",
    render: (s) => (
      <span title="The smallest sign-flip p the untied tasks can reach, 2 / 2^untied: tied tasks cannot move it">
        {formatP(s.min_p)}
      </span>
    ),
  },
  { header: "p (Wilcoxon)", className: "col-nowrap col-num", render: (s) => formatP(s.p_wilcoxon) },
  { header: "p (t-test)", className: "col-nowrap col-num", render: (s) => formatP(s.p_ttest) },
  { header: "q (BH)", className: "col-nowrap col-num", render: (s) => formatP(s.q_bh) },
  { header: "Class", className: "col-nowrap", render: (s) => <ClassBadge value={s.class} minP={s.min_p} /> },
  {
    header: "MDE",
    className: "col-nowrap col-num",
    render: (s) => <span title={mdeTitle(s)}>{formatPoints(s.mde)}</span>,
  },
  { header: "PRG", className: "col-num", render: (s) => formatDelta(s.prg) },
  { header: "EG", className: "col-num", render: (s) => <span title={`${s.n_eg} pairs`}>{formatGain(s.eg)}</span> },
  { header: "CG", className: "col-num", render: (s) => <span title={`${s.n_cg} pairs`}>{formatGain(s.cg)}</span> },
  { header: "ECG", className: "col-num", render: (s) => formatGain(s.ecg) },
  { header: "Ceiling", className: "col-num", render: (s) => formatRate(s.ceiling_rate) },
  {
    header: "Decision",
    className: "col-nowrap",
    render: (s) => s.config === "all" && <DecideLink id={skillIds.get(s.skill)} />,
  },
];

type Props = { report: StatsReport; skillIds: Map<string, number> };

/**
 * One row per skill pooled over configurations, with its per-configuration rows nested below when shown;
 * a pooled row links to its skill's decision (`skillIds`: library id by skill name).
 */
export function SkillResultsTable({ report, skillIds }: Props) {
  const [perConfig, setPerConfig] = useState(true);
  return (
    <section className="panel">
      <div className="panel-header">
        <h2>Skills</h2>
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid="show-configs"
            checked={perConfig}
            onChange={(e) => setPerConfig(e.target.checked)}
          />
          Show each configuration
        </label>
      </div>
      <div className="table-scroll">
        <Table
          testId="skill-results"
          columns={columns(skillIds)}
          rows={skillRows(report, perConfig)}
          rowKey={(s) => `${s.skill}\u0000${s.config}`}
          rowAttributes={(s) => ({
            "data-testid": "skill-result",
            "data-skill": s.skill,
            "data-config": s.config,
            "data-class": s.class,
            className: s.config === "all" ? "pooled" : undefined,
          })}
          empty={
            <EmptyState title="No skill has a scored pair yet.">
              Statistics appear once both arms of a pair finish.
            </EmptyState>
          }
        />
      </div>
      <HowComputed />
    </section>
  );
}

function HowComputed() {
  return (
    <details className="how-computed" data-testid="how-computed">
      <summary>How these are computed</summary>
      <ul>
        <li>
          Scores are pass ratios in points (0–100). A unit is a task: its repeats averaged, and in a pooled row the mean
          over its configurations and conditions of each one&rsquo;s repeat mean, so a task counts once; n counts tasks,
          untied those whose delta is not 0.
        </li>
        <li>
          Delta = mean(with − without) over units, in points; every test sees the same unit deltas, taken as exact
          fractions (passed / total), so equal deltas are equal and zero in all of them. 95% CI by percentile bootstrap
          (10,000 resamples, seeded).
        </li>
        <li>
          p (sign-flip) is the paired two-sided sign-flip test: exact, or certified bounds (deltas rounded to a grid,
          the upper bound shown, refined while the bounds contain 0.05); q (BH) is its Benjamini–Hochberg adjustment,
          within the pooled rows and within the per-configuration rows. p (Wilcoxon) is exact up to 300 non-zero units,
          normal beyond.
        </li>
        <li>
          Golden / Harmful: delta above / below 0 with sign-flip p &lt; 0.05. Ineffective = no directional effect
          detected, not &lsquo;no effect&rsquo;. Undecided: the bounds of p contain 0.05. Too few tasks: the smallest p
          the design can reach, 2 / 2<sup>n</sup>, is 0.05 or more (n ≤ 5), so no verdict was possible.
        </li>
        <li>
          Reachable p = 2 / 2<sup>untied</sup>: the smallest p these deltas can reach, as tied tasks cannot move the
          sign-flip statistic.
        </li>
        <li>
          MDE: the smallest mean delta the sign-flip test detects with 80% power at α = 0.05, with the observed delta
          sizes and each task moving up with a fixed probability: exact power (every sign assignment enumerated up to 16
          untied tasks, or on the deltas&rsquo; common denominator when that keeps it small), else a seeded simulation
          (its standard error in the tooltip).
        </li>
        <li>PRG = mean(with − without) over pairs (every repeat counts), in points like the delta.</li>
        <li>
          EG / CG = mean symmetric relative saving (wo − wi) / max(wo, wi) of agent time / effective input tokens (input
          minus cached), on pairs where both runs scored above 0.
        </li>
        <li>ECG = ½·EG + ½·CG.</li>
        <li>Ceiling rate = share of pairs whose without run already scored 1.0 (no room to improve).</li>
      </ul>
    </details>
  );
}
