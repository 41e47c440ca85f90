import { useState, type FormEvent } from "react";
import { recordDecision } from "../../bindings/commands";
import type { EvidenceLink } from "../../bindings/EvidenceLink";
import type { NewDecision } from "../../bindings/NewDecision";
import type { VersionInfo } from "../../bindings/VersionInfo";
import {
  EMPTY_DECISION,
  evidenceKey,
  parseDecision,
  rememberedReviewer,
  rememberReviewer,
  VERDICTS,
  type DecisionFields,
} from "../../lib/decisions";
import { useSubmit } from "../../lib/useSubmit";
import { Field } from "../shared/Field";
import { SubmissionStatus } from "../shared/SubmissionStatus";
import { SubmitActions } from "../shared/SubmitActions";
import { TextAreaField } from "../shared/TextAreaField";

type Props = { version: VersionInfo; latest: boolean; evidence: EvidenceLink[]; onRecorded: () => void };

/** Records a verdict on `version` with its rationale, the reviewer (remembered) and the evidence it rests on. */
export function DecisionForm({ version, latest, evidence, onRecorded }: Props) {
  const [fields, setFields] = useState<DecisionFields>(() => ({ ...EMPTY_DECISION, reviewer: rememberedReviewer() }));
  const [submission, submit] = useSubmit(async (decision: NewDecision) => {
    await recordDecision(decision);
    rememberReviewer(decision.reviewer);
    setFields({ ...EMPTY_DECISION, reviewer: decision.reviewer });
    onRecorded();
  });
  const busy = submission.state.status === "running";
  const set = (patch: Partial<DecisionFields>) => setFields({ ...fields, ...patch });
  const toggle = (key: string, on: boolean) =>
    set({ evidence: on ? [...fields.evidence, key] : fields.evidence.filter((k) => k !== key) });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseDecision(fields, version.id, evidence));
  };

  return (
    <form className="form panel" data-testid="decision-form" onSubmit={onSubmit}>
      <h2>
        Decide on version {version.version}
        {!latest && <span className="muted"> (not the latest version)</span>}
      </h2>
      <fieldset className="verdicts" disabled={busy}>
        <legend>Verdict</legend>
        {VERDICTS.map(([verdict, label, suffix]) => (
          <label key={verdict} className="checkbox">
            <input
              type="radio"
              name="verdict"
              data-testid={`decision-${suffix}`}
              checked={fields.verdict === verdict}
              onChange={() => set({ verdict })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <TextAreaField
        label="Rationale"
        testId="decision-rationale"
        rows={4}
        required
        disabled={busy}
        value={fields.rationale}
        onChange={(rationale) => set({ rationale })}
        placeholder="Why: what the evidence shows, and any conditions on deployment."
      />
      <Field
        label="Reviewer"
        testId="decision-reviewer"
        value={fields.reviewer}
        onChange={(reviewer) => set({ reviewer })}
        required
        disabled={busy}
        hint="Remembered on this computer for the next decision."
      />
      <fieldset className="evidence-options" disabled={busy}>
        <legend>Evidence</legend>
        {evidence.map((e) => {
          const key = evidenceKey(e);
          return (
            <label key={key} className="checkbox">
              <input
                type="checkbox"
                data-testid="decision-evidence"
                data-kind={e.kind}
                data-id={e.id}
                checked={fields.evidence.includes(key)}
                onChange={(ev) => toggle(key, ev.target.checked)}
              />
              {e.label}
            </label>
          );
        })}
      </fieldset>
      <SubmissionStatus submission={submission} testId="decision" />
      <SubmitActions testId="decision-submit" busy={busy} label="Record decision" busyLabel="Recording…" />
    </form>
  );
}
