import type { AtifContent, AtifObservationResult, AtifStep, AtifToolCall } from "../api/types";

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

/** Everything a reader can see in a step, lower-cased for searching. */
export function stepSearchText(step: AtifStep): string {
  const parts = [contentText(step.message), step.reasoning_content ?? ""];
  for (const call of step.tool_calls ?? []) parts.push(call.function_name, formatArguments(call.arguments));
  for (const result of step.observation?.results ?? []) parts.push(contentText(result.content));
  return parts.join("\n").toLowerCase();
}

/** A step with its position in the trajectory (step ids of imported files may repeat) and its search text. */
export type IndexedStep = { step: AtifStep; position: number; text: string };

export const indexSteps = (steps: AtifStep[]): IndexedStep[] =>
  steps.map((step, position) => ({ step, position, text: stepSearchText(step) }));

/** The steps containing the query (case-insensitive); all of them for a blank query. */
export function filterSteps(index: IndexedStep[], query: string): IndexedStep[] {
  const needle = query.trim().toLowerCase();
  return needle === "" ? index : index.filter((entry) => entry.text.includes(needle));
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

/**
 * For each step, the milliseconds since the previous step's timestamp; null for the first step and
 * whenever either timestamp is missing or unreadable. Never negative (clock skew shows as 0).
 */
export function stepTimeDeltas(steps: AtifStep[]): (number | null)[] {
  const times = steps.map((step) => (step.timestamp === undefined ? NaN : Date.parse(step.timestamp)));
  return times.map((time, i) => {
    const previous = i === 0 ? NaN : times[i - 1];
    return Number.isNaN(time) || Number.isNaN(previous) ? null : Math.max(0, time - previous);
  });
}
