import { describe, expect, it } from "vitest";
import { extendFetch, isLoaded, MAX_LOADED, merge, PAGE, windowAround, type Loaded } from "./stepWindow";

const range = (start: number, count: number, total: number): Loaded<number> => ({
  start,
  items: Array.from({ length: count }, (_, i) => start + i),
  total,
});

describe("step windows", () => {
  it("extends after the loaded range until the end", () => {
    expect(extendFetch(range(0, PAGE, 5000), "after")).toEqual({ offset: PAGE, limit: PAGE });
    expect(extendFetch(range(4950, 50, 5000), "after")).toBeNull();
    expect(extendFetch(range(0, 3, 3), "after")).toBeNull();
  });

  it("extends before the loaded range, never past the first step", () => {
    expect(extendFetch(range(0, PAGE, 5000), "before")).toBeNull();
    expect(extendFetch(range(1000, PAGE, 5000), "before")).toEqual({ offset: 1000 - PAGE, limit: PAGE });
    expect(extendFetch(range(20, PAGE, 5000), "before")).toEqual({ offset: 0, limit: 20 });
  });

  it("keeps at most MAX_LOADED items, dropping the far end", () => {
    let loaded = range(0, PAGE, 5000);
    for (let i = 0; i < 10; i += 1) {
      const next = extendFetch(loaded, "after")!;
      const fetched = Array.from({ length: next.limit }, (_, k) => next.offset + k);
      loaded = merge(loaded, "after", fetched, 5000);
    }
    expect(loaded.items.length).toBe(MAX_LOADED);
    expect(loaded.start).toBe(11 * PAGE - MAX_LOADED);
    expect(loaded.items[0]).toBe(loaded.start);
    const before = extendFetch(loaded, "before")!;
    const back = merge(
      loaded,
      "before",
      Array.from({ length: before.limit }, (_, k) => before.offset + k),
      5000,
    );
    expect(back.start).toBe(loaded.start - PAGE);
    expect(back.items.length).toBe(MAX_LOADED);
    expect(back.items.every((item, i) => item === back.start + i)).toBe(true);
  });

  it("opens a window around a far step, clamped to the list", () => {
    expect(windowAround(4321, 5000)).toEqual({ offset: 4321 - Math.floor(PAGE / 4), limit: PAGE });
    expect(windowAround(3, 5000).offset).toBe(0);
    expect(windowAround(4999, 5000)).toEqual({ offset: 5000 - PAGE, limit: PAGE });
    expect(windowAround(2, 10).offset).toBe(0);
  });

  it("knows what is loaded", () => {
    expect(isLoaded(range(100, 50, 5000), 100)).toBe(true);
    expect(isLoaded(range(100, 50, 5000), 149)).toBe(true);
    expect(isLoaded(range(100, 50, 5000), 150)).toBe(false);
    expect(isLoaded(range(100, 50, 5000), 99)).toBe(false);
  });
});
