import type { SkillSummary } from "../bindings/SkillSummary";
import { plural } from "./format";

export type ScanCounts = { scanned: number; risky: number; belowGate: number; unscanned: number };

/** How many skills are scanned, risky, below the quality gate, and not scanned yet. */
export function countScans(skills: SkillSummary[]): ScanCounts {
  const scans = skills.flatMap((s) => (s.scan ? [s.scan] : []));
  return {
    scanned: scans.length,
    risky: scans.filter((s) => s.risky).length,
    belowGate: scans.filter((s) => !s.passed_gate).length,
    unscanned: skills.length - scans.length,
  };
}

/** Riskiest first: by security score ascending, then by name; skills not scanned yet last. */
export function sortByRisk(skills: SkillSummary[]): SkillSummary[] {
  const security = (s: SkillSummary) => s.scan?.security ?? Infinity;
  return [...skills].sort((a, b) => security(a) - security(b) || a.name.localeCompare(b.name));
}

/** "3 skills scanned, 1 risky, 2 below the quality gate" (plus how many are not scanned yet). */
export function scanSummaryText(counts: ScanCounts): string {
  const text = `${plural(counts.scanned, "skill")} scanned, ${counts.risky} risky, ${counts.belowGate} below the quality gate`;
  return counts.unscanned > 0 ? `${text}; ${counts.unscanned} not scanned yet — press Scan pending` : text;
}
