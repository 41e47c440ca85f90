// The skill × configuration heatmap of an experiment's statistics.
import type { PairView } from "../bindings/PairView";
import type { StatsClass } from "../bindings/StatsClass";
import type { StatsReport } from "../bindings/StatsReport";
import type { StatsSummary } from "../bindings/StatsSummary";
import { CLASSES } from "./experiments";

/** The configuration a pair's statistics are reported under: the group condition's as "<config> (group)". */
export function pairGroupConfig(p: PairView): string {
  return p.condition === "group" ? `${p.config} (group)` : p.config;
}

/** The library versions a heatmap row's pairs ran ("v2"), in order: one per row unless a skill's pairs were pooled. */
export function skillVersions(pairs: PairView[], skill: string): string {
  const versions = [...new Set(pairs.filter((p) => p.skill === skill).map((p) => p.skill_version))].sort(
    (a, b) => a - b,
  );
  return versions.map((v) => `v${v}`).join(", ");
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
  ["category", "Category"],
  ["class", "Class"],
] as const;
export type HeatSort = (typeof HEAT_SORTS)[number][0];

/** How the grid is shown: its order, and the class and category it is narrowed to (null: all). */
export type HeatView = { sort: HeatSort; classFilter: StatsClass | null; category: string | null };

/** Each skill's category as its SKILL.md declares it (by skill name). */
export type Categories = { [skill in string]?: string };
export const UNCATEGORISED = "Uncategorised";
export const categoryOf = (categories: Categories, skill: string) => categories[skill] ?? UNCATEGORISED;

/** The categories of the report's skills, by name, with "Uncategorised" last. */
export function heatCategories(report: StatsReport, categories: Categories): string[] {
  const names = new Set(report.skills.map((s) => categoryOf(categories, s.skill)));
  const named = [...names].filter((c) => c !== UNCATEGORISED).sort((a, b) => a.localeCompare(b));
  return names.has(UNCATEGORISED) ? [...named, UNCATEGORISED] : named;
}

/** A skill (its pooled statistics) with its statistics per configuration; null where it has none. */
export type HeatRow = { skill: StatsSummary; category: string; cells: (StatsSummary | null)[] };
export type HeatGrid = { configs: string[]; rows: HeatRow[] };

type Compare = (a: StatsSummary, b: StatsSummary) => number;
const byName: Compare = (a, b) => a.skill.localeCompare(b.skill);
const byDelta: Compare = (a, b) => b.delta - a.delta || byName(a, b);
const byClass: Compare = (a, b) => CLASSES.indexOf(a.class) - CLASSES.indexOf(b.class) || byDelta(a, b);

function compare(sort: HeatSort, categories: Categories): Compare {
  if (sort !== "category") return { delta: byDelta, name: byName, class: byClass }[sort];
  const order = (s: StatsSummary) => categoryOf(categories, s.skill);
  return (a, b) => {
    const [x, y] = [order(a), order(b)];
    if (x === y) return byDelta(a, b);
    if (x === UNCATEGORISED || y === UNCATEGORISED) return x === UNCATEGORISED ? 1 : -1;
    return x.localeCompare(y);
  };
}

/**
 * Rows are the skills (sorted; only those of the view's class and category when given, by their pooled
 * class), columns the configurations in the report's order (the pooled "all" left out).
 */
export function heatGrid(report: StatsReport, categories: Categories, view: HeatView): HeatGrid {
  const groups = report.groups.filter((g) => g.config !== "all");
  const configs = [...new Set(groups.map((g) => g.config))];
  const rows = report.skills
    .filter((s) => view.classFilter === null || s.class === view.classFilter)
    .filter((s) => view.category === null || categoryOf(categories, s.skill) === view.category)
    .sort(compare(view.sort, categories))
    .map((skill) => ({
      skill,
      category: categoryOf(categories, skill.skill),
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
