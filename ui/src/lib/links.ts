// What a link in a skill's rendered SKILL.md leads to: a web or mail link opens outside the app,
// a relative link names a file of the skill (shown in the Files tab), anything else goes nowhere.

export type LinkTarget = { kind: "outside" } | { kind: "file"; path: string } | { kind: "none" };

export function linkTarget(href: string, files: readonly string[]): LinkTarget {
  const h = href.trim();
  if (/^(https?|mailto):/i.test(h)) return { kind: "outside" };
  if (h === "" || h.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(h) || h.startsWith("/")) return { kind: "none" };
  const path = normalise(decodeURIComponentSafe(h.split(/[?#]/)[0] ?? ""));
  return path !== null && files.includes(path) ? { kind: "file", path } : { kind: "none" };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `./a/../b.md` → `b.md`; null when the path climbs out of the skill. */
function normalise(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}
