import { describe, expect, it } from "vitest";
import type { QualityFinding } from "../bindings/QualityFinding";
import type { ScanSummary } from "../bindings/ScanSummary";
import type { SecurityFinding } from "../bindings/SecurityFinding";
import type { SecurityReport } from "../bindings/SecurityReport";
import type { SkillSummary } from "../bindings/SkillSummary";
import { DIMENSIONS, formatDeduction, groupQualityFindings, qualityLocation } from "./qualityFindings";
import { isMediumOrWorse, SCAN_SEVERITY_ORDER, severityRank } from "./scanSeverity";
import { countScans, scanSummaryText, sortByRisk } from "./scanSummary";
import { formatQuality, scoreBand } from "./scores";
import {
  categoryLabel,
  formatConfidence,
  groupSecurityFindings,
  securityLocation,
  securityVerdict,
  semanticPassText,
} from "./securityFindings";

const security = (
  pattern: string,
  category: string,
  severity: SecurityFinding["severity"],
  extra: Partial<SecurityFinding> = {},
): SecurityFinding => ({
  pattern,
  category,
  severity,
  confidence: 0.9,
  file: "SKILL.md",
  line: 4,
  column: 7,
  evidence: "ignore all previous instructions",
  message: "m",
  decoded: null,
  ...extra,
});

const quality = (
  rule: string,
  dimension: QualityFinding["dimension"],
  deduction: number,
  line: number | null = null,
): QualityFinding => ({
  rule,
  dimension,
  severity: "low",
  deduction,
  message: "m",
  suggestion: "s",
  file: "SKILL.md",
  line,
});

const report = (risky: boolean, findings: SecurityFinding[]): SecurityReport => ({
  score: risky ? 60 : 95,
  risky,
  findings,
  semantic_pass: null,
});

describe("scan severities", () => {
  it("orders critical first and knows what counts as medium or worse", () => {
    expect(SCAN_SEVERITY_ORDER[0]).toBe("critical");
    expect(severityRank("critical")).toBeLessThan(severityRank("high"));
    expect(severityRank("low")).toBeLessThan(severityRank("info"));
    expect(
      ["critical", "high", "medium", "low", "info"].map((s) => isMediumOrWorse(s as SecurityFinding["severity"])),
    ).toEqual([true, true, true, false, false]);
  });
});

describe("security findings", () => {
  it("labels the five categories and leaves unknown ones as they are", () => {
    expect(categoryLabel("prompt_injection")).toBe("Prompt injection");
    expect(categoryLabel("credential_access")).toBe("Credential access & exfiltration");
    expect(categoryLabel("unsafe_behavior")).toBe("Unsafe behavior");
    expect(categoryLabel("supply_chain")).toBe("Supply chain");
    expect(categoryLabel("robustness")).toBe("Robustness");
    expect(categoryLabel("novel")).toBe("novel");
  });

  it("groups by category in taxonomy order, most severe first within each", () => {
    const groups = groupSecurityFindings([
      security("E1", "robustness", "low"),
      security("A2", "prompt_injection", "medium"),
      security("Z9", "novel", "info"),
      security("A1", "prompt_injection", "critical"),
      security("A3", "prompt_injection", "high"),
    ]);
    expect(groups.map((g) => [g.label, g.findings.map((f) => f.pattern)])).toEqual([
      ["Prompt injection", ["A1", "A3", "A2"]],
      ["Robustness", ["E1"]],
      ["novel", ["Z9"]],
    ]);
    expect(groupSecurityFindings([])).toEqual([]);
  });

  it("says risky, not risky, or no risk found (nothing medium or worse)", () => {
    expect(securityVerdict(report(true, []))).toBe("risky");
    expect(securityVerdict(report(false, [security("C1", "unsafe_behavior", "medium")]))).toBe("not-risky");
    expect(securityVerdict(report(false, [security("E1", "robustness", "low")]))).toBe("no-risk");
    expect(securityVerdict(report(false, []))).toBe("no-risk");
  });

  it("formats locations, confidence and the semantic pass", () => {
    expect(securityLocation(security("A1", "prompt_injection", "high"))).toBe("SKILL.md:4:7");
    expect(formatConfidence(0.855)).toBe("86%");
    expect(semanticPassText(null)).toBe("Not reviewed by a model: only the static rules have read this skill.");
    const pass = {
      ran: true,
      added_findings: 1,
      error: null,
      provider: "local",
      model: "m-1",
      prompt_version: "security-review-v1",
      prompt_sha256: "ab".repeat(32),
      temperature: 0,
      dropped: ["finding 2: C1 in x.md: the quote is not in the file"],
      files_not_reviewed: [],
    };
    expect(semanticPassText(pass)).toBe(
      "Reviewed by m-1 (local, prompt security-review-v1): added 1 finding; 1 answered finding dropped by the checks.",
    );
    expect(semanticPassText({ ...pass, ran: false, added_findings: 0, dropped: [], error: "timeout" })).toBe(
      "Not reviewed: m-1 (local, prompt security-review-v1) gave no usable answer (timeout). Only the static findings count; this is not a clean bill.",
    );
  });
});

