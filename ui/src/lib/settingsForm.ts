import type { PriceImport } from "../bindings/PriceImport";
import type { PriceRow } from "../bindings/PriceRow";
import type { Settings } from "../bindings/Settings";
import { plural } from "./format";
import { emptyToNull, formReader, type Parsed } from "./forms";

/** A price row as typed; `key` tells rows apart while their model names change. */
export type PriceFields = { key: number; model: string; input: string; cached: string; output: string };

/** The run settings form's fields, as typed; a blank deadline means none. */
export type SettingsFields = Record<
  "concurrency" | "attempts" | "deadline" | "quality_gate" | "risky_below",
  string
> & {
  prices: PriceFields[];
};

export function settingsFields(s: Settings): SettingsFields {
  return {
    concurrency: String(s.queue_concurrency),
    attempts: String(s.queue_max_attempts),
    deadline: s.trial_deadline_secs === null ? "" : String(s.trial_deadline_secs),
    quality_gate: String(s.scan_quality_gate),
    risky_below: String(s.scan_risky_below),
    prices: s.prices.map((p, key) => ({
      key,
      model: p.model,
      input: String(p.input_per_mtok),
      cached: p.cached_per_mtok === null ? "" : String(p.cached_per_mtok),
      output: String(p.output_per_mtok),
    })),
  };
}

/** A blank row with a key no row in `rows` has. */
export function newPriceRow(rows: PriceFields[]): PriceFields {
  const key = rows.reduce((max, r) => Math.max(max, r.key), -1) + 1;
  return { key, model: "", input: "", cached: "", output: "" };
}

/**
 * The keys of the rows whose model name holds `filter` (any case), or null for a blank filter (all
 * rows). Taken once when the filter is typed, so a row being renamed does not vanish mid-edit.
 */
export function matchingKeys(rows: PriceFields[], filter: string): Set<number> | null {
  const needle = filter.trim().toLowerCase();
  if (needle === "") return null;
  return new Set(rows.filter((r) => r.model.toLowerCase().includes(needle)).map((r) => r.key));
}

/** The number typed in a field if it is one from `min` to `max`, else null. */
function parseNumber(text: string, min: number, max = Infinity): number | null {
  const trimmed = emptyToNull(text);
  const value = Number(trimmed);
  return trimmed !== null && Number.isFinite(value) && value >= min && value <= max ? value : null;
}

type Reader = ReturnType<typeof formReader>;

/** The price rows, reporting blank and repeated names and prices that are not 0 or more dollars. */
function parsePrices(r: Reader, rows: PriceFields[]): PriceRow[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  let unnamed = 0;
  const prices = rows.map((row) => {
    const model = row.model.trim();
    if (model === "") unnamed += 1;
    else if (seen.has(model)) repeated.add(model);
    seen.add(model);
    const input = parseNumber(row.input, 0);
    const output = parseNumber(row.output, 0);
    const cachedText = emptyToNull(row.cached);
    const cached = cachedText === null ? null : parseNumber(cachedText, 0);
    const bad = [
      input === null && "input",
      cachedText !== null && cached === null && "cached input",
      output === null && "output",
    ].filter((name) => name !== false);
    const named = bad.length > 1 ? `${bad.slice(0, -1).join(", ")} and ${bad.at(-1)} prices are` : `${bad[0]} price is`;
    r.check(bad.length === 0, `${model || "A row without a name"}: the ${named} not a number of dollars, 0 or more.`);
    return { model, input_per_mtok: input ?? 0, cached_per_mtok: cached, output_per_mtok: output ?? 0 };
  });
  r.check(unnamed === 0, `${plural(unnamed, "price row has", "price rows have")} no model name.`);
  for (const model of repeated) r.check(false, `${model} is listed more than once.`);
  return prices;
}

/** The settings the fields describe, or everything wrong with them; paths and the price source come from `base`. */
export function parseSettings(fields: SettingsFields, base: Settings): Parsed<Settings> {
  const r = formReader();
  const deadline = emptyToNull(fields.deadline);
  const queue_concurrency = r.whole(fields.concurrency, "Queue concurrency", 1, 64);
  const queue_max_attempts = r.whole(fields.attempts, "Attempts per trial", 1, 10);
  const trial_deadline_secs = deadline === null ? null : r.whole(deadline, "The trial deadline (seconds)", 1);
  const qualityGate = parseNumber(fields.quality_gate, 0, 100);
  r.check(qualityGate !== null, "The quality gate must be a number from 0 to 100.");
  const scan_risky_below = r.whole(fields.risky_below, "Risky below", 0, 100);
  const prices = parsePrices(r, fields.prices);
  return r.done({
    ...base,
    queue_concurrency,
    queue_max_attempts,
    trial_deadline_secs,
    scan_quality_gate: qualityGate ?? 0,
    scan_risky_below,
    prices,
  });
}

/** "Added 3, updated 1; 2 entries without per-token prices left out". */
export function importSummary({ added, updated, skipped }: PriceImport): string {
  const changed = `Added ${added}, updated ${updated}`;
  return skipped.length === 0
    ? changed
    : `${changed}; ${plural(skipped.length, "entry", "entries")} without per-token prices left out`;
}
