export type DiffLine = {
  kind: "added" | "removed" | "context" | "hunk" | "header";
  text: string;
  oldLine: number | null;
  newLine: number | null;
};

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Splits a unified diff into typed lines with old/new line numbers. */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  const lines = diff.replace(/\n$/, "").split("\n");
  return lines.map((text): DiffLine => {
    const hunk = HUNK.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      return { kind: "hunk", text, oldLine: null, newLine: null };
    }
    if (!inHunk || text.startsWith("\\")) return { kind: "header", text, oldLine: null, newLine: null };
    if (text.startsWith("+")) return { kind: "added", text, oldLine: null, newLine: newLine++ };
    if (text.startsWith("-")) return { kind: "removed", text, oldLine: oldLine++, newLine: null };
    return { kind: "context", text, oldLine: oldLine++, newLine: newLine++ };
  });
}
