import { useState, type FormEvent } from "react";
import { createExperiment } from "../../bindings/commands";
import type { AgentConfig } from "../../bindings/AgentConfig";
import type { Condition } from "../../bindings/Condition";
import type { ExperimentDesign } from "../../bindings/ExperimentDesign";
import type { SkillSummary } from "../../bindings/SkillSummary";
import { CONDITIONS, EXPERIMENT_DEFAULTS, parseExperiment, type ExperimentFields } from "../../lib/experimentForm";
import { sectionHref } from "../../lib/route";
import { useSubmit } from "../../lib/useSubmit";
import { AgentsSkillsPanel } from "../runs/AgentsSkillsPanel";
import { ImageWorkspaceFields } from "../runs/ImageWorkspaceFields";
import { EmptyState } from "../shared/EmptyState";
import { Field } from "../shared/Field";
import { MultiSelect, skillOptions } from "../shared/MultiSelect";
import { SubmissionStatus } from "../shared/SubmissionStatus";
import { SubmitActions } from "../shared/SubmitActions";
import { TextAreaField } from "../shared/TextAreaField";
import { TaskSourceSelect } from "./TaskSourceSelect";

type Props = { onCreated: (experimentId: number) => void };

/** Queues a paired experiment: every skill × task × configuration × condition × repeat, run without and with the skill. */
export function ExperimentForm({ onCreated }: Props) {
  return (
    <AgentsSkillsPanel
      title="New experiment"
      what="the skills and agent configurations"
      ready={(agents, skills) => agents.length > 0 && skills.length > 0}
      missing={
        <EmptyState title="An experiment needs a skill and an agent configuration." testId="experiment-form-missing">
          Import skills in the <a href={sectionHref("library")}>Library</a> and add an agent configuration in{" "}
          <a href={sectionHref("settings")}>Settings</a>.
        </EmptyState>
      }
    >
      {(agents, skills) => <Form agents={agents} skills={skills} onCreated={onCreated} />}
    </AgentsSkillsPanel>
  );
}

type FormProps = Props & { agents: AgentConfig[]; skills: SkillSummary[] };

function Form({ agents, skills, onCreated }: FormProps) {
  const [fields, setFields] = useState<ExperimentFields>(EXPERIMENT_DEFAULTS);
  const [submission, submit] = useSubmit(async (design: ExperimentDesign) => onCreated(await createExperiment(design)));
  const busy = submission.state.status === "running";
  const set = (patch: Partial<ExperimentFields>) => setFields({ ...fields, ...patch });
  const toggle = (condition: Condition, on: boolean) =>
    set({
      conditions: CONDITIONS.map(([c]) => c).filter((c) => (c === condition ? on : fields.conditions.includes(c))),
    });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseExperiment(fields));
  };

  return (
    <form className="form" data-testid="experiment-form" onSubmit={onSubmit}>
      <Field
        label="Name"
        testId="experiment-name"
        value={fields.name}
        onChange={(name) => set({ name })}
        required
        disabled={busy}
      />
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
      <TaskSourceSelect value={fields.task_set} onChange={(task_set) => set({ task_set })} disabled={busy} />
      {/* A stored set carries its own tasks and environments. */}
      {fields.task_set === null && (
        <TextAreaField
          label="Tasks, one a line: id | instruction | verifier command"
          testId="experiment-tasks"
          className="mono"
          rows={4}
          value={fields.tasks}
          onChange={(tasks) => set({ tasks })}
          placeholder="hello | Write hello to out.txt | test -f out.txt"
          required
          disabled={busy}
          spellCheck={false}
          hint="The verifier runs with sh -c; exit code 0 scores 1.0, anything else 0.0."
        />
      )}
      <div className="field-row">
        {fields.task_set === null && (
          <ImageWorkspaceFields
            testIdPrefix="experiment"
            image={fields.image}
            workspace={fields.workspace}
            onChange={set}
            disabled={busy}
            workspaceHint="Copied into every task's working directory before the agent starts."
          />
        )}
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
      <SubmitActions testId="experiment-submit" busy={busy} label="Queue experiment" busyLabel="Queuing…" />
      <SubmissionStatus submission={submission} testId="experiment" />
    </form>
  );
}
