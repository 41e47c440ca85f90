import { describe, expect, it } from "vitest";
import type { StatsSummary } from "../bindings/StatsSummary";
import { formatDelta, formatShare, formatShareCi, signFlipBound, signFlipText } from "./statsFormat";

const summary = (patch: Partial<StatsSummary>): StatsSummary =>
  ({
    skill: "pdf",
    config: "all",
    n: 12,
    class: "ineffective",
    p_signflip: 0.5,
    p_signflip_method: "exact",
    p_signflip_error: 0,
    min_p: 2 / 4096,
    ...patch,
  }) as StatsSummary;

describe("sign-flip p", () => {
  it("says exact, or the certified bounds it lies between, and the smallest reachable p", () => {
    expect(signFlipText(summary({}))).toBe("0.500");
    expect(signFlipBound(summary({}))).toBe(
      "Exact: the distribution of all sign assignments was computed. The smallest p these 12 tasks can reach is < 0.001.",
    );
    const grid = summary({ p_signflip: 0.0431, p_signflip_error: 0.0021, p_signflip_method: "grid" });
    expect(signFlipText(grid)).toBe("0.043 (grid)");
    expect(signFlipBound(grid)).toContain("the true p lies between 0.0410 and 0.0431");
    const few = summary({ n: 5, min_p: 0.0625 });
    expect(signFlipBound(few)).toContain("The smallest p these 5 tasks can reach is 0.063.");
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