describe("quality findings", () => {
  it("weighs the dimensions 35/25/25/15 percent", () => {
    expect(DIMENSIONS.map((d) => d.weight)).toEqual([35, 25, 25, 15]);
  });

  it("groups by dimension, largest deduction first, skipping empty dimensions", () => {
    const groups = groupQualityFindings([
      quality("E1", "efficiency", 2),
      quality("C1", "correctness", 5),
      quality("C2", "correctness", 10),
    ]);
    expect(groups.map((g) => [g.label, g.findings.map((f) => f.rule)])).toEqual([
      ["Correctness", ["C2", "C1"]],
      ["Efficiency", ["E1"]],
    ]);
  });

  it("formats deductions and locations", () => {
    expect(formatDeduction(5)).toBe("-5");
    expect(formatDeduction(2.5)).toBe("-2.5");
    expect(formatDeduction(0.30000000000000004)).toBe("-0.3");
    expect(qualityLocation(quality("C1", "correctness", 1, 12))).toBe("SKILL.md:12");
    expect(qualityLocation(quality("C1", "correctness", 1))).toBe("SKILL.md");
  });
});

describe("scores", () => {
  it("puts scores into colour bands at 80 and 60", () => {
    expect([100, 80, 79.9, 60, 59.9, 10].map(scoreBand)).toEqual(["good", "good", "fair", "fair", "poor", "poor"]);
  });

  it("shows quality with one decimal", () => {
    expect(formatQuality(87.25)).toBe("87.3");
    expect(formatQuality(100)).toBe("100.0");
  });
});

describe("scan summary", () => {
  const scan = (securityScore: number, risky: boolean, passed_gate: boolean): ScanSummary => ({
    quality: 75,
    grade: "C",
    passed_gate,
    security: securityScore,
    risky,
  });
  const skill = (id: number, name: string, s: ScanSummary | null) => ({ id, name, scan: s }) as SkillSummary;
  const skills = [
    skill(1, "safe", scan(100, false, true)),
    skill(2, "unscanned", null),
    skill(3, "risky-b", scan(40, true, false)),
    skill(4, "risky-a", scan(40, true, true)),
    skill(5, "sloppy", scan(90, false, false)),
  ];

  it("counts scanned, risky, below-gate and unscanned skills", () => {
    const counts = countScans(skills);
    expect(counts).toEqual({ scanned: 4, risky: 2, belowGate: 2, unscanned: 1 });
    expect(scanSummaryText(counts)).toBe(
      "4 skills scanned, 2 risky, 2 below the quality gate; 1 not scanned yet — press Scan pending",
    );
    expect(scanSummaryText(countScans(skills.slice(0, 1)))).toBe("1 skill scanned, 0 risky, 0 below the quality gate");
  });

  it("sorts riskiest first, ties by name, unscanned last", () => {
    expect(sortByRisk(skills).map((s) => s.name)).toEqual(["risky-a", "risky-b", "sloppy", "safe", "unscanned"]);
  });
});
