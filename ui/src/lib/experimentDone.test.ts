import { describe, expect, it } from "vitest";
import type { ExperimentView } from "../bindings/ExperimentView";
import { doneText, doneWatcher } from "./experimentDone";

const view = (id: number, run_id: number, pairs_finished: number, pairs = 4) =>
  ({ id, name: `e${id}`, run_id, pairs, pairs_finished }) as ExperimentView;

/** A watcher over experiments whose progress the test sets, and what it told. */
function setup() {
  const state = { list: [view(1, 10, 0), view(2, 20, 0)] };
  const told: string[] = [];
  const watcher = doneWatcher({
    experiments: async () => state.list,
    scored: async (id) => id + 2,
    tell: (text) => told.push(text),
  });
  return { state, told, watcher };
}

describe("experiment done", () => {
  it("words the notification", () => {
    expect(doneText("e1", 3, 4)).toBe("Experiment e1 finished: 3 of 4 pairs scored");
    expect(doneText("e1", 0, 1)).toBe("Experiment e1 finished: 0 of 1 pair scored");
  });

  it("tells once, when a watched experiment's last pair ends", async () => {
    const { state, told, watcher } = setup();
    watcher.watch(1);
    await watcher.trialEnded(10);
    expect(told).toEqual([]);
    state.list = [view(1, 10, 4), view(2, 20, 4)];
    await watcher.trialEnded(10);
    await watcher.trialEnded(10);
    expect(told).toEqual(["Experiment e1 finished: 3 of 4 pairs scored"]);
  });

  it("ignores other runs once it knows the watched one's, and forgets an unwatched experiment", async () => {
    const { state, told, watcher } = setup();
    watcher.watch(1);
    watcher.watch(2);
    await watcher.trialEnded(99);
    state.list = [view(1, 10, 4), view(2, 20, 4)];
    await watcher.trialEnded(99);
    expect(told).toEqual([]);
    watcher.unwatch(2);
    await watcher.trialEnded(20);
    expect(told).toEqual([]);
    await watcher.trialEnded(10);
    expect(told).toEqual(["Experiment e1 finished: 3 of 4 pairs scored"]);
  });

  it("checks again when a trial ends during a check", async () => {
    const { state, told, watcher } = setup();
    watcher.watch(1);
    const first = watcher.trialEnded(10);
    state.list = [view(1, 10, 4)];
    await Promise.all([first, watcher.trialEnded(10)]);
    expect(told).toEqual(["Experiment e1 finished: 3 of 4 pairs scored"]);
  });
});
