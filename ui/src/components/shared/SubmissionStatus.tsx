import type { Submission } from "../../lib/useSubmit";
import { ErrorPanel } from "./ErrorPanel";

/** Why a form was not submitted: its fields' problems, or the back end's refusal. */
export function SubmissionStatus({ submission, testId }: { submission: Submission; testId: string }) {
  const { problems, state } = submission;
  if (problems.length > 0) {
    return (
      <div className="notice notice-error" role="alert" data-testid={`${testId}-problems`}>
        <strong>Check the form</strong>
        <ul className="problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </div>
    );
  }
  return state.status === "failed" ? <ErrorPanel error={state.error} testId={`${testId}-error`} /> : null;
}
