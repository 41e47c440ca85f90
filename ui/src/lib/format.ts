import type { Source } from "../api/types";

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
