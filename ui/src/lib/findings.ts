import type { Finding } from "../bindings/Finding";
import type { ValidationSeverity } from "../bindings/ValidationSeverity";

export const SEVERITY_ORDER: ValidationSeverity[] = ["error", "warning", "info"];

export type FindingGroup = { severity: ValidationSeverity; findings: Finding[] };

/** Groups findings by severity, most severe first, leaving out empty groups. */
export function groupFindings(findings: Finding[]): FindingGroup[] {
  return SEVERITY_ORDER.map((severity) => ({
    severity,
    findings: findings.filter((f) => f.severity === severity),
  })).filter((group) => group.findings.length > 0);
}

/** "scripts/run.py:12", "SKILL.md", or "" when the finding has no file. */
export function findingLocation(finding: Finding): string {
  if (!finding.file) return "";
  return finding.line === null ? finding.file : `${finding.file}:${finding.line}`;
}
