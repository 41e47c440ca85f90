import type { Activation } from "../../bindings/Activation";
import { heatColour } from "../../lib/heatmap";
import { formatShare, formatShareCi } from "../../lib/statsFormat";
import { useColourScheme } from "../../lib/useColourScheme";
import { EmptyState } from "../shared/EmptyState";
import { HeatTable } from "./HeatTable";

/**
 * Activation accuracy on the heatmap's grid: a skill × configuration cell per routing set, its
 * accuracy (cases decided right) k/n. There is no without arm to take a delta from, so the colour
 * is the accuracy's distance from 50%: orange below, blue above.
 */
export function ActivationGrid({ activation }: { activation: Activation[] }) {
  const scheme = useColourScheme();
  if (activation.length === 0) {
    return <EmptyState testId="activation-none" title="This experiment has no routing cases (trigger evals)." />;
  }
  const skills = [...new Set(activation.map((a) => a.skill))].sort((a, b) => a.localeCompare(b));
  const configs = [...new Set(activation.map((a) => a.config))];
  return (
    <HeatTable
      configs={configs}
      testId="activation-grid"
      caption="Activation accuracy: routing cases decided right (used when it should be, left alone when it should not), with the 95% Wilson interval. Colour: the distance from 50%, orange below, blue above."
    >
      {skills.map((skill) => (
        <tr key={skill} data-testid="heat-row" data-skill={skill}>
          <th scope="row">{skill}</th>
          {configs.map((config) => {
            const a = activation.find((x) => x.skill === skill && x.config === config);
            if (!a || a.accuracy.rate === null) {
              return (
                <td key={config}>
                  <span className="heat-cell heat-missing">no routing case</span>
                </td>
              );
            }
            const { background, text } = heatColour((a.accuracy.rate - 0.5) * 200, scheme);
            return (
              <td key={config}>
                <span
                  className="heat-cell"
                  style={{ background, color: text }}
                  data-testid="activation-cell"
                  data-skill={skill}
                  data-config={config}
                  title={`${skill} × ${config}: accuracy ${a.accuracy.k}/${a.accuracy.n}, 95% CI ${formatShareCi(a.accuracy.ci_low, a.accuracy.ci_high)}; precision ${a.precision.k}/${a.precision.n}, recall ${a.recall.k}/${a.recall.n}, false activations ${a.false_activation_rate.k}/${a.false_activation_rate.n}`}
                >
                  <span className="heat-delta">{formatShare(a.accuracy.rate)}</span>
                  <span className="heat-n">
                    {a.accuracy.k}/{a.accuracy.n}
                  </span>
                </span>
              </td>
            );
          })}
        </tr>
      ))}
    </HeatTable>
  );
}
