import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { stepPosition, trajectoryWindow } from "../../bindings/commands";
import type { WindowStep } from "../../bindings/WindowStep";
import { shownOf } from "../../lib/format";
import { moveHighlight, stepKeyAction } from "../../lib/stepNav";
import { useDebounced } from "../../lib/useDebounced";
import { useKeyedState } from "../../lib/useKeyedState";
import { useWindowedList } from "../../lib/useWindowedList";
import { EmptyState } from "../shared/EmptyState";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Loading } from "../shared/Loading";
import { WindowEdge } from "./WindowEdge";
import { WindowedStep } from "./WindowedStep";

type Props = {
  trajectoryId: number;
  /** The link that opens a step (by its id), when steps have one. */
  linkTo?: (stepId: number) => string;
  /** A step to highlight and scroll to (the first with this id), as opened from a link. */
  focusStepId?: number | null;
};

/** Typing pauses this long before the filter asks the back end. */
const FILTER_DELAY_MS = 200;

/** Whether an element takes typed text. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.tagName === "INPUT" ||
    target.tagName === "TEXTAREA" ||
    target.tagName === "SELECT" ||
    target.isContentEditable
  );
}

/**
 * A trajectory's steps, loaded a window at a time however long the trajectory is, optionally filtered
 * by a text query (on the back end). j/k move the highlighted step, Enter expands or clips its long
 * texts, Esc clears the highlight (or leaves the filter), "/" filters.
 */
export function TrajectorySteps({ trajectoryId, linkTo, focusStepId = null }: Props) {
  const [query, setQuery] = useState("");
  const applied = useDebounced(query.trim(), FILTER_DELAY_MS);
  const [stepsTotal, setStepsTotal] = useState<number | null>(null);
  // The highlighted step by its index in the (filtered) list; none in another trajectory or filter.
  const [highlight, setHighlight] = useKeyedState<number | null>(null, `${trajectoryId}\n${applied}`);
  // Keys can arrive faster than renders: each move starts from the last one, not from the last render.
  const latestHighlight = useRef(highlight);
  useLayoutEffect(() => {
    latestHighlight.current = highlight;
  });
  // Steps (by position) whose long texts Enter expanded (true) or clipped (false).
  const [expanded, setExpanded] = useState<ReadonlyMap<number, boolean>>(() => new Map());
  // A linked step's position, revealed once the unfiltered list is loaded.
  const [focusPosition, setFocusPosition] = useState<number | null>(null);
  const filter = useRef<HTMLInputElement>(null);

  const fetchPage = useCallback(
    async (offset: number, limit: number) => {
      const w = await trajectoryWindow(trajectoryId, { offset, limit, filter: applied, whole: false });
      setStepsTotal(w.steps_total);
      return { items: w.steps, total: w.matching };
    },
    [trajectoryId, applied],
  );
  const list = useWindowedList<WindowStep>(fetchPage, `${trajectoryId}\n${applied}`);
  const { loaded, reveal } = list;

  useEffect(() => {
    if (focusStepId === null) return;
    let live = true;
    stepPosition(trajectoryId, focusStepId).then((position) => {
      if (!live || position === null) return;
      setQuery("");
      setFocusPosition(position);
    });
    return () => {
      live = false;
    };
  }, [trajectoryId, focusStepId]);

  useEffect(() => {
    if (focusPosition === null || applied !== "" || loaded === null || loaded.total !== stepsTotal) return;
    // The linked step is highlighted once the list it is in has loaded: no event marks that moment.
    // oxlint-disable-next-line react/set-state-in-effect
    setFocusPosition(null);
    setHighlight(focusPosition);
    void reveal(focusPosition);
  }, [focusPosition, applied, loaded, stepsTotal, reveal, setHighlight]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || loaded === null) return;
      const target = e.target instanceof Element ? e.target : null;
      const action = stepKeyAction({
        key: e.key,
        modifier: e.ctrlKey || e.metaKey || e.altKey,
        typing: isTyping(target),
        inFilter: target !== null && target === filter.current,
        onControl: target?.closest("button, a, summary") != null,
      });
      switch (action) {
        case null:
          return;
        case "next":
        case "previous": {
          const next = moveHighlight(latestHighlight.current, action === "next" ? 1 : -1, loaded.total);
          if (next === null) return;
          latestHighlight.current = next;
          setHighlight(next);
          void reveal(next);
          break;
        }
        case "toggle": {
          const step = highlight === null ? undefined : loaded.items[highlight - loaded.start];
          if (step === undefined) return;
          setExpanded((map) => new Map(map).set(step.position, !(map.get(step.position) ?? false)));
          break;
        }
        case "clear":
          if (highlight === null) return;
          setHighlight(null);
          break;
        case "leave-filter":
          filter.current?.blur();
          break;
        case "focus-filter":
          filter.current?.focus();
          break;
      }
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [loaded, highlight, reveal, setHighlight]);

  return (
    <div className="trajectory" data-testid="trajectory" data-steps-total={stepsTotal ?? undefined}>
      <div className="toolbar">
        <input
          ref={filter}
          type="search"
          className="search"
          data-testid="traj-filter"
          placeholder="Show only steps containing…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {loaded && stepsTotal !== null && (
          <span className="muted" data-testid="traj-count">
            {shownOf(loaded.total, stepsTotal, "step")}
          </span>
        )}
        <span className="muted traj-keys">j / k: next / previous step · Enter: expand · /: filter · Esc: clear</span>
      </div>
      {list.error && <ErrorPanel error={list.error} onRetry={list.retry} />}
      {loaded === null && !list.error && <Loading what="the steps" />}
      {loaded?.total === 0 && (
        <EmptyState title={stepsTotal === 0 ? "This trajectory has no steps." : "No step contains this text."} />
      )}
      <div className="traj-scroll" ref={list.container} data-testid="traj-scroll">
        <div ref={list.top} />
        {loaded && (
          <>
            <WindowEdge count={loaded.start} what="earlier" />
            {loaded.items.map((w, i) => (
              <div key={w.position} data-index={loaded.start + i}>
                <WindowedStep
                  trajectoryId={trajectoryId}
                  item={w}
                  position={w.position}
                  highlighted={loaded.start + i === highlight}
                  expanded={expanded.get(w.position)}
                  href={linkTo?.(w.step.step_id)}
                />
              </div>
            ))}
            <WindowEdge count={loaded.total - loaded.start - loaded.items.length} what="later" />
          </>
        )}
        <div ref={list.bottom} />
      </div>
    </div>
  );
}
