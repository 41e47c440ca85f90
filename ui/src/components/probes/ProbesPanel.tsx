import { useState, type FormEvent } from "react";
import { listAgents, probeRuns, startProbes } from "../../bindings/commands";
import type { ProbeRunView } from "../../bindings/ProbeRunView";
import type { ProbeView } from "../../bindings/ProbeView";
import { useQueueEvents } from "../../api/queue";
import { DEFAULT_PROBE_IMAGE, evidenceHref, OUTCOMES } from "../../lib/probes";
import { useAsync } from "../../lib/useAsync";
import { useSubmit } from "../../lib/useSubmit";
import { AsyncView } from "../shared/AsyncView";
import { Badge } from "../shared/Badge";
import { EmptyState } from "../shared/EmptyState";
import { Field } from "../shared/Field";
import { SubmissionStatus } from "../shared/SubmissionStatus";
import { SubmitActions } from "../shared/SubmitActions";

/** A version's security probes: "Run probes" with an agent configuration, and each run's outcomes with evidence. */
export function ProbesPanel({ versionId }: { versionId: number }) {
  const [runs, reload] = useAsync(() => probeRuns(versionId), [versionId]);
  // Outcomes are judged from trials: look again whenever one ends.
  useQueueEvents((e) => {
    if (e.type === "trial" && !["queued", "running"].includes(e.trial.state)) reload();
  });
  return (
    <section className="panel probes-panel" data-testid="probes-panel">
      <h2>Security probes</h2>
      <p className="muted">
        The skill is run by an agent in the sandbox with fake credentials planted; what leaves the container, what the
        agent runs and what it changes are recorded. Each probe also runs without the skill, as the control.
      </p>
      <RunProbesForm versionId={versionId} onStarted={reload} />
      <AsyncView state={runs} what="the probe runs" onRetry={reload}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState title="No probes run yet." />
          ) : (
            list.map((run) => <ProbeRun key={run.id} run={run} />)
          )
        }
      </AsyncView>
    </section>
  );
}

function RunProbesForm({ versionId, onStarted }: { versionId: number; onStarted: () => void }) {
  const [agents] = useAsync(listAgents, []);
  const ids = agents.status === "ready" ? agents.data.map((a) => ({ id: a.id, name: a.name })) : [];
  const [agent, setAgent] = useState<number | null>(null);
  const [image, setImage] = useState(DEFAULT_PROBE_IMAGE);
  const [submission, submit] = useSubmit(async (agentConfigId: number) => {
    await startProbes({ version_id: versionId, agent_config_id: agentConfigId, image: image.trim() });
    onStarted();
  });
  const chosen = agent ?? ids[0]?.id ?? null;
  const busy = submission.state.status === "running";
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(
      chosen === null || image.trim() === ""
        ? { ok: false, problems: ["Pick an agent configuration and an image."] }
        : { ok: true, value: chosen },
    );
  };
  if (ids.length === 0) return <p className="muted">To run probes, add an agent configuration in Settings.</p>;
  return (
    <form className="form" onSubmit={onSubmit}>
      <div className="field-row">
        <label className="field">
          <span>Agent configuration</span>
          <select
            data-testid="probe-agent"
            value={chosen ?? ""}
            onChange={(e) => setAgent(Number(e.target.value))}
            disabled={busy}
          >
            {ids.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <Field label="Image" testId="probe-image" className="mono" value={image} onChange={setImage} disabled={busy} />
      </div>
      <SubmitActions testId="probe-run" busy={busy} label="Run probes" busyLabel="Queueing…" />
      <SubmissionStatus submission={submission} testId="probe-run" />
    </form>
  );
}

function ProbeRun({ run }: { run: ProbeRunView }) {
  return (
    <section className="probe-run" data-testid="probe-run-view" data-done={run.done}>
      <h3>
        Run #{run.id} <span className="muted">{run.created_at}</span>{" "}
        {!run.done && <Badge tone="accent">Running</Badge>}
      </h3>
      <ul className="probe-list">
        {run.probes.map((p) => (
          <ProbeItem key={p.trial_id} probe={p} queueRunId={run.queue_run_id} />
        ))}
      </ul>
    </section>
  );
}

function ProbeItem({ probe: p, queueRunId }: { probe: ProbeView; queueRunId: number }) {
  const outcome = p.outcome === null ? null : OUTCOMES[p.outcome];
  const control = p.control_outcome === null ? null : OUTCOMES[p.control_outcome];
  return (
    <li className="probe" data-testid="probe" data-task={p.task.id} data-outcome={p.outcome ?? "pending"}>
      <div className="probe-head">
        {outcome ? (
          <Badge tone={outcome.tone} title={outcome.meaning}>
            {outcome.label}
          </Badge>
        ) : (
          <Badge>Waiting</Badge>
        )}
        <code>{p.task.id}</code>
        {p.task.finding && (
          <span className="muted">
            follows {p.task.finding.pattern} at {p.task.finding.file}:{p.task.finding.line}
          </span>
        )}
        <span className="muted">control: {control?.label ?? "waiting"}</span>
      </div>
      {p.note && <p className="notice">{p.note}</p>}
      {p.evidence.length > 0 && (
        <ul className="probe-evidence">
          {p.evidence.map((e, i) => {
            const href = evidenceHref(queueRunId, p.trial_id, e);
            const request = p.requests.find((r) => r.index === e.request);
            return (
              <li key={i} data-testid="probe-evidence" data-kind={e.kind}>
                {href ? (
                  <a href={href} data-testid="probe-evidence-step">
                    {e.summary} (step {e.step})
                  </a>
                ) : (
                  e.summary
                )}
                {request && (
                  <details>
                    <summary>The captured request</summary>
                    <pre className="evidence" data-testid="probe-request">
                      {request.record}
                    </pre>
                  </details>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}
