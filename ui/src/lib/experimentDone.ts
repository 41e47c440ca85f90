import type { ExperimentView } from "../bindings/ExperimentView";
import { plural } from "./format";

/** "Experiment e1 finished: 7 of 12 pairs scored". */
export function doneText(name: string, scored: number, pairs: number): string {
  return `Experiment ${name} finished: ${scored} of ${plural(pairs, "pair")} scored`;
}

export type DoneDeps = {
  experiments: () => Promise<ExperimentView[]>;
  /** How many of the experiment's pairs are scored. */
  scored: (id: number) => Promise<number>;
  tell: (text: string) => void;
};

/**
 * Follows experiments until their last trial ends, then tells how many pairs were scored, once.
 * `trialEnded` is fed every trial that reaches a final state; checks never overlap, and a trial
 * that ends during a check brings another one, so the last trial is never missed.
 */
export function doneWatcher(deps: DoneDeps) {
  /** Experiment id → its run id, once a check has learned it. */
  const watched = new Map<number, number | null>();
  let checking: Promise<void> | null = null;
  let again = false;

  async function check() {
    const list = await deps.experiments();
    for (const id of watched.keys()) {
      const e = list.find((x) => x.id === id);
      if (e === undefined) {
        watched.delete(id);
      } else if (e.pairs > 0 && e.pairs_finished === e.pairs) {
        watched.delete(id);
        deps.tell(doneText(e.name, await deps.scored(id), e.pairs));
      } else {
        watched.set(id, e.run_id);
      }
    }
  }

  async function loop() {
    do {
      again = false;
      // A failed check tells nothing: a later trial brings the next one.
      await check().catch(() => undefined);
    } while (again);
    checking = null;
  }

  return {
    watch(id: number) {
      if (!watched.has(id)) watched.set(id, null);
    },
    unwatch(id: number) {
      watched.delete(id);
    },
    trialEnded(runId: number): Promise<void> {
      if (![...watched.values()].some((run) => run === null || run === runId)) return Promise.resolve();
      if (checking) {
        again = true;
        return checking;
      }
      checking = loop();
      return checking;
    },
  };
}
