import { HEAT_LIMIT, LEGEND_TICKS, legendGradient, P_MARK, Q_MARK } from "../../lib/heatmap";
import { formatDelta } from "../../lib/statsFormat";

/** The heatmap's colour scale, its units, its marks and what a hatched cell means. */
export function HeatLegend() {
  return (
    <div className="heat-legend" data-testid="heat-legend">
      <div className="heat-scale">
        <span className="heat-scale-bar" style={{ background: legendGradient() }} aria-hidden="true" />
        <span className="heat-scale-ticks">
          {LEGEND_TICKS.map((t) => (
            <span key={t}>{formatDelta(t)}</span>
          ))}
        </span>
        <small className="muted">Mean delta (with − without), points; colours clamp at ±{HEAT_LIMIT}.</small>
      </div>
      <ul className="heat-keys">
        <li>
          <strong>{P_MARK}</strong> sign-flip p &lt; 0.05
        </li>
        <li>
          <strong>{Q_MARK}</strong> Benjamini–Hochberg q &lt; 0.05
        </li>
        <li>
          <span className="heat-swatch heat-missing" aria-hidden="true" /> not run, or no scored pair yet
        </li>
        <li>n = tasks (repeats averaged)</li>
      </ul>
    </div>
  );
}
