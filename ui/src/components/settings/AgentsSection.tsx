import { deleteAgent } from "../../bindings/commands";
import type { AgentConfig } from "../../bindings/AgentConfig";
import { HARNESS_LABELS } from "../../lib/agentForm";
import { formatCount } from "../../lib/format";
import { useAction } from "../../lib/useAction";
import type { AsyncState } from "../../lib/useAsync";
import { useEditor } from "../../lib/useEditor";
import { AsyncView } from "../shared/AsyncView";
import { ConfirmButton } from "../shared/ConfirmButton";
import { EmptyState } from "../shared/EmptyState";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Table, type Column } from "../shared/Table";
import { AgentForm } from "./AgentForm";

type Props = { state: AsyncState<AgentConfig[]>; reload: () => void; providerIds: string[] };

/** The named agent configurations that agent runs use, and a form to add or edit one. */
export function AgentsSection({ state, reload, providerIds }: Props) {
  const { editing, formKey, open } = useEditor<AgentConfig>();
  const [deleting, runDelete] = useAction<void>();
  const remove = (id: number) =>
    runDelete(async () => {
      await deleteAgent(id);
      if (editing?.id === id) open(null);
      reload();
    });

  const columns: Column<AgentConfig>[] = [
    { header: "Name", className: "col-nowrap", render: (a) => <strong>{a.name}</strong> },
    { header: "Harness", className: "col-nowrap", render: (a) => HARNESS_LABELS[a.harness] },
    { header: "Provider", className: "col-nowrap", render: (a) => a.provider_id },
    { header: "Model", render: (a) => <code>{a.model}</code> },
    { header: "Max turns", className: "col-num", render: (a) => a.limits.max_turns },
    { header: "Token budget", className: "col-num", render: (a) => formatCount(a.limits.token_budget) },
    {
      header: "Timeouts",
      className: "col-nowrap",
      render: (a) => `${a.limits.wall_timeout_secs} s run · ${a.limits.command_timeout_secs} s per command`,
    },
    {
      header: "",
      className: "col-nowrap",
      render: (a) => (
        <span className="row-actions">
          <button type="button" className="button-small" data-testid="agent-edit" onClick={() => open(a)}>
            Edit
          </button>
          <ConfirmButton
            label="Delete"
            testId="agent-delete"
            disabled={deleting.status === "running"}
            onConfirm={() => remove(a.id)}
          />
        </span>
      ),
    },
  ];

  return (
    <section className="panel" data-testid="agents">
      <h2>Agent configurations</h2>
      <p className="muted">
        A harness (the built-in agent, or a real CLI — Claude Code, Codex, OpenCode, Gemini CLI — run inside the trial's
        container) with a provider's model and its limits; agent runs and experiments use one of these.
      </p>
      <AsyncView state={state} what="the agent configurations" onRetry={reload}>
        {(agents) => (
          <Table
            testId="agents-table"
            columns={columns}
            rows={agents}
            rowKey={(a) => a.id}
            rowAttributes={(a) => ({
              "data-testid": "agent-row",
              "data-agent-name": a.name,
              "data-agent-id": String(a.id),
            })}
            empty={<EmptyState title="No agent configurations yet." />}
          />
        )}
      </AsyncView>
      {deleting.status === "failed" && <ErrorPanel error={deleting.error} testId="agent-delete-error" />}
      <AgentForm
        key={formKey}
        editing={editing}
        providerIds={providerIds}
        onSaved={() => {
          open(null);
          reload();
        }}
        onCancel={() => open(null)}
      />
    </section>
  );
}
