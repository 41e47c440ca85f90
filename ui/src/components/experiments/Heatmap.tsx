import { useState, type ReactNode } from "react";
import type { Chart } from "../../bindings/Chart";
import type { PairView } from "../../bindings/PairView";
import type { StatsClass } from "../../bindings/StatsClass";
import type { StatsReport } from "../../bindings/StatsReport";
import type { StatsSummary } from "../../bindings/StatsSummary";
import { CLASSES, classLabel } from "../../lib/experiments";
import {
  cellPairs,
  HEAT_SORTS,
  heatCategories,
  heatColour,
  heatGrid,
  heatSymbol,
  requirementChartTitle,
  significanceMarks,
  skillVersions,
  type Categories,
  type HeatSort,
  type HeatView,
} from "../../lib/heatmap";
import { formatCi, formatDelta, formatP } from "../../lib/statsFormat";
import { useColourScheme, type ColourScheme } from "../../lib/useColourScheme";
import { ClassBadge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { HeatCellDetail } from "./HeatCellDetail";
import { HeatLegend } from "./HeatLegend";
import { HeatTable } from "./HeatTable";

export type HeatmapProps = {
  report: StatsReport;
  categories: Categories;
  pairs: PairView[];
  charts: Chart[];
  experimentId: number;
  /** The measure picker, shown first in the toolbar. */
  measureSelect?: ReactNode;
  /** Shown instead of the grid (while a measure loads, or when it has no data). */
  children?: ReactNode;
};
type Cell = { skill: string; config: string };

/** Skills × agent configurations coloured by mean delta; a cell opens its pairs and requirement-level chart. */
export function Heatmap({ report, categories, pairs, charts, experimentId, measureSelect, children }: HeatmapProps) {
  const [view, setView] = useState<HeatView>({ sort: "delta", classFilter: null, category: null });
  const [selected, setSelected] = useState<Cell | null>(null);
  const scheme = useColourScheme();
  const { configs, rows } = heatGrid(report, categories, view);
  const change = (patch: Partial<HeatView>) => setView((v) => ({ ...v, ...patch }));
  const isSelected = (skill: string, config: string) => selected?.skill === skill && selected.config === config;

  return (
    <section className="panel" data-testid="heatmap">
      <div className="panel-header">
        <h2>Heatmap</h2>
        <div className="toolbar">
          {measureSelect}
          <label className="checkbox">
            Sort by
            <select
              data-testid="heat-sort"
              value={view.sort}
              onChange={(e) => change({ sort: e.target.value as HeatSort })}
            >
              {HEAT_SORTS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="checkbox">
            Class
            <select
              data-testid="heat-filter"
              value={view.classFilter ?? ""}
              onChange={(e) => change({ classFilter: e.target.value === "" ? null : (e.target.value as StatsClass) })}
            >
              <option value="">All</option>
              {CLASSES.map((c) => (
                <option key={c} value={c}>
                  {classLabel(c)}
                </option>
              ))}
            </select>
          </label>
          <label className="checkbox">
            Category
            <select
              data-testid="heat-category"
              value={view.category ?? ""}
              onChange={(e) => change({ category: e.target.value === "" ? null : e.target.value })}
            >
              <option value="">All</option>
              {heatCategories(report, categories).map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {children ??
        (configs.length === 0 || rows.length === 0 ? (
          <EmptyState
            title={
              configs.length === 0 ? "No skill has a scored pair yet." : "No skill matches this class and category."
            }
          />
        ) : (
          <HeatTable configs={configs}>
            {rows.map(({ skill, category, cells }) => (
              <tr key={skill.skill} data-testid="heat-row" data-skill={skill.skill} data-category={category}>
                <th scope="row">
                  {skill.skill}{" "}
                  <small className="muted" data-testid="heat-version" title="The library version this row's pairs ran">
                    {skillVersions(pairs, skill.skill)}
                  </small>{" "}
                  <ClassBadge value={skill.class} />
                  <small className="muted heat-category">{category}</small>
                </th>
                {cells.map((cell, i) => (
                  <td key={configs[i]}>
                    {cell ? (
                      <HeatCell
                        cell={cell}
                        scheme={scheme}
                        selected={isSelected(cell.skill, cell.config)}
                        onSelect={() => setSelected({ skill: cell.skill, config: cell.config })}
                      />
                    ) : (
                      <MissingCell
                        skill={skill.skill}
                        config={configs[i]}
                        run={cellPairs(pairs, skill.skill, configs[i]).length > 0}
                      />
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </HeatTable>
        ))}
      {/* The legend reads the delta grid; what replaces the grid says what its colours are. */}
      {children === undefined && <HeatLegend scheme={scheme} />}
      {selected && (
        <HeatCellDetail
          {...selected}
          experimentId={experimentId}
          pairs={cellPairs(pairs, selected.skill, selected.config)}
          chart={charts.find((c) => c.title === requirementChartTitle(selected.skill, selected.config))}
          onClose={() => setSelected(null)}
        />
      )}
    </section>
  );
}

type HeatCellProps = { cell: StatsSummary; scheme: ColourScheme; selected: boolean; onSelect: () => void };

function HeatCell({ cell, scheme, selected, onSelect }: HeatCellProps) {
  const { background, text } = heatColour(cell.delta, scheme);
  const symbol = heatSymbol(cell.delta);
  const marks = significanceMarks(cell);
  return (
    <button
      type="button"
      className={selected ? "heat-cell selected" : "heat-cell"}
      style={{ background, color: text }}
      data-testid="heat-cell"
      data-skill={cell.skill}
      data-config={cell.config}
      data-delta={cell.delta}
      aria-pressed={selected}
      title={`${cell.skill} × ${cell.config}: delta ${formatDelta(cell.delta)} points, 95% CI ${formatCi(cell.ci_low, cell.ci_high)}, p ${formatP(cell.p_signflip)}, q ${formatP(cell.q_bh)}, ${classLabel(cell.class)}. Click for its pairs.`}
      onClick={onSelect}
    >
      <span className="heat-delta">
        {/* The sign as a shape too, so colour is never its only cue; screen readers get it from the number. */}
        {symbol && (
          <span className="heat-sign" aria-hidden="true">
            {symbol}
          </span>
        )}
        {formatDelta(cell.delta)}
        {marks && <sup data-testid="heat-marks">{marks}</sup>}
      </span>
      <span className="heat-n">n={cell.n}</span>
    </button>
  );
}

function MissingCell({ skill, config, run }: { skill: string; config: string; run: boolean }) {
  const text = run ? "no scored pair" : "not run";
  return (
    <span
      className="heat-cell heat-missing"
      data-testid="heat-cell"
      data-skill={skill}
      data-config={config}
      data-missing={text}
      title={`${skill} × ${config}: ${text}`}
    >
      {text}
    </span>
  );
}
