import type { TrajectorySummary } from "../../bindings/TrajectorySummary";
import { formatCost, formatTokens } from "../../lib/format";
import { stopReasonLabel } from "../../lib/trajectory";
import type { Column } from "../shared/Table";

/** What every list of trajectories shows: why the agent stopped, its tokens, cost and steps. */
export const TRAJECTORY_COLUMNS: Column<TrajectorySummary>[] = [
  { header: "Stop reason", className: "col-nowrap", render: (t) => stopReasonLabel(t.stop_reason) },
  {
    header: "Tokens",
    className: "col-nowrap",
    render: (t) => formatTokens({ input: t.input_tokens, cached: t.cached_tokens, output: t.output_tokens }),
  },
  { header: "Cost", className: "col-num", render: (t) => formatCost(t.cost_usd) },
  { header: "Steps", className: "col-num", render: (t) => t.steps.toLocaleString("en") },
];
