import { useState, type FormEvent } from "react";
import { createExperiment, listAgents, listSkills } from "../api/commands";
import type { AgentConfig, Condition, ExperimentDesign, SkillSummary } from "../api/types";
import { CONDITIONS, EXPERIMENT_DEFAULTS, parseExperiment, type ExperimentFields } from "../lib/experimentForm";
import { sectionHref } from "../lib/route";
import { useAsync } from "../lib/useAsync";
import { useSubmit } from "../lib/useSubmit";
import { AsyncView } from "./AsyncView";
import { EmptyState } from "./EmptyState";
import { Field } from "./Field";
import { MultiSelect, skillOptions } from "./MultiSelect";
import { SubmissionStatus } from "./SubmissionStatus";

type Props = { onCreated: (experimentId: number) => void };

/** Queues a paired experiment: every skill × task × configuration × condition × repeat, run without and with the skill. */
export function ExperimentForm({ onCreated }: Props) {
  const [state, reload] = useAsync(() => Promise.all([listAgents(), listSkills()]), []);
  return (
    <section className="panel">
      <h2>New experiment</h2>
      <AsyncView state={state} what="the skills and agent configurations" onRetry={reload}>
        {([agents, skills]) =>
          agents.length === 0 || skills.length === 0 ? (
            <EmptyState title="An experiment needs a skill and an agent configuration." testId="experiment-form-missing">
              Import skills in the <a href={sectionHref("library")}>Library</a> and add an agent configuration in{" "}
              <a href={sectionHref("settings")}>Settings</a>.
            </EmptyState>
          ) : (
            <Form agents={agents} skills={skills} onCreated={onCreated} />
          )
        }
      </AsyncView>
    </section>
  );
}

type FormProps = Props & { agents: AgentConfig[]; skills: SkillSummary[] };

function Form({ agents, skills, onCreated }: FormProps) {
  const [fields, setFields] = useState<ExperimentFields>(EXPERIMENT_DEFAULTS);
  const [submission, submit] = useSubmit(async (design: ExperimentDesign) => onCreated(await createExperiment(design)));
  const busy = submission.state.status === "running";
  const set = (patch: Partial<ExperimentFields>) => setFields({ ...fields, ...patch });
  const toggle = (condition: Condition, on: boolean) =>
    set({ conditions: CONDITIONS.map(([c]) => c).filter((c) => (c === condition ? on : fields.conditions.includes(c))) });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseExperiment(fields));
  };

  return (
    <form className="form" data-testid="experiment-form" onSubmit={onSubmit}>
      <Field label="Name" testId="experiment-name" value={fields.name} onChange={(name) => set({ name })} required disabled={busy} />
      <div className="field-row">
        <MultiSelect
          label="Skills to evaluate"
          testId="experiment-skills"
          options={skillOptions(skills)}
          value={fields.skill_version_ids}
          onChange={(skill_version_ids) => set({ skill_version_ids })}
          disabled={busy}
        />
        <MultiSelect
          label="Decoys (group condition)"
          testId="experiment-decoys"
          options={skillOptions(skills)}
          value={fields.decoy_version_ids}
          onChange={(decoy_version_ids) => set({ decoy_version_ids })}
          disabled={busy || !fields.conditions.includes("group")}
          hint="Present in both arms under the group condition."
        />
        <MultiSelect
          label="Agent configurations"
          testId="experiment-configs"
          options={agents.map((a) => [a.id, `${a.name} (${a.provider_id} · ${a.model})`])}
          value={fields.agent_config_ids}
          onChange={(agent_config_ids) => set({ agent_config_ids })}
          disabled={busy}
        />
      </div>
      <fieldset className="field conditions" disabled={busy}>
        <span>Conditions</span>
        {CONDITIONS.map(([condition, label]) => (
          <label key={condition} className="checkbox">
            <input
              type="checkbox"
              data-testid={`experiment-condition-${condition}`}
              checked={fields.conditions.includes(condition)}
              onChange={(e) => toggle(condition, e.target.checked)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <label className="field">
        <span>Tasks, one a line: id | instruction | verifier command</span>
        <textarea
          data-testid="experiment-tasks"
          className="mono"
          rows={4}
          value={fields.tasks}
          onChange={(e) => set({ tasks: e.target.value })}
          placeholder="hello | Write hello to out.txt | test -f out.txt"
          required
          disabled={busy}
          spellCheck={false}
        />
        <small className="muted">The verifier runs with sh -c; exit code 0 scores 1.0, anything else 0.0.</small>
      </label>
      <div className="field-row">
        <Field
          label="Image"
          testId="experiment-image"
          value={fields.image}
          onChange={(image) => set({ image })}
          required
          disabled={busy}
          spellCheck={false}
        />
        <Field
          label="Workspace folder (optional)"
          testId="experiment-workspace"
          className="mono"
          value={fields.workspace}
          onChange={(workspace) => set({ workspace })}
          placeholder="/path/on/this/computer"
          disabled={busy}
          spellCheck={false}
          hint="Copied into every task's working directory before the agent starts."
        />
        <Field
          type="number"
          label="Repeats"
          testId="experiment-repeats"
          min={1}
          value={fields.repeats}
          onChange={(repeats) => set({ repeats })}
          required
          disabled={busy}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="button-primary" data-testid="experiment-submit" disabled={busy}>
          {busy ? "Queuing…" : "Queue experiment"}
        </button>
      </div>
      <SubmissionStatus submission={submission} testId="experiment" />
    </form>
  );
}
