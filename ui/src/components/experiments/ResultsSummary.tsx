import type { ExperimentResults } from "../../bindings/ExperimentResults";
import type { PairView } from "../../bindings/PairView";
import { CLASSES, classCounts, classDescription, classLabel, groupReasons, pairProgress } from "../../lib/experiments";
import { plural } from "../../lib/format";
import { runsHref } from "../../lib/route";
import { formatDelta, formatPoints } from "../../lib/statsFormat";

type Props = { results: ExperimentResults; pairs: PairView[]; runId: number };

/** The experiment at a glance: skills per class, mean scores, re-runs, and why pairs were left out. */
export function ResultsSummary({ results, pairs, runId }: Props) {
  const { overall, skills } = results.report;
  const counts = classCounts(skills);
  const progress = pairProgress(pairs);
  const reasons = groupReasons(pairs);
  const scored = overall.n_pairs > 0;
  return (
    <section className="panel" data-testid="results-summary">
      <h2>Summary</h2>
      <dl className="summary-stats">
        {CLASSES.map((c) => (
          <div key={c} title={classDescription(c)} data-testid={`summary-${c}`}>
            <dt>{classLabel(c)}</dt>
            <dd>{counts[c]}</dd>
          </div>
        ))}
        <div title="Mean pass ratio over the scored pairs, in points (0–100)">
          <dt>Without → with</dt>
          <dd data-testid="summary-means">
            {scored ? `${formatPoints(overall.mean_without)} → ${formatPoints(overall.mean_with)}` : "—"}
          </dd>
        </div>
        <div>
          <dt>Delta</dt>
          <dd>{scored ? formatDelta(overall.delta) : "—"}</dd>
        </div>
        <div title="Pairs whose both arms finished cleanly and passed the fairness check">
          <dt>Scored pairs</dt>
          <dd data-testid="summary-scored">
            {results.pairs_scored}/{progress.total}
          </dd>
        </div>
        <div title="Extra attempts after infrastructure failures, over both arms of every pair">
          <dt>Infrastructure re-runs</dt>
          <dd data-testid="summary-reruns">{results.reruns}</dd>
        </div>
      </dl>
      {progress.pending > 0 && (
        <p className="muted">{plural(progress.pending, "pair")} still waiting for an arm to finish.</p>
      )}
      {reasons.length > 0 && (
        <div data-testid="summary-excluded">
          <h3>{plural(progress.excluded, "finished pair")} excluded</h3>
          <ul className="reasons">
            {reasons.map(({ reason, count }) => (
              <li key={reason} data-testid="excluded-reason">
                <span className="reason-count">{count}×</span> {reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {!scored && (
        <p className="muted" data-testid="summary-no-scores">
          No pair is scored yet: statistics appear once both arms of a pair finish. Follow its trials on{" "}
          <a href={runsHref(runId)}>the Runs page</a>.
        </p>
      )}
    </section>
  );
}
