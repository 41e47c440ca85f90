import type { ExperimentDesign } from "../bindings/ExperimentDesign";
import type { ExperimentView } from "../bindings/ExperimentView";
import type { PairView } from "../bindings/PairView";
import type { Provenance } from "../bindings/Provenance";
import type { StatsClass } from "../bindings/StatsClass";
import type { StatsReport } from "../bindings/StatsReport";
import type { StatsSummary } from "../bindings/StatsSummary";
import { plural } from "./format";
import { isFinal } from "./trialStates";

/** "2 skills × 3 tasks × 1 config × 2 conditions × 5 repeats". */
export function designText(d: ExperimentDesign): string {
  return [
    plural(d.skill_version_ids.length, "skill"),
    plural(d.tasks.length, "task"),
    plural(d.agent_config_ids.length, "config"),
    plural(d.conditions.length, "condition"),
    plural(d.repeats, "repeat"),
  ].join(" × ");
}

/** The badge of an imported experiment: demo evidence (scripted model) or a bundle from elsewhere. */
export const originLabel = (p: Provenance): string => (p.kind === "demo" ? "Demo" : "Imported");

/** The provenance of each run that belongs to an imported experiment, by run id. */
export function runOrigins(experiments: ExperimentView[]): Map<number, Provenance> {
  return new Map(experiments.flatMap((e) => (e.provenance ? [[e.run_id, e.provenance] as const] : [])));
}

/** True while either arm of the pair is queued or running. */
export const isPending = (p: PairView): boolean => !isFinal(p.without.state) || !isFinal(p.with.state);

export type PairProgress = {
  total: number;
  scored: number;
  /** Pairs with an arm still queued or running. */
  pending: number;
  /** Finished pairs left out of the statistics (failed infrastructure or fairness check). */
  excluded: number;
};

export function pairProgress(pairs: PairView[]): PairProgress {
  const scored = pairs.filter((p) => p.excluded.length === 0).length;
  const pending = pairs.filter(isPending).length;
  return { total: pairs.length, scored, pending, excluded: pairs.length - scored - pending };
}

/** Pairs that ended without a score (unfair arms, infrastructure failures, cancelled arms): what a re-run queues again. */
export const unscoredEnded = (pairs: PairView[]): number =>
  pairs.filter((p) => p.excluded.length > 0 && !isPending(p)).length;

/** What the re-run button does, in full. */
export function rerunText(unscored: number): string {
  return unscored === 0
    ? "No ended pair is without a score: there is nothing to re-run."
    : `Re-run the ${plural(unscored, "ended pair")} without a score as a new experiment (scored pairs are never re-run)`;
}

export type ReasonCount = { reason: string; count: number };

/** Why finished pairs were left out: each reason once with how many pairs it excluded, commonest first. */
export function groupReasons(pairs: PairView[]): ReasonCount[] {
  const counts = new Map<string, number>();
  for (const pair of pairs.filter((p) => !isPending(p))) {
    for (const reason of new Set(pair.excluded)) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

export const CLASSES: readonly StatsClass[] = ["golden", "ineffective", "undecided", "too_few_tasks", "harmful"];

const CLASS_TEXT: Record<StatsClass, { label: string; description: string }> = {
  golden: {
    label: "Golden",
    description: "Golden = the skill raised the score: mean delta > 0 with sign-flip p < 0.05.",
  },
  harmful: {
    label: "Harmful",
    description: "Harmful = the skill lowered the score: mean delta < 0 with sign-flip p < 0.05.",
  },
  ineffective: {
    label: "Ineffective",
    description:
      "Ineffective = no directional effect detected, not 'no effect' (see the MDE for what could have been detected).",
  },
  undecided: {
    label: "Undecided",
    description:
      "Undecided = the certified bounds of the sign-flip p contain 0.05 even after refinement, so no verdict is given.",
  },
  too_few_tasks: {
    label: "Too few tasks",
    description: "Too few tasks to conclude: even if every task moved the same way, p could not fall below 0.05.",
  },
};

export const classLabel = (c: StatsClass): string => CLASS_TEXT[c].label;
export const classDescription = (c: StatsClass): string => CLASS_TEXT[c].description;

/** How many skills (pooled over configurations) fell into each class. */
export function classCounts(skills: StatsSummary[]): Record<StatsClass, number> {
  const counts: Record<StatsClass, number> = {
    golden: 0,
    ineffective: 0,
    undecided: 0,
    too_few_tasks: 0,
    harmful: 0,
  };
  for (const s of skills) counts[s.class] += 1;
  return counts;
}

/** Each skill's pooled row ("all"), followed by its per-configuration rows when `perConfig`. */
export function skillRows(report: StatsReport, perConfig: boolean): StatsSummary[] {
  return report.skills.flatMap((pooled) => [
    pooled,
    ...(perConfig ? report.groups.filter((g) => g.skill === pooled.skill) : []),
  ]);
}

/** Each skill's name with the version id the experiment tested (the first pair's, should a name repeat). */
export function skillVersionIds(pairs: PairView[]): [string, number][] {
  const byName = new Map<string, number>();
  for (const p of pairs) if (!byName.has(p.skill)) byName.set(p.skill, p.skill_version_id);
  return [...byName];
}

/** The pair's delta in points, once both arms have a score. */
export function pairDelta(p: PairView): number | null {
  return p.without.score === null || p.with.score === null ? null : 100 * (p.with.score - p.without.score);
}

export type DeltaBar = { left: number; width: number; direction: "up" | "down" | "none" };

/**
 * A delta of −100..100 points drawn from the middle of a bar: `left` and `width` are percentages of
 * the bar, the negative half left of the centre, the positive half right of it.
 */
export function deltaBar(delta: number): DeltaBar {
  const clamped = Math.max(-100, Math.min(100, delta));
  const width = Math.abs(clamped) / 2;
  return {
    left: clamped < 0 ? 50 - width : 50,
    width,
    direction: clamped > 0 ? "up" : clamped < 0 ? "down" : "none",
  };
}

const GRADED_STATES: ReadonlySet<string> = new Set(["passed", "failed", "agent_error"]);

/**
 * What the judge has left to do: finished arms of judged tasks without a judgement, finished arms
 * without ACES's rubric (routing cases get none), and scored pairs not yet compared.
 */
export function judgeWork(
  design: ExperimentDesign,
  pairs: PairView[],
): { arms: number; rubric: number; pairs: number } {
  const judged = new Set(design.tasks.filter((t) => t.scoring?.kind === "needs_judge").map((t) => t.id));
  const finished = (p: PairView) => [p.without, p.with].filter((arm) => GRADED_STATES.has(arm.state));
  const arms = pairs
    .filter((p) => judged.has(p.task))
    .flatMap(finished)
    .filter((arm) => arm.judgement === null).length;
  const routing = new Set(design.tasks.filter((t) => t.scoring?.kind === "routing").map((t) => t.id));
  const rubric = pairs
    .filter((p) => !routing.has(p.task))
    .flatMap(finished)
    .filter((arm) => arm.rubric === null).length;
  return { arms, rubric, pairs: pairs.filter((p) => p.excluded.length === 0 && p.preference === null).length };
}
