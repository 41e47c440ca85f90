import { describe, expect, it } from "vitest";
import { activeSection, parseRoute, skillHref } from "./route";

describe("parseRoute", () => {
  it("defaults to the library", () => {
    expect(parseRoute("")).toEqual({ page: "library" });
    expect(parseRoute("#/")).toEqual({ page: "library" });
  });

  it("parses sections and skill pages with tabs", () => {
    expect(parseRoute("#/settings")).toEqual({ page: "settings" });
    expect(parseRoute("#/skill/12")).toEqual({ page: "skill", id: 12, tab: "readme" });
    expect(parseRoute("#/skill/12/versions")).toEqual({ page: "skill", id: 12, tab: "versions" });
  });

  it("rejects anything else", () => {
    expect(parseRoute("#/skill/abc").page).toBe("unknown");
    expect(parseRoute("#/skill/1/nope").page).toBe("unknown");
    expect(parseRoute("#/settings/extra").page).toBe("unknown");
  });

  it("round-trips skill links and highlights the library for skills", () => {
    expect(parseRoute(skillHref(5, "files"))).toEqual({ page: "skill", id: 5, tab: "files" });
    expect(parseRoute(skillHref(5))).toEqual({ page: "skill", id: 5, tab: "readme" });
    expect(activeSection(parseRoute(skillHref(5)))).toBe("library");
  });
});
