import { useDeferredValue, useMemo, useState } from "react";
import type { AtifStep } from "../api/types";
import { shownOf } from "../lib/format";
import { filterSteps, indexSteps } from "../lib/trajectory";
import { EmptyState } from "./EmptyState";
import { TrajectoryStep } from "./TrajectoryStep";

/** Steps rendered at once; "Show more" adds as many again. */
const PAGE = 200;

/** A trajectory's steps, filtered by a text query, rendered a page at a time. */
export function TrajectorySteps({ steps }: { steps: AtifStep[] }) {
  const index = useMemo(() => indexSteps(steps), [steps]);
  const [query, setQuery] = useState("");
  const [limit, setLimit] = useState(PAGE);
  // Typing stays responsive on long trajectories: the list follows the query when it can.
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(() => filterSteps(index, deferredQuery), [index, deferredQuery]);
  const remaining = shown.length - limit;

  return (
    <div className="trajectory" data-testid="trajectory">
      <div className="toolbar">
        <input
          type="search"
          className="search"
          data-testid="traj-filter"
          placeholder="Show only steps containing…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setLimit(PAGE);
          }}
        />
        <span className="muted" data-testid="traj-count">
          {shownOf(shown.length, steps.length, "step")}
        </span>
      </div>
      {shown.length === 0 && <EmptyState title={steps.length === 0 ? "This trajectory has no steps." : "No step contains this text."} />}
      {shown.slice(0, limit).map((entry) => (
        <TrajectoryStep key={entry.position} step={entry.step} />
      ))}
      {remaining > 0 && (
        <button type="button" data-testid="traj-show-more" onClick={() => setLimit(limit + PAGE)}>
          Show {Math.min(PAGE, remaining)} more ({remaining} not shown)
        </button>
      )}
    </div>
  );
}
