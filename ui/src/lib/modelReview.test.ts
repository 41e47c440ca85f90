import { describe, expect, it } from "vitest";
import { parseModelReview } from "./modelReview";

describe("model review form", () => {
  it("needs a provider and a model, trimmed", () => {
    expect(parseModelReview(" local ", " m-1 ")).toEqual({ ok: true, value: { provider: "local", model: "m-1" } });
    const bad = parseModelReview("", "  ");
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.problems).toHaveLength(2);
  });
});
