import type { VerifierCheck } from "../bindings/VerifierCheck";
import type { VerifierCheckOutcome } from "../bindings/VerifierCheckOutcome";

/** How the skill moved one check: fixed (fail → pass), broke (pass → fail), same, or run in one arm only. */
export type CheckChange = "fixed" | "broke" | "same" | "one-arm";

export type CheckRow = {
  id: string;
  without: VerifierCheckOutcome | null;
  with: VerifierCheckOutcome | null;
  change: CheckChange;
};

/** The checks of both arms side by side, in the order the verifier reported them (without arm first), fixed and broken ones first. */
export function compareChecks(without: VerifierCheck[], withArm: VerifierCheck[]): CheckRow[] {
  const ids = [...new Set([...without.map((c) => c.id), ...withArm.map((c) => c.id)])];
  const outcome = (checks: VerifierCheck[], id: string) => checks.find((c) => c.id === id)?.outcome ?? null;
  const rows = ids.map((id): CheckRow => {
    const [a, b] = [outcome(without, id), outcome(withArm, id)];
    const change: CheckChange =
      a === null || b === null
        ? "one-arm"
        : a !== "passed" && b === "passed"
          ? "fixed"
          : a === "passed" && b !== "passed"
            ? "broke"
            : "same";
    return { id, without: a, with: b, change };
  });
  const rank: Record<CheckChange, number> = { fixed: 0, broke: 1, "one-arm": 2, same: 3 };
  return rows.sort((x, y) => rank[x.change] - rank[y.change]);
}
