import { describe, expect, it } from "vitest";
import type { Finding } from "../bindings/Finding";
import type { ImportedSkill } from "../bindings/ImportedSkill";
import type { JobEvent } from "../bindings/JobEvent";
import type { VersionInfo } from "../bindings/VersionInfo";
import { findingLocation, groupFindings } from "./findings";
import { frontmatterRows } from "./frontmatterRows";
import { importStatusText, progressText } from "./importStatus";
import { defaultVersionPair, orderPair } from "./versionPair";

const finding = (severity: Finding["severity"], file: string | null = null, line: number | null = null): Finding => ({
  code: `c-${severity}`,
  severity,
  message: "m",
  file,
  line,
});

describe("findings", () => {
  it("groups by severity, most severe first, skipping empty groups", () => {
    const groups = groupFindings([finding("info"), finding("error"), finding("info")]);
    expect(groups.map((g) => [g.severity, g.findings.length])).toEqual([
      ["error", 1],
      ["info", 2],
    ]);
  });

  it("formats file:line locations", () => {
    expect(findingLocation(finding("error", "SKILL.md", 3))).toBe("SKILL.md:3");
    expect(findingLocation(finding("error", "SKILL.md"))).toBe("SKILL.md");
    expect(findingLocation(finding("error"))).toBe("");
  });
});

describe("frontmatterRows", () => {
  it("lists standard fields, then metadata, then unknown fields", () => {
    const rows = frontmatterRows({
      name: "pdf",
      description: null,
      license: "MIT",
      compatibility: null,
      metadata: { version: "1.2", author: "ann" },
      allowed_tools: ["Bash", "Read"],
      extra: { tags: ["a", "b"] },
    });
    expect(rows.map((r) => [r.key, r.value, r.origin, r.missing])).toEqual([
      ["name", "pdf", "standard", false],
      ["description", "", "standard", true],
      ["license", "MIT", "standard", false],
      ["compatibility", "", "standard", true],
      ["allowed-tools", "Bash, Read", "standard", false],
      ["metadata.author", "ann", "metadata", false],
      ["metadata.version", "1.2", "metadata", false],
      ["tags", '["a","b"]', "unknown", false],
    ]);
  });
});

describe("importStatusText", () => {
  const imported = (status: ImportedSkill["status"], version: number): ImportedSkill => ({
    skill_id: 1,
    version_id: 2,
    name: "pdf",
    version,
    sha256: "00",
    status,
    finding_count: 0,
  });

  it("says what happened to each skill", () => {
    expect(importStatusText(imported("new_skill", 1))).toBe("New skill: imported as version 1");
    expect(importStatusText(imported("new_version", 3))).toBe("New version: imported as version 3");
    expect(importStatusText(imported("unchanged", 2))).toBe("Unchanged: this exact content is already version 2");
  });

  it("adds the step count to progress messages unless they already carry it", () => {
    const progress = (message: string, done: number, total: number): JobEvent => ({
      job_id: 1,
      kind: "import",
      state: "running",
      done,
      total,
      message,
      error: null,
      outcome: null,
    });
    expect(progressText(progress("Copying files", 1, 3))).toBe("Copying files (1/3)");
    expect(progressText(progress("Scanning 2/3", 2, 3))).toBe("Scanning 2/3");
    expect(progressText(progress("Queued", 0, 0))).toBe("Queued");
  });
});

describe("version pairs", () => {
  const v = (id: number, version: number): VersionInfo => ({
    id,
    version,
    sha256: "00",
    imported_at: "2025-01-01T00:00:00Z",
    source: { kind: "folder", location: "/s", subpath: null, git_ref: null, git_commit: null },
    finding_count: 0,
  });

  it("compares the previous version with the latest by default", () => {
    expect(defaultVersionPair([v(10, 1), v(30, 3), v(20, 2)])).toEqual({ from: 20, to: 30 });
    expect(defaultVersionPair([v(10, 1)])).toBeNull();
  });

  it("puts the older version first", () => {
    const versions = [v(10, 1), v(20, 2)];
    expect(orderPair({ from: 20, to: 10 }, versions)).toEqual({ from: 10, to: 20 });
    expect(orderPair({ from: 10, to: 20 }, versions)).toEqual({ from: 10, to: 20 });
  });
});
