import { useState, type FormEvent } from "react";
import { writeTask } from "../../bindings/commands";
import type { TaskAppInput } from "../../bindings/TaskAppInput";
import type { TaskAppVerifierKind } from "../../bindings/TaskAppVerifierKind";
import type { TaskSetImport } from "../../bindings/TaskSetImport";
import {
  APP_TASK_IMAGE,
  APP_TASK_WORKDIR,
  parseTask,
  TASK_DEFAULTS,
  VERIFIER_KINDS,
  type TaskFields,
} from "../../lib/taskForm";
import { useSubmit } from "../../lib/useSubmit";
import { Field } from "../shared/Field";
import { SelectField } from "../shared/SelectField";
import { SubmissionStatus } from "../shared/SubmissionStatus";
import { SubmitActions } from "../shared/SubmitActions";
import { TextAreaField } from "../shared/TextAreaField";
import { StoredNotice } from "./StoredNotice";

const KIND_OPTIONS = Object.entries(VERIFIER_KINDS).map(([kind, { option }]): [TaskAppVerifierKind, string] => [
  kind as TaskAppVerifierKind,
  option,
]);

/** Writes one task in the app, stored as a one-task set; folded away until opened. */
export function TaskWriteForm({ onStored }: { onStored: (result: TaskSetImport) => void }) {
  const [fields, setFields] = useState<TaskFields>(TASK_DEFAULTS);
  const [stored, setStored] = useState<TaskSetImport | null>(null);
  const [submission, submit] = useSubmit(async (input: TaskAppInput) => {
    const result = await writeTask(input);
    setStored(result);
    onStored(result);
  });
  const busy = submission.state.status === "running";
  const set = (patch: Partial<TaskFields>) => setFields({ ...fields, ...patch });
  const verifier = VERIFIER_KINDS[fields.verifier_kind];
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseTask(fields));
  };

  return (
    <details className="subform">
      <summary data-testid="task-write-open">Write a task</summary>
      <form className="form" data-testid="task-write-form" onSubmit={onSubmit}>
        <Field
          label="Name"
          testId="task-write-name"
          value={fields.name}
          onChange={(name) => set({ name })}
          required
          disabled={busy}
        />
        <TextAreaField
          label="Instruction"
          testId="task-write-instruction"
          rows={4}
          value={fields.instruction}
          onChange={(instruction) => set({ instruction })}
          required
          disabled={busy}
          hint="What the agent is asked to do."
        />
        <Field
          label="Workspace file name (optional)"
          testId="task-write-file-name"
          className="mono"
          value={fields.file_name}
          onChange={(file_name) => set({ file_name })}
          placeholder="data.csv"
          disabled={busy}
          spellCheck={false}
          hint={`Written to ${APP_TASK_WORKDIR}, where the agent starts, with the contents below.`}
        />
        <TextAreaField
          label="Workspace file contents"
          testId="task-write-file-contents"
          className="mono"
          rows={3}
          value={fields.file_contents}
          onChange={(file_contents) => set({ file_contents })}
          disabled={busy}
          spellCheck={false}
        />
        <div className="field-row">
          <SelectField
            label="Verifier kind"
            testId="task-write-verifier-kind"
            options={KIND_OPTIONS}
            value={fields.verifier_kind}
            onChange={(verifier_kind) => set({ verifier_kind })}
            disabled={busy}
          />
          <Field
            label="Image (optional)"
            testId="task-write-image"
            value={fields.image}
            onChange={(image) => set({ image })}
            placeholder={APP_TASK_IMAGE}
            disabled={busy}
            spellCheck={false}
            hint={`Blank: ${APP_TASK_IMAGE}.`}
          />
        </div>
        <TextAreaField
          label={verifier.label}
          testId="task-write-verifier"
          className="mono"
          rows={4}
          value={fields.verifier}
          onChange={(text) => set({ verifier: text })}
          required
          disabled={busy}
          spellCheck={false}
          hint={verifier.hint}
        />
        <SubmitActions testId="task-write-submit" busy={busy} label="Store task" busyLabel="Storing…" />
        <SubmissionStatus submission={submission} testId="task-write" />
        {submission.state.status === "done" && stored && <StoredNotice result={stored} testId="task-write-result" />}
      </form>
    </details>
  );
}
