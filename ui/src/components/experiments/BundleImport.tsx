import { useState } from "react";
import { runToOutcome } from "../../api/jobs";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";
import { PathPicker } from "../shared/PathPicker";

type Props = {
  /** The bundle was imported as the experiment with this id. */
  onImported: (experimentId: number) => void;
};

/**
 * Imports an experiment bundle (`.json` or `.json.gz`, exported by Skillscope) as a new experiment;
 * the skill versions it ran must be in the library, and the error says which one is missing.
 */
export function BundleImport({ onImported }: Props) {
  const [path, setPath] = useState("");
  const [state, run] = useAction<void>();
  const submit = () =>
    run(async () => {
      const { experiment_id } = await runToOutcome({ kind: "bundle_import", path: path.trim() }, () => {});
      setPath("");
      onImported(experiment_id);
    });
  return (
    <form
      className="bundle-import"
      data-testid="bundle-import"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label>
        Import an experiment bundle{" "}
        <input
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="/path/to/experiment.json.gz"
          data-testid="bundle-import-path"
        />
      </label>
      <PathPicker
        pick="file"
        filters={[{ name: "Experiment bundles", extensions: ["json", "gz"] }]}
        onPick={setPath}
        disabled={state.status === "running"}
        testId="bundle-import-pick"
      />
      <button
        type="submit"
        disabled={state.status === "running" || path.trim() === ""}
        data-testid="bundle-import-submit"
      >
        {state.status === "running" ? "Importing…" : "Import"}
      </button>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="bundle-import-error" />}
    </form>
  );
}
