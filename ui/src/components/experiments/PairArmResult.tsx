import type { ArmView } from "../../bindings/ArmView";
import type { ArmSnapshot } from "../../bindings/ArmSnapshot";
import type { AttemptResult } from "../../bindings/AttemptResult";
import type { RubricScores } from "../../bindings/RubricScores";
import { runsHref } from "../../lib/route";
import { ranWithLong } from "../../lib/snapshot";
import { Badge, TrialStateBadge } from "../shared/Badge";
import { ClippedText } from "../shared/ClippedText";
import { JudgementView } from "./JudgementView";
import { ArmScore } from "./PairsTable";

// Verifier output is skimmed here; the Runs page has all of it.
const score = (x: number) => `${Math.round(x * 100)} points`;

function rubricTitle(s: RubricScores | null): string {
  if (s === null) return "ACES rubric";
  const accuracy = s.accuracy === null ? "no reference answer, so no accuracy" : `accuracy ${score(s.accuracy)}`;
  return `ACES rubric: goal_accuracy ${score(s.goal_accuracy)}, ${accuracy}`;
}

const EXCERPT = { maxChars: 600, maxLines: 8 };

type Props = { name: "without" | "with"; label: string; arm: ArmView; result: AttemptResult | null; runId: number };

/** One arm's result (its last attempt): score, outcome, the skills it could see, what ran, the verifier's output and the agent's, linking to its trial. */
export function PairArmResult({ name, label, arm, result, runId }: Props) {
  return (
    <section className="pair-arm" data-testid="arm-result" data-arm={name}>
      <header className="attempt-header">
        <h3>{label}</h3>
        <span className="score" data-testid="arm-score">
          <ArmScore arm={arm} />
        </span>
        {result && <ArmState outcome={result.outcome} judged={arm.judgement !== null} />}
        <span className="muted" data-testid="arm-exit">
          {result?.exit_code == null ? "no exit code" : `exit code ${result.exit_code}`}
        </span>
        <a href={runsHref(runId, arm.trial_id)} data-testid="arm-trial-link">
          Trial on the Runs page
        </a>
      </header>
      {arm.judgement !== null && (
        <JudgementView judgement={arm.judgement} title="The case's expectations" testId="arm-judgement" />
      )}
      {arm.rubric !== null && (
        <JudgementView judgement={arm.rubric} title={rubricTitle(arm.rubric_scores)} testId="arm-rubric" />
      )}
      <SkillsSeen listed={arm.skills_listed} hashes={arm.skills_seen_sha256} />
      <WhatRan snapshot={arm.snapshot} />
      {arm.error && (
        <p className="muted" data-testid="arm-error">
          {arm.error}
        </p>
      )}
      {result === null ? (
        <p className="muted">No attempt result was recorded.</p>
      ) : (
        <>
          {result.verifier === null ? (
            <p className="muted" data-testid="arm-verifier-none">
              No verifier output was recorded for this attempt (none ran, or it ran before Skillscope kept it).
            </p>
          ) : (
            <>
              <p className="muted" data-testid="arm-verifier">
                Verifier, in {result.verifier.in_place ? "the agent's container" : "a fresh container"}
                {result.verifier.exit_code === null ? "" : `, exit code ${result.verifier.exit_code}`}:{" "}
                {result.verifier.detail}
              </p>
              <Excerpt title="verifier stdout" text={result.verifier.stdout} />
              <Excerpt title="verifier stderr" text={result.verifier.stderr} />
            </>
          )}
          <Excerpt title="agent stdout" text={result.stdout} />
          <Excerpt title="agent stderr" text={result.stderr} />
        </>
      )}
    </section>
  );
}

/** What the arm could read before the agent started: bare names are the arm's own skills, paths are skills found elsewhere; each with its tree hash on hover. */
function SkillsSeen({ listed, hashes }: { listed: string[] | null; hashes: Partial<Record<string, string>> | null }) {
  const hash = (entry: string) => hashes?.[entry.startsWith("/") ? entry : `/skills/${entry}`] ?? "not recorded";
  return (
    <p className="muted" data-testid="arm-skills-seen">
      Skills visible to the agent:{" "}
      {listed === null
        ? "not recorded"
        : listed.length === 0
          ? "none"
          : listed.map((s) => (
              <code key={s} title={`tree sha256 ${hash(s)}`}>
                {s}{" "}
              </code>
            ))}
    </p>
  );
}

/**
 * The attempt's state. A judged arm has no verifier: its run "passing" says only that the agent
 * finished, so it is said so, and the judge's score above is the arm's score.
 */
function ArmState({ outcome, judged }: { outcome: AttemptResult["outcome"]; judged: boolean }) {
  if (judged && outcome === "passed") {
    return (
      <Badge
        title="The agent finished; with no verifier, the judge's grading below is the arm's score"
        testId="trial-state"
      >
        Finished (judged)
      </Badge>
    );
  }
  return <TrialStateBadge state={outcome} />;
}

/** The effective configuration the arm ran with, as recorded when it ran (not today's configuration). */
function WhatRan({ snapshot }: { snapshot: ArmSnapshot | null }) {
  if (snapshot === null) {
    return <p className="muted">What ran: not recorded.</p>;
  }
  return (
    <>
      <p className="muted" data-testid="arm-snapshot">
        {ranWithLong(snapshot)}
      </p>
      {snapshot.disk_limit !== null && (
        <p className="muted" data-testid="arm-disk-limit">
          Disk bounded by {snapshot.disk_limit}, in the set-up, the agent's run and the verifier's.
        </p>
      )}
      <Egress lines={snapshot.egress} />
    </>
  );
}

/** What a watched CLI harness's container tried to reach besides its model calls. */
function Egress({ lines }: { lines: string[] | null }) {
  if (lines === null) return null;
  if (lines.length === 0) {
    return (
      <p className="muted" data-testid="arm-egress" data-count="0">
        Network: only the model calls, through the proxy (the container's other traffic was watched; there was none).
      </p>
    );
  }
  return (
    <div className="notice notice-warning" data-testid="arm-egress" data-count={lines.length}>
      <strong>The container tried to reach more than the model</strong> (nothing left the machine: a recording sink
      answered):
      <ul>
        {lines.map((line, i) => (
          <li key={i}>
            <code>{line}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Excerpt({ title, text }: { title: string; text: string }) {
  return (
    <div className="attempt-output">
      <h4>{title}</h4>
      {text === "" ? (
        <p className="muted">(empty)</p>
      ) : (
        <ClippedText text={text} {...EXCERPT} className="output" testId={`arm-${title.replace(" ", "-")}`} />
      )}
    </div>
  );
}
