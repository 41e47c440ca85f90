import { describe, expect, it } from "vitest";
import type { VerifierCheck } from "../bindings/VerifierCheck";
import { compareChecks } from "./checks";

const check = (id: string, outcome: VerifierCheck["outcome"]): VerifierCheck => ({
  id,
  outcome,
  duration_ms: null,
  message: null,
});

describe("checks side by side", () => {
  it("names what the skill fixed and broke, first", () => {
    const rows = compareChecks(
      [check("t::a", "failed"), check("t::b", "passed"), check("t::c", "passed"), check("t::d", "error")],
      [check("t::a", "passed"), check("t::b", "failed"), check("t::c", "passed"), check("t::e", "passed")],
    );
    expect(rows.map((r) => [r.id, r.change])).toEqual([
      ["t::a", "fixed"],
      ["t::b", "broke"],
      ["t::d", "one-arm"],
      ["t::e", "one-arm"],
      ["t::c", "same"],
    ]);
    expect(rows[2]).toMatchObject({ without: "error", with: null });
  });
});
