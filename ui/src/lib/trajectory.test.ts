import { describe, expect, it } from "vitest";
import type { AtifStep } from "../api/types";
import { clipText, contentText, filterSteps, indexSteps, pairToolCalls, stepSearchText, stepTimeDeltas, stopReasonLabel } from "./trajectory";

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
      { source_call_id: "a", content: [{ type: "text", text: "README.md" }, { type: "text", text: "SRC" }] },
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
    expect(contentText([{ type: "text", text: "a" }, { type: "image", source: { media_type: "image/png", path: "shot.png" } }])).toBe(
      "a\n[image: shot.png]",
    );
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

  it("searches messages, tool names, arguments and observations, ignoring case", () => {
    expect(stepSearchText(agentStep)).toContain('"command": "ls /work"');
    const index = indexSteps([userStep, agentStep]);
    const ids = (query: string) => filterSteps(index, query).map((s) => s.step.step_id);
    expect(ids("")).toEqual([1, 2]);
    expect(ids("  ")).toEqual([1, 2]);
    expect(ids("BUILD")).toEqual([1]);
    expect(ids("read_file")).toEqual([2]);
    expect(ids("src")).toEqual([2]);
    expect(ids("ls /work")).toEqual([2]);
    expect(ids("nowhere")).toEqual([]);
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

describe("stepTimeDeltas", () => {
  const at = (timestamp?: string) => ({ step_id: 1, source: "agent", message: "", timestamp }) as AtifStep;

  it("gives the time since the previous step, none for the first", () => {
    const steps = [at("2024-01-01T10:00:00Z"), at("2024-01-01T10:00:01.500Z"), at("2024-01-01T10:01:01.500Z")];
    expect(stepTimeDeltas(steps)).toEqual([null, 1500, 60_000]);
  });

  it("is null around a missing or unreadable timestamp and never negative", () => {
    const steps = [at("2024-01-01T10:00:05Z"), at(), at("2024-01-01T10:00:06Z"), at("nonsense"), at("2024-01-01T10:00:07Z")];
    expect(stepTimeDeltas(steps)).toEqual([null, null, null, null, null]);
    expect(stepTimeDeltas([at("2024-01-01T10:00:05Z"), at("2024-01-01T10:00:04Z")])).toEqual([null, 0]);
    expect(stepTimeDeltas([])).toEqual([]);
  });
});
