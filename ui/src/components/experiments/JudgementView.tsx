import type { Judgement } from "../../bindings/Judgement";

type Props = { judgement: Judgement; title: string; testId: string };

/** A judge's verdicts on one arm: each expectation with its quote (a refused pass says why), who judged with which prompt, or why there is NO SCORE. */
export function JudgementView({ judgement, title, testId }: Props) {
  const j = judgement;
  const who = `${j.judge.provider} · ${j.model_reported ?? j.judge.model}, prompt ${j.prompt_version} (sha256 ${j.prompt_sha256.slice(0, 12)}…), temperature ${j.temperature}`;
  return (
    <div className="judgement" data-testid={testId}>
      <p className="muted">
        <strong>{title}</strong>, judged by {who}.
      </p>
      {j.graded === null ? (
        <p className="notice notice-warning" data-testid="arm-no-score">
          NO SCORE: {j.no_score}
        </p>
      ) : (
        <ul className="judgement-list">
          {j.graded.expectations.map((e, i) => (
            <li key={i} data-testid="arm-expectation" data-passed={e.passed}>
              <strong>{e.passed ? "✓ passed" : "✗ failed"}</strong> {e.text}
              {e.evidence !== "" && (
                <blockquote className="judgement-quote" data-testid="arm-expectation-quote">
                  {e.evidence}
                </blockquote>
              )}
              {e.refused !== null && <span className="muted"> (the judge's pass was refused: {e.refused})</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
