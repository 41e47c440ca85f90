import { useState, type FormEvent } from "react";
import { runToOutcome } from "../../api/jobs";
import type { JobEvent } from "../../bindings/JobEvent";
import { shortImageId } from "../../lib/engine";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Field } from "../shared/Field";

/** Pulls any image a task names from its registry (where one is reachable), with the engine's progress lines. */
export function ImagePull() {
  const [image, setImage] = useState("");
  const [progress, setProgress] = useState<JobEvent | null>(null);
  const [pull, runPull] = useAction<{ image: string; id: string }>();
  const busy = pull.status === "running";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void runPull(async () => runToOutcome({ kind: "image_pull", image: image.trim() }, setProgress));
  };
  return (
    <form className="form subform" data-testid="image-pull" onSubmit={submit}>
      <div className="field-row">
        <Field
          label="Pull an image"
          testId="image-pull-ref"
          className="mono"
          value={image}
          onChange={setImage}
          placeholder="python:3.12-slim"
          required
          disabled={busy}
          spellCheck={false}
          hint="From its registry, as docker pull does; needs the registry to be reachable from this machine."
        />
      </div>
      <p>
        <button type="submit" disabled={busy || image.trim() === ""} data-testid="image-pull-submit">
          {busy ? "Pulling…" : "Pull"}
        </button>
      </p>
      {busy && progress && (
        <p className="muted" data-testid="image-pull-progress">
          {progress.message}
        </p>
      )}
      {pull.status === "done" && (
        <p className="notice notice-success" data-testid="image-pull-done">
          Pulled <code>{pull.data.image}</code> ({shortImageId(pull.data.id)}).
        </p>
      )}
      {pull.status === "failed" && <ErrorPanel error={pull.error} testId="image-pull-error" />}
    </form>
  );
}
