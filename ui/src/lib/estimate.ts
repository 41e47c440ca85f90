import type { ExperimentEstimate } from "../bindings/ExperimentEstimate";
import { formatCost, plural } from "./format";

/** A duration rounded as far as an estimate can claim: "45 s", "4 min", "2.5 h", "12 h". */
export function roughDuration(secs: number): string {
  if (secs < 60) return `${Math.round(secs)} s`;
  if (secs < 3600) return `${Math.round(secs / 60)} min`;
  const hours = secs / 3600;
  return `${hours < 10 ? Math.round(hours * 10) / 10 : Math.round(hours)} h`;
}

/** "2–7 min" when both ends round to one unit, else "40 s – 2 min". */
function durationRange([low, high]: [number, number]): string {
  const [from, to] = [roughDuration(low), roughDuration(high)];
  const [fromValue, fromUnit] = from.split(" ");
  const [toValue, toUnit] = to.split(" ");
  return fromUnit === toUnit ? `${fromValue}–${toValue} ${toUnit}` : `${from} – ${to}`;
}

/** "≈ 4 min (2–7 min)"; without the range when there is none. */
export function formatWall(secs: number, range: [number, number] | null): string {
  return `≈ ${roughDuration(secs)}${range ? ` (${durationRange(range)})` : ""}`;
}

/** What the estimate says about time and cost, each part as the form shows it. */
export type EstimateText = {
  time: string;
  cost: string;
  /** What the time rests on, when it rests on anything. */
  basis: string | null;
  /** Why time and cost are unknown, when a configuration has never run here. */
  noBasis: string | null;
};

/** The estimate in words; `configName` names a configuration by id. */
export function estimateText(e: ExperimentEstimate, configName: (id: number) => string): EstimateText {
  return {
    time: e.wall_secs === null ? "unknown" : formatWall(e.wall_secs, e.wall_secs_range),
    cost: e.cost_usd === null ? "unknown" : formatCost(e.cost_usd),
    basis:
      e.wall_secs === null
        ? null
        : `From ${plural(e.basis_trials, "past trial")} of these configurations, ${e.concurrency} run at a time.`,
    noBasis:
      e.unknown_configs.length > 0
        ? `No past trials of ${e.unknown_configs.map(configName).join(", ")} in this workspace: time and cost unknown until some run.`
        : null,
  };
}
