import { useState, type FormEvent } from "react";
import { startSandboxRun } from "../api/commands";
import { SANDBOX_DEFAULTS, sandboxRequest, type SandboxForm as Fields } from "../lib/sandboxForm";
import { useAction } from "../lib/useAction";
import { ErrorPanel } from "./ErrorPanel";

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
          <label className="field">
            <span>Name (optional)</span>
            <input
              data-testid="sandbox-name"
              value={fields.name}
              onChange={(e) => set("name", e.target.value)}
              placeholder="sandbox: <command>"
              disabled={running}
            />
          </label>
          <label className="field">
            <span>Image</span>
            <input
              data-testid="sandbox-image"
              value={fields.image}
              onChange={(e) => set("image", e.target.value)}
              required
              disabled={running}
              spellCheck={false}
            />
            <small className="muted">
              <code>skillscope/busybox:1</code> is built locally by <code>skillscope image bootstrap</code>.
            </small>
          </label>
        </div>
        <label className="field">
          <span>Command (run with sh -c)</span>
          <input
            data-testid="sandbox-command"
            className="mono"
            value={fields.command}
            onChange={(e) => set("command", e.target.value)}
            required
            disabled={running}
            spellCheck={false}
          />
        </label>
        <div className="field-row">
          {NUMBER_FIELDS.map(([key, label, min]) => (
            <label key={key} className="field">
              <span>{label}</span>
              <input
                type="number"
                data-testid={`sandbox-${key.replace("_", "-")}`}
                min={min}
                value={fields[key]}
                onChange={(e) => set(key, e.target.value)}
                required
                disabled={running}
              />
            </label>
          ))}
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary" data-testid="sandbox-submit" disabled={running}>
            {running ? "Queuing…" : "Queue run"}
          </button>
        </div>
      </form>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="sandbox-error" />}
    </section>
  );
}
