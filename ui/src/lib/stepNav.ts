// Moving through a list of steps with the keyboard (the trial trajectory and the pair view).

/** The highlighted step after moving `by` steps, kept within 0..count−1; the first step when none was highlighted. */
export function moveHighlight(current: number | null, by: number, count: number): number | null {
  if (count === 0) return null;
  if (current === null) return 0;
  return Math.max(0, Math.min(count - 1, current + by));
}

/** What a key does in the trajectory step list. */
export type StepKeyAction = "next" | "previous" | "toggle" | "clear" | "focus-filter" | "leave-filter";

/** The key pressed and where: typing in an input or textarea, in the step filter itself, on a button or link. */
export type StepKey = {
  key: string;
  modifier: boolean;
  typing: boolean;
  inFilter: boolean;
  onControl: boolean;
};

/**
 * The action for a key in the trajectory: j/k move, Enter expands the highlighted step, Esc leaves the
 * filter or clears the highlight, "/" focuses the filter; null for anything else and for keys typed in
 * an input or textarea (except Esc in the filter) or pressed with Ctrl, Meta or Alt.
 */
export function stepKeyAction({ key, modifier, typing, inFilter, onControl }: StepKey): StepKeyAction | null {
  if (modifier) return null;
  if (key === "Escape") {
    if (inFilter) return "leave-filter";
    return typing ? null : "clear";
  }
  if (typing) return null;
  switch (key) {
    case "j":
      return "next";
    case "k":
      return "previous";
    case "/":
      return "focus-filter";
    case "Enter":
      // Enter on a focused button or link keeps its own meaning.
      return onControl ? null : "toggle";
    default:
      return null;
  }
}
