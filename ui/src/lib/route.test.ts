import { describe, expect, it } from "vitest";
import {
  activeSection,
  pairHref,
  parseRoute,
  resultsHref,
  runsHref,
  scansHref,
  skillHref,
  stepHref,
  taskSetHref,
  trajectoryHref,
} from "./route";

describe("parseRoute", () => {
  it("defaults to the library", () => {
    expect(parseRoute("")).toEqual({ page: "library" });
    expect(parseRoute("#/")).toEqual({ page: "library" });
  });

  it("parses sections and skill pages with tabs", () => {
    expect(parseRoute("#/settings")).toEqual({ page: "settings" });
    expect(parseRoute("#/skill/12")).toEqual({ page: "skill", id: 12, tab: "readme" });
    expect(parseRoute("#/skill/12/versions")).toEqual({ page: "skill", id: 12, tab: "versions" });
    expect(parseRoute("#/skill/12/review")).toEqual({ page: "skill", id: 12, tab: "review" });
  });

  it("parses the Scans page with an optional selected skill", () => {
    expect(parseRoute("#/scans")).toEqual({ page: "scans", skillId: null });
    expect(parseRoute(scansHref(7))).toEqual({ page: "scans", skillId: 7 });
    expect(activeSection(parseRoute(scansHref(7)))).toBe("scans");
    expect(parseRoute("#/scans/x").page).toBe("unknown");
    expect(parseRoute("#/scans/7/more").page).toBe("unknown");
  });

  it("parses the Tasks page with an optional open task set", () => {
    expect(parseRoute("#/tasks")).toEqual({ page: "tasks", id: null });
    expect(taskSetHref(6)).toBe("#/tasks/6");
    expect(parseRoute(taskSetHref(6))).toEqual({ page: "tasks", id: 6 });
    expect(activeSection(parseRoute(taskSetHref(6)))).toBe("tasks");
    expect(parseRoute("#/tasks/x").page).toBe("unknown");
    expect(parseRoute("#/tasks/6/1").page).toBe("unknown");
  });

  it("parses the Runs page with an optional run and trial", () => {
    expect(parseRoute("#/runs")).toEqual({ page: "runs", runId: null, trialId: null, stepId: null });
    expect(parseRoute(runsHref(2))).toEqual({ page: "runs", runId: 2, trialId: null, stepId: null });
    expect(parseRoute(runsHref(2, 7))).toEqual({ page: "runs", runId: 2, trialId: 7, stepId: null });
    expect(activeSection(parseRoute(runsHref(2, 7)))).toBe("runs");
    expect(parseRoute("#/runs/2/7/1").page).toBe("unknown");
    expect(parseRoute("#/runs/x").page).toBe("unknown");
  });

  it("parses the Trajectories page with a trajectory and a step", () => {
    expect(parseRoute("#/trajectories")).toEqual({ page: "trajectories", id: null, stepId: null });
    expect(parseRoute(trajectoryHref(8))).toEqual({ page: "trajectories", id: 8, stepId: null });
    expect(parseRoute(trajectoryHref(8, 4321))).toEqual({ page: "trajectories", id: 8, stepId: 4321 });
    expect(trajectoryHref(8, 5)).toBe("#/trajectories/8/step/5");
    expect(activeSection(parseRoute(trajectoryHref(8)))).toBe("trajectories");
    expect(parseRoute("#/trajectories/8/9").page).toBe("unknown");
    expect(parseRoute("#/trajectories/8/step/x").page).toBe("unknown");
    expect(parseRoute("#/trajectories/x").page).toBe("unknown");
  });

  it("round-trips a link to one step of a trial's trajectory", () => {
    expect(stepHref(2, 7, 5)).toBe("#/runs/2/7/step/5");
    expect(parseRoute(stepHref(2, 7, 5))).toEqual({ page: "runs", runId: 2, trialId: 7, stepId: 5 });
    expect(parseRoute("#/runs/2/7/step/0")).toEqual({ page: "runs", runId: 2, trialId: 7, stepId: 0 });
    expect(activeSection(parseRoute(stepHref(2, 7, 5)))).toBe("runs");
    expect(parseRoute("#/runs/2/7/step").page).toBe("unknown");
    expect(parseRoute("#/runs/2/7/step/x").page).toBe("unknown");
    expect(parseRoute("#/runs/2/7/steps/5").page).toBe("unknown");
    expect(parseRoute("#/runs/2/x/step/5").page).toBe("unknown");
    expect(parseRoute("#/runs/2/7/step/5/1").page).toBe("unknown");
  });

  it("parses the Results page with an optional experiment", () => {
    expect(parseRoute("#/results")).toEqual({ page: "results", experimentId: null });
    expect(parseRoute(resultsHref(4))).toEqual({ page: "results", experimentId: 4 });
    expect(parseRoute("#/results/4/1").page).toBe("unknown");
  });

  it("parses the pair view of an experiment and highlights Results", () => {
    expect(parseRoute(pairHref(4, 9))).toEqual({ page: "pair", experimentId: 4, pairId: 9 });
    expect(activeSection(parseRoute(pairHref(4, 9)))).toBe("results");
    expect(parseRoute("#/pair/4").page).toBe("unknown");
    expect(parseRoute("#/pair/4/9/1").page).toBe("unknown");
    expect(parseRoute("#/pair/4/x").page).toBe("unknown");
  });

  it("parses the decision tab of a skill", () => {
    expect(parseRoute(skillHref(5, "decision"))).toEqual({ page: "skill", id: 5, tab: "decision" });
  });

  it("rejects anything else", () => {
    expect(parseRoute("#/skill/abc").page).toBe("unknown");
    expect(parseRoute("#/skill/1/nope").page).toBe("unknown");
    expect(parseRoute("#/settings/extra").page).toBe("unknown");
  });

  it("round-trips skill links and highlights the library for skills", () => {
    expect(parseRoute(skillHref(5, "files"))).toEqual({ page: "skill", id: 5, tab: "files" });
    expect(parseRoute(skillHref(5))).toEqual({ page: "skill", id: 5, tab: "readme" });
    expect(activeSection(parseRoute(skillHref(5)))).toBe("library");
  });
});
