import type { ExperimentMeasures } from "../bindings/ExperimentMeasures";
// The skill × configuration heatmap of an experiment's statistics.
import type { PairView } from "../bindings/PairView";
import type { StatsClass } from "../bindings/StatsClass";
import type { StatsReport } from "../bindings/StatsReport";
import type { StatsSummary } from "../bindings/StatsSummary";
import { CLASSES } from "./experiments";
import type { ColourScheme } from "./useColourScheme";

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

/**
 * What the heatmap can colour by: the pass ratio, one of ACES's measures (their Skill Lift), the
 * judge's net preference, or activation accuracy (not a delta: shown on a grid of its own).
 */
export const HEAT_MEASURES = [
  ["pass_ratio", "Pass ratio"],
  ["composite", "Skill Lift (composite)"],
  ["security", "security"],
  ["skill_execution", "skill_execution"],
  ["skill_efficiency", "skill_efficiency"],
  ["behavior_check", "behavior_check (judge)"],
  ["goal_accuracy", "goal_accuracy (judge)"],
  ["accuracy", "accuracy (judge)"],
  ["overall", "ACES overall (six metrics)"],
  ["preference", "net preference (judge)"],
  ["activation", "activation accuracy (routing cases)"],
] as const;

/** The statistics of one measure; null when the experiment has none (a judged measure without a judge). */
export function measureReport(m: ExperimentMeasures, measure: string): StatsReport | null {
  return m.metrics.find((r) => r.measure === measure)?.report ?? null;
}

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
export const GAIN_MARK = "▲";
export const LOSS_MARK = "▼";

/** "*" when the sign-flip p is below 0.05, "†" when the BH q is; both, or neither. */
export function significanceMarks(s: StatsSummary): string {
  return (s.p_signflip < ALPHA ? P_MARK : "") + (s.q_bh < ALPHA ? Q_MARK : "");
}

type Rgb = [number, number, number];

/**
 * Blue for a gain, orange for a loss (told apart with any colour vision), from the neutral at 0 outwards
 * in even steps up to ±HEAT_LIMIT. Light: ColorBrewer PuOr and RdBu, darker with the size of the delta;
 * dark: the same hues growing lighter out of a grey near the page's. The two sides' steps roughly match in lightness.
 */
const SCALES: Record<ColourScheme, { neutral: string; loss: string[]; gain: string[] }> = {
  light: {
    neutral: "#f7f7f7",
    loss: ["#fee0b6", "#fdb863", "#e08214", "#b35806"],
    gain: ["#d1e5f0", "#92c5de", "#4393c3", "#2166ac"],
  },
  dark: {
    neutral: "#2a2f36",
    loss: ["#7f3b08", "#b35806", "#e08214", "#fdb863"],
    gain: ["#1c4f80", "#2166ac", "#4393c3", "#92c5de"],
  },
};

const rgb = (code: string): Rgb => [1, 3, 5].map((i) => parseInt(code.slice(i, i + 2), 16)) as Rgb;
const hex = (c: Rgb): string => `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;

/** WCAG relative luminance of an sRGB colour. */
function luminance(c: Rgb): number {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two "#rrggbb" colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(rgb(a)), luminance(rgb(b))].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export type HeatColour = { background: string; text: string };

// Pure black, not the page's text colour: only black or white keeps 4.5:1 on every mid-lightness cell.
const TEXT_ON_LIGHT = "#000000";
const TEXT_ON_DARK = "#ffffff";

/** A cell's background on the zero-centred scale (clamped at ±HEAT_LIMIT), and whichever text colour contrasts more. */
export function heatColour(delta: number, scheme: ColourScheme): HeatColour {
  const { neutral, loss, gain } = SCALES[scheme];
  const stops = [neutral, ...(delta < 0 ? loss : gain)].map(rgb);
  const at = (Math.min(Math.abs(delta), HEAT_LIMIT) / HEAT_LIMIT) * (stops.length - 1);
  const i = Math.min(Math.floor(at), stops.length - 2);
  const background = hex(stops[i].map((c, k) => Math.round(c + (stops[i + 1][k] - c) * (at - i))) as Rgb);
  const text =
    contrastRatio(background, TEXT_ON_LIGHT) >= contrastRatio(background, TEXT_ON_DARK) ? TEXT_ON_LIGHT : TEXT_ON_DARK;
  return { background, text };
}

/** The sign of a delta as a shape, not only a colour: "▲" a gain, "▼" a loss, none when shown as 0.0. */
export function heatSymbol(delta: number): string {
  if (Number(Math.abs(delta).toFixed(1)) === 0) return ""; // as formatDelta rounds
  return delta > 0 ? GAIN_MARK : LOSS_MARK;
}

/** The ticks of the legend, in points. */
export const LEGEND_TICKS = [-HEAT_LIMIT, -HEAT_LIMIT / 2, 0, HEAT_LIMIT / 2, HEAT_LIMIT];

/** The legend's colour bar as a CSS gradient from −HEAT_LIMIT (left) to +HEAT_LIMIT, a stop at each of the scale's. */
export function legendGradient(scheme: ColourScheme): string {
  const steps = SCALES[scheme].gain.length;
  const stops = Array.from({ length: 2 * steps + 1 }, (_, k) => {
    const delta = ((k - steps) / steps) * HEAT_LIMIT;
    return `${heatColour(delta, scheme).background} ${(k / (2 * steps)) * 100}%`;
  });
  return `linear-gradient(to right, ${stops.join(", ")})`;
}
