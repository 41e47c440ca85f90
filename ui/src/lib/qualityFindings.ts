import type { Dimension } from "../bindings/Dimension";
import type { QualityFinding } from "../bindings/QualityFinding";

/** The four quality dimensions with the weight (in percent) each has in the overall score. */
export const DIMENSIONS: { dimension: Dimension; label: string; weight: number }[] = [
  { dimension: "correctness", label: "Correctness", weight: 35 },
  { dimension: "discoverability", label: "Discoverability", weight: 25 },
  { dimension: "reliability", label: "Reliability", weight: 25 },
  { dimension: "efficiency", label: "Efficiency", weight: 15 },
];

export type QualityGroup = { dimension: Dimension; label: string; findings: QualityFinding[] };

/** Groups findings by dimension (in DIMENSIONS order), largest deduction first, leaving out empty groups. */
export function groupQualityFindings(findings: QualityFinding[]): QualityGroup[] {
  return DIMENSIONS.map(({ dimension, label }) => ({
    dimension,
    label,
    findings: findings.filter((f) => f.dimension === dimension).sort((a, b) => b.deduction - a.deduction),
  })).filter((group) => group.findings.length > 0);
}

/** "SKILL.md:3", or just the file when the finding has no line. */
export function qualityLocation(finding: QualityFinding): string {
  return finding.line === null ? finding.file : `${finding.file}:${finding.line}`;
}

/** "-5", "-2.5": the points a finding takes off its dimension. */
export function formatDeduction(deduction: number): string {
  return `-${Number(deduction.toFixed(1))}`;
}
