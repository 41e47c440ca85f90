import { useState } from "react";

/**
 * The first index of the page shown: the one chosen, else the page of `focus` (an index, −1 for
 * none), else the first; kept inside the list when it shrinks.
 */
export function pageOffset(length: number, pageSize: number, chosen: number | null, focus: number): number {
  const initial = focus < 0 ? 0 : Math.floor(focus / pageSize) * pageSize;
  const last = Math.max(0, Math.floor((length - 1) / pageSize) * pageSize);
  return Math.min(chosen ?? initial, last);
}

/** A long list shown a page at a time, opening on the page of `focus` when given. */
export function usePage<T>(items: T[], pageSize: number, focus: number = -1) {
  const [chosen, setOffset] = useState<number | null>(null);
  const offset = pageOffset(items.length, pageSize, chosen, focus);
  return { offset, page: items.slice(offset, offset + pageSize), setOffset };
}
