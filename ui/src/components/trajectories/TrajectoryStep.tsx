import { memo } from "react";
import type { AtifObservationResult } from "../../bindings/AtifObservationResult";
import type { AtifStep } from "../../bindings/AtifStep";
import type { AtifStepSource } from "../../bindings/AtifStepSource";
import type { AtifToolCall } from "../../bindings/AtifToolCall";
import { formatClock, formatCost, formatTokens } from "../../lib/format";
import { formatDuration } from "../../lib/phases";
import { contentText, formatArguments, pairToolCalls } from "../../lib/trajectory";
import { Badge, type Tone } from "../shared/Badge";
import { ClippedText } from "../shared/ClippedText";

const SOURCE_TONE: Record<AtifStepSource, Tone> = { system: "neutral", user: "accent", agent: "success" };

// Longer texts start clipped: messages and arguments are read, outputs mostly skimmed.
const MESSAGE = { maxChars: 1500, maxLines: 20 };
const OUTPUT = { maxChars: 1000, maxLines: 12 };

export type TrajectoryStepProps = {
  step: AtifStep;
  /** Its position in the trajectory, for finding it in the list. */
  position?: number;
  /** The step the keyboard is on. */
  highlighted?: boolean;
  /** Long texts shown whole (true) or clipped (false); each text's own button decides when undefined. */
  expanded?: boolean;
  /** Milliseconds since the previous step, when both have a timestamp. */
  sinceMs?: number | null;
  /** A link that opens this step. */
  href?: string;
};

/** One step of a trajectory: who, when, its message, its tool calls each with its results, its tokens. */
export const TrajectoryStep = memo(function TrajectoryStep({
  step,
  position,
  highlighted,
  expanded,
  sinceMs,
  href,
}: TrajectoryStepProps) {
  const { pairs, unmatched } = pairToolCalls(step);
  const message = contentText(step.message);
  const metrics = step.metrics;
  return (
    <article
      className="traj-step"
      data-testid="traj-step"
      data-step-id={step.step_id}
      data-source={step.source}
      data-position={position}
      data-highlighted={highlighted ? "true" : undefined}
      aria-current={highlighted ? "step" : undefined}
    >
      <header className="traj-step-header">
        <span className="traj-step-id">#{step.step_id}</span>
        {href && (
          <a
            className="traj-step-link"
            data-testid="traj-step-link"
            href={href}
            title="Link to this step"
            aria-label={`Link to step ${step.step_id}`}
          >
            ¶
          </a>
        )}
        <Badge tone={SOURCE_TONE[step.source]}>{step.source}</Badge>
        {step.timestamp && (
          <time className="muted" dateTime={step.timestamp} title={step.timestamp}>
            {formatClock(step.timestamp)}
          </time>
        )}
        <span className="traj-step-meta">
          {sinceMs != null && (
            <span className="muted traj-time" data-testid="traj-step-time" title="Time since the previous step">
              +{formatDuration(sinceMs)}
            </span>
          )}
          {metrics && (
            <span className="muted traj-tokens" data-testid="traj-step-tokens">
              {formatTokens({
                input: metrics.prompt_tokens,
                cached: metrics.cached_tokens,
                output: metrics.completion_tokens,
              })}
              {metrics.cost_usd !== undefined && ` · ${formatCost(metrics.cost_usd)}`}
            </span>
          )}
        </span>
      </header>
      {message !== "" && (
        <ClippedText text={message} {...MESSAGE} className="traj-message" testId="traj-message" open={expanded} />
      )}
      {step.reasoning_content && (
        <details className="traj-reasoning">
          <summary>Reasoning</summary>
          <ClippedText text={step.reasoning_content} {...MESSAGE} className="traj-message" open={expanded} />
        </details>
      )}
      {pairs.map(({ call, results }) => (
        <ToolCall key={call.tool_call_id} call={call} results={results} expanded={expanded} />
      ))}
      {unmatched.map((result, i) => (
        <Observation key={i} result={result} expanded={expanded} />
      ))}
    </article>
  );
});

type ToolCallProps = { call: AtifToolCall; results: AtifObservationResult[]; expanded?: boolean };

function ToolCall({ call, results, expanded }: ToolCallProps) {
  return (
    <div className="traj-tool-call" data-testid="traj-tool-call" data-call-id={call.tool_call_id}>
      <code className="traj-function">{call.function_name}</code>
      <ClippedText text={formatArguments(call.arguments)} {...MESSAGE} className="traj-arguments" open={expanded} />
      {results.map((result, i) => (
        <Observation key={i} result={result} expanded={expanded} />
      ))}
    </div>
  );
}

function Observation({ result, expanded }: { result: AtifObservationResult; expanded?: boolean }) {
  const text = contentText(result.content);
  return (
    <div className="traj-observation" data-testid="traj-observation" data-call-id={result.source_call_id}>
      {text === "" ? (
        <p className="muted">(no output)</p>
      ) : (
        <ClippedText text={text} {...OUTPUT} className="traj-output" open={expanded} />
      )}
    </div>
  );
}
