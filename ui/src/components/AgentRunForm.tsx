import { useState, type FormEvent } from "react";
import { listAgents, listSkills, startAgentRun } from "../api/commands";
import type { AgentConfig, AgentRunRequest, SkillSummary } from "../api/types";
import { AGENT_RUN_DEFAULTS, MAX_REPEATS, parseAgentRun, type AgentRunFields } from "../lib/agentRunForm";
import { sectionHref } from "../lib/route";
import { useAsync } from "../lib/useAsync";
import { useSubmit } from "../lib/useSubmit";
import { AsyncView } from "./AsyncView";
import { EmptyState } from "./EmptyState";
import { Field } from "./Field";
import { MultiSelect, skillOptions } from "./MultiSelect";
import { SubmissionStatus } from "./SubmissionStatus";

type Props = { onStarted: (runId: number) => void };

/** Queues the built-in agent on one task, repeated, with or without skills; `onStarted` gets the run id. */
export function AgentRunForm({ onStarted }: Props) {
  const [state, reload] = useAsync(() => Promise.all([listAgents(), listSkills()]), []);
  return (
    <section className="panel">
      <h2>New agent run</h2>
      <AsyncView state={state} what="the agent configurations" onRetry={reload}>
        {([agents, skills]) =>
          agents.length === 0 ? (
            <EmptyState title="There is no agent configuration yet." testId="agent-run-no-config">
              Add a model provider and an agent configuration in <a href={sectionHref("settings")}>Settings</a>.
            </EmptyState>
          ) : (
            <Form agents={agents} skills={skills} onStarted={onStarted} />
          )
        }
      </AsyncView>
    </section>
  );
}

type FormProps = Props & { agents: AgentConfig[]; skills: SkillSummary[] };

function Form({ agents, skills, onStarted }: FormProps) {
  const [fields, setFields] = useState<AgentRunFields>({ ...AGENT_RUN_DEFAULTS, agent_config_id: String(agents[0].id) });
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
            onChange={(e) => set({ agent_config_id: e.target.value })}
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
      <label className="field">
        <span>Instruction</span>
        <textarea
          data-testid="agent-run-instruction"
          rows={4}
          value={fields.instruction}
          onChange={(e) => set({ instruction: e.target.value })}
          required
          disabled={busy}
        />
      </label>
      <div className="field-row">
        <Field
          label="Image"
          testId="agent-run-image"
          value={fields.image}
          onChange={(image) => set({ image })}
          required
          disabled={busy}
          spellCheck={false}
        />
        <Field
          label="Workspace folder (optional)"
          testId="agent-run-workspace"
          className="mono"
          value={fields.workspace}
          onChange={(workspace) => set({ workspace })}
          placeholder="/path/on/this/computer"
          disabled={busy}
          spellCheck={false}
          hint="Copied into the container before the agent starts."
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
      <div className="form-actions">
        <button type="submit" className="button-primary" data-testid="agent-run-submit" disabled={busy}>
          {busy ? "Queuing…" : "Queue agent run"}
        </button>
      </div>
      <SubmissionStatus submission={submission} testId="agent-run" />
    </form>
  );
}
