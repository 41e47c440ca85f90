import { useEffect, useRef, type FormEvent } from "react";
import { createExperiment } from "../../bindings/commands";
import type { AgentConfig } from "../../bindings/AgentConfig";
import type { Judge } from "../../bindings/Judge";
import type { PromptSet } from "../../bindings/PromptSet";
import { SelectField } from "../shared/SelectField";
import type { Condition } from "../../bindings/Condition";
import type { ExperimentDesign } from "../../bindings/ExperimentDesign";
import type { SkillSummary } from "../../bindings/SkillSummary";
import { cloneFields, type CloneSource } from "../../lib/experimentClone";
import {
  CONDITIONS,
  estimateDesign,
  EXPERIMENT_DEFAULTS,
  followHarness,
  needsGlibc,
  parseExperiment,
  withChosen,
  type ExperimentFields,
} from "../../lib/experimentForm";
import { sectionHref } from "../../lib/route";
import { useKeyedState } from "../../lib/useKeyedState";
import { useSubmit } from "../../lib/useSubmit";
import { AgentsSkillsPanel } from "../runs/AgentsSkillsPanel";
import { EmptyState } from "../shared/EmptyState";
import { Field } from "../shared/Field";
import { MultiSelect, skillOptions } from "../shared/MultiSelect";
import { SubmissionStatus } from "../shared/SubmissionStatus";
import { SubmitActions } from "../shared/SubmitActions";
import { EstimatePanel } from "./EstimatePanel";
import { ExperimentTaskFields } from "./ExperimentTaskFields";

type Props = {
  onCreated: (experimentId: number) => void;
  /** An experiment to start from; each new one refills the form. */
  clone: CloneSource | null;
};

/** Queues a paired experiment: every skill × task × configuration × condition × repeat, run without and with the skill. */
export function ExperimentForm({ onCreated, clone }: Props) {
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
      {(agents, skills) => <Form agents={agents} skills={skills} onCreated={onCreated} clone={clone} />}
    </AgentsSkillsPanel>
  );
}

type FormProps = Props & { agents: AgentConfig[]; skills: SkillSummary[] };

function Form({ agents, skills, onCreated, clone }: FormProps) {
  const cloned =
    clone &&
    cloneFields(
      clone,
      agents.map((a) => a.id),
    );
  const [fields, setFields] = useKeyedState<ExperimentFields>(cloned?.fields ?? EXPERIMENT_DEFAULTS, clone);
  const [submission, submit] = useSubmit(async (design: ExperimentDesign) => onCreated(await createExperiment(design)));
  const busy = submission.state.status === "running";
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (clone) form.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  }, [clone]);
  const set = (patch: Partial<ExperimentFields>) => {
    const next = { ...fields, ...patch };
    // Choosing configurations or the task source may call for another image; typing one never changes it.
    setFields("agent_config_ids" in patch || "task_set" in patch ? followHarness(next, agents) : next);
  };
  const toggle = (condition: Condition, on: boolean) =>
    set({
      conditions: CONDITIONS.map(([c]) => c).filter((c) => (c === condition ? on : fields.conditions.includes(c))),
    });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseExperiment(fields));
  };

  return (
    <form className="form" data-testid="experiment-form" onSubmit={onSubmit} ref={form}>
      {cloned && cloned.notes.length > 0 && (
        <div className="notice notice-info" data-testid="experiment-clone-notes">
          <ul className="problems">
            {cloned.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      )}
      <h3>1. What to compare</h3>
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
          options={withChosen(skillOptions(skills), fields.skill_version_ids)}
          value={fields.skill_version_ids}
          onChange={(skill_version_ids) => set({ skill_version_ids })}
          disabled={busy}
        />
        <MultiSelect
          label="Decoys (group condition)"
          testId="experiment-decoys"
          options={withChosen(skillOptions(skills), fields.decoy_version_ids)}
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
      <JudgeField agents={agents} judge={fields.judge} onChange={(judge) => set({ judge })} disabled={busy} />
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
      <h3>2. Tasks</h3>
      <ExperimentTaskFields fields={fields} onChange={set} disabled={busy} glibc={needsGlibc(fields, agents)} />
      <h3>3. Size, time and cost</h3>
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
      <EstimatePanel design={estimateDesign(fields)} agents={agents} />
      <SubmitActions testId="experiment-submit" busy={busy} label="Queue experiment" busyLabel="Queuing…" />
      <SubmissionStatus submission={submission} testId="experiment" />
    </form>
  );
}

/** The judge: the provider and model of an agent configuration (its harness plays no part), or none. */
function JudgeField({
  agents,
  judge,
  onChange,
  disabled,
}: {
  agents: AgentConfig[];
  judge: Judge | null;
  onChange: (judge: Judge | null) => void;
  disabled: boolean;
}) {
  const chosen = agents.find((a) => judge !== null && a.provider_id === judge.provider && a.model === judge.model);
  const options: [string, string][] = [
    ["", "None: leave out tasks that need a judge"],
    ...agents.map((a): [string, string] => [String(a.id), `${a.provider_id} · ${a.model} (as in ${a.name})`]),
  ];
  return (
    <div className="form-row">
      <SelectField
        label="Judge"
        testId="experiment-judge"
        options={options}
        value={chosen === undefined ? "" : String(chosen.id)}
        onChange={(id) => {
          const a = agents.find((x) => String(x.id) === id);
          onChange(
            a === undefined ? null : { provider: a.provider_id, model: a.model, prompts: judge?.prompts ?? "v1" },
          );
        }}
        disabled={disabled}
        hint="Grades the expectations of tasks without a verifier (evals.json cases), quoting the run, and compares the arms of each scored pair in both orders; recorded with every verdict."
      />
      {judge !== null && (
        <SelectField
          label="Judge's prompts"
          testId="experiment-judge-prompts"
          options={JUDGE_PROMPTS}
          value={judge.prompts}
          onChange={(prompts) => onChange({ ...judge, prompts })}
          disabled={disabled}
          hint="The prompt version the judge is asked with; its name and hash are recorded with every verdict."
        />
      )}
    </div>
  );
}

/** The judge's prompt versions (crates/judge/prompts). */
const JUDGE_PROMPTS: [PromptSet, string][] = [
  ["v1", "v1: verdict with a quote"],
  ["v2", "v2: evidence first, tool results over the agent's claims; comparisons reasoned first"],
];
