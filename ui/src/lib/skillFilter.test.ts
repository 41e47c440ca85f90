import { describe, expect, it } from "vitest";
import type { SkillSummary } from "../bindings/SkillSummary";
import { filterSkills, isFiltering, NO_FILTER } from "./skillFilter";

const skill = (id: number, name: string, description: string, extra: Partial<SkillSummary> = {}): SkillSummary => ({
  id,
  name,
  description,
  version: 1,
  version_id: id * 10,
  version_count: 1,
  source: { kind: "folder", location: `/skills/${name}`, subpath: null, git_ref: null, git_commit: null },
  license: null,
  status: "valid",
  finding_count: 0,
  imported_at: "2025-01-01T00:00:00Z",
  sha256: "ab".repeat(32),
  scan: null,
  ...extra,
});

const skills = [
  skill(1, "pdf-tools", "Fill and merge PDF forms"),
  skill(2, "xlsx", "Spreadsheet editing", {
    status: "warnings",
    finding_count: 2,
    scan: { quality: 71.5, grade: "C", passed_gate: true, security: 55, risky: true },
  }),
  skill(3, "brand-voice", "Writes in the house style", {
    status: "errors",
    source: {
      kind: "git",
      location: "/repos/marketing.git",
      subpath: "skills/voice",
      git_ref: "main",
      git_commit: null,
    },
  }),
];

const names = (list: SkillSummary[]) => list.map((s) => s.name);

describe("filterSkills", () => {
  it("returns everything without a filter", () => {
    expect(names(filterSkills(skills, NO_FILTER))).toEqual(["pdf-tools", "xlsx", "brand-voice"]);
    expect(isFiltering(NO_FILTER)).toBe(false);
  });

  it("matches name, description and source case-insensitively, every word", () => {
    expect(names(filterSkills(skills, { ...NO_FILTER, query: "PDF" }))).toEqual(["pdf-tools"]);
    expect(names(filterSkills(skills, { ...NO_FILTER, query: "spreadsheet" }))).toEqual(["xlsx"]);
    expect(names(filterSkills(skills, { ...NO_FILTER, query: "marketing voice" }))).toEqual(["brand-voice"]);
    expect(names(filterSkills(skills, { ...NO_FILTER, query: "pdf spreadsheet" }))).toEqual([]);
  });

  it("filters by status and source kind", () => {
    expect(names(filterSkills(skills, { ...NO_FILTER, status: "warnings" }))).toEqual(["xlsx"]);
    expect(names(filterSkills(skills, { ...NO_FILTER, kind: "git" }))).toEqual(["brand-voice"]);
    expect(names(filterSkills(skills, { ...NO_FILTER, query: "x", status: "valid", kind: "folder" }))).toEqual([]);
    expect(isFiltering({ ...NO_FILTER, kind: "git" })).toBe(true);
  });

  it("keeps only risky skills when asked, leaving out unscanned ones", () => {
    expect(names(filterSkills(skills, { ...NO_FILTER, riskyOnly: true }))).toEqual(["xlsx"]);
    expect(isFiltering({ ...NO_FILTER, riskyOnly: true })).toBe(true);
  });
});
