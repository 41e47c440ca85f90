import { memo } from "react";
import type { AtifObservationResult, AtifStep, AtifStepSource, AtifToolCall } from "../api/types";
import { formatClock, formatCost, formatTokens } from "../lib/format";
import { contentText, formatArguments, pairToolCalls } from "../lib/trajectory";
import { Badge, type Tone } from "./Badge";
import { ClippedText } from "./ClippedText";

const SOURCE_TONE: Record<AtifStepSource, Tone> = { system: "neutral", user: "accent", agent: "success" };

// Longer texts start clipped: messages and arguments are read, outputs mostly skimmed.
const MESSAGE = { maxChars: 1500, maxLines: 20 };
const OUTPUT = { maxChars: 1000, maxLines: 12 };

/** One step of a trajectory: who, when, its message, its tool calls each with its results, its tokens. */
export const TrajectoryStep = memo(function TrajectoryStep({ step }: { step: AtifStep }) {
  const { pairs, unmatched } = pairToolCalls(step);
  const message = contentText(step.message);
  const metrics = step.metrics;
  return (
    <article className="traj-step" data-testid="traj-step" data-step-id={step.step_id} data-source={step.source}>
      <header className="traj-step-header">
        <span className="traj-step-id">#{step.step_id}</span>
        <Badge tone={SOURCE_TONE[step.source]}>{step.source}</Badge>
        {step.timestamp && (
          <time className="muted" dateTime={step.timestamp} title={step.timestamp}>
            {formatClock(step.timestamp)}
          </time>
        )}
        {metrics && (
          <span className="muted traj-tokens" data-testid="traj-step-tokens">
            {formatTokens({ input: metrics.prompt_tokens, cached: metrics.cached_tokens, output: metrics.completion_tokens })}
            {metrics.cost_usd !== undefined && ` · ${formatCost(metrics.cost_usd)}`}
          </span>
        )}
      </header>
      {message !== "" && <ClippedText text={message} {...MESSAGE} className="traj-message" testId="traj-message" />}
      {step.reasoning_content && (
        <details className="traj-reasoning">
          <summary>Reasoning</summary>
          <ClippedText text={step.reasoning_content} {...MESSAGE} className="traj-message" />
        </details>
      )}
      {pairs.map(({ call, results }) => (
        <ToolCall key={call.tool_call_id} call={call} results={results} />
      ))}
      {unmatched.map((result, i) => (
        <Observation key={i} result={result} />
      ))}
    </article>
  );
});

function ToolCall({ call, results }: { call: AtifToolCall; results: AtifObservationResult[] }) {
  return (
    <div className="traj-tool-call" data-testid="traj-tool-call" data-call-id={call.tool_call_id}>
      <code className="traj-function">{call.function_name}</code>
      <ClippedText text={formatArguments(call.arguments)} {...MESSAGE} className="traj-arguments" />
      {results.map((result, i) => (
        <Observation key={i} result={result} />
      ))}
    </div>
  );
}

function Observation({ result }: { result: AtifObservationResult }) {
  const text = contentText(result.content);
  return (
    <div className="traj-observation" data-testid="traj-observation" data-call-id={result.source_call_id}>
      {text === "" ? <p className="muted">(no output)</p> : <ClippedText text={text} {...OUTPUT} className="traj-output" />}
    </div>
  );
}
