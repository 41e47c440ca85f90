import type { VersionInfo } from "../bindings/VersionInfo";

export type VersionPair = { from: number; to: number };

/** Default comparison: the previous version against the latest one (by version number). */
export function defaultVersionPair(versions: VersionInfo[]): VersionPair | null {
  if (versions.length < 2) return null;
  const sorted = [...versions].sort((a, b) => b.version - a.version);
  return { from: sorted[1].id, to: sorted[0].id };
}

/** Orders a pair so that the older version is "from". */
export function orderPair(pair: VersionPair, versions: VersionInfo[]): VersionPair {
  const number = (id: number) => versions.find((v) => v.id === id)?.version ?? 0;
  return number(pair.from) <= number(pair.to) ? pair : { from: pair.to, to: pair.from };
}
