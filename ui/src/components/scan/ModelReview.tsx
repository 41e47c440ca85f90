import { useState, type FormEvent } from "react";
import { listProviders, reviewScan } from "../../bindings/commands";
import type { SemanticPassInfo } from "../../bindings/SemanticPassInfo";
import { parseModelReview } from "../../lib/modelReview";
import { semanticPassText } from "../../lib/securityFindings";
import { useAsync } from "../../lib/useAsync";
import { useSubmit } from "../../lib/useSubmit";
import { Field } from "../shared/Field";
import { SubmissionStatus } from "../shared/SubmissionStatus";
import { SubmitActions } from "../shared/SubmitActions";

type Props = { versionId: number; pass: SemanticPassInfo | null; onReviewed: () => void };

/** The model review of a version: what the last one said, and a form to ask a provider's model for one. */
export function ModelReview({ versionId, pass, onReviewed }: Props) {
  const [providers] = useAsync(listProviders, []);
  const ids = providers.status === "ready" ? providers.data.map((p) => p.config.id) : [];
  const [provider, setProvider] = useState("");
  const [model, setModel] = useState("");
  const [submission, submit] = useSubmit(async (r: { provider: string; model: string }) => {
    await reviewScan(versionId, r.provider, r.model);
    onReviewed();
  });
  const busy = submission.state.status === "running";
  const chosen = provider || ids[0] || "";
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseModelReview(chosen, model));
  };
  return (
    <section className="model-review" data-testid="model-review" data-reviewed={pass?.ran ? "yes" : "no"}>
      <p className="muted semantic-pass">{semanticPassText(pass)}</p>
      {pass !== null && (
        <details>
          <summary>How it was reviewed</summary>
          <ul data-testid="model-review-details">
            <li>
              Prompt {pass.prompt_version}, sha256 <code>{pass.prompt_sha256}</code>, temperature {pass.temperature}
            </li>
            {pass.files_not_reviewed.length > 0 && (
              <li>Not shown to the model: {pass.files_not_reviewed.join(", ")}</li>
            )}
            {pass.dropped.map((why) => (
              <li key={why}>Dropped: {why}</li>
            ))}
          </ul>
        </details>
      )}
      {ids.length === 0 ? (
        <p className="muted">To have a model review this skill, add a model provider in Settings.</p>
      ) : (
        <form className="form" onSubmit={onSubmit}>
          <div className="field-row">
            <label className="field">
              <span>Provider</span>
              <select
                data-testid="model-review-provider"
                value={chosen}
                onChange={(e) => setProvider(e.target.value)}
                disabled={busy}
              >
                {ids.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
            </label>
            <Field
              label="Model"
              testId="model-review-model"
              className="mono"
              value={model}
              onChange={setModel}
              disabled={busy}
            />
          </div>
          <SubmitActions
            testId="model-review-run"
            busy={busy}
            disabled={model.trim() === ""}
            label="Review with the model"
            busyLabel="Reviewing…"
          />
        </form>
      )}
      <SubmissionStatus submission={submission} testId="model-review" />
    </section>
  );
}
