import { describe, expect, it } from "vitest";
import type { FileEntry } from "../bindings/FileEntry";
import { buildFileTree, type TreeNode } from "./fileTree";

const entry = (path: string): FileEntry => ({ path, size: 1, sha256: "00", binary: false });

const outline = (nodes: TreeNode[]): unknown[] =>
  nodes.map((n) => (n.type === "dir" ? { [n.path + "/"]: outline(n.children) } : n.path));

describe("buildFileTree", () => {
  it("nests paths into folders, folders first, both sorted by name", () => {
    const tree = buildFileTree(
      ["SKILL.md", "scripts/run.py", "assets/logo.png", "scripts/lib/util.py", "README.md"].map(entry),
    );
    expect(outline(tree)).toEqual([
      { "assets/": ["assets/logo.png"] },
      { "scripts/": [{ "scripts/lib/": ["scripts/lib/util.py"] }, "scripts/run.py"] },
      "README.md",
      "SKILL.md",
    ]);
  });

  it("keeps the file entry on leaves", () => {
    const [leaf] = buildFileTree([entry("a.txt")]);
    expect(leaf.type === "file" && leaf.file.path).toBe("a.txt");
  });
});
