import { describe, expect, it } from "vitest";
import type { AtifStep, TrajectorySummary } from "../api/types";
import { firstDivergence, lastAttemptTrajectory, skillReadIndex, stepSignature } from "./pairSteps";

const call = (id: string, name: string, args: Record<string, unknown>, output: string, message = ""): AtifStep => ({
  step_id: 1,
  source: "agent",
  message,
  tool_calls: [{ tool_call_id: id, function_name: name, arguments: args }],
  observation: { results: [{ source_call_id: id, content: output }] },
});
const system = (message: string): AtifStep => ({ step_id: 0, source: "system", message });

describe("stepSignature", () => {
  it("ignores call ids, messages and the order of argument keys", () => {
    const a = call("a", "bash", { command: "ls", timeout: 5 }, "x", "thinking aloud");
    const b = call("zz", "bash", { timeout: 5, command: "ls" }, "x", "other words");
    expect(stepSignature(a)).toBe(stepSignature(b));
  });

  it("tells apart tool names, arguments and observations", () => {
    const base = call("a", "bash", { command: "ls" }, "x");
    expect(stepSignature(call("a", "read_file", { command: "ls" }, "x"))).not.toBe(stepSignature(base));
    expect(stepSignature(call("a", "bash", { command: "ls -a" }, "x"))).not.toBe(stepSignature(base));
    expect(stepSignature(call("a", "bash", { command: "ls" }, "y"))).not.toBe(stepSignature(base));
  });
});

describe("firstDivergence", () => {
  const ls = call("1", "bash", { command: "ls" }, "a b");
  it("finds the first step that differs, not counting system prompts", () => {
    const without = [system("no skills"), ls, call("2", "bash", { command: "make" }, "ok")];
    const withSkill = [system("skills: pdf"), ls, call("2", "read_file", { path: "/skills/pdf/SKILL.md" }, "# PDF")];
    expect(firstDivergence(without, withSkill)).toBe(2);
  });

  it("is where the shorter run ended, or null when the runs are the same", () => {
    expect(firstDivergence([ls], [ls, ls])).toBe(1);
    expect(firstDivergence([ls, ls], [ls, ls])).toBeNull();
    expect(firstDivergence([], [])).toBeNull();
  });
});

describe("skillReadIndex", () => {
  it("finds the first read of a skill's SKILL.md by read_file or bash", () => {
    const steps = [
      system("skills"),
      call("1", "read_file", { path: "/work/SKILL.md" }, ""),
      call("2", "list_dir", { path: "/skills/pdf/SKILL.md" }, ""),
      call("3", "bash", { command: "cat /skills/pdf/SKILL.md" }, ""),
      call("4", "read_file", { path: "/skills/pdf/SKILL.md" }, ""),
    ];
    expect(skillReadIndex(steps)).toBe(3);
    expect(skillReadIndex(steps.slice(0, 3))).toBeNull();
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
