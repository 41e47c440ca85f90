/** Colour band of a 0..100 score: good from 80, fair from 60, poor below. */
export type ScoreBand = "good" | "fair" | "poor";

export function scoreBand(score: number): ScoreBand {
  if (score >= 80) return "good";
  return score >= 60 ? "fair" : "poor";
}

/** Quality scores have one decimal: "87.3", "100.0". */
export function formatQuality(score: number): string {
  return score.toFixed(1);
}
