import { describe, expect, it } from "vitest";
import type { StatsSummary } from "../bindings/StatsSummary";
import {
  formatDelta,
  formatShare,
  formatShareCi,
  mdeTitle,
  signFlipBound,
  signFlipText,
  tasksText,
  tasksTitle,
} from "./statsFormat";

const summary = (patch: Partial<StatsSummary>): StatsSummary =>
  ({
    skill: "pdf",
    config: "all",
    unit: "task",
    unit_method: "per task: mean over its repeats",
    n: 12,
    n_nonzero: 12,
    n_pairs: 12,
    class: "ineffective",
    p_signflip: 0.5,
    p_signflip_method: "exact",
    p_signflip_error: 0,
    min_p: 2 / 4096,
    design_min_p: 2 / 4096,
    mde: null,
    mde_method: null,
    mde_se: null,
    ...patch,
  }) as StatsSummary;

describe("sign-flip p", () => {
  it("says exact, or the certified bounds it lies between, and the smallest reachable p", () => {
    expect(signFlipText(summary({}))).toBe("0.500");
    expect(signFlipBound(summary({}))).toBe(
      "Exact: the distribution of all sign assignments was computed. The smallest p the 12 untied of 12 tasks can reach is < 0.001.",
    );
    const grid = summary({ p_signflip: 0.0431, p_signflip_error: 0.0021, p_signflip_method: "grid" });
    expect(signFlipText(grid)).toBe("0.043 (grid)");
    expect(signFlipBound(grid)).toContain("the true p lies between 0.0410 and 0.0431");
    const few = summary({ n: 5, n_nonzero: 5, min_p: 0.0625 });
    expect(signFlipBound(few)).toContain("The smallest p the 5 untied of 5 tasks can reach is 0.063.");
  });

  it("counts tasks, the untied ones apart: ties cannot lower the reachable p", () => {
    const ties = summary({ n: 20, n_nonzero: 3, min_p: 0.25, design_min_p: 2 / 2 ** 20 });
    expect(tasksText(ties)).toBe("20 (3 untied)");
    expect(signFlipBound(ties)).toContain("The smallest p the 3 untied of 20 tasks can reach is 0.250.");
    const pooled = summary({
      n: 3,
      n_nonzero: 3,
      n_pairs: 6,
      unit_method: "per task: mean over its configurations and conditions of each one's mean over repeats",
    });
    expect(tasksTitle(pooled)).toBe(
      "3 tasks, one unit each (per task: mean over its configurations and conditions of each one's mean over repeats); 3 with a non-zero delta; 6 pairs with repeats.",
    );
  });

  it("says how the MDE was had", () => {
    expect(mdeTitle(summary({}))).toContain("none, fewer than 6 untied tasks");
    expect(mdeTitle(summary({ mde: 4.2, mde_method: "exact", mde_se: 0 }))).toContain(": exact power.");
    expect(mdeTitle(summary({ mde: 4.2, mde_method: "simulation", mde_se: 0.061 }))).toContain(
      "seeded simulation, standard error 0.06 points.",
    );
  });

  it("shows PRG in points like the delta", () => {
    expect(formatDelta(12.5)).toBe("+12.5");
  });
});

describe("shares", () => {
  it("shows an unknown share or interval end as a dash", () => {
    expect(formatShare(0.4)).toBe("40%");
    expect(formatShare(null)).toBe("—");
    expect(formatShareCi(0.22, 0.61)).toBe("22% to 61%");
    expect(formatShareCi(null, 0.61)).toBe("—");
  });
});
