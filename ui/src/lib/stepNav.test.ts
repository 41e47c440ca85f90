import { describe, expect, it } from "vitest";
import { moveHighlight, stepKeyAction, type StepKey } from "./stepNav";

describe("moveHighlight", () => {
  it("starts at the first step and stays within the steps", () => {
    expect(moveHighlight(null, 1, 3)).toBe(0);
    expect(moveHighlight(0, 1, 3)).toBe(1);
    expect(moveHighlight(2, 1, 3)).toBe(2);
    expect(moveHighlight(0, -1, 3)).toBe(0);
    expect(moveHighlight(null, 1, 0)).toBeNull();
  });
});

describe("stepKeyAction", () => {
  const key = (k: string, where: Partial<StepKey> = {}): StepKey => ({
    key: k,
    modifier: false,
    typing: false,
    inFilter: false,
    onControl: false,
    ...where,
  });

  it("maps j, k, Enter, Esc and / outside inputs", () => {
    expect(stepKeyAction(key("j"))).toBe("next");
    expect(stepKeyAction(key("k"))).toBe("previous");
    expect(stepKeyAction(key("Enter"))).toBe("toggle");
    expect(stepKeyAction(key("Escape"))).toBe("clear");
    expect(stepKeyAction(key("/"))).toBe("focus-filter");
    expect(stepKeyAction(key("x"))).toBeNull();
  });

  it("ignores keys typed in inputs, except Esc which leaves the filter", () => {
    for (const k of ["j", "k", "Enter", "/"]) {
      expect(stepKeyAction(key(k, { typing: true }))).toBeNull();
      expect(stepKeyAction(key(k, { typing: true, inFilter: true }))).toBeNull();
    }
    expect(stepKeyAction(key("Escape", { typing: true, inFilter: true }))).toBe("leave-filter");
    expect(stepKeyAction(key("Escape", { typing: true }))).toBeNull();
  });

  it("ignores modified keys and Enter on a button or link", () => {
    expect(stepKeyAction(key("j", { modifier: true }))).toBeNull();
    expect(stepKeyAction(key("Escape", { modifier: true }))).toBeNull();
    expect(stepKeyAction(key("Enter", { onControl: true }))).toBe(null);
    expect(stepKeyAction(key("j", { onControl: true }))).toBe("next");
  });
});
