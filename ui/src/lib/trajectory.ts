import type { AtifContent } from "../bindings/AtifContent";
import type { AtifObservationResult } from "../bindings/AtifObservationResult";
import type { AtifStep } from "../bindings/AtifStep";
import type { AtifToolCall } from "../bindings/AtifToolCall";
import type { TrajectorySummary } from "../bindings/TrajectorySummary";

/** The text of a message or observation; images show as "[image: path]". */
export function contentText(content: AtifContent | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : `[image: ${part.source.path}]`)).join("\n");
}

export type ToolCallPair = { call: AtifToolCall; results: AtifObservationResult[] };

/**
 * A step's tool calls, each with the observation results that answer it (by `source_call_id`),
 * and the results that answer none of them.
 */
export function pairToolCalls(step: AtifStep): { pairs: ToolCallPair[]; unmatched: AtifObservationResult[] } {
  const pairs = (step.tool_calls ?? []).map((call) => ({ call, results: [] as AtifObservationResult[] }));
  const byId = new Map(pairs.map((pair) => [pair.call.tool_call_id, pair]));
  const unmatched: AtifObservationResult[] = [];
  for (const result of step.observation?.results ?? []) {
    const pair = result.source_call_id === undefined ? undefined : byId.get(result.source_call_id);
    if (pair) pair.results.push(result);
    else unmatched.push(result);
  }
  return { pairs, unmatched };
}

/** Tool call arguments as indented JSON. */
export function formatArguments(args: Record<string, unknown>): string {
  return JSON.stringify(args, null, 2);
}

export type Clipped = { text: string; hidden: number };

/** The start of a long text: at most `maxChars` characters and `maxLines` lines; `hidden` counts the characters cut. */
export function clipText(text: string, maxChars: number, maxLines: number): Clipped {
  let end = Math.min(text.length, maxChars);
  let newline = -1;
  for (let line = 0; line < maxLines; line += 1) {
    newline = text.indexOf("\n", newline + 1);
    if (newline === -1) break;
  }
  if (newline !== -1 && newline < end) end = newline;
  return { text: text.slice(0, end), hidden: text.length - end };
}

const STOP_REASONS: Record<string, string> = {
  final_answer: "Final answer",
  max_turns: "Turn limit",
  token_budget: "Token budget",
  wall_timeout: "Wall timeout",
};

/** "Final answer", "Turn limit", …; an unknown reason as given; "—" when none was recorded. */
export function stopReasonLabel(reason: string | null): string {
  if (reason === null) return "—";
  return STOP_REASONS[reason] ?? reason;
}

/** The trajectory of the trial's last attempt (the one that was scored), or null when it has none. */
export function lastAttemptTrajectory(list: TrajectorySummary[]): TrajectorySummary | null {
  return list.reduce<TrajectorySummary | null>(
    (best, t) => (best === null || (t.attempt ?? 0) >= (best.attempt ?? 0) ? t : best),
    null,
  );
}
