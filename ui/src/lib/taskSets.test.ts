import { describe, expect, it } from "vitest";
import type { TaskSetSummary } from "../bindings/TaskSetSummary";
import { fileText, sanityScores, storedText, taskSetName, taskSetOption } from "./taskSets";

const set: TaskSetSummary = {
  id: 4,
  name: "hello-tasks",
  version: 2,
  sha256: "ab".repeat(32),
  source_kind: "harbor",
  source_path: "/tasks/hello",
  task_count: 4,
  runnable_count: 3,
  errors: [],
  created_at: "2026-01-01T00:00:00Z",
  used_by: [],
};

describe("task set names", () => {
  it("names a set by its version and counts its runnable tasks", () => {
    expect(taskSetName(set)).toBe("hello-tasks v2");
    expect(taskSetOption(set)).toBe("hello-tasks v2 — 3 runnable of 4");
  });

  it("says whether an import stored a new set or found the same content stored", () => {
    const stored = { task_set: set, tasks: [], errors: [], reused: false };
    expect(storedText(stored)).toBe("Stored as task set #4 hello-tasks v2");
    expect(storedText({ ...stored, reused: true })).toBe("Already stored as task set #4 hello-tasks v2");
  });
});

describe("generated verifiers", () => {
  it("shows a task file's text and a sanity run's pass ratios", () => {
    expect(fileText(btoa("def test_a():\n    assert True\n"))).toBe("def test_a():\n    assert True\n");
    expect(fileText("/w==")).toBe("\uFFFD");
    expect(sanityScores([0, 0.5, null])).toBe("0.00, 0.50, –");
  });
});
