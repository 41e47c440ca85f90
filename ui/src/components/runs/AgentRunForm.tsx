import { useState, type FormEvent } from "react";
import { startAgentRun } from "../../bindings/commands";
import type { AgentConfig } from "../../bindings/AgentConfig";
import type { AgentRunRequest } from "../../bindings/AgentRunRequest";
import type { SkillSummary } from "../../bindings/SkillSummary";
import {
  AGENT_RUN_DEFAULTS,
  chooseConfig,
  MAX_REPEATS,
  parseAgentRun,
  type AgentRunFields,
} from "../../lib/agentRunForm";
import { sectionHref } from "../../lib/route";
import { useSubmit } from "../../lib/useSubmit";
import { EmptyState } from "../shared/EmptyState";
import { Field } from "../shared/Field";
import { MultiSelect, skillOptions } from "../shared/MultiSelect";
import { SubmissionStatus } from "../shared/SubmissionStatus";
import { SubmitActions } from "../shared/SubmitActions";
import { TextAreaField } from "../shared/TextAreaField";
import { AgentsSkillsPanel } from "./AgentsSkillsPanel";
import { ImageWorkspaceFields } from "./ImageWorkspaceFields";

type Props = { onStarted: (runId: number) => void };

/** Queues an agent configuration on one task, repeated, with or without skills; `onStarted` gets the run id. */
export function AgentRunForm({ onStarted }: Props) {
  return (
    <AgentsSkillsPanel
      title="New agent run"
      what="the agent configurations"
      ready={(agents) => agents.length > 0}
      missing={
        <EmptyState title="There is no agent configuration yet." testId="agent-run-no-config">
          Add a model provider and an agent configuration in <a href={sectionHref("settings")}>Settings</a>.
        </EmptyState>
      }
    >
      {(agents, skills) => <Form agents={agents} skills={skills} onStarted={onStarted} />}
    </AgentsSkillsPanel>
  );
}

type FormProps = Props & { agents: AgentConfig[]; skills: SkillSummary[] };

function Form({ agents, skills, onStarted }: FormProps) {
  const [fields, setFields] = useState<AgentRunFields>(() => chooseConfig(AGENT_RUN_DEFAULTS, agents[0]));
  const [submission, submit] = useSubmit(async (request: AgentRunRequest) => onStarted(await startAgentRun(request)));
  const busy = submission.state.status === "running";
  const set = (patch: Partial<AgentRunFields>) => setFields({ ...fields, ...patch });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(parseAgentRun(fields));
  };

  return (
    <form className="form" data-testid="agent-run-form" onSubmit={onSubmit}>
      <div className="field-row">
        <label className="field">
          <span>Agent configuration</span>
          <select
            data-testid="agent-run-config"
            value={fields.agent_config_id}
            onChange={(e) => {
              const config = agents.find((a) => String(a.id) === e.target.value);
              if (config) setFields(chooseConfig(fields, config));
            }}
            disabled={busy}
          >
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.provider_id} · {a.model})
              </option>
            ))}
          </select>
        </label>
        <Field
          label="Name (optional)"
          testId="agent-run-name"
          value={fields.name}
          onChange={(name) => set({ name })}
          placeholder="agent: <instruction>"
          disabled={busy}
        />
      </div>
      <TextAreaField
        label="Instruction"
        testId="agent-run-instruction"
        rows={4}
        value={fields.instruction}
        onChange={(instruction) => set({ instruction })}
        required
        disabled={busy}
      />
      <div className="field-row">
        <ImageWorkspaceFields
          testIdPrefix="agent-run"
          image={fields.image}
          workspace={fields.workspace}
          onChange={set}
          disabled={busy}
          workspaceHint="Copied into the container before the agent starts."
        />
      </div>
      <Field
        label="Verifier (optional, run with sh -c)"
        testId="agent-run-verifier"
        className="mono"
        value={fields.verifier}
        onChange={(verifier) => set({ verifier })}
        disabled={busy}
        spellCheck={false}
        hint="Exit code 0 passes the trial."
      />
      <div className="field-row">
        <MultiSelect
          label="Skills"
          testId="agent-run-skills"
          options={skillOptions(skills)}
          value={fields.skill_version_ids}
          onChange={(skill_version_ids) => set({ skill_version_ids })}
          disabled={busy}
          hint={
            fields.skill_version_ids.length === 0
              ? "None chosen: the without-skill arm."
              : `${fields.skill_version_ids.length} chosen, mounted read-only under /skills.`
          }
        />
        <Field
          type="number"
          label="Repeats"
          testId="agent-run-repeats"
          min={1}
          max={MAX_REPEATS}
          value={fields.repeats}
          onChange={(repeats) => set({ repeats })}
          required
          disabled={busy}
        />
      </div>
      <SubmitActions testId="agent-run-submit" busy={busy} label="Queue agent run" busyLabel="Queuing…" />
      <SubmissionStatus submission={submission} testId="agent-run" />
    </form>
  );
}
