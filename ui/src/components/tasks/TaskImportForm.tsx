import { useState, type FormEvent } from "react";
import { importTaskSet } from "../../bindings/commands";
import type { TaskImportKind } from "../../bindings/TaskImportKind";
import type { TaskSetImport } from "../../bindings/TaskSetImport";
import { useAction } from "../../lib/useAction";
import { useFileDrop } from "../../lib/useFileDrop";
import { ErrorPanel } from "../shared/ErrorPanel";
import { PathField } from "../shared/PathField";
import { SelectField } from "../shared/SelectField";
import { SubmitActions } from "../shared/SubmitActions";
import { StoredNotice } from "./StoredNotice";

const KINDS: [TaskImportKind, string][] = [
  ["auto", "Auto"],
  ["harbor", "Harbor task folder(s)"],
  ["evals", "Skill evals.json"],
  ["swe-skills-bench", "SWE-Skills-Bench"],
];

/** Imports tasks from a path into a stored task set; the same content imported again finds the set stored before. */
export function TaskImportForm({ onStored }: { onStored: (result: TaskSetImport) => void }) {
  const [path, setPath] = useState("");
  const [kind, setKind] = useState<TaskImportKind>("auto");
  // Folders have no extension to filter by: any dropped path fills the field, and the importer judges it.
  const dragging = useFileDrop(setPath);
  const [state, run] = useAction<TaskSetImport>();
  const busy = state.status === "running";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const result = await importTaskSet(path.trim(), kind);
      onStored(result);
      return result;
    });
  };
  return (
    <form className="form" data-testid="task-import-form" onSubmit={submit}>
      <div className="field-row">
        <PathField
          label="Import tasks from (path)"
          testId="task-import-path"
          value={path}
          onChange={setPath}
          placeholder="/path/to/tasks or /path/to/evals.json"
          disabled={busy}
          hint="A Harbor task folder or a folder of them, a skill folder with evals/evals.json or an evals.json file, or a SWE-Skills-Bench folder."
          pick="both"
          filters={[{ name: "Skill evals", extensions: ["json"] }]}
          pickTestId="task-import-pick"
        />
        <SelectField
          label="Kind"
          testId="task-import-kind"
          options={KINDS}
          value={kind}
          onChange={setKind}
          disabled={busy}
          hint="Auto reads a file as evals.json; a folder as Harbor, then SWE-Skills-Bench, then a skill's evals."
        />
      </div>
      {dragging && <p className="notice notice-info">Drop a task folder or an evals.json file to fill in the path.</p>}
      <SubmitActions
        testId="task-import-submit"
        busy={busy}
        disabled={path.trim() === ""}
        label="Import"
        busyLabel="Importing…"
      />
      {state.status === "failed" && <ErrorPanel error={state.error} testId="task-import-error" />}
      {state.status === "done" && <StoredNotice result={state.data} testId="task-import-result" />}
    </form>
  );
}
