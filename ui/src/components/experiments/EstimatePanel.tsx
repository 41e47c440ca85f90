import { estimateExperiment } from "../../bindings/commands";
import type { AgentConfig } from "../../bindings/AgentConfig";
import type { ExperimentDesign } from "../../bindings/ExperimentDesign";
import type { ExperimentEstimate } from "../../bindings/ExperimentEstimate";
import { estimateText } from "../../lib/estimate";
import type { Parsed } from "../../lib/forms";
import { useAsync } from "../../lib/useAsync";
import { useDebounced } from "../../lib/useDebounced";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Loading } from "../shared/Loading";

/** The back end is asked once the choices have stopped changing for this long. */
const SETTLE_MS = 400;

type Props = { design: Parsed<ExperimentDesign>; agents: AgentConfig[] };

/** The size, wall time and model cost of the design the form describes, kept current as it changes. */
export function EstimatePanel({ design, agents }: Props) {
  // Compared as text: the form builds a new design object on every render.
  const settled = useDebounced(design.ok ? JSON.stringify(design.value) : null, SETTLE_MS);
  const [state, reload] = useAsync(
    () => (settled === null ? Promise.resolve(null) : estimateExperiment(JSON.parse(settled) as ExperimentDesign)),
    [settled],
  );
  if (settled === null)
    return <p className="muted">The estimate appears once the form describes a complete experiment.</p>;
  if (state.status === "loading") return <Loading what="the estimate" />;
  if (state.status === "error")
    return <ErrorPanel error={state.error} onRetry={reload} testId="experiment-estimate-error" />;
  return state.data && <Estimate estimate={state.data} agents={agents} />;
}

function Estimate({ estimate, agents }: { estimate: ExperimentEstimate; agents: AgentConfig[] }) {
  const name = (id: number) => agents.find((a) => a.id === id)?.name ?? `configuration #${id}`;
  const { time, cost, basis, noBasis } = estimateText(estimate, name);
  return (
    <div data-testid="experiment-estimate" data-trials={estimate.trials}>
      <dl className="summary-stats">
        <div>
          <dt>Pairs</dt>
          <dd data-testid="experiment-estimate-pairs">{estimate.pairs}</dd>
        </div>
        <div title="Two per pair: without and with the skill">
          <dt>Trials</dt>
          <dd data-testid="experiment-estimate-trials">{estimate.trials}</dd>
        </div>
        <div>
          <dt>Wall time</dt>
          <dd data-testid="experiment-estimate-time">{time}</dd>
        </div>
        <div>
          <dt>Model cost</dt>
          <dd data-testid="experiment-estimate-cost">{cost}</dd>
        </div>
      </dl>
      {noBasis && (
        <p className="notice notice-info" data-testid="experiment-estimate-no-basis">
          {noBasis}
        </p>
      )}
      <p className="muted">
        <small data-testid="experiment-estimate-method">
          {basis && `${basis} `}
          {estimate.method}
        </small>
      </p>
    </div>
  );
}
