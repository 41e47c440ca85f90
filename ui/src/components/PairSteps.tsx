import { useEffect, useMemo, useRef, useState } from "react";
import type { AtifStep } from "../api/types";
import { firstDivergence, skillReadIndex } from "../lib/pairSteps";
import { moveHighlight } from "../lib/stepNav";
import { Badge } from "./Badge";
import { EmptyState } from "./EmptyState";
import { TrajectoryStep } from "./TrajectoryStep";

type Props = { without: AtifStep[]; with: AtifStep[]; onClose: () => void };
type Marks = { rows: number; highlight: number | null; divergent: number | null };

/**
 * The two trajectories side by side in one scroll container, aligned by step index. j/k move the
 * highlighted step, Esc closes; a button jumps to the first step where the runs differ.
 */
export function PairSteps({ without, with: withSteps, onClose }: Props) {
  const rows = Math.max(without.length, withSteps.length);
  const divergence = useMemo(() => firstDivergence(without, withSteps), [without, withSteps]);
  const skillRead = useMemo(() => skillReadIndex(withSteps), [withSteps]);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [divergent, setDivergent] = useState<number | null>(null);
  const container = useRef<HTMLDivElement>(null);

  const show = (index: number | null) => {
    setHighlight(index);
    if (index !== null) container.current?.querySelector(`[data-index="${index}"]`)?.scrollIntoView({ block: "center" });
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "Escape") onClose();
      else if (e.key === "j" || e.key === "k") show(moveHighlight(highlight, e.key === "j" ? 1 : -1, rows));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [highlight, rows, onClose]);

  const marks: Marks = { rows, highlight, divergent };
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
            title={divergence === null ? "The runs make the same calls and see the same output at every step." : undefined}
            onClick={() => {
              setDivergent(divergence);
              show(divergence);
            }}
          >
            {divergence === null ? "No divergence" : "Jump to first divergence"}
          </button>
        </div>
      </div>
      {rows === 0 ? (
        <EmptyState title="Neither run recorded an agent trajectory." />
      ) : (
        <div className="pair-steps" ref={container} style={{ gridTemplateRows: `repeat(${rows + 1}, auto)` }}>
          <Column name="without" label="Without the skill" steps={without} skillRead={null} marks={marks} />
          <Column name="with" label="With the skill" steps={withSteps} skillRead={skillRead} marks={marks} />
        </div>
      )}
    </section>
  );
}

type ColumnProps = { name: string; label: string; steps: AtifStep[]; skillRead: number | null; marks: Marks };

function Column({ name, label, steps, skillRead, marks: { rows, highlight, divergent } }: ColumnProps) {
  return (
    <div className="pair-column" data-testid={`pair-${name}`} style={{ gridRow: `1 / span ${rows + 1}` }}>
      <h3 className="pair-column-head">{label}</h3>
      {Array.from({ length: rows }, (_, i) => (
        <div
          key={i}
          className="pair-cell"
          data-index={i}
          data-highlighted={i === highlight ? "true" : undefined}
          data-divergent={i === divergent ? "true" : undefined}
        >
          {i === skillRead && (
            <Badge tone="accent" testId="skill-read" title="The agent first read a skill's SKILL.md in this step.">
              Read SKILL.md
            </Badge>
          )}
          {i < steps.length ? <TrajectoryStep step={steps[i]} /> : <p className="muted pair-ended">(this run has no step here)</p>}
        </div>
      ))}
    </div>
  );
}
