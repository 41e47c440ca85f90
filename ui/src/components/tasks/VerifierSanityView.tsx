import { useEffect } from "react";
import type { VerifierSanity } from "../../bindings/VerifierSanity";
import { sanityScores } from "../../lib/taskSets";
import { Badge } from "../shared/Badge";

const LABELS = { passed: "Sound", flagged: "Flagged", pending: "Checking…" } as const;
const TONES = { passed: "success", flagged: "danger", pending: "neutral" } as const;
/** How often a pending check is read again. */
const POLL_MS = 3000;

/**
 * A generated verifier's sanity checks in the sandbox: its pass ratio twice on the untouched
 * environment (it must fail) and twice after the reference solution (it must pass), and what is wrong.
 */
export function VerifierSanityView({ sanity, onRefresh }: { sanity: VerifierSanity; onRefresh: () => void }) {
  const pending = sanity.state === "pending";
  // The queue runs the checks in the background: read them again until they are done.
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(onRefresh, POLL_MS);
    return () => clearInterval(timer);
  }, [pending, onRefresh]);
  return (
    <div data-testid="verifier-sanity" data-state={sanity.state}>
      <h4>
        Verifier sanity <Badge tone={TONES[sanity.state]}>{LABELS[sanity.state]}</Badge>
      </h4>
      <p className="muted">
        Untouched environment: {sanityScores(sanity.untouched)} (must fail).{" "}
        {sanity.reference.length > 0
          ? `After the reference solution: ${sanityScores(sanity.reference)} (must pass).`
          : "No reference solution: passing is unproven."}{" "}
        Two runs of each must agree. Queue run #{sanity.run_id}
        {pending && ", read again every few seconds"}.
      </p>
      {sanity.problems.length > 0 && (
        <ul className="problems">
          {sanity.problems.map((p, i) => (
            <li key={i} data-testid="verifier-sanity-problem">
              {p}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
