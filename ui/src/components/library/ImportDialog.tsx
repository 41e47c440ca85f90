import { useState, type FormEvent } from "react";
import { toAppError } from "../../api/errors";
import { JobCancelled, runToOutcome } from "../../api/jobs";
import { cancelJob } from "../../bindings/commands";
import type { AppError } from "../../bindings/AppError";
import type { ImportOutcome } from "../../bindings/ImportOutcome";
import type { JobEvent } from "../../bindings/JobEvent";
import { plural } from "../../lib/format";
import { emptyToNull } from "../../lib/forms";
import { importStatusText, progressText } from "../../lib/importStatus";
import { skillHref } from "../../lib/route";
import { Badge } from "../shared/Badge";
import { Dialog } from "../shared/Dialog";
import { ErrorPanel } from "../shared/ErrorPanel";
import { Field } from "../shared/Field";
import { PathField } from "../shared/PathField";
import { ProgressBar } from "../shared/ProgressBar";
import { SubmitActions } from "../shared/SubmitActions";

type Phase =
  | { step: "editing" }
  | { step: "running"; progress: JobEvent | null }
  | { step: "done"; outcome: ImportOutcome }
  | { step: "failed"; error: AppError }
  | { step: "cancelled"; message: string };

type Props = { initialSource?: string; onClose: () => void; onImported: () => void };

/** Imports a skill from a folder, a .zip/.skill archive or a git repository, with live progress. */
export function ImportDialog({ initialSource = "", onClose, onImported }: Props) {
  const [source, setSource] = useState(initialSource);
  const [gitRef, setGitRef] = useState("");
  const [subpath, setSubpath] = useState("");
  const [phase, setPhase] = useState<Phase>({ step: "editing" });
  const running = phase.step === "running";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPhase({ step: "running", progress: null });
    try {
      const outcome = await runToOutcome(
        { kind: "import", source: source.trim(), git_ref: emptyToNull(gitRef), subpath: emptyToNull(subpath) },
        (progress) => setPhase({ step: "running", progress }),
      );
      setPhase({ step: "done", outcome });
      onImported();
    } catch (raw) {
      setPhase(
        raw instanceof JobCancelled
          ? { step: "cancelled", message: raw.message }
          : { step: "failed", error: toAppError(raw) },
      );
    }
  };
  // The job's id arrives with its first progress event; until then there is nothing to cancel.
  const jobId = phase.step === "running" ? phase.progress?.job_id : undefined;
  const cancel = () => {
    if (jobId !== undefined)
      cancelJob(jobId).catch((raw: unknown) => setPhase({ step: "failed", error: toAppError(raw) }));
  };

  return (
    <Dialog title="Import skills" onClose={onClose} closeTestId="import-close">
      <form className="form" onSubmit={submit}>
        <PathField
          label="Source"
          testId="import-source"
          value={source}
          onChange={setSource}
          placeholder="/path/to/skill-folder, /path/to/skill.zip, or a git URL / repository path"
          disabled={running}
          // A dialog that opens moves the focus into itself, to its first field.
          // oxlint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          hint="A folder containing SKILL.md (or folders of skills), a .zip or .skill archive, or a git repository."
          pick="both"
          filters={[{ name: "Skill archives", extensions: ["zip", "skill"] }]}
          pickTestId="import-pick"
        />
        <div className="field-row">
          <Field
            label="Git ref (optional)"
            testId="import-ref"
            value={gitRef}
            onChange={setGitRef}
            placeholder="branch, tag or commit"
            disabled={running}
            spellCheck={false}
          />
          <Field
            label="Subpath (optional)"
            testId="import-subpath"
            value={subpath}
            onChange={setSubpath}
            placeholder="e.g. skills/pdf"
            disabled={running}
            spellCheck={false}
          />
        </div>
        <SubmitActions
          testId="import-submit"
          busy={running}
          disabled={!source.trim()}
          label="Import"
          busyLabel="Importing…"
        />
        {running && (
          <button type="button" data-testid="import-cancel" disabled={jobId === undefined} onClick={cancel}>
            Cancel import
          </button>
        )}
      </form>
      <ImportPhaseView phase={phase} onOpenSkill={onClose} />
    </Dialog>
  );
}

function ImportPhaseView({ phase, onOpenSkill }: { phase: Phase; onOpenSkill: () => void }) {
  switch (phase.step) {
    case "editing":
      return null;
    case "running": {
      const p = phase.progress;
      return (
        <div className="import-progress" data-testid="import-progress">
          <ProgressBar done={p?.done ?? 0} total={p?.total ?? 0} label="Import progress" />
          <p className="muted">{p ? progressText(p) : "Starting import…"}</p>
        </div>
      );
    }
    case "failed":
      return <ErrorPanel error={phase.error} testId="import-error" />;
    case "cancelled":
      return (
        <div className="notice" data-testid="import-cancelled">
          <strong>{phase.message}.</strong>
        </div>
      );
    case "done":
      return <ImportResult outcome={phase.outcome} onOpenSkill={onOpenSkill} />;
  }
}

function ImportResult({ outcome, onOpenSkill }: { outcome: ImportOutcome; onOpenSkill: () => void }) {
  if (outcome.skills.length === 0) {
    return (
      <div className="notice" data-testid="import-result">
        <strong>No skills were found in this source.</strong>
        <p className="muted">Check that the source (or its subpath) contains a folder with a SKILL.md file.</p>
      </div>
    );
  }
  return (
    <div className="notice notice-success" data-testid="import-result">
      <strong>Import finished: {plural(outcome.skills.length, "skill")}</strong>
      <ul className="import-skills">
        {outcome.skills.map((s) => (
          <li key={s.version_id} data-skill-name={s.name} data-status={s.status}>
            <a href={skillHref(s.skill_id)} onClick={onOpenSkill}>
              {s.name}
            </a>{" "}
            — {importStatusText(s)}
            {s.finding_count > 0 && (
              <>
                {" "}
                <Badge tone="warning">{plural(s.finding_count, "finding")}</Badge>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
