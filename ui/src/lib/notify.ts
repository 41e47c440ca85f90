// Desktop notifications when a followed experiment finishes, for as long as the app is open
// (whichever page is shown).
import { listen } from "@tauri-apps/api/event";
import { isPermissionGranted, requestPermission, sendNotification } from "@tauri-apps/plugin-notification";
import { hasBackend } from "../api/invoke";
import type { QueueEvent } from "../bindings/QueueEvent";
import { experimentResults, listExperiments, QUEUE_EVENT } from "../bindings/commands";
import { doneWatcher } from "./experimentDone";
import { isFinal } from "./trialStates";

/** Asked once; a refusal, or a system without notifications, means none is sent. */
let permission: Promise<boolean> | null = null;
const allowed = (): Promise<boolean> => {
  permission ??= (async () => (await isPermissionGranted()) || (await requestPermission()) === "granted")().catch(
    () => false,
  );
  return permission;
};

const watcher = doneWatcher({
  experiments: listExperiments,
  scored: async (id) => (await experimentResults(id)).pairs_scored,
  tell: (text) => void allowed().then((ok) => ok && sendNotification({ title: text })),
});

/** Set while the queue's events are followed; cleared if subscribing failed, so the next watch tries again. */
let listening: Promise<unknown> | null = null;

function followQueue() {
  listening ??= listen<QueueEvent>(QUEUE_EVENT, ({ payload }) => {
    if (payload.type === "trial" && isFinal(payload.trial.state)) void watcher.trialEnded(payload.trial.run_id);
  }).catch(() => {
    listening = null;
  });
}

/** Sends "Experiment <name> finished: k of n pairs scored" when the experiment's last trial ends. */
export function notifyWhenDone(experimentId: number) {
  if (!hasBackend()) return;
  // Asking now, right after the user's action, rather than when the experiment ends.
  void allowed();
  followQueue();
  watcher.watch(experimentId);
}

/** No notification for this experiment (its trials were cancelled on purpose). */
export function stopNotifying(experimentId: number) {
  watcher.unwatch(experimentId);
}
