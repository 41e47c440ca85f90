import type { ArmView } from "../../bindings/ArmView";
import type { AttemptResult } from "../../bindings/AttemptResult";
import { runsHref } from "../../lib/route";
import { TrialStateBadge } from "../shared/Badge";
import { ClippedText } from "../shared/ClippedText";
import { ArmScore } from "./PairsTable";

// Verifier output is skimmed here; the Runs page has all of it.
const EXCERPT = { maxChars: 600, maxLines: 8 };

type Props = { name: "without" | "with"; label: string; arm: ArmView; result: AttemptResult | null; runId: number };

/** One arm's verifier result (its last attempt): score, outcome, exit code, the skills it could see and output excerpts, linking to its trial. */
export function PairArmResult({ name, label, arm, result, runId }: Props) {
  return (
    <section className="pair-arm" data-testid="arm-result" data-arm={name}>
      <header className="attempt-header">
        <h3>{label}</h3>
        <span className="score" data-testid="arm-score">
          <ArmScore arm={arm} />
        </span>
        {result && <TrialStateBadge state={result.outcome} />}
        <span className="muted" data-testid="arm-exit">
          {result?.exit_code == null ? "no exit code" : `exit code ${result.exit_code}`}
        </span>
        <a href={runsHref(runId, arm.trial_id)} data-testid="arm-trial-link">
          Trial on the Runs page
        </a>
      </header>
      <SkillsSeen listed={arm.skills_listed} />
      {result === null ? (
        <p className="muted">No attempt result was recorded.</p>
      ) : (
        <>
          <Excerpt title="stdout" text={result.stdout} />
          <Excerpt title="stderr" text={result.stderr} />
        </>
      )}
    </section>
  );
}

/** What the arm could read before the agent started: bare names are the arm's own skills, paths are skills found elsewhere. */
function SkillsSeen({ listed }: { listed: string[] | null }) {
  return (
    <p className="muted" data-testid="arm-skills-seen">
      Skills visible to the agent:{" "}
      {listed === null ? "not recorded" : listed.length === 0 ? "none" : listed.map((s) => <code key={s}>{s} </code>)}
    </p>
  );
}

function Excerpt({ title, text }: { title: string; text: string }) {
  return (
    <div className="attempt-output">
      <h4>{title}</h4>
      {text === "" ? (
        <p className="muted">(empty)</p>
      ) : (
        <ClippedText text={text} {...EXCERPT} className="output" testId={`arm-${title}`} />
      )}
    </div>
  );
}
