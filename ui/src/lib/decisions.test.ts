import { describe, expect, it } from "vitest";
import type { ExperimentView } from "../bindings/ExperimentView";
import type { VersionInfo } from "../bindings/VersionInfo";
import {
  evidenceKey,
  evidenceOptions,
  parseDecision,
  rememberedReviewer,
  rememberReviewer,
  verdictLabel,
} from "./decisions";

const version = (id: number, n: number) => ({ id, version: n }) as VersionInfo;
const experiment = (id: number, name: string, skill_version_ids: number[]) =>
  ({ id, name, design: { skill_version_ids } }) as unknown as ExperimentView;

describe("evidenceOptions", () => {
  it("offers the experiments that tested a version of the skill, then the decided version's scan", () => {
    const versions = [version(10, 1), version(11, 2)];
    const experiments = [
      experiment(1, "baseline", [10, 11, 99]),
      experiment(2, "other", [99]),
      experiment(3, "v2 only", [11]),
    ];
    expect(evidenceOptions(experiments, versions, versions[1])).toEqual([
      { kind: "experiment", id: 1, label: "baseline (v1, v2)" },
      { kind: "experiment", id: 3, label: "v2 only (v2)" },
      { kind: "scan", id: 11, label: "Static scan of v2" },
    ]);
  });
});

describe("parseDecision", () => {
  const options = [
    { kind: "experiment", id: 1, label: "baseline (v1)" },
    { kind: "scan", id: 10, label: "Static scan of v1" },
  ];

  it("trims the text and keeps the ticked evidence", () => {
    const parsed = parseDecision(
      {
        verdict: "approve",
        rationale: "  helps on every task ",
        reviewer: " Ada ",
        evidence: [evidenceKey(options[1])],
      },
      10,
      options,
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        version_id: 10,
        verdict: "approve",
        rationale: "helps on every task",
        reviewer: "Ada",
        evidence: [options[1]],
      },
    });
  });

  it("requires a verdict, a rationale and a reviewer", () => {
    const parsed = parseDecision({ verdict: null, rationale: " ", reviewer: "", evidence: [] }, 10, options);
    expect(parsed).toEqual({
      ok: false,
      problems: ["Choose a verdict.", "Write the rationale for the decision.", "Enter the reviewer's name."],
    });
  });
});

describe("reviewer", () => {
  it("remembers the last name", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    expect(rememberedReviewer(storage)).toBe("");
    rememberReviewer("Ada", storage);
    expect(rememberedReviewer(storage)).toBe("Ada");
  });

  it("labels verdicts", () => {
    expect(verdictLabel("needs_work")).toBe("Needs work");
  });
});
