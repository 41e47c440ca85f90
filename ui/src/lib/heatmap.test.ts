import { describe, expect, it } from "vitest";
import type { ExperimentMeasures } from "../bindings/ExperimentMeasures";
import type { PairView } from "../bindings/PairView";
import type { StatsReport } from "../bindings/StatsReport";
import type { StatsSummary } from "../bindings/StatsSummary";
import {
  cellPairs,
  contrastRatio,
  heatCategories,
  heatColour,
  heatGrid,
  heatSymbol,
  HEAT_MEASURES,
  legendGradient,
  measureReport,
  pairGroupConfig,
  requirementChartTitle,
  significanceMarks,
  skillVersions,
  type HeatView,
} from "./heatmap";

const summary = (patch: Partial<StatsSummary>): StatsSummary =>
  ({
    skill: "pdf",
    config: "all",
    class: "ineffective",
    delta: 0,
    p_signflip: 0.5,
    q_bh: 0.5,
    n: 3,
    ...patch,
  }) as StatsSummary;

const report = (skills: StatsSummary[], groups: StatsSummary[]): StatsReport => ({
  overall: {} as StatsReport["overall"],
  skills,
  groups,
});

const pair = (patch: Partial<PairView>): PairView =>
  ({ id: 1, skill: "pdf", config: "small", condition: "isolated", ...patch }) as PairView;

const view = (patch: Partial<HeatView> = {}): HeatView => ({
  sort: "name",
  classFilter: null,
  category: null,
  ...patch,
});

describe("heatGrid", () => {
  const skills = [
    summary({ skill: "b", delta: 5, class: "ineffective" }),
    summary({ skill: "a", delta: -20, class: "harmful" }),
    summary({ skill: "c", delta: 30, class: "golden" }),
  ];
  const groups = [
    summary({ skill: "b", config: "small", delta: 5 }),
    summary({ skill: "a", config: "large", delta: -20 }),
    summary({ skill: "c", config: "small", delta: 30 }),
    summary({ skill: "c", config: "all", delta: 30 }),
  ];

  it("makes a row per skill and a column per configuration, with null where a skill has no statistics", () => {
    const grid = heatGrid(report(skills, groups), {}, view());
    expect(grid.configs).toEqual(["small", "large"]);
    expect(grid.rows.map((r) => r.skill.skill)).toEqual(["a", "b", "c"]);
    expect(grid.rows[0].cells.map((c) => c?.delta ?? null)).toEqual([null, -20]);
    expect(grid.rows[2].cells.map((c) => c?.delta ?? null)).toEqual([30, null]);
  });

  it("sorts by pooled delta (largest first) or by class, and filters by class", () => {
    const order = (v: HeatView, categories = {}) =>
      heatGrid(report(skills, groups), categories, v).rows.map((r) => r.skill.skill);
    expect(order(view({ sort: "delta" }))).toEqual(["c", "b", "a"]);
    expect(order(view({ sort: "class" }))).toEqual(["c", "b", "a"]);
    expect(order(view({ classFilter: "harmful" }))).toEqual(["a"]);
  });

  it("sorts by category (then delta, uncategorised last) and filters by category", () => {
    const categories = { a: "testing", b: "data" };
    const grid = (v: HeatView) => heatGrid(report(skills, groups), categories, v);
    expect(grid(view({ sort: "category" })).rows.map((r) => [r.skill.skill, r.category])).toEqual([
      ["b", "data"],
      ["a", "testing"],
      ["c", "Uncategorised"],
    ]);
    expect(grid(view({ category: "testing" })).rows.map((r) => r.skill.skill)).toEqual(["a"]);
    expect(grid(view({ category: "Uncategorised" })).rows.map((r) => r.skill.skill)).toEqual(["c"]);
    expect(heatCategories(report(skills, groups), categories)).toEqual(["data", "testing", "Uncategorised"]);
    expect(heatCategories(report(skills, groups), { a: "x", b: "x", c: "x" })).toEqual(["x"]);
  });

  it("does not reorder the report's own list", () => {
    const list = [...skills];
    heatGrid(report(list, groups), {}, view({ sort: "delta" }));
    expect(list).toEqual(skills);
  });
});

