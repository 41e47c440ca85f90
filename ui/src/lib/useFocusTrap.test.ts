import { describe, expect, it } from "vitest";
import { wrapFocus } from "./useFocusTrap";

describe("wrapFocus", () => {
  const items = ["close", "name", "submit"];

  it("wraps Tab from the last element to the first, and Shift+Tab from the first to the last", () => {
    expect(wrapFocus(items, "submit", false)).toBe("close");
    expect(wrapFocus(items, "close", true)).toBe("submit");
  });

  it("leaves moves between elements to the browser", () => {
    expect(wrapFocus(items, "close", false)).toBeNull();
    expect(wrapFocus(items, "name", false)).toBeNull();
    expect(wrapFocus(items, "name", true)).toBeNull();
    expect(wrapFocus(items, "submit", true)).toBeNull();
  });

  it("brings focus from outside back in at the near end", () => {
    expect(wrapFocus(items, "sidebar", false)).toBe("close");
    expect(wrapFocus(items, "sidebar", true)).toBe("submit");
    expect(wrapFocus(items, null, false)).toBe("close");
  });

  it("cycles on the one element of a single-element dialog, and does nothing without any", () => {
    expect(wrapFocus(["close"], "close", false)).toBe("close");
    expect(wrapFocus(["close"], "close", true)).toBe("close");
    expect(wrapFocus([], null, false)).toBeNull();
  });
});
