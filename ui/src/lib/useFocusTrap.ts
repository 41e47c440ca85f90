import { useEffect, useState, type RefObject } from "react";

const FOCUSABLE =
  'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), ' +
  'textarea:not(:disabled), summary, [tabindex]:not([tabindex="-1"])';

/** What Tab can reach inside root, in document order; hidden ones (a closed <details>) have no box. */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

/**
 * Where Tab (Shift+Tab when backwards) must send focus to stay among items: the other end when it would
 * leave them, the near end when focus is outside them, null where the browser's own move stays inside.
 */
export function wrapFocus<T>(items: readonly T[], active: T | null, backwards: boolean): T | null {
  if (items.length === 0) return null;
  const [first, last] = [items[0], items[items.length - 1]];
  const i = active === null ? -1 : items.indexOf(active);
  if (i === -1) return backwards ? last : first;
  if (backwards && i === 0) return last;
  if (!backwards && i === items.length - 1) return first;
  return null;
}

/**
 * Keeps keyboard focus inside a modal: moves it in on open (to the first focusable element, unless a child
 * took it with autoFocus), cycles Tab and Shift+Tab within, and gives it back to its opener on close.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>): void {
  // Read while rendering: by the time an effect runs, an autoFocus child has already taken focus.
  const [opener] = useState(() => document.activeElement);

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    if (!root.contains(document.activeElement)) focusables(root)[0]?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Tab") return;
      const target = wrapFocus(focusables(root), document.activeElement as HTMLElement | null, e.shiftKey);
      if (target) {
        e.preventDefault();
        target.focus();
      }
    };
    // On the document, so that Tab from outside (after a click on the backdrop) comes back in too.
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      // Only when closing left focus nowhere: a close that moved it on purpose keeps it there. This also
      // skips React's development remount, where the dialog (and its focus) stays.
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && opener instanceof HTMLElement) opener.focus();
    };
  }, [ref, opener]);
}
