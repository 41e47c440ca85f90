import { describe, expect, it } from "vitest";
import { pageOffset } from "./usePage";

describe("pageOffset", () => {
  it("opens on the first page, or on the focused item's page", () => {
    expect(pageOffset(1000, 100, null, -1)).toBe(0);
    expect(pageOffset(1000, 100, null, 0)).toBe(0);
    expect(pageOffset(1000, 100, null, 250)).toBe(200);
    expect(pageOffset(1000, 100, null, 999)).toBe(900);
  });

  it("follows the chosen page, kept inside a list that shrank", () => {
    expect(pageOffset(1000, 100, 300, 999)).toBe(300);
    expect(pageOffset(150, 100, 300, -1)).toBe(100);
    expect(pageOffset(0, 100, 300, -1)).toBe(0);
  });
});
