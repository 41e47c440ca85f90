export const SKILL_TABS = ["readme", "files", "frontmatter", "findings", "review", "versions", "decision"] as const;
export type SkillTab = (typeof SKILL_TABS)[number];

export const SECTIONS = ["library", "tasks", "scans", "runs", "results", "trajectories", "settings"] as const;
export type Section = (typeof SECTIONS)[number];

/** The sections whose page takes no ids. */
type PlainSection = Exclude<Section, "tasks" | "scans" | "runs" | "results" | "trajectories">;

export type Route =
  | { page: PlainSection }
  | { page: "tasks"; id: number | null }
  | { page: "scans"; skillId: number | null }
  | { page: "runs"; runId: number | null; trialId: number | null; stepId: number | null }
  | { page: "results"; experimentId: number | null }
  | { page: "trajectories"; id: number | null; stepId: number | null }
  | { page: "pair"; experimentId: number; pairId: number }
  | { page: "skill"; id: number; tab: SkillTab }
  | { page: "unknown"; hash: string };

const isId = (part: string | undefined): part is string => part !== undefined && /^\d+$/.test(part);

/** The ids after the section's name, padded with null to `count`; null unless they are ids, at most `count`. */
function trailingIds(parts: string[], count: number): (number | null)[] | null {
  const rest = parts.slice(1);
  if (rest.length > count || !rest.every(isId)) return null;
  return Array.from({ length: count }, (_, i) => (i < rest.length ? Number(rest[i]) : null));
}

/**
 * Parses "#/library", "#/scans/3", "#/runs/2/7" (run 2, its trial 7), "#/results/4", "#/skill/3",
 * "#/runs/2/7/step/5" (step 5 of trial 7's trajectory), "#/pair/4/9" (pair 9 of experiment 4),
 * "#/trajectories/8", "#/trajectories/8/step/5", "#/tasks/6" (task set 6),
 * "#/skill/3", "#/skill/3/files" … ; an empty hash is the Library.
 */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts.length === 0) return { page: "library" };
  const [head, id, tab] = parts;
  if (head === "runs" && parts.length === 5 && parts[3] === "step") {
    const [, runId, trialId, , stepId] = parts;
    if (!isId(runId) || !isId(trialId) || !isId(stepId)) return { page: "unknown", hash };
    return { page: "runs", runId: Number(runId), trialId: Number(trialId), stepId: Number(stepId) };
  }
  if (head === "trajectories" && parts.length === 4 && parts[2] === "step") {
    if (!isId(id) || !isId(parts[3])) return { page: "unknown", hash };
    return { page: "trajectories", id: Number(id), stepId: Number(parts[3]) };
  }
  if (head === "trajectories") {
    const [found] = trailingIds(parts, 1) ?? [undefined];
    if (found === undefined) return { page: "unknown", hash };
    return { page: "trajectories", id: found, stepId: null };
  }
  if (head === "tasks" || head === "scans" || head === "runs" || head === "results") {
    const found = trailingIds(parts, head === "runs" ? 2 : 1);
    if (found === null) return { page: "unknown", hash };
    const [first, second] = found;
    if (head === "tasks") return { page: "tasks", id: first };
    if (head === "scans") return { page: "scans", skillId: first };
    if (head === "runs") return { page: "runs", runId: first, trialId: second, stepId: null };
    return { page: "results", experimentId: first };
  }
  if (head === "pair") {
    const [experimentId, pairId] = trailingIds(parts, 2) ?? [];
    if (experimentId == null || pairId == null) return { page: "unknown", hash };
    return { page: "pair", experimentId, pairId };
  }
  if (parts.length === 1 && (SECTIONS as readonly string[]).includes(head)) return { page: head as PlainSection };
  if (head === "skill" && isId(id) && parts.length <= 3) {
    if (tab === undefined) return { page: "skill", id: Number(id), tab: "readme" };
    if ((SKILL_TABS as readonly string[]).includes(tab)) return { page: "skill", id: Number(id), tab: tab as SkillTab };
  }
  return { page: "unknown", hash };
}

export function sectionHref(section: Section): string {
  return `#/${section}`;
}

/** The Tasks page with one task set open. */
export function taskSetHref(id: number): string {
  return `#/tasks/${id}`;
}

/** The Scans page with one skill selected. */
export function scansHref(skillId: number): string {
  return `#/scans/${skillId}`;
}

/** The Runs page with a run, and optionally one of its trials, selected. */
export function runsHref(runId: number, trialId: number | null = null): string {
  return trialId === null ? `#/runs/${runId}` : `#/runs/${runId}/${trialId}`;
}

/** One step of the latest trajectory of a trial, opened on the Runs page. */
export function stepHref(runId: number, trialId: number, stepId: number): string {
  return `#/runs/${runId}/${trialId}/step/${stepId}`;
}

/** One trajectory on the Trajectories page, optionally opened on a step. */
export function trajectoryHref(id: number, stepId: number | null = null): string {
  return stepId === null ? `#/trajectories/${id}` : `#/trajectories/${id}/step/${stepId}`;
}

/** The Results page with one experiment selected. */
export function resultsHref(experimentId: number): string {
  return `#/results/${experimentId}`;
}

/** The two runs of one pair of an experiment, side by side. */
export function pairHref(experimentId: number, pairId: number): string {
  return `#/pair/${experimentId}/${pairId}`;
}

export function skillHref(id: number, tab: SkillTab = "readme"): string {
  return tab === "readme" ? `#/skill/${id}` : `#/skill/${id}/${tab}`;
}

/** The sidebar entry that is highlighted for a route. */
export function activeSection(route: Route): Section | null {
  if (route.page === "skill") return "library";
  if (route.page === "pair") return "results";
  return route.page === "unknown" ? null : route.page;
}
