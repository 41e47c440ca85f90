import { describe, expect, it } from "vitest";
import { evidenceHref, OUTCOMES } from "./probes";

describe("probes", () => {
  it("links evidence with a step to the trial's trajectory at that step", () => {
    const e = { kind: "dangerous_command" as const, summary: "ran", step: 4, request: null, path: null };
    expect(evidenceHref(3, 17, e)).toBe("#/runs/3/17/step/4");
    expect(evidenceHref(3, 17, { ...e, step: null })).toBeNull();
  });
  it("marks only a confirmed outcome as danger", () => {
    const danger = Object.entries(OUTCOMES).filter(([, o]) => o.tone === "danger");
    expect(danger.map(([k]) => k)).toEqual(["confirmed"]);
  });
});
