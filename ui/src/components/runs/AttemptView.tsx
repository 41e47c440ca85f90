import type { AttemptResult } from "../../bindings/AttemptResult";
import type { VerifierRun } from "../../bindings/VerifierRun";
import { parseWorkspaceChanges, type WorkspaceChange } from "../../lib/fileChanges";
import { plural } from "../../lib/format";
import { formatDuration } from "../../lib/phases";
import { DiffLines } from "../library/DiffView";
import { Badge, TrialStateBadge, type Tone } from "../shared/Badge";

const CHANGE_TONE: Record<WorkspaceChange["kind"], Tone> = {
  created: "success",
  modified: "warning",
  deleted: "danger",
};

/** One attempt of a trial: outcome, exit, limits hit, error, output, the verifier's run check by check, and the files it changed. */
export function AttemptView({ result }: { result: AttemptResult }) {
  const changes = parseWorkspaceChanges(result.file_changes);
  return (
    <section className="attempt" data-testid="attempt" data-attempt={result.attempt}>
      <header className="attempt-header">
        <h3>Attempt {result.attempt}</h3>
        <TrialStateBadge state={result.outcome} />
        <span className="muted">
          {result.exit_code === null ? "no exit code" : `exit code ${result.exit_code}`} ·{" "}
          {formatDuration(result.duration_ms)}
        </span>
      </header>
      {result.timed_out && (
        <p className="attempt-flag" data-testid="attempt-timed-out">
          <Badge tone="warning">Timed out</Badge> The command ran longer than its timeout and was stopped.
        </p>
      )}
      {result.oom_killed && (
        <p className="attempt-flag" data-testid="attempt-oom">
          <Badge tone="warning">Out of memory</Badge> The container used all the memory it was allowed and was killed.
        </p>
      )}
      {result.error && (
        <div className="notice notice-error" data-testid="attempt-error">
          {result.error}
        </div>
      )}
      <Output title="stdout" text={result.stdout} />
      <Output title="stderr" text={result.stderr} />
      {result.verifier && <VerifierRunView run={result.verifier} />}
      {changes.length > 0 && <WorkspaceChanges changes={changes} />}
    </section>
  );
}

/** Where the verifier ran, how it scored, each check it reported, and what it printed. */
function VerifierRunView({ run }: { run: VerifierRun }) {
  return (
    <div className="attempt-output" data-testid="attempt-verifier">
      <h4>Verifier</h4>
      <p className="muted">
        Ran in {run.in_place ? "the agent's container" : "a fresh container"}
        {run.exit_code === null ? "" : `, exit code ${run.exit_code}`}
        {run.timed_out ? ", timed out" : ""}: {run.detail}
      </p>
      {run.checks.length > 0 && (
        <table className="verifier-checks" data-testid="attempt-checks">
          <thead>
            <tr>
              <th>Check</th>
              <th>Outcome</th>
              <th>Time</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {run.checks.map((c) => (
              <tr key={c.id} data-outcome={c.outcome}>
                <td>
                  <code>{c.id}</code>
                </td>
                <td>{c.outcome}</td>
                <td>{c.duration_ms === null ? "" : formatDuration(c.duration_ms)}</td>
                <td>{c.message ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {run.engine_diff.length > 0 && (
        <details data-testid="attempt-engine-diff">
          <summary>What the agent changed outside the workdir ({run.engine_diff.length})</summary>
          <pre className="output">{run.engine_diff.join("\n")}</pre>
        </details>
      )}
      <Output title="verifier stdout" text={run.stdout} />
      <Output title="verifier stderr" text={run.stderr} />
    </div>
  );
}

function Output({ title, text }: { title: string; text: string }) {
  return (
    <div className="attempt-output">
      <h4>{title}</h4>
      {text === "" ? (
        <p className="muted">(empty)</p>
      ) : (
        <pre className="output" data-testid={`attempt-${title.replace(" ", "-")}`}>
          {text}
        </pre>
      )}
    </div>
  );
}

function WorkspaceChanges({ changes }: { changes: WorkspaceChange[] }) {
  return (
    <div className="attempt-output" data-testid="attempt-file-changes">
      <h4>Files changed: {plural(changes.length, "file")}</h4>
      {changes.map((c) => (
        <section key={c.path} className="diff-file">
          <header className="diff-file-header">
            <Badge tone={CHANGE_TONE[c.kind]}>{c.kind}</Badge>
            <code>{c.path}</code>
          </header>
          {c.diff ? (
            <DiffLines diff={c.diff} />
          ) : (
            <p className="muted diff-note">No text diff: the file is binary or too large.</p>
          )}
        </section>
      ))}
    </div>
  );
}
