import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "./unifiedDiff";

describe("parseUnifiedDiff", () => {
  it("classifies lines and numbers them from the hunk header", () => {
    const diff = ["--- a/SKILL.md", "+++ b/SKILL.md", "@@ -3,3 +3,3 @@", " same", "-old", "+new", " tail", ""].join(
      "\n",
    );
    expect(parseUnifiedDiff(diff).map((l) => [l.kind, l.oldLine, l.newLine, l.text])).toEqual([
      ["header", null, null, "--- a/SKILL.md"],
      ["header", null, null, "+++ b/SKILL.md"],
      ["hunk", null, null, "@@ -3,3 +3,3 @@"],
      ["context", 3, 3, " same"],
      ["removed", 4, null, "-old"],
      ["added", null, 4, "+new"],
      ["context", 5, 5, " tail"],
    ]);
  });

  it("treats '\\ No newline at end of file' as a header line", () => {
    const lines = parseUnifiedDiff("@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b");
    expect(lines.map((l) => l.kind)).toEqual(["hunk", "removed", "header", "added"]);
  });
});
