import { useState, type FormEvent } from "react";
import { saveSettings, settings } from "../../bindings/commands";
import type { Settings } from "../../bindings/Settings";
import { parseSettings, settingsFields, type SettingsFields } from "../../lib/settingsForm";
import { useAsync } from "../../lib/useAsync";
import { useSubmit } from "../../lib/useSubmit";
import { AsyncView } from "../shared/AsyncView";
import { Field } from "../shared/Field";
import { SubmissionStatus } from "../shared/SubmissionStatus";
import { SubmitActions } from "../shared/SubmitActions";
import { PriceImport } from "./PriceImport";
import { PricesTable } from "./PricesTable";

type NumberField = Exclude<keyof SettingsFields, "prices">;

type NumberInput = { key: NumberField; label: string; testId: string; hint: string; min: number; max?: number };

const QUEUE_FIELDS: NumberInput[] = [
  {
    key: "concurrency",
    label: "Queue concurrency",
    testId: "settings-concurrency",
    hint: "Trials run at once (1–64).",
    min: 1,
    max: 64,
  },
  {
    key: "attempts",
    label: "Attempts per trial",
    testId: "settings-attempts",
    hint: "A trial whose infrastructure fails is re-run up to this many attempts in all (1–10).",
    min: 1,
    max: 10,
  },
  {
    key: "deadline",
    label: "Trial deadline (seconds)",
    testId: "settings-deadline",
    hint: "Wall time over all phases of a trial; blank: each phase's own limits only.",
    min: 1,
  },
];

const SCAN_FIELDS: NumberInput[] = [
  {
    key: "quality_gate",
    label: "Quality gate",
    testId: "settings-quality-gate",
    hint: "Quality score (0–100, fractions allowed) a version must reach to pass.",
    min: 0,
    max: 100,
  },
  {
    key: "risky_below",
    label: "Risky below",
    testId: "settings-risky-below",
    hint: "Security score (0–100, whole) below which a version is flagged risky.",
    min: 0,
    max: 100,
  },
];

/** Settings → Runs, scans and prices: the queue's and the scanner's settings and the model prices. */
export function RunSettingsSection() {
  const [state, reload] = useAsync(settings, []);
  return (
    <section className="panel" data-testid="run-settings">
      <h2>Runs, scans and prices</h2>
      <AsyncView state={state} what="the settings" onRetry={reload}>
        {(loaded) => <RunSettingsForm loaded={loaded} />}
      </AsyncView>
    </section>
  );
}

/** Edits the settings in force; saving or importing prices replaces the form with what was written. */
function RunSettingsForm({ loaded }: { loaded: Settings }) {
  const [inForce, setInForce] = useState(loaded);
  const [fields, setFields] = useState(() => settingsFields(loaded));
  // Bumped when the rows are replaced, so the price table's filter and page start afresh.
  const [generation, setGeneration] = useState(0);
  const replace = (next: Settings) => {
    setInForce(next);
    setFields(settingsFields(next));
    setGeneration((g) => g + 1);
  };
  const [submission, submit] = useSubmit(async (value: Settings) => replace(await saveSettings(value)));
  const busy = submission.state.status === "running";
  const saved = submission.problems.length === 0 && submission.state.status === "done";
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseSettings(fields, inForce));
  };
  const numberField = ({ key, label, testId, hint, min, max }: NumberInput) => (
    <Field
      key={key}
      type="number"
      label={label}
      testId={testId}
      min={min}
      max={max}
      step={key === "quality_gate" ? "any" : 1}
      value={fields[key]}
      onChange={(value) => setFields({ ...fields, [key]: value })}
      disabled={busy}
      hint={hint}
    />
  );

  return (
    <>
      {/* noValidate: the form's own checks report every problem at once, rows on other pages too. */}
      <form className="form" data-testid="settings-form" noValidate onSubmit={onSubmit}>
        <h3>Queue</h3>
        <div className="field-row">{QUEUE_FIELDS.map(numberField)}</div>
        <h3>Scans</h3>
        <div className="field-row">{SCAN_FIELDS.map(numberField)}</div>
        <h3>Model prices</h3>
        <p className="muted">
          In dollars per million tokens, from{" "}
          {inForce.prices_from_file ? (
            <>
              the workspace's prices.toml (<code>{inForce.prices_path}</code>)
            </>
          ) : (
            <>
              the built-in table (saving writes <code>{inForce.prices_path}</code>)
            </>
          )}
          . A model is priced by its exact name, else by the longest name here that it starts with followed by "-"; a
          blank cached input price charges cached tokens as input.
        </p>
        <PricesTable
          key={generation}
          rows={fields.prices}
          onChange={(prices) => setFields({ ...fields, prices })}
          disabled={busy}
        />
        <SubmitActions testId="settings-save" busy={busy} label="Save settings" busyLabel="Saving…" />
        {saved && (
          <p className="notice notice-success" data-testid="settings-saved">
            Saved to <code>{inForce.config_path}</code> and <code>{inForce.prices_path}</code>; the queue and the
            scanner use them from now on.
          </p>
        )}
        <SubmissionStatus submission={submission} testId="settings" />
      </form>
      <PriceImport onImported={replace} />
    </>
  );
}
