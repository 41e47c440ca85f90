import { describe, expect, it } from "vitest";
import type { ArmView } from "../bindings/ArmView";
import type { ExperimentDesign } from "../bindings/ExperimentDesign";
import type { ExperimentView } from "../bindings/ExperimentView";
import type { PairView } from "../bindings/PairView";
import type { Provenance } from "../bindings/Provenance";
import type { StatsReport } from "../bindings/StatsReport";
import type { StatsSummary } from "../bindings/StatsSummary";
import type { TrialState } from "../bindings/TrialState";
import {
  classCounts,
  deltaBar,
  designText,
  groupReasons,
  pairDelta,
  originLabel,
  pairProgress,
  rerunText,
  runOrigins,
  skillRows,
  skillVersionIds,
  judgeWork,
  unscoredEnded,
} from "./experiments";
import { DEFAULT_TASK_SETTINGS } from "./experimentForm";
import { formatCi, formatDelta, formatGain, formatP, formatPoints, formatRate, signFlipText } from "./statsFormat";

const arm = (state: TrialState, score: number | null = null): ArmView => ({
  trial_id: 1,
  state,
  score,
  reruns: 0,
  skills_listed: null,
  skills_seen_sha256: null,
  image_digest: null,
  agent_secs: null,
  effective_input_tokens: null,
  error: null,
  snapshot: null,
  checks: [],
  judgement: null,
  rubric: null,
  rubric_scores: null,
});

const pair = (id: number, without: ArmView, withArm: ArmView, excluded: string[] = []): PairView => ({
  id,
  skill: "pdf",
  skill_version_id: 3,
  skill_version: 1,
  task: "t1",
  config: "small",
  condition: "isolated",
  repeat: 1,
  without,
  with: withArm,
  excluded,
  fairness: [],
  ran_with: [],
  preference: null,
});

const summary = (patch: Partial<StatsSummary>): StatsSummary =>
  ({
    skill: "pdf",
    config: "all",
    class: "ineffective",
    p_signflip: 0.5,
    p_signflip_method: "exact",
    p_signflip_error: 0,
    ...patch,
  }) as StatsSummary;

const design: ExperimentDesign = {
  name: "e",
  skill_version_ids: [1, 2],
  decoy_version_ids: [],
  task_set_id: null,
  tasks: [
    {
      id: "t1",
      instruction: "x",
      image: "i",
      workspace: null,
      verifier: ["true"],
      scoring: null,
      dockerfile_context: null,
      verifier_in_place: false,
      accepted_skill_paths: [],
      settings: DEFAULT_TASK_SETTINGS,
    },
  ],
  agent_config_ids: [7],
  conditions: ["isolated", "group"],
  repeats: 3,
  only: [],
  judge: null,
};

describe("experiment design", () => {
  it("describes the pairs", () => {
    expect(designText(design)).toBe("2 skills × 1 task × 1 config × 2 conditions × 3 repeats");
  });

  it("counts the judged tasks' finished arms without a judgement and the scored pairs not compared", () => {
    const judged: ExperimentDesign = {
      ...design,
      tasks: [
        ...design.tasks,
        { ...design.tasks[0], id: "j", scoring: { kind: "needs_judge", expectations: ["e"], expected_output: null } },
      ],
      judge: { provider: "p", model: "m", prompts: "v1" },
    };
    const onJudged = (without: ArmView, withArm: ArmView): PairView => ({
      ...pair(1, without, withArm, ["an arm not judged yet"]),
      task: "j",
    });
    const graded = { ...arm("passed", 1), judgement: {} as ArmView["judgement"], rubric: {} as ArmView["rubric"] };
    const pairs = [
      onJudged(arm("passed"), arm("failed")),
      onJudged(arm("agent_error"), arm("running")),
      onJudged(graded, arm("infra_error")),
      pair(2, arm("passed"), arm("passed")),
      { ...pair(3, arm("passed"), arm("passed")), preference: {} as PairView["preference"] },
    ];
    // Two in the first pair, one in the second; running, infrastructure errors, graded arms and
    // tasks with their own verifier wait for no grading. Every finished arm but the one given the
    // rubric waits for it. Only the last two pairs are scored, one compared.
    expect(judgeWork(judged, pairs)).toEqual({ arms: 3, rubric: 7, pairs: 1 });
    expect(judgeWork(design, pairs).arms).toBe(0);
  });
});

describe("pairs", () => {
  const unfinished = "with arm not finished";
  const digest = "the arms ran different image digests";
  const pairs = [
    pair(1, arm("passed", 1), arm("passed", 1)),
    pair(2, arm("passed", 0), arm("queued"), [unfinished]),
    pair(3, arm("failed", 0), arm("passed", 1), [digest]),
    pair(4, arm("infra_error"), arm("passed", 1), ["without arm ended infra_error after 3 attempt(s)", digest]),
    pair(5, arm("passed", 1), arm("passed", 1), [digest, digest]),
  ];

  it("splits progress into scored, pending and excluded", () => {
    expect(pairProgress(pairs)).toEqual({ total: 5, scored: 1, pending: 1, excluded: 3 });
    expect(pairProgress([])).toEqual({ total: 0, scored: 0, pending: 0, excluded: 0 });
  });

  it("groups the reasons of finished excluded pairs, commonest first, each pair counted once", () => {
    expect(groupReasons(pairs)).toEqual([
      { reason: digest, count: 3 },
      { reason: "without arm ended infra_error after 3 attempt(s)", count: 1 },
    ]);
  });

  it("counts the ended pairs without a score, which a re-run queues again", () => {
    expect(unscoredEnded(pairs)).toBe(3);
    expect(rerunText(3)).toBe(
      "Re-run the 3 ended pairs without a score as a new experiment (scored pairs are never re-run)",
    );
    expect(unscoredEnded(pairs.slice(0, 2))).toBe(0);
    expect(rerunText(0)).toBe("No ended pair is without a score: there is nothing to re-run.");
  });

  it("computes a pair's delta in points once both arms are scored", () => {
    expect(pairDelta(pairs[2])).toBe(100);
    expect(pairDelta(pairs[1])).toBeNull();
  });
});

