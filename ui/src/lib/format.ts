import type { Source } from "../bindings/Source";

const pad = (n: number) => String(n).padStart(2, "0");

/** "2025-03-04 09:05" in local time; the input unchanged if it is not a date. */
export function formatDateTime(rfc3339: string): string {
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime())) return rfc3339;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Human file size: "512 B", "1.5 KB", "2.0 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The first characters of a hash, without a "sha256:" prefix (image digests have one). */
export function shortSha(sha: string, length = 12): string {
  return sha.replace(/^sha256:/, "").slice(0, length);
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** "12 skills", or "3 of 12 skills" when a filter shows only some. */
export function shownOf(shown: number, total: number, singular: string): string {
  return shown === total ? plural(total, singular) : `${shown} of ${plural(total, singular)}`;
}

/** "git: https://x/y.git (subpath skills/pdf)". */
export function formatSource(source: Source): string {
  const sub = source.subpath ? ` (subpath ${source.subpath})` : "";
  return `${source.kind}: ${source.location}${sub}`;
}

/** Renders any JSON-like value for display in a table cell. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** "09:05:07" in local time; the input unchanged if it is not a date. */
export function formatClock(rfc3339: string): string {
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime())) return rfc3339;
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const GROUPED = new Intl.NumberFormat("en-US");

/** "12,345". */
export const formatCount = (n: number): string => GROUPED.format(n);

export type TokenUsage = { input?: number; cached?: number; output?: number };

/** "1,200 in · 1,000 cached · 56 out", leaving out the counts that are unknown. */
export function formatTokens({ input, cached, output }: TokenUsage): string {
  const parts: [number | undefined, string][] = [
    [input, "in"],
    [cached, "cached"],
    [output, "out"],
  ];
  return parts
    .filter((part): part is [number, string] => part[0] !== undefined)
    .map(([n, label]) => `${formatCount(n)} ${label}`)
    .join(" · ");
}

/** "$1.23", "$0.0042" for costs under a cent, "—" when the price is unknown. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "—";
  return `$${usd.toFixed(usd > 0 && usd < 0.01 ? 4 : 2)}`;
}
