import { describe, expect, it } from "vitest";
import { linkTarget } from "./links";

const files = ["SKILL.md", "references/api.md", "scripts/run.sh"];

describe("linkTarget", () => {
  it("sends web and mail links outside", () => {
    expect(linkTarget("https://example.com/x", files)).toEqual({ kind: "outside" });
    expect(linkTarget("mailto:a@b.c", files)).toEqual({ kind: "outside" });
  });
  it("opens a relative link to a file of the skill", () => {
    expect(linkTarget("references/api.md", files)).toEqual({ kind: "file", path: "references/api.md" });
    expect(linkTarget("./scripts/../references/api.md#usage", files)).toEqual({
      kind: "file",
      path: "references/api.md",
    });
    expect(linkTarget("scripts/run%2Esh", files)).toEqual({ kind: "file", path: "scripts/run.sh" });
  });
  it("goes nowhere for other schemes, absolute paths, climbs out and missing files", () => {
    for (const href of [
      "file:///etc/passwd",
      "javascript:alert(1)",
      "/etc/passwd",
      "../../x.md",
      "nope.md",
      "#top",
      "",
    ]) {
      expect(linkTarget(href, files)).toEqual({ kind: "none" });
    }
  });
});