describe("cells", () => {
  it("reports the group condition under '<config> (group)'", () => {
    expect(pairGroupConfig(pair({ condition: "group" }))).toBe("small (group)");
    const pairs = [pair({ id: 1 }), pair({ id: 2, condition: "group" }), pair({ id: 3, skill: "xlsx" })];
    expect(cellPairs(pairs, "pdf", "small").map((p) => p.id)).toEqual([1]);
    expect(cellPairs(pairs, "pdf", "small (group)").map((p) => p.id)).toEqual([2]);
  });

  it("names the requirement-level chart as the back end does", () => {
    expect(requirementChartTitle("pdf", "small")).toBe("Requirement-level deltas: pdf · small");
  });

  it("marks p and q below 0.05", () => {
    expect(significanceMarks(summary({ p_signflip: 0.01, q_bh: 0.2 }))).toBe("*");
    expect(significanceMarks(summary({ p_signflip: 0.01, q_bh: 0.04 }))).toBe("*†");
    expect(significanceMarks(summary({ p_signflip: 0.05, q_bh: 0.05 }))).toBe("");
  });
});

describe("heatColour", () => {
  const deltas = Array.from({ length: 401 }, (_, i) => i / 2 - 100);

  it("is neutral at zero, orange for losses, blue for gains, clamped at ±100 points", () => {
    expect(heatColour(0, "light").background).toBe("#f7f7f7");
    expect(heatColour(-100, "light").background).toBe("#b35806");
    expect(heatColour(100, "light").background).toBe("#2166ac");
    expect(heatColour(-25, "light").background).toBe("#fee0b6");
    expect(heatColour(250, "light")).toEqual(heatColour(100, "light"));
    expect(heatColour(-250, "dark")).toEqual(heatColour(-100, "dark"));
    expect(heatColour(0, "dark").background).toBe("#2a2f36");
  });

  it("has ends of matching strength: a loss and the same gain are about equally light", () => {
    const lightness = (c: string) => contrastRatio(c, "#000000");
    for (const scheme of ["light", "dark"] as const)
      for (const d of deltas.filter((d) => d > 0)) {
        const [loss, gain] = [heatColour(-d, scheme), heatColour(d, scheme)].map((c) => lightness(c.background));
        expect(Math.max(loss, gain) / Math.min(loss, gain)).toBeLessThan(1.25);
      }
  });

  it("picks black or white text by the background's luminance, readable (4.5:1) everywhere", () => {
    expect(heatColour(0, "light").text).toBe("#000000");
    expect(heatColour(-100, "light").text).toBe("#ffffff");
    expect(heatColour(0, "dark").text).toBe("#ffffff");
    expect(heatColour(100, "dark").text).toBe("#000000");
    for (const scheme of ["light", "dark"] as const)
      for (const d of deltas) {
        const { background, text } = heatColour(d, scheme);
        expect(contrastRatio(background, text)).toBeGreaterThanOrEqual(4.5);
      }
  });

  it("marks the sign with a shape, none where the delta shows as 0.0", () => {
    expect(heatSymbol(12.5)).toBe("▲");
    expect(heatSymbol(-0.06)).toBe("▼");
    expect(heatSymbol(0)).toBe("");
    expect(heatSymbol(-0.04)).toBe("");
  });

  it("draws the legend with the same colours", () => {
    const gradient = legendGradient("dark");
    expect(gradient.startsWith(`linear-gradient(to right, ${heatColour(-100, "dark").background} 0%, `)).toBe(true);
    expect(gradient).toContain(`${heatColour(0, "dark").background} 50%`);
    expect(gradient).toContain(`${heatColour(-75, "dark").background} 12.5%`);
    expect(gradient.endsWith(`${heatColour(100, "dark").background} 100%)`)).toBe(true);
  });
});

describe("contrastRatio", () => {
  it("is the WCAG ratio", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });
});

describe("skillVersions", () => {
  it("names the versions a row's pairs ran", () => {
    const pairs = [
      pair({ skill: "pdf", skill_version: 2 }),
      pair({ skill: "pdf", skill_version: 2 }),
      pair({ skill: "csv", skill_version: 1 }),
    ];
    expect(skillVersions(pairs, "pdf")).toBe("v2");
    expect(skillVersions(pairs, "none")).toBe("");
  });
});

describe("heatmap measures", () => {
  it("picks a measure's statistics, and has none for a measure the experiment lacks", () => {
    const lift = report([summary({ skill: "pdf", delta: 40 })], []);
    const measures = { metrics: [{ measure: "skill_execution", report: lift }] } as unknown as ExperimentMeasures;
    expect(measureReport(measures, "skill_execution")).toBe(lift);
    expect(measureReport(measures, "behavior_check")).toBeNull();
    // Every option but the pass ratio and activation is a measure the back end names.
    expect(HEAT_MEASURES.map(([m]) => m)).toEqual([
      "pass_ratio",
      "composite",
      "security",
      "skill_execution",
      "skill_efficiency",
      "behavior_check",
      "goal_accuracy",
      "accuracy",
      "overall",
      "preference",
      "activation",
    ]);
  });
});
