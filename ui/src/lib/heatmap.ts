// The skill × configuration heatmap of an experiment's statistics.
import type { PairView, StatsClass, StatsReport, StatsSummary } from "../api/types";
import { CLASSES } from "./experiments";

/** The configuration a pair's statistics are reported under: the group condition's as "<config> (group)". */
export function pairGroupConfig(p: PairView): string {
  return p.condition === "group" ? `${p.config} (group)` : p.config;
}

/** The pairs behind one cell of the heatmap. */
export function cellPairs(pairs: PairView[], skill: string, config: string): PairView[] {
  return pairs.filter((p) => p.skill === skill && pairGroupConfig(p) === config);
}

/** The title the back end gives the requirement-level chart of one skill × configuration. */
export function requirementChartTitle(skill: string, config: string): string {
  return `Requirement-level deltas: ${skill} · ${config}`;
}

export const HEAT_SORTS = [
  ["delta", "Delta"],
  ["name", "Name"],
  ["class", "Class"],
] as const;
export type HeatSort = (typeof HEAT_SORTS)[number][0];

/** A skill (its pooled statistics) with its statistics per configuration; null where it has none. */
export type HeatRow = { skill: StatsSummary; cells: (StatsSummary | null)[] };
export type HeatGrid = { configs: string[]; rows: HeatRow[] };

const byName = (a: StatsSummary, b: StatsSummary) => a.skill.localeCompare(b.skill);
const byDelta = (a: StatsSummary, b: StatsSummary) => b.delta - a.delta || byName(a, b);
const byClass = (a: StatsSummary, b: StatsSummary) => CLASSES.indexOf(a.class) - CLASSES.indexOf(b.class) || byDelta(a, b);
const COMPARE: Record<HeatSort, (a: StatsSummary, b: StatsSummary) => number> = { delta: byDelta, name: byName, class: byClass };

/**
 * Rows are the skills (sorted; only those of `classFilter` when given, by their pooled class), columns the
 * configurations in the report's order (the pooled "all" left out).
 */
export function heatGrid(report: StatsReport, sort: HeatSort, classFilter: StatsClass | null): HeatGrid {
  const groups = report.groups.filter((g) => g.config !== "all");
  const configs = [...new Set(groups.map((g) => g.config))];
  const rows = report.skills
    .filter((s) => classFilter === null || s.class === classFilter)
    .sort(COMPARE[sort])
    .map((skill) => ({
      skill,
      cells: configs.map((config) => groups.find((g) => g.skill === skill.skill && g.config === config) ?? null),
    }));
  return { configs, rows };
}

/** Deltas beyond this many points get the end colours of the scale. */
export const HEAT_LIMIT = 100;
export const ALPHA = 0.05;
export const P_MARK = "*";
export const Q_MARK = "†";

/** "*" when the sign-flip p is below 0.05, "†" when the BH q is; both, or neither. */
export function significanceMarks(s: StatsSummary): string {
  return (s.p_signflip < ALPHA ? P_MARK : "") + (s.q_bh < ALPHA ? Q_MARK : "");
}

type Rgb = [number, number, number];
const NEUTRAL: Rgb = [246, 247, 248];
const LOSS: Rgb = [180, 35, 24];
const GAIN: Rgb = [29, 122, 62];

export type HeatColour = { background: string; text: string };

/** A zero-centred diverging colour: red for a loss, near-white at 0, green for a gain, full at ±HEAT_LIMIT points. */
export function heatColour(delta: number): HeatColour {
  const t = Math.max(-1, Math.min(1, delta / HEAT_LIMIT));
  const end = t < 0 ? LOSS : GAIN;
  const mix = NEUTRAL.map((c, i) => Math.round(c + (end[i] - c) * Math.abs(t)));
  return { background: `rgb(${mix.join(", ")})`, text: Math.abs(t) > 0.5 ? "#ffffff" : "#1d2127" };
}

/** The ticks of the legend, in points. */
export const LEGEND_TICKS = [-HEAT_LIMIT, -HEAT_LIMIT / 2, 0, HEAT_LIMIT / 2, HEAT_LIMIT];

/** The legend's colour bar as a CSS gradient, from −HEAT_LIMIT (left) to +HEAT_LIMIT. */
export function legendGradient(): string {
  const stops = LEGEND_TICKS.map((d) => `${heatColour(d).background} ${((d + HEAT_LIMIT) / (2 * HEAT_LIMIT)) * 100}%`);
  return `linear-gradient(to right, ${stops.join(", ")})`;
}
