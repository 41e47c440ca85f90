import { useState, type FormEvent } from "react";
import { saveProvider } from "../../bindings/commands";
import type { ProviderConfig } from "../../bindings/ProviderConfig";
import {
  API_KINDS,
  applyPreset,
  parseProvider,
  PROVIDER_DEFAULTS,
  PROVIDER_PRESETS,
  providerFields,
  type ProviderFields,
} from "../../lib/providerForm";
import { useSubmit } from "../../lib/useSubmit";
import { Field } from "../shared/Field";
import { SubmissionStatus } from "../shared/SubmissionStatus";

type NumberField = "max_concurrency" | "timeout_secs" | "max_retries";

const NUMBER_FIELDS: [NumberField, string, string, number][] = [
  ["max_concurrency", "Concurrent requests", "provider-concurrency", 1],
  ["timeout_secs", "Timeout (seconds)", "provider-timeout", 1],
  ["max_retries", "Retries", "provider-retries", 0],
];

type Props = { editing: ProviderConfig | null; onSaved: () => void; onCancel: () => void };

/** Adds a provider, or edits `editing` (whose id stays). Presets only fill the form. */
export function ProviderForm({ editing, onSaved, onCancel }: Props) {
  const [fields, setFields] = useState<ProviderFields>(editing ? providerFields(editing) : PROVIDER_DEFAULTS);
  const [submission, submit] = useSubmit(async (config: ProviderConfig) => {
    await saveProvider(config);
    onSaved();
  });
  const busy = submission.state.status === "running";
  const set = (patch: Partial<ProviderFields>) => setFields({ ...fields, ...patch });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseProvider(fields));
  };

  return (
    <form className="form subform" data-testid="provider-form" onSubmit={onSubmit}>
      <h3>{editing ? `Edit provider ${editing.id}` : "Add a provider"}</h3>
      <div className="presets">
        <span className="muted">Fill in:</span>
        {PROVIDER_PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            className="button-small"
            data-testid="provider-preset"
            data-preset={preset.id}
            disabled={busy}
            onClick={() => setFields(applyPreset(fields, preset, editing !== null))}
          >
            {preset.label}
          </button>
        ))}
      </div>
      <div className="field-row">
        <Field
          label="Id"
          testId="provider-id"
          value={fields.id}
          onChange={(id) => set({ id })}
          readOnly={editing !== null}
          required
          disabled={busy}
          spellCheck={false}
          hint={editing ? "A saved provider keeps its id." : "Names the provider and its key, e.g. openai."}
        />
        <label className="field">
          <span>API</span>
          <select
            data-testid="provider-api"
            value={fields.api}
            disabled={busy}
            onChange={(e) => set({ api: API_KINDS.find(([kind]) => kind === e.target.value)?.[0] ?? fields.api })}
          >
            {API_KINDS.map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Field
        label="Base URL"
        testId="provider-base-url"
        className="mono"
        value={fields.base_url}
        onChange={(base_url) => set({ base_url })}
        required
        disabled={busy}
        spellCheck={false}
        placeholder="https://…/v1"
      />
      <div className="field-row">
        {NUMBER_FIELDS.map(([key, label, testId, min]) => (
          <Field
            key={key}
            type="number"
            label={label}
            testId={testId}
            min={min}
            value={fields[key]}
            onChange={(value) => set({ [key]: value })}
            required
            disabled={busy}
          />
        ))}
      </div>
      <div className="form-actions">
        {editing && (
          <button type="button" data-testid="provider-cancel" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button-primary" data-testid="provider-save" disabled={busy}>
          {busy ? "Saving…" : editing ? "Save provider" : "Add provider"}
        </button>
      </div>
      <SubmissionStatus submission={submission} testId="provider-form" />
    </form>
  );
}
