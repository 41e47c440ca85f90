// The loaded part of a long list of steps: only a window of it is fetched (and crosses IPC) at a
// time; scrolling extends it at either end and drops what is far away.

/** Steps fetched at a time (crates/api/benches/trajectory_window.rs measures this window). */
export const PAGE = 50;
/** Most steps kept loaded (and in the DOM); beyond, the far end is dropped. */
export const MAX_LOADED = 250;

/** Items [start, start + items.length) of a list of `total`. */
export type Loaded<T> = { start: number; items: T[]; total: number };

export type Direction = "before" | "after";
export type Fetch = { offset: number; limit: number };

const end = <T>(loaded: Loaded<T>) => loaded.start + loaded.items.length;

/** What to fetch to extend the loaded range in a direction; null when it already reaches that end. */
export function extendFetch<T>(loaded: Loaded<T>, direction: Direction): Fetch | null {
  if (direction === "after") {
    const offset = end(loaded);
    return offset >= loaded.total ? null : { offset, limit: PAGE };
  }
  if (loaded.start === 0) return null;
  const offset = Math.max(0, loaded.start - PAGE);
  return { offset, limit: loaded.start - offset };
}

/** The range after `fetched` arrived for a direction: joined, then trimmed at the far end to MAX_LOADED. */
export function merge<T>(loaded: Loaded<T>, direction: Direction, fetched: T[], total: number): Loaded<T> {
  if (direction === "after") {
    const items = [...loaded.items, ...fetched];
    const drop = Math.max(0, items.length - MAX_LOADED);
    return { start: loaded.start + drop, items: items.slice(drop), total };
  }
  const items = [...fetched, ...loaded.items].slice(0, MAX_LOADED);
  return { start: loaded.start - fetched.length, items, total };
}

/** The window that shows the item at `index` with some context before it. */
export function windowAround(index: number, total: number): Fetch {
  const offset = Math.max(0, Math.min(index - Math.floor(PAGE / 4), total - PAGE));
  return { offset, limit: PAGE };
}

/** Whether the item at `index` is loaded. */
export const isLoaded = <T>(loaded: Loaded<T>, index: number) => index >= loaded.start && index < end(loaded);
