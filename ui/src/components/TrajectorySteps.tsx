import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { AtifStep } from "../api/types";
import { shownOf } from "../lib/format";
import { stepHref } from "../lib/route";
import { moveHighlight, stepKeyAction } from "../lib/stepNav";
import { filterSteps, indexSteps, stepTimeDeltas } from "../lib/trajectory";
import { EmptyState } from "./EmptyState";
import { TrajectoryStep } from "./TrajectoryStep";

/** Steps rendered at once; "Show more" adds as many again. */
const PAGE = 200;

/** The trial a trajectory belongs to, for the links to its steps. */
type Owner = { runId: number; trialId: number };

type Props = {
  steps: AtifStep[];
  owner?: Owner;
  /** A step to highlight and scroll to (the first with this id), as opened from a link. */
  focusStepId?: number | null;
};

/** Whether an element takes typed text. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable;
}

/** The limit that renders the step at `index` of the shown list. */
const limitFor = (index: number, limit: number) => Math.max(limit, Math.ceil((index + 1) / PAGE) * PAGE);

/**
 * A trajectory's steps, filtered by a text query, rendered a page at a time. j/k move the highlighted
 * step, Enter expands or clips its long texts, Esc clears the highlight (or leaves the filter), "/" filters.
 */
export function TrajectorySteps({ steps, owner, focusStepId = null }: Props) {
  const index = useMemo(() => indexSteps(steps), [steps]);
  const deltas = useMemo(() => stepTimeDeltas(steps), [steps]);
  const [query, setQuery] = useState("");
  const [limit, setLimit] = useState(PAGE);
  // The highlighted step by its position in the trajectory, so that it survives filtering.
  const [highlight, setHighlight] = useState<number | null>(null);
  // Steps whose long texts Enter expanded (true) or clipped (false); the others follow their own buttons.
  const [expanded, setExpanded] = useState<ReadonlyMap<number, boolean>>(() => new Map());
  // Bumped to scroll the highlighted step into view once it is rendered.
  const [scrollRequest, setScrollRequest] = useState(0);
  const container = useRef<HTMLDivElement>(null);
  const filter = useRef<HTMLInputElement>(null);
  // Typing stays responsive on long trajectories: the list follows the query when it can.
  const deferredQuery = useDeferredValue(query);
  const shown = useMemo(() => filterSteps(index, deferredQuery), [index, deferredQuery]);
  const remaining = shown.length - limit;

  const highlightAt = (position: number | null) => {
    setHighlight(position);
    if (position !== null) setScrollRequest((n) => n + 1);
  };

  // A step opened from a link: shown (clearing a filter that hides it), highlighted and scrolled to.
  useEffect(() => {
    if (focusStepId === null) return;
    const position = index.findIndex((entry) => entry.step.step_id === focusStepId);
    if (position === -1) return;
    setQuery("");
    setLimit((current) => limitFor(position, current));
    highlightAt(position);
  }, [focusStepId, index]);

  useEffect(() => {
    if (highlight === null) return;
    const element = container.current?.querySelector(`[data-position="${highlight}"]`);
    element?.scrollIntoView?.({ block: "nearest" });
  }, [highlight, scrollRequest]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
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
          const current = shown.findIndex((entry) => entry.position === highlight);
          const next = moveHighlight(current === -1 ? null : current, action === "next" ? 1 : -1, shown.length);
          if (next === null) return;
          setLimit((l) => limitFor(next, l));
          highlightAt(shown[next].position);
          break;
        }
        case "toggle": {
          if (highlight === null) return;
          const position = highlight;
          setExpanded((map) => new Map(map).set(position, !(map.get(position) ?? false)));
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
  }, [shown, highlight]);

  return (
    <div className="trajectory" data-testid="trajectory" ref={container}>
      <div className="toolbar">
        <input
          ref={filter}
          type="search"
          className="search"
          data-testid="traj-filter"
          placeholder="Show only steps containing…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setLimit(PAGE);
          }}
        />
        <span className="muted" data-testid="traj-count">
          {shownOf(shown.length, steps.length, "step")}
        </span>
        <span className="muted traj-keys">j / k: next / previous step · Enter: expand · /: filter · Esc: clear</span>
      </div>
      {shown.length === 0 && <EmptyState title={steps.length === 0 ? "This trajectory has no steps." : "No step contains this text."} />}
      {shown.slice(0, limit).map((entry) => (
        <TrajectoryStep
          key={entry.position}
          step={entry.step}
          position={entry.position}
          highlighted={entry.position === highlight}
          expanded={expanded.get(entry.position)}
          sinceMs={deltas[entry.position]}
          href={owner && stepHref(owner.runId, owner.trialId, entry.step.step_id)}
        />
      ))}
      {remaining > 0 && (
        <button type="button" data-testid="traj-show-more" onClick={() => setLimit(limit + PAGE)}>
          Show {Math.min(PAGE, remaining)} more ({remaining} not shown)
        </button>
      )}
    </div>
  );
}
