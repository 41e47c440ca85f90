import { useState } from "react";
import { runToOutcome } from "../../api/jobs";
import { listAgents } from "../../bindings/commands";
import type { GeneratedTasks } from "../../bindings/GeneratedTasks";
import type { VersionDetail } from "../../bindings/VersionDetail";
import { plural } from "../../lib/format";
import { taskSetHref } from "../../lib/route";
import { useAction } from "../../lib/useAction";
import { useAsync } from "../../lib/useAsync";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Field } from "../shared/Field";
import { SelectField } from "../shared/SelectField";

/** The most drafts one request may ask for (the back end's limit). */
const MAX_COUNT = 20;

/**
 * Tasks from the skill itself: a model the user picks drafts eval prompts with expectations from
 * this version's SKILL.md; they land as drafts on the Tasks page, each with its leakage check, and
 * run only once approved there.
 */
export function GenerateTasks({ version }: { version: VersionDetail }) {
  const [agents] = useAsync(listAgents, []);
  const [writer, setWriter] = useState("");
  const [count, setCount] = useState("3");
  const [state, run] = useAction<GeneratedTasks>();
  const configs = agents.status === "ready" ? agents.data : [];
  const chosen = configs.find((a) => String(a.id) === writer);
  const n = Number(count);
  const valid = chosen !== undefined && Number.isInteger(n) && n >= 1 && n <= MAX_COUNT;
  const draft = () =>
    chosen &&
    run(() =>
      runToOutcome(
        {
          kind: "draft_tasks",
          version_id: version.id,
          writer: { provider: chosen.provider_id, model: chosen.model },
          count: n,
        },
        () => {},
      ),
    );
  const flagged = state.status === "done" ? state.data.drafts.filter((d) => d.leakage.flagged).length : 0;
  return (
    <section className="panel" data-testid="generate-tasks">
      <h2>Draft tasks from this skill</h2>
      <p className="muted">
        A model drafts eval prompts with expectations a judge grades, from this version's SKILL.md. Each draft is
        checked for instructions copied from the skill, and runs only once approved on the Tasks page.
      </p>
      {agents.status === "error" && <ErrorPanel error={agents.error} />}
      <div className="form-row">
        <SelectField
          label="Written by"
          testId="generate-writer"
          value={writer}
          onChange={setWriter}
          options={[
            ["", configs.length === 0 ? "No agent configuration yet (Settings)" : "Choose a model"],
            ...configs.map((a): [string, string] => [String(a.id), `${a.provider_id} · ${a.model} (as in ${a.name})`]),
          ]}
        />
        <Field
          label="Tasks"
          testId="generate-count"
          type="number"
          min={1}
          max={MAX_COUNT}
          value={count}
          onChange={setCount}
        />
        <button
          type="button"
          className="button-small"
          data-testid="generate-run"
          disabled={!valid || state.status === "running"}
          onClick={draft}
        >
          {state.status === "running" ? "Drafting…" : "Draft tasks"}
        </button>
      </div>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="generate-error" />}
      {state.status === "done" && (
        <p className="notice" data-testid="generate-result" data-flagged={flagged}>
          {plural(state.data.drafts.length, "draft")} stored
          {flagged > 0 && `, ${flagged} flagged for instructions copied from the skill`}.{" "}
          <a href={taskSetHref(state.data.import.task_set.id)} data-testid="generate-review-link">
            Review them on the Tasks page
          </a>
        </p>
      )}
    </section>
  );
}
