import { useState } from "react";
import { editDraft } from "../../bindings/commands";
import type { TaskSetDetail } from "../../bindings/TaskSetDetail";
import type { TaskSpec } from "../../bindings/TaskSpec";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";
import { TextAreaField } from "../shared/TextAreaField";

type Props = { taskSetId: number; spec: TaskSpec; onEdited: () => void };

/**
 * A reviewer's edit of a draft: its instruction and, for a judged draft, its expectations (one
 * per line). Saving measures its leakage again and withdraws a verdict given on the old text.
 */
export function DraftEditForm({ taskSetId, spec, onEdited }: Props) {
  const judged = spec.verifier.kind === "needs_judge" ? spec.verifier : null;
  const [instruction, setInstruction] = useState(spec.instruction);
  const [expectations, setExpectations] = useState(judged ? judged.expectations.join("\n") : "");
  const [open, setOpen] = useState(false);
  const [state, run] = useAction<TaskSetDetail>();
  if (!open) {
    return (
      <button type="button" className="button-small" data-testid="draft-edit" onClick={() => setOpen(true)}>
        Edit the draft
      </button>
    );
  }
  const save = () =>
    run(async () => {
      const lines = expectations.split("\n").filter((l) => l.trim() !== "");
      const detail = await editDraft(taskSetId, spec.id, { instruction, expectations: judged ? lines : null });
      setOpen(false);
      onEdited();
      return detail;
    });
  return (
    <div className="subform" data-testid="draft-edit-form">
      <h4>Edit the draft</h4>
      <TextAreaField
        label="Instruction"
        testId="draft-edit-instruction"
        value={instruction}
        onChange={setInstruction}
        rows={8}
      />
      {judged && (
        <TextAreaField
          label="Expectations (one per line)"
          testId="draft-edit-expectations"
          value={expectations}
          onChange={setExpectations}
          rows={4}
        />
      )}
      <p className="muted">Saving checks the leakage again and withdraws a verdict given on the old text.</p>
      <div className="form-row">
        <button
          type="button"
          className="button-small"
          data-testid="draft-edit-save"
          disabled={instruction.trim() === "" || state.status === "running"}
          onClick={save}
        >
          Save
        </button>
        <button type="button" className="button-small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="draft-edit-error" />}
    </div>
  );
}
