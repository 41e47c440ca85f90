import {
  GAIN_MARK,
  HEAT_LIMIT,
  heatSymbol,
  LEGEND_TICKS,
  legendGradient,
  LOSS_MARK,
  P_MARK,
  Q_MARK,
} from "../../lib/heatmap";
import { formatDelta } from "../../lib/statsFormat";
import type { ColourScheme } from "../../lib/useColourScheme";

/** The heatmap's colour scale, its units, its marks (the sign's too) and what a hatched cell means. */
export function HeatLegend({ scheme }: { scheme: ColourScheme }) {
  return (
    <div className="heat-legend" data-testid="heat-legend">
      <div className="heat-scale">
        <span className="heat-scale-bar" style={{ background: legendGradient(scheme) }} aria-hidden="true" />
        <span className="heat-scale-ticks">
          {LEGEND_TICKS.map((t) => (
            <span key={t}>{`${heatSymbol(t)} ${formatDelta(t)}`.trim()}</span>
          ))}
        </span>
        <small className="muted">Mean delta (with − without), points; colours clamp at ±{HEAT_LIMIT}.</small>
      </div>
      <ul className="heat-keys">
        <li>
          <strong>{GAIN_MARK}</strong> blue: higher with the skill; <strong>{LOSS_MARK}</strong> orange: lower
        </li>
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
