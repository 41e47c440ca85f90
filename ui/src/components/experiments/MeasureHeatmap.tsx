import { useState } from "react";
import { experimentMeasures } from "../../bindings/commands";
import type { ExperimentMeasures } from "../../bindings/ExperimentMeasures";
import type { StatsReport } from "../../bindings/StatsReport";
import { HEAT_MEASURES, measureReport } from "../../lib/heatmap";
import { useAction } from "../../lib/useAction";
import { EmptyState } from "../shared/EmptyState";
import { ErrorPanel } from "../shared/ErrorPanel";
import { ActivationGrid } from "./ActivationGrid";
import { Heatmap, type HeatmapProps } from "./Heatmap";

/**
 * The heatmap of the measure the user picks: the pass ratio (the experiment's statistics), one of
 * ACES's measures or the judge's net preference (their deltas), or activation accuracy (its own
 * grid), measured from the trajectories the first time one is picked.
 */
export function MeasureHeatmap(props: HeatmapProps) {
  const [measure, setMeasure] = useState("pass_ratio");
  const [state, run] = useAction<ExperimentMeasures>();
  const choose = (m: string) => {
    setMeasure(m);
    if (m !== "pass_ratio" && (state.status === "idle" || state.status === "failed")) {
      void run(() => experimentMeasures(props.experimentId));
    }
  };
  const select = (
    <label className="checkbox">
      Measure
      <select data-testid="heat-measure" value={measure} onChange={(e) => choose(e.target.value)}>
        {HEAT_MEASURES.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
  if (measure === "activation" && state.status === "done") {
    return (
      <Heatmap {...props} measureSelect={select}>
        <ActivationGrid activation={state.data.activation} />
      </Heatmap>
    );
  }
  const report: StatsReport | null | undefined =
    measure === "pass_ratio" ? props.report : state.status === "done" ? measureReport(state.data, measure) : undefined;
  if (report === undefined) {
    return (
      <Heatmap {...props} measureSelect={select}>
        {state.status === "failed" ? (
          <ErrorPanel error={state.error} testId="heat-measure-error" />
        ) : (
          <p className="muted" data-testid="heat-measuring">
            Measuring the trajectories…
          </p>
        )}
      </Heatmap>
    );
  }
  if (report === null) {
    return (
      <Heatmap {...props} measureSelect={select}>
        <EmptyState title="No pair of this experiment has both arms graded by a judge." />
      </Heatmap>
    );
  }
  return <Heatmap {...props} report={report} measureSelect={select} />;
}
