import { useState } from "react";
import { runToOutcome } from "../../api/jobs";
import { listAgents } from "../../bindings/commands";
import type { DraftKind } from "../../bindings/DraftKind";
import type { GeneratedTasks } from "../../bindings/GeneratedTasks";
import type { VersionDetail } from "../../bindings/VersionDetail";
import { plural } from "../../lib/format";
import { taskSetHref } from "../../lib/route";
import { useAction } from "../../lib/useAction";
import { useAsync } from "../../lib/useAsync";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Field } from "../shared/Field";
import { PathField } from "../shared/PathField";
import { SelectField } from "../shared/SelectField";

/** The most drafts one request may ask for (the back end's limit). */
const MAX_COUNT = 20;

/** Each kind, what it is called here, and how many a request asks for unless told (as the back end). */
const KINDS: readonly (readonly [DraftKind, string, number])[] = [
  ["requirements", "Requirement documents, scored by generated pytest files", 10],
  ["scenarios", "Scenarios aimed at the baseline's gaps, graded by a judge", 3],
  ["evals", "Eval prompts with expectations, graded by a judge", 3],
];

/**
 * Tasks from the skill itself: a model the user picks drafts requirement documents, scenarios or
 * eval prompts from this version's SKILL.md, optionally set in a repository at a commit (its
 * environment is built first). They land as drafts on the Tasks page, each with its leakage check
 * and, for generated verifiers, sanity checks in the sandbox; they run only once approved there.
 */
export function GenerateTasks({ version }: { version: VersionDetail }) {
  const [agents] = useAsync(listAgents, []);
  const [writer, setWriter] = useState("");
  const [kind, setKind] = useState<DraftKind>("evals");
  const [count, setCount] = useState("3");
  const [repository, setRepository] = useState("");
  const [commit, setCommit] = useState("");
  const [state, run] = useAction<GeneratedTasks>();
  const configs = agents.status === "ready" ? agents.data : [];
  const chosen = configs.find((a) => String(a.id) === writer);
  const n = Number(count);
  const valid =
    chosen !== undefined &&
    Number.isInteger(n) &&
    n >= 1 &&
    n <= MAX_COUNT &&
    (commit.trim() === "" || repository.trim() !== "");
  const chooseKind = (k: DraftKind) => {
    setKind(k);
    setCount(String(KINDS.find(([v]) => v === k)?.[2] ?? 3));
  };
  const draft = () =>
    chosen &&
    run(() =>
      runToOutcome(
        {
          kind: "draft_tasks",
          version_id: version.id,
          writer: { provider: chosen.provider_id, model: chosen.model },
          draft_kind: kind,
          count: n,
          repository: repository.trim() || null,
          commit: commit.trim() || null,
        },
        () => {},
      ),
    );
  const flagged = state.status === "done" ? state.data.drafts.filter((d) => d.leakage.flagged).length : 0;
  const busy = state.status === "running";
  const built = state.status === "done" ? state.data.environment : null;
  return (
    <section className="panel" data-testid="generate-tasks">
      <h2>Draft tasks from this skill</h2>
      <p className="muted">
        A model drafts tasks from this version's SKILL.md. Each draft is checked for instructions copied from the skill;
        generated pytest verifiers are run in the sandbox before and after their reference solution. Drafts run only
        once approved on the Tasks page.
      </p>
      {agents.status === "error" && <ErrorPanel error={agents.error} />}
      <div className="form-row">
        <SelectField
          label="Kind"
          testId="generate-kind"
          value={kind}
          onChange={chooseKind}
          disabled={busy}
          options={KINDS.map(([v, text]) => [v, text] as const)}
        />
        <SelectField
          label="Written by"
          testId="generate-writer"
          value={writer}
          onChange={setWriter}
          disabled={busy}
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
          disabled={busy}
        />
      </div>
      <div className="form-row">
        <PathField
          label="Set in a repository (optional)"
          testId="generate-repository"
          value={repository}
          onChange={setRepository}
          placeholder="/path/to/repository or https://…/repo.git"
          hint="Its environment is built from its manifests (requirements.txt, package.json) and reused while its files are the same."
          pick="folder"
          pickTestId="generate-repository-pick"
          disabled={busy}
        />
        <Field
          label="Commit"
          testId="generate-commit"
          className="mono"
          value={commit}
          onChange={setCommit}
          placeholder="HEAD"
          disabled={busy || repository.trim() === ""}
        />
        <button
          type="button"
          className="button-small"
          data-testid="generate-run"
          disabled={!valid || busy}
          onClick={draft}
        >
          {busy ? "Drafting…" : "Draft tasks"}
        </button>
      </div>
      {state.status === "failed" && <ErrorPanel error={state.error} testId="generate-error" />}
      {state.status === "done" && (
        <p className="notice" data-testid="generate-result" data-flagged={flagged}>
          {plural(state.data.drafts.length, "draft")} stored
          {flagged > 0 && `, ${flagged} flagged for instructions copied from the skill`}.{" "}
          {built &&
            `Environment: ${built.origin.source}${built.origin.commit ? ` at ${built.origin.commit.slice(0, 12)}` : ""}, ${
              built.reused ? "the image built before reused" : "image built"
            } (${built.notes.join("; ")}). `}
          {state.data.sanity_run !== null &&
            `Their verifiers are being checked in the sandbox (queue run #${state.data.sanity_run}). `}
          <a href={taskSetHref(state.data.import.task_set.id)} data-testid="generate-review-link">
            Review them on the Tasks page
          </a>
        </p>
      )}
    </section>
  );
}
