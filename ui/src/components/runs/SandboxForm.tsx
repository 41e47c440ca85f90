import { useState, type FormEvent } from "react";
import { startSandboxRun } from "../../bindings/commands";
import { SANDBOX_DEFAULTS, sandboxRequest, type SandboxForm as Fields } from "../../lib/sandboxForm";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Field } from "../shared/Field";
import { SubmitActions } from "../shared/SubmitActions";

type NumberField = "count" | "memory_mb" | "timeout_secs";

const NUMBER_FIELDS: [NumberField, string, number][] = [
  ["count", "Trials", 1],
  ["memory_mb", "Memory (MiB)", 6],
  ["timeout_secs", "Timeout (seconds)", 1],
];

/** Queues N trials of one shell command in one image; `onStarted` gets the new run's id. */
export function SandboxForm({ onStarted }: { onStarted: (runId: number) => void }) {
  const [fields, setFields] = useState<Fields>(SANDBOX_DEFAULTS);
  const [state, run] = useAction<void>();
  const running = state.status === "running";
  const set = (key: keyof Fields, value: string) => setFields({ ...fields, [key]: value });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    run(async () => onStarted(await startSandboxRun(sandboxRequest(fields))));
  };

  return (
    <section className="panel">
      <h2>New sandbox run</h2>
      <form className="form" data-testid="sandbox-form" onSubmit={submit}>
        <div className="field-row">
          <Field
            label="Name (optional)"
            testId="sandbox-name"
            value={fields.name}
            onChange={(value) => set("name", value)}
            placeholder="sandbox: <command>"
            disabled={running}
          />
          <Field
            label="Image"
            testId="sandbox-image"
            value={fields.image}
            onChange={(value) => set("image", value)}
            required
            disabled={running}
            spellCheck={false}
            hint={
              <>
                <code>skillscope/busybox:1</code> is built locally:{" "}
                <a href="#/settings">Settings → Engine and images</a>, Prepare.
              </>
            }
          />
        </div>
        <Field
          label="Command (run with sh -c)"
          testId="sandbox-command"
          className="mono"
          value={fields.command}
          onChange={(value) => set("command", value)}
          required
          disabled={running}
          spellCheck={false}
        />
        <div className="field-row">
          {NUMBER_FIELDS.map(([key, label, min]) => (
            <Field
              key={key}
              type="number"
              label={label}
              testId={`sandbox-${key.replace("_", "-")}`}
              min={min}
              value={fields[key]}
              onChange={(value) => set(key, value)}
              required
              disabled={running}
            />
          ))}
        </div>
        <SubmitActions testId="sandbox-submit" busy={running} label="Queue run" busyLabel="Queuing…" />
      </form>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="sandbox-error" />}
    </section>
  );
}
