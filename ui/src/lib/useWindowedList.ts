import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { toAppError } from "../api/errors";
import type { AppError } from "../bindings/AppError";
import { extendFetch, isLoaded, merge, PAGE, windowAround, type Direction, type Loaded } from "./stepWindow";
import { useKeyedState } from "./useKeyedState";

/** A page of a long list and the list's length. */
export type Page<T> = { items: T[]; total: number };

export type WindowedList<T> = {
  loaded: Loaded<T> | null;
  error: AppError | null;
  /** Fetches again from the start (after an error). */
  retry: () => void;
  /** Loads the window holding the item at `index` (if needed), then scrolls it into view. */
  reveal: (index: number) => Promise<void>;
  /** The scroll container, and the sentinels at the top and bottom of the list inside it. */
  container: RefObject<HTMLDivElement | null>;
  top: RefObject<HTMLDivElement | null>;
  bottom: RefObject<HTMLDivElement | null>;
};

/** The element of the item at `index` inside the container (items carry `data-index`). */
const itemElement = (container: HTMLElement | null, index: number) =>
  container?.querySelector<HTMLElement>(`[data-index="${index}"]`) ?? null;

/**
 * A long list loaded a window at a time: the first page when `key` changes, more at either end when
 * its sentinel scrolls into view (the far end is dropped), a window around any item on request. The
 * item on screen stays put while items are added or dropped above it.
 */
export function useWindowedList<T>(
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>,
  key: string,
): WindowedList<T> {
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);
  const [generation, setGeneration] = useState(0);
  // A new list, or a retry, starts without an error.
  const [error, setError] = useKeyedState<AppError | null>(null, `${generation}\n${key}`);
  const container = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const busy = useRef(false);
  // Bumped when the list starts over: a page fetched for an older list is dropped.
  const epoch = useRef(0);
  // The item to keep in place across the next render: its index and its offset from the container's top.
  const anchor = useRef<{ index: number; offset: number } | null>(null);
  // An item to scroll into view once rendered.
  const target = useRef<number | null>(null);
  const fetcher = useRef(fetchPage);
  const current = useRef(loaded);
  // Callbacks and effects see the latest fetcher and list (set before any of them can run).
  useLayoutEffect(() => {
    fetcher.current = fetchPage;
    current.current = loaded;
  });

  useEffect(() => {
    let live = true;
    epoch.current += 1;
    busy.current = true;
    fetcher
      .current(0, PAGE)
      .then(
        (page) => live && setLoaded({ start: 0, items: page.items, total: page.total }),
        (raw: unknown) => live && setError(toAppError(raw)),
      )
      .finally(() => {
        if (live) busy.current = false;
      });
    if (container.current) container.current.scrollTop = 0;
    return () => {
      live = false;
    };
  }, [key, generation, setError]);

  const extend = useCallback(
    async (direction: Direction) => {
      const now = current.current;
      if (busy.current || now === null) return;
      const next = extendFetch(now, direction);
      if (next === null) return;
      busy.current = true;
      const started = epoch.current;
      try {
        const page = await fetcher.current(next.offset, next.limit);
        if (started !== epoch.current) return;
        const box = container.current;
        // Keep the first item on screen where it is.
        const first = box
          ? Array.from(box.querySelectorAll<HTMLElement>("[data-index]")).find(
              (el) => el.getBoundingClientRect().bottom > box.getBoundingClientRect().top,
            )
          : undefined;
        if (box && first)
          anchor.current = {
            index: Number(first.dataset.index),
            offset: first.getBoundingClientRect().top - box.getBoundingClientRect().top,
          };
        setLoaded((l) => (l === null ? l : merge(l, direction, page.items, page.total)));
      } catch (raw) {
        if (started === epoch.current) setError(toAppError(raw));
      } finally {
        if (started === epoch.current) busy.current = false;
      }
    },
    [setError],
  );

  useLayoutEffect(() => {
    const box = container.current;
    if (box && anchor.current !== null) {
      const el = itemElement(box, anchor.current.index);
      if (el) box.scrollTop += el.getBoundingClientRect().top - box.getBoundingClientRect().top - anchor.current.offset;
      anchor.current = null;
    }
    if (target.current !== null) {
      itemElement(box, target.current)?.scrollIntoView?.({ block: "center" });
      target.current = null;
    }
  }, [loaded]);

  // Sentinels: observed afresh after every change, so that one still in view asks for more.
  useEffect(() => {
    const box = container.current;
    if (!box || loaded === null || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries)
          if (entry.isIntersecting) void extend(entry.target === top.current ? "before" : "after");
      },
      { root: box, rootMargin: "600px 0px" },
    );
    if (top.current) observer.observe(top.current);
    if (bottom.current) observer.observe(bottom.current);
    return () => observer.disconnect();
  }, [loaded, extend]);

  const reveal = useCallback(
    async (index: number) => {
      const now = current.current;
      if (now === null) return;
      if (isLoaded(now, index)) {
        itemElement(container.current, index)?.scrollIntoView?.({ block: "center" });
        return;
      }
      const { offset, limit } = windowAround(index, now.total);
      // A new window: whatever an edge was loading belongs to the old one.
      epoch.current += 1;
      busy.current = true;
      const started = epoch.current;
      try {
        const page = await fetcher.current(offset, limit);
        if (started !== epoch.current) return;
        target.current = index;
        setLoaded({ start: offset, items: page.items, total: page.total });
      } catch (raw) {
        if (started === epoch.current) setError(toAppError(raw));
      } finally {
        if (started === epoch.current) busy.current = false;
      }
    },
    [setError],
  );

  const retry = useCallback(() => setGeneration((g) => g + 1), []);
  return { loaded, error, retry, reveal, container, top, bottom };
}