describe("skill summaries", () => {
  const report = {
    overall: { n_pairs: 0, mean_without: 0, mean_with: 0, delta: 0 },
    skills: [summary({ skill: "a", class: "golden" }), summary({ skill: "b", class: "ineffective" })],
    groups: [
      summary({ skill: "b", config: "x" }),
      summary({ skill: "a", config: "x" }),
      summary({ skill: "a", config: "y" }),
    ],
  } as StatsReport;

  it("counts the classes of the pooled rows", () => {
    expect(classCounts(report.skills)).toEqual({
      golden: 1,
      ineffective: 1,
      undecided: 0,
      too_few_tasks: 0,
      harmful: 0,
    });
  });

  it("nests each skill's configuration rows under its pooled row", () => {
    const key = (s: StatsSummary) => `${s.skill}/${s.config}`;
    expect(skillRows(report, true).map(key)).toEqual(["a/all", "a/x", "a/y", "b/all", "b/x"]);
    expect(skillRows(report, false).map(key)).toEqual(["a/all", "b/all"]);
  });
});

describe("delta bar", () => {
  it("grows from the centre, right for gains and left for losses, clamped to ±100", () => {
    expect(deltaBar(40)).toEqual({ left: 50, width: 20, direction: "up" });
    expect(deltaBar(-30)).toEqual({ left: 35, width: 15, direction: "down" });
    expect(deltaBar(0)).toEqual({ left: 50, width: 0, direction: "none" });
    expect(deltaBar(-250)).toEqual({ left: 0, width: 50, direction: "down" });
  });
});

describe("statistics formatting", () => {
  it("formats p-values", () => {
    expect(formatP(0.0004)).toBe("< 0.001");
    expect(formatP(0.001)).toBe("0.001");
    expect(formatP(0.04321)).toBe("0.043");
    expect(formatP(1)).toBe("1.000");
  });

  it("names the sign-flip method unless exact", () => {
    expect(signFlipText(summary({ p_signflip: 0.031 }))).toBe("0.031");
    expect(signFlipText(summary({ p_signflip: 0.031, p_signflip_method: "grid" }))).toBe("0.031 (grid)");
    expect(signFlipText(summary({ p_signflip: 0.00001, p_signflip_method: "grid" }))).toBe("< 0.001 (grid)");
  });

  it("formats points, signed deltas, intervals, gains and rates", () => {
    expect(formatPoints(42.25)).toBe("42.3");
    expect(formatPoints(null)).toBe("—");
    expect(formatDelta(12.5)).toBe("+12.5");
    expect(formatDelta(-3)).toBe("−3.0");
    expect(formatDelta(-0.01)).toBe("0.0");
    expect(formatCi(-2.14, 15.3)).toBe("[−2.1, +15.3]");
    expect(formatGain(0.25)).toBe("+0.25");
    expect(formatGain(null)).toBe("—");
    expect(formatRate(0.4)).toBe("40%");
  });
});

describe("skillVersionIds", () => {
  it("names each skill once with its version id", () => {
    const a = pair(1, arm("passed"), arm("passed"));
    const b = { ...a, id: 2, skill: "xlsx", skill_version_id: 8 };
    expect(skillVersionIds([a, b, { ...a, id: 3 }])).toEqual([
      ["pdf", 3],
      ["xlsx", 8],
    ]);
  });
});

describe("experiment origins", () => {
  const provenance = (kind: Provenance["kind"]): Provenance => ({
    kind,
    sentence: `${kind} sentence`,
    produced_at: "2026-01-01T00:00:00Z",
    produced_by: "skillscope demo generate",
    imported_at: null,
  });
  const design: ExperimentDesign = {
    name: "d",
    skill_version_ids: [1],
    decoy_version_ids: [],
    task_set_id: null,
    tasks: [],
    agent_config_ids: [1],
    conditions: ["isolated"],
    repeats: 1,
    only: [],
    judge: null,
  };
  const experiment = (id: number, run_id: number, p: Provenance | null): ExperimentView => ({
    id,
    name: `e${id}`,
    run_id,
    created_at: "",
    design,
    provenance: p,
    pairs: 0,
    pairs_finished: 0,
  });

  it("labels demo and imported experiments and maps only their runs", () => {
    expect(originLabel(provenance("demo"))).toBe("Demo");
    expect(originLabel(provenance("import"))).toBe("Imported");
    const origins = runOrigins([
      experiment(1, 10, provenance("demo")),
      experiment(2, 20, null),
      experiment(3, 30, provenance("import")),
    ]);
    expect([...origins.keys()].sort()).toEqual([10, 30]);
    expect(origins.get(10)?.kind).toBe("demo");
    expect(origins.has(20)).toBe(false);
  });
});
