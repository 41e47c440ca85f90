import { useState, type FormEvent } from "react";
import { deleteCredential, setCredential, testCredential } from "../../bindings/commands";
import type { AppError } from "../../bindings/AppError";
import type { ProviderView } from "../../bindings/ProviderView";
import { useAction } from "../../lib/useAction";

type KeyProps = { provider: ProviderView; onChanged: () => void };

/** Stores (or replaces, or deletes) a provider's key in the OS keyring; the key is never shown. */
export function KeyEntry({ provider, onChanged }: KeyProps) {
  const id = provider.config.id;
  const [secret, setSecret] = useState("");
  const [state, run] = useAction<void>();
  const busy = state.status === "running";
  const save = (e: FormEvent) => {
    e.preventDefault();
    run(async () => {
      await setCredential(id, secret.trim());
      setSecret("");
      onChanged();
    });
  };
  const remove = () =>
    run(async () => {
      await deleteCredential(id);
      onChanged();
    });

  return (
    <form className="inline-form" onSubmit={save}>
      <input
        type="password"
        data-testid="key-input"
        aria-label={`Key for ${id}`}
        placeholder={provider.has_key ? "New key" : "Key"}
        autoComplete="off"
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
        disabled={busy}
      />
      <button type="submit" className="button-small" data-testid="key-save" disabled={busy || secret.trim() === ""}>
        Save key
      </button>
      {provider.has_key && (
        <button type="button" className="button-small" data-testid="key-delete" disabled={busy} onClick={remove}>
          Delete key
        </button>
      )}
      {state.status === "failed" && <Failure error={state.error} testId="key-error" />}
    </form>
  );
}

/** A cheap real call to a model with the stored key: says that it works, or exactly why not. */
export function KeyTest({ providerId }: { providerId: string }) {
  const [model, setModel] = useState("");
  const [state, run] = useAction<string>();
  const busy = state.status === "running";
  const test = (e: FormEvent) => {
    e.preventDefault();
    const name = model.trim();
    run(async () => {
      await testCredential(providerId, name);
      return name;
    });
  };

  return (
    <form className="inline-form" onSubmit={test}>
      <input
        data-testid="key-test-model"
        aria-label={`Model to test ${providerId} with`}
        placeholder="Model"
        spellCheck={false}
        value={model}
        onChange={(e) => setModel(e.target.value)}
        disabled={busy}
      />
      <button type="submit" className="button-small" data-testid="key-test" disabled={busy || model.trim() === ""}>
        {busy ? "Testing…" : "Test"}
      </button>
      {state.status === "done" && (
        <span className="inline-result inline-ok" data-testid="key-test-result" data-ok="true">
          Key works with {state.data}
        </span>
      )}
      {state.status === "failed" && <Failure error={state.error} testId="key-test-result" />}
    </form>
  );
}

function Failure({ error, testId }: { error: AppError; testId: string }) {
  return (
    <span
      className="inline-result inline-fail"
      role="alert"
      data-testid={testId}
      data-ok="false"
      data-error-code={error.code}
    >
      {error.message}
    </span>
  );
}
