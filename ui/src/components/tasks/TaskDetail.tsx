import { useEffect, useRef } from "react";
import type { TaskBrief } from "../../bindings/TaskBrief";
import type { TaskSpec } from "../../bindings/TaskSpec";
import { fileText } from "../../lib/taskSets";
import { DraftEditForm } from "./DraftEditForm";
import { DraftReviewForm, type Drafts } from "./DraftReviewForm";
import { VerifierSanityView } from "./VerifierSanityView";

/**
 * One task whole: why experiments leave it out (if they do), its instruction as plain text, its
 * warnings, a generated pytest verifier and reference solution, and for a draft its sanity
 * checks, its edit and its review.
 */
export function TaskDetail({ brief, spec, drafts }: { brief: TaskBrief; spec: TaskSpec | undefined; drafts: Drafts }) {
  const detail = useRef<HTMLDivElement>(null);
  // Below a long table the opened task would be out of sight.
  useEffect(() => {
    detail.current?.scrollIntoView?.({ block: "nearest" });
  }, [brief.id]);
  return (
    <div className="subform task-detail" data-testid="task-detail" data-task-id={brief.id} ref={detail}>
      <h3>
        <TaskTitle task={brief} />
      </h3>
      {!brief.runnable && (
        <p className="notice notice-warning" data-testid="task-not-runnable">
          No deterministic verifier: {brief.verifier}.{" "}
          {spec?.verifier.kind === "needs_judge"
            ? "It runs only in an experiment with a judge."
            : "Experiments leave this task out."}
        </p>
      )}
      {spec && (
        <>
          <h4>Instruction</h4>
          {/* Shown as written: instructions are markdown from outside, never rendered as HTML. */}
          <pre className="output" data-testid="task-instruction">
            {spec.instruction}
          </pre>
        </>
      )}
      {spec?.verifier.kind === "needs_judge" && (
        <>
          <h4>What the judge checks</h4>
          <ul data-testid="task-expectations">
            {spec.verifier.expectations.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
          {spec.verifier.expected_output !== null && (
            <p className="muted">Expected output: {spec.verifier.expected_output}</p>
          )}
        </>
      )}
      {brief.warnings.length > 0 && (
        <>
          <h4>Warnings</h4>
          <ul className="problems">
            {brief.warnings.map((warning, i) => (
              <li key={i} data-testid="task-warning">
                {warning}
              </li>
            ))}
          </ul>
        </>
      )}
      {spec?.verifier.kind === "pytest" &&
        spec.source.kind === "generated" &&
        spec.verifier.test_files.map((f) => (
          <details key={f.path} data-testid="task-test-file">
            <summary>Verifier: {f.path}</summary>
            <pre className="output">{fileText(f.contents)}</pre>
          </details>
        ))}
      {spec?.reference_solution && (
        <details data-testid="task-reference-solution">
          <summary>Reference solution</summary>
          <pre className="output">{spec.reference_solution}</pre>
        </details>
      )}
      {brief.sanity && <VerifierSanityView sanity={brief.sanity} onRefresh={drafts?.onReviewed ?? (() => {})} />}
      {drafts && spec && (
        <DraftEditForm key={spec.id} taskSetId={drafts.taskSetId} spec={spec} onEdited={drafts.onReviewed} />
      )}
      {drafts && <DraftReviewForm taskSetId={drafts.taskSetId} task={brief} onReviewed={drafts.onReviewed} />}
    </div>
  );
}

/** A task's id, and its name when that says more. */
export function TaskTitle({ task }: { task: TaskBrief }) {
  return (
    <>
      <strong>{task.id}</strong>
      {task.name !== task.id && <span className="muted"> {task.name}</span>}
    </>
  );
}
