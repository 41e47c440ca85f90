/** The output of a running trial as it arrives: seeded from `trial_log`, then extended by log events. */
export type LiveLog = {
  trialId: number;
  text: string;
  /** False until the seed arrives; events received meanwhile wait in `early`. */
  seeded: boolean;
  early: string[];
};

/** Like the back end's buffer, keep only the last 256 KiB (in characters) of output. */
export const LOG_LIMIT = 256 * 1024;

const keepTail = (text: string) => (text.length > LOG_LIMIT ? text.slice(text.length - LOG_LIMIT) : text);

export function startLog(trialId: number): LiveLog {
  return { trialId, text: "", seeded: false, early: [] };
}

export function appendLog(log: LiveLog, text: string): LiveLog {
  return log.seeded ? { ...log, text: keepTail(log.text + text) } : { ...log, early: [...log.early, text] };
}

/**
 * Joins the seed with the events received while it was loading. The seed already holds the
 * events emitted before it was read: those are the longest run of early events it ends with.
 */
export function mergeSeed(seed: string, early: string[]): string {
  for (let k = early.length; k > 0; k--) {
    if (seed.endsWith(early.slice(0, k).join(""))) return keepTail(seed + early.slice(k).join(""));
  }
  return keepTail(seed + early.join(""));
}

export function seedLog(log: LiveLog, seed: string): LiveLog {
  return { ...log, text: mergeSeed(seed, log.early), seeded: true, early: [] };
}
