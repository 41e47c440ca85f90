import { describe, expect, it } from "vitest";
import type { Settings } from "../bindings/Settings";
import type { Parsed } from "./forms";
import {
  importSummary,
  matchingKeys,
  newPriceRow,
  parseSettings,
  settingsFields,
  type PriceFields,
} from "./settingsForm";

const settings: Settings = {
  queue_concurrency: 4,
  queue_max_attempts: 2,
  trial_deadline_secs: null,
  scan_quality_gate: 62.5,
  scan_risky_below: 40,
  prices: [
    { model: "claude-sonnet-4-5", input_per_mtok: 3, cached_per_mtok: 0.3, output_per_mtok: 15 },
    { model: "gpt-4.1-mini", input_per_mtok: 0.4, cached_per_mtok: null, output_per_mtok: 1.6 },
  ],
  prices_from_file: false,
  config_path: "/home/u/.skillscope/config.toml",
  prices_path: "/home/u/.skillscope/prices.toml",
};

function problems<T>(result: Parsed<T>): string[] {
  if (result.ok) throw new Error(`expected problems, parsed ${JSON.stringify(result.value)}`);
  return result.problems;
}

const row = (key: number, model: string, input = "1", cached = "", output = "2"): PriceFields => ({
  key,
  model,
  input,
  cached,
  output,
});

describe("run settings form", () => {
  it("round-trips the settings, a blank deadline and cached price as null", () => {
    const fields = settingsFields(settings);
    expect(fields).toMatchObject({ deadline: "", quality_gate: "62.5" });
    expect(fields.prices[1]).toEqual({ key: 1, model: "gpt-4.1-mini", input: "0.4", cached: "", output: "1.6" });
    expect(parseSettings(fields, settings)).toEqual({ ok: true, value: settings });
  });

  it("reads a deadline, trims model names and keeps the paths of the settings in force", () => {
    const fields = { ...settingsFields(settings), deadline: " 900 ", prices: [row(0, " m ", "0", " 0.5 ", "0")] };
    expect(parseSettings(fields, settings)).toEqual({
      ok: true,
      value: {
        ...settings,
        trial_deadline_secs: 900,
        prices: [{ model: "m", input_per_mtok: 0, cached_per_mtok: 0.5, output_per_mtok: 0 }],
      },
    });
  });

  it("reports every number out of range, in the form's order", () => {
    const fields = {
      ...settingsFields(settings),
      concurrency: "65",
      attempts: "0",
      deadline: "0",
      quality_gate: "100.5",
      risky_below: "7.5",
    };
    expect(problems(parseSettings(fields, settings))).toEqual([
      "Queue concurrency must be a whole number from 1 to 64.",
      "Attempts per trial must be a whole number from 1 to 10.",
      "The trial deadline (seconds) must be a whole number of at least 1.",
      "The quality gate must be a number from 0 to 100.",
      "Risky below must be a whole number from 0 to 100.",
    ]);
    expect(problems(parseSettings({ ...settingsFields(settings), quality_gate: " " }, settings))).toHaveLength(1);
  });

  it("reports blank and repeated model names and prices that are not 0 or more", () => {
    const prices = [
      row(0, "a", "-1", "x", "1"),
      row(1, " ", "1", "", ""),
      row(2, ""),
      row(3, "a"),
      row(4, "b", "1", "", "-0.1"),
      row(5, "c", "", "-", ""),
    ];
    expect(problems(parseSettings({ ...settingsFields(settings), prices }, settings))).toEqual([
      "a: the input and cached input prices are not a number of dollars, 0 or more.",
      "A row without a name: the output price is not a number of dollars, 0 or more.",
      "b: the output price is not a number of dollars, 0 or more.",
      "c: the input, cached input and output prices are not a number of dollars, 0 or more.",
      "2 price rows have no model name.",
      "a is listed more than once.",
    ]);
  });

  it("gives a new row a key no row has", () => {
    expect(newPriceRow([])).toEqual(row(0, "", "", "", ""));
    expect(newPriceRow([row(3, "a"), row(1, "b")]).key).toBe(4);
  });

  it("filters rows by a part of the model name in any case, all rows for a blank filter", () => {
    const rows = [row(0, "gpt-4.1"), row(1, "GPT-5"), row(2, "claude-opus-4")];
    expect(matchingKeys(rows, " ")).toBeNull();
    expect(matchingKeys(rows, "gpt")).toEqual(new Set([0, 1]));
    expect(matchingKeys(rows, "Opus")).toEqual(new Set([2]));
    expect(matchingKeys(rows, "mistral")).toEqual(new Set());
  });

  it("sums up an import, naming the entries left out only when there are some", () => {
    expect(importSummary({ added: 3, updated: 1, skipped: ["sample_spec", "dall-e-3"], settings })).toBe(
      "Added 3, updated 1; 2 entries without per-token prices left out",
    );
    expect(importSummary({ added: 0, updated: 0, skipped: ["x"], settings })).toBe(
      "Added 0, updated 0; 1 entry without per-token prices left out",
    );
    expect(importSummary({ added: 2, updated: 0, skipped: [], settings })).toBe("Added 2, updated 0");
  });
});
