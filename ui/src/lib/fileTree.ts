import type { FileEntry } from "../bindings/FileEntry";

export type TreeNode =
  | { type: "dir"; name: string; path: string; children: TreeNode[] }
  | { type: "file"; name: string; path: string; file: FileEntry };

type DirNode = Extract<TreeNode, { type: "dir" }>;

function sortTree(nodes: TreeNode[]): TreeNode[] {
  nodes.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === "dir" ? -1 : 1));
  nodes.forEach((node) => node.type === "dir" && sortTree(node.children));
  return nodes;
}

/** Builds a folder tree from flat "a/b/c.txt" paths: folders first, then files, each by name. */
export function buildFileTree(files: FileEntry[]): TreeNode[] {
  const root: DirNode = { type: "dir", name: "", path: "", children: [] };
  for (const file of files) {
    const parts = file.path.split("/").filter(Boolean);
    let dir = root;
    parts.slice(0, -1).forEach((name) => {
      const path = dir.path ? `${dir.path}/${name}` : name;
      let next = dir.children.find((c): c is DirNode => c.type === "dir" && c.name === name);
      if (!next) {
        next = { type: "dir", name, path, children: [] };
        dir.children.push(next);
      }
      dir = next;
    });
    dir.children.push({ type: "file", name: parts[parts.length - 1] ?? file.path, path: file.path, file });
  }
  return sortTree(root.children);
}
