import { useState } from "react";
import { reviewDraft } from "../../bindings/commands";
import type { DraftReview } from "../../bindings/DraftReview";
import type { DraftVerdict } from "../../bindings/DraftVerdict";
import type { TaskBrief } from "../../bindings/TaskBrief";
import { formatDateTime } from "../../lib/format";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Field } from "../shared/Field";

/** A generated set's drafts are reviewed where they are shown; null for any other set. */
export type Drafts = { taskSetId: number; onReviewed: () => void } | null;

type Props = { taskSetId: number; task: TaskBrief; onReviewed: () => void };

/** A generated draft's review: who approved or rejected it and when, and the buttons that decide it (again). */
export function DraftReviewForm({ taskSetId, task, onReviewed }: Props) {
  const [reviewer, setReviewer] = useState(task.review?.reviewer ?? "");
  const [state, run] = useAction<DraftReview>();
  const decide = (verdict: DraftVerdict) =>
    run(async () => {
      const r = await reviewDraft(taskSetId, task.id, verdict, reviewer);
      onReviewed();
      return r;
    });
  const r = task.review;
  return (
    <div className="subform" data-testid="draft-review" data-verdict={r?.verdict ?? "draft"}>
      <h4>Review</h4>
      <p className={r === null ? "notice notice-warning" : "muted"}>
        {r === null
          ? "A draft: experiments leave it out until it is approved. Read the instruction and the warnings first."
          : `${r.verdict === "approved" ? "Approved" : "Rejected"} by ${r.reviewer}, ${formatDateTime(r.decided_at)}.`}
      </p>
      <div className="form-row">
        <Field label="Reviewer" testId="draft-reviewer" value={reviewer} onChange={setReviewer} />
        <button
          type="button"
          className="button-small"
          data-testid="draft-approve"
          disabled={reviewer.trim() === "" || state.status === "running"}
          onClick={() => decide("approved")}
        >
          Approve
        </button>
        <button
          type="button"
          className="button-small"
          data-testid="draft-reject"
          disabled={reviewer.trim() === "" || state.status === "running"}
          onClick={() => decide("rejected")}
        >
          Reject
        </button>
      </div>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="draft-review-error" />}
    </div>
  );
}
