import type { StateCounts } from "../../bindings/StateCounts";
import { countFinished, countsText, countTotal, progressSegments, stateColour } from "../../lib/trialStates";

/** A run's trials as one stacked bar (queued trials are its empty part) and "finished/total". */
export function RunProgress({ counts }: { counts: StateCounts }) {
  const total = countTotal(counts);
  const finished = countFinished(counts);
  return (
    <div className="run-progress">
      <div
        className="run-bar"
        role="progressbar"
        aria-label="Run progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={finished}
        title={countsText(counts)}
      >
        {progressSegments(counts).map((s) => (
          <div
            key={s.state}
            className={`run-bar-segment state-${stateColour(s.state)}`}
            style={{ width: `${s.percent}%` }}
          />
        ))}
      </div>
      <span className="run-count" data-testid="run-count">
        {finished}/{total}
      </span>
    </div>
  );
}
