import type { Chart } from "../../bindings/Chart";
import type { AsyncState } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { EmptyState } from "../shared/EmptyState";
import { ChartFigure } from "./ChartFigure";

/** Every chart of the experiment. */
export function ChartsSection({ state, onRetry }: { state: AsyncState<Chart[]>; onRetry: () => void }) {
  return (
    <section className="panel" data-testid="charts">
      <h2>Charts</h2>
      <AsyncView state={state} what="the charts" onRetry={onRetry}>
        {(charts) =>
          charts.length === 0 ? (
            <EmptyState title="This experiment has no charts yet." />
          ) : (
            <div className="charts-grid">
              {charts.map((chart) => (
                <ChartFigure key={chart.title} chart={chart} />
              ))}
            </div>
          )
        }
      </AsyncView>
    </section>
  );
}
