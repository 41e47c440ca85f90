import { describe, expect, it } from "vitest";
import { evidenceKey, parseDecision, rememberedReviewer, rememberReviewer, verdictLabel } from "./decisions";

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
