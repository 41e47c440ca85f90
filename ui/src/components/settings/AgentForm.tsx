import { useState, type FormEvent } from "react";
import { saveAgent } from "../../bindings/commands";
import type { AgentConfig } from "../../bindings/AgentConfig";
import type { Harness } from "../../bindings/Harness";
import {
  agentFields,
  chosenProvider,
  HARNESS_LABELS,
  harnessLimitsNote,
  LIMIT_FIELDS,
  parseAgent,
  type AgentFields,
} from "../../lib/agentForm";
import { useSubmit } from "../../lib/useSubmit";
import { Field } from "../shared/Field";
import { SubmissionStatus } from "../shared/SubmissionStatus";

const LIMIT_TEST_IDS: Record<(typeof LIMIT_FIELDS)[number][0], string> = {
  max_turns: "agent-max-turns",
  token_budget: "agent-token-budget",
  wall_timeout_secs: "agent-wall-timeout",
  command_timeout_secs: "agent-command-timeout",
};

type Props = { editing: AgentConfig | null; providerIds: string[]; onSaved: () => void; onCancel: () => void };

/** Adds an agent configuration (a harness with a provider, a model and limits), or edits `editing`. */
export function AgentForm({ editing, providerIds, onSaved, onCancel }: Props) {
  const [fields, setFields] = useState<AgentFields>(() => agentFields(editing));
  const [submission, submit] = useSubmit(async (config: AgentConfig) => {
    await saveAgent(config);
    onSaved();
  });
  const busy = submission.state.status === "running";
  const set = (patch: Partial<AgentFields>) => setFields({ ...fields, ...patch });
  const providerId = chosenProvider(fields, providerIds);
  const limitsNote = harnessLimitsNote(fields.harness);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseAgent({ ...fields, provider_id: providerId }, editing));
  };

  return (
    <form className="form subform" data-testid="agent-form" onSubmit={onSubmit}>
      <h3>{editing ? `Edit ${editing.name}` : "Add an agent configuration"}</h3>
      {providerIds.length === 0 && <p className="muted">Add a model provider above first.</p>}
      <div className="field-row">
        <Field
          label="Name"
          testId="agent-name"
          value={fields.name}
          onChange={(name) => set({ name })}
          required
          disabled={busy}
        />
        <label className="field">
          <span>Harness</span>
          <select
            data-testid="agent-harness"
            value={fields.harness}
            onChange={(e) => set({ harness: e.target.value as Harness })}
            disabled={busy}
          >
            {Object.entries(HARNESS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Provider</span>
          <select
            data-testid="agent-provider"
            value={providerId}
            onChange={(e) => set({ provider_id: e.target.value })}
            required
            disabled={busy}
          >
            {providerIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <Field
          label="Model"
          testId="agent-model"
          className="mono"
          value={fields.model}
          onChange={(model) => set({ model })}
          required
          disabled={busy}
          spellCheck={false}
        />
      </div>
      <div className="field-row">
        {LIMIT_FIELDS.map(([key, label, min]) => (
          <Field
            key={key}
            type="number"
            label={label}
            testId={LIMIT_TEST_IDS[key]}
            min={min}
            value={fields[key]}
            onChange={(value) => set({ [key]: value })}
            required
            disabled={busy}
          />
        ))}
        <Field
          type="number"
          label="Temperature"
          testId="agent-temperature"
          min={0}
          max={2}
          step="any"
          value={fields.temperature}
          onChange={(temperature) => set({ temperature })}
          disabled={busy}
          hint="Blank: the model's default."
        />
      </div>
      {limitsNote && (
        <p className="hint" data-testid="agent-limits-note">
          {limitsNote}
        </p>
      )}
      <div className="form-actions">
        {editing && (
          <button type="button" data-testid="agent-cancel" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
        )}
        <button
          type="submit"
          className="button-primary"
          data-testid="agent-save"
          disabled={busy || providerIds.length === 0}
        >
          {busy ? "Saving…" : editing ? "Save configuration" : "Add configuration"}
        </button>
      </div>
      <SubmissionStatus submission={submission} testId="agent-form" />
    </form>
  );
}
