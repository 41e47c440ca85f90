import { deleteProvider } from "../../bindings/commands";
import type { ProviderConfig } from "../../bindings/ProviderConfig";
import type { ProviderView } from "../../bindings/ProviderView";
import { apiLabel } from "../../lib/providerForm";
import { useAction } from "../../lib/useAction";
import type { AsyncState } from "../../lib/useAsync";
import { useEditor } from "../../lib/useEditor";
import { AsyncView } from "../shared/AsyncView";
import { Badge } from "../shared/Badge";
import { ConfirmButton } from "../shared/ConfirmButton";
import { EmptyState } from "../shared/EmptyState";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Table, type Column } from "../shared/Table";
import { ProviderForm } from "./ProviderForm";
import { KeyEntry, KeyTest } from "./ProviderKey";

type Props = { state: AsyncState<ProviderView[]>; reload: () => void };

/** The model providers: where they are, whether a key is stored, and a form to add or edit one. */
export function ProvidersSection({ state, reload }: Props) {
  const { editing, formKey, open } = useEditor<ProviderConfig>();
  const [deleting, runDelete] = useAction<void>();
  const remove = (id: string) =>
    runDelete(async () => {
      await deleteProvider(id);
      if (editing?.id === id) open(null);
      reload();
    });

  const columns: Column<ProviderView>[] = [
    { header: "Id", className: "col-nowrap", render: (p) => <strong>{p.config.id}</strong> },
    { header: "API", className: "col-nowrap", render: (p) => apiLabel(p.config.api) },
    { header: "Base URL", className: "col-url", render: (p) => <code>{p.config.base_url}</code> },
    {
      header: "Key",
      className: "col-nowrap",
      render: (p) => (
        <Badge tone={p.has_key ? "success" : "neutral"} testId="key-status">
          {p.has_key ? "Key stored" : "No key"}
        </Badge>
      ),
    },
    { header: "Set key", render: (p) => <KeyEntry provider={p} onChanged={reload} /> },
    { header: "Test", render: (p) => <KeyTest providerId={p.config.id} /> },
    {
      header: "",
      className: "col-nowrap",
      render: (p) => (
        <span className="row-actions">
          <button type="button" className="button-small" data-testid="provider-edit" onClick={() => open(p.config)}>
            Edit
          </button>
          <ConfirmButton
            label="Delete"
            testId="provider-delete"
            disabled={deleting.status === "running"}
            onConfirm={() => remove(p.config.id)}
          />
        </span>
      ),
    },
  ];

  return (
    <section className="panel" data-testid="providers">
      <h2>Model providers</h2>
      <p className="muted">Keys are kept in the operating system's keyring and never shown again once saved.</p>
      <AsyncView state={state} what="the providers" onRetry={reload}>
        {(providers) => (
          <Table
            testId="providers-table"
            columns={columns}
            rows={providers}
            rowKey={(p) => p.config.id}
            rowAttributes={(p) => ({ "data-testid": "provider-row", "data-provider-id": p.config.id })}
            empty={<EmptyState title="No providers yet.">Add one below, e.g. from a preset.</EmptyState>}
          />
        )}
      </AsyncView>
      {deleting.status === "failed" && <ErrorPanel error={deleting.error} testId="provider-delete-error" />}
      <ProviderForm
        key={formKey}
        editing={editing}
        onSaved={() => {
          open(null);
          reload();
        }}
        onCancel={() => open(null)}
      />
    </section>
  );
}
