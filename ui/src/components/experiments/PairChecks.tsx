import type { PairView } from "../../bindings/PairView";
import { compareChecks, type CheckChange } from "../../lib/checks";

const CHANGE: Record<CheckChange, string> = {
  fixed: "fixed by the skill",
  broke: "broken by the skill",
  "one-arm": "in one arm only",
  same: "",
};

/** The verifier's checks of both arms side by side: which ones the skill turned from fail to pass, and back. */
export function PairChecks({ pair }: { pair: PairView }) {
  const rows = compareChecks(pair.without.checks, pair.with.checks);
  if (rows.length === 0) {
    return (
      <p className="muted" data-testid="pair-checks-none">
        The verifier reported a score only, no checks.
      </p>
    );
  }
  return (
    <table className="pair-checks" data-testid="pair-checks">
      <thead>
        <tr>
          <th>Check</th>
          <th>Without</th>
          <th>With</th>
          <th></th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} data-change={r.change}>
            <td>
              <code>{r.id}</code>
            </td>
            <td>{r.without ?? "—"}</td>
            <td>{r.with ?? "—"}</td>
            <td>{CHANGE[r.change]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
