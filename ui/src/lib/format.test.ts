import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatClock,
  formatCost,
  formatCount,
  formatDateTime,
  formatSource,
  formatTokens,
  formatValue,
  plural,
  shortSha,
  shownOf,
} from "./format";

describe("format", () => {
  it("formats an RFC 3339 time in local time and leaves junk alone", () => {
    const local = new Date(2025, 2, 4, 9, 5);
    expect(formatDateTime(local.toISOString())).toBe("2025-03-04 09:05");
    expect(formatDateTime("not a date")).toBe("not a date");
  });

  it("formats sizes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5.0 MB");
  });

  it("shortens hashes and pluralises", () => {
    expect(shortSha("0123456789abcdef0123")).toBe("0123456789ab");
    expect(shortSha("sha256:0123456789abcdef0123")).toBe("0123456789ab");
    expect(plural(1, "skill")).toBe("1 skill");
    expect(plural(0, "skill")).toBe("0 skills");
    expect(shownOf(12, 12, "skill")).toBe("12 skills");
    expect(shownOf(3, 12, "step")).toBe("3 of 12 steps");
  });

  it("describes a source with its subpath", () => {
    const source = {
      kind: "git",
      location: "/srv/repos/s.git",
      subpath: "skills/pdf",
      git_ref: null,
      git_commit: null,
    } as const;
    expect(formatSource(source)).toBe("git: /srv/repos/s.git (subpath skills/pdf)");
    expect(formatSource({ ...source, subpath: null })).toBe("git: /srv/repos/s.git");
  });

  it("renders JSON-like values", () => {
    expect(formatValue("text")).toBe("text");
    expect(formatValue(3)).toBe("3");
    expect(formatValue({ a: [1, true] })).toBe('{"a":[1,true]}');
    expect(formatValue(null)).toBe("");
  });

  it("formats a clock time", () => {
    expect(formatClock(new Date(2025, 2, 4, 9, 5, 7).toISOString())).toBe("09:05:07");
    expect(formatClock("later")).toBe("later");
  });

  it("formats token counts and costs", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatTokens({ input: 12000, cached: 10000, output: 56 })).toBe("12,000 in · 10,000 cached · 56 out");
    expect(formatTokens({ input: 5, output: 1 })).toBe("5 in · 1 out");
    expect(formatTokens({})).toBe("");
    expect(formatCost(1.234)).toBe("$1.23");
    expect(formatCost(0.0042)).toBe("$0.0042");
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(null)).toBe("—");
  });
});
