export const SKILL_TABS = ["readme", "files", "frontmatter", "findings", "review", "versions"] as const;
export type SkillTab = (typeof SKILL_TABS)[number];

export const SECTIONS = ["library", "scans", "runs", "results", "settings"] as const;
export type Section = (typeof SECTIONS)[number];

export type Route =
  | { page: Exclude<Section, "scans"> }
  | { page: "scans"; skillId: number | null }
  | { page: "skill"; id: number; tab: SkillTab }
  | { page: "unknown"; hash: string };

const isId = (part: string | undefined): part is string => part !== undefined && /^\d+$/.test(part);

/** Parses "#/library", "#/scans/3", "#/skill/3", "#/skill/3/files" … ; an empty hash is the Library. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts.length === 0) return { page: "library" };
  const [head, id, tab] = parts;
  if (head === "scans" && parts.length <= 2) {
    if (id === undefined) return { page: "scans", skillId: null };
    if (isId(id)) return { page: "scans", skillId: Number(id) };
  }
  // "scans" was handled above.
  if (parts.length === 1 && (SECTIONS as readonly string[]).includes(head)) return { page: head as Exclude<Section, "scans"> };
  if (head === "skill" && isId(id) && parts.length <= 3) {
    if (tab === undefined) return { page: "skill", id: Number(id), tab: "readme" };
    if ((SKILL_TABS as readonly string[]).includes(tab)) return { page: "skill", id: Number(id), tab: tab as SkillTab };
  }
  return { page: "unknown", hash };
}

export function sectionHref(section: Section): string {
  return `#/${section}`;
}

/** The Scans page with one skill selected. */
export function scansHref(skillId: number): string {
  return `#/scans/${skillId}`;
}

export function skillHref(id: number, tab: SkillTab = "readme"): string {
  return tab === "readme" ? `#/skill/${id}` : `#/skill/${id}/${tab}`;
}

/** The sidebar entry that is highlighted for a route. */
export function activeSection(route: Route): Section | null {
  if (route.page === "skill") return "library";
  return route.page === "unknown" ? null : route.page;
}
