import { describe, expect, it } from "vitest";
import type { ExperimentEstimate } from "../bindings/ExperimentEstimate";
import { estimateText, formatWall, roughDuration } from "./estimate";

const estimate = (patch: Partial<ExperimentEstimate>): ExperimentEstimate => ({
  pairs: 12,
  trials: 24,
  concurrency: 4,
  basis_trials: 30,
  wall_secs: 240,
  wall_secs_range: [120, 420],
  cost_usd: 0.42,
  method: "mean duration",
  unknown_configs: [],
  ...patch,
});

describe("experiment estimate", () => {
  it("rounds durations to seconds, minutes or hours", () => {
    expect(roughDuration(44.6)).toBe("45 s");
    expect(roughDuration(240)).toBe("4 min");
    expect(roughDuration(9000)).toBe("2.5 h");
    expect(roughDuration(7200)).toBe("2 h");
    expect(roughDuration(45000)).toBe("13 h");
  });

  it("writes the wall time with its range, sharing the unit when both ends have it", () => {
    expect(formatWall(240, [120, 420])).toBe("≈ 4 min (2–7 min)");
    expect(formatWall(100, [40, 160])).toBe("≈ 2 min (40 s – 3 min)");
    expect(formatWall(240, null)).toBe("≈ 4 min");
  });

  it("states time, cost and what they rest on", () => {
    expect(estimateText(estimate({}), String)).toEqual({
      time: "≈ 4 min (2–7 min)",
      cost: "$0.42",
      basis: "From 30 past trials of these configurations, 4 run at a time.",
      noBasis: null,
    });
    expect(estimateText(estimate({ cost_usd: null }), String).cost).toBe("unknown");
  });

  it("says which configurations have no history when time and cost are unknown", () => {
    const names = new Map([
      [1, "small"],
      [2, "big"],
    ]);
    const text = estimateText(
      estimate({ wall_secs: null, wall_secs_range: null, cost_usd: null, basis_trials: 0, unknown_configs: [1, 2] }),
      (id) => names.get(id) ?? "",
    );
    expect(text).toMatchObject({ time: "unknown", cost: "unknown", basis: null });
    expect(text.noBasis).toBe("No past trials of small, big in this workspace: time and cost unknown until some run.");
  });
});
