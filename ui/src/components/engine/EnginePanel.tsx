import { engineStatus } from "../../bindings/commands";
import type { EngineStatus } from "../../bindings/EngineStatus";
import { ENGINE_STATE } from "../../lib/engine";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { Badge } from "../shared/Badge";

type Props = { onChecked?: (status: EngineStatus) => void };

/** Which container engine answers, or why none does, every address tried, and the exact fix. */
export function EnginePanel({ onChecked }: Props) {
  const [state, reload] = useAsync(async () => {
    const status = await engineStatus();
    onChecked?.(status);
    return status;
  }, []);
  return (
    <div data-testid="engine-status">
      <AsyncView state={state} what="the container engine" onRetry={reload}>
        {(status) => <EngineStatusView status={status} onRecheck={reload} />}
      </AsyncView>
    </div>
  );
}

function EngineStatusView({ status, onRecheck }: { status: EngineStatus; onRecheck: () => void }) {
  const { label, tone } = ENGINE_STATE[status.state];
  const failed = status.checked.filter((c) => c.problem !== null);
  return (
    <div data-engine-state={status.state}>
      <p>
        Container engine: <Badge tone={tone}>{label}</Badge>{" "}
        {status.endpoint && (
          <span className="muted">
            {status.version ?? "engine"} at <code>{status.endpoint.host}</code> ({status.endpoint.source})
          </span>
        )}{" "}
        <button type="button" className="button-ghost" onClick={onRecheck} data-testid="engine-recheck">
          Check again
        </button>
      </p>
      {status.fix && (
        <div className="notice notice-warning" role="alert" data-testid="engine-fix">
          <strong>Trials cannot run until an engine answers</strong>
          <p>{status.fix}</p>
        </div>
      )}
      {status.state !== "running" && failed.length > 0 && (
        <details>
          <summary>Addresses tried ({failed.length})</summary>
          <ul>
            {failed.map((c) => (
              <li key={c.endpoint.host}>
                <code>{c.endpoint.host}</code> ({c.endpoint.source}): {c.problem}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
