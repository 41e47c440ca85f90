// Numbers of the experiment statistics, as the Results page shows them.
import type { StatsSummary } from "../bindings/StatsSummary";

const MINUS = "\u2212";
const DASH = "—";

const signed = (x: number, digits: number): string => {
  const text = Math.abs(x).toFixed(digits);
  if (Number(text) === 0) return text;
  return x < 0 ? `${MINUS}${text}` : `+${text}`;
};

/** "< 0.001", or three decimals: "0.043", "1.000". */
export function formatP(p: number): string {
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** Points with one decimal: "42.5"; "—" when unknown. */
export function formatPoints(x: number | null): string {
  return x === null ? DASH : x.toFixed(1);
}

/** A signed delta in points: "+12.5", "−3.0", "0.0"; "—" when unknown. */
export function formatDelta(x: number | null): string {
  return x === null ? DASH : signed(x, 1);
}

/** "[−2.1, +15.3]". */
export function formatCi(low: number, high: number): string {
  return `[${signed(low, 1)}, ${signed(high, 1)}]`;
}

/** A gain in −1..1 (EG, CG, ECG) with two decimals: "+0.25"; "—" when it could not be computed. */
export function formatGain(x: number | null): string {
  return x === null ? DASH : signed(x, 2);
}

/** A share as a whole percentage: "40%". */
export function formatRate(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** A share that may be unknown: "40%", or "—". */
export function formatShare(x: number | null): string {
  return x === null ? DASH : formatRate(x);
}

/** An interval of shares: "22% to 61%", or "—" when either end is unknown. */
export function formatShareCi(low: number | null, high: number | null): string {
  return low === null || high === null ? DASH : `${formatRate(low)} to ${formatRate(high)}`;
}

/** The sign-flip p, with how it was obtained when that is not exact: "0.031 (grid)". */
export function signFlipText(s: StatsSummary): string {
  const p = formatP(s.p_signflip);
  return s.p_signflip_method === "exact" ? p : `${p} (${s.p_signflip_method})`;
}

/** What the sign-flip p is, for its tooltip: exact, or its certified bounds, and the smallest reachable p. */
export function signFlipBound(s: StatsSummary): string {
  const reach = `The smallest p the ${s.n_nonzero} untied of ${s.n} tasks can reach is ${formatP(s.min_p)}.`;
  if (s.p_signflip_method === "exact") return `Exact: the distribution of all sign assignments was computed. ${reach}`;
  const low = Math.max(0, s.p_signflip - s.p_signflip_error);
  return `Certified bounds: the true p lies between ${low.toPrecision(3)} and ${s.p_signflip.toPrecision(3)} (deltas rounded to a grid; p shown is the upper bound). ${reach}`;
}

/** The tasks of a row and how many have a non-zero delta: "20 (3 untied)". */
export function tasksText(s: StatsSummary): string {
  return `${s.n} (${s.n_nonzero} untied)`;
}

/** What n counts, for its tooltip: the unit (a task) and how its value was formed. */
export function tasksTitle(s: StatsSummary): string {
  return `${s.n} tasks, one unit each (${s.unit_method}); ${s.n_nonzero} with a non-zero delta; ${s.n_pairs} pairs with repeats.`;
}

/** How the MDE was had, for its tooltip. */
export function mdeTitle(s: StatsSummary): string {
  const what = "Smallest mean delta (points) the sign-flip test detects with 80% power at α = 0.05";
  if (s.mde === null) return `${what}: none, fewer than 6 untied tasks cannot reach p < 0.05.`;
  if (s.mde_method === "exact") return `${what}: exact power.`;
  return `${what}: seeded simulation, standard error ${(s.mde_se ?? 0).toFixed(2)} points.`;
}
