import { describe, expect, it } from "vitest";
import type { AtifStep } from "../bindings/AtifStep";
import type { TrajectorySummary } from "../bindings/TrajectorySummary";
import { clipText, contentText, lastAttemptTrajectory, pairToolCalls, stopReasonLabel } from "./trajectory";

const agentStep: AtifStep = {
  step_id: 2,
  source: "agent",
  message: "Listing the files.",
  tool_calls: [
    { tool_call_id: "a", function_name: "bash", arguments: { command: "ls /work" } },
    { tool_call_id: "b", function_name: "read_file", arguments: { path: "README.md" } },
  ],
  observation: {
    results: [
      { source_call_id: "b", content: "# Hello" },
      {
        source_call_id: "a",
        content: [
          { type: "text", text: "README.md" },
          { type: "text", text: "SRC" },
        ],
      },
      { source_call_id: "zzz", content: "orphan" },
      { content: "no call id" },
    ],
  },
};
const userStep: AtifStep = { step_id: 1, source: "user", message: "Fix the build" };

describe("trajectory", () => {
  it("reads plain and multimodal content", () => {
    expect(contentText(undefined)).toBe("");
    expect(contentText("hi")).toBe("hi");
    expect(
      contentText([
        { type: "text", text: "a" },
        { type: "image", source: { media_type: "image/png", path: "shot.png" } },
      ]),
    ).toBe("a\n[image: shot.png]");
  });

  it("pairs each tool call with its results by source_call_id, in call order", () => {
    const { pairs, unmatched } = pairToolCalls(agentStep);
    expect(pairs.map((p) => [p.call.function_name, p.results.map((r) => contentText(r.content))])).toEqual([
      ["bash", ["README.md\nSRC"]],
      ["read_file", ["# Hello"]],
    ]);
    expect(unmatched.map((r) => r.content)).toEqual(["orphan", "no call id"]);
    expect(pairToolCalls(userStep)).toEqual({ pairs: [], unmatched: [] });
  });

  it("clips long text by characters and by lines", () => {
    expect(clipText("short", 100, 5)).toEqual({ text: "short", hidden: 0 });
    expect(clipText("abcdefghij", 4, 5)).toEqual({ text: "abcd", hidden: 6 });
    expect(clipText("1\n2\n3\n4", 100, 2)).toEqual({ text: "1\n2", hidden: 4 });
    expect(clipText("1\n2", 100, 2)).toEqual({ text: "1\n2", hidden: 0 });
  });

  it("names stop reasons", () => {
    expect(stopReasonLabel("final_answer")).toBe("Final answer");
    expect(stopReasonLabel("token_budget")).toBe("Token budget");
    expect(stopReasonLabel("something_new")).toBe("something_new");
    expect(stopReasonLabel(null)).toBe("—");
  });
});

describe("lastAttemptTrajectory", () => {
  it("picks the highest attempt", () => {
    const t = (id: number, attempt: number | null) => ({ id, attempt }) as TrajectorySummary;
    expect(lastAttemptTrajectory([t(1, 1), t(2, 2), t(3, 1)])?.id).toBe(2);
    expect(lastAttemptTrajectory([t(4, null)])?.id).toBe(4);
    expect(lastAttemptTrajectory([])).toBeNull();
  });
});
