import { setQueuePaused } from "../../bindings/commands";
import type { QueueStatus } from "../../bindings/QueueStatus";
import { countsText } from "../../lib/trialStates";
import { useAction } from "../../lib/useAction";
import { Badge } from "../shared/Badge";
import { ErrorPanel } from "../shared/ErrorPanel";

type Props = { status: QueueStatus; onStatus: (status: QueueStatus) => void };

/** The queue's state, its counts, Pause/Resume, and why it is waiting for Docker when it is. */
export function QueueHeader({ status, onStatus }: Props) {
  const [toggle, run] = useAction<void>();
  const flip = () => run(async () => onStatus(await setQueuePaused(!status.paused)));
  return (
    <section className="panel queue-header" data-testid="queue-header">
      <div className="queue-summary">
        <h2>Queue</h2>
        <Badge tone={status.paused ? "warning" : "success"} testId="queue-state">
          {status.paused ? "Paused" : "Active"}
        </Badge>
        <span className="muted">
          Concurrency {status.concurrency} · <span data-testid="queue-counts">{countsText(status.counts)}</span>
        </span>
        <button type="button" data-testid="queue-toggle" disabled={toggle.status === "running"} onClick={flip}>
          {status.paused ? "Resume" : "Pause"}
        </button>
      </div>
      {status.paused && <p className="muted">Paused: running trials finish, nothing new starts.</p>}
      {status.engine_problem && (
        <div className="notice notice-warning" role="alert" data-testid="engine-problem">
          <strong>The queue is waiting for the Docker engine</strong>
          <p>{status.engine_problem}</p>
        </div>
      )}
      {toggle.status === "failed" && <ErrorPanel error={toggle.error} testId="queue-toggle-error" />}
    </section>
  );
}
