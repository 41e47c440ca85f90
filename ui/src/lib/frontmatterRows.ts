import type { Frontmatter } from "../bindings/Frontmatter";
import { formatValue } from "./format";

export type FrontmatterRow = {
  key: string;
  value: string;
  origin: "standard" | "metadata" | "unknown";
  missing: boolean;
};

/** Flattens frontmatter into table rows: standard fields, then metadata.*, then unknown fields. */
export function frontmatterRows(fm: Frontmatter): FrontmatterRow[] {
  const standard: [string, unknown][] = [
    ["name", fm.name],
    ["description", fm.description],
    ["license", fm.license],
    ["compatibility", fm.compatibility],
    ["allowed-tools", fm.allowed_tools.length > 0 ? fm.allowed_tools.join(", ") : null],
  ];
  const row = (key: string, value: unknown, origin: FrontmatterRow["origin"]): FrontmatterRow => ({
    key,
    value: formatValue(value),
    origin,
    missing: value === null || value === undefined,
  });
  const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => a.localeCompare(b);
  return [
    ...standard.map(([k, v]) => row(k, v, "standard")),
    ...Object.entries(fm.metadata)
      .sort(byKey)
      .map(([k, v]) => row(`metadata.${k}`, v, "metadata")),
    ...Object.entries(fm.extra)
      .sort(byKey)
      .map(([k, v]) => row(k, v, "unknown")),
  ];
}
