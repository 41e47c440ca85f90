import { useState, type FormEvent } from "react";
import { importPrices } from "../../bindings/commands";
import type { PriceImport as Imported } from "../../bindings/PriceImport";
import type { Settings } from "../../bindings/Settings";
import { importSummary } from "../../lib/settingsForm";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";
import { PathField } from "../shared/PathField";
import { SubmitActions } from "../shared/SubmitActions";

type Props = { onImported: (settings: Settings) => void };

/** Merges a LiteLLM price file into the saved prices; the back end writes prices.toml at once. */
export function PriceImport({ onImported }: Props) {
  const [path, setPath] = useState("");
  const [state, run] = useAction<Imported>();
  const busy = state.status === "running";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const result = await importPrices(path.trim());
      onImported(result.settings);
      return result;
    });
  };
  return (
    <form className="form subform" data-testid="price-import" onSubmit={submit}>
      <h3>Import LiteLLM prices</h3>
      <p className="muted">
        Adds or updates the models of a LiteLLM price file (<code>model_prices_and_context_window.json</code>, dollars
        per token) in the saved prices and writes them at once; the form above then shows the result, in place of any
        unsaved changes.
      </p>
      <div className="field-row">
        <PathField
          label="Price file (path)"
          testId="price-import-path"
          value={path}
          onChange={setPath}
          placeholder="/path/to/model_prices_and_context_window.json"
          disabled={busy}
          pick="file"
          filters={[{ name: "LiteLLM prices", extensions: ["json"] }]}
          pickTestId="price-import-pick"
        />
      </div>
      <SubmitActions
        testId="price-import-submit"
        busy={busy}
        disabled={path.trim() === ""}
        label="Import prices"
        busyLabel="Importing…"
      />
      {state.status === "failed" && <ErrorPanel error={state.error} testId="price-import-error" />}
      {state.status === "done" && <ImportResult result={state.data} />}
    </form>
  );
}

/** What an import changed, with the entries it left out named on demand. */
function ImportResult({ result }: { result: Imported }) {
  return (
    <div className="notice notice-success" data-testid="price-import-result">
      <strong>{importSummary(result)}.</strong>
      {result.skipped.length > 0 && (
        <details>
          <summary>Left out</summary>
          <p className="muted">{result.skipped.join(", ")}</p>
        </details>
      )}
    </div>
  );
}
