import type { SecurityFinding } from "../bindings/SecurityFinding";
import type { SecurityReport } from "../bindings/SecurityReport";
import type { SemanticPassInfo } from "../bindings/SemanticPassInfo";
import { plural } from "./format";
import { isMediumOrWorse, severityRank } from "./scanSeverity";

/** The scanner's five risk categories, in taxonomy order, with their human labels. */
export const SECURITY_CATEGORIES: [string, string][] = [
  ["prompt_injection", "Prompt injection"],
  ["credential_access", "Credential access & exfiltration"],
  ["unsafe_behavior", "Unsafe behavior"],
  ["supply_chain", "Supply chain"],
  ["robustness", "Robustness"],
];

/** The human label of a category; an unknown category is shown as it came. */
export function categoryLabel(category: string): string {
  return SECURITY_CATEGORIES.find(([id]) => id === category)?.[1] ?? category;
}

export type SecurityGroup = { category: string; label: string; findings: SecurityFinding[] };

/**
 * Groups findings by category (taxonomy order, unknown categories last by name),
 * each group sorted by severity, most serious first.
 */
export function groupSecurityFindings(findings: SecurityFinding[]): SecurityGroup[] {
  const known = SECURITY_CATEGORIES.map(([id]) => id);
  const unknown = [...new Set(findings.map((f) => f.category).filter((c) => !known.includes(c)))].sort();
  return [...known, ...unknown]
    .map((category) => ({
      category,
      label: categoryLabel(category),
      findings: findings
        .filter((f) => f.category === category)
        .sort((a, b) => severityRank(a.severity) - severityRank(b.severity)),
    }))
    .filter((group) => group.findings.length > 0);
}

export type SecurityVerdict = "risky" | "no-risk" | "not-risky";

/** Risky as the back end says; otherwise "no risk found" only when nothing is medium or worse. */
export function securityVerdict(report: SecurityReport): SecurityVerdict {
  if (report.risky) return "risky";
  return report.findings.some((f) => isMediumOrWorse(f.severity)) ? "not-risky" : "no-risk";
}

/** "scripts/run.sh:12:5". */
export function securityLocation(finding: SecurityFinding): string {
  return `${finding.file}:${finding.line}:${finding.column}`;
}

/** "87%". */
export function formatConfidence(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** One sentence on the model review (semantic pass): who reviewed, or that nobody did and why. */
export function semanticPassText(pass: SemanticPassInfo | null): string {
  if (pass === null) return "Not reviewed by a model: only the static rules have read this skill.";
  const who = `${pass.model} (${pass.provider}, prompt ${pass.prompt_version})`;
  if (pass.ran) {
    const dropped =
      pass.dropped.length === 0 ? "" : `; ${plural(pass.dropped.length, "answered finding")} dropped by the checks`;
    return `Reviewed by ${who}: added ${plural(pass.added_findings, "finding")}${dropped}.`;
  }
  return `Not reviewed: ${who} gave no usable answer (${pass.error ?? "no answer"}). Only the static findings count; this is not a clean bill.`;
}
