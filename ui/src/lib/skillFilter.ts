import type { SkillSummary } from "../bindings/SkillSummary";
import type { SourceKind } from "../bindings/SourceKind";
import type { ValidationStatus } from "../bindings/ValidationStatus";

export type SkillFilter = {
  query: string;
  status: ValidationStatus | "all";
  kind: SourceKind | "all";
  /** Only skills whose latest version was scanned and found risky. */
  riskyOnly: boolean;
};

export const NO_FILTER: SkillFilter = { query: "", status: "all", kind: "all", riskyOnly: false };

export function isFiltering(filter: SkillFilter): boolean {
  return filter.query.trim() !== "" || filter.status !== "all" || filter.kind !== "all" || filter.riskyOnly;
}

function searchableText(skill: SkillSummary): string {
  const { source } = skill;
  return [skill.name, skill.description, source.kind, source.location, source.subpath ?? ""].join("\n").toLowerCase();
}

/** Skills matching every word of the query (name, description, source) and every filter. */
export function filterSkills(skills: SkillSummary[], filter: SkillFilter): SkillSummary[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  return skills.filter((skill) => {
    if (filter.status !== "all" && skill.status !== filter.status) return false;
    if (filter.kind !== "all" && skill.source.kind !== filter.kind) return false;
    if (filter.riskyOnly && !skill.scan?.risky) return false;
    const text = searchableText(skill);
    return words.every((word) => text.includes(word));
  });
}
