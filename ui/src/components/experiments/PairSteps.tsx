import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { trajectoryWindow } from "../../bindings/commands";
import type { PairAlignment } from "../../bindings/PairAlignment";
import type { WindowStep } from "../../bindings/WindowStep";
import { moveHighlight } from "../../lib/stepNav";
import { useWindowedList, type Page } from "../../lib/useWindowedList";
import { Badge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Loading } from "../shared/Loading";
import { WindowEdge } from "../trajectories/WindowEdge";
import { WindowedStep } from "../trajectories/WindowedStep";

/** The trajectory ids of the pair's two runs (null: the run recorded none) and how they line up. */
type Props = { without: number | null; with: number | null; alignment: PairAlignment; onClose: () => void };
/** One step index of the pair: each run's step there, if it has one. */
type Row = { without?: WindowStep; with?: WindowStep };
type Marks = { start: number; highlight: number | null; divergent: number | null; skillRead: number | null };

async function steps(id: number | null, offset: number, limit: number): Promise<WindowStep[]> {
  return id === null ? [] : (await trajectoryWindow(id, { offset, limit, filter: "", whole: false })).steps;
}

/**
 * The two trajectories side by side in one scroll container, aligned by step index and loaded a
 * window at a time. j/k move the highlighted step, Esc closes; a button jumps to the first step
 * where the runs differ.
 */
export function PairSteps({ without, with: withId, alignment, onClose }: Props) {
  const total = Math.max(alignment.without_steps, alignment.with_steps);
  const fetchPage = useCallback(
    async (offset: number, limit: number): Promise<Page<Row>> => {
      const [a, b] = await Promise.all([steps(without, offset, limit), steps(withId, offset, limit)]);
      const items = Array.from({ length: Math.min(limit, total - offset) }, (_, i) => ({ without: a[i], with: b[i] }));
      return { items, total };
    },
    [without, withId, total],
  );
  const list = useWindowedList<Row>(fetchPage, `${without}\n${withId}`);
  const { loaded, reveal } = list;
  const [highlight, setHighlight] = useState<number | null>(null);
  // Keys can arrive faster than renders: each move starts from the last one, not from the last render.
  const latestHighlight = useRef(highlight);
  useLayoutEffect(() => {
    latestHighlight.current = highlight;
  });
  const [divergent, setDivergent] = useState<number | null>(null);
  const divergence = alignment.first_divergence;

  const show = useCallback(
    (index: number | null) => {
      latestHighlight.current = index;
      setHighlight(index);
      if (index !== null) void reveal(index);
    },
    [reveal],
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "Escape") onClose();
      else if (e.key === "j" || e.key === "k")
        show(moveHighlight(latestHighlight.current, e.key === "j" ? 1 : -1, total));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [total, onClose, show]);

  const rows = loaded?.items ?? [];
  const marks: Marks = { start: loaded?.start ?? 0, highlight, divergent, skillRead: alignment.skill_read };
  return (
    <section className="panel" data-testid="pair-steps">
      <div className="panel-header">
        <h2>Steps</h2>
        <div className="toolbar">
          <span className="muted">j / k: next / previous step · Esc: back to Results</span>
          <button
            type="button"
            data-testid="jump-divergence"
            disabled={divergence === null}
            title={
              divergence === null ? "The runs make the same calls and see the same output at every step." : undefined
            }
            onClick={() => {
              setDivergent(divergence);
              show(divergence);
            }}
          >
            {divergence === null ? "No divergence" : `Jump to first divergence (step index ${divergence + 1})`}
          </button>
        </div>
      </div>
      {total === 0 && <EmptyState title="Neither run recorded an agent trajectory." />}
      {list.error && <ErrorPanel error={list.error} onRetry={list.retry} />}
      {total > 0 && loaded === null && !list.error && <Loading what="the steps" />}
      <div className="pair-steps" ref={list.container}>
        <div ref={list.top} />
        {loaded && <WindowEdge count={loaded.start} what="earlier" />}
        <div className="pair-grid" style={{ gridTemplateRows: `repeat(${rows.length + 1}, auto)` }}>
          <Column
            name="without"
            label="Without the skill"
            trajectoryId={without}
            rows={rows}
            pick={(r) => r.without}
            marks={{ ...marks, skillRead: null }}
          />
          <Column
            name="with"
            label="With the skill"
            trajectoryId={withId}
            rows={rows}
            pick={(r) => r.with}
            marks={marks}
          />
        </div>
        {loaded && <WindowEdge count={loaded.total - loaded.start - rows.length} what="later" />}
        <div ref={list.bottom} />
      </div>
    </section>
  );
}

type ColumnProps = {
  name: string;
  label: string;
  trajectoryId: number | null;
  rows: Row[];
  pick: (row: Row) => WindowStep | undefined;
  marks: Marks;
};

function Column({
  name,
  label,
  trajectoryId,
  rows,
  pick,
  marks: { start, highlight, divergent, skillRead },
}: ColumnProps) {
  return (
    <div className="pair-column" data-testid={`pair-${name}`} style={{ gridRow: `1 / span ${rows.length + 1}` }}>
      <h3 className="pair-column-head">{label}</h3>
      {rows.map((row, i) => {
        const index = start + i;
        const step = pick(row);
        return (
          <div
            key={index}
            className="pair-cell"
            data-index={index}
            data-highlighted={index === highlight ? "true" : undefined}
            data-divergent={index === divergent ? "true" : undefined}
          >
            {index === skillRead && (
              <Badge tone="accent" testId="skill-read" title="The agent first read a skill's SKILL.md in this step.">
                Read SKILL.md
              </Badge>
            )}
            {step && trajectoryId !== null ? (
              <WindowedStep trajectoryId={trajectoryId} item={step} />
            ) : (
              <p className="muted pair-ended">(this run has no step here)</p>
            )}
          </div>
        );
      })}
    </div>
  );
}
