import { trajectoryWindow } from "../../bindings/commands";
import type { WindowStep } from "../../bindings/WindowStep";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";
import { TrajectoryStep, type TrajectoryStepProps } from "./TrajectoryStep";

type Props = Omit<TrajectoryStepProps, "step" | "sinceMs"> & { trajectoryId: number; item: WindowStep };

/** A step as a window brought it: when its texts were cut for being huge, it says so and loads whole on request. */
export function WindowedStep({ trajectoryId, item, ...rest }: Props) {
  const [whole, run] = useAction<WindowStep>();
  const shown = whole.status === "done" ? whole.data : item;
  const loadWhole = () =>
    run(
      async () =>
        (await trajectoryWindow(trajectoryId, { offset: item.position, limit: 1, filter: "", whole: true })).steps[0],
    );
  return (
    <>
      <TrajectoryStep step={shown.step} sinceMs={item.since_ms} {...rest} />
      {shown.cut && (
        <div className="notice step-cut" data-testid="step-cut">
          Some text of this step is too long to load with the others; it is cut where marked.{" "}
          <button
            type="button"
            data-testid="step-load-whole"
            disabled={whole.status === "running"}
            onClick={() => void loadWhole()}
          >
            {whole.status === "running" ? "Loading…" : "Load the whole step"}
          </button>
          {whole.status === "failed" && <ErrorPanel error={whole.error} />}
        </div>
      )}
    </>
  );
}
