import { importSkillEvals } from "../../bindings/commands";
import type { TaskSetImport } from "../../bindings/TaskSetImport";
import type { VersionDetail } from "../../bindings/VersionDetail";
import { plural } from "../../lib/format";
import { taskSetHref } from "../../lib/route";
import { useAction } from "../../lib/useAction";
import { ErrorPanel } from "../shared/ErrorPanel";

/** The folder inside a skill where its own evals live (evals as code). */
const EVALS_DIR = "evals/";

/**
 * Evals as code: when the version ships an `evals/` folder (evals.json or Harbor task folders),
 * imports it as a task set that experiments can run; links to the set on the Tasks page.
 */
export function SkillEvals({ version }: { version: VersionDetail }) {
  const [state, run] = useAction<TaskSetImport>();
  const files = version.files.filter((f) => f.path.startsWith(EVALS_DIR)).length;
  if (files === 0) return null;
  return (
    <section className="panel" data-testid="skill-evals">
      <h2>The skill's own evals</h2>
      <p>
        This version ships <code>{EVALS_DIR}</code> ({plural(files, "file")}). Import it as a task set to run it in an
        experiment with and without the skill; cases graded by expectations run when the experiment names a judge.
      </p>
      <button
        type="button"
        className="button-small"
        data-testid="skill-evals-import"
        disabled={state.status === "running"}
        onClick={() => run(() => importSkillEvals(version.id))}
      >
        {state.status === "running" ? "Importing…" : "Import as a task set"}
      </button>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="skill-evals-error" />}
      {state.status === "done" && (
        <p data-testid="skill-evals-result">
          {state.data.reused ? "Already stored as" : "Stored as"}{" "}
          <a href={taskSetHref(state.data.task_set.id)}>
            {state.data.task_set.name} (set #{state.data.task_set.id})
          </a>
          : {plural(state.data.tasks.length, "task")}
          {state.data.errors.length > 0 && `, ${plural(state.data.errors.length, "case")} not imported`}.
        </p>
      )}
    </section>
  );
}
