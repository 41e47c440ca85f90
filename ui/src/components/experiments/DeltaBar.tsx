import { deltaBar } from "../../lib/experiments";
import { formatDelta } from "../../lib/statsFormat";

/** A delta in points with a small zero-centred bar: blue to the right for a gain, orange to the left for a loss. */
export function DeltaBar({ delta }: { delta: number }) {
  const { left, width, direction } = deltaBar(delta);
  return (
    <span className="delta">
      <span className="delta-bar" aria-hidden="true">
        <span className={`delta-fill delta-${direction}`} style={{ left: `${left}%`, width: `${width}%` }} />
      </span>
      <span className={`delta-value delta-${direction}`}>{formatDelta(delta)}</span>
    </span>
  );
}
