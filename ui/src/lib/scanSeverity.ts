import type { Severity as ScanSeverity } from "../bindings/Severity";

/** Static-review severities, most serious first. */
export const SCAN_SEVERITY_ORDER: ScanSeverity[] = ["critical", "high", "medium", "low", "info"];

/** 0 for critical … 4 for info: sorting by rank puts the most serious first. */
export function severityRank(severity: ScanSeverity): number {
  return SCAN_SEVERITY_ORDER.indexOf(severity);
}

/** True for medium, high and critical. */
export function isMediumOrWorse(severity: ScanSeverity): boolean {
  return severityRank(severity) <= severityRank("medium");
}
